// ---- a blocking stream's kernel is ordered after the default stream's earlier kernel (legacy default stream): no race
#include <cstdio>
__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }
__global__ void addOne(int *p) { p[threadIdx.x] += 1; }
int main() {
  int *d, h[32];
  cudaMalloc(&d, sizeof h);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamDefault);
  fill<<<1, 32>>>(d, 4);
  addOne<<<1, 32, 0, s>>>(d);
  cudaDeviceSynchronize();
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[31]);
  return 0;
}
// OUT: 5 5
// ---- a non-blocking stream does not synchronize with the default stream: the same kernels race
#include <cstdio>
__global__ void fill(int *p, int v) { p[threadIdx.x] = v; } // NOTE "the other access"
__global__ void addOne(int *p) { p[threadIdx.x] += 1; } // ERROR C0501 col=34 "data race on global memory"
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  fill<<<1, 32>>>(d, 4);
  addOne<<<1, 32, 0, s>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
// ---- a non-blocking stream ordered by an event is race-free
#include <cstdio>
__global__ void fill(int *p, int v) { p[threadIdx.x] = v; }
__global__ void addOne(int *p) { p[threadIdx.x] += 1; }
int main() {
  int *d, h[32];
  cudaMalloc(&d, sizeof h);
  cudaStream_t s;
  cudaEvent_t e;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaEventCreate(&e);
  fill<<<1, 32>>>(d, 4);
  cudaEventRecord(e, 0);
  cudaStreamWaitEvent(s, e, 0);
  addOne<<<1, 32, 0, s>>>(d);
  cudaStreamSynchronize(s);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  unsigned flags = 9;
  cudaStreamGetFlags(s, &flags);
  printf("%d %d %u\n", h[0], h[31], flags);
  return 0;
}
// OUT: 5 5 1
// ---- stream priorities: the device's range, creation with a priority (clamped to the range), cudaStreamGetPriority
#include <cstdio>
int main() {
  int least = 1, greatest = 1;
  cudaDeviceGetStreamPriorityRange(&least, &greatest);
  cudaStream_t lo, hi, over;
  cudaStreamCreateWithPriority(&lo, cudaStreamNonBlocking, least);
  cudaStreamCreateWithPriority(&hi, cudaStreamDefault, greatest);
  cudaStreamCreateWithPriority(&over, cudaStreamDefault, greatest - 10);
  int p1 = 9, p2 = 9, p3 = 9;
  cudaStreamGetPriority(lo, &p1);
  cudaStreamGetPriority(hi, &p2);
  cudaStreamGetPriority(over, &p3);
  printf("%d %d %d %d %d\n", least, greatest, p1, p2, p3);
  return 0;
}
// OUT: 0 -5 0 -5 -5
