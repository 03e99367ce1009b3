// A single-pass sum with __threadfence (issue 15, B7): race-free under weft
// check; built with -DNOFENCE (the fences removed) the last block's reads race.
#include <cstdio>
// After the single-pass sum of the CUDA C++ Programming Guide's "Memory
// Fence Functions": each block writes its partial sum, fences (release),
// and counts itself done; the last block fences (acquire) and sums the
// partial sums. The guide reads them through a volatile pointer (strong
// accesses, no data race either way); here they are plain, so both fences
// are needed (docs/cudac.md, "Fences, atomics and volatile").
#define BLOCKS 8
#define THREADS 64
__device__ unsigned int count = 0;
__global__ void sum(const float *in, float *partial, float *result) {
  __shared__ float s[THREADS];
  __shared__ bool isLast;
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * THREADS + t];
  __syncthreads();
  for (int k = THREADS / 2; k > 0; k /= 2) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = s[0];
#ifndef NOFENCE
    __threadfence();
#endif
    unsigned int v = atomicInc(&count, gridDim.x);
    isLast = (v == gridDim.x - 1);
#ifndef NOFENCE
    if (isLast) __threadfence();
#endif
  }
  __syncthreads();
  if (isLast && t == 0) {
    float total = 0;
    for (int b = 0; b < gridDim.x; b++) total += partial[b];
    *result = total;
    count = 0;
  }
}
int main() {
  float h[BLOCKS * THREADS], *in, *partial, *result, r;
  for (int i = 0; i < BLOCKS * THREADS; i++) h[i] = (float)(i % 7);
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&partial, BLOCKS * sizeof(float));
  cudaMalloc(&result, sizeof(float));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  sum<<<BLOCKS, THREADS>>>(in, partial, result);
  cudaMemcpy(&r, result, sizeof r, cudaMemcpyDeviceToHost);
  printf("%g\n", r);
  return 0;
}
