//pass
//--blockDim=8 --gridDim=1
// RESULT: configs=4 excluded=0 findings=0
// A bodiless function returns a chosen value; a loop on it ends.
__device__ int pick(int);
__device__ char more(void);
__global__ void k(int *a) {
  int v = pick(threadIdx.x);
  while (more()) {
  }
  a[threadIdx.x] = v;
}
