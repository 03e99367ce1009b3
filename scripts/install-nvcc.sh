#!/usr/bin/env bash
# Installs the CUDA 13 compiler from PyPI (no GPU needed) so tests can compile
# generated CUDA for sm_80 and sm_90a. Idempotent; prints nvcc's path.
set -euo pipefail
py=${PYTHON:-python3}
sp=$($py -c 'import site; print(site.getsitepackages()[0])')
nvcc="$sp/nvidia/cu13/bin/nvcc"
if [ ! -x "$nvcc" ]; then
  # pip's progress and errors go to stderr (stdout is nvcc's path only): a
  # slow download must not look like a hang, a failure must say why.
  echo "installing the CUDA compiler from PyPI (nvidia-cuda-nvcc, about 100 MB; no GPU needed) ..." >&2
  $py -m pip install --progress-bar on --disable-pip-version-check \
    nvidia-cuda-nvcc nvidia-cuda-runtime nvidia-cuda-cccl nvidia-cuda-crt >&2 \
    || $py -m pip install --progress-bar on --user --disable-pip-version-check \
    nvidia-cuda-nvcc nvidia-cuda-runtime nvidia-cuda-cccl nvidia-cuda-crt >&2
  sp=$($py -c 'import site; print(site.getsitepackages()[0])')
  nvcc="$sp/nvidia/cu13/bin/nvcc"
  [ -x "$nvcc" ] || nvcc="$($py -c 'import site; print(site.getusersitepackages())')/nvidia/cu13/bin/nvcc"
fi
if [ -x "$nvcc" ]; then
  echo "nvcc: $nvcc (not on PATH; to use it by name: export PATH=\"$(dirname "$nvcc"):\$PATH\", or see weft env)" >&2
fi
echo "$nvcc"
