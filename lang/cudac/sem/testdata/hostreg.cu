// ---- cudaHostRegister: malloc'd memory pinned and mapped, written by a kernel through cudaHostGetDevicePointer, unregistered and freed
#include <cstdio>
#include <cstdlib>
__global__ void scale(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * 3 + 1;
}
int main() {
  int n = 1000;
  int *h = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) h[i] = i;
  cudaError_t e = cudaHostRegister(h, n * sizeof(int), cudaHostRegisterMapped);
  int *d = NULL;
  cudaError_t g = cudaHostGetDevicePointer((void **)&d, h, 0);
  scale<<<(n + 255) / 256, 256>>>(d, n);
  cudaDeviceSynchronize();
  printf("%d %d %d %d %d\n", (int)e, (int)g, h[0], h[999], (int)cudaHostUnregister(h));
  free(h);
  return 0;
}
// OUT: 0 0 1 2998 0
// ---- cudaHostRegister's errors, as an H100 answers: twice, unregistering memory never registered, a device pointer for bytes before the range, device memory; a range past the object is accepted (pages are pinned)
#include <cstdio>
#include <cstdlib>
int main() {
  char *h = (char *)malloc(64), *d, *dp;
  cudaMalloc(&d, 64);
  int a = cudaHostRegister(h, 64, 0);
  int b = cudaHostRegister(h, 64, 0);
  int c = cudaHostUnregister(h);
  int e = cudaHostUnregister(h);
  int f = cudaHostRegister(h + 16, 65, 0);
  int p = cudaHostGetDevicePointer((void **)&dp, h, 0);
  int q = cudaHostGetDevicePointer((void **)&dp, h + 16, 0);
  int u = cudaHostUnregister(h + 16);
  int g = cudaHostRegister(d, 64, 0);
  printf("%d %d %d %d %d %d %d %d %d\n", a, b, c, e, f, p, q, u, g);
  free(h);
  cudaFree(d);
  return 0;
}
// OUT: 0 712 0 713 0 1 0 0 1
// ---- after cudaHostUnregister the memory is host memory again: a kernel that still uses it is an error
__global__ void k(int *p) { p[threadIdx.x] = 1; } // ERROR C0402 col=29 "host memory"
int main() {
  int *h = (int *)malloc(32 * sizeof(int));
  cudaHostRegister(h, 32 * sizeof(int), cudaHostRegisterMapped);
  cudaHostUnregister(h);
  k<<<1, 32>>>(h);
  cudaDeviceSynchronize();
  free(h);
  return 0;
}
// ---- registered memory is checked like pinned memory: a host read while the kernel writes it is a race
#include <cstdio>
#include <cstdlib>
__global__ void k(int *p) { p[threadIdx.x] = 7; } // ERROR C0501 col=29 "data race on pinned memory \(byte 20\): write by thread 5 of block 0 \(kernel k\) conflicts with an unordered read by the host"
int main() {
  int *h = (int *)calloc(32, sizeof(int));
  cudaHostRegister(h, 32 * sizeof(int), cudaHostRegisterMapped);
  k<<<1, 32>>>(h);
  int v = h[5]; // NOTE "the other access: read by the host"
  cudaDeviceSynchronize();
  printf("%d\n", v == 0 || v == 7);
  cudaHostUnregister(h);
  free(h);
  return 0;
}
// OUT: 1
// ---- cudaOccupancyMaxPotentialBlockSize: the block size that keeps the most threads resident (H100: 2048 per SM, 32 blocks per SM, 132 SMs)
#include <cstdio>
__global__ void k(float *x) { x[threadIdx.x] = 0; }
int main() {
  int grid = 0, block = 0, grid2 = 0, block2 = 0;
  cudaOccupancyMaxPotentialBlockSize(&grid, &block, k);
  // at most 96 threads: 64-thread blocks (32 resident, 2048 threads) beat 96 (21 resident, 2016 threads)
  cudaOccupancyMaxPotentialBlockSize(&grid2, &block2, k, 0, 96);
  printf("%d %d %d %d\n", grid, block, grid2, block2);
  return 0;
}
// OUT: 264 1024 4224 64
// ---- flag constants of the runtime (values of driver_types.h; bench/gpu/cudac.sh compiles this against the real header)
#include <cstdio>
int main() {
  cudaEvent_t e;
  int r = cudaEventCreateWithFlags(&e, cudaEventBlockingSync | cudaEventDisableTiming);
  printf("%d %d %d %d %d %d %d %d\n", r, cudaEventBlockingSync, cudaEventDisableTiming, cudaEventInterprocess, cudaDeviceBlockingSync,
         cudaDeviceScheduleMask, cudaDeviceLmemResizeToMax, cudaHostRegisterReadOnly);
  cudaEventDestroy(e);
  return 0;
}
// OUT: 0 1 2 4 4 7 16 8
// ---- struct names are type names in C++: utsname without 'struct' (NVIDIA's simpleAssert)
#include <cstdio>
#include <cstring>
#include <sys/utsname.h>
int main() {
  utsname u;
  uname(&u);
  printf("%d\n", strcmp(u.sysname, "Linux") == 0);
  return 0;
}
// OUT: 1
