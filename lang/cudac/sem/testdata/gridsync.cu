// ---- grid.sync orders the writes of every block before the reads after it
#include <stdio.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *buf, int *out) {
  cg::grid_group grid = cg::this_grid();
  int i = grid.thread_rank();
  buf[i] = i * i;
  grid.sync();
  out[i] = buf[(i + 32) % grid.size()] + grid.num_blocks();
  grid.sync();
  buf[i] = 0;
}
int main() {
  int *b, *o, h[128];
  cudaMalloc(&b, sizeof h);
  cudaMalloc(&o, sizeof h);
  void *args[] = {&b, &o};
  cudaLaunchCooperativeKernel((const void *)k, dim3(4), dim3(32), args);
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d\n", h[0], h[95], h[127]);
  return 0;
}
// OUT: 1028 16133 965
// ---- without grid.sync, another block's write is a race
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *buf, int *out) {
  cg::grid_group grid = cg::this_grid();
  int i = grid.thread_rank();
  buf[i] = i; // ERROR C0501 col=3 "global memory \(byte 128\): write by thread 0 of block 1 \(kernel k\) conflicts with an unordered read by thread 0 of block 0"
  out[i] = buf[(i + 32) % 64]; // NOTE "the other access: read by thread 0 of block 0" // WARN C0407 col=12 "read of uninitialized global memory"
}
int main() {
  int *b, *o;
  cudaMalloc(&b, 256);
  cudaMalloc(&o, 256);
  k<<<2, 32>>>(b, o);
  cudaDeviceSynchronize();
  return 0;
}
// ---- a block that returns before grid.sync deadlocks the others
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *buf) {
  if (blockIdx.x == 1) return;
  buf[blockIdx.x * 32 + threadIdx.x] = 1;
  cg::this_grid().sync(); // ERROR C0502 col=19 "deadlock in kernel k: blocks \[0 2\] wait at grid.sync\(\) while 1 blocks finished without reaching it" // NOTE "block 0 waits here"
}
int main() {
  int *b;
  cudaMalloc(&b, 384);
  void *args[] = {&b};
  cudaLaunchCooperativeKernel((const void *)k, dim3(3), dim3(32), args);
  cudaDeviceSynchronize();
  return 0;
}
// ---- grid.sync needs a cooperative launch
#include <cooperative_groups.h>
__global__ void k() {
  cooperative_groups::this_grid().sync(); // ERROR C0607 col=35 "grid.sync\(\) in kernel k, which was not launched with cudaLaunchCooperativeKernel"
}
int main() {
  k<<<2, 32>>>();
  cudaDeviceSynchronize();
  return 0;
}
