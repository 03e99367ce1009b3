// 16 MB of global memory touched by 65536 threads, and 8 MB of host memory
// written by the copy back: the shadow-memory benchmark (docs/cudac.md).
#include <stdio.h>
#include <stdlib.h>
#define N (1 << 21)
__global__ void scale(const int *in, int *out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    out[i] = 2 * in[i] + 1;
}
int main() {
  int *in, *out;
  cudaMalloc(&in, N * sizeof(int));
  cudaMalloc(&out, N * sizeof(int));
  cudaMemset(in, 0, N * sizeof(int));
  scale<<<256, 256>>>(in, out, N);
  int *h = (int *)malloc(N * sizeof(int));
  cudaMemcpy(h, out, N * sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[N - 1]);
  return 0;
}
