// ---- <mma.h>: a WMMA GEMM, one warp per 16x16 tile (half A row-major, B column-major, float accumulators), element-wise scaling of the accumulator fragment, checked against the host's product
#include <cstdio>
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;
// C = A (MxK row-major) * B (KxN col-major) with one warp per 16x16 tile
__global__ void gemm(const half *a, const half *b, float *c, int M, int N, int K) {
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int tm = warp / (N / 16), tn = warp % (N / 16);
  if (tm >= M / 16) return;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> af;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> bf;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += 16) {
    wmma::load_matrix_sync(af, a + tm * 16 * K + k, K);
    wmma::load_matrix_sync(bf, b + tn * 16 * K + k, K);
    wmma::mma_sync(acc, af, bf, acc);
  }
  for (int i = 0; i < acc.num_elements; i++) acc.x[i] *= 2.0f;
  wmma::store_matrix_sync(c + tm * 16 * N + tn * 16, acc, N, wmma::mem_row_major);
}
int main() {
  const int M = 32, N = 32, K = 48;
  half *a, *b; float *c;
  cudaMallocManaged(&a, M * K * sizeof(half));
  cudaMallocManaged(&b, K * N * sizeof(half));
  cudaMallocManaged(&c, M * N * sizeof(float));
  for (int i = 0; i < M * K; i++) a[i] = __float2half((float)((i * 7) % 11 - 5));
  for (int i = 0; i < K * N; i++) b[i] = __float2half((float)((i * 5) % 13 - 6) * 0.5f);
  gemm<<<1, 128>>>(a, b, c, M, N, K);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      float s = 0;
      for (int k = 0; k < K; k++) s += __half2float(a[m * K + k]) * __half2float(b[n * K + k]);
      if (c[m * N + n] != 2 * s) bad++;
    }
  printf("bad %d c[0]=%f c[%d]=%f\n", bad, c[0], M * N - 1, c[M * N - 1]);
  return 0;
}
// MODE: run
// OUT: bad 0 c[0]=-14.000000 c[1023]=-21.000000

// ---- <mma.h>: every shape and type of the Guide (half m16n16k16 / m32n8k16 / m8n32k16 with float and half accumulators, double m8n8k4, signed and unsigned char with int accumulators, __nv_bfloat16 m32n8k16), C loaded column-major: 0 wrong elements each; the mma.sync path (half, bf16 and tf32 with float accumulators in the shapes of m16n8k16 and m16n8k8) and the gathering path (the rest, including half A and B in the mma.sync layout with half accumulators)
#include <cstdio>
#include <mma.h>
using namespace nvcuda;
template <int M, int N, int K, class TI, class TA, class LA, class LB>
__global__ void tile(const TI *a, const TI *b, TA *c, TA *cin) {
  wmma::fragment<wmma::matrix_a, M, N, K, TI, LA> af;
  wmma::fragment<wmma::matrix_b, M, N, K, TI, LB> bf;
  wmma::fragment<wmma::accumulator, M, N, K, TA> acc;
  wmma::load_matrix_sync(acc, cin, M, wmma::mem_col_major);
  wmma::load_matrix_sync(af, a, K);
  wmma::load_matrix_sync(bf, b, N);
  wmma::mma_sync(acc, af, bf, acc);
  wmma::store_matrix_sync(c, acc, N, wmma::mem_row_major);
}
template <int M, int N, int K, class TI, class TA>
int run(float scale) {
  TI *a, *b; TA *c, *cin;
  cudaMallocManaged(&a, M * K * sizeof(TI));
  cudaMallocManaged(&b, K * N * sizeof(TI));
  cudaMallocManaged(&c, M * N * sizeof(TA));
  cudaMallocManaged(&cin, M * N * sizeof(TA));
  for (int i = 0; i < M * K; i++) a[i] = (TI)((i * 3) % 7 - 3);
  for (int i = 0; i < K * N; i++) b[i] = (TI)((i * 5) % 9 - 4);
  for (int i = 0; i < M * N; i++) cin[i] = (TA)(i % 4);
  tile<M, N, K, TI, TA, wmma::row_major, wmma::row_major><<<1, 32>>>(a, b, c, cin);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int m = 0; m < M; m++)
    for (int n = 0; n < N; n++) {
      double s = (double)cin[n * M + m];
      for (int k = 0; k < K; k++) s += (double)a[m * K + k] * (double)b[k * N + n];
      if ((double)c[m * N + n] != s) bad++;
    }
  return bad;
}
int main() {
  printf("%d %d %d\n", run<16, 16, 16, half, float>(1), run<32, 8, 16, half, float>(1), run<8, 32, 16, half, half>(1));
  printf("%d %d\n", run<8, 8, 4, double, double>(1), run<16, 16, 16, signed char, int>(1));
  printf("%d %d %d\n", run<32, 8, 16, unsigned char, int>(1), run<16, 16, 16, half, half>(1), run<32, 8, 16, __nv_bfloat16, float>(1));
  return 0;
}
// MODE: run
// OUT: 0 0 0
// OUT: 0 0
// OUT: 0 0 0

