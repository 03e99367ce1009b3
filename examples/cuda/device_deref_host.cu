// A host array passed straight to a kernel (seed 004: illegal host memory
// access from the device).
#include <stdio.h>

__global__ void scale(float *v, float s) { v[threadIdx.x] *= s; }

int main(void) {
  float v[4] = {1, 2, 3, 4};
  scale<<<1, 4>>>(v, 2.0f);
  cudaDeviceSynchronize();
  printf("%g\n", v[0]);
  return 0;
}
