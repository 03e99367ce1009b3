//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=1
// RESULT: configs=2 excluded=0 findings=1
// __all(e) is e & __other_bool(e): false for the pair of thread 32 (the
// first where e is false) and thread 0.
__global__ void k(int *a) {
  __assert(__all(threadIdx.x < 32)); // ERROR C0621 col=3 "^__assert violated when the other thread is thread 0 of block 0 \(thread 32 of block 0, kernel k\)$"
}
