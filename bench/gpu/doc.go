// Package gpubench holds the GPU checks and benchmarks of the GEMM examples
// (bench/gpu/run.sh, meant for a machine with a GPU and a prebuilt
// bin/weft, see README.md) and the test that runs the script's build and
// compile steps wherever nvcc exists. The package has no Go API: its
// contract is the script's output (one ok/FAIL/skip line per step, then
// the table kernel, size, ms, TFLOP/s, cuBLAS ms, ratio).
package gpubench
