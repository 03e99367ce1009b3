// A tensor-core GEMM as CUDA programmers write one on Ampere and Hopper:
// C = A B with half A (row-major) and B (column-major), float C. Each
// block of four warps computes a 32 x 32 tile of C; each warp one 16 x 16
// quarter with WMMA fragments. The K loop stages 32-wide slices of A and
// B in shared memory through a two-stage cuda::pipeline (cp.async), so
// the next slice is in flight while the current one is multiplied.
// weft run computes it on the CPU; weft check also proves it free of
// races (on the ring's shared buffers among them) and deadlocks.
#include <cstdio>
#include <cmath>
#include <mma.h>
#include <cuda/pipeline>
#include <cuda_fp16.h>
using namespace nvcuda;

constexpr int TILE = 32, KS = 32, STAGES = 2;

__global__ void gemm(const half *A, const half *B, float *C, int M, int N, int K) {
  __shared__ alignas(16) half As[STAGES][TILE][KS]; // rows of A
  __shared__ alignas(16) half Bs[STAGES][TILE][KS]; // columns of B
  int warp = threadIdx.x / 32, wm = warp / 2, wn = warp % 2;
  int row0 = blockIdx.y * TILE, col0 = blockIdx.x * TILE;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  // each of the 128 threads copies 16 bytes (8 halves) of A and of B per slice
  int r = threadIdx.x / 4, c8 = threadIdx.x % 4 * 8;
  auto load = [&](int s, int k0) {
    pipe.producer_acquire();
    cuda::memcpy_async(&As[s][r][c8], &A[(row0 + r) * K + k0 + c8], cuda::aligned_size_t<16>(16), pipe);
    cuda::memcpy_async(&Bs[s][r][c8], &B[(col0 + r) * K + k0 + c8], cuda::aligned_size_t<16>(16), pipe);
    pipe.producer_commit();
  };
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  int nk = K / KS;
  load(0, 0);
  for (int i = 0; i < nk; i++) {
    if (i + 1 < nk) load((i + 1) % STAGES, (i + 1) * KS);
    pipe.consumer_wait(); // this thread's copies of slice i have landed
    __syncthreads();      // and every other thread's
    int s = i % STAGES;
    for (int kk = 0; kk < KS; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
      wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
      wmma::load_matrix_sync(a, &As[s][wm * 16][kk], KS);
      wmma::load_matrix_sync(b, &Bs[s][wn * 16][kk], KS);
      wmma::mma_sync(acc, a, b, acc);
    }
    pipe.consumer_release();
    __syncthreads(); // slice i's buffer is reloaded two iterations on
  }
  wmma::store_matrix_sync(&C[(row0 + wm * 16) * N + col0 + wn * 16], acc, N, wmma::mem_row_major);
}

int main() {
  const int M = 64, N = 64, K = 128;
  half *A, *B;
  float *C;
  cudaMallocManaged(&A, M * K * sizeof(half));
  cudaMallocManaged(&B, N * K * sizeof(half));
  cudaMallocManaged(&C, M * N * sizeof(float));
  for (int i = 0; i < M * K; i++) A[i] = __float2half((float)((i * 7) % 13 - 6) / 4);
  for (int i = 0; i < N * K; i++) B[i] = __float2half((float)((i * 5) % 11 - 5) / 8);
  gemm<<<dim3(N / TILE, M / TILE), 128>>>(A, B, C, M, N, K);
  cudaDeviceSynchronize();
  double maxerr = 0, sum = 0;
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      double ref = 0;
      for (int k = 0; k < K; k++) ref += (double)__half2float(A[m * K + k]) * __half2float(B[n * K + k]);
      maxerr = fmax(maxerr, fabs(ref - C[m * N + n]));
      sum += C[m * N + n];
    }
  printf("C[0][0] = %.4f, C[%d][%d] = %.4f, sum = %.4f\n", C[0], M - 1, N - 1, C[M * N - 1], sum);
  printf("max |error| against the host's product: %g\n", maxerr);
  printf(maxerr < 1e-3 ? "PASSED\n" : "FAILED\n");
  return 0;
}
