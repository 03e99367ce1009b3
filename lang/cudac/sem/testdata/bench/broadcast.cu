// Broadcast reads (issue 15 B4): every thread of BLOCKS blocks of 256
// reads the same global word, then writes its own element. Each read is
// unordered with the reads of the other blocks, so the word's history
// holds one read per thread.
#include <cstdio>
#ifndef BLOCKS
#define BLOCKS 128
#endif
__global__ void bcast(const int *w, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = w[0] + i;
}
int main() {
  int n = BLOCKS * 256, *w, *out;
  cudaMalloc(&w, sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMemset(w, 0, sizeof(int));
  bcast<<<BLOCKS, 256>>>(w, out);
  cudaMemset(w, 0, sizeof(int)); // a write after all the reads
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
