// 64-bin histogram: each block counts into shared memory with shared
// atomics, then adds its counts to the global histogram with global atomics.
#include <cstdio>
#define BINS 64

__global__ void histogram(const unsigned char *data, int n, unsigned int *hist) {
  __shared__ unsigned int local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i] % BINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (local[b]) atomicAdd(&hist[b], local[b]);
}

int main() {
  const int n = 4096;
  unsigned char data[n];
  unsigned int ref[BINS] = {0}, hist[BINS];
  unsigned int seed = 12345;
  for (int i = 0; i < n; i++) {
    seed = seed * 1103515245u + 12345u;
    data[i] = (seed >> 16) & 0xff;
    ref[data[i] % BINS]++;
  }
  unsigned char *ddata;
  unsigned int *dhist;
  cudaMalloc(&ddata, n);
  cudaMalloc(&dhist, sizeof(hist));
  cudaMemcpy(ddata, data, n, cudaMemcpyHostToDevice);
  cudaMemset(dhist, 0, sizeof(hist));
  histogram<<<4, 128>>>(ddata, n, dhist);
  cudaMemcpy(hist, dhist, sizeof(hist), cudaMemcpyDeviceToHost);
  int bad = 0;
  unsigned int total = 0;
  for (int b = 0; b < BINS; b++) {
    if (hist[b] != ref[b]) bad++;
    total += hist[b];
  }
  printf("bins 0-7:");
  for (int b = 0; b < 8; b++) printf(" %u", hist[b]);
  printf("\ntotal %u of %d, %s\n", total, n, bad ? "MISMATCH" : "matches the CPU");
  return bad != 0;
}
