//pass
//--blockDim=16 --gridDim=1
// RESULT: configs=2 excluded=4 findings=0
// With n equal to the block size every thread writes its own element; the
// precondition excludes the other values the search tries.
__global__ void k(int *a, int n) {
  __requires(n == blockDim.x);
  a[threadIdx.x * n / blockDim.x] = 1;
}
