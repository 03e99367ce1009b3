// Block reduction with warp shuffles, the pattern of CUB's WarpReduce:
// each warp reduces in registers, lane 0 of each warp writes a partial sum
// to shared memory, and the first warp reduces the partials.
#include <stdio.h>
#define THREADS 256
#define BLOCKS 4

__inline__ __device__ int warpReduce(int v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void reduce(const int *in, int *out) {
  __shared__ int partial[THREADS / 32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % warpSize, warp = threadIdx.x / warpSize;
  int v = warpReduce(in[i]);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < blockDim.x / warpSize ? partial[lane] : 0;
    v = warpReduce(v);
    if (lane == 0) atomicAdd(out, v);
  }
}

int main(void) {
  int h[THREADS * BLOCKS], sum = 0, expect = 0, *d, *dsum;
  for (int i = 0; i < THREADS * BLOCKS; i++) {
    h[i] = (i * 37) % 101 - 50;
    expect += h[i];
  }
  cudaMalloc(&d, sizeof(h));
  cudaMalloc(&dsum, sizeof(int));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaMemcpy(dsum, &sum, sizeof(int), cudaMemcpyHostToDevice);
  reduce<<<BLOCKS, THREADS>>>(d, dsum);
  cudaMemcpy(&sum, dsum, sizeof(int), cudaMemcpyDeviceToHost);
  printf("sum %d, expected %d\n", sum, expect);
  return 0;
}
