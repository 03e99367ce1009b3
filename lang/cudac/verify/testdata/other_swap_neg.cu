//xfail:NOT_ALL_VERIFIED
//--blockDim=8 --gridDim=1
// RESULT: configs=2 excluded=0 findings=1
// The assertion is false for thread 0 with thread 1 as the other thread:
// thread 1 finds it when it pairs itself, as the other thread, with thread 0.
__global__ void k(int *a) {
  __assert(threadIdx.x + 1 != __other_int(threadIdx.x)); // ERROR C0621 col=3 "^__assert violated in thread 0 of block 0 when the other thread is thread 1 of block 0 \(thread 1 of block 0, kernel k\)$"
}
