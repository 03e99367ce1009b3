// ---- __syncthreads_count, _and and _or (the reference implementation's synctest)
#include <stdio.h>
__global__ void k(int *ok) {
  int tid = threadIdx.x;
  int good = 1;
  good &= __syncthreads_count(tid % 2 == 0) == 5;
  good &= __syncthreads_count(tid % 3 == 0) == 4;
  good &= __syncthreads_and(1) != 0;
  good &= __syncthreads_and(tid != 0) == 0;
  good &= __syncthreads_and(0) == 0;
  good &= __syncthreads_or(1) != 0;
  good &= __syncthreads_or(tid != 0) != 0;
  good &= __syncthreads_or(0) == 0;
  if (!good) atomicExch(ok, 0);
}
int main() {
  int *d, h = 1;
  cudaMalloc(&d, sizeof(int));
  cudaMemcpy(d, &h, sizeof(int), cudaMemcpyHostToDevice);
  k<<<1, 10>>>(d);
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf(h ? "PASS\n" : "FAIL\n");
  return 0;
}
// OUT: PASS
// ---- built-in variables in a 2D launch
#include <stdio.h>
__global__ void ids(int *out) {
  int bx = blockIdx.x + blockIdx.y * gridDim.x;
  int t = threadIdx.x + threadIdx.y * blockDim.x;
  int g = bx * (blockDim.x * blockDim.y) + t;
  out[g] = g * 1000 + warpSize + gridDim.y * 100;
}
int main() {
  dim3 grid(2, 3), block(4, 2);
  int n = 2 * 3 * 4 * 2, h[48], *d;
  cudaMalloc(&d, n * sizeof(int));
  ids<<<grid, block>>>(d);
  cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d %d %d %u %u\n", h[0], h[9], h[47], grid.x * grid.y, block.z);
  return 0;
}
// OUT: 332 9332 47332 6 1
// ---- device printf: one launch's lines follow the previous launch's, a barrier orders a block's threads (the blocks of one launch print in no fixed order on a GPU)
#include <stdio.h>
__device__ int square(int x) { return x * x; }
__global__ void hello(int block) {
  if (blockIdx.x != block) return;
  for (int t = 0; t < blockDim.x; t++) {
    if (threadIdx.x == t)
      printf("block %d thread %d: %d\n", blockIdx.x, threadIdx.x, square(threadIdx.x + 1));
    __syncthreads();
  }
}
int main() {
  hello<<<2, 2>>>(0);
  hello<<<2, 2>>>(1);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
// OUT: block 0 thread 0: 1
// OUT: block 0 thread 1: 4
// OUT: block 1 thread 0: 1
// OUT: block 1 thread 1: 4
// OUT: done
// ---- warp-shuffle reduction and votes in lock-step
#include <stdio.h>
__inline__ __device__ float warpSum(float v) {
  for (int off = warpSize / 2; off > 0; off /= 2)
    v += __shfl_down_sync(0xffffffff, v, off);
  return v;
}
__global__ void k(const float *in, float *out, unsigned *votes) {
  int t = threadIdx.x;
  float s = warpSum(in[t]);
  unsigned b = __ballot_sync(0xffffffff, t % 3 == 0);
  int any = __any_sync(0xffffffff, t == 31);
  int all = __all_sync(0xffffffff, t < 31);
  int x = __shfl_xor_sync(0xffffffff, t, 1);
  int up = __shfl_up_sync(0xffffffff, t, 2);
  if (t == 0) { out[0] = s; votes[0] = b; votes[1] = any; votes[2] = all; }
  if (t == 6) { votes[3] = x; votes[4] = up; }
  if (t == 1) votes[5] = up;
}
int main() {
  float h[32], r, *din, *dout;
  unsigned v[6], *dv;
  for (int i = 0; i < 32; i++) h[i] = i * 0.5f;
  cudaMalloc(&din, sizeof(h));
  cudaMalloc(&dout, sizeof(float));
  cudaMalloc(&dv, sizeof(v));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  k<<<1, 32>>>(din, dout, dv);
  cudaMemcpy(&r, dout, sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(v, dv, sizeof(v), cudaMemcpyDeviceToHost);
  printf("%.1f %08x %u %u %u %u %u\n", r, v[0], v[1], v[2], v[3], v[4], v[5]);
  return 0;
}
// OUT: 248.0 49249249 1 0 7 4 1
// ---- atomics: CAS, Min, Max, Inc, Dec, Exch, And, Or, Xor, Sub
#include <stdio.h>
__global__ void k(int *a, unsigned *u) {
  int t = threadIdx.x;
  atomicMin(&a[0], 100 - t);
  atomicMax(&a[1], t * 3);
  atomicSub(&a[2], 2);
  atomicOr(&a[3], 1 << t);
  atomicAnd(&a[4], ~(1 << t));
  atomicXor(&a[5], 1);
  atomicInc(&u[0], 4);
  atomicDec(&u[1], 10);
  if (t == 3) atomicExch(&a[6], 42);
  int old;
  do { old = atomicAdd(&a[7], 0); } while (atomicCAS(&a[7], old, old + t) != old);
}
int main() {
  int h[8] = {1000, -5, 0, 0, -1, 0, 0, 0}, *d;
  unsigned hu[2] = {0, 3}, *du;
  cudaMalloc(&d, sizeof(h));
  cudaMalloc(&du, sizeof(hu));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemcpy(du, hu, sizeof(hu), cudaMemcpyHostToDevice);
  k<<<1, 16>>>(d, du);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaMemcpy(hu, du, sizeof(hu), cudaMemcpyDeviceToHost);
  printf("%d %d %d %x %x %d %d %d | %u %u\n", h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], hu[0], hu[1]);
  return 0;
}
// OUT: 85 45 -32 ffff ffff0000 0 42 120 | 1 9
// ---- __constant__ memory and cudaMemcpyToSymbol
#include <stdio.h>
__constant__ float coef[3];
__device__ int scale;
__global__ void poly(const float *x, float *y) {
  int i = threadIdx.x;
  y[i] = (coef[0] + coef[1] * x[i] + coef[2] * x[i] * x[i]) * scale;
}
int main() {
  float c[3] = {1.0f, 2.0f, 0.5f}, x[4] = {0, 1, 2, 3}, y[4], *dx, *dy;
  int s = 2, back = 0;
  cudaMemcpyToSymbol(coef, c, sizeof(c));
  cudaMemcpyToSymbol(scale, &s, sizeof(int));
  cudaMemcpyFromSymbol(&back, scale, sizeof(int));
  cudaMalloc(&dx, sizeof(x));
  cudaMalloc(&dy, sizeof(y));
  cudaMemcpy(dx, x, sizeof(x), cudaMemcpyHostToDevice);
  poly<<<1, 4>>>(dx, dy);
  cudaMemcpy(y, dy, sizeof(y), cudaMemcpyDeviceToHost);
  printf("%g %g %g %g %d\n", y[0], y[1], y[2], y[3], back);
  return 0;
}
// OUT: 2 7 14 23 2
// ---- template kernels
#include <stdio.h>
template <typename T>
__global__ void axpy(T a, const T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
template <int N>
__device__ int times(int v) { return v * N; }
__global__ void useN(int *o) { o[threadIdx.x] = times<3>(threadIdx.x); }
int main() {
  double x[5] = {1, 2, 3, 4, 5}, y[5] = {1, 1, 1, 1, 1}, *dx, *dy;
  int o[2], *dO;
  cudaMalloc(&dx, sizeof(x));
  cudaMalloc(&dy, sizeof(y));
  cudaMalloc(&dO, sizeof(o));
  cudaMemcpy(dx, x, sizeof(x), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, sizeof(y), cudaMemcpyHostToDevice);
  axpy<double><<<2, 4>>>(0.5, dx, dy, 5);
  useN<<<1, 2>>>(dO);
  cudaMemcpy(y, dy, sizeof(y), cudaMemcpyDeviceToHost);
  cudaMemcpy(o, dO, sizeof(o), cudaMemcpyDeviceToHost);
  printf("%.2f %.2f %d\n", y[0], y[4], o[1]);
  return 0;
}
// OUT: 1.50 3.50 3
// ---- an invalid launch configuration is reported by cudaGetLastError
#include <stdio.h>
__global__ void k() {}
int main() {
  k<<<1, 2048>>>(); // WARN C0603 col=3 "kernel k not launched: 2048 threads per block exceed the limit of 1024"
  cudaError_t e = cudaGetLastError();
  printf("%d %s %s\n", e, cudaGetErrorName(e), cudaGetErrorString(e));
  printf("%d\n", cudaGetLastError());
  return 0;
}
// OUT: 9 cudaErrorInvalidConfiguration invalid configuration argument
// OUT: 0
// ---- device recursion, structs by value and math
#include <stdio.h>
#include <math.h>
struct Pt { float x, y; };
__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__device__ float len(struct Pt p) { return sqrtf(p.x * p.x + p.y * p.y); }
__global__ void k(float *out) {
  struct Pt p = {3.0f, 4.0f};
  out[0] = len(p);
  out[1] = (float)fact(6);
  out[2] = fminf(expf(0.0f), 2.0f) + floorf(-1.5f) + fabsf(-0.25f);
  out[3] = max(3, 7) + min(2.5f, 1.5f);
}
int main() {
  float h[4], *d;
  cudaMalloc(&d, sizeof(h));
  k<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%g %g %g %g %.4f\n", h[0], h[1], h[2], h[3], pow(2.0, 0.5));
  return 0;
}
// OUT: 5 720 -0.75 8.5 1.4142
// ---- streams, events and asynchronous copies in order
#include <stdio.h>
__global__ void fill(int *p, int v) { p[threadIdx.x] = v + threadIdx.x; }
int main() {
  const int n = 8;
  int *h, *d;
  cudaMallocHost(&h, n * sizeof(int));
  cudaMalloc(&d, n * sizeof(int));
  cudaStream_t s;
  cudaEvent_t start, stop;
  cudaStreamCreate(&s);
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start, s);
  fill<<<1, n, 0, s>>>(d, 100);
  cudaMemcpyAsync(h, d, n * sizeof(int), cudaMemcpyDeviceToHost, s);
  cudaEventRecord(stop, s);
  cudaEventSynchronize(stop);
  float ms = -1;
  cudaEventElapsedTime(&ms, start, stop);
  printf("%d %d %d\n", h[0], h[7], ms >= 0);
  cudaFreeHost(h);
  cudaFree(d);
  return 0;
}
// OUT: 100 107 1
// ---- C library, math.h, device malloc, fences, every cudaMemcpy kind, stream and event queries
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <math.h>
struct Node { int v; struct Node *next; };
typedef struct { float m[2][2]; int tag[3]; } Mat;
__device__ int gcount;
__global__ void devmem(int *out) {
  int *p = (int *)malloc(4 * sizeof(int));
  for (int i = 0; i < 4; i++) p[i] = i * threadIdx.x;
  out[threadIdx.x] = p[3];
  free(p);
  __threadfence(); __threadfence_block(); __threadfence_system();
  atomicAdd(&gcount, 1);
}
__global__ void structs(Mat *m) {
  Mat l = *m;
  l.m[1][0] += 1.5f;
  l.tag[2] = threadIdx.x + 7;
  m[0] = l;
}
int main(void) {
  struct Node a = {1, NULL}, b = {2, &a};
  struct Node *pn = &b;
  printf("%d %d\n", pn->v, pn->next->v);
  char buf[8];
  memset(buf, 'x', 7); buf[7] = 0;
  char dst[8];
  memcpy(dst, buf, 8);
  printf("%s %d %d\n", dst, (int)strlen(dst), strcmp("ab", "ac") < 0);
  printf("%d %d %s\n", strcasecmp("AbC", "aBc"), strcasecmp("b", "A") > 0, strstr("grid block", "block"));
  int *h = (int *)calloc(4, sizeof(int));
  h = (int *)realloc(h, 8 * sizeof(int));
  h[7] = 3;
  printf("%d %d\n", h[0], h[7]);
  free(h);
  printf("%.3f %.3f %.3f %.3f %.3f %.3f\n", sin(1.0), cos(1.0), tan(0.5), atan2(1.0, 2.0), log(10.0), exp(1.0));
  printf("%.3f %.3f %.3f %.3f %g %g\n", sqrt(2.0), cbrt(27.0), fmod(7.5, 2.0), hypot(3.0, 4.0), ceil(1.2), round(2.5));
  printf("%.3f %.3f %d %g %g\n", log2(8.0), log10(1000.0), abs(-4), fabs(-2.5), trunc(-2.7));
  printf("%f %f %d %d\n", INFINITY, -INFINITY, isnan(NAN), isinf(1.0/0.0));
  int *d, o[4];
  cudaMalloc(&d, sizeof(o));
  devmem<<<1, 4>>>(d);
  cudaMemcpy(o, d, sizeof(o), cudaMemcpyDeviceToHost);
  int gc;
  cudaMemcpyFromSymbol(&gc, gcount, sizeof(int));
  printf("%d %d %d\n", o[1], o[3], gc);
  Mat hm = {{{1, 2}, {3, 4}}, {0, 0, 0}}, *dm;
  cudaMalloc(&dm, sizeof(Mat));
  cudaMemcpy(dm, &hm, sizeof(Mat), cudaMemcpyHostToDevice);
  structs<<<1, 1>>>(dm);
  Mat r;
  cudaMemcpy(&r, dm, sizeof(Mat), cudaMemcpyDeviceToHost);
  printf("%g %d %d\n", r.m[1][0], r.tag[2], (int)sizeof(Mat));
  int *d2;
  cudaMalloc(&d2, sizeof(o));
  cudaMemcpy(d2, d, sizeof(o), cudaMemcpyDeviceToDevice);
  int o2[4];
  cudaMemcpy(o2, d2, sizeof(o), cudaMemcpyDefault);
  int o3[4];
  cudaMemcpy(o3, o2, sizeof(o), cudaMemcpyHostToHost);
  printf("%d %d\n", o3[1], o3[3]);
  cudaStream_t s; cudaEvent_t e;
  cudaStreamCreate(&s); cudaEventCreate(&e);
  cudaMemsetAsync(d2, 0, sizeof(o), s);
  cudaEventRecord(e, s);
  cudaStreamSynchronize(s);
  printf("%d %d\n", cudaStreamQuery(s), cudaEventQuery(e));
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int dev = -1, cnt = 0;
  cudaGetDevice(&dev); cudaGetDeviceCount(&cnt);
  printf("%d %d %d %d\n", prop.warpSize, prop.maxThreadsPerBlock, dev, cnt);
  unsigned char uc = 255; uc++;
  unsigned short us = 0; us--;
  long long big = 1LL << 40;
  int trunc32 = (int)big;
  unsigned mix = -1 + 0u;
  printf("%d %d %d %u %d\n", uc, us, trunc32, mix, (-7) / 2 * 2 + (-7) % 2);
  printf("%d %d\n", (unsigned)-1 > 0, -1 < (unsigned char)1);
  return 0;
}
// OUT: 2 1
// OUT: xxxxxxx 7 1
// OUT: 0 1 block
// OUT: 0 3
// OUT: 0.841 0.540 0.546 0.464 2.303 2.718
// OUT: 1.414 3.000 1.500 5.000 2 3
// OUT: 3.000 3.000 4 2.5 -2
// OUT: inf -inf 1 1
// OUT: 3 9 4
// OUT: 4.5 7 28
// OUT: 3 9
// OUT: 0 0
// OUT: 32 1024 0 1
// OUT: 0 65535 0 4294967295 -7
// OUT: 1 1
// ---- preprocessor operators, unions, extern "C", goto, float and double atomics, deduced template arguments
#include <stdio.h>
#define CAT(a, b) a##b
#define STR(x) #x
#define SQ(x) ((x) * (x))
#undef SQ
#define SQ(x) ((x) * (x) + 0)
#pragma once
union U { int i; float f; unsigned char b[4]; };
extern "C" int twice(int x) { return 2 * x; }
template <typename T> __device__ T sq(T v) { return v * v; }
__global__ void k(float *f, double *d, int *i) {
  atomicAdd(f, 1.5f);
  atomicAdd(d, 2.5);
  atomicExch(i, 7);
  if (threadIdx.x == 0) f[1] = sq(3.0f);
  __threadfence();
}
int main() {
  int CAT(x, y) = 5;
  printf("%s %d %d\n", STR(hello), xy, SQ(3));
  union U u; u.f = 1.0f;
  printf("%x %d %i %p\n", u.i, u.b[3], twice(4), (void *)0);
  int n = 0;
again:
  n++;
  if (n < 3) goto again;
  printf("%d\n", n);
  float *f; double *d; int *i;
  cudaMalloc(&f, 2 * sizeof(float)); cudaMalloc(&d, sizeof(double)); cudaMalloc(&i, sizeof(int));
  cudaMemset(f, 0, 2 * sizeof(float)); cudaMemset(d, 0, sizeof(double));
  k<<<1, 2>>>(f, d, i);
  float hf[2]; double hd; int hi;
  cudaMemcpy(hf, f, sizeof(hf), cudaMemcpyDeviceToHost);
  cudaMemcpy(&hd, d, sizeof(hd), cudaMemcpyDeviceToHost);
  cudaMemcpy(&hi, i, sizeof(hi), cudaMemcpyDeviceToHost);
  printf("%g %g %g %d\n", hf[0], hf[1], hd, hi);
  return 0;
}
// OUT: hello 5 9
// OUT: 3f800000 63 8 (nil)
// OUT: 3
// OUT: 3 9 5 7
// ---- variable-length arrays are rejected
int main() {
  int n = 3;
  int a[n]; // ERROR C0313 col=9 "array size is not a non-negative constant"
  return 0;
}
