//xfail:NOT_ALL_VERIFIED
//--blockDim=16 --gridDim=1
// RESULT: configs=2 excluded=0 findings=2
// threadIdx.x / 8 differs between the two halves of the block, and bar is
// reached by half of the threads only.
__device__ int bar(int x) {
  __requires(__uniform_bool(__enabled())); // ERROR C0621 col=3 "__requires violated \(__uniform_bool\(__enabled\(\)\) is false: thread 0 of block 0 reached it and threads of the run did not\)"
  return x;
}
__global__ void k(int *a) {
  __assert(__uniform_int(threadIdx.x / 8)); // ERROR C0621 col=3 "__assert violated \(__uniform_int is false: thread 0 of block 0 has 0 and thread 8 of block 0 has 1\)"
  if (threadIdx.x < 8)
    a[threadIdx.x] = bar(threadIdx.x);
}
