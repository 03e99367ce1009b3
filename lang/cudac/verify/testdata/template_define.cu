//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1 -DN=4
// RESULT: configs=2 excluded=0 findings=1
// The define N=4 gives the template argument N (a value parameter; 64 without it):
// threads 0 and 4 then write the same element.
template <int N>
__global__ void k(int *a) {
  __shared__ int s[N];
  s[threadIdx.x % N] = a[threadIdx.x]; // ERROR C0501 col=3 "write by thread 4 of block 0 .*unordered write by thread 0" // NOTE "the other access"
}
