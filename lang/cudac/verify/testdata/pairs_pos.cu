//pass
//--blockDim=16 --gridDim=2
// RESULT: configs=7 excluded=0 findings=0
// Two-thread predicates hold over the threads run: the k-th evaluation of a
// site by each thread is compared when the kernel ends.
__device__ int bar(int x) {
  __requires(__implies(__enabled(), __uniform_bool(__enabled())));
  __requires(__distinct_int(x));
  __ensures(__implies(__enabled(), __distinct_int(__return_val_int())));
  return x + 1;
}
__global__ void k(int *a, int n) {
  __requires(__uniform_int(n));
  for (int i = 0; __invariant(__uniform_int(i)), __invariant(__uniform_bool(__enabled())), i < 4; i++)
    a[blockIdx.x * blockDim.x + threadIdx.x] = bar(blockIdx.x * blockDim.x + threadIdx.x);
  __assert(__distinct_int(blockIdx.x * blockDim.x + threadIdx.x) && __uniform_int(blockDim.x));
  // judged over pairs of threads (others.go)
  __assert(__implies(__same_group && threadIdx.x == 4, __other_int(threadIdx.x) != 4));
}
