// The host reads device memory directly instead of copying it back
// (seed 004: illegal device memory access from the host).
#include <stdio.h>

__global__ void init(int *p) { p[threadIdx.x] = threadIdx.x * threadIdx.x; }

int main(void) {
  int *d;
  cudaMalloc(&d, 8 * sizeof(int));
  init<<<1, 8>>>(d);
  cudaDeviceSynchronize();
  printf("p[3] = %d\n", d[3]);
  return 0;
}
