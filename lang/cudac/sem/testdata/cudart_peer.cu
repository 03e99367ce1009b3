// ---- peer access on the model's one device: device 0 is no peer of itself (CanAccessPeer 0, EnablePeerAccess cudaErrorInvalidDevice, DisablePeerAccess cudaErrorPeerAccessNotEnabled), another ordinal is invalid; cudaMemcpyPeer/cudaMemcpyPeerAsync copy between allocations of device 0
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
  printf(" %d %s\n", (int)cudaDeviceDisablePeerAccess(1), cudaGetErrorName(cudaGetLastError()));
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
// OUT: 0 0 101 101 1 705 101 cudaErrorInvalidDevice
// OUT: 0 101 0 2 4 6 6 cudaErrorPeerAccessNotEnabled
// ---- cudaMemcpyPeer copies device memory: a host source is refused as cudaMemcpy's device-to-device copy refuses it
int main() {
  int *d, h[4] = {0};
  cudaMalloc(&d, sizeof h);
  cudaMemcpyPeer(d, 0, h, 0, sizeof h); // ERROR C0607 col=3 "cudaMemcpyDeviceToDevice copies from host memory to global memory"
  return 0;
}
