//xfail:NOT_ALL_VERIFIED
//--blockDim=512 --gridDim=1
// RESULT: configs=2 excluded=0 findings=1
// An MTGP32 state serves at most 256 threads of one block: thread 256 uses
// thread 0's word.
__global__ void k(curandStateMtgp32_t *state, float *a) {
  a[threadIdx.x] = curand_uniform(state); // ERROR C0501 col=20 "read by thread 256 of block 0 .* conflicts with an unordered write by thread 0 of block 0"
}
