//pass
//--blockDim=16 --gridDim=2
// RESULT: configs=4 excluded=0 findings=0
// An uninterpreted function (bugle's __uninterpreted_function_ prefix) has
// one value per argument list, in every thread and at every call site.
__device__ int __uninterpreted_function_f(int);
__device__ unsigned __uninterpreted_function_g(int, unsigned);
__global__ void k(int *a) {
  int x = __uninterpreted_function_f(threadIdx.x % 2);
  int y = __uninterpreted_function_f(threadIdx.x % 2);
  __assert(x == y);
  __assert(__implies(__other_int(threadIdx.x % 2) == threadIdx.x % 2, __other_int(x) == x));
  __assert(__uninterpreted_function_g(1, 2u) == __uninterpreted_function_g(1, 2u));
  a[blockIdx.x * blockDim.x + threadIdx.x] = x;
}
