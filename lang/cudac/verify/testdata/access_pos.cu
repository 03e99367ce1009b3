//pass
//--blockDim=16 --gridDim=1
// RESULT: configs=2 excluded=0 findings=0
// Access predicates speak of this thread's accesses since its last barrier.
__global__ void k(float *S, int *T) {
  __assert(__no_read(S) & __no_write(S));
  for (int i = threadIdx.x; __invariant(__write_implies(S, __write_offset_bytes(S) / sizeof(float) % blockDim.x == threadIdx.x)),
                            __invariant(__implies(__write(S), __write_offset_bytes(S) / sizeof(float) < i)),
                            __invariant(__no_read(S)),
                            i < 64; i += blockDim.x) {
    S[i] = 1.0f;
  }
  __assert(__write(S) & !__read(T));
  __syncthreads();
  __assert(__no_write(S));
  T[threadIdx.x] = (int)S[threadIdx.x];
  __assert(__read_implies(S, __read_offset_bytes(S) == threadIdx.x * sizeof(float)));
  __assert(__ptr_offset_bytes(&T[3]) == 12);
}
