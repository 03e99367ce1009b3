// ---- B5: a shuffle reading a lane outside its mask is undefined: reported, not given a value
#include <cstdio>
__global__ void reduce(int *out) {
  int v = threadIdx.x + 1;
  // the classic bug: the mask names the lower half, but lanes read the upper
  unsigned mask = __ballot_sync(0xffffffff, threadIdx.x < 16);
  if (threadIdx.x < 16) {
    for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(mask, v, off); // ERROR C0630 col=48 "__shfl_down_sync: lane 0 reads lane 16, which is not in the mask 0x0000ffff"
  }
  if (threadIdx.x == 0) *out = v;
}
int main() {
  int *d, h = 0;
  cudaMalloc(&d, sizeof(int));
  reduce<<<1, 32>>>(d);
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h);
  return 0;
}
// ---- a __syncwarp whose mask excludes the caller is undefined
__global__ void k(int *d) {
  __syncwarp(0xfffffffe); // ERROR C0630 "__syncwarp with mask 0xfffffffe, which does not include the calling lane 0"
  d[threadIdx.x] = 1;
}
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  k<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
// ---- an invalid shuffle width is undefined
__global__ void k(int *d) { d[threadIdx.x] = __shfl_xor_sync(0xffffffff, (int)threadIdx.x, 1, 12); } // ERROR C0630 "width 12"
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  k<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
// ---- B6: cudaEventElapsedTime is the modeled time, one interpreted instruction per nanosecond
#include <cstdio>
__global__ void k(float *x, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) for (int r = 0; r < 10; r++) x[i] = x[i] * 2.0f + 1.0f; }
int main() {
  float *d;
  int n = 1 << 12;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemset(d, 0, n * sizeof(float));
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  k<<<n / 256, 256>>>(d, n);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = -1;
  cudaEventElapsedTime(&ms, a, b);
  printf("%f\n", ms); // GPU: differs (the modeled elapsed time)
  return 0;
}
// OUT: 1.167360
// ---- B3: polling cudaEventQuery and cudaStreamQuery makes progress, and completion synchronizes
#include <cstdio>
__global__ void k(int *x) { x[threadIdx.x] = threadIdx.x * 3; }
int main() {
  int *d, *h;
  cudaMalloc(&d, 64 * sizeof(int));
  cudaMallocHost(&h, 64 * sizeof(int));
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaEvent_t e;
  cudaEventCreate(&e);
  k<<<1, 64, 0, s>>>(d);
  cudaMemcpyAsync(h, d, 64 * sizeof(int), cudaMemcpyDeviceToHost, s);
  cudaEventRecord(e, s);
  long polls = 0;
  while (cudaEventQuery(e) == cudaErrorNotReady) polls++;
  printf("polls=%ld h[63]=%d\n", polls, h[63]); // GPU: differs (the number of polls depends on the GPU's speed)
  k<<<1, 64, 0, s>>>(d);
  polls = 0;
  while (cudaStreamQuery(s) != cudaSuccess) polls++;
  printf("polls=%ld\n", polls);
  return 0;
}
// OUT: polls=2 h[63]=189
// OUT: polls=0
// ---- B2: two anonymous typedef structs are two types for templates
#include <cstdio>
typedef struct { int a; } Small;
typedef struct { double x, y, z; } Big;
template <typename T> __global__ void fill(T *p, int n) {
  int i = threadIdx.x;
  if (i < n) p[i] = T{};
}
template <typename T> int size_of() { return (int)sizeof(T); }
int main() {
  Small *s;
  Big *b;
  cudaMalloc(&s, 4 * sizeof(Small));
  cudaMalloc(&b, 4 * sizeof(Big));
  fill<<<1, 4>>>(s, 4);
  fill<<<1, 4>>>(b, 4);
  cudaDeviceSynchronize();
  printf("%d %d\n", size_of<Small>(), size_of<Big>());
  return 0;
}
// OUT: 4 24
// ---- B7: the single-pass sum of the Programming Guide is race-free (its partial sums are volatile, strong accesses: fence.go)
#include <cstdio>
// The single-pass sum of the CUDA C++ Programming Guide's "Memory Fence
// Functions": each block writes its partial sum, fences, and counts itself
// done; the last block sums the partial sums.
#define BLOCKS 8
#define THREADS 64
__device__ unsigned int count = 0;
__global__ void sum(const float *in, volatile float *partial, float *result) {
  __shared__ float s[THREADS];
  __shared__ bool isLast;
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * THREADS + t];
  __syncthreads();
  for (int k = THREADS / 2; k > 0; k /= 2) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = s[0];
#ifndef NOFENCE
    __threadfence();
