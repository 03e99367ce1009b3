// ---- a thread spinning on a flag that no thread sets is a livelock
#include <stdio.h>
__global__ void k(volatile int *flag) {
  if (threadIdx.x == 0)
    while (*flag == 0) // ERROR C0504 col=12 "livelock in kernel k: no thread can make progress \(threads 1-3 of block 0 exited\)" // NOTE "thread 0 of block 0 spins reading global memory \(byte 0\), which no thread will change"
      ;
}
int main() {
  int *flag;
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  printf("launch\n");
  k<<<1, 4>>>(flag);
  cudaDeviceSynchronize();
  printf("not reached\n");
  return 0;
}
// OUT: launch
// ---- a lock whose holder exited without releasing it
__global__ void k(int *lock, int *count) {
  while (atomicCAS(lock, 0, 1) != 0) // ERROR C0504 col=10 "no thread can make progress \(thread 0 of block 0 exited\)" // NOTE "threads 1-7 of block 0 spin reading global memory \(byte 0\), which no thread will change"
    ;
  atomicAdd(count, 1);
  // missing: atomicExch(lock, 0);
}
int main() {
  int *d;
  cudaMalloc(&d, 2 * sizeof(int));
  cudaMemset(d, 0, 2 * sizeof(int));
  k<<<1, 8>>>(d, d + 1);
  cudaDeviceSynchronize();
  return 0;
}
// ---- a thread spins while the thread that would set the flag waits at a barrier the spinner never reaches
__global__ void k(int *out) {
  __shared__ volatile int flag;
  if (threadIdx.x == 0)
    flag = 0;
  __syncthreads();
  if (threadIdx.x == 0) {
    while (flag == 0) // ERROR C0504 col=12 "livelock in kernel k: no thread can make progress$" // NOTE "thread 0 of block 0 spins reading shared memory flag \(byte 0\)"
      ;
  } else {
    __syncthreads(); // NOTE "thread 1 of block 0 waits at __syncthreads"
    flag = 1;
  }
  out[threadIdx.x] = 1;
}
int main() {
  int *d;
  cudaMalloc(&d, 2 * sizeof(int));
  k<<<1, 2>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
// ---- two blocks each waiting for the other's flag before setting its own
__global__ void k(int *flags) {
  int b = blockIdx.x;
  if (threadIdx.x == 0) {
    while (atomicAdd(&flags[1 - b], 0) == 0) // ERROR C0504 col=12 "livelock in kernel k: no thread can make progress \(thread 1 of block 0; thread 1 of block 1 exited\)" // NOTE "thread 0 of block 0 spins reading global memory \(byte 4\)" // NOTE "thread 0 of block 1 spins reading global memory \(byte 0\)"
      ;
    atomicExch(&flags[b], 1);
  }
}
int main() {
  int *d;
  cudaMalloc(&d, 2 * sizeof(int));
  cudaMemset(d, 0, 2 * sizeof(int));
  k<<<2, 2>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
// ---- a loop that reads nothing another thread could change
__global__ void k(int *out) {
  int i = 0;
  if (threadIdx.x == 1)
    while (i < 10) // ERROR C0504 col=5 "livelock in kernel k: no thread can make progress$" // NOTE "thread 1 of block 0 loops forever without reading memory another thread could change"
      i = i * 2;
  __syncthreads(); // NOTE "thread 0 of block 0 waits at __syncthreads"
  out[threadIdx.x] = i;
}
int main() {
  int *d;
  cudaMalloc(&d, 2 * sizeof(int));
  k<<<1, 2>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
// ---- a consumer block waits for a later producer block: the flag handshake completes
#include <stdio.h>
__device__ int data;
__device__ int flag;
__global__ void k(int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 1) {
    atomicExch(&data, 42);
    __threadfence();
    atomicExch(&flag, 1);
  } else {
    while (atomicAdd(&flag, 0) == 0)
      ;
    __threadfence();
    out[0] = atomicAdd(&data, 0);
  }
}
int main() {
  int *d, h;
  cudaMalloc(&d, sizeof(int));
  k<<<2, 32>>>(d);
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("got %d\n", h);
  return 0;
}
// OUT: got 42
// ---- the same handshake with volatile flags (race-free: fence.go)
#include <stdio.h>
__global__ void k(volatile int *flag, volatile int *data, int *out) {
  if (blockIdx.x == 2) {
    *data = 7;
    __threadfence();
    *flag = 1;
  } else {
    while (*flag == 0)
      ;
    __threadfence();
    out[blockIdx.x * blockDim.x + threadIdx.x] = *data;
  }
}
int main() {
  int *d, h[8];
  cudaMalloc(&d, 10 * sizeof(int));
  cudaMemset(d, 0, 10 * sizeof(int));
  k<<<3, 4>>>(d, d + 1, d + 2);
  cudaMemcpy(h, d + 2, sizeof(h), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; i++)
    printf("%d ", h[i]);
  printf("\n");
  return 0;
}
// OUT: 7 7 7 7 7 7 7 7 
// ---- a spin lock taken by every thread of two blocks
#include <stdio.h>
__global__ void k(int *lock, int *sum) {
  while (atomicCAS(lock, 0, 1) != 0)
    ;
  atomicAdd(sum, threadIdx.x + 1);
  atomicExch(lock, 0);
}
int main() {
  int *d, h;
  cudaMalloc(&d, 2 * sizeof(int));
  cudaMemset(d, 0, 2 * sizeof(int));
  k<<<2, 32>>>(d, d + 1);
  cudaMemcpy(&h, d + 1, sizeof(int), cudaMemcpyDeviceToHost);
  printf("sum %d\n", h);
  return 0;
}
// OUT: sum 1056
// ---- look-back: each block waits for its predecessor's inclusive prefix
#include <stdio.h>
__global__ void scan(int *flags, int *vals, int *out) {
  int b = blockIdx.x;
  __shared__ int prefix;
  if (threadIdx.x == 0) {
    int p = 0;
    if (b > 0) {
      while (atomicAdd(&flags[b - 1], 0) == 0)
        ;
      p = atomicAdd(&vals[b - 1], 0);
    }
    prefix = p;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicExch(&vals[b], prefix + b + 1);
    atomicExch(&flags[b], 1);
  }
  out[b * blockDim.x + threadIdx.x] = prefix;
}
int main() {
  int *d, h[8 * 4];
  cudaMalloc(&d, 16 * sizeof(int) + sizeof(h));
  cudaMemset(d, 0, 16 * sizeof(int));
  scan<<<8, 4>>>(d, d + 8, d + 16);
  cudaMemcpy(h, d + 16, sizeof(h), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; i++)
    printf("%d ", h[4 * i + 3]);
  printf("\n");
  return 0;
}
// OUT: 0 1 3 6 10 15 21 28 
// ---- the same chain in reverse: block b waits for block b+1, so blocks that run in order must park
#include <stdio.h>
__global__ void scan(int *flags, int *vals) {
  int b = blockIdx.x, n = gridDim.x;
  if (threadIdx.x == 0) {
    int p = 0;
    if (b < n - 1) {
      while (atomicAdd(&flags[b + 1], 0) == 0)
        ;
      p = atomicAdd(&vals[b + 1], 0);
    }
    atomicExch(&vals[b], p + b + 1);
    atomicExch(&flags[b], 1);
  }
}
int main() {
  int *d, h[6];
  cudaMalloc(&d, 12 * sizeof(int));
  cudaMemset(d, 0, 12 * sizeof(int));
  scan<<<6, 2>>>(d, d + 6);
  cudaMemcpy(h, d + 6, sizeof(h), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 6; i++)
    printf("%d ", h[i]);
  printf("\n");
  return 0;
}
// OUT: 21 20 18 15 11 6 
// ---- a long computation without stores while another thread spins is not a livelock
#include <stdio.h>
__global__ void k(int *flag, int *out) {
  if (threadIdx.x == 0) {
    while (atomicAdd(flag, 0) == 0)
      ;
    out[0] = atomicAdd(flag, 0);
  } else {
    unsigned x = 1;
    for (int i = 0; i < 200000; i++)
      x = x * 1103515245u + 12345u;
    atomicExch(flag, (int)(x % 1000) + 1);
  }
}
int main() {
  int *d, h;
  cudaMalloc(&d, 2 * sizeof(int));
  cudaMemset(d, 0, 2 * sizeof(int));
  k<<<1, 2>>>(d, d + 1);
  cudaMemcpy(&h, d + 1, sizeof(int), cudaMemcpyDeviceToHost);
  printf("flag %d\n", h);
  return 0;
}
// OUT: flag 258
// ---- waiting on the clock is not a livelock
#include <stdio.h>
__global__ void k(int *out) {
  if (threadIdx.x == 0) {
    long long start = clock64();
    while (clock64() - start < 200000)
      ;
  }
  __syncthreads();
  out[threadIdx.x] = threadIdx.x;
}
int main() {
  int *d, h[2];
  cudaMalloc(&d, sizeof(h));
  k<<<1, 2>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[1]);
  return 0;
}
// OUT: 0 1
// ---- a thread repeating through barriers while the other counts is not a livelock
#include <stdio.h>
__global__ void k(int *out) {
  __shared__ int done;
  if (threadIdx.x == 0)
    done = 0;
  __syncthreads();
  int i = 0;
  unsigned x = 1;
  while (true) {
    if (threadIdx.x == 1) {
      x = x * 3u + 1u;
      if (++i == 30000)
        done = 1;
    } else {
      int y = 0; // thread 0 is slower, so thread 1 waits at the barrier
      for (int j = 0; j < 20; j++)
        y += j;
      out[0] = y;
    }
    __syncthreads();
    if (done)
      break;
    __syncthreads();
  }
  out[threadIdx.x] = (int)(x % 1000u);
}
int main() {
  int *d, h[2];
  cudaMalloc(&d, sizeof(h));
  k<<<1, 2>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[1]);
  return 0;
}
// OUT: 1 377
// ---- every thread waits for a flag, passing a barrier in each turn
__global__ void k(volatile int *flag) {
  while (*flag == 0) // ERROR C0504 col=10 "livelock in kernel k: no thread can make progress$" // NOTE "threads 0-63 of block 0 spin reading global memory \(byte 0\)"
    __syncthreads();
}
int main() {
  int *d;
  cudaMalloc(&d, sizeof(int));
  cudaMemset(d, 0, sizeof(int));
  k<<<1, 64>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
// ---- a warp votes on a flag that no thread sets
__global__ void k(volatile int *flag) {
  while (!__any_sync(0xffffffff, *flag)) // ERROR C0504 "livelock in kernel k: no thread can make progress$"
    ;
}
int main() {
  int *d;
  cudaMalloc(&d, sizeof(int));
  cudaMemset(d, 0, sizeof(int));
  k<<<2, 32>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
