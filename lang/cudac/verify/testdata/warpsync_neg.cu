//xfail:NOT_ALL_VERIFIED
//--blockDim=32 --gridDim=1
// RESULT: configs=2 excluded=0 findings=2
// The same reduction without --warp-sync races (independent thread scheduling).
__global__ void k(int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = t;
  s[t + 32] = 0;
  for (int d = 16; d > 0; d >>= 1)
    if (t < d)
      s[t] += s[t + d]; // ERROR C0501 col=15 "byte 32\): read by thread 0 of block 0 .*unordered write by thread 8" // ERROR C0501 col=15 "byte 64\): read by thread 0 of block 0 .*unordered write by thread 16"
  if (t == 0)
    *out = s[0];
}
