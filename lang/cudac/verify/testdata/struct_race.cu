//xfail:NOT_ALL_VERIFIED
//--blockDim=16 --gridDim=2
// RESULT: configs=2 excluded=0 findings=1
struct pair {
  float *x;
  int *y[2];
};
__global__ void k(pair p) {
  p.y[0][threadIdx.x] = 2; // ERROR C0501 col=3 "global memory p.y\[0\] .*write by thread 0 of block 1 .*unordered write by thread 0 of block 0" // NOTE "the other access" // NOTE "--nondet-seed=0 --max-configs=1$"
}
