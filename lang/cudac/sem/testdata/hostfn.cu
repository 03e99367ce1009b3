// ---- hostfn: cudaLaunchHostFunc and cudaStreamAddCallback run in stream order as host code: after the stream's kernel and copy, before its later work
#include <cstdio>
struct Job {
  int *host;
  int n;
  int sum;
};
__global__ void square(int *d, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) d[i] = d[i] * d[i];
}
void CUDART_CB total(void *p) {
  Job *j = (Job *)p;
  j->sum = 0;
  for (int i = 0; i < j->n; i++) j->sum += j->host[i];
  printf("host function: sum %d\n", j->sum);
}
void CUDART_CB done(cudaStream_t s, cudaError_t status, void *p) {
  Job *j = (Job *)p;
  printf("callback: status %d, sum %d\n", (int)status, j->sum);
}
int main() {
  const int n = 64;
  int *h, *d;
  cudaMallocHost(&h, n * sizeof(int));
  cudaMalloc(&d, n * sizeof(int));
  for (int i = 0; i < n; i++) h[i] = i;
  cudaStream_t s;
  cudaStreamCreate(&s);
  Job job = {h, n, -1};
  cudaMemcpyAsync(d, h, n * sizeof(int), cudaMemcpyHostToDevice, s);
  square<<<2, 32, 0, s>>>(d, n);
  cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s);
  cudaLaunchHostFunc(s, total, &job);
  cudaStreamAddCallback(s, done, &job, 0);
  printf("enqueued\n"); // GPU: differs (the host function may print before this line on a GPU; the semantics runs queued work when the host blocks)
  cudaStreamSynchronize(s);
  printf("main: sum %d\n", job.sum);
  cudaStreamDestroy(s);
  return 0;
}
// OUT: enqueued
// OUT: host function: sum 85344
// OUT: callback: status 0, sum 85344
// OUT: main: sum 85344
// ---- hostfn: a host access not ordered after the host function races with it
#include <cstdio>
__global__ void fill(int *d) { d[threadIdx.x] = threadIdx.x; }
void CUDART_CB report(void *p) {
  int *flag = (int *)p;
  *flag = 1; // ERROR C0501 col=3 "data race on host memory \(byte 0\): write by the host function run by stream 1 conflicts with an unordered write by the host$"
}
int main() {
  int *d, flag = 0;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaStream_t s;
  cudaStreamCreate(&s);
  fill<<<1, 32, 0, s>>>(d);
  cudaLaunchHostFunc(s, report, &flag);
  flag = 2; // NOTE "the other access: write by the host"
  cudaStreamSynchronize(s);
  printf("%d\n", flag);
  return 0;
}
// OUT: 1
// ---- hostfn: a host function reading device-written pinned memory is ordered after the stream's kernel, but not after another stream's
#include <cstdio>
__global__ void put(int *p, int v) { *p = v; } // NOTE "the other access: write by thread 0 of block 0 \(kernel put\)"
void CUDART_CB peek(void *p) { printf("%d\n", *(int *)p); } // ERROR C0501 "data race on pinned memory \(byte 0\): read by the host function run by stream 1 conflicts with an unordered write by thread 0 of block 0 \(kernel put\)"
int main() {
  int *p;
  cudaMallocHost(&p, 2 * sizeof(int));
  cudaStream_t a, b;
  cudaStreamCreate(&a);
  cudaStreamCreate(&b);
  put<<<1, 1, 0, b>>>(p, 5);
  put<<<1, 1, 0, a>>>(p + 1, 6);
  cudaLaunchHostFunc(a, peek, p + 1);
  cudaLaunchHostFunc(a, peek, p);
  cudaDeviceSynchronize();
  return 0;
}
// OUT: 6
// OUT: 5
// ---- hostfn: a CUDA API call inside a host function is C0607
#include <cstdio>
void CUDART_CB bad(void *p) {
  cudaDeviceSynchronize(); // ERROR C0607 col=3 "cudaDeviceSynchronize inside a host function run by a stream \(cudaLaunchHostFunc, cudaStreamAddCallback\): CUDA forbids CUDA API calls there"
}
int main() {
  cudaLaunchHostFunc(0, bad, 0);
  cudaDeviceSynchronize();
  return 0;
}
// ---- hostfn: a kernel launch inside a host function is C0607
#include <cstdio>
__global__ void k(int *p) { *p = 1; }
void CUDART_CB bad(void *p) {
  k<<<1, 1>>>((int *)p); // ERROR C0607 col=3 "kernel launch of k inside a host function run by a stream"
}
int main() {
  int *d;
  cudaMalloc(&d, sizeof(int));
  cudaLaunchHostFunc(0, bad, d);
  cudaDeviceSynchronize();
  return 0;
}
