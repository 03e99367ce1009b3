//pass
//--blockDim=64 --gridDim=2 --only-intra-group
// RESULT: configs=2 excluded=0 findings=0
// The same assertion with --only-intra-group: the two threads of a pair are
// in one block, where only one thread has threadIdx.x == 4.
__global__ void k(int *a) {
  __assert(__implies(threadIdx.x == 4, __other_int(threadIdx.x) != 4));
  __assert(__same_group);
}
