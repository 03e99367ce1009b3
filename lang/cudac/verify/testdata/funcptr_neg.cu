//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1
// RESULT: configs=2 excluded=0 findings=1
// An unconstrained function-pointer parameter may be anything: the search
// supplies a pointer to data, and the call through it is an error
// (GPUVerify: possible null pointer access).
typedef float (*op)(float *, unsigned);
__device__ float twice(float *v, unsigned i) { return v[i] * 2.0f; }
__global__ void k(float *v, op f) {
  v[threadIdx.x] = (*f)(v, threadIdx.x); // ERROR C0405 col=24 "call through an invalid function pointer"
}
