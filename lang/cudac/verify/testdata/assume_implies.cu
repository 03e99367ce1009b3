//pass
//--blockDim=32 --gridDim=1
// RESULT: configs=4 excluded=3 findings=0
// __assume anywhere, __implies and __enabled in a precondition.
__global__ void k(int *a, int n) {
  __requires(__implies(__enabled(), n > 0));
  if (threadIdx.x < 8) {
    __assume(n % 8 == 0);
    a[threadIdx.x % n] = threadIdx.x;
  }
}
