#!/usr/bin/env bash
# bench/syncref/icount.sh [-n REPS] [-c | -s] WEFTIME FILE.weft [NAME=VALUE ...]:
# instructions per `weft check` of FILE, counted by cachegrind (valgrind)
# as weftime's run with REPS reps minus its run with 0 reps, over the
# 2*REPS checks between them (weftime times each rep twice: the whole
# check and sync_check's scope).
#
# Instruction counts do not move with the machine's load, so they are the
# measure for small changes on a shared machine (issue 13). REPS matters:
# with the weft command's GC policy a small row's 40 checks (REPS=20)
# stay under the 16 MB minimum heap goal and count no collection, while
# a long run pays the collector's tax on every check (about a quarter of
# a small row's instructions; docs/weft-sync.md, "the whole suite at the
# end of stop 35"). The default, 2000, counts it; use -n 20 to leave it
# out, or GOGC=off in the environment to count the check alone.
#
# -c also simulates this machine's caches (a 32 KB 8-way L1 for code and
# one for data, the 512 KB L2 of one core as the last level) and prints,
# after the instructions, the L1 code misses, L1 data misses and L2
# misses per check. A small check runs most of its code once: it misses
# the L1 code cache about once every 30 instructions (row 6: 5.9 K misses,
# 370 KB of code lines fetched, for 172 K instructions), and those misses
# are the suspect for the machine's slow mode, in which Weft's time per
# instruction triples and the reference's doubles (stop 41,
# docs/weft-sync.md).
#
# -s splits the check instead: it prints the median instructions of
# sync_check's scope (from entering driver.runCheckers to entering
# frontend.Report: the checkers, what is compared with the reference's
# sync_check) and of the whole check, over the checks of one run with
# REPS reps (default 20 here; GOGC=off, so no collection is counted).
# Callgrind dumps its counters on entry to each of the two functions;
# entries are exact where its inclusive costs are not (Go's stack
# switches confuse its call tracking). It misses an entry now and then
# (when runCheckers' stack grows, Go re-enters the function from
# morestack instead of calling it), so only a dump whose dump before it
# is the other function's is kept (stop 42).
set -euo pipefail
reps=2000
sim=no
split=no
while [ $# -gt 0 ]; do
  case "$1" in
  -n) reps=$2; shift 2 ;;
  -c) sim=yes; shift ;;
  -s) split=yes; shift ;;
  *) break ;;
  esac
done
if [ $# -lt 2 ]; then
  echo "usage: $0 [-n REPS] [-c | -s] WEFTIME FILE.weft [NAME=VALUE ...]" >&2
  exit 2
fi
bin=$1; shift
if [ "$split" = yes ]; then
  [ "$reps" = 2000 ] && reps=20
  T=$(mktemp -d)
  trap 'rm -rf "$T"' EXIT
  GOGC=off GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=callgrind \
    --dump-before='*driver.runCheckers' --dump-before='*frontend.Report' \
    --callgrind-out-file="$T/c.out" "$bin" -reps "$reps" -min-cpu 0 "$@" >/dev/null 2>&1 || true
  # One line per dump, in order: S (dumped before Report: the scope, when
  # the dump before it was runCheckers') or F (the rest of the loop).
  for f in $(ls "$T"/c.out.* 2>/dev/null | sort -t. -k3 -n); do
    awk '/^desc: Trigger/ { t = ($0 ~ /Report/) ? "S" : "F" } /^totals:/ { print t, $2 }' "$f"
  done | awk '
    NR > 1 && $1 == "S" && prev == "F" { s[++ns] = $2 }
    NR > 1 && $1 == "F" && prev == "S" { f[++nf] = $2 }
    { prev = $1 }
    function median(a, n,   i, j, t) {
      for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] > t; j--) a[j + 1] = a[j]; a[j + 1] = t }
      return (n % 2) ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    END {
      if (ns < 3 || nf < 3) { print "icount.sh: too few whole checks in the callgrind dumps" > "/dev/stderr"; exit 1 }
      # The first of each is the cold first check: dropped.
      for (i = 1; i < ns; i++) s[i] = s[i + 1]; ns--
      for (i = 1; i < nf; i++) f[i] = f[i + 1]; nf--
      ms = median(s, ns); printf "scope %d whole %d\n", ms, ms + median(f, nf)
    }'
  exit
fi
count() {
  # asyncpreemptoff: valgrind fails on about one run in three when the
  # Go runtime preempts with signals.
  GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=$sim \
    --I1=32768,8,64 --D1=32768,8,64 --LL=524288,8,64 \
    --cachegrind-out-file=/dev/null "$bin" -reps "$1" -min-cpu 0 "${@:2}" 2>&1 |
    awk '/I *refs/ { gsub(",", "", $4); i = $4 }
      /I1 *misses/ { gsub(",", "", $4); i1 = $4 }
      /D1 *misses/ { gsub(",", "", $4); d1 = $4 }
      /LL misses/ { gsub(",", "", $4); ll = $4 }
      END { if (i != "") print i, i1 + 0, d1 + 0, ll + 0 }'
}
read -r a a1 ad al < <(count 0 "$@") || true
read -r b b1 bd bl < <(count "$reps" "$@") || true
if [ -z "${a-}" ] || [ -z "${b-}" ]; then
  echo "$0: cachegrind gave no count (is valgrind installed?)" >&2
  exit 1
fi
n=$((2 * reps))
if [ "$sim" = yes ]; then
  echo $(( (b - a) / n )) $(( (b1 - a1) / n )) $(( (bd - ad) / n )) $(( (bl - al) / n ))
else
  echo $(( (b - a) / n ))
fi
