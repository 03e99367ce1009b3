// ---- <cuda/pipeline>: a two-stage thread-scope pipeline (producer_acquire/commit, consumer_wait/release over the thread's cp.async groups), cuda::aligned_size_t, alignof
#include <cstdio>
#include <cuda/pipeline>
// each thread stages its elements through a 2-stage thread-scope pipeline
__global__ void k(const float *in, float *out, int n) {
  __shared__ float buf[2][128];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  int t = threadIdx.x;
  const auto shape = cuda::aligned_size_t<alignof(float)>(sizeof(float));
  for (int s = 0; s < 2; s++) {
    pipe.producer_acquire();
    cuda::memcpy_async(&buf[s][t], &in[s * 128 + t], shape, pipe);
    pipe.producer_commit();
  }
  float acc = 0;
  for (int i = 0; i < n; i++) {
    pipe.consumer_wait();
    acc += buf[i % 2][t];
    pipe.consumer_release();
    if (i + 2 < n) {
      pipe.producer_acquire();
      cuda::memcpy_async(&buf[i % 2][t], &in[(i + 2) * 128 + t], shape, pipe);
      pipe.producer_commit();
    }
  }
  out[t] = acc;
}
int main() {
  const int n = 6;
  float *in, *out;
  cudaMallocManaged(&in, n * 128 * sizeof(float));
  cudaMallocManaged(&out, 128 * sizeof(float));
  for (int i = 0; i < n * 128; i++) in[i] = i % 128 + i / 128;
  k<<<1, 128>>>(in, out, n);
  cudaDeviceSynchronize();
  printf("%f %f\n", out[0], out[127]);
  return 0;
}
// OUT: 15.000000 777.000000

// ---- <cuda/pipeline>: a partitioned block-scope pipeline over pipeline_shared_state: warp 1 produces into a 2-stage ring, warp 0 consumes a neighbour's element (ordered by the stage's full mbarrier)
#include <cstdio>
#include <cooperative_groups.h>
#include <cuda/pipeline>
namespace cg = cooperative_groups;
// a partitioned block-scope pipeline: warp 1 produces tiles into a 2-stage
// ring, warp 0 consumes them
__global__ void k(const float *in, float *out, int ntiles) {
  __shared__ float ring[2][32];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  auto block = cg::this_thread_block();
  const auto role = threadIdx.x >= 32 ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
  auto pipe = cuda::make_pipeline(block, &state, role);
  int lane = threadIdx.x % 32;
  if (role == cuda::pipeline_role::producer) {
    for (int t = 0; t < ntiles; t++) {
      pipe.producer_acquire();
      cuda::memcpy_async(&ring[t % 2][lane], &in[t * 32 + lane], sizeof(float), pipe);
      pipe.producer_commit();
    }
  } else {
    float acc = 0;
    for (int t = 0; t < ntiles; t++) {
      pipe.consumer_wait();
      acc += ring[t % 2][(lane + 1) % 32]; // a neighbour's element: ordered by the stage's barrier
      pipe.consumer_release();
    }
    out[lane] = acc;
  }
}
int main() {
  const int n = 5;
  float *in, *out;
  cudaMallocManaged(&in, n * 32 * sizeof(float));
  cudaMallocManaged(&out, 32 * sizeof(float));
  for (int i = 0; i < n * 32; i++) in[i] = i;
  k<<<1, 64>>>(in, out, n);
  cudaDeviceSynchronize();
  printf("%f %f\n", out[0], out[31]);
  return 0;
}
// OUT: 325.000000 320.000000

// ---- <cuda/pipeline>: consumers that release only the first stage: the producers wait forever at producer_acquire of the third tile
#include <cstdio>
#include <cooperative_groups.h>
#include <cuda/pipeline>
namespace cg = cooperative_groups;
// a partitioned block-scope pipeline: warp 1 produces tiles into a 2-stage
// ring, warp 0 consumes them
__global__ void k(const float *in, float *out, int ntiles) {
  __shared__ float ring[2][32];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  auto block = cg::this_thread_block();
  const auto role = threadIdx.x >= 32 ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
  auto pipe = cuda::make_pipeline(block, &state, role);
  int lane = threadIdx.x % 32;
  if (role == cuda::pipeline_role::producer) {
    for (int t = 0; t < ntiles; t++) {
      pipe.producer_acquire(); // ERROR C0502 col=28 "deadlock in block 0 of kernel k" // NOTE "threads 32-63 wait at an mbarrier phase of parity 0"
      cuda::memcpy_async(&ring[t % 2][lane], &in[t * 32 + lane], sizeof(float), pipe);
      pipe.producer_commit();
    }
  } else {
    float acc = 0;
    for (int t = 0; t < ntiles; t++) {
      pipe.consumer_wait();
      acc += ring[t % 2][(lane + 1) % 32]; // a neighbour's element: ordered by the stage's barrier
      if (t == 0) pipe.consumer_release();
    }
    out[lane] = acc;
  }
}
int main() {
  const int n = 5;
  float *in, *out;
  cudaMallocManaged(&in, n * 32 * sizeof(float));
  cudaMallocManaged(&out, 32 * sizeof(float));
  for (int i = 0; i < n * 32; i++) in[i] = i;
  k<<<1, 64>>>(in, out, n);
  cudaDeviceSynchronize();
  printf("%f %f\n", out[0], out[31]);
  return 0;
}
// MODE: run

