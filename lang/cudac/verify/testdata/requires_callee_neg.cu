//xfail:NOT_ALL_VERIFIED
//--blockDim=16 --gridDim=1
// RESULT: configs=2 excluded=0 findings=1
// A device function's __requires is its callers' obligation: thread 0 breaks it.
__device__ int inv(int x) {
  __requires(x != 0); // ERROR C0621 col=3 "__requires of the called function violated \(thread 0 of block 0" // NOTE "called from k"
  return 100 / x;
}
__global__ void k(int *a) {
  a[threadIdx.x] = inv(threadIdx.x);
}
