// Two streams write the same buffer. Without the event the second kernel is
// unordered with the first (a race across streams); with
// cudaStreamWaitEvent it runs after it.
#include <stdio.h>
#define N 64

__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }
__global__ void addOne(int *p) { p[threadIdx.x] += 1; }

int main(void) {
  int h[N], *d;
  cudaStream_t a, b;
  cudaEvent_t filled;
  cudaStreamCreate(&a);
  cudaStreamCreate(&b);
  cudaEventCreate(&filled);
  cudaMalloc(&d, sizeof(h));

  fill<<<1, N, 0, a>>>(d, 41);
  cudaEventRecord(filled, a);
  cudaStreamWaitEvent(b, filled, 0);
  addOne<<<1, N, 0, b>>>(d);
  cudaStreamSynchronize(b);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("ordered: %d\n", h[N - 1]);

  fill<<<1, N, 0, a>>>(d, 1);
  addOne<<<1, N, 0, b>>>(d);
  cudaDeviceSynchronize();
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("unordered: %d\n", h[N - 1]);
  return 0;
}
