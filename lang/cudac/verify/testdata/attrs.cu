//pass
//--blockDim=32 --gridDim=1 -DSIZE=32
// RESULT: configs=2 excluded=0 findings=0
// GPUVerify's headers drop attributes; a plain global is device memory.
int counter;
__device__ __attribute__((always_inline)) int twice(int x) { return 2 * x; }
__global__ void k(int *a) {
  __shared__ __attribute__((aligned(16))) int s[SIZE];
  s[threadIdx.x] = twice(threadIdx.x);
  __syncthreads();
  a[threadIdx.x] = s[SIZE - 1 - threadIdx.x];
  atomicAdd(&counter, 1);
}
