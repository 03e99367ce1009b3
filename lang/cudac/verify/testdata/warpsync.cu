//pass
//--blockDim=32 --gridDim=1 --warp-sync=32
// RESULT: configs=2 excluded=0 findings=0
// A warp-synchronous reduction: lanes of one warp run in lock step.
__global__ void k(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = t;
  s[t + 32] = 0;
  for (int d = 16; d > 0; d >>= 1)
    if (t < d)
      s[t] += s[t + d];
  if (t == 0)
    *out = s[0];
}
