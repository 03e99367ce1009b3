#!/usr/bin/env bash
# bench/gpu/validate.sh: `weft validate --gpu` on every example that
# validate's TestExamples validates in CI (validate/examples_test.go: the
# same files and arguments), run ON a GPU machine from the repository root
# with a prebuilt bin/weft (no Go there; see bench/gpu/README.md). Each
# example is built, run in the CUDA-C semantics, compiled with nvcc, run on
# the GPU with the same inputs, and compared three ways (semantics vs weft
# run, GPU vs weft run, GPU vs semantics): issue 12, "When a GPU is lent".
#
# usage: bench/gpu/validate.sh [-j N] [-only weft|prism|audala]
# environment: WEFT (bin/weft), NVCC (nvcc on PATH, else /usr/local/cuda/bin/nvcc),
#   BENCH_OUT (bench/gpu/out-validate: one log per example, kept builds)
# Output: every verdict line, then a count; exit 1 when any line is not a match.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
jobs=8 only=""
while [ $# -gt 0 ]; do
  case $1 in
    -j) jobs=$2; shift ;;
    -only) only=$2; shift ;;
    *) echo "usage: bench/gpu/validate.sh [-j N] [-only weft|prism|audala]" >&2; exit 2 ;;
  esac
  shift
done
WEFT=${WEFT:-bin/weft}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
export NVCC
OUT=${BENCH_OUT:-bench/gpu/out-validate}
[ -x "$WEFT" ] || { echo "validate.sh: no weft binary at $WEFT" >&2; exit 2; }
rm -rf "$OUT" && mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WEFT=$(cd "$(dirname "$WEFT")" && pwd)/$(basename "$WEFT")

x=examples
list=()
if [ -z "$only" ] || [ "$only" = weft ]; then
  for f in vector_add gemv_smem gemv_cuda gemm_seq gemv_seq matmul_seq matmul_bt_seq gemm/xgemm_sm80 gemm/xgemm_sm90 \
    sync/cp_async_simple sync/cp_async_ring sync/mbarrier_ring sync/smem_sum sync/smem_sum_mbarrier sync/sync_warp_cta \
    sync/xgemm_Sm80_fence sync/xgemm_Sm90_ring sync/smem_matmul \
    exo/config_implicit exo/config_scale exo/externs exo/par_loop exo/real_scale exo/ring_add \
    exo/size_product exo/tma_ring_gemm exo/multicast_arrive exo/tk_split_gemm exo/avx2_fma \
    exo/tk_gemm_1cta exo/tma_tester exo/rmem_uniform exo/rmem_uniform_grid_constant exo/shfl_xor \
    exo/gemv_warp_coop_8 exo/tk_ping_pong_gemm; do
    list+=("$x/weft/$f.weft")
  done
fi
if [ -z "$only" ] || [ "$only" = prism ]; then
  list+=(
    "$x/prism/fig6_tf32.prism --arg A=ones:128 --arg B=iota:64 --arg C=zeros:128 --arg M=16 --arg N=8 --arg K=8"
    "$x/prism/fig6_tf32.prism --blocks 4 --arg M=32 --arg N=16 --arg K=16 --arg A=rand:512 --arg B=rand:256 --arg C=zeros:512"
    "$x/prism/fig13_async.prism --blocks 2 --arg src=iota:256 --arg dst=zeros:256"
    "$x/prism/fig2_mma.prism --arg out=zeros:128"
    "$x/prism/fig8_split.prism --blocks 2 --arg out=zeros:8"
    "$x/prism/b1_tf32.prism --arg A=ones:128 --arg B=iota:64 --arg C=zeros:128 --arg M=16 --arg N=8 --arg K=8"
    "$x/prism/b2_sgemm.prism --blocks 2 --arg A=ones:2048 --arg B=iota:1024 --arg C=zeros:8192 --arg M=128 --arg N=64 --arg K=16 --arg alpha=1 --arg beta=0"
    "$x/prism/b2_sgemm.prism --blocks 2 --arg M=128 --arg N=64 --arg K=16 --arg alpha=1.5 --arg beta=-1 --arg A=rand:2048 --arg B=rand:1024 --arg C=rand:8192"
    "$x/prism/b3_scan.prism --blocks 2 --arg n=32768 --arg x=ones:32768 --arg block_idx_counter=zeros:1 --arg block_infos=zeros:4"
    "$x/prism/b4_cub.prism --blocks 2 --arg src=iota:512 --arg dst=zeros:512 --arg scratch=zeros:512"
    "$x/prism/p6_broader_call.prism --arg x=iota:128 --arg y=zeros:128"
    "$x/prism/warp_scan.prism --arg x=zeros:64"
    "$x/prism/b5_hgemm.prism --arg M=128 --arg N=256 --arg K=256 --arg C=zeros:32768 --buffer A=iota%7:32768:bf16 --buffer B=iota%5:65536:bf16 --arg tensorMapA=tma:A,128,256,128,64,128 --arg tensorMapB=tma:B,256,256,256,64,128"
    "$x/prism/b5_hgemm.prism --blocks 4 --arg M=256 --arg N=512 --arg K=256 --arg C=zeros:131072 --buffer A=rand:65536:bf16 --buffer B=rand:131072:bf16 --arg tensorMapA=tma:A,256,256,128,64,128 --arg tensorMapB=tma:B,512,256,256,64,128"
  )
fi
if [ -z "$only" ] || [ "$only" = audala ]; then
  for p in "prefix_sum $x/audala/prefix_sum.init" "reachability" "scc_colouring $x/audala/scc_colouring.init"; do
    set -- $p
    for s in graph host grid; do for m in relaxed ra sc; do
      # the semantics on 2 SMs (as TestExamples); the GPU runs the same
      # binary on the H100's 132 SMs: the persistent grid is sized at run time
      list+=("$x/audala/$1.adl ${2:-} --sms 2 --schedule-strategy $s --memorder $m")
    done; done
  done
fi

i=0
for a in "${list[@]}"; do
  i=$((i + 1))
  printf '%03d %s\n' "$i" "$a"
done >"$OUT/list.txt"
# one example: NNN ARGS... -> OUT/NNN.log (the command, then its output)
one() {
  n=$1; shift
  { echo "\$ weft validate $* --gpu"; timeout 300 "$WEFT" validate "$@" --gpu --keep "$OUT/$n.keep"; echo "rc=$?"; } >"$OUT/$n.log" 2>&1
  sed -n '2,$p' "$OUT/$n.log" | grep -v '^rc=' | grep -E '^[^ ]' | sed "s/^/$n /"
}
export -f one
export WEFT OUT
# shellcheck disable=SC2016
xargs -P "$jobs" -L 1 bash -c 'one "$@"' _ <"$OUT/list.txt" | sort -s -k1,1 | tee "$OUT/verdicts.txt"
total=$(grep -c . "$OUT/list.txt")
bad=$(grep -L '^rc=0$' "$OUT"/[0-9]*.log | wc -l)
gpu_match=$(grep -c ' gpu: match' "$OUT/verdicts.txt")
same=$(grep -c 'gpu vs semantics: match' "$OUT/verdicts.txt")
echo "validate --gpu: $total examples, $((total - bad)) all-match, GPU matched weft run on $gpu_match, GPU = semantics on $same"
[ "$bad" = 0 ]
