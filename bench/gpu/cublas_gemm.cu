// cublas_gemm: the cuBLAS baseline of bench/gpu/run.sh. It times one GEMM
// with the shapes and layouts of our kernels:
//
//   nn   f32, row-major C (M x N) = A (M x K) B (K x N)
//        (fig6_tf32, b2_sgemm, xgemm_sm80)
//   nt   f32, row-major C (M x N) = A (M x K) B^T, B (N x K) row-major
//        (xgemm_sm90)
//   hgemm bf16 in, f32 compute, bf16 out: column-major C (M x N) = A B^T,
//        A (M x K) and B (N x K) row-major, i.e. K-major (b5_hgemm)
//
// MATH is tf32 (cublasSgemm under CUBLAS_TF32_TENSOR_OP_MATH, tensor
// cores), fp32 (cublasSgemm under CUBLAS_PEDANTIC_MATH: no tensor cores) or,
// for hgemm, bf16 (cublasGemmEx, CUBLAS_COMPUTE_32F). cuBLAS is
// column-major: a row-major product C = op(A) op(B) is computed as
// C^T = op(B)^T op(A)^T with the operands swapped.
//
// usage: cublas_gemm nn|nt|hgemm tf32|fp32|bf16 M N K [REPS]
// Prints: cublas LAYOUT MATH MxNxK: T ms, X TFLOP/s   (the mean of REPS
// launches, default 20, timed with CUDA events after 3 warm-up launches;
// the inputs hold small integers so no run is slowed by denormals).
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CUDA_OK(x)                                                                                 \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      fprintf(stderr, "cublas_gemm: %s: %s\n", #x, cudaGetErrorString(e_));                        \
      exit(e_ == cudaErrorNoDevice || e_ == cudaErrorInsufficientDriver ? 3 : 1);                  \
    }                                                                                              \
  } while (0)
#define CUBLAS_OK(x)                                                                               \
  do {                                                                                             \
    cublasStatus_t s_ = (x);                                                                       \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                                             \
      fprintf(stderr, "cublas_gemm: %s: status %d\n", #x, (int)s_);                                \
      exit(1);                                                                                     \
    }                                                                                              \
  } while (0)

int main(int argc, char** argv) {
  if (argc < 6) {
    fprintf(stderr, "usage: %s nn|nt|hgemm tf32|fp32|bf16 M N K [REPS]\n", argv[0]);
    return 2;
  }
  const char* layout = argv[1];
  const char* math = argv[2];
  const long long M = atoll(argv[3]), N = atoll(argv[4]), K = atoll(argv[5]);
  const int reps = argc > 6 ? atoi(argv[6]) : 20;
  const bool hgemm = strcmp(layout, "hgemm") == 0;
  if ((!hgemm && strcmp(layout, "nn") && strcmp(layout, "nt")) || M <= 0 || N <= 0 || K <= 0 || reps <= 0 ||
      (hgemm != (strcmp(math, "bf16") == 0)) || (!hgemm && strcmp(math, "tf32") && strcmp(math, "fp32"))) {
    fprintf(stderr, "cublas_gemm: want nn|nt tf32|fp32 or hgemm bf16, positive sizes and REPS\n");
    return 2;
  }
  int ndev = 0;
  if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
    fprintf(stderr, "cublas_gemm: no CUDA device\n");
    return 3;
  }
  const size_t es = hgemm ? sizeof(__nv_bfloat16) : sizeof(float);
  void *dA, *dB, *dC;
  CUDA_OK(cudaMalloc(&dA, es * M * K));
  CUDA_OK(cudaMalloc(&dB, es * N * K));
  CUDA_OK(cudaMalloc(&dC, es * M * N));
  // Inputs: i % 7 - 3 and i % 5 - 2 (exact in bf16 and tf32).
  {
    std::vector<char> h(es * (M * K > N * K ? M * K : N * K));
    for (int which = 0; which < 2; which++) {
      const long long n = which == 0 ? M * K : N * K;
      for (long long i = 0; i < n; i++) {
        const float v = which == 0 ? (float)(i % 7 - 3) : (float)(i % 5 - 2);
        if (hgemm) ((__nv_bfloat16*)h.data())[i] = __float2bfloat16(v);
        else ((float*)h.data())[i] = v;
      }
      CUDA_OK(cudaMemcpy(which == 0 ? dA : dB, h.data(), es * n, cudaMemcpyHostToDevice));
    }
    CUDA_OK(cudaMemset(dC, 0, es * M * N));
  }
  cublasHandle_t handle;
  CUBLAS_OK(cublasCreate(&handle));
  if (!hgemm) CUBLAS_OK(cublasSetMathMode(handle, strcmp(math, "tf32") == 0 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_PEDANTIC_MATH));
  const float alpha = 1.0f, beta = 0.0f;
  auto gemm = [&]() {
    if (hgemm) {
      // Column-major C (M x N) = A B^T: A is K x M column-major (op T),
      // B is K x N column-major (op N).
      CUBLAS_OK(cublasGemmEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, (int)M, (int)N, (int)K, &alpha, dA, CUDA_R_16BF, (int)K, dB,
                             CUDA_R_16BF, (int)K, &beta, dC, CUDA_R_16BF, (int)M, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    } else if (strcmp(layout, "nn") == 0) {
      // Row-major C = A B as column-major C^T (N x M) = B^T A^T: B^T is B's
      // storage read column-major (N x K, ld N), A^T likewise (K x M, ld K).
      CUBLAS_OK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, (int)N, (int)M, (int)K, &alpha, (const float*)dB, (int)N,
                            (const float*)dA, (int)K, &beta, (float*)dC, (int)N));
    } else {
      // Row-major C = A B^T as C^T (N x M) = B A^T: B's storage read
      // column-major is B^T (K x N, ld K), so op T.
      CUBLAS_OK(cublasSgemm(handle, CUBLAS_OP_T, CUBLAS_OP_N, (int)N, (int)M, (int)K, &alpha, (const float*)dB, (int)K,
                            (const float*)dA, (int)K, &beta, (float*)dC, (int)N));
    }
  };
  for (int i = 0; i < 3; i++) gemm();
  CUDA_OK(cudaDeviceSynchronize());
  cudaEvent_t t0, t1;
  CUDA_OK(cudaEventCreate(&t0));
  CUDA_OK(cudaEventCreate(&t1));
  CUDA_OK(cudaEventRecord(t0, 0));
  for (int i = 0; i < reps; i++) gemm();
  CUDA_OK(cudaEventRecord(t1, 0));
  CUDA_OK(cudaEventSynchronize(t1));
  float ms = 0;
  CUDA_OK(cudaEventElapsedTime(&ms, t0, t1));
  ms /= reps;
  printf("cublas %s %s %lldx%lldx%lld: %.4f ms, %.2f TFLOP/s\n", layout, math, M, N, K, ms, 2.0 * M * N * K / (ms * 1e9));
  CUBLAS_OK(cublasDestroy(handle));
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  return 0;
}