// ---- <mma.h>: precision::tf32 (m16n16k8): __float_to_tf32 rounds 1 + 2^-12 to 1 (cvt.rna), and a B element not converted counts by its top 19 bits (the mma.sync model)
#include <cstdio>
#include <mma.h>
using namespace nvcuda;
__global__ void k(const float *a, const float *b, float *c, int partial) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> af;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> bf;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(af, a, 8);
  wmma::load_matrix_sync(bf, b, 8);
  for (int t = 0; t < af.num_elements; t++) af.x[t] = wmma::__float_to_tf32(af.x[t]);
  if (!partial || threadIdx.x < 16)
    wmma::mma_sync(acc, af, bf, acc);
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}
int main(int argc, char **argv) {
  float *a, *b, *c;
  cudaMallocManaged(&a, 128 * sizeof(float));
  cudaMallocManaged(&b, 128 * sizeof(float));
  cudaMallocManaged(&c, 256 * sizeof(float));
  for (int i = 0; i < 128; i++) { a[i] = 1.0f + 1.0f / 4096 + i; b[i] = 1.0f + 1.0f / 4096; }
  k<<<1, 32>>>(a, b, c, 0);
  cudaDeviceSynchronize();
  printf("%.9g %.9g\n", c[0], c[255]);
  return 0;
}
// MODE: run
// OUT: 36 996

// ---- <mma.h>: two warps load one shared tile staged by warp 0 after __syncthreads: no race
#include <cstdio>
#include <mma.h>
using namespace nvcuda;
// two warps: warp 0 stages A's tile in shared memory, both warps load it
__global__ void k(const half *a, const half *b, float *c) {
  __shared__ half sa[256];
  int w = threadIdx.x / 32;
  if (w == 0)
    for (int i = threadIdx.x; i < 256; i += 32) sa[i] = a[i];
  __syncthreads(); // MUTANT
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> af;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> bf;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(af, sa, 16);
  wmma::load_matrix_sync(bf, b + w * 256, 16);
  wmma::mma_sync(acc, af, bf, acc);
  wmma::store_matrix_sync(c + w * 16, acc, 32, wmma::mem_row_major);
}
int main() {
  half *a, *b; float *c;
  cudaMallocManaged(&a, 256 * sizeof(half));
  cudaMallocManaged(&b, 512 * sizeof(half));
  cudaMallocManaged(&c, 512 * sizeof(float));
  for (int i = 0; i < 256; i++) a[i] = __float2half((float)(i % 7));
  for (int i = 0; i < 512; i++) b[i] = __float2half((float)(i % 5));
  k<<<1, 64>>>(a, b, c);
  cudaDeviceSynchronize();
  printf("%f %f\n", c[0], c[511]);
}
// MODE: run
// OUT: 79.000000 84.000000

// ---- <mma.h>: mma_sync is warp-synchronous: half a warp calling it waits forever (the Guide: all lanes must call it)
#include <cstdio>
#include <mma.h>
using namespace nvcuda;
__global__ void k(const float *a, const float *b, float *c, int partial) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> af;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> bf;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(af, a, 8);
  wmma::load_matrix_sync(bf, b, 8);
  for (int t = 0; t < af.num_elements; t++) af.x[t] = wmma::__float_to_tf32(af.x[t]);
  if (!partial || threadIdx.x < 16)
    wmma::mma_sync(acc, af, bf, acc); // ERROR C0503 col=5 "deadlock in block 0 of kernel k: no thread can move" // NOTE "threads 0-15 wait at mma.sync/ldmatrix \(inside the library's mma_sync"
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}
int main(int argc, char **argv) {
  float *a, *b, *c;
  cudaMallocManaged(&a, 128 * sizeof(float));
  cudaMallocManaged(&b, 128 * sizeof(float));
  cudaMallocManaged(&c, 256 * sizeof(float));
  for (int i = 0; i < 128; i++) { a[i] = 1.0f + 1.0f / 4096 + i; b[i] = 1.0f + 1.0f / 4096; }
  k<<<1, 32>>>(a, b, c, 1);
  cudaDeviceSynchronize();
  printf("%.9g %.9g\n", c[0], c[255]);
  return 0;
}
// MODE: run

// ---- <mma.h>: without the __syncthreads, warp 1's load_matrix_sync races with warp 0's staging writes; reported at the program's call
#include <cstdio>
#include <mma.h>
using namespace nvcuda;
// two warps: warp 0 stages A's tile in shared memory, both warps load it
__global__ void k(const half *a, const half *b, float *c) {
  __shared__ half sa[256];
  int w = threadIdx.x / 32;
  if (w == 0)
    for (int i = threadIdx.x; i < 256; i += 32) sa[i] = a[i];
  
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> af;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> bf;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(af, sa, 16); // ERROR C0501 col=3 "data race on shared memory sa \(byte 0\): read by thread 32 of block 0 \(kernel k\) conflicts with an unordered write by thread 0 of block 0 \(kernel k\) \(inside the library's load_matrix_sync"
  wmma::load_matrix_sync(bf, b + w * 256, 16);
  wmma::mma_sync(acc, af, bf, acc);
  wmma::store_matrix_sync(c + w * 16, acc, 32, wmma::mem_row_major);
}
int main() {
  half *a, *b; float *c;
  cudaMallocManaged(&a, 256 * sizeof(half));
  cudaMallocManaged(&b, 512 * sizeof(half));
  cudaMallocManaged(&c, 512 * sizeof(float));
  for (int i = 0; i < 256; i++) a[i] = __float2half((float)(i % 7));
  for (int i = 0; i < 512; i++) b[i] = __float2half((float)(i % 5));
  k<<<1, 64>>>(a, b, c);
  cudaDeviceSynchronize();
  printf("%f %f\n", c[0], c[511]);
}
// OUT: 79.000000 84.000000
