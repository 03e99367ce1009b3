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
// ---- message passing: data, __threadfence, volatile flag; spin, __threadfence, data: race-free
#include <cstdio>
__global__ void mp(int *data, volatile int *flag, int *out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 1) {
    data[0] = 42;
    __threadfence();
    *flag = 1;
  } else {
    while (*flag == 0) {
    }
    __threadfence();
    out[0] = data[0];
  }
}
int main() {
  int *d, h;
  cudaMalloc(&d, 3 * sizeof(int));
  cudaMemset(d, 0, 3 * sizeof(int));
  mp<<<2, 32>>>(d, d + 1, d + 2);
  cudaMemcpy(&h, d + 2, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h);
  return 0;
}
// OUT: 42
// ---- message passing without the producer's fence races on the data
#include <cstdio>
__global__ void mp(int *data, volatile int *flag, int *out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 1) {
    data[0] = 42; // NOTE "the other access: write by thread 0 of block 1 \(kernel mp\)"
    *flag = 1;
  } else {
    while (*flag == 0) {
    }
    __threadfence();
    out[0] = data[0]; // ERROR C0501 col=14 "data race on global memory \(byte 0\): read by thread 0 of block 0 \(kernel mp\) conflicts with an unordered write by thread 0 of block 1 \(kernel mp\)"
  }
}
int main() {
  int *d;
  cudaMalloc(&d, 3 * sizeof(int));
  cudaMemset(d, 0, 3 * sizeof(int));
  mp<<<2, 32>>>(d, d + 1, d + 2);
  cudaDeviceSynchronize();
  return 0;
}
// ---- message passing without the consumer's fence races on the data
#include <cstdio>
__global__ void mp(int *data, volatile int *flag, int *out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 1) {
    data[0] = 42; // NOTE "the other access: write by thread 0 of block 1"
    __threadfence();
    *flag = 1;
  } else {
    while (*flag == 0) {
    }
    out[0] = data[0]; // ERROR C0501 col=14 "read by thread 0 of block 0 \(kernel mp\) conflicts with an unordered write by thread 0 of block 1"
  }
}
int main() {
  int *d;
  cudaMalloc(&d, 3 * sizeof(int));
  cudaMemset(d, 0, 3 * sizeof(int));
  mp<<<2, 32>>>(d, d + 1, d + 2);
  cudaDeviceSynchronize();
  return 0;
}
// ---- atomics as the flag: atomicExch publishes, atomicCAS spins, both fenced
#include <cstdio>
__device__ int flag;
__global__ void mp(float *data, float *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = threadIdx.x * 0.5f;
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      atomicExch(&flag, 1);
    }
  } else {
    if (threadIdx.x == 0) {
      while (atomicCAS(&flag, 1, 1) != 1) {
      }
      __threadfence();
    }
    __syncthreads();
    out[threadIdx.x] = data[(threadIdx.x + 1) % blockDim.x];
  }
}
int main() {
  float *d, h[64];
  cudaMalloc(&d, 128 * sizeof(float));
  mp<<<2, 64>>>(d, d + 64);
  cudaMemcpy(h, d + 64, sizeof h, cudaMemcpyDeviceToHost);
  printf("%g %g\n", h[0], h[63]);
  return 0;
}
// OUT: 0.5 0
// ---- the release covers the producer block's writes before its barrier only: a write after it races
#include <cstdio>
__device__ int flag;
__global__ void mp(float *data, float *out) {
  if (blockIdx.x == 0) {
    data[threadIdx.x] = 1.0f;
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      atomicExch(&flag, 1);
    }
    if (threadIdx.x == 5) data[5] = 2.0f; // NOTE "the other access: write by thread 5 of block 0"
  } else {
    if (threadIdx.x == 0) {
      while (atomicCAS(&flag, 1, 1) != 1) {
      }
      __threadfence();
    }
    __syncthreads();
    out[threadIdx.x] = data[threadIdx.x]; // ERROR C0501 col=24 "read by thread 5 of block 1 \(kernel mp\) conflicts with an unordered write by thread 5 of block 0"
  }
}
int main() {
  float *d;
  cudaMalloc(&d, 128 * sizeof(float));
  mp<<<2, 64>>>(d, d + 64);
  cudaDeviceSynchronize();
  return 0;
}
// ---- single-pass sum with plain partial sums: fence before atomicInc, fence after it in the last block
#include <cstdio>
#define BLOCKS 16
#define THREADS 32
__device__ unsigned int done;
__global__ void sum(const int *in, int *partial, int *result) {
  __shared__ int s[THREADS];
  __shared__ bool last;
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * THREADS + t];
  __syncthreads();
  for (int k = THREADS / 2; k > 0; k /= 2) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    unsigned int ticket = atomicInc(&done, gridDim.x);
    last = ticket == gridDim.x - 1;
    if (last) __threadfence();
  }
  __syncthreads();
  if (last && t == 0) {
    int total = 0;
    for (int b = 0; b < gridDim.x; b++) total += partial[b];
    *result = total;
  }
}
int main() {
  int h[BLOCKS * THREADS], *in, *partial, *result, r;
  for (int i = 0; i < BLOCKS * THREADS; i++) h[i] = i % 10;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&partial, BLOCKS * sizeof(int));
  cudaMalloc(&result, sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  sum<<<BLOCKS, THREADS>>>(in, partial, result);
  cudaMemcpy(&r, result, sizeof r, cudaMemcpyDeviceToHost);
  printf("%d\n", r);
  return 0;
}
// OUT: 2296
// ---- single-pass sum: the last block's missing acquire fence is a race
#include <cstdio>
#define BLOCKS 4
#define THREADS 32
__device__ unsigned int done;
__global__ void sum(const int *in, int *partial, int *result) {
  __shared__ bool last;
  int t = threadIdx.x;
  if (t == 0) {
    partial[blockIdx.x] = in[blockIdx.x]; // NOTE "the other access: write by thread 0 of block 0"
    __threadfence();
    unsigned int ticket = atomicInc(&done, gridDim.x);
    last = ticket == gridDim.x - 1;
  }
  __syncthreads();
  if (last && t == 0) {
    int total = 0;
    for (int b = 0; b < gridDim.x; b++) total += partial[b]; // ERROR C0501 "read by thread 0 of block 3 \(kernel sum\) conflicts with an unordered write by thread 0 of block 0"
    *result = total;
  }
}
int main() {
  int *in, *partial, *result;
  cudaMalloc(&in, BLOCKS * sizeof(int));
  cudaMemset(in, 0, BLOCKS * sizeof(int));
  cudaMalloc(&partial, BLOCKS * sizeof(int));
  cudaMalloc(&result, sizeof(int));
  sum<<<BLOCKS, THREADS>>>(in, partial, result);
  cudaDeviceSynchronize();
  return 0;
}
// ---- decoupled look-back: each block waits for its predecessor's inclusive prefix (a chain of releases)
#include <cstdio>
#define N 8
#define T 32
__global__ void scan(const int *in, int *out, volatile int *status, int *prefix) {
  __shared__ int s[T];
  __shared__ int carry;
  int b = blockIdx.x, t = threadIdx.x;
  s[t] = in[b * T + t];
  __syncthreads();
  for (int k = 1; k < T; k *= 2) {
    int v = t >= k ? s[t - k] : 0;
    __syncthreads();
    s[t] += v;
    __syncthreads();
  }
  if (t == 0) {
    int c = 0;
    if (b > 0) {
      while (status[b - 1] == 0) {
      }
      __threadfence();
      c = prefix[b - 1];
    }
    carry = c;
    prefix[b] = c + s[T - 1];
    __threadfence();
    status[b] = 1;
  }
  __syncthreads();
  out[b * T + t] = s[t] + carry;
}
int main() {
  int h[N * T], *in, *out, *status, *prefix;
  for (int i = 0; i < N * T; i++) h[i] = 1;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMalloc(&status, N * sizeof(int));
  cudaMalloc(&prefix, N * sizeof(int));
  cudaMemset(status, 0, N * sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  scan<<<N, T>>>(in, out, status, prefix);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d\n", h[0], h[T], h[N * T - 1]);
  return 0;
}
// OUT: 1 33 256
// ---- cuda::atomic_ref release store and acquire load order the data
#include <cstdio>
#include <cuda/atomic>
__global__ void mp(int *data, int *flag, int *out) {
  if (threadIdx.x != 0) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (blockIdx.x == 1) {
    data[0] = 9;
    f.store(1, cuda::memory_order_release);
  } else {
    while (f.load(cuda::memory_order_acquire) == 0) {
    }
    out[0] = data[0];
  }
}
int main() {
  int *d, h;
  cudaMalloc(&d, 3 * sizeof(int));
  cudaMemset(d, 0, 3 * sizeof(int));
  mp<<<2, 32>>>(d, d + 1, d + 2);
  cudaMemcpy(&h, d + 2, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h);
  return 0;
}
// OUT: 9
// ---- cuda::atomic_ref relaxed accesses order nothing
#include <cstdio>
#include <cuda/atomic>
__global__ void mp(int *data, int *flag, int *out) {
  if (threadIdx.x != 0) return;
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (blockIdx.x == 1) {
    data[0] = 9; // NOTE "the other access: write by thread 0 of block 1"
    f.store(1, cuda::memory_order_relaxed);
  } else {
    while (f.load(cuda::memory_order_relaxed) == 0) {
    }
    out[0] = data[0]; // ERROR C0501 col=14 "read by thread 0 of block 0 \(kernel mp\) conflicts with an unordered write by thread 0 of block 1"
  }
}
int main() {
  int *d;
  cudaMalloc(&d, 3 * sizeof(int));
  cudaMemset(d, 0, 3 * sizeof(int));
  mp<<<2, 32>>>(d, d + 1, d + 2);
  cudaDeviceSynchronize();
  return 0;
}
// ---- warp-synchronous volatile reduction: no data race, but lock step is assumed (C0506)
#include <cstdio>
__global__ void red(const int *in, int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t] + in[t + 32];
  s[t + 32] = 0;
  __syncthreads();
  volatile int *v = s;
  v[t] += v[t + 16]; // NOTE "the other access" // WARN C0506 col=3 "unordered volatile accesses by lanes of one warp: volatile write by thread 16 of block 0 \(kernel red\) and volatile read by thread 0"
  v[t] += v[t + 8]; // WARN C0506 "relies on lock step"
  v[t] += v[t + 4]; // WARN C0506 "relies on lock step"
  v[t] += v[t + 2]; // WARN C0506 "relies on lock step"
  v[t] += v[t + 1]; // WARN C0506 "relies on lock step"
  if (t == 0) *out = v[0];
}
int main() {
  int h[64], *in, *out, r;
  for (int i = 0; i < 64; i++) h[i] = i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  red<<<1, 32>>>(in, out);
  cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("%d\n", r);
  return 0;
}
// OUT: 2016
// ---- the same reduction with __syncwarp between the steps is clean
#include <cstdio>
__global__ void red(const int *in, int *out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t] + in[t + 32];
  s[t + 32] = 0;
  __syncthreads();
  for (int k = 16; k > 0; k /= 2) {
    int x = s[t] + s[t + k];
    __syncwarp();
    s[t] = x;
    __syncwarp();
  }
  if (t == 0) *out = s[0];
}
int main() {
  int h[64], *in, *out, r;
  for (int i = 0; i < 64; i++) h[i] = i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  red<<<1, 32>>>(in, out);
  cudaMemcpy(&r, out, sizeof r, cudaMemcpyDeviceToHost);
  printf("%d\n", r);
  return 0;
}
// OUT: 2016
// ---- a volatile global variable is a strong location: spinning on it is no race
#include <cstdio>
__device__ volatile int ready;
__device__ int value;
__global__ void k(int *out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    value = 5;
    __threadfence();
    ready = 1;
  } else {
    while (!ready) {
    }
    __threadfence();
    *out = value;
  }
}
int main() {
  int *d, h;
  cudaMalloc(&d, sizeof(int));
  k<<<2, 1>>>(d);
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d\n", h);
  return 0;
}
// OUT: 5
