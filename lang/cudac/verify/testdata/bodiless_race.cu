//xfail:NOT_ALL_VERIFIED
//--blockDim=8 --gridDim=1
// RESULT: configs=4 excluded=0 findings=1
// The index comes from a bodiless function: with value 0 for every thread they collide.
__device__ unsigned pick(unsigned);
__global__ void k(int *a) {
  a[pick(threadIdx.x) % 8] = threadIdx.x; // ERROR C0501 col=3 "write by thread 1 of block 0 .*unordered write by thread 0" // NOTE "the other access" // NOTE "--nondet-seed=0 --max-configs=1$"
}
