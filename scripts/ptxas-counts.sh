#!/usr/bin/env bash
# scripts/ptxas-counts.sh: what the GEMM examples' generated code costs on the
# GPU, per kernel, for one or more revisions: registers and spills (ptxas -v),
# PTX instructions, SASS instructions and the SASS instructions of each loop
# (scripts/ptxascount). Issue 12, item 1: a generator may simplify what it
# emits for the CUDA-C semantics only where that costs nothing on the GPU;
# run this on the revisions before and after such a change
# (docs/validate.md, "Cost on the GPU").
#
# usage: scripts/ptxas-counts.sh [REV ...]
#   REV   a git revision (built from `git archive REV`), or "." for the
#         working tree; default "."
# environment: NVCC (nvcc; default nvcc on PATH), NVDISASM (default next to
#   nvcc or on PATH; the pip nvcc has none: pip install nvidia-cuda-nvdisasm;
#   without it the SASS columns are "-"), KEEP (a directory to keep the
#   builds in; default a temporary directory, removed).
# Output: one tab-separated line per revision and kernel: label, file,
# kernel, arch, regs, spill_st, spill_ld (bytes), ptx, sass, loops (see
# scripts/ptxascount/main.go for the loop notation). Needs no GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- .
NVCC=${NVCC:-$(command -v nvcc || true)}
[ -n "$NVCC" ] && [ -x "$NVCC" ] || { echo "ptxas-counts.sh: no nvcc (set NVCC; scripts/install-nvcc.sh prints one)" >&2; exit 2; }
export NVCC
if [ -n "${KEEP:-}" ]; then T=$KEEP; mkdir -p "$T"; else T=$(mktemp -d); trap 'rm -rf "$T"' EXIT; fi
T=$(cd "$T" && pwd)
CGO_ENABLED=0 go build -o "$T/ptxascount" ./scripts/ptxascount

# The GEMMs: NAME FILE ARCH and the build arguments (bench/gpu/run.sh's check
# builds; the kernel code does not depend on them, only the harness's main).
prism=(fig6_tf32 b1_tf32 b2_sgemm b5_hgemm)
declare -A P_arch=([fig6_tf32]=sm_80 [b1_tf32]=sm_80 [b2_sgemm]=sm_80 [b5_hgemm]=sm_90a)
declare -A P_args=(
  [fig6_tf32]="--blocks 4 --arg M=32 --arg N=16 --arg K=16 --arg A=rand:512 --arg B=rand:256 --arg C=zeros:512"
  [b1_tf32]="--arg M=16 --arg N=8 --arg K=32 --arg A=ones:512 --arg B=iota:256 --arg C=zeros:128"
  [b2_sgemm]="--blocks 2 --arg M=128 --arg N=64 --arg K=16 --arg alpha=1.5 --arg beta=-1 --arg A=rand:2048 --arg B=rand:1024 --arg C=rand:8192"
  [b5_hgemm]="--blocks 4 --arg M=256 --arg N=512 --arg K=256 --arg C=zeros:131072 --buffer A=rand:65536:bf16 --buffer B=rand:131072:bf16 --arg tensorMapA=tma:A,256,256,128,64,128 --arg tensorMapB=tma:B,512,256,256,64,128"
)
weft=(xgemm_sm80 xgemm_sm90)
declare -A W_arch=([xgemm_sm80]=sm_80 [xgemm_sm90]=sm_90a)
# xgemm_sm90: the sync check's end-of-task reports on the SMEM ring
# (examples/weft/gemm/README.md), as in bench/gpu/run.sh.
declare -A W_flags=([xgemm_sm80]="" [xgemm_sm90]="--no-check")

printf 'label\tfile\tkernel\tarch\tregs\tspill_st\tspill_ld\tptx\tsass\tloops\n'
for rev in "$@"; do
  label=$rev
  if [ "$rev" = . ]; then
    label=work
    root=.
    bin=$T/weft.work
    CGO_ENABLED=0 go build -o "$bin" ./cmd/weft
  else
    label=$(git rev-parse --short "$rev")
    src=$T/src.$label
    root=$src
    bin=$T/weft.$label
    if [ ! -x "$bin" ]; then
      rm -rf "$src" && mkdir -p "$src"
      git archive "$rev" | tar -x -C "$src"
      (cd "$src" && CGO_ENABLED=0 go build -o "$bin" ./cmd/weft)
    fi
  fi
  mkdir -p "$T/$label"
  # Each revision builds its own examples (what it shipped).
  for n in "${prism[@]}"; do
    d=$T/$label/$n
    # shellcheck disable=SC2086
    "$bin" build "$root/examples/prism/$n.prism" -o "$d" --harness ${P_args[$n]} >"$d.log" 2>&1 ||
      { echo "ptxas-counts.sh: weft build $n at $label failed (see $d.log)" >&2; continue; }
    "$T/ptxascount" -label "$label" -arch "${P_arch[$n]}" "$d/$n.cu"
  done
  for n in "${weft[@]}"; do
    d=$T/$label/$n
    # shellcheck disable=SC2086
    "$bin" build "$root/examples/weft/gemm/$n.weft" -o "$d" ${W_flags[$n]} >"$d.log" 2>&1 ||
      { echo "ptxas-counts.sh: weft build $n at $label failed (see $d.log)" >&2; continue; }
    "$T/ptxascount" -label "$label" -arch "${W_arch[$n]}" "$d/$n.cu"
  done
done
