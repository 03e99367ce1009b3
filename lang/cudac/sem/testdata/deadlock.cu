// ---- a barrier reached by one thread of two deadlocks
#include <stdio.h>
__global__ void k() {
  if (threadIdx.x == 0) __syncthreads(); // ERROR C0502 col=25 "barrier divergence in block 0 of kernel k: threads wait at __syncthreads\(\) while thread 1 exited" // NOTE "thread 0 wait at __syncthreads"
}
int main() {
  k<<<1, 2>>>();
  cudaDeviceSynchronize();
  printf("not reached\n");
  return 0;
}
// ---- one thread per block: the barrier completes at once
#include <stdio.h>
__global__ void k(int *x) {
  x[blockIdx.x] = 1;
  __syncthreads();
  __syncthreads();
  x[blockIdx.x] += 1;
}
int main() {
  int *d, h[3];
  cudaMalloc(&d, sizeof(h));
  k<<<3, 1>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%d %d %d\n", h[0], h[1], h[2]);
  return 0;
}
// OUT: 2 2 2
// ---- a barrier in a loop with a thread-dependent trip count deadlocks
__global__ void k() {
  for (int i = 0; i < threadIdx.x; i++) {
    __syncthreads(); // ERROR C0502 col=5 "threads wait at __syncthreads\(\) while thread 0 exited" // NOTE "threads 1-3 wait at __syncthreads"
  }
}
int main() {
  k<<<1, 4>>>();
  cudaDeviceSynchronize();
  return 0;
}
// ---- a shuffle waiting for a lane that exited deadlocks
__global__ void k(int *out) {
  if (threadIdx.x == 5) return;
  out[threadIdx.x] = __shfl_sync(0xffffffff, (int)threadIdx.x, 0); // ERROR C0503 col=22 "deadlock in block 0 of kernel k: no thread can move \(thread 5 exited\)" // NOTE "threads 0-4, 6-31 wait at __shfl_sync"
}
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  k<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
// ---- a shuffle with the mask of the active lanes is fine
#include <stdio.h>
__global__ void k(int *out) {
  if (threadIdx.x >= 16) return;
  out[threadIdx.x] = __shfl_sync(0x0000ffff, (int)threadIdx.x * 3, 15);
}
int main() {
  int *d, h[16];
  cudaMalloc(&d, sizeof(h));
  k<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[15]);
  return 0;
}
// OUT: 45 45
