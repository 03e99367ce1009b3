// A benchmark workload (not a test case): compute-bound kernels of the kind
// the samples had to shrink (issue 15 item 7): a shared-memory tiled matrix
// multiply of two 96x96 float matrices and a per-thread integer hash loop.
#include <stdio.h>
#define N 96
#define TILE 16
__global__ void matmul(const float *a, const float *b, float *c) {
  __shared__ float ta[TILE][TILE], tb[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < N; k0 += TILE) {
    ta[threadIdx.y][threadIdx.x] = a[row * N + k0 + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; k++) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  c[row * N + col] = acc;
}
__global__ void hash(unsigned *out, int iters) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x, h = i * 2654435761u;
  for (int k = 0; k < iters; k++) {
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h += (unsigned)k;
  }
  out[i] = h;
}
int main() {
  static float ha[N * N], hb[N * N], hc[N * N];
  for (int i = 0; i < N * N; i++) {
    ha[i] = (float)(i % 17) * 0.25f;
    hb[i] = (float)(i % 13) * 0.5f;
  }
  float *a, *b, *c;
  unsigned *o, ho[256];
  cudaMalloc(&a, sizeof ha);
  cudaMalloc(&b, sizeof hb);
  cudaMalloc(&c, sizeof hc);
  cudaMalloc(&o, sizeof ho);
  cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice);
  dim3 grid(N / TILE, N / TILE), block(TILE, TILE);
  matmul<<<grid, block>>>(a, b, c);
  hash<<<2, 128>>>(o, 2000);
  cudaMemcpy(hc, c, sizeof hc, cudaMemcpyDeviceToHost);
  cudaMemcpy(ho, o, sizeof ho, cudaMemcpyDeviceToHost);
  printf("%g %g %u\n", hc[0], hc[N * N - 1], ho[255]);
  return 0;
}
