// __syncwarp(mask) and the sync() of a tile of 16 or fewer threads order
// only the lanes of the mask or tile (CUDA C++ Programming Guide,
// "Synchronization Functions"; cudart.go).
// ---- two 16-thread tiles, each synchronizing: an exchange within a tile is ordered, one across tiles races
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *out, int across) {
  __shared__ int s[32];
  cg::thread_block_tile<16> t = cg::tiled_partition<16>(cg::this_thread_block());
  s[threadIdx.x] = threadIdx.x * 10; // NOTE col=3 "the other access: write by thread 16 of block 0 \(kernel k\)"
  t.sync();
  int j = across ? (threadIdx.x + 16) % 32 : (threadIdx.x ^ 1);
  out[threadIdx.x] = s[j]; // ERROR C0501 col=22 "data race on shared memory s \(byte 64\): read by thread 0 of block 0 \(kernel k\) conflicts with an unordered write by thread 16 of block 0 \(kernel k\)"
}
int main() {
  int *out;
  cudaMallocManaged(&out, 32 * sizeof(int));
  k<<<1, 32>>>(out, 0);
  cudaDeviceSynchronize();
  printf("%d %d\n", out[0], out[17]);
  k<<<1, 32>>>(out, 1);
  cudaDeviceSynchronize();
  return 0;
}
// OUT: 10 160
// ---- __syncwarp with the mask of the lower half warp orders the lower lanes only; the full mask orders all
#include <cstdio>
__global__ void k(int *out) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x; // NOTE col=3 "the other access: write by thread 0 of block 0 \(kernel k\)"
  if (threadIdx.x < 16) {
    __syncwarp(0x0000ffff);
    out[threadIdx.x] = s[15 - threadIdx.x]; // within the half: ordered
  } else {
    __syncwarp(0xffff0000);
    out[threadIdx.x] = s[(threadIdx.x + 16) % 32]; // ERROR C0501 col=24 "data race on shared memory s \(byte 0\): read by thread 16 of block 0 \(kernel k\) conflicts with an unordered write by thread 0 of block 0 \(kernel k\)"
  }
  __syncwarp();
  out[threadIdx.x] += s[31 - threadIdx.x];
}
int main() {
  int *out;
  cudaMallocManaged(&out, 32 * sizeof(int));
  k<<<1, 32>>>(out);
  cudaDeviceSynchronize();
  return 0;
}
