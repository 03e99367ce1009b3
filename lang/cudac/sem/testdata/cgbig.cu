// ---- cgbig: block_tile_memory, this_thread_block(scratch), tiles of 64 and 128 threads: reduce (plus, greater), meta groups, sync; a tile's shfl of a uint4 and of a struct
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
template <int Block, int Tile>
__global__ void tileSum(const int *in, int *out) {
  __shared__ cg::block_tile_memory<Block> scratch;
  __shared__ int partial[Block / Tile];
  cg::thread_block cta = cg::this_thread_block(scratch);
  auto tile = cg::tiled_partition<Tile>(cta);
  int v = in[blockIdx.x * Block + threadIdx.x];
  int s = cg::reduce(tile, v, cg::plus<int>());
  int hi = cg::reduce(tile, v, cg::greater<int>());
  if (tile.thread_rank() == 0) partial[tile.meta_group_rank()] = s;
  tile.sync();
  cg::sync(cta);
  if (threadIdx.x == 0) {
    int t = 0;
    for (int i = 0; i < (int)tile.meta_group_size(); i++) t += partial[i];
    out[blockIdx.x * 2] = t;
    out[blockIdx.x * 2 + 1] = hi;
  }
}
struct Pair { float a; int b; };
__global__ void vecShfl(uint4 *u, Pair *p) {
  cg::thread_block_tile<8> t8 = cg::tiled_partition<8>(cg::this_thread_block());
  uint4 x = make_uint4(threadIdx.x, threadIdx.x * 10, threadIdx.x * 100, 7);
  uint4 y = t8.shfl_xor(x, 1);
  uint4 z = t8.shfl(x, 3);
  u[threadIdx.x] = make_uint4(y.x, y.y, z.z, z.w);
  Pair q = {threadIdx.x * 0.5f, (int)threadIdx.x};
  p[threadIdx.x] = t8.shfl_down(q, 1);
}
int main() {
  const int blocks = 2, n = blocks * 256;
  int *in, *out;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&out, 2 * blocks * sizeof(int));
  for (int i = 0; i < n; i++) in[i] = (i * 7) % 101;
  tileSum<256, 128><<<blocks, 256>>>(in, out);
  cudaDeviceSynchronize();
  for (int b = 0; b < blocks; b++) printf("block %d: sum %d max-of-last-tile %d\n", b, out[2 * b], out[2 * b + 1]);
  tileSum<256, 64><<<blocks, 256>>>(in, out);
  cudaDeviceSynchronize();
  for (int b = 0; b < blocks; b++) printf("block %d: sum %d max-of-last-tile %d\n", b, out[2 * b], out[2 * b + 1]);
  uint4 *u;
  Pair *p;
  cudaMallocManaged(&u, 16 * sizeof(uint4));
  cudaMallocManaged(&p, 16 * sizeof(Pair));
  vecShfl<<<1, 16>>>(u, p);
  cudaDeviceSynchronize();
  for (int i = 0; i < 16; i += 5) printf("%d: %u %u %u %u | %.1f %d\n", i, u[i].x, u[i].y, u[i].z, u[i].w, p[i].a, p[i].b);
  return 0;
}
// OUT: block 0: sum 12643 max-of-last-tile 100
// OUT: block 1: sum 12754 max-of-last-tile 100
// OUT: block 0: sum 12643 max-of-last-tile 99
// OUT: block 1: sum 12754 max-of-last-tile 100
// OUT: 0: 1 10 300 7 | 0.5 1
// OUT: 5: 4 40 300 7 | 3.0 6
// OUT: 10: 11 110 1100 7 | 5.5 11
// OUT: 15: 14 140 1100 7 | 7.5 15
// ---- cgbig: a tile's sync orders the accesses of its own threads only
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void mirror(int *d) {
  __shared__ int s[128];
  auto t = cg::tiled_partition<64>(cg::this_thread_block());
  s[threadIdx.x] = threadIdx.x;
  t.sync();
  int own = s[t.meta_group_rank() * 64 + 63 - t.thread_rank()];
  d[threadIdx.x] = own + s[127 - threadIdx.x]; // ERROR C0501 col=26 "data race on shared memory s \(byte 508\): read by thread 0 of block 0 \(kernel mirror\) conflicts with an unordered write by thread 127 of block 0 \(kernel mirror\)"
}
int main() {
  int *d;
  cudaMalloc(&d, 128 * sizeof(int));
  mirror<<<1, 128>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
// ---- cgbig: a tile larger than a warp whose threads do not all reach sync() deadlocks
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void partial(int *d) {
  auto t = cg::tiled_partition<64>(cg::this_thread_block());
  if (threadIdx.x < 100) t.sync(); // ERROR C0502 col=28 "^deadlock in block 0 of kernel partial: a barrier or mbarrier phase that threads wait for can never complete \(threads 0-63, 100-127 exited\)$"
  d[threadIdx.x] = 1;
}
int main() {
  int *d;
  cudaMalloc(&d, 128 * sizeof(int));
  partial<<<1, 128>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
// ---- cgbig: the warp collectives of a tile larger than a warp do not exist; tile sizes are powers of two
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void collective(int *d) {
  auto t = cg::tiled_partition<128>(cg::this_thread_block());
  d[threadIdx.x] = t.shfl(d[threadIdx.x], 0); // ERROR C0306 col=22 "no member function shfl in cooperative_groups::thread_block_tile<128>: CUDA's warp collectives are members of tiles of at most 32 threads"
}
__global__ void odd() {
  auto t = cg::tiled_partition<48>(cg::this_thread_block()); // ERROR C0309 col=12 "thread_block_tile<48>: the tile sizes are powers of two up to 1024"
}
int main() { return 0; }
// ---- cgbig: the sync of a tile of 16 orders its lanes' shared accesses; reading past the tile needs more
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void rotate(int *d) {
  __shared__ int s[64];
  cg::thread_block_tile<16> t = cg::tiled_partition<16>(cg::this_thread_block());
  s[threadIdx.x] = threadIdx.x * 3;
  t.sync();
  int base = t.meta_group_rank() * 16;
  d[threadIdx.x] = s[base + (t.thread_rank() + 1) % 16];
  cg::sync(cg::this_thread_block());
  d[threadIdx.x] += s[(threadIdx.x + 16) % 64];
}
__global__ void across(int *d) {
  __shared__ int s[64];
  auto t = cg::tiled_partition<16>(cg::this_thread_block());
  s[threadIdx.x] = threadIdx.x;
  t.sync();
  d[threadIdx.x] = s[(threadIdx.x + 16) % 64]; // ERROR C0501 col=20 "data race on shared memory s \(byte 64\): read by thread 0 of block 0 \(kernel across\) conflicts with an unordered write by thread 16 of block 0 \(kernel across\)"
}
int main() {
  int *d;
  cudaMallocManaged(&d, 64 * sizeof(int));
  rotate<<<1, 64>>>(d);
  cudaDeviceSynchronize();
  printf("%d %d %d\n", d[0], d[15], d[63]);
  across<<<1, 64>>>(d);
  cudaDeviceSynchronize();
  return 0;
}
// OUT: 51 93 189
