//pass
//--blockDim=64 --gridDim=1
// RESULT: configs=2 excluded=0 findings=0
// Buffers of unknown extent grow: a strided access is no out-of-bounds error,
// and __builtin_memcpy copies between them.
__global__ void k(int *a, int *b) {
  a[threadIdx.x * 1000] = 1;
  __builtin_memcpy(&b[threadIdx.x * 4], &a[threadIdx.x * 1000], sizeof(int));
}
