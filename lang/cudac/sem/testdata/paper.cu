// ---- T-P1 figure 1
#include <stdio.h>
#include <cuda.h>
#define N 18
#define NBLOCKS 2
#define NTHREADS (N/NBLOCKS)
__global__ void sum(int* in, int* out) {
  extern __shared__ int shared[];
  int i, tid = threadIdx.x, bid = blockIdx.x, bdim = blockDim.x;
  shared[tid] = in[bid * bdim + tid];
  __syncthreads();
  if (tid < bdim/2) {
    shared[tid] += shared[bdim/2 + tid];
  }
  __syncthreads();
  if (tid == 0) {
    for (i=1; i != (bdim/2)+(bdim%2); ++i) {
      shared[0] += shared[i];
    }
    out[bid] = shared[0];
  }
}
int main(void) {
  int i, *dev_in, *dev_out, host[N];
  printf("INPUT: ");
  for(i = 0; i != N; ++i) {
    host[i] = (21*i + 29) % 100;
    printf(" %d ", host[i]);
  }
  printf("\n");
  cudaMalloc(&dev_in, N * sizeof(int));
  cudaMalloc(&dev_out, NBLOCKS * sizeof(int));
  cudaMemcpy(dev_in, host, N * sizeof(int), cudaMemcpyHostToDevice);
  sum<<<NBLOCKS, NTHREADS, NTHREADS * sizeof(int)>>>( dev_in, dev_out);
  sum<<<1, NBLOCKS, NBLOCKS * sizeof(int)>>>( dev_out, dev_out);
  cudaMemcpy(host, dev_out, sizeof(int), cudaMemcpyDeviceToHost);
  cudaDeviceSynchronize();
  printf("OUTPUT: %u\n", *host);
  cudaFree(dev_in);
  cudaFree(dev_out);
  return 0;
}
// OUT: INPUT:  29  50  71  92  13  34  55  76  97  18  39  60  81  2  23  44  65  86 
// OUT: OUTPUT: 767
// ---- T-P2 missing barrier races at line 17
#include <stdio.h>
#include <cuda.h>
#define N 18
#define NBLOCKS 2
#define NTHREADS (N/NBLOCKS)
__global__ void sum(int* in, int* out) {
  extern __shared__ int shared[];
  int i, tid = threadIdx.x, bid = blockIdx.x, bdim = blockDim.x;
  shared[tid] = in[bid * bdim + tid];
  __syncthreads();
  if (tid < bdim/2) {
    shared[tid] += shared[bdim/2 + tid]; // NOTE "the other access: write by thread 1 of block 0"
  }
  // __syncthreads();
  if (tid == 0) {
    for (i=1; i != (bdim/2)+(bdim%2); ++i) {
      shared[0] += shared[i]; // ERROR C0501 col=20 "data race on shared memory shared \(byte 4\): read by thread 0 of block 0 \(kernel sum\) conflicts with an unordered write by thread 1 of block 0"
    }
    out[bid] = shared[0];
  }
}
int main(void) {
  int i, *dev_in, *dev_out, host[N];
  printf("INPUT: ");
  for(i = 0; i != N; ++i) {
    host[i] = (21*i + 29) % 100;
    printf(" %d ", host[i]);
  }
  printf("\n");
  cudaMalloc(&dev_in, N * sizeof(int));
  cudaMalloc(&dev_out, NBLOCKS * sizeof(int));
  cudaMemcpy(dev_in, host, N * sizeof(int), cudaMemcpyHostToDevice);
  sum<<<NBLOCKS, NTHREADS, NTHREADS * sizeof(int)>>>( dev_in, dev_out);
  sum<<<1, NBLOCKS, NBLOCKS * sizeof(int)>>>( dev_out, dev_out);
  cudaMemcpy(host, dev_out, sizeof(int), cudaMemcpyDeviceToHost);
  cudaDeviceSynchronize();
  printf("OUTPUT: %u\n", *host);
  cudaFree(dev_in);
  cudaFree(dev_out);
  return 0;
}
// OUT: INPUT:  29  50  71  92  13  34  55  76  97  18  39  60  81  2  23  44  65  86 
// OUT: OUTPUT: 767
// ---- T-P3 divergent barrier deadlocks
#include <stdio.h>
#include <cuda.h>
#define N 18
#define NBLOCKS 2
#define NTHREADS (N/NBLOCKS)
__global__ void sum(int* in, int* out) {
  extern __shared__ int shared[];
  int i, tid = threadIdx.x, bid = blockIdx.x, bdim = blockDim.x;
  shared[tid] = in[bid * bdim + tid];
  __syncthreads();
  if (tid < bdim/2) {
    __syncthreads(); // ERROR C0502 col=5 "barrier divergence in block 0 of kernel sum: threads wait at different __syncthreads\(\) calls" // NOTE "threads 0-3 wait at __syncthreads"
    shared[tid] += shared[bdim/2 + tid];
  }
  __syncthreads(); // NOTE "threads 4-8 wait at __syncthreads"
  if (tid == 0) {
    for (i=1; i != (bdim/2)+(bdim%2); ++i) {
      shared[0] += shared[i];
    }
    out[bid] = shared[0];
  }
}
int main(void) {
  int i, *dev_in, *dev_out, host[N];
  printf("INPUT: ");
  for(i = 0; i != N; ++i) {
    host[i] = (21*i + 29) % 100;
    printf(" %d ", host[i]);
  }
  printf("\n");
  cudaMalloc(&dev_in, N * sizeof(int));
  cudaMalloc(&dev_out, NBLOCKS * sizeof(int));
  cudaMemcpy(dev_in, host, N * sizeof(int), cudaMemcpyHostToDevice);
  sum<<<NBLOCKS, NTHREADS, NTHREADS * sizeof(int)>>>( dev_in, dev_out);
  sum<<<1, NBLOCKS, NBLOCKS * sizeof(int)>>>( dev_out, dev_out);
  cudaMemcpy(host, dev_out, sizeof(int), cudaMemcpyDeviceToHost);
  cudaDeviceSynchronize();
  printf("OUTPUT: %u\n", *host);
  cudaFree(dev_in);
  cudaFree(dev_out);
  return 0;
}
// OUT: INPUT:  29  50  71  92  13  34  55  76  97  18  39  60  81  2  23  44  65  86 
