//xfail:NOT_ALL_VERIFIED
//--blockDim=4 --gridDim=2
// RESULT: configs=2 excluded=0 findings=1
// Both blocks write the same four elements.
__global__ void k(int *a) {
  a[threadIdx.x] = blockIdx.x; // ERROR C0501 col=3 "write by thread 0 of block 1 .*unordered write by thread 0 of block 0" // NOTE "the other access" // NOTE "--gridDim=2 --blockDim=4 --nondet-seed=0 --max-configs=1$"
}
