//pass
//--blockDim=32 --gridDim=2
// RESULT: configs=18 excluded=0 findings=0
// Group predicates judged over the pairs of threads the run ran: each holds
// for every pair (both orders) of threads that reached the annotation.
__device__ int twice(int x) {
  __ensures(__implies(__same_group, __other_int(__return_val_int()) != __return_val_int() || __other_int(x) == x));
  return 2 * x;
}
__global__ void k(int *a, int n) {
  __requires(__all(n == __other_int(n)));
  __requires(!__exclusive(__uniform_int(n)));
  __assert(__all(threadIdx.x < blockDim.x));
  __assert(__implies(__same_group && threadIdx.x == 4, __other_int(threadIdx.x) != 4));
  __assert(__at_most_one(threadIdx.x == 4 && blockIdx.x == 1));
  __assert(__exclusive(threadIdx.x == 4 && blockIdx.x == 1));
  __assert(!__same_group || __uniform_int(blockIdx.x));
  __assert(__same_group() == (__other_int(blockIdx.x) == blockIdx.x));
  __assert(__other_unsigned(threadIdx.x) - threadIdx.x != 0u || __other_int(blockIdx.x) != blockIdx.x);
  __assert(__other_bool(threadIdx.x > 100) == false);
  __assert(__uniform_int(threadIdx.x) ? __other_int(blockIdx.x) != blockIdx.x : 1);
  __assert(!__distinct_int(blockIdx.x * blockDim.x + threadIdx.x) == 0);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  a[i] = twice(i);
  // a leaf that reads memory is evaluated only where the guard lets it:
  // threads beyond n neither read a[i] nor take part in the comparison
  __assert(__implies(i < n, __other_int(a[i]) != a[i]));
  for (int j = 0; __invariant(__implies(__same_group, __other_int(j) == j)), j < 3; j++)
    a[i] += j;
}
