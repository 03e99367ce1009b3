//xfail:NOT_ALL_VERIFIED
//--blockDim=16 --gridDim=1
// RESULT: configs=4 excluded=0 findings=1
// A bodiless function that is not uninterpreted returns a fresh value at
// each call (GPUVerify havocs it): two calls with the same argument differ
// once the search chooses values (--nondet-seed=1).
__device__ int g(int);
__global__ void k(int *a) {
  __assert(g(1) == g(1)); // ERROR C0621 col=3 "^__assert violated \(thread 0 of block 0, kernel k\)$" // NOTE "--nondet-seed=1"
  a[threadIdx.x] = 0;
}
