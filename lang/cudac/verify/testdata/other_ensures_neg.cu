//xfail:NOT_ALL_VERIFIED
//--blockDim=16 --gridDim=1
// RESULT: configs=2 excluded=0 findings=1
// The postcondition says no two threads get the same result; x / 2 gives
// threads 0 and 1 the same.
__device__ int halve(int x) {
  __ensures(__implies(__same_group, __other_int(__return_val_int()) != __return_val_int())); // ERROR C0621 col=3 "^__ensures violated when the other thread is thread 0 of block 0 \(thread 1 of block 0, kernel k\)$" // NOTE "called from k"
  return x / 2;
}
__global__ void k(int *a) {
  a[threadIdx.x] = halve(threadIdx.x);
}
