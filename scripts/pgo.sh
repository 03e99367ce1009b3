#!/usr/bin/env bash
# scripts/pgo.sh [OUT]: write a CPU profile of the weft command's checks
# for a profile-guided build (OUT, default bench/out/pgo/default.pgo; then
# `go build -pgo=OUT ./cmd/weft`; issue 13).
#
# Not used by the default build since stop 41. From stop 40 the profile
# sat in cmd/weft/default.pgo, where -pgo=auto takes it: 4-6% fewer
# instructions per check, but a small check runs each path about once,
# and the inlined copies are more code to fetch: cachegrind counted 7-17%
# more L1 code misses and 26-41% more L2 misses on rows 6 and 11, and
# interleaved timings of the same tree built both ways were even on rows
# 2, 3, 6, 8, 9 and 15 and 5-16% slower with the profile on row 11
# (docs/weft-sync.md, stop 41).
#
# Why: a check spends its time in many small functions (the sync
# checker's profile is flat: no function above 4% of a small kernel's
# instructions). PGO inlines the hot calls between them and devirtualizes
# hot interface calls; on the syncref rows it removed 3.4-4.8% of the
# instructions per check (bench/syncref/icount.sh, stop 40).
#
# The workload is what `weft check` is for, not one benchmark: every sync
# check of the reference implementation's suite that map.tsv maps to a
# Weft program (1 s of CPU each), and every .weft file in the repository,
# chunk by chunk ('---'-separated test files), checked without sizes
# (100 ms each: parse, static checks and, where a `check:` line or
# defaults give sizes, the sync check; bad programs' diagnostics too).
# Profiles are taken with bench/syncref/weftime, which runs the driver's
# own check in-process; its functions are the weft command's.
#
# Usage: scripts/pgo.sh [OUT]   (about 2 minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Built without PGO, so the profile does not feed on an earlier one.
CGO_ENABLED=0 go build -pgo=off -o "$tmp/weftime" ./bench/syncref/weftime
mkdir -p "$tmp/in" "$tmp/prof"
n=0
profile() { # profile MIN_CPU FILE [ARGS...]
  n=$((n + 1))
  # A program the checker rejects still profiles (weftime exits 0 with
  # its verdict); one that the tool itself cannot run is skipped.
  timeout 60 "$tmp/weftime" -reps 1 -min-cpu "$1" -cpuprofile "$tmp/prof/$n.prof" "${@:2}" >/dev/null 2>&1 ||
    rm -f "$tmp/prof/$n.prof"
}
i=0
while IFS=$'\t' read -r name sizes file chunk wargs sedscript note; do
  i=$((i + 1))
  [ "$file" != "-" ] || continue
  f=$tmp/in/row$i.weft
  if [ "$chunk" = 0 ]; then cp "$file" "$f"
  else awk -v n="$chunk" 'BEGIN{RS="\n---\n"} NR==n{print}' "$file" > "$f"; fi
  if [ "$sedscript" != "-" ]; then sed -i "$sedscript" "$f"; fi
  [ "$wargs" = "-" ] && wargs=""
  # shellcheck disable=SC2086
  profile 1s "$f" $wargs
done < <(grep -v '^#' bench/syncref/map.tsv)
j=0
while IFS= read -r src; do
  j=$((j + 1))
  awk -v out="$tmp/in/c$j" 'BEGIN{RS="\n---\n"}{print > (out "_" NR ".weft")}' "$src"
  for f in "$tmp"/in/c"$j"_*.weft; do profile 100ms "$f"; done
done < <(git ls-files '*.weft')
out=${1:-bench/out/pgo/default.pgo}
mkdir -p "$(dirname "$out")"
go tool pprof -proto "$tmp"/prof/*.prof > "$tmp/default.pgo" 2>/dev/null
mv "$tmp/default.pgo" "$out"
echo "scripts/pgo.sh: $out from $(ls "$tmp"/prof | wc -l) profiles ($(wc -c < "$out") bytes)"
