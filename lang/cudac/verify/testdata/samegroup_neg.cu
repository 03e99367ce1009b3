//xfail:NOT_ALL_VERIFIED
//--blockDim=8 --gridDim=2
// RESULT: configs=2 excluded=0 findings=1
// A pair may lie in two blocks: __same_group is then false.
__global__ void k(int *a) {
  __assert(__same_group || threadIdx.x != __other_int(threadIdx.x) + 1); // ERROR C0621 col=3 "^__assert violated when the other thread is thread 0 of block 0 \(thread 1 of block 1, kernel k\)$"
}
