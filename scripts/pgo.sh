#!/usr/bin/env bash
# scripts/pgo.sh: regenerate cmd/weft/default.pgo, the CPU profile that
# `go build ./cmd/weft` uses for profile-guided optimization (Go 1.21+:
# -pgo=auto picks up default.pgo in the main package's directory; issue 13).
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
# Usage: scripts/pgo.sh   (about 2 minutes; rewrites cmd/weft/default.pgo)
# Regenerate it after large changes to the checker; a stale profile only
# costs speed (the compiler ignores what no longer matches).
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
go tool pprof -proto "$tmp"/prof/*.prof > "$tmp/default.pgo" 2>/dev/null
mv "$tmp/default.pgo" cmd/weft/default.pgo
echo "scripts/pgo.sh: cmd/weft/default.pgo from $(ls "$tmp"/prof | wc -l) profiles ($(wc -c < cmd/weft/default.pgo) bytes)"
