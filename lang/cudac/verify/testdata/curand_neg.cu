//xfail:NOT_ALL_VERIFIED
//--blockDim=8 --gridDim=1
// RESULT: configs=2 excluded=0 findings=2
// One state shared by the block: curand_init writes it and curand reads
// and writes it in every thread, unordered (GPUVerify's init_race and
// curand_race).
__global__ void k(curandState *state, unsigned *a) {
  curand_init(0, 0, 0, state); // ERROR C0501 col=3 "write by thread 1 of block 0 .* conflicts with an unordered write by thread 0 of block 0"
  __syncthreads();
  a[threadIdx.x] = curand(state); // ERROR C0501 col=20 "read by thread 1 of block 0 .* conflicts with an unordered write by thread 0 of block 0"
}
