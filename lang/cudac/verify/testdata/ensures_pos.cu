//pass
//--blockDim=16 --gridDim=1
// RESULT: configs=2 excluded=0 findings=0
// __ensures is checked at every return with __return_val_int() the result;
// a callee's __requires is checked at each call.
__device__ int clamp(int x, int hi) {
  __requires(hi > 0);
  __ensures(__return_val_int() >= 0 & __return_val_int() < hi);
  if (x >= hi)
    return hi - 1;
  return x;
}
__device__ void put(int *a, int i) {
  __ensures(a[i] == i);
  a[i] = i;
}
__global__ void k(int *a) {
  put(a, clamp(threadIdx.x, 16));
}
