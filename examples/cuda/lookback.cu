// A single-pass prefix sum with decoupled look-back (the pattern of CUB's
// scans): each block scans its tile, publishes its aggregate, and its thread
// 0 spins on the status words of the blocks before it until it can form its
// exclusive prefix. The waits end under any order of the blocks: weft parks
// a block whose threads can only spin and resumes it when memory changes
// (docs/cudac.md "Deadlocks").
#include <stdio.h>
#define BLOCKS 8
#define THREADS 32
#define N (BLOCKS * THREADS)

// status[b]: 0 nothing yet, 1 aggregate published, 2 inclusive prefix published
__global__ void scan(const int *in, int *out, int *status, int *agg, int *incl) {
  __shared__ int tile[THREADS];
  __shared__ int exclusive;
  int b = blockIdx.x, t = threadIdx.x;
  tile[t] = in[b * THREADS + t];
  __syncthreads();
  for (int s = 1; s < THREADS; s *= 2) { // inclusive scan of the tile
    int v = t >= s ? tile[t - s] : 0;
    __syncthreads();
    tile[t] += v;
    __syncthreads();
  }
  if (t == 0) {
    int total = tile[THREADS - 1];
    int prefix = 0;
    if (b > 0) {
      atomicExch(&agg[b], total);
      atomicExch(&status[b], 1);
      for (int p = b - 1; p >= 0;) {
        int s = atomicAdd(&status[p], 0);
        if (s == 0)
          continue; // block p has published nothing yet: wait
        if (s == 2) {
          prefix += atomicAdd(&incl[p], 0);
          break;
        }
        prefix += atomicAdd(&agg[p], 0);
        p--;
      }
    }
    atomicExch(&incl[b], prefix + total);
    atomicExch(&status[b], 2);
    exclusive = prefix;
  }
  __syncthreads();
  out[b * THREADS + t] = exclusive + tile[t];
}

int main() {
  int h[N], r[N];
  for (int i = 0; i < N; i++)
    h[i] = i % 7 + 1;
  int *in, *out, *flags;
  cudaMalloc(&in, N * sizeof(int));
  cudaMalloc(&out, N * sizeof(int));
  cudaMalloc(&flags, 3 * BLOCKS * sizeof(int));
  cudaMemset(flags, 0, 3 * BLOCKS * sizeof(int));
  cudaMemcpy(in, h, sizeof(h), cudaMemcpyHostToDevice);
  scan<<<BLOCKS, THREADS>>>(in, out, flags, flags + BLOCKS, flags + 2 * BLOCKS);
  cudaMemcpy(r, out, sizeof(r), cudaMemcpyDeviceToHost);
  int sum = 0, bad = 0;
  for (int i = 0; i < N; i++) {
    sum += h[i];
    if (r[i] != sum)
      bad++;
  }
  printf("scan of %d values: last %d, %d wrong\n", N, r[N - 1], bad);
  return bad != 0;
}
