// The runtime's pitched and 3-D memory, memory pools and hints
// (lib_cudart_mem.go; issue 15 library item 3).
// ---- cudaMallocPitch pads rows to 512 bytes; cudaMemcpy2D copies row by row between pitched device and packed host memory; cudaMemset2D sets a sub-rectangle
#include <cstdio>
__global__ void addRow(float *p, size_t pitch, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) {
    float *row = (float *)((char *)p + y * pitch);
    row[x] += 100 * y;
  }
}
int main() {
  const int w = 5, h = 3;
  float host[w * h];
  for (int i = 0; i < w * h; i++) host[i] = i;
  float *d;
  size_t pitch;
  cudaMallocPitch((void **)&d, &pitch, w * sizeof(float), h);
  printf("pitch %zu\n", pitch);
  cudaMemcpy2D(d, pitch, host, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice);
  addRow<<<h, 32>>>(d, pitch, w, h);
  cudaMemset2D((char *)d + pitch, pitch, 0, 2 * sizeof(float), 2);
  cudaMemcpy2D(host, w * sizeof(float), d, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost);
  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++) printf(" %g", host[y * w + x]);
    printf("\n");
  }
  printf("%d\n", (int)cudaMemcpy2D(host, 4, d, pitch, 8, 1, cudaMemcpyDeviceToHost));
  cudaFree(d);
  return 0;
}
// OUT: pitch 512
// OUT:  0 1 2 3 4
// OUT:  0 0 107 108 109
// OUT:  0 0 212 213 214
// OUT: 1
// ---- cudaMalloc3D and cudaMemcpy3D with cudaMemcpy3DParms, make_cudaExtent/make_cudaPitchedPtr/make_cudaPos: a sub-box copied back at an offset
#include <cstdio>
__global__ void fill(cudaPitchedPtr p, int w, int h, int d) {
  int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
  char *slice = (char *)p.ptr + z * p.pitch * p.ysize;
  int *row = (int *)(slice + y * p.pitch);
  row[x] = 100 * z + 10 * y + x;
}
int main() {
  const int W = 4, H = 3, D = 2;
  cudaExtent ext = make_cudaExtent(W * sizeof(int), H, D);
  cudaPitchedPtr dp;
  cudaMalloc3D(&dp, ext);
  printf("%zu %zu %zu\n", dp.pitch, dp.xsize, dp.ysize);
  cudaMemset3D(dp, 0, ext);
  fill<<<D, dim3(W, H)>>>(dp, W, H, D);
  int host[D][H][W] = {};
  cudaMemcpy3DParms p = {0};
  p.srcPtr = dp;
  p.srcPos = make_cudaPos(1 * sizeof(int), 1, 0);
  p.dstPtr = make_cudaPitchedPtr(host, W * sizeof(int), W, H);
  p.dstPos = make_cudaPos(0, 0, 1);
  p.extent = make_cudaExtent(2 * sizeof(int), 2, 1);
  p.kind = cudaMemcpyDeviceToHost;
  printf("%d\n", (int)cudaMemcpy3D(&p));
  for (int y = 0; y < H; y++) printf("%d %d %d %d\n", host[1][y][0], host[1][y][1], host[1][y][2], host[1][y][3]);
  p.srcPos = make_cudaPos(0, 0, 0);
  p.dstPos = make_cudaPos(0, 0, 0);
  p.extent = ext;
  cudaMemcpy3D(&p);
  printf("%d %d\n", host[0][2][3], host[1][2][3]);
  cudaFree(dp.ptr);
  return 0;
}
// OUT: 512 16 3
// OUT: 0
// OUT: 11 12 0 0
// OUT: 21 22 0 0
// OUT: 0 0 0 0
// OUT: 23 123
// ---- a 3-D copy whose extent overruns the destination is an out-of-bounds copy at the call
#include <cstdio>
int main() {
  cudaPitchedPtr dp;
  cudaMalloc3D(&dp, make_cudaExtent(16, 2, 2));
  int host[8];
  cudaMemcpy3DParms p = {0};
  p.srcPtr = dp;
  p.dstPtr = make_cudaPitchedPtr(host, 16, 4, 2);
  p.extent = make_cudaExtent(16, 2, 3);
  p.kind = cudaMemcpyDeviceToHost;
  cudaMemcpy3D(&p); // ERROR C0403 col=3 "out-of-bounds access of 16 bytes at offset 32 of host memory \(32 bytes\)"
  return 0;
}
// ---- the default memory pool: its release threshold is kept, used memory counts live stream-ordered allocations, the high-water mark resets to the current use
#include <cstdio>
#include <cstdint>
int main() {
  cudaMemPool_t pool;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  uint64_t thr = UINT64_MAX, v = 0;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr);
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &v);
  printf("%d\n", v == UINT64_MAX);
  cudaStream_t s;
  cudaStreamCreate(&s);
  float *a, *b;
  cudaMallocAsync((void **)&a, 1000, s);
  cudaMallocFromPoolAsync((void **)&b, 24, pool, s);
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &v);
  printf("used %llu\n", (unsigned long long)v);
  cudaFreeAsync(a, s);
  cudaStreamSynchronize(s);
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &v);
  printf("used %llu\n", (unsigned long long)v);
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &v);
  printf("high %llu\n", (unsigned long long)v);
  uint64_t zero = 0;
  cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero);
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &v);
  printf("high %llu\n", (unsigned long long)v);
  int reuse = 0;
  cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &reuse);
  printf("reuse %d\n", reuse);
  printf("%d %d\n", (int)cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &zero), (int)cudaDeviceGetDefaultMemPool(&pool, 3));
  cudaFreeAsync(b, s);
  cudaStreamDestroy(s);
  return 0;
}
// OUT: 1
// OUT: used 1024
// OUT: used 24
// OUT: high 1024
// OUT: high 24
// OUT: reuse 1
// OUT: 1 101
// ---- hints are argument-checked no-ops: prefetch and advise (CUDA 13's cudaMemLocation forms; CUDA 12's int-device forms in the next case), stream attach, stream attributes with an access policy window, resetting persisting L2 lines
#include <cstdio>
__global__ void inc(int *p) { p[threadIdx.x]++; }
int main() {
  int *m;
  cudaMallocManaged(&m, 64 * sizeof(int));
  for (int i = 0; i < 64; i++) m[i] = i;
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaMemLocation dev;
  dev.type = cudaMemLocationTypeDevice;
  dev.id = 0;
  cudaMemLocation host;
  host.type = cudaMemLocationTypeHost;
  printf("%d", (int)cudaMemPrefetchAsync(m, 64 * sizeof(int), dev, 0, s));
  printf(" %d", (int)cudaMemPrefetchAsync(m, 64 * sizeof(int), host, 0, s));
  printf(" %d", (int)cudaMemAdvise(m, 64 * sizeof(int), cudaMemAdviseSetReadMostly, dev));
  printf(" %d", (int)cudaMemAdvise(m, 64 * sizeof(int), cudaMemAdviseSetPreferredLocation, dev));
  printf(" %d", (int)cudaStreamAttachMemAsync(s, m, 0, cudaMemAttachGlobal));
  printf(" %d", (int)cudaMemPrefetchAsync(m, 65 * sizeof(int), host, 0));
  dev.id = 1;
  printf(" %d\n", (int)cudaMemPrefetchAsync(m, 4, dev, 0));
  inc<<<1, 64, 0, s>>>(m);
  cudaStreamSynchronize(s);
  printf("%d %d\n", m[0], m[63]);
  cudaStreamAttrValue v = {};
  v.accessPolicyWindow.base_ptr = m;
  v.accessPolicyWindow.num_bytes = 256;
  v.accessPolicyWindow.hitRatio = 0.6f;
  v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
  v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  printf("%d", (int)cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
  cudaStreamAttrValue w = {};
  cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &w);
  printf(" %zu %g %d %d", w.accessPolicyWindow.num_bytes, w.accessPolicyWindow.hitRatio, (int)w.accessPolicyWindow.hitProp, w.accessPolicyWindow.base_ptr == m);
  v.accessPolicyWindow.hitRatio = 1.5f;
  printf(" %d", (int)cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v));
  v.accessPolicyWindow.hitRatio = 1.0f;
  v.accessPolicyWindow.num_bytes = (size_t)1 << 30;
  printf(" %d %d\n", (int)cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v), (int)cudaCtxResetPersistingL2Cache());
  cudaStreamDestroy(s);
  cudaFree(m);
  return 0;
}
// OUT: 0 0 0 0 0 1 101
// OUT: 1 64
// OUT: 0 256 0.6 2 1 1 1 0
// ---- CUDA 12's int-device forms of cudaMemPrefetchAsync and cudaMemAdvise (CUDA 13 removed them: nvcc 13 rejects this case, so it is not run on a GPU): device 0 and cudaCpuDeviceId are accepted, another ordinal and a range beyond the allocation are cudaErrorInvalidValue
#include <cstdio>
int main() {
  int *m;
  cudaMallocManaged(&m, 64 * sizeof(int));
  printf("%d", (int)cudaMemPrefetchAsync(m, 64 * sizeof(int), 0));
  printf(" %d", (int)cudaMemPrefetchAsync(m, 64 * sizeof(int), cudaCpuDeviceId, 0));
  printf(" %d", (int)cudaMemAdvise(m, 64 * sizeof(int), cudaMemAdviseSetReadMostly, 0));
  printf(" %d", (int)cudaMemPrefetchAsync(m, 4, 1));
  printf(" %d\n", (int)cudaMemAdvise(m, 65 * sizeof(int), cudaMemAdviseSetReadMostly, 0));
  cudaFree(m);
  return 0;
}
// MODE: run
// OUT: 0 0 0 1 1
