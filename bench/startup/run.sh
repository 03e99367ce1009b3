#!/usr/bin/env bash
# bench/startup/run.sh [-n RUNS]: what a one-shot weft process costs before
# and around its work (issue 13, stop 44).
#
# Why: the syncref figures time checks inside a running process, as the
# reference's pytest process is timed. A user's `weft check k.weft` is a
# fresh process: it starts the Go runtime, runs every linked package's
# init, loads the standard library (lang/weft/lib.Std) and only then checks
# the kernel, whose own check is ~0.1 ms on the small rows. On this
# machine (a microVM where a page fault costs microseconds) the start had
# become most of a small check's latency.
#
# For `weft version` (start and inits only) and `weft check` of two small
# kernels it prints the median over RUNS (default 20) of task-clock and
# page faults (perf stat, a software event; skipped without perf), the
# package inits' total time and allocation (GODEBUG=inittrace=1, median),
# and, when valgrind is installed, the process's instructions (cachegrind,
# one run: exact, unlike the times). WEFT=BINARY measures that binary
# instead of one built from this tree (a baseline).
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=20
[ "${1:-}" = -n ] && runs=$2
out=bench/out/startup
mkdir -p "$out"
w=${WEFT:-}
if [ -z "$w" ]; then
  go build -o "$out/weft" ./cmd/weft
  w=$out/weft
fi
cases=(
  "version|version"
  "check per_cta_alloc NCTA=2|check bench/syncref/weft/per_cta_alloc.weft NCTA=2"
  "check rmem_uniform_grid_constant|check examples/weft/exo/rmem_uniform_grid_constant.weft"
)
med() { sort -n | awk '{a[NR]=$1} END{print (NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2}'; }
printf '| process | task-clock ms | page faults | inits ms | init KB | instructions |\n|---|---|---|---|---|---|\n'
for c in "${cases[@]}"; do
  name=${c%%|*}; read -r -a args <<< "${c#*|}"
  tc=- pf=-
  if command -v perf >/dev/null 2>&1; then
    : > "$out/perf.txt"
    for _ in $(seq "$runs"); do
      perf stat -x, -e task-clock,page-faults "$w" "${args[@]}" 2>>"$out/perf.txt" >/dev/null || true
    done
    tc=$(awk -F, '$3=="task-clock"{print $1}' "$out/perf.txt" | med)
    pf=$(awk -F, '$3=="page-faults"{print $1}' "$out/perf.txt" | med)
  fi
  : > "$out/init.txt"
  for _ in $(seq "$runs"); do
    GODEBUG=inittrace=1 "$w" "${args[@]}" 2>&1 >/dev/null | awk '/^init /{s+=$5; b+=$8} END{printf "%.3f %d\n", s, b/1024}' >> "$out/init.txt" || true
  done
  ims=$(awk '{print $1}' "$out/init.txt" | med)
  ikb=$(awk '{print $2}' "$out/init.txt" | med)
  ir=-
  if command -v valgrind >/dev/null 2>&1; then
    ir=$(GOMAXPROCS=1 valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$w" "${args[@]}" 2>&1 >/dev/null | awk '/I *refs/{print $4}')
  fi
  printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$tc" "$pf" "$ims" "$ikb" "$ir"
done
