// ---- function pointers: calls through (*f)(...) and f(...), arrays of them in device memory and on the host, passed as arguments
#include <cstdio>
__device__ int add1(int x) { return x + 1; }
__device__ int dbl(int x) { return x * 2; }
typedef int (*op_t)(int);
__device__ op_t ops[2] = {add1, dbl};
__global__ void k(int *d) {
  int (*f)(int) = threadIdx.x ? dbl : add1;
  d[threadIdx.x] = (*f)(10) + ops[threadIdx.x](1) + (**f)(0);
}
int apply(int (*g)(int), int v) { return (*g)(v) + g(v); }
int triple(int x) { return x * 3; }
int square(int x) { return x * x; }
int main() {
  int *d, h[2];
  cudaMalloc(&d, sizeof h);
  k<<<1, 2>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int (*tab[2])(int) = {triple, &square};
  printf("%d %d %d %d %d\n", h[0], h[1], apply(triple, 4), (*tab[1])(5), tab[0](2));
  return 0;
}
// OUT: 14 22 24 25 6
// ---- a call through a null function pointer is reported where it happens
#include <cstdio>
__device__ float half_of(float v) { return v / 2; }
__global__ void k(float *d, int pick) {
  float (*f)(float) = 0;
  if (pick) f = half_of;
  d[threadIdx.x] = (*f)(d[threadIdx.x]); // ERROR C0405 col=24 "call through an invalid function pointer 0x0"
}
int main() {
  float *d;
  cudaMalloc(&d, 4 * sizeof(float));
  cudaMemset(d, 0, 4 * sizeof(float));
  k<<<1, 4>>>(d, 0);
  cudaDeviceSynchronize();
  return 0;
}
