//xfail:NOT_ALL_VERIFIED
//--blockDim=16 --gridDim=1 --no-inline
// GPUVerify's dialect: with n = 0 every thread writes a[0]; the
// precondition, when uncommented, excludes that input.
__global__ void k(int *a, int n) {
  // __requires(n == blockDim.x);
  a[threadIdx.x * n / blockDim.x] = 1;
}
