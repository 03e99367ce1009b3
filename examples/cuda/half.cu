// Half precision: a y = a*x + y kernel in __half and in half2, with bit
// patterns printed, and bfloat16 conversions.
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

__global__ void haxpy(int n, __half a, const __half *x, __half *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hadd(__hmul(a, x[i]), y[i]);
}

__global__ void haxpy2(int n2, __half2 a, const __half2 *x, __half2 *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) y[i] = __hfma2(a, x[i], y[i]);
}

__global__ void toBF16(const float *in, __nv_bfloat16 *out, float *back, int n) {
  int i = threadIdx.x;
  if (i < n) {
    out[i] = __float2bfloat16(in[i]);
    back[i] = __bfloat162float(out[i]);
  }
}

int main() {
  const int n = 8;
  __half hx[n], hy[n], r1[n], r2[n];
  for (int i = 0; i < n; i++) {
    hx[i] = __float2half(0.1f * (i + 1));
    hy[i] = __float2half(1000.0f + i);
  }
  __half *dx, *dy;
  cudaMalloc(&dx, sizeof(hx));
  cudaMalloc(&dy, sizeof(hy));
  cudaMemcpy(dx, hx, sizeof(hx), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy, sizeof(hy), cudaMemcpyHostToDevice);
  haxpy<<<1, 32>>>(n, __float2half(3.0f), dx, dy);
  cudaMemcpy(r1, dy, sizeof(r1), cudaMemcpyDeviceToHost);
  cudaMemcpy(dy, hy, sizeof(hy), cudaMemcpyHostToDevice);
  haxpy2<<<1, 32>>>(n / 2, __float2half2_rn(3.0f), (const __half2 *)dx, (__half2 *)dy);
  cudaMemcpy(r2, dy, sizeof(r2), cudaMemcpyDeviceToHost);
  printf("sizeof(__half)=%zu sizeof(__half2)=%zu\n", sizeof(__half), sizeof(__half2));
  for (int i = 0; i < n; i++)
    printf("x=%.6f y=%.1f  3x+y=%.4f (0x%04x)  fma: %.4f (0x%04x)\n", __half2float(hx[i]), __half2float(hy[i]),
           __half2float(r1[i]), __half_as_ushort(r1[i]), __half2float(r2[i]), __half_as_ushort(r2[i]));
  __half big = __float2half(70000.0f), tiny = __float2half(1e-8f);
  printf("overflow: %f  underflow: %g  65504: 0x%04x\n", __half2float(big), __half2float(tiny),
         __half_as_ushort(__float2half(65504.0f)));
  __half2 p = __floats2half2_rn(1.5f, -2.25f);
  float2 q = __half22float2(__hmul2(p, p));
  printf("half2: (%g, %g) low=%g high=%g\n", q.x, q.y, __low2float(p), __high2float(p));

  const int m = 4;
  float in[m] = {3.14159265f, 1.0f / 3.0f, 65504.0f, -1e-3f}, back[m];
  __nv_bfloat16 raw[m];
  float *din, *dback;
  __nv_bfloat16 *dout;
  cudaMalloc(&din, sizeof(in));
  cudaMalloc(&dout, sizeof(raw));
  cudaMalloc(&dback, sizeof(back));
  cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice);
  toBF16<<<1, m>>>(din, dout, dback, m);
  cudaMemcpy(raw, dout, sizeof(raw), cudaMemcpyDeviceToHost);
  cudaMemcpy(back, dback, sizeof(back), cudaMemcpyDeviceToHost);
  for (int i = 0; i < m; i++)
    printf("bf16(%.8g) = %.8g (0x%04x)\n", in[i], back[i], __bfloat16_as_ushort(raw[i]));
  return 0;
}
