//xfail:NOT_ALL_VERIFIED
//--blockDim=64 --gridDim=2
// RESULT: configs=2 excluded=0 findings=1
// Thread 4 of block 0 and thread 4 of block 1 both have threadIdx.x == 4:
// the pair of them breaks the assertion (GPUVerify's test_at_most_one with
// two blocks).
__global__ void k(int *a) {
  __assert(__implies(threadIdx.x == 4, __other_int(threadIdx.x) != 4)); // ERROR C0621 col=3 "^__assert violated when the other thread is thread 4 of block 0 \(thread 4 of block 1, kernel k\)$"
}
