//pass
//--blockDim=32 --gridDim=1
// RESULT: configs=2 excluded=0 findings=0
// Equal stores of zero or of the same pointer are tolerated, as GPUVerify
// does, and so is a thread's read of the pointer it stored itself.
__global__ void k(int *a) {
  __shared__ int *p;
  __shared__ int A[32];
  p = A;
  p[threadIdx.x] = 1;
  a[0] = 0;
}
