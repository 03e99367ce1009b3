// ---- fence: decoupled look-back with a volatile flag behind __threadfence on both sides is race-free
#include <cstdio>
// A chained scan with decoupled look-back (our own sample-style program):
// each block sums its tile, waits until the previous block has published
// its inclusive prefix (a volatile flag behind __threadfence), fences, and
// reads that prefix (a plain int) to publish its own.
#define BLOCKS 6
#define THREADS 32
__global__ void scan(const int *in, int *out, int *prefix, volatile int *flag) {
  __shared__ int s[THREADS];
  __shared__ int base;
  int b = blockIdx.x, t = threadIdx.x;
  s[t] = in[b * THREADS + t];
  __syncthreads();
  for (int k = 1; k < THREADS; k *= 2) {
    int v = t >= k ? s[t - k] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  if (t == 0) {
    int p = 0;
    if (b > 0) {
      while (flag[b - 1] == 0) {
      }
      __threadfence();
      p = prefix[b - 1];
    }
    prefix[b] = p + s[THREADS - 1];
    __threadfence();
    flag[b] = 1;
    base = p;
  }
  __syncthreads();
  out[b * THREADS + t] = base + s[t];
}
int main() {
  int h[BLOCKS * THREADS], *in, *out, *prefix, *flag;
  for (int i = 0; i < BLOCKS * THREADS; i++) h[i] = i % 5;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMalloc(&prefix, BLOCKS * sizeof(int));
  cudaMalloc(&flag, BLOCKS * sizeof(int));
  cudaMemset(flag, 0, BLOCKS * sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  scan<<<BLOCKS, THREADS>>>(in, out, prefix, flag);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d\n", h[0], h[THREADS], h[BLOCKS * THREADS - 1]);
  return 0;
}
// OUT: 0 63 381
// ---- fence: the look-back without the writer's fence: the prefix's write and read race
#include <cstdio>
// A chained scan with decoupled look-back (our own sample-style program):
// each block sums its tile, waits until the previous block has published
// its inclusive prefix (a volatile flag behind __threadfence), fences, and
// reads that prefix (a plain int) to publish its own.
#define BLOCKS 6
#define THREADS 32
__global__ void scan(const int *in, int *out, int *prefix, volatile int *flag) {
  __shared__ int s[THREADS];
  __shared__ int base;
  int b = blockIdx.x, t = threadIdx.x;
  s[t] = in[b * THREADS + t];
  __syncthreads();
  for (int k = 1; k < THREADS; k *= 2) {
    int v = t >= k ? s[t - k] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  if (t == 0) {
    int p = 0;
    if (b > 0) {
      while (flag[b - 1] == 0) {
      }
      __threadfence();
      p = prefix[b - 1]; // ERROR C0501 "data race on global memory \(byte 0\): read by thread 0 of block 1 \(kernel scan\) conflicts with an unordered write by thread 0 of block 0 \(kernel scan\)"
    }
    prefix[b] = p + s[THREADS - 1]; // NOTE "the other access: write by thread 0 of block 0"
    
    flag[b] = 1;
    base = p;
  }
  __syncthreads();
  out[b * THREADS + t] = base + s[t];
}
int main() {
  int h[BLOCKS * THREADS], *in, *out, *prefix, *flag;
  for (int i = 0; i < BLOCKS * THREADS; i++) h[i] = i % 5;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMalloc(&prefix, BLOCKS * sizeof(int));
  cudaMalloc(&flag, BLOCKS * sizeof(int));
  cudaMemset(flag, 0, BLOCKS * sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  scan<<<BLOCKS, THREADS>>>(in, out, prefix, flag);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d\n", h[0], h[THREADS], h[BLOCKS * THREADS - 1]);
  return 0;
}
// OUT: 0 63 381
// ---- fence: the look-back without the reader's fence: the prefix's write and read race
#include <cstdio>
// A chained scan with decoupled look-back (our own sample-style program):
// each block sums its tile, waits until the previous block has published
// its inclusive prefix (a volatile flag behind __threadfence), fences, and
// reads that prefix (a plain int) to publish its own.
#define BLOCKS 6
#define THREADS 32
__global__ void scan(const int *in, int *out, int *prefix, volatile int *flag) {
  __shared__ int s[THREADS];
  __shared__ int base;
  int b = blockIdx.x, t = threadIdx.x;
  s[t] = in[b * THREADS + t];
  __syncthreads();
  for (int k = 1; k < THREADS; k *= 2) {
    int v = t >= k ? s[t - k] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  if (t == 0) {
    int p = 0;
    if (b > 0) {
      while (flag[b - 1] == 0) {
      }
      
      p = prefix[b - 1]; // ERROR C0501 "data race on global memory \(byte 0\): read by thread 0 of block 1 \(kernel scan\) conflicts with an unordered write by thread 0 of block 0 \(kernel scan\)"
    }
    prefix[b] = p + s[THREADS - 1]; // NOTE "the other access: write by thread 0 of block 0"
    __threadfence();
    flag[b] = 1;
    base = p;
  }
  __syncthreads();
  out[b * THREADS + t] = base + s[t];
}
int main() {
  int h[BLOCKS * THREADS], *in, *out, *prefix, *flag;
  for (int i = 0; i < BLOCKS * THREADS; i++) h[i] = i % 5;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMalloc(&prefix, BLOCKS * sizeof(int));
  cudaMalloc(&flag, BLOCKS * sizeof(int));
  cudaMemset(flag, 0, BLOCKS * sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  scan<<<BLOCKS, THREADS>>>(in, out, prefix, flag);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d\n", h[0], h[THREADS], h[BLOCKS * THREADS - 1]);
  return 0;
}
// OUT: 0 63 381
// ---- fence: a __threadfence_block releases only to the writer's block: across blocks the prefix races
#include <cstdio>
// A chained scan with decoupled look-back (our own sample-style program):
// each block sums its tile, waits until the previous block has published
// its inclusive prefix (a volatile flag behind __threadfence), fences, and
// reads that prefix (a plain int) to publish its own.
#define BLOCKS 6
#define THREADS 32
__global__ void scan(const int *in, int *out, int *prefix, volatile int *flag) {
  __shared__ int s[THREADS];
  __shared__ int base;
  int b = blockIdx.x, t = threadIdx.x;
  s[t] = in[b * THREADS + t];
  __syncthreads();
  for (int k = 1; k < THREADS; k *= 2) {
    int v = t >= k ? s[t - k] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  if (t == 0) {
    int p = 0;
    if (b > 0) {
      while (flag[b - 1] == 0) {
      }
      __threadfence();
      p = prefix[b - 1]; // ERROR C0501 "data race on global memory \(byte 0\): read by thread 0 of block 1 \(kernel scan\) conflicts with an unordered write by thread 0 of block 0 \(kernel scan\)"
    }
    prefix[b] = p + s[THREADS - 1]; // NOTE "the other access: write by thread 0 of block 0"
    __threadfence_block();
    flag[b] = 1;
    base = p;
  }
  __syncthreads();
  out[b * THREADS + t] = base + s[t];
}
int main() {
  int h[BLOCKS * THREADS], *in, *out, *prefix, *flag;
  for (int i = 0; i < BLOCKS * THREADS; i++) h[i] = i % 5;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMalloc(&prefix, BLOCKS * sizeof(int));
  cudaMalloc(&flag, BLOCKS * sizeof(int));
  cudaMemset(flag, 0, BLOCKS * sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  scan<<<BLOCKS, THREADS>>>(in, out, prefix, flag);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d\n", h[0], h[THREADS], h[BLOCKS * THREADS - 1]);
  return 0;
}
// OUT: 0 63 381
// ---- fence: a __threadfence_block acquires only from the reader's block: across blocks the prefix races
#include <cstdio>
// A chained scan with decoupled look-back (our own sample-style program):
// each block sums its tile, waits until the previous block has published
// its inclusive prefix (a volatile flag behind __threadfence), fences, and
// reads that prefix (a plain int) to publish its own.
#define BLOCKS 6
#define THREADS 32
__global__ void scan(const int *in, int *out, int *prefix, volatile int *flag) {
  __shared__ int s[THREADS];
  __shared__ int base;
  int b = blockIdx.x, t = threadIdx.x;
  s[t] = in[b * THREADS + t];
  __syncthreads();
  for (int k = 1; k < THREADS; k *= 2) {
    int v = t >= k ? s[t - k] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  if (t == 0) {
    int p = 0;
    if (b > 0) {
      while (flag[b - 1] == 0) {
      }
      __threadfence_block();
      p = prefix[b - 1]; // ERROR C0501 "data race on global memory \(byte 0\): read by thread 0 of block 1 \(kernel scan\) conflicts with an unordered write by thread 0 of block 0 \(kernel scan\)"
    }
    prefix[b] = p + s[THREADS - 1]; // NOTE "the other access: write by thread 0 of block 0"
    __threadfence();
    flag[b] = 1;
    base = p;
  }
  __syncthreads();
  out[b * THREADS + t] = base + s[t];
}
int main() {
  int h[BLOCKS * THREADS], *in, *out, *prefix, *flag;
  for (int i = 0; i < BLOCKS * THREADS; i++) h[i] = i % 5;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMalloc(&prefix, BLOCKS * sizeof(int));
  cudaMalloc(&flag, BLOCKS * sizeof(int));
  cudaMemset(flag, 0, BLOCKS * sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  scan<<<BLOCKS, THREADS>>>(in, out, prefix, flag);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d\n", h[0], h[THREADS], h[BLOCKS * THREADS - 1]);
  return 0;
}
// OUT: 0 63 381
// ---- fence: volatile accesses are strong: a __device__ volatile flag polled by another block is no race, a plain read of it is
#include <cstdio>
__device__ volatile int ready = 0;
__device__ int data = 0;
__global__ void k(int *out) {
  if (blockIdx.x == 0) {
    data = 42;
    __threadfence();
    ready = 1;
  } else {
    while (ready == 0) {
    }
    __threadfence();
    out[0] = data;
    out[1] = *(int *)&ready; // ERROR C0501 "data race on global memory ready \(byte 0\): read by thread 0 of block 1 \(kernel k\) conflicts with an unordered volatile write by thread 0 of block 0 \(kernel k\)"
  }
}
int main() {
  int *out, h[2];
  cudaMalloc(&out, sizeof h);
  k<<<2, 1>>>(out);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[1]);
  return 0;
}
// OUT: 42 1
// ---- fence: a cast to a pointer to volatile makes the access strong
#include <cstdio>
__global__ void k(int *flag, int *data, int *out) {
  if (blockIdx.x == 0) {
    data[0] = 7;
    __threadfence();
    *(volatile int *)flag = 1;
  } else {
    while (((volatile int *)flag)[0] == 0) {
    }
    __threadfence();
    *out = data[0];
  }
}
int main() {
  int *flag, *data, *out, h;
  cudaMalloc(&flag, sizeof(int));
  cudaMalloc(&data, sizeof(int));
  cudaMalloc(&out, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  k<<<2, 1>>>(flag, data, out);
  cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h);
  return 0;
}
// OUT: 7
// ---- fence: a volatile struct member through a pointer to a volatile struct is strong
#include <cstdio>
struct Slot {
  int value;
  int status;
};
__global__ void k(volatile Slot *slots, int *out) {
  if (blockIdx.x == 0) {
    slots[0].value = 5;
    __threadfence();
    slots[0].status = 1;
  } else {
    while (slots[0].status == 0) {
    }
    *out = slots[0].value;
  }
}
int main() {
  Slot *slots;
  int *out, h;
  cudaMalloc(&slots, sizeof(Slot));
  cudaMalloc(&out, sizeof(int));
  cudaMemset(slots, 0, sizeof(Slot));
  k<<<2, 1>>>(slots, out);
  cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h);
  return 0;
}
// OUT: 5
// ---- fence: the single-pass sum with __threadfence_block: a block-scope fence does not release to the last block, which reads the partial sums
#include <cstdio>
#define BLOCKS 4
#define THREADS 32
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
    partial[blockIdx.x] = s[0]; // NOTE "the other access: write by thread 0 of block 0 \(kernel sum\)"
    __threadfence_block();
    unsigned int v = atomicInc(&count, gridDim.x);
    isLast = (v == gridDim.x - 1);
  }
  __syncthreads();
  if (isLast && t == 0) {
    float total = 0;
    for (int b = 0; b < gridDim.x; b++) total += partial[b]; // ERROR C0501 "data race on global memory \(byte 0\): read by thread 0 of block 3 \(kernel sum\) conflicts with an unordered write by thread 0 of block 0 \(kernel sum\)"
    *result = total;
  }
}
int main() {
  float h[BLOCKS * THREADS], *in, *partial, *result, r;
  for (int i = 0; i < BLOCKS * THREADS; i++) h[i] = 1.0f;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&partial, BLOCKS * sizeof(float));
  cudaMalloc(&result, sizeof(float));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  sum<<<BLOCKS, THREADS>>>(in, partial, result);
  cudaMemcpy(&r, result, sizeof r, cudaMemcpyDeviceToHost);
  printf("%g\n", r);
  return 0;
}
// OUT: 128
// ---- volatile through a typedef and on a struct member: a host latch written while a kernel polls it is strong on both sides (C11 6.7.3p5: the typedef's qualifier qualifies each use), no race
#include <cstdio>
typedef volatile int Latch;
struct H { Latch latch; volatile int flag; int pad; };
__global__ void k(Latch *l, volatile int *f, int *out) {
  out[0] = *l;
  out[1] = *f;
}
int main() {
  H *h;
  int *out;
  cudaMallocHost(&h, sizeof(H));
  cudaMallocManaged(&out, 2 * sizeof(int));
  h->latch = 0;
  h->flag = 0;
  cudaStream_t s;
  cudaStreamCreate(&s);
  k<<<1, 1, 0, s>>>(&h->latch, &h->flag, out);
  h->latch = 1;
  h->flag = 1;
  cudaStreamSynchronize(s);
  printf("%d\n", out[0] + out[1]); // GPU: differs (whether the kernel reads before or after the host's writes depends on timing; the semantics runs queued work when the host blocks)
  return 0;
}
// OUT: 2
// ---- the same with a typedef that is not volatile races
#include <cstdio>
typedef int Latch;
struct H { Latch latch; int pad; };
__global__ void k(Latch *l, int *out) {
  out[0] = *l; // ERROR C0501 col=12 "data race on pinned memory \(byte 0\): read by thread 0 of block 0 \(kernel k\) conflicts with an unordered write by the host"
}
int main() {
  H *h;
  int *out;
  cudaMallocHost(&h, sizeof(H));
  cudaMallocManaged(&out, sizeof(int));
  h->latch = 0;
  cudaStream_t s;
  cudaStreamCreate(&s);
  k<<<1, 1, 0, s>>>(&h->latch, out);
  h->latch = 1; // NOTE "the other access"
  cudaStreamSynchronize(s);
  printf("%d\n", out[0]);
  return 0;
}
// OUT: 1
