// Thread 0 spins on a shared flag that thread 1 would set, but thread 1
// first waits at a __syncthreads() that thread 0 never reaches.
#include <stdio.h>
__global__ void handoff(int *out) {
  __shared__ volatile int flag;
  if (threadIdx.x == 0)
    flag = 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    while (flag == 0)
      ;
  } else {
    __syncthreads();
    flag = 1;
  }
  out[threadIdx.x] = threadIdx.x;
}
int main() {
  int *d;
  cudaMalloc(&d, 2 * sizeof(int));
  printf("launching\n");
  handoff<<<1, 2>>>(d);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
