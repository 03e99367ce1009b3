//pass
// RESULT: configs=12 excluded=12 findings=0
// No header: the portfolio runs one and two blocks of 32 and 64 threads. A
// precondition judged over pairs excludes the launches it is false for
// (C0620): here those of two blocks, where a pair has different blockIdx.x.
__global__ void k(int *a, int n) {
  __requires(__uniform_int(blockIdx.x) || !__uniform_int(n));
  __requires(__all(__other_int(n) == n));
  a[blockIdx.x * blockDim.x + threadIdx.x] = n;
}
