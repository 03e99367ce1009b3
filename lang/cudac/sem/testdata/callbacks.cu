// ---- a stream callback signals a condition variable the main thread waits on (NVIDIA's simpleCallback pattern): the GPU and the callback run while every host thread waits; the mutex orders the callback's writes
#include <cstdio>
#include <pthread.h>
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int done = 0, result = 0;
__global__ void k(int *d) { d[threadIdx.x] = threadIdx.x * 2; }
void CUDART_CB cb(cudaStream_t s, cudaError_t st, void *data) {
  int *h = (int *)data;
  pthread_mutex_lock(&mu);
  result = h[31];
  done = 1;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&mu);
}
int main() {
  int *d, *h;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMallocHost(&h, 32 * sizeof(int));
  cudaStream_t s;
  cudaStreamCreate(&s);
  k<<<1, 32, 0, s>>>(d);
  cudaMemcpyAsync(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost, s);
  cudaStreamAddCallback(s, cb, h, 0);
  pthread_mutex_lock(&mu);
  while (!done) pthread_cond_wait(&cv, &mu);
  pthread_mutex_unlock(&mu);
  printf("%d\n", result);
  return 0;
}
// OUT: 62
// ---- the same callback without the mutex: its writes race with the main thread's reads
#include <cstdio>
#include <pthread.h>
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int done = 0, result = 0;
__global__ void k(int *d) { d[threadIdx.x] = threadIdx.x * 2; }
void CUDART_CB cb(cudaStream_t s, cudaError_t st, void *data) {
  int *h = (int *)data;
  result = h[31]; // NOTE "the other access"
  done = 1; // ERROR C0501 col=3 "data race on host memory done"
  pthread_cond_signal(&cv);
}
int main() {
  int *d, *h;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMallocHost(&h, 32 * sizeof(int));
  cudaStream_t s;
  cudaStreamCreate(&s);
  k<<<1, 32, 0, s>>>(d);
  cudaMemcpyAsync(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost, s);
  cudaStreamAddCallback(s, cb, h, 0);
  pthread_mutex_lock(&mu);
  while (!done) pthread_cond_wait(&cv, &mu); // NOTE "the other access"
  pthread_mutex_unlock(&mu);
  printf("%d\n", result); // ERROR C0501 col=18 "data race on host memory result"
  return 0;
}
// OUT: 62
// ---- a callback that would wait for a mutex the main thread holds while it synchronizes the stream: not modeled (on a GPU, a deadlock)
#include <cstdio>
#include <pthread.h>
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
int done = 0, result = 0;
__global__ void k(int *d) { d[threadIdx.x] = threadIdx.x * 2; }
void CUDART_CB cb(cudaStream_t s, cudaError_t st, void *data) {
  int *h = (int *)data;
  pthread_mutex_lock(&mu); // ERROR C0309 col=3 "pthread_mutex_lock of a mutex another host thread holds inside a stream callback"
  result = h[31];
  done = 1;
  pthread_cond_signal(&cv);
  pthread_mutex_unlock(&mu);
}
int main() {
  int *d, *h;
  cudaMalloc(&d, 32 * sizeof(int));
  cudaMallocHost(&h, 32 * sizeof(int));
  cudaStream_t s;
  cudaStreamCreate(&s);
  k<<<1, 32, 0, s>>>(d);
  cudaMemcpyAsync(h, d, 32 * sizeof(int), cudaMemcpyDeviceToHost, s);
  cudaStreamAddCallback(s, cb, h, 0);
  pthread_mutex_lock(&mu);
  cudaStreamSynchronize(s);
  pthread_mutex_unlock(&mu);
  printf("%d\n", result);
  return 0;
}
