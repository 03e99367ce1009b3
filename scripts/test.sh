#!/usr/bin/env bash
# The one command that runs every test: installs what the suite needs (the
# CUDA compiler from PyPI), then vets and tests every package. Tests that
# compile generated CUDA use $NVCC; WEFT_REQUIRE_NVCC=1 makes them fail, not
# skip, when it is missing, so CI cannot pass without compiling.
set -euo pipefail
cd "$(dirname "$0")/.."
if nvcc_path=$(scripts/install-nvcc.sh); then
  export NVCC="$nvcc_path"
  export WEFT_REQUIRE_NVCC=1
  echo "nvcc: $NVCC"
else
  echo "warning: could not install nvcc; CUDA compile tests will skip" >&2
fi
go vet ./...
go test -count=1 -timeout 40m ./... "$@"
# The packages whose state is shared by goroutines, under the race detector
# where the toolchain has it (it needs cgo and a C compiler).
if [ "$(go env CGO_ENABLED)" = 1 ] && command -v "$(go env CC)" >/dev/null 2>&1; then
  go test -race -count=1 ./internal/gcpolicy
else
  echo "warning: no cgo toolchain; the -race run of internal/gcpolicy is skipped" >&2
fi
