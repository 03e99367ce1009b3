// RESULT: configs=24 excluded=0 findings=1
// Faial style: each thread reads its right neighbour, which that neighbour writes.
__global__ void shift(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i + 1 < n)
    a[i] = a[i + 1]; // ERROR C0501 col=5 "data race on global memory a \(byte 4\): write by thread 1 of block 0 .*unordered read by thread 0 of block 0" // NOTE "the other access" // NOTE "found launching shift with --gridDim=1 --blockDim=32 --arg n=32 --nondet-seed=0 --max-configs=1$"
}
