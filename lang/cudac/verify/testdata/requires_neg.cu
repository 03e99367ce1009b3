//xfail:NOT_ALL_VERIFIED
//--blockDim=16 --gridDim=1
// RESULT: configs=6 excluded=0 findings=1
// Without the precondition, n = 0 makes every thread write a[0].
__global__ void k(int *a, int n) {
  a[threadIdx.x * n / blockDim.x] = 1; // ERROR C0501 col=3 "write by thread 1 of block 0 .*unordered write by thread 0 of block 0" // NOTE "the other access" // NOTE "--arg n=0 --nondet-seed=0 --max-configs=1$"
}
