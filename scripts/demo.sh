#!/usr/bin/env bash
# The set-up-and-run command of README.md. On a fresh machine with Go and
# Python it builds weft, installs the CUDA compiler from PyPI (no GPU needed),
# and does Weft's main job on example kernels:
#
#   1. weft check  - static GPU checks and the synchronization checker, which
#                    proves the parallel kernel equal to its sequential meaning
#   2. weft run    - the sequential meaning on the CPU (the reference output)
#   3. weft build  - CUDA C++ and host C, then nvcc for sm_90a (cubin)
#
# Usage: scripts/demo.sh [FILE.weft [NAME=VALUE ...]]
# Without arguments: the vector add of seed 002 and the Sm80 cp.async +
# mma.sync GEMM of seed 002's appendix.
set -euo pipefail
cd "$(dirname "$0")/.."
# Prerequisites (README.md): say what is missing instead of failing later.
missing=""
for tool in go python3 gcc g++; do
  command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
python3 -m pip --version >/dev/null 2>&1 || missing="$missing pip(python3 -m pip)"
if [ -n "$missing" ]; then
  echo "demo.sh: missing prerequisites:$missing (README.md, Prerequisites)" >&2
  exit 2
fi
python3 -c 'import numpy' 2>/dev/null || echo "(numpy is not installed: the demo does not need it, the tutorial's .npy steps do: python3 -m pip install numpy)" >&2
echo "== go build -o bin/weft ./cmd/weft"
go build -o bin/weft ./cmd/weft
weft=bin/weft
nvcc=""
echo "== scripts/install-nvcc.sh"
if n=$(scripts/install-nvcc.sh) && [ -x "$n" ]; then
  nvcc=$n
else
  echo "(nvcc could not be installed from PyPI; the CUDA compile step is skipped)" >&2
fi

# demo FILE OUT INPUTS SIZES... : check, run (with INPUTS, e.g. "X=iota"),
# build and compile one kernel.
demo() {
  local ex=$1 out=$2 inputs=$3
  shift 3
  # A fresh directory: files of an earlier run (another kernel's .cu) must
  # not be compiled again below.
  rm -rf "$out"
  echo
  echo "== weft check $ex $* --sync-stats"
  $weft check "$ex" "$@" --sync-stats
  echo "   ok: no collective, distributed-memory or synchronization errors"
  echo "== weft run $ex $* $inputs --out $out/run"
  mkdir -p "$out/run"
  # shellcheck disable=SC2086
  $weft run "$ex" "$@" $inputs --out "$out/run"
  echo "   outputs (.npy): $(cd "$out/run" && ls | tr '\n' ' ')"
  echo "== weft build $ex -o $out/cuda --harness"
  $weft build "$ex" -o "$out/cuda" --harness
  echo "   generated: $(cd "$out/cuda" && ls | tr '\n' ' ')"
  if [ -n "$nvcc" ]; then
    for cu in "$out"/cuda/*.cu; do
      echo "== nvcc -arch=sm_90a -cubin $cu"
      "$nvcc" -std=c++17 -arch=sm_90a -cubin -I "$out/cuda" -o "${cu%.cu}.cubin" "$cu"
    done
  fi
}

if [ $# -gt 0 ]; then
  demo "$1" "out/demo/$(basename "$1" .weft)" "" "${@:2}"
else
  demo examples/weft/vector_add.weft out/demo/vector_add "X=iota Y=ones" N=1024
  demo examples/weft/gemm/xgemm_sm80.weft out/demo/xgemm_sm80 "" M=192 N=256 K=32
  echo
  echo "The first elements of vector_add's X after the run (X = iota + 1):"
  $weft run examples/weft/vector_add.weft N=128 X=iota Y=ones --print | sed -n 2p | cut -c1-60
fi
echo
echo "done: outputs under out/demo"
