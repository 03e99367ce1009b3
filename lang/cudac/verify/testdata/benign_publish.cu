//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1
// RESULT: configs=2 excluded=0 findings=2
// Only thread 0 stores the pointer: the others may read it before, and then
// dereference garbage.
__global__ void k(int *a) {
  __shared__ int *p;
  __shared__ int A[32];
  if (threadIdx.x == 0)
    p = A; // ERROR C0501 col=5 "write by thread 0 of block 0 .*unordered read by thread 1" // NOTE "the other access: read by thread 1"
  p[threadIdx.x] = 1; // ERROR C0405 col=3 "invalid pointer 0x4 dereferenced \(thread 1 of block 0" // WARN C0407 col=3 "read of uninitialized shared memory p"
}
