//xfail:NOT_ALL_VERIFIED
// RESULT: configs=8 excluded=0 findings=1
// An explicit instantiation gives the template arguments the search
// checks: N = 0 makes every thread write a[0] (the default, 64, would not).
template <typename T, int N>
__global__ void k(T *a) {
  a[threadIdx.x * N] = (T)threadIdx.x; // ERROR C0501 col=3 "write by thread 1 of block 0 .* conflicts with an unordered write by thread 0 of block 0"
}
template __global__ void k<float, 0>(float *a);
