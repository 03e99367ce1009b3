//pass
//--blockDim=8 --gridDim=1
// RESULT: configs=2 excluded=0 findings=0
// Loop invariants in GPUVerify's position (the loop condition) and as the
// first statement of the body; __global_invariant too.
__global__ void k(int *a) {
  for (int d = 1; __invariant(d == 1 | d == 2 | d == 4 | d == 8), d < 8; d <<= 1) {
    __global_invariant(d < 8);
    a[threadIdx.x] += d;
  }
}
