//xfail:NOT_ALL_VERIFIED
//--gridDim=1 --blockDim=2
// RESULT: configs=2 excluded=0 findings=2
// Each thread copies two elements: neighbours overlap. The second copy
// writes through a null pointer.
__global__ void k(int *in, int *out) {
  __builtin_memcpy(&out[threadIdx.x], &in[threadIdx.x], 2 * sizeof(int)); // ERROR C0501 col=3 "global memory out \(byte 4\): write by thread 1 of block 0 .*unordered write by thread 0" // NOTE "the other access"
  __builtin_memset(0, 0, sizeof(int)); // ERROR C0405 col=3 "null pointer dereference \(thread 0 of block 0"
}
