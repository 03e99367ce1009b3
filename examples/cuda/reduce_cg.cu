// Block reduction with cooperative groups: each warp-sized tile reduces
// with shfl_down, tile leaders combine through shared memory after a
// block-wide sync, and cg::reduce checks the result.
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h> // cg::reduce
namespace cg = cooperative_groups;

__device__ int tileSum(cg::thread_block_tile<32> tile, int v) {
  for (int offset = tile.size() / 2; offset > 0; offset /= 2)
    v += tile.shfl_down(v, offset);
  return v; // lane 0 holds the tile's sum
}

__global__ void reduceBlocks(const int *in, int *blockSums, int *check, int n) {
  __shared__ int partial[32];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  unsigned i = blockIdx.x * block.size() + block.thread_rank();
  int v = i < n ? in[i] : 0;
  int s = tileSum(tile, v);
  if (tile.thread_rank() == 0) partial[tile.meta_group_rank()] = s;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    int w = tile.thread_rank() < tile.meta_group_size() ? partial[tile.thread_rank()] : 0;
    int total = cg::reduce(tile, w, cg::plus<int>());
    if (tile.thread_rank() == 0) blockSums[blockIdx.x] = total;
  }
  // every lane of a tile gets the same maximum
  int m = cg::reduce(tile, v, cg::greater<int>());
  if (tile.thread_rank() == 0) atomicMax(check, m);
}

int main() {
  const int n = 1000, threads = 128, blocks = (n + threads - 1) / threads;
  int h[n];
  long long ref = 0;
  for (int i = 0; i < n; i++) {
    h[i] = (i * 37) % 101 - 50;
    ref += h[i];
  }
  int *d, *dsum, *dmax;
  cudaMalloc(&d, n * sizeof(int));
  cudaMalloc(&dsum, blocks * sizeof(int));
  cudaMalloc(&dmax, sizeof(int));
  cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(dmax, 0x80, sizeof(int)); // a very negative start
  reduceBlocks<<<blocks, threads>>>(d, dsum, dmax, n);
  int sums[blocks], mx;
  cudaMemcpy(sums, dsum, sizeof(sums), cudaMemcpyDeviceToHost);
  cudaMemcpy(&mx, dmax, sizeof(int), cudaMemcpyDeviceToHost);
  long long total = 0;
  for (int b = 0; b < blocks; b++) {
    printf("block %d: %d\n", b, sums[b]);
    total += sums[b];
  }
  printf("sum = %lld (expected %lld), max = %d\n", total, ref, mx);
  return total != ref;
}
