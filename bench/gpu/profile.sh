#!/usr/bin/env bash
# bench/gpu/profile.sh: Nsight Compute profiles of the two Hopper GEMMs at
# their benchmark sizes (the kernels of bench/gpu/run.sh's table), run ON a
# GPU machine from the repository root with a prebuilt bin/weft. For each
# kernel: weft build --harness, nvcc with -Xptxas -v (registers, spills,
# ptxas advisories), then `ncu` on one launch with the speed-of-light,
# occupancy, scheduler, warp-state and memory sections. Prints the ptxas
# lines and the ncu report; logs under BENCH_OUT (bench/gpu/out-profile).
#
# usage: bench/gpu/profile.sh [-size S]   (default 8192 for b5_hgemm, 4096 for xgemm_sm90)
# environment: WEFT, NVCC, NCU (ncu next to nvcc or on PATH), BENCH_OUT
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
SH=8192 S=4096
[ "${1:-}" = -size ] && { SH=$2; S=$2; }
WEFT=${WEFT:-bin/weft}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
NCU=${NCU:-$(command -v ncu || echo "$(dirname "$NVCC")/ncu")}
OUT=${BENCH_OUT:-bench/gpu/out-profile}
rm -rf "$OUT" && mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
ARCH90="-gencode arch=compute_90a,code=sm_90a"
SECTIONS="--section SpeedOfLight --section LaunchStats --section Occupancy --section SchedulerStats --section WarpStateStats --section MemoryWorkloadAnalysis"

# b5_hgemm (Prism): the same arguments as run.sh's benchmark build.
d=$OUT/b5_hgemm
"$WEFT" build examples/prism/b5_hgemm.prism -o "$d" --harness --blocks $(( (SH / 128) * (SH / 256) )) \
  --arg M=$SH --arg N=$SH --arg K=$SH --arg C=zeros:$((SH * SH)) \
  --buffer A=iota%7:$((SH * SH)):bf16 --buffer B=iota%5:$((SH * SH)):bf16 \
  --arg tensorMapA=tma:A,$SH,$SH,128,64,128 --arg tensorMapB=tma:B,$SH,$SH,256,64,128 --flops $((2 * SH * SH * SH)) >"$d.build.log" 2>&1 || { echo "FAIL build b5_hgemm"; cat "$d.build.log"; }
(cd "$d" && "$NVCC" -O3 $ARCH90 -Xptxas -v -o prog b5_hgemm.cu) >"$d.nvcc.log" 2>&1 || echo "FAIL nvcc b5_hgemm"
# xgemm_sm90 (Weft).
w=$OUT/xgemm_sm90
"$WEFT" build examples/weft/gemm/xgemm_sm90.weft -o "$w" --harness --no-check >"$w.build.log" 2>&1 || echo "FAIL build xgemm_sm90"
(cd "$w" && cc -std=c11 -O2 -c xgemm_sm90.c -o host.o && "$NVCC" -std=c++17 -O3 $ARCH90 -Xptxas -v xgemm_sm90.cu main.cu host.o -o main) >"$w.nvcc.log" 2>&1 || echo "FAIL nvcc xgemm_sm90"
mkdir -p "$w/bin" "$w/bout"
"$WEFT" run examples/weft/gemm/xgemm_sm90.weft M=$S N=$S K=$S A=rand B=rand --inputs "$w/bin" --max-steps 1 >/dev/null 2>&1

echo "== ptxas"
grep -hE "Compiling entry|registers|spill|C75" "$d.nvcc.log" "$w.nvcc.log" | grep -v "^ptxas info    : 0 bytes gmem$"
echo "== b5_hgemm ${SH}^3"
WEFT_PRINT=0 WEFT_REPEAT=0 timeout 240 "$NCU" $SECTIONS -c 1 "$d/prog" >"$OUT/b5_hgemm.ncu.txt" 2>&1
grep -vE "^==PROF==|^\s*$|----" "$OUT/b5_hgemm.ncu.txt" | grep -v "^    [A-Z][a-z].*: *$" | head -120
echo "== xgemm_sm90 ${S}^3"
(cd "$w" && WEFT_REPEAT=0 timeout 240 "$NCU" $SECTIONS -c 1 ./main bin bout M=$S N=$S K=$S) >"$OUT/xgemm_sm90.ncu.txt" 2>&1
grep -vE "^==PROF==|^\s*$|----" "$OUT/xgemm_sm90.ncu.txt" | grep -v "^    [A-Z][a-z].*: *$" | head -120
