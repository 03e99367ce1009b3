// A histogram whose bins are updated without atomics: threads of different
// blocks increment the same global counter. `weft check` reports the race;
// histogram_atomic (below) is the fix and is race-free.
#include <stdio.h>
#define N 256
#define BINS 4

__global__ void histogram(const int *data, int *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) bins[data[i] % BINS] += 1;
}

__global__ void histogram_atomic(const int *data, int *bins) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) atomicAdd(&bins[data[i] % BINS], 1);
}

int main(void) {
  int h[N], counts[BINS], *d, *bins;
  for (int i = 0; i < N; i++) h[i] = (i * 7) % 13;
  cudaMalloc(&d, sizeof(h));
  cudaMalloc(&bins, sizeof(counts));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemset(bins, 0, sizeof(counts));
  histogram_atomic<<<N / 64, 64>>>(d, bins);
  cudaMemcpy(counts, bins, sizeof(counts), cudaMemcpyDeviceToHost);
  printf("atomic: %d %d %d %d\n", counts[0], counts[1], counts[2], counts[3]);
  cudaMemset(bins, 0, sizeof(counts));
  histogram<<<N / 64, 64>>>(d, bins);
  cudaMemcpy(counts, bins, sizeof(counts), cudaMemcpyDeviceToHost);
  printf("plain:  %d %d %d %d\n", counts[0], counts[1], counts[2], counts[3]);
  cudaFree(d);
  cudaFree(bins);
  return 0;
}
