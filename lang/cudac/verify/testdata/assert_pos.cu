//pass
//--blockDim=32 --gridDim=1
// RESULT: configs=2 excluded=0 findings=0
__global__ void k(int *a) {
  __assert(threadIdx.x < blockDim.x);
  // the helpers of GPUVerify's header
  __assert(__is_pow2(blockDim.x) && __mod_pow2(threadIdx.x + 32, blockDim.x) == threadIdx.x);
  a[threadIdx.x] = 0;
}
