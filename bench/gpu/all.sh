#!/usr/bin/env bash
# bench/gpu/all.sh: the GPU checks that fit one device call, run ON the GPU
# machine from the repository root with a prebuilt bin/weft (no Go there):
#   1. validate.sh (weft validate --gpu on every example TestExamples
#      validates) and cudac.sh (the CUDA-C corpus, weft run against the
#      nvcc-compiled program) side by side, each under a time limit;
#   2. run.sh -only gemm (the five GEMMs against weft run, racecheck and
#      synccheck, and timed against cuBLAS) in the time left.
# Each part's output is written to DEST as it goes, so a part cut by its
# limit still leaves what it printed (and says "rc=124").
#
# usage: bench/gpu/all.sh [DEST]   (DEST default bench/gpu/out-all)
# environment: T_CHECKS (seconds for step 1, default 270), T_GEMM (seconds
#   for step 2, default 180), REPS (timed launches per GEMM, default 20),
#   and those of the three scripts (WEFT, NVCC, ...).
# A device session runs, after `CGO_ENABLED=0 go build -o bin/weft ./cmd/weft`:
#   run(command="bench/gpu/all.sh $OUT", carry=["bin/weft"], timeout_s=500)
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
DEST=${1:-bench/gpu/out-all}
mkdir -p "$DEST"
DEST=$(cd "$DEST" && pwd)
{ nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv 2>&1
  "${NVCC:-nvcc}" --version 2>&1 | tail -2; nproc; } >"$DEST/machine.txt"
t0=$(date +%s)
( timeout "${T_CHECKS:-270}" bench/gpu/validate.sh -j 8 >"$DEST/validate.txt" 2>&1
  echo "rc=$? after $(( $(date +%s) - t0 )) s" >>"$DEST/validate.txt" ) &
( RUN_TIMEOUT=${RUN_TIMEOUT:-20} timeout "${T_CHECKS:-270}" bench/gpu/cudac.sh -j 8 >"$DEST/cudac.txt" 2>&1
  echo "rc=$? after $(( $(date +%s) - t0 )) s" >>"$DEST/cudac.txt" ) &
wait
# the mismatching CUDA-C cases' outputs (small), for the record
[ -d bench/gpu/out-cudac/mismatch ] && tar czf "$DEST/cudac-mismatch.tgz" -C bench/gpu/out-cudac mismatch
t1=$(date +%s)
timeout "${T_GEMM:-180}" bench/gpu/run.sh -only gemm -reps "${REPS:-20}" >"$DEST/gemm.txt" 2>&1
echo "rc=$? after $(( $(date +%s) - t1 )) s" >>"$DEST/gemm.txt"
for f in validate cudac gemm; do
  echo "== $f"; grep -E 'validate --gpu:|^match [0-9]|FAIL|MISMATCH|gpu-fail|nvcc-fail|^rc=' "$DEST/$f.txt" | head -40
done
sed -n '/^kernel /,$p' "$DEST/gemm.txt" | head -12
