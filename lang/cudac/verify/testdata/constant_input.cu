//xfail:NOT_ALL_VERIFIED
//--blockDim=16 --gridDim=1
// RESULT: configs=2 excluded=0 findings=2
// __constant__ memory is an input: the search also runs with small random
// values in it, and then every thread writes a[0]. An initializer does not
// fix the values either (the host may change them before the launch, as
// GPUVerify assumes).
__constant__ int mode[2];
__constant__ float scale = 2.0f;
__global__ void k(int *a, float *b) {
  if (mode[1] != 0)
    a[0] = threadIdx.x; // ERROR C0501 col=5 "write by thread 1 of block 0" // NOTE "--random-buffers --seed=1"
  b[threadIdx.x] = scale;
  __assert(scale == 2.0f); // ERROR C0621 col=3 "^__assert violated \(thread 0 of block 0, kernel k\)$" // NOTE "--random-buffers --seed=1"
}
