//xfail:NOT_ALL_VERIFIED
//--blockDim=8 --gridDim=1
// RESULT: configs=2 excluded=0 findings=1
__global__ void k(int *a) {
  for (int d = 1; __invariant(d < 4), d < 8; d <<= 1) { // ERROR C0621 col=19 "__invariant violated \(thread 0 of block 0" // NOTE "--nondet-seed=0 --max-configs=1$"
    a[threadIdx.x] += d;
  }
}
