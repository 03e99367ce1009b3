//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=4
// RESULT: configs=2 excluded=0 findings=1
// Without grid.sync() block 0 reads what block 1 writes.
__global__ void k(int *A) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int next = A[(i + 32) % (32 * 4)];
  A[i] = next; // ERROR C0501 col=3 "write by thread 0 of block 1 .*unordered read by thread 0 of block 0" // NOTE "the other access"
}
