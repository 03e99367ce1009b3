//pass
//--blockDim=32 --gridDim=1
// RESULT: configs=5 excluded=1 findings=0
// A function-pointer parameter fixed by a precondition is that function
// (--arg f=twice reruns it); __return_val_funptr(T) is the value returned.
typedef float (*op)(float *, unsigned);
__device__ float twice(float *v, unsigned i) { return v[i] * 2.0f; }
__device__ float halve(float *v, unsigned i) { return v[i] * 0.5f; }
__device__ op pick(int i) {
  __requires(i != 0);
  __ensures(__return_val_funptr(op) == twice);
  return i == 0 ? halve : twice;
}
__global__ void k(float *v, op f, int i) {
  __requires(f == twice);
  __requires(i != 0);
  uint tid = threadIdx.x;
  v[tid] = (*f)(v, tid) + pick(i)(v, tid);
}
