//xfail:NOT_ALL_VERIFIED
//--blockDim=16 --gridDim=1
// RESULT: configs=2 excluded=0 findings=1
// The invariant claims every write of this thread is at an offset congruent
// to its id modulo 8: thread 8 writes element 32.
__global__ void k(int *S) {
  for (int i = threadIdx.x % 8; __invariant(__write_implies(S, __write_offset_bytes(S) / sizeof(int) == threadIdx.x % 8)), i < 32; i += 8) { // ERROR C0621 col=33 "__invariant violated \(thread 8 of block 0"
    S[i + 32 * (threadIdx.x / 8)] = 1;
  }
}
