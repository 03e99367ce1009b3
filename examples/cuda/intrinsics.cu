// Integer and fast-math intrinsics through read-only loads (__ldg).
#include <cstdio>
#include <cmath>

__global__ void bits(const unsigned *__restrict__ in, int *out, int n) {
  int i = threadIdx.x;
  if (i < n) {
    unsigned v = __ldg(&in[i]);
    out[5 * i + 0] = __popc(v);
    out[5 * i + 1] = __clz(v);
    out[5 * i + 2] = __ffs(v);
    out[5 * i + 3] = (int)__brev(v);
    out[5 * i + 4] = min(max((int)v, -5), 1000) + (int)max(3u, v & 7u);
  }
}

__global__ void fastmath(const float *__restrict__ x, float *y, int n) {
  int i = threadIdx.x;
  if (i < n) {
    float v = __ldg(x + i);
    y[4 * i + 0] = __fmaf_rn(v, 2.0f, 1.0f);
    y[4 * i + 1] = __fdividef(1.0f, v);
    y[4 * i + 2] = rsqrtf(v);
    y[4 * i + 3] = fminf(__expf(v), 10.0f) + max(v, 0.5f);
  }
}

int main() {
  const int n = 4;
  unsigned in[n] = {0u, 1u, 0x80000000u, 0x00F0F00Fu};
  unsigned *din;
  int *dout, out[5 * n];
  cudaMalloc(&din, sizeof(in));
  cudaMalloc(&dout, sizeof(out));
  cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice);
  bits<<<1, 32>>>(din, dout, n);
  cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++)
    printf("v=0x%08x popc=%d clz=%d ffs=%d brev=0x%08x clamp=%d\n", in[i], out[5 * i], out[5 * i + 1], out[5 * i + 2],
           (unsigned)out[5 * i + 3], out[5 * i + 4]);
  float x[n] = {0.25f, 1.0f, 2.0f, 4.0f}, y[4 * n];
  float *dx, *dy;
  cudaMalloc(&dx, sizeof(x));
  cudaMalloc(&dy, sizeof(y));
  cudaMemcpy(dx, x, sizeof(x), cudaMemcpyHostToDevice);
  fastmath<<<1, 32>>>(dx, dy, n);
  cudaMemcpy(y, dy, sizeof(y), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++)
    printf("x=%g fma=%g div=%g rsqrt=%g exp+max=%.3f\n", x[i], y[4 * i], y[4 * i + 1], y[4 * i + 2], y[4 * i + 3]);
  return 0;
}
