//pass
//--blockDim=16 --gridDim=1
// RESULT: configs=2 excluded=0 findings=0
// Two-thread and access predicates that hold.
__device__ int bar(int x) {
  __requires(__implies(__enabled(), __uniform_bool(__enabled())));
  __requires(__distinct_int(x));
  __ensures(__distinct_int(__return_val_int()));
  return x + 1;
}
__global__ void k(int *a) {
  __assert(__implies(threadIdx.x == 4, __other_int(threadIdx.x) != 4));
  for (int i = 0; __invariant(__write_implies(a, __write_offset_bytes(a) / sizeof(int) == threadIdx.x)), i < 2; i++)
    a[threadIdx.x] = bar(threadIdx.x);
}
