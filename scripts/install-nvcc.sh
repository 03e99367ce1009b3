#!/usr/bin/env bash
# Installs the CUDA 13 compiler from PyPI (no GPU needed) so tests can compile
# generated CUDA for sm_80 and sm_90a. Idempotent; prints nvcc's path.
set -euo pipefail
py=${PYTHON:-python3}
sp=$($py -c 'import site; print(site.getsitepackages()[0])')
nvcc="$sp/nvidia/cu13/bin/nvcc"
if [ ! -x "$nvcc" ]; then
  $py -m pip install --quiet --disable-pip-version-check \
    nvidia-cuda-nvcc nvidia-cuda-runtime nvidia-cuda-cccl nvidia-cuda-crt >&2 \
    || $py -m pip install --quiet --user --disable-pip-version-check \
    nvidia-cuda-nvcc nvidia-cuda-runtime nvidia-cuda-cccl nvidia-cuda-crt >&2
  sp=$($py -c 'import site; print(site.getsitepackages()[0])')
  nvcc="$sp/nvidia/cu13/bin/nvcc"
  [ -x "$nvcc" ] || nvcc="$($py -c 'import site; print(site.getusersitepackages())')/nvidia/cu13/bin/nvcc"
fi
echo "$nvcc"
