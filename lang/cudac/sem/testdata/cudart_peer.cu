// ---- peer access on the model's one device: device 0 is no peer of itself (CanAccessPeer 0, EnablePeerAccess cudaErrorPeerAccessUnsupported as an H100 answered, DisablePeerAccess cudaErrorPeerAccessNotEnabled), another ordinal is invalid; cudaMemcpyPeer/cudaMemcpyPeerAsync copy between allocations of device 0
#include <cstdio>
__global__ void fill(int *a) { a[threadIdx.x] = threadIdx.x * 2; }
int main() {
  int can = -1;
  printf("%d", (int)cudaDeviceCanAccessPeer(&can, 0, 0));
  printf(" %d", can);
  printf(" %d", (int)cudaDeviceEnablePeerAccess(0, 0));
  printf(" %d", (int)cudaDeviceEnablePeerAccess(1, 0));
  printf(" %d", (int)cudaDeviceEnablePeerAccess(0, 1));
  printf(" %d", (int)cudaDeviceDisablePeerAccess(0));
  // two statements: the arguments of one call are evaluated in no fixed
  // order (the GPU run's host compiler read the last error first)
  printf(" %d", (int)cudaDeviceDisablePeerAccess(1));
  printf(" %s\n", cudaGetErrorName(cudaGetLastError()));
  int *a, *b, h[4];
  cudaMalloc(&a, 4 * sizeof(int));
  cudaMalloc(&b, 4 * sizeof(int));
  fill<<<1, 4>>>(a);
  printf("%d", (int)cudaMemcpyPeer(b, 0, a, 0, 4 * sizeof(int)));
  printf(" %d", (int)cudaMemcpyPeer(b, 1, a, 0, 4 * sizeof(int)));
  cudaStream_t s;
  cudaStreamCreate(&s);
  printf(" %d", (int)cudaMemcpyPeerAsync(a, 0, b + 1, 0, 3 * sizeof(int), s));
  cudaStreamSynchronize(s);
  cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost);
  printf(" %d %d %d %d %s\n", h[0], h[1], h[2], h[3], cudaGetErrorName(cudaErrorPeerAccessNotEnabled));
  return 0;
}
// OUT: 0 0 217 101 1 705 101 cudaErrorInvalidDevice
// OUT: 0 101 0 2 4 6 6 cudaErrorPeerAccessNotEnabled
// ---- cudaMemcpyPeer copies device memory: a host source is refused as cudaMemcpy's device-to-device copy refuses it
int main() {
  int *d, h[4] = {0};
  cudaMalloc(&d, sizeof h);
  cudaMemcpyPeer(d, 0, h, 0, sizeof h); // ERROR C0607 col=3 "cudaMemcpyDeviceToDevice copies from host memory to global memory"
  return 0;
}
// ---- cudaMemPoolSetAccess/GetAccess: the device's pool is read-write to device 0 and to nothing else; another device ordinal or revoking device 0's access is cudaErrorInvalidDevice (as an H100 answered), a location other than device 0 is cudaErrorInvalidValue to GetAccess
#include <cstdio>
#include <cstring>
int main() {
  cudaMemPool_t pool;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  cudaMemAccessDesc d[2];
  memset(d, 0, sizeof d);
  d[0].location.type = cudaMemLocationTypeDevice;
  d[0].location.id = 0;
  d[0].flags = cudaMemAccessFlagsProtReadWrite;
  d[1] = d[0];
  d[1].location.id = 1;
  printf("%d", (int)cudaMemPoolSetAccess(pool, d, 1));
  printf(" %d", (int)cudaMemPoolSetAccess(pool, d, 2));
  d[0].flags = cudaMemAccessFlagsProtNone;
  printf(" %d", (int)cudaMemPoolSetAccess(pool, d, 1));
  cudaMemAccessFlags f = cudaMemAccessFlagsProtNone;
  cudaMemLocation loc = {};
  loc.type = cudaMemLocationTypeDevice;
  printf(" %d", (int)cudaMemPoolGetAccess(&f, pool, &loc));
  printf(" %d", (int)f);
  loc.id = 1;
  printf(" %d\n", (int)cudaMemPoolGetAccess(&f, pool, &loc));
  return 0;
}
// OUT: 0 101 101 0 3 1
