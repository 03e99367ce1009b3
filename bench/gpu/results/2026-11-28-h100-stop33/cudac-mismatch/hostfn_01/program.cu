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
  printf("enqueued\n");
  cudaStreamSynchronize(s);
  printf("main: sum %d\n", job.sum);
  cudaStreamDestroy(s);
  return 0;
}
// OUT: enqueued
// OUT: host function: sum 85344
// OUT: callback: status 0, sum 85344
// OUT: main: sum 85344
