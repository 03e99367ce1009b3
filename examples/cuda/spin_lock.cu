// A spin lock whose holder forgets to release it. The first thread to win
// atomicCAS counts and exits; every other thread spins on the lock forever.
// weft reports the livelock (C0504) instead of running to the step limit.
#include <stdio.h>
__global__ void count(int *lock, int *n) {
  while (atomicCAS(lock, 0, 1) != 0)
    ;
  atomicAdd(n, 1);
  // atomicExch(lock, 0);  -- the release is missing
}
int main() {
  int *d, h = 0;
  cudaMalloc(&d, 2 * sizeof(int));
  cudaMemset(d, 0, 2 * sizeof(int));
  count<<<2, 4>>>(d, d + 1);
  cudaMemcpy(&h, d + 1, sizeof(int), cudaMemcpyDeviceToHost);
  printf("count %d\n", h);
  return 0;
}
