//xfail:NOT_ALL_VERIFIED
//--blockDim=16 --gridDim=1 --kernel-args=k,*,0
// RESULT: configs=2 excluded=0 findings=1
// GPUVerify's --kernel-args picks the kernel and fixes n = 0 (* leaves a
// parameter free): every thread writes a[0].
__global__ void other(int *a) {
  a[0] = 1;
}
__global__ void k(int *a, int n) {
  a[threadIdx.x * n / blockDim.x] = 1; // ERROR C0501 col=3 "write by thread 1 of block 0 \(kernel k\)" // NOTE "the other access" // NOTE "^found launching k with --kernel=k --gridDim=1 --blockDim=16 --arg n=0 --nondet-seed=0 --max-configs=1$"
}
