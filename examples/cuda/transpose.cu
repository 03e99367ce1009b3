// Matrix transpose through a shared tile padded by one column, so that the
// column reads of the tile fall in different banks.
#include <cstdio>
#define TILE_DIM 16
#define BLOCK_ROWS 4

__global__ void transposeCoalesced(float *odata, const float *idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  const int W = 32, H = 48;
  static float in[W * H], out[W * H];
  for (int i = 0; i < W * H; i++) in[i] = (float)i;
  float *din, *dout;
  cudaMalloc(&din, sizeof(in));
  cudaMalloc(&dout, sizeof(out));
  cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice);
  dim3 grid(W / TILE_DIM, H / TILE_DIM), block(TILE_DIM, BLOCK_ROWS);
  transposeCoalesced<<<grid, block>>>(dout, din, W, H);
  cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int r = 0; r < H; r++)
    for (int c = 0; c < W; c++)
      if (out[c * H + r] != in[r * W + c]) bad++;
  printf("%dx%d -> %dx%d, out[1]=%g out[%d]=%g\n", H, W, W, H, out[1], W * H - 1, out[W * H - 1]);
  printf("%s\n", bad ? "FAILED" : "PASSED");
  return 0;
}
