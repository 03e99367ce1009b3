//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
// RESULT: configs=2 excluded=0 findings=1
// Two threads of the block have threadIdx.x % 32 == 0: the later one finds
// the pair with the earlier.
__global__ void k(int *a) {
  __assert(__at_most_one(threadIdx.x % 32 == 0)); // ERROR C0621 col=3 "^__assert violated when the other thread is thread 0 of block 0 \(thread 32 of block 0, kernel k\)$"
}
