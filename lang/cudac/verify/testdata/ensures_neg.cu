//xfail:NOT_ALL_VERIFIED
//--blockDim=16 --gridDim=1
// RESULT: configs=2 excluded=0 findings=1
// The early return breaks the postcondition for threads 8 and up.
__device__ int halve(int x) {
  __ensures(__return_val_int() < 4); // ERROR C0621 col=3 "__ensures violated \(thread 8 of block 0" // NOTE "called from k"
  if (x >= 8)
    return x;
  return x / 2;
}
__global__ void k(int *a) {
  a[threadIdx.x] = halve(threadIdx.x);
}
