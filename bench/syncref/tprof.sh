#!/usr/bin/env bash
# bench/syncref/tprof.sh [-n REPS] [-d DEPTH] WEFTIME FILE.weft [NAME=VALUE ...]:
# where a small check's TIME goes, in sync_check's scope (issue 13, stop 46).
#
# Instruction counts (icount.sh) miss what a check pays in cache misses:
# zeroing freshly allocated, cold heap (runtime.memclrNoHeapPointers) was
# 8-9% of the scope's time on the small rows and 0.05% of its
# instructions (stop 45). This samples time instead: `perf record` with
# the software cpu-clock event (hardware counters are not exposed on this
# VM) at 25 kHz with call graphs, over REPS (default 4000) checks in one
# weftime process, then keeps the samples whose stack passes through
# driver.runCheckers (the scope the reference's sync_check is compared
# with) and prints their shares: by leaf function, by the Go runtime as a
# whole, and by call path DEPTH (default 3) frames below runCheckers.
# Shares are what it gives; the machine's load moves absolute times.
# A program the front end rejects never reaches the checkers: no samples.
set -euo pipefail
reps=4000 depth=3
while getopts n:d: o; do
  case $o in
    n) reps=$OPTARG ;;
    d) depth=$OPTARG ;;
    *) echo "usage: $0 [-n REPS] [-d DEPTH] WEFTIME FILE.weft [NAME=VALUE ...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || { echo "usage: $0 [-n REPS] [-d DEPTH] WEFTIME FILE.weft [NAME=VALUE ...]" >&2; exit 2; }
bin=$1; shift
command -v perf >/dev/null || { echo "$0: perf not found (linux-tools / linux-perf)" >&2; exit 2; }
[ -x "$bin" ] || { echo "$0: $bin: not an executable (build it: go build ./bench/syncref/weftime)" >&2; exit 2; }
[ -r "$1" ] || { echo "$0: $1: cannot read the program" >&2; exit 2; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# One check first, outside perf, so that a program weftime cannot run
# says why (its stderr) rather than leaving no samples.
"$bin" -reps 0 -min-cpu 0 "$@" >/dev/null || { echo "$0: weftime failed on $*" >&2; exit 1; }
GOMAXPROCS=1 perf record -q -e cpu-clock -F 25000 -g -o "$tmp/perf.data" \
  "$bin" -reps "$reps" -min-cpu 0 "$@" >/dev/null
perf script -i "$tmp/perf.data" -F ip,sym 2>/dev/null | python3 -c '
import sys, collections
depth = int(sys.argv[1])
leaf, path = collections.Counter(), collections.Counter()
scope = runtime = 0
def flush(stack):
    global scope, runtime
    # perf script: one frame a line, "ADDR SYMBOL", leaf first.
    syms = [l.split(None, 1)[1] if " " in l else l for l in stack]
    at = [i for i, s in enumerate(syms) if "driver.runCheckers" in s]
    if not at:
        return
    scope += 1
    leaf[syms[0]] += 1
    if syms[0].startswith("runtime.") or syms[0] in ("memeqbody", "cmpbody"):
        runtime += 1
    below = syms[:at[-1]][::-1][:depth]
    path[" > ".join(s.replace("weft.dev/weft/", "") for s in below)] += 1
stack = []
for line in sys.stdin:
    line = line.strip()
    if not line:
        flush(stack); stack = []
    else:
        stack.append(line)
flush(stack)
if scope == 0:
    sys.exit("no samples in driver.runCheckers (did the check reach the checkers?)")
print("samples in scope: %d; Go runtime as the leaf: %.1f%%" % (scope, 100 * runtime / scope))
print("-- by leaf function")
for k, v in leaf.most_common(25):
    print("%5.1f%%  %s" % (100 * v / scope, k))
print("-- by call path below driver.runCheckers")
for k, v in path.most_common(25):
    print("%5.1f%%  %s" % (100 * v / scope, k))
' "$depth"
