//xfail:NOT_ALL_VERIFIED
//--blockDim=16 --gridDim=1
// RESULT: configs=4 excluded=0 findings=1
// Two calls of a bodiless function give two offsets, the same in every
// thread; they race once the offsets differ: --nondet-seed=2 gives each
// call site a small value of its own (1 and 2), the same in every thread.
__device__ unsigned get(int);
__global__ void k(float *y) {
  int i = threadIdx.x;
  int o1 = get(i);
  int o2 = get(i);
  y[i + o1] = y[i + o2] + 1.0f; // ERROR C0501 col=3 "write by thread 1 of block 0 .* conflicts with an unordered read by thread 0 of block 0" // NOTE "--nondet-seed=2"
}
