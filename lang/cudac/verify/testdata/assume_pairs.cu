//pass
//--blockDim=8 --gridDim=1
// RESULT: configs=0 excluded=2 findings=0
// __assume excludes the configuration wherever it is, also when judged
// over pairs of threads (here in a device function: the threads' values
// of x are all different).
__device__ int f(int x) {
  __assume(__uniform_int(x) || __other_int(x) == x);
  return x;
}
__global__ void k(int *a) {
  a[threadIdx.x] = f(threadIdx.x);
}
