// A benchmark workload (not a test case) of the character of the samples
// that hit the step limit with the lowest rate under weft check (issue 15
// item 7): a gray-code low-discrepancy generator. Each block stages one
// dimension's 32 direction words in shared memory; each thread seeds its
// first point with a bit loop (mask, and, xor, shift) and then walks its
// points with a stride, one shared read, a find-first-set and a global
// float store per point. As in the sample, the grid is wide (256 x DIMS
// blocks of 64 threads) and each thread makes few points, so the block
// start, the barrier and the seeding loop weigh as much as the walk.
#include <stdio.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define DIMS 8
#define POINTS 24000
#define BITS 32
#define THREADS 64

__global__ void gray(const unsigned *dir, float *out, unsigned npoints) {
  cg::thread_block blk = cg::this_thread_block();
  __shared__ unsigned w[BITS];
  unsigned d = blockIdx.y;
  if (threadIdx.x < BITS) w[threadIdx.x] = dir[d * BITS + threadIdx.x];
  cg::sync(blk);
  int first = blockIdx.x * blockDim.x + threadIdx.x;
  int step = gridDim.x * blockDim.x;
  unsigned code = first ^ (first >> 1), x = 0;
  for (int b = 0; b < __ffs(step) - 1; b++) {
    x ^= (0u - (code & 1u)) & w[b];
    code >>= 1;
  }
  float *row = out + (size_t)d * npoints;
  if (first < npoints) row[first] = (float)x * (1.0f / 4294967296.0f);
  unsigned top = w[__ffs(step) - 2], low = step - 1;
  for (unsigned p = first + step; p < npoints; p += step) {
    x ^= top ^ w[__ffs(~((p - step) | low)) - 1];
    row[p] = (float)x * (1.0f / 4294967296.0f);
  }
}

int main() {
  static unsigned hdir[DIMS * BITS];
  static float hout[DIMS * POINTS];
  // direction words: dimension 0 is the van der Corput sequence, the others
  // mix in a per-dimension odd multiplier (any odd words give a valid
  // gray-code walk; the benchmark measures the interpreter, not the quality)
  for (int d = 0; d < DIMS; d++)
    for (int b = 0; b < BITS; b++) {
      unsigned v = 1u << (31 - b);
      if (d > 0) v ^= (v >> 1) * (unsigned)(2 * d + 1);
      hdir[d * BITS + b] = v;
    }
  unsigned *dir;
  float *out;
  cudaMalloc(&dir, sizeof hdir);
  cudaMalloc(&out, sizeof hout);
  cudaMemcpy(dir, hdir, sizeof hdir, cudaMemcpyHostToDevice);
  dim3 grid(256, DIMS);
  gray<<<grid, THREADS>>>(dir, out, POINTS);
  cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < DIMS * POINTS; i++) sum += hout[i];
  printf("%.6f %.6f %.6f\n", hout[1], hout[POINTS + 3], sum / (DIMS * POINTS));
  return 0;
}