#endif
    unsigned int v = atomicInc(&count, gridDim.x);
    isLast = (v == gridDim.x - 1);
  }
  __syncthreads();
  if (isLast && t == 0) {
    float total = 0;
    for (int b = 0; b < gridDim.x; b++) total += partial[b];
    *result = total;
    count = 0;
  }
}
int main() {
  float h[BLOCKS * THREADS], *in, *partial, *result, r;
  for (int i = 0; i < BLOCKS * THREADS; i++) h[i] = (float)(i % 7);
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&partial, BLOCKS * sizeof(float));
  cudaMalloc(&result, sizeof(float));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  sum<<<BLOCKS, THREADS>>>(in, partial, result);
  cudaMemcpy(&r, result, sizeof r, cudaMemcpyDeviceToHost);
  printf("%g\n", r);
  return 0;
}
// OUT: 1533
// ---- B7: the same sum with plain partial sums and no fence races
#include <cstdio>
// The single-pass sum of the CUDA C++ Programming Guide's "Memory Fence
// Functions": each block writes its partial sum, fences, and counts itself
// done; the last block sums the partial sums. Here partial is not
// volatile: two volatile accesses are strong and never a data race in the
// PTX model (fence.go), so the missing fence shows on plain accesses.
#define BLOCKS 8
#define THREADS 64
__device__ unsigned int count = 0;
__global__ void sum(const float *in, float *partial, float *result) {
  __shared__ float s[THREADS];
  __shared__ bool isLast;
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * THREADS + t];
  __syncthreads();
  for (int k = THREADS / 2; k > 0; k /= 2) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = s[0];
#if 0
    __threadfence();
#endif
    unsigned int v = atomicInc(&count, gridDim.x);
    isLast = (v == gridDim.x - 1);
  }
  __syncthreads();
  if (isLast && t == 0) {
    float total = 0;
    for (int b = 0; b < gridDim.x; b++) total += partial[b]; // ERROR C0501 "data race on global memory \(byte 0\): read by thread 0 of block 7"
    *result = total;
    count = 0;
  }
}
int main() {
  float h[BLOCKS * THREADS], *in, *partial, *result, r;
  for (int i = 0; i < BLOCKS * THREADS; i++) h[i] = (float)(i % 7);
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&partial, BLOCKS * sizeof(float));
  cudaMalloc(&result, sizeof(float));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  sum<<<BLOCKS, THREADS>>>(in, partial, result);
  cudaMemcpy(&r, result, sizeof r, cudaMemcpyDeviceToHost);
  printf("%g\n", r);
  return 0;
}
// OUT: 1533
// ---- mapped pinned memory, the profiler API, gettimeofday's virtual clock, std::swap, std::max
#include <cstdio>
#include <sys/time.h>
#include <cuda_profiler_api.h>
#include <algorithm>
__global__ void k(int *p) { p[threadIdx.x] = threadIdx.x; }
int main() {
  int *h, *d;
  cudaSetDeviceFlags(cudaDeviceMapHost);
  cudaHostAlloc(&h, 4 * sizeof(int), cudaHostAllocMapped);
  cudaHostGetDevicePointer((void **)&d, h, 0);
  cudaProfilerStart();
  struct timeval t0, t1;
  gettimeofday(&t0, NULL);
  k<<<1, 4>>>(d);
  cudaDeviceSynchronize();
  gettimeofday(&t1, NULL);
  cudaProfilerStop();
  int a = 1, b = 2;
  std::swap(a, b);
  float x = 1.5f, y = -2.0f;
  std::swap(x, y);
  printf("%d %d %d %d %g %g %d\n", h[3], a, b, std::max(a, b), x, y, (t1.tv_sec * 1000000 + t1.tv_usec) >= (t0.tv_sec * 1000000 + t0.tv_usec));
  return 0;
}
// OUT: 3 2 1 2 -2 1.5 1
// ---- __half2 operators + - * / and compound assignment, lane by lane as the intrinsics
#include <cstdio>
#include <cuda_fp16.h>
__global__ void k(__half2 *o) {
  __half2 a = __floats2half2_rn(1.5f, -2.0f), b = __floats2half2_rn(0.25f, 4.0f);
  __half2 c = a * b + a;
  c -= b;
  o[0] = c;
  o[1] = a / b;
}
int main() {
  __half2 *d, h[2];
  cudaMalloc(&d, sizeof h);
  k<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%g %g %g %g\n", __low2float(h[0]), __high2float(h[0]), __low2float(h[1]), __high2float(h[1]));
  return 0;
}
// OUT: 1.625 -14 6 -0.5
// ---- a misaligned float4 load is reported (C0411), as the GPU faults on it
#include <cstdio>
__global__ void k(const float *in, float *out) {
  const float4 *v = reinterpret_cast<const float4 *>(in + threadIdx.x * 4 + 1);
  float4 x = v[0]; // ERROR C0411 "misaligned 16-byte vector access at byte offset 4"
  out[threadIdx.x] = x.x + x.w;
}
int main() {
  float *in, *out;
  cudaMalloc(&in, 64 * sizeof(float));
  cudaMalloc(&out, 4 * sizeof(float));
  cudaMemset(in, 0, 64 * sizeof(float));
  k<<<1, 4>>>(in, out);
  cudaDeviceSynchronize();
  return 0;
}
