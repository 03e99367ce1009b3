// vectorAdd with 16-byte float4 loads: each thread adds four floats.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void vectorAdd4(const float4 *__restrict__ a, const float4 *__restrict__ b,
                           float4 *__restrict__ c, int n4) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n4) {
    float4 x = a[i], y = b[i];
    c[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}

int main() {
  const int n = 1000;          // a multiple of 4
  const int n4 = n / 4;
  size_t bytes = n * sizeof(float);
  float *ha = (float *)malloc(bytes), *hb = (float *)malloc(bytes), *hc = (float *)malloc(bytes);
  for (int i = 0; i < n; i++) {
    ha[i] = i * 0.5f;
    hb[i] = (n - i) * 0.25f;
  }
  float *da, *db, *dc;
  cudaMalloc((void **)&da, bytes);
  cudaMalloc((void **)&db, bytes);
  cudaMalloc((void **)&dc, bytes);
  cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice);
  int threads = 64, blocks = (n4 + threads - 1) / threads;
  printf("vectorAdd4: %d elements, %d blocks of %d threads, sizeof(float4)=%zu\n", n, blocks, threads, sizeof(float4));
  vectorAdd4<<<blocks, threads>>>((const float4 *)da, (const float4 *)db, (float4 *)dc, n4);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) {
    printf("launch failed: %s\n", cudaGetErrorString(err));
    return 1;
  }
  cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++)
    if (hc[i] != ha[i] + hb[i]) bad++;
  printf("c[0]=%g c[1]=%g c[999]=%g\n", hc[0], hc[1], hc[999]);
  printf("%s\n", bad ? "FAILED" : "Test PASSED");
  cudaFree(da); cudaFree(db); cudaFree(dc);
  free(ha); free(hb); free(hc);
  return 0;
}
