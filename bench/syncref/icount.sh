#!/usr/bin/env bash
# bench/syncref/icount.sh [-n REPS] [-c] WEFTIME FILE.weft [NAME=VALUE ...]:
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
set -euo pipefail
reps=2000
sim=no
while [ $# -gt 0 ]; do
  case "$1" in
  -n) reps=$2; shift 2 ;;
  -c) sim=yes; shift ;;
  *) break ;;
  esac
done
if [ $# -lt 2 ]; then
  echo "usage: $0 [-n REPS] [-c] WEFTIME FILE.weft [NAME=VALUE ...]" >&2
  exit 2
fi
bin=$1; shift
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
