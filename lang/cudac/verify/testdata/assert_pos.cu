//pass
//--blockDim=32 --gridDim=1
// RESULT: configs=2 excluded=0 findings=0
__global__ void k(int *a) {
  __assert(threadIdx.x < blockDim.x);
  a[threadIdx.x] = 0;
}
