//xfail:NOT_ALL_VERIFIED
//--blockDim=24 --gridDim=1
// RESULT: configs=2 excluded=0 findings=1
// __is_pow2 of a block size that is not a power of two.
__global__ void k(int *a) {
  __assert(__is_pow2(blockDim.x)); // ERROR C0621 col=3 "^__assert violated \(thread 0 of block 0, kernel k\)$"
  a[threadIdx.x] = 0;
}
