// A benchmark workload (not a test case): a shared-memory tree reduction of
// 4096 ints by 64 blocks of 64 threads, then a second kernel summing the 64
// partial sums with atomics.
#include <stdio.h>
#define N 4096
#define T 64
__global__ void reduce(const int *in, int *out) {
  __shared__ int s[T];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
__global__ void total(const int *part, int *sum) { atomicAdd(sum, part[threadIdx.x]); }
int main() {
  static int h[N];
  int *din, *dpart, *dsum, r = 0;
  for (int i = 0; i < N; i++) h[i] = (i * 7) % 13;
  cudaMalloc(&din, sizeof(h));
  cudaMalloc(&dpart, (N / T) * sizeof(int));
  cudaMalloc(&dsum, sizeof(int));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemcpy(dsum, &r, sizeof(int), cudaMemcpyHostToDevice);
  reduce<<<N / T, T>>>(din, dpart);
  total<<<1, N / T>>>(dpart, dsum);
  cudaMemcpy(&r, dsum, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", r);
  return 0;
}
