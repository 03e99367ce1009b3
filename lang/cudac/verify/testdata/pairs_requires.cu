//pass
//--blockDim=16 --gridDim=1
// RESULT: configs=0 excluded=6 findings=0
// A kernel precondition no launch meets (a parameter is the same in every
// thread): every configuration is excluded, nothing is checked.
__global__ void k(int *a, int n) {
  __requires(__distinct_int(n));
  a[0] = n;
}
