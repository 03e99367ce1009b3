#!/usr/bin/env bash
# bench/syncref/icount.sh [-n REPS] WEFTIME FILE.weft [NAME=VALUE ...]:
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
set -euo pipefail
reps=2000
if [ "${1-}" = "-n" ]; then reps=$2; shift 2; fi
if [ $# -lt 2 ]; then
  echo "usage: $0 [-n REPS] WEFTIME FILE.weft [NAME=VALUE ...]" >&2
  exit 2
fi
bin=$1; shift
count() {
  # asyncpreemptoff: valgrind fails on about one run in three when the
  # Go runtime preempts with signals.
  GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=no \
    --cachegrind-out-file=/dev/null "$bin" -reps "$1" -min-cpu 0 "${@:2}" 2>&1 |
    awk '/I *refs/ { gsub(",", "", $4); print $4 }'
}
a=$(count 0 "$@")
b=$(count "$reps" "$@")
if [ -z "$a" ] || [ -z "$b" ]; then
  echo "$0: cachegrind gave no count (is valgrind installed?)" >&2
  exit 1
fi
echo $(( (b - a) / (2 * reps) ))