// ---- <cuda/pipeline>: cuda::memcpy_async with a cuda::barrier (cp.async.mbarrier.arrive without .noinc: a net-zero change of the pending count), 16-byte chunks, arrive_and_wait orders them
#include <cstdio>
#include <cuda/barrier>
#include <cuda/pipeline>
// cuda::memcpy_async with a cuda::barrier: a quarter of the threads copy
// 16-byte chunks, every thread waits on the barrier's phase and reads
// another thread's chunk
__global__ void k(const float *in, float *out) {
  __shared__ alignas(16) float tile[128];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  int t = threadIdx.x;
  if (t * 4 < 128)
    cuda::memcpy_async(&tile[t * 4], &in[t * 4], cuda::aligned_size_t<16>(16), bar);
  bar.arrive_and_wait();
  out[t] = tile[127 - t] * 2;
}
int main() {
  float *in, *out;
  cudaMallocManaged(&in, 128 * sizeof(float));
  cudaMallocManaged(&out, 128 * sizeof(float));
  for (int i = 0; i < 128; i++) in[i] = i;
  k<<<1, 128>>>(in, out);
  cudaDeviceSynchronize();
  printf("%f %f\n", out[0], out[127]);
  return 0;
}
// OUT: 254.000000 0.000000

// ---- <cuda/pipeline>: arriving without waiting: the copies race with the other threads' reads
#include <cstdio>
#include <cuda/barrier>
#include <cuda/pipeline>
// cuda::memcpy_async with a cuda::barrier: a quarter of the threads copy
// 16-byte chunks, every thread waits on the barrier's phase and reads
// another thread's chunk
__global__ void k(const float *in, float *out) {
  __shared__ alignas(16) float tile[128];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  int t = threadIdx.x;
  if (t * 4 < 128)
    cuda::memcpy_async(&tile[t * 4], &in[t * 4], cuda::aligned_size_t<16>(16), bar); // ERROR C0501 col=5 "data race on shared memory tile \(byte 0\): write by thread 0 of block 0 \(kernel k\) conflicts with an unordered read by thread 127"
  (void)bar.arrive();
  out[t] = tile[127 - t] * 2; // WARN C0407 "read of uninitialized shared memory tile"
}
int main() {
  float *in, *out;
  cudaMallocManaged(&in, 128 * sizeof(float));
  cudaMallocManaged(&out, 128 * sizeof(float));
  for (int i = 0; i < 128; i++) in[i] = i;
  k<<<1, 128>>>(in, out);
  cudaDeviceSynchronize();
  printf("%f %f\n", out[0], out[127]);
  return 0;
}
// OUT: 254.000000 0.000000

// ---- <cuda/pipeline>: five stages committed into four buffers (a loop bound of <= where < was meant, as NVIDIA's globalToShmemAsyncCopy sample has): the fifth copy is in flight while the first iteration reads its buffer
#include <cstdio>
#include <cuda/pipeline>
// a thread-scope pipeline that commits one stage more than it has buffers:
// the fifth stage's copy lands in the buffer the first iteration reads
__global__ void k(const float *in, float *out, int n) {
  __shared__ float buf[4][64];
  auto pipe = cuda::make_pipeline();
  int t = threadIdx.x;
  float acc = 0;
  for (int i = 0, s = 0; i < n; i++) {
    for (; s <= i + 4 && s < n; s++) {
      pipe.producer_acquire();
      cuda::memcpy_async(&buf[s % 4][t], &in[s * 64 + t], sizeof(float), pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    acc += buf[i % 4][t]; // ERROR C0501 col=12 "data race on shared memory buf \(byte 0\): read by thread 0 of block 0 \(kernel k\) of the destination of its own asynchronous copy, which no wait has completed"
    pipe.consumer_release();
  }
  out[t] = acc;
}
int main() {
  float *in, *out;
  cudaMallocManaged(&in, 8 * 64 * sizeof(float));
  cudaMallocManaged(&out, 64 * sizeof(float));
  for (int i = 0; i < 8 * 64; i++) in[i] = 1;
  k<<<1, 64>>>(in, out, 8);
  cudaDeviceSynchronize();
  printf("%f\n", out[0]);
  return 0;
}
// OUT: 8.000000
// ---- a cuda::barrier that expects one arrival more than the block gives: the deadlock's notes name the program's lines (the init, the wait), not the header's
#include <cstdio>
#include <cuda/barrier>
__global__ void k(int *o) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x + 1); // NOTE "the mbarrier initialized here \(65 arrivals per phase\) is in phase 0; it misses 1 arrivals"
  __syncthreads();
  bar.arrive_and_wait(); // ERROR C0502 col=22 "deadlock in block 0 of kernel k" // NOTE "thread 0 waits on it here \(inside the library's"
  o[threadIdx.x] = 1;
}
int main() { int *o; cudaMallocManaged(&o, 256); k<<<1, 64>>>(o); cudaDeviceSynchronize(); return 0; }
// MODE: run
