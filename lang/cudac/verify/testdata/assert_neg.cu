//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1
// RESULT: configs=2 excluded=0 findings=1
__global__ void k(int *a) {
  __assert(threadIdx.x < 16); // ERROR C0621 col=3 "__assert violated \(thread 16 of block 0, kernel k\)" // NOTE "--gridDim=1 --blockDim=32 --nondet-seed=0 --max-configs=1$"
  a[threadIdx.x] = 0;
}
