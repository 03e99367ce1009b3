// ---- cgcoal: coalesced_threads in a divergent branch: rank, size, shfl from rank 0, ballot in rank order, any/all
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *out) {
  int lane = threadIdx.x;
  if (lane % 3 == 0) {
    cg::coalesced_group g = cg::coalesced_threads();
    int leader = g.shfl(lane * 10, 0);
    unsigned votes = g.ballot(lane >= 15);
    out[lane] = g.thread_rank() * 1000000 + g.size() * 10000 + leader * 100 + (int)(votes & 0xff);
    int a = g.any(lane == 30) * 10 + g.all(lane < 40);
    if (g.thread_rank() == 0) out[32] = a;
  } else {
    out[lane] = -1;
  }
}
int main() {
  int *d, h[33];
  cudaMalloc(&d, sizeof h);
  k<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d %d %d\n", h[0], h[3], h[30], h[1], h[32]);
  return 0;
}
// OUT: 110224 1110224 10110224 -1 11
// ---- cgcoal: binary_partition and labeled_partition of a tile; reduce and scans over the parts and over the tile
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;
__global__ void k(int *out, float *fo) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  int v = tile.thread_rank() + 1;
  cg::coalesced_group odd = cg::binary_partition(tile, v % 2);
  int s = cg::reduce(odd, v, cg::plus<int>());
  int inc = cg::inclusive_scan(odd, v, cg::plus<int>());
  int exc = cg::exclusive_scan(odd, v, cg::plus<int>());
  cg::coalesced_group byFour = cg::labeled_partition(tile, v % 4);
  int mx = cg::reduce(byFour, v, cg::greater<int>());
  int mn = cg::exclusive_scan(byFour, v, cg::less<int>());
  unsigned x = cg::inclusive_scan(tile, 1u << (v % 8), cg::bit_or<unsigned>());
  float f = cg::inclusive_scan(tile, 0.5f, cg::plus<float>());
  out[tile.thread_rank() * 7 + 0] = s;
  out[tile.thread_rank() * 7 + 1] = inc;
  out[tile.thread_rank() * 7 + 2] = exc;
  out[tile.thread_rank() * 7 + 3] = mx;
  out[tile.thread_rank() * 7 + 4] = mn;
  out[tile.thread_rank() * 7 + 5] = (int)x;
  out[tile.thread_rank() * 7 + 6] = odd.size() * 100 + byFour.thread_rank();
  fo[tile.thread_rank()] = f;
}
int main() {
  int *d, h[32 * 7];
  float *fd, fh[32];
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&fd, sizeof fh);
  k<<<1, 32>>>(d, fd);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(fh, fd, sizeof fh, cudaMemcpyDeviceToHost);
  for (int r = 0; r < 4; r++) {
    for (int j = 0; j < 7; j++) printf("%d ", h[r * 7 + j]);
    printf("\n");
  }
  printf("%d %d %d %g %g\n", h[31 * 7], h[31 * 7 + 1], h[31 * 7 + 3], fh[0], fh[31]);
  return 0;
}
// OUT: 256 1 0 29 0 2 1600 
// OUT: 272 2 0 30 0 6 1600 
// OUT: 256 4 1 31 0 14 1600 
// OUT: 272 6 2 32 0 30 1600 
// OUT: 272 272 32 0.5 16
// ---- cgcoal: coalesced_group::shfl from a rank beyond the group is undefined (C0630)
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *out) {
  if (threadIdx.x < 4) {
    cg::coalesced_group g = cg::coalesced_threads();
    out[threadIdx.x] = g.shfl((int)threadIdx.x, 4); // ERROR C0630 "coalesced_group::shfl from rank 4 of a group of 4 threads \(mask 0x0000000f\): undefined"
  }
}
int main() {
  int *d;
  cudaMalloc(&d, 4 * sizeof(int));
  k<<<1, 32>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
// ---- cgcoal: group member calls outside the model or with the wrong argument count are positioned diagnostics, for thread groups and coalesced groups alike
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *out) {
  cg::thread_block b = cg::this_thread_block();
  cg::coalesced_group g = cg::coalesced_threads();
  out[0] = g.shfl(1); // ERROR C0304 col=14 "shfl takes 2 arguments, 1 given"
  out[1] = g.match_any(3); // ERROR C0309 col=14 "coalesced_group::match_any is not modeled"
  out[2] = b.thread_rank(5); // ERROR C0304 col=14 "thread_rank takes 0 arguments, 1 given"
}
int main() { return 0; }
