"""Runs the sync checks of the reference implementation's tests that pytest
skips without a GPU (their fixture is compiler_Sm80): the same procedures
and sizes, through Procedure.sync_check, timed and recorded by exo_timing.

Usage (from the reference's tests/cuda directory, see run.sh):
    python exo_gpu_tests.py
"""

import os
import sys

sys.path.insert(0, os.getcwd())

import exo_timing  # noqa: E402

exo_timing.pytest_configure(None)

import test_simple_cuda as t  # noqa: E402


def run(node, proc, **sizes):
    exo_timing._current["node"] = node
    try:
        proc.sync_check(**sizes)
    except Exception:
        pass  # recorded by exo_timing


run(
    "tests/cuda/test_simple_cuda.py::test_cuda_simple_matmul",
    t.mkproc_cuda_simple_matmul(),
    M=256,
    N=256,
    K=96,
)
run(
    "tests/cuda/test_simple_cuda.py::test_tmp_xgemm_Sm80",
    t.xgemm_Sm80_fence,
    M=192,
    N=256,
    K=64,
)
for M, K in ((512, 256), (256, 512), (128, 1024)):
    run(
        "tests/cuda/test_simple_cuda.py::test_gemv_warp_coop_8_run",
        t.gemv_warp_coop_8,
        M=M,
        K=K,
    )
