// RESULT: configs=24 excluded=0 findings=0
// Faial style: a template kernel nothing instantiates runs with T = int.
template <typename T>
__global__ void axpy(T *y, const T *x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}
