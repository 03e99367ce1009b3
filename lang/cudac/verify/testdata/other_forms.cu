//pass
//--blockDim=8 --gridDim=2
// RESULT: configs=4 excluded=0 findings=0
// Unusual forms: nested predicates (the inner other of the other thread is
// this one), predicates outside annotations (the argument), and forms the
// pair evaluation cannot hold (under an index or a call), which hold
// without being evaluated.
__device__ int f(int x) { return x; }
__global__ void k(int *a, float g) {
  __assert(a[__other_int(threadIdx.x)] == 0 || 1);
  __assert(f(__other_int(threadIdx.x)) >= 0);
  __assert(__other_int(__other_int(threadIdx.x)) == threadIdx.x);
  __assert(__all(__all(threadIdx.x < 8)));
  __assert(__other_bool(g > 0.5f) == (g > 0.5f));
  __assert(__uniform_bool(__other_int(threadIdx.x) != threadIdx.x));
  __assume(__implies(__same_group, __distinct_int(threadIdx.x)));
  int y = __other_int(threadIdx.x);
  __assert(-__other_int(threadIdx.x) <= 0 ? 1 : (int)__other_unsigned(blockIdx.x) >= 0);
  a[blockIdx.x * 8 + threadIdx.x] = y;
}
