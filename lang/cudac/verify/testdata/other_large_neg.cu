//xfail:NOT_ALL_VERIFIED
//--blockDim=1024 --gridDim=2
// RESULT: configs=2 excluded=0 findings=1
// Beyond 64 threads at an evaluation a thread is paired with the first 8
// and the last 16 before it and with earlier threads of its own index in
// other blocks: thread 700 of block 1 meets thread 700 of block 0.
__global__ void k(int *a) {
  __assert(__all(threadIdx.x < blockDim.x));
  __assert(__at_most_one(threadIdx.x == 700)); // ERROR C0621 col=3 "^__assert violated when the other thread is thread 700 of block 0 \(thread 700 of block 1, kernel k\)$"
}
