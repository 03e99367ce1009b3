// ---- assert: a failed device assert prints CUDA's message, aborts the kernel, and the next synchronizing call returns cudaErrorAssert, sticky until cudaDeviceReset
// MODE: run
#include <cstdio>
#include <cassert>
__global__ void bounded(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i <  n); // WARN C0602 col=3 "^device assertion `i < n` failed \(thread 30 of block 1, kernel bounded\): the kernel is aborted and the CUDA runtime returns cudaErrorAssert from now on$"
  out[i] = i;
}
__global__ void never(int *out) { out[0] = 99; }
int main() {
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  cudaMemset(d, 0, 64 * sizeof(int));
  bounded<<<2, 32>>>(d, 62);
  printf("launch: %d\n", (int)cudaGetLastError());
  never<<<1, 1>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("sync: %d %s %s\n", (int)e, cudaGetErrorName(e), cudaGetErrorString(e));
  printf("assert code: %d\n", (int)cudaErrorAssert);
  int h[64];
  e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("memcpy: %d, last: %d, peek: %d\n", (int)e, (int)cudaGetLastError(), (int)cudaPeekAtLastError());
  int *d2 = 0;
  printf("malloc: %d\n", (int)cudaMalloc(&d2, 4));
  printf("reset: %d\n", (int)cudaDeviceReset());
  printf("after reset: %d\n", (int)cudaMalloc(&d2, 4));
  cudaMemset(d2, 0, 4);
  never<<<1, 1>>>(d2);
  int v = 0;
  printf("copy: %d\n", (int)cudaMemcpy(&v, d2, 4, cudaMemcpyDeviceToHost));
  printf("v = %d\n", v);
  cudaFree(d2);
  return 0;
}
// OUT: launch: 0
// OUT: sync: 710 cudaErrorAssert device-side assert triggered
// OUT: assert code: 710
// OUT: memcpy: 710, last: 710, peek: 710
// OUT: malloc: 710
// OUT: reset: 0
// OUT: after reset: 0
// OUT: copy: 0
// OUT: v = 99
// STDERR: testdata/assert.cu:7: void bounded(int*, int): block: [1,0,0], thread: [30,0,0] Assertion `i < n` failed.
// STDERR: testdata/assert.cu:7: void bounded(int*, int): block: [1,0,0], thread: [31,0,0] Assertion `i < n` failed.
// ---- assert: a failed host assert ends the run
// MODE: run
#include <cassert>
int main() {
  int n = 3;
  assert(n % 2 == 0 && "n must be even"); // ERROR C0602 col=3 "^assertion `n % 2 == 0 && \"n must be even\"` failed$"
  return 0;
}
// ---- assert: a true assert does nothing; a float condition is its truth value
// MODE: run
#include <cstdio>
#include <cassert>
__global__ void k(float *x) { assert(x[threadIdx.x] * 0.5f); }
int main() {
  float *x;
  cudaMallocManaged(&x, 4 * sizeof(float));
  for (int i = 0; i < 4; i++) x[i] = 0.25f + i;
  k<<<1, 4>>>(x);
  printf("%d\n", (int)cudaDeviceSynchronize());
  cudaFree(x);
  return 0;
}
// OUT: 0
// ---- assert: __func__ and __FUNCTION__ are the function's unqualified name, __PRETTY_FUNCTION__ its signature (the host part pinned against g++ 12)
// MODE: run
#include <cstdio>
struct Widget {
  void show() const { printf("%s\n", __func__); }
};
template <class T> T twice(T v) { printf("%s %s\n", __func__, __FUNCTION__); return v * 2; }
__global__ void kern(int *p) { if (threadIdx.x == 0) printf("%s / %s\n", __func__, __PRETTY_FUNCTION__); }
int main() {
  printf("%s\n", __func__);
  Widget w;
  w.show();
  twice(3);
  int *p;
  cudaMalloc(&p, 4);
  kern<<<1, 2>>>(p);
  cudaDeviceSynchronize();
  return 0;
}
// OUT: main
// OUT: show
// OUT: twice twice
// OUT: kern / void kern(int*)
