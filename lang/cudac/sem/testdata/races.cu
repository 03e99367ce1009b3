// ---- read-read is no race
#include <stdio.h>
__global__ void k(int *out) {
  __shared__ int s[4];
  if (threadIdx.x == 0) s[0] = 7;
  __syncthreads();
  out[threadIdx.x] = s[0] + s[0];
}
int main() {
  int *d, h[4];
  cudaMalloc(&d, sizeof(h));
  k<<<1, 4>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%d %d %d %d\n", h[0], h[1], h[2], h[3]);
  return 0;
}
// OUT: 14 14 14 14
// ---- write then read by another thread without a barrier
#include <stdio.h>
__global__ void k(int *out) {
  __shared__ int s[2];
  s[threadIdx.x] = threadIdx.x; // NOTE "the other access: write by thread 1 of block 0"
  if (threadIdx.x == 0) out[0] = s[1]; // ERROR C0501 col=34 "shared memory s \(byte 4\): read by thread 0 of block 0 \(kernel k\) conflicts with an unordered write by thread 1"
}
int main() {
  int *d;
  cudaMalloc(&d, sizeof(int));
  k<<<1, 2>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
// ---- read then write by another thread without a barrier
#include <stdio.h>
__global__ void k(int *out) {
  __shared__ int s[2];
  s[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x == 0) out[0] = s[1]; // NOTE "read by thread 0"
  if (threadIdx.x == 1) { for (int i = 0; i < 5; i++) out[1] = i; s[1] = 5; } // ERROR C0501 col=67 "write by thread 1 of block 0 \(kernel k\) conflicts with an unordered read by thread 0"
}
int main() {
  int *d;
  cudaMalloc(&d, 2 * sizeof(int));
  k<<<1, 2>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
// ---- the same thread writes then reads
#include <stdio.h>
__global__ void k(int *out) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x * 2;
  out[threadIdx.x] = s[threadIdx.x] + 1;
}
int main() {
  int *d, h[32];
  cudaMalloc(&d, sizeof(h));
  k<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[31]);
  return 0;
}
// OUT: 1 63
// ---- write-write by two threads is a race
__global__ void k() {
  __shared__ int flag;
  flag = threadIdx.x; // ERROR C0501 col=3 "write by thread 1 of block 0 \(kernel k\) conflicts with an unordered write by thread 0"
}
int main() {
  k<<<1, 2>>>();
  cudaDeviceSynchronize();
  return 0;
}
// ---- per-block shared arrays do not race
#include <stdio.h>
__global__ void k(int *out) {
  __shared__ int s[4];
  s[threadIdx.x] = blockIdx.x * 10 + threadIdx.x;
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = s[0] + s[1] + s[2] + s[3];
}
int main() {
  int *d, h[2];
  cudaMalloc(&d, sizeof(h));
  k<<<2, 4>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[1]);
  return 0;
}
// OUT: 6 46
// ---- global memory race across blocks
#include <stdio.h>
__global__ void k(int *sum) {
  if (threadIdx.x == 0) *sum += blockIdx.x; // ERROR C0501 col=25 "global memory \(byte 0\): read by thread 0 of block 1 \(kernel k\) conflicts with an unordered write by thread 0 of block 0"
}
int main() {
  int *d, h = 0;
  cudaMalloc(&d, sizeof(int));
  cudaMemcpy(d, &h, sizeof(int), cudaMemcpyHostToDevice);
  k<<<4, 32>>>(d);
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", h);
  return 0;
}
// OUT: 6
// ---- atomics never race with each other
#include <stdio.h>
__global__ void k(int *sum, unsigned long long *big, float *f) {
  atomicAdd(sum, 1);
  atomicAdd(big, 3ULL);
  atomicAdd(f, 0.5f);
}
int main() {
  int *d; unsigned long long *b; float *f;
  cudaMalloc(&d, sizeof(int));
  cudaMalloc(&b, sizeof(unsigned long long));
  cudaMalloc(&f, sizeof(float));
  cudaMemset(d, 0, sizeof(int));
  cudaMemset(b, 0, sizeof(unsigned long long));
  cudaMemset(f, 0, sizeof(float));
  k<<<8, 64>>>(d, b, f);
  int h; unsigned long long hb; float hf;
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&hb, b, sizeof(hb), cudaMemcpyDeviceToHost);
  cudaMemcpy(&hf, f, sizeof(hf), cudaMemcpyDeviceToHost);
  printf("%d %llu %.1f\n", h, hb, hf);
  return 0;
}
// OUT: 512 1536 256.0
// ---- an atomic and a plain access race
__global__ void k(int *x) {
  if (threadIdx.x == 0) atomicAdd(x, 1);
  if (threadIdx.x == 1) x[0] = 5; // ERROR C0501 col=25 "write by thread 1 of block 0 \(kernel k\) conflicts with an unordered atomic write by thread 0"
}
int main() {
  int *d;
  cudaMalloc(&d, sizeof(int));
  cudaMemset(d, 0, sizeof(int));
  k<<<1, 2>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
// ---- kernels in one stream are ordered
#include <stdio.h>
__global__ void inc(int *x) { x[threadIdx.x] += 1; }
int main() {
  int *d, h[4] = {1, 2, 3, 4};
  cudaMalloc(&d, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  inc<<<1, 4>>>(d);
  inc<<<1, 4>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%d %d %d %d\n", h[0], h[1], h[2], h[3]);
  return 0;
}
// OUT: 3 4 5 6
// ---- kernels in two streams race
#include <stdio.h>
__global__ void set(int *x, int v) { x[threadIdx.x] = v; } // ERROR C0501 col=38 "write by thread 0 of block 0 \(kernel set\) conflicts with an unordered write by thread 0 of block 0 \(kernel set\)"
int main() {
  int *d;
  cudaStream_t a, b;
  cudaStreamCreate(&a);
  cudaStreamCreate(&b);
  cudaMalloc(&d, 4 * sizeof(int));
  set<<<1, 4, 0, a>>>(d, 1);
  set<<<1, 4, 0, b>>>(d, 2);
  cudaDeviceSynchronize();
  return 0;
}
// ---- an event orders two streams
#include <stdio.h>
__global__ void set(int *x, int v) { x[threadIdx.x] = v; }
__global__ void add(int *x, int v) { x[threadIdx.x] += v; }
int main() {
  int *d, h[4];
  cudaStream_t a, b;
  cudaEvent_t e;
  cudaStreamCreate(&a);
  cudaStreamCreate(&b);
  cudaEventCreate(&e);
  cudaMalloc(&d, 4 * sizeof(int));
  set<<<1, 4, 0, a>>>(d, 10);
  cudaEventRecord(e, a);
  cudaStreamWaitEvent(b, e, 0);
  add<<<1, 4, 0, b>>>(d, 5);
  cudaStreamSynchronize(b);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[3]);
  cudaEventSynchronize(e);
  cudaStreamDestroy(a);
  cudaStreamDestroy(b);
  return 0;
}
// OUT: 15 15
// ---- host writes a buffer an asynchronous copy is reading
#include <stdio.h>
int main() {
  int *d, *h;
  cudaMallocHost(&h, 16 * sizeof(int));
  cudaMalloc(&d, 16 * sizeof(int));
  for (int i = 0; i < 16; i++) h[i] = i;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemcpyAsync(d, h, 16 * sizeof(int), cudaMemcpyHostToDevice, s); // ERROR C0501 col=3 "pinned memory \(byte 12\): read by an asynchronous copy conflicts with an unordered write by the host"
  h[3] = 99; // NOTE "write by the host"
  cudaStreamSynchronize(s);
  h[4] = 1;
  return 0;
}
// ---- a barrier inside a uniform loop is no deadlock and orders the tree reduction
#include <stdio.h>
__global__ void reduce(const int *in, int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
int main() {
  int h[256], r[4], *din, *dout;
  for (int i = 0; i < 256; i++) h[i] = i;
  cudaMalloc(&din, sizeof(h));
  cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  reduce<<<4, 64>>>(din, dout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  printf("%d %d %d %d\n", r[0], r[1], r[2], r[3]);
  return 0;
}
// OUT: 2016 6112 10208 14304
// ---- warp-synchronous reduction without __syncwarp races
__global__ void k(int *out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = t; // NOTE "write by thread 16"
  if (t < 16) s[t] += s[t + 16]; // ERROR C0501 col=23 "read by thread 0 of block 0 \(kernel k\) conflicts with an unordered write by thread 16"
  if (t == 0) out[0] = s[0];
}
int main() {
  int *d;
  cudaMalloc(&d, sizeof(int));
  k<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
// ---- __syncwarp orders lanes of one warp
#include <stdio.h>
__global__ void k(int *out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  s[t] = t;
  __syncwarp();
  int v = s[(t + 1) % 32];
  __syncwarp();
  s[t] = v;
  __syncwarp();
  out[t] = s[t];
}
int main() {
  int *d, h[32];
  cudaMalloc(&d, sizeof(h));
  k<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[31]);
  return 0;
}
// OUT: 1 0
// ---- a barrier clears the access history: write, barrier, read, barrier, write
#include <stdio.h>
__global__ void k(int *out) {
  __shared__ int s;
  if (threadIdx.x == 0) s = 1;
  __syncthreads();
  if (threadIdx.x == 1) out[0] = s;
  __syncthreads();
  if (threadIdx.x == 0) s = 2;
  __syncthreads();
  out[1 + threadIdx.x] = s;
}
int main() {
  int *d, h[3];
  cudaMalloc(&d, sizeof(h));
  k<<<1, 2>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%d %d %d\n", h[0], h[1], h[2]);
  return 0;
}
// OUT: 1 2 2
// ---- without the middle barrier the second write races with the read
__global__ void k(int *out) {
  __shared__ int s;
  if (threadIdx.x == 0) s = 1;
  __syncthreads();
  if (threadIdx.x == 1) out[0] = s; // NOTE "the other access: read by thread 1 of block 0"
  if (threadIdx.x == 0) { for (int i = 0; i < 9; i++) out[1] = i; s = 2; } // ERROR C0501 col=67 "write by thread 0 of block 0 \(kernel k\) conflicts with an unordered read by thread 1 of block 0"
}
int main() {
  int *d;
  cudaMalloc(&d, 2 * sizeof(int));
  k<<<1, 2>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
// ---- a byte store into a word two threads read: the word's history splits per byte
__global__ void k(int *a, int *out) {
  out[threadIdx.x] = a[threadIdx.x % 2]; // NOTE "the other access: read by thread 1"
  if (threadIdx.x == 3)
    ((char *)a)[5] = 1; // ERROR C0501 col=6 "global memory \(byte 5\): write by thread 3 of block 0 \(kernel k\) conflicts with an unordered read by thread 1"
}
int main() {
  int *d;
  cudaMalloc(&d, 16 * sizeof(int));
  cudaMemset(d, 0, 16 * sizeof(int));
  k<<<1, 4>>>(d, d + 8);
  cudaDeviceSynchronize();
  return 0;
}
// ---- neighbouring bytes of a word written by different threads do not race
#include <stdio.h>
__global__ void k(unsigned *w, char *c) {
  c[threadIdx.x] = (char)(threadIdx.x + 1); // bytes of one word, one thread each
  __syncthreads();
  if (threadIdx.x == 0)
    *w = *(unsigned *)c;
}
int main() {
  unsigned *d, h;
  cudaMalloc(&d, 8);
  k<<<1, 4>>>(d, (char *)(d + 1));
  cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost);
  printf("%08x\n", h);
  return 0;
}
// OUT: 04030201
// ---- a double array copied in, then read as halves by two blocks and written by one
__global__ void k(double *x) {
  int *h = (int *)x;
  int v = h[blockIdx.x]; // ERROR C0501 col=11 "global memory \(byte 4\): read by thread 0 of block 1 \(kernel k\) conflicts with an unordered write by thread 0 of block 0"
  if (blockIdx.x == 0)
    h[1] = v; // NOTE "the other access: write by thread 0 of block 0"
}
int main() {
  double *d, a[2] = {1.0, 2.0};
  cudaMalloc(&d, sizeof(a));
  cudaMemcpy(d, a, sizeof(a), cudaMemcpyHostToDevice);
  k<<<2, 1>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
