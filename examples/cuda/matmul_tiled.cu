// Tiled matrix multiplication C = A * B with shared-memory tiles; the tile
// size is a template parameter, as in the classic CUDA sample.
#include <cstdio>
#include <cstdlib>
#include <cmath>

template <int BLOCK_SIZE>
__global__ void matrixMulCUDA(float *__restrict__ C, const float *__restrict__ A,
                              const float *__restrict__ B, int wA, int wB) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int aBegin = wA * BLOCK_SIZE * by;
  int aEnd = aBegin + wA - 1;
  int aStep = BLOCK_SIZE;
  int bBegin = BLOCK_SIZE * bx;
  int bStep = BLOCK_SIZE * wB;
  float Csub = 0;
  for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
    __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
    __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
    As[ty][tx] = A[a + wA * ty + tx];
    Bs[ty][tx] = B[b + wB * ty + tx];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BLOCK_SIZE; ++k) Csub += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
  C[c + wB * ty + tx] = Csub;
}

int main() {
  const int block = 8;
  const int hA = 2 * block, wA = 3 * block, wB = 2 * block; // A: 16x24, B: 24x16
  float *A = (float *)malloc(hA * wA * sizeof(float));
  float *B = (float *)malloc(wA * wB * sizeof(float));
  float *C = (float *)malloc(hA * wB * sizeof(float));
  for (int i = 0; i < hA * wA; i++) A[i] = (float)(i % 7) - 3.0f;
  for (int i = 0; i < wA * wB; i++) B[i] = 0.5f * (float)(i % 5);
  float *dA, *dB, *dC;
  cudaMalloc(&dA, hA * wA * sizeof(float));
  cudaMalloc(&dB, wA * wB * sizeof(float));
  cudaMalloc(&dC, hA * wB * sizeof(float));
  cudaMemcpy(dA, A, hA * wA * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B, wA * wB * sizeof(float), cudaMemcpyHostToDevice);
  dim3 threads(block, block);
  dim3 grid(wB / threads.x, hA / threads.y);
  printf("MatrixA(%d,%d), MatrixB(%d,%d), grid %ux%u, block %ux%u\n", wA, hA, wB, wA, grid.x, grid.y, threads.x, threads.y);
  matrixMulCUDA<block><<<grid, threads>>>(dC, dA, dB, wA, wB);
  cudaDeviceSynchronize();
  cudaMemcpy(C, dC, hA * wB * sizeof(float), cudaMemcpyDeviceToHost);
  int errors = 0;
  double checksum = 0;
  for (int i = 0; i < hA; i++)
    for (int j = 0; j < wB; j++) {
      float ref = 0;
      for (int k = 0; k < wA; k++) ref += A[i * wA + k] * B[k * wB + j];
      if (fabsf(ref - C[i * wB + j]) > 1e-4f) errors++;
      checksum += C[i * wB + j];
    }
  printf("C[0][0]=%.2f C[15][15]=%.2f checksum=%.2f\n", C[0], C[hA * wB - 1], checksum);
  printf("Result = %s\n", errors ? "FAIL" : "PASS");
  cudaFree(dA); cudaFree(dB); cudaFree(dC);
  free(A); free(B); free(C);
  return errors != 0;
}
