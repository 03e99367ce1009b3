// RESULT: configs=24 excluded=0 findings=0
// Faial style: no header; every thread updates its own element.
__global__ void inc(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = a[i] + 1;
}
