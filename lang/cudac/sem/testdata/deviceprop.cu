// ---- every cudaDeviceProp field of CUDA 13 that describes the part, on the default H100; the fields CUDA 13 removed (clockRate, memoryClockRate, kernelExecTimeoutEnabled, computeMode) through cudaDeviceGetAttribute; the machine's own values (memory size, PCI location, NUMA nodes, UUID) in the third case
#include <cstdio>
#include <cuda_runtime.h>
int main() {
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) return 1;
  int clock = -1, memClock = -1, timeout = -1, mode = -1;
  cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, 0);
  cudaDeviceGetAttribute(&memClock, cudaDevAttrMemoryClockRate, 0);
  cudaDeviceGetAttribute(&timeout, cudaDevAttrKernelExecTimeout, 0);
  cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0);
  printf("%s cc %d.%d sms %d\n", p.name, p.major, p.minor, p.multiProcessorCount);
  printf("pitch %zu const %zu\n", p.memPitch, p.totalConstMem);
  printf("smem %zu optin %zu sm %zu reserved %zu\n", p.sharedMemPerBlock, p.sharedMemPerBlockOptin,
         p.sharedMemPerMultiprocessor, p.reservedSharedMemPerBlock);
  printf("regs %d %d warp %d threads %d/sm %d blocks/sm %d\n", p.regsPerBlock, p.regsPerMultiprocessor, p.warpSize,
         p.maxThreadsPerBlock, p.maxThreadsPerMultiProcessor, p.maxBlocksPerMultiProcessor);
  printf("dim %d %d %d grid %d %d %d\n", p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2],
         p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
  printf("clock %d mem %d bus %d l2 %d persist %d\n", clock, memClock, p.memoryBusWidth,
         p.l2CacheSize, p.persistingL2CacheMaxSize);
  printf("timeout %d integrated %d map %d mode %d concurrent %d ecc %d\n", timeout,
         p.integrated, p.canMapHostMemory, mode, p.concurrentKernels, p.ECCEnabled);
  printf("tcc %d engines %d uva %d\n", p.tccDriver, p.asyncEngineCount, p.unifiedAddressing);
  printf("managed %d multi %d coop %d cluster %d pools %d\n", p.managedMemory, p.isMultiGpuBoard,
         p.cooperativeLaunch, p.clusterLaunch, p.memoryPoolsSupported);
  printf("tex %d %dx%d %dx%dx%d align %zu %zu\n", p.maxTexture1D, p.maxTexture2D[0], p.maxTexture2D[1],
         p.maxTexture3D[0], p.maxTexture3D[1], p.maxTexture3D[2], p.textureAlignment, p.texturePitchAlignment);
  printf("pciid %#x\n", p.gpuPciDeviceID);
  return 0;
}
// OUT: NVIDIA H100 80GB HBM3 cc 9.0 sms 132
// OUT: pitch 2147483647 const 65536
// OUT: smem 49152 optin 232448 sm 233472 reserved 1024
// OUT: regs 65536 65536 warp 32 threads 1024/sm 2048 blocks/sm 32
// OUT: dim 1024 1024 64 grid 2147483647 65535 65535
// OUT: clock 1980000 mem 2619000 bus 5120 l2 52428800 persist 32768000
// OUT: timeout 0 integrated 0 map 1 mode 0 concurrent 1 ecc 1
// OUT: tcc 0 engines 3 uva 1
// OUT: managed 1 multi 0 coop 1 cluster 1 pools 1
// OUT: tex 131072 131072x65536 16384x16384x16384 align 512 32
// OUT: pciid 0x233010de
// ---- cudaDeviceGetAttribute answers what cudaDeviceProp holds (CUDA 12's fields too: clockRate, computeMode, ...; this case is not run on a GPU, it expects a diagnostic)
#include <cstdio>
#include <cuda_runtime.h>
int main() {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  struct { cudaDeviceAttr a; long v; } want[] = {
    {cudaDevAttrMaxThreadsPerBlock, p.maxThreadsPerBlock}, {cudaDevAttrMaxBlockDimZ, p.maxThreadsDim[2]},
    {cudaDevAttrMaxGridDimX, p.maxGridSize[0]}, {cudaDevAttrMaxSharedMemoryPerBlock, (long)p.sharedMemPerBlock},
    {cudaDevAttrTotalConstantMemory, (long)p.totalConstMem}, {cudaDevAttrWarpSize, p.warpSize},
    {cudaDevAttrMaxPitch, (long)p.memPitch}, {cudaDevAttrClockRate, p.clockRate},
    {cudaDevAttrMultiProcessorCount, p.multiProcessorCount}, {cudaDevAttrKernelExecTimeout, p.kernelExecTimeoutEnabled},
    {cudaDevAttrCanMapHostMemory, p.canMapHostMemory}, {cudaDevAttrComputeMode, p.computeMode},
    {cudaDevAttrMaxTexture2DHeight, p.maxTexture2D[1]}, {cudaDevAttrEccEnabled, p.ECCEnabled},
    {cudaDevAttrPciDomainId, p.pciDomainID}, {cudaDevAttrMemoryClockRate, p.memoryClockRate},
    {cudaDevAttrGlobalMemoryBusWidth, p.memoryBusWidth}, {cudaDevAttrL2CacheSize, p.l2CacheSize},
    {cudaDevAttrMaxThreadsPerMultiProcessor, p.maxThreadsPerMultiProcessor},
    {cudaDevAttrAsyncEngineCount, p.asyncEngineCount}, {cudaDevAttrComputeCapabilityMajor, p.major},
    {cudaDevAttrMaxSharedMemoryPerMultiprocessor, (long)p.sharedMemPerMultiprocessor},
    {cudaDevAttrMaxRegistersPerMultiprocessor, p.regsPerMultiprocessor}, {cudaDevAttrManagedMemory, p.managedMemory},
    {cudaDevAttrCooperativeLaunch, p.cooperativeLaunch},
    {cudaDevAttrMaxSharedMemoryPerBlockOptin, (long)p.sharedMemPerBlockOptin},
    {cudaDevAttrMaxBlocksPerMultiprocessor, p.maxBlocksPerMultiProcessor},
    {cudaDevAttrMaxPersistingL2CacheSize, p.persistingL2CacheMaxSize},
    {cudaDevAttrMaxAccessPolicyWindowSize, p.accessPolicyMaxWindowSize},
    {cudaDevAttrReservedSharedMemoryPerBlock, (long)p.reservedSharedMemPerBlock},
    {cudaDevAttrClusterLaunch, p.clusterLaunch}, {cudaDevAttrGpuPciDeviceId, (long)p.gpuPciDeviceID},
  };
  int bad = 0, n = sizeof(want) / sizeof(want[0]);
  for (int i = 0; i < n; i++) {
    int v = -7;
    if (cudaDeviceGetAttribute(&v, want[i].a, 0) != cudaSuccess || v != (int)want[i].v) {
      printf("attribute %d: %d, want %ld\n", (int)want[i].a, v, want[i].v);
      bad++;
    }
  }
  int domains = 0, v = 0;
  cudaDeviceGetAttribute(&domains, cudaDevAttrMemSyncDomainCount, 0);
  printf("%d of %d differ; %d sync domains; device 1: %d\n", bad, n, domains,
         (int)cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 1));
  // CUDA 12's cudaGetDeviceProperties_v2 (CUDA 13 removed the name)
  cudaDeviceProp q;
  printf("%d %s %d\n", (int)cudaGetDeviceProperties_v2(&q, 0), q.name, q.clockRate);
  cudaDeviceGetAttribute(&v, (cudaDeviceAttr)92, 0); // ERROR C0309 col=3 "cudaDeviceGetAttribute: attribute 92 is not modeled"
  return 0;
}
// MODE: run
// OUT: 0 of 32 differ; 4 sync domains; device 1: 101
// OUT: 0 NVIDIA H100 80GB HBM3 1980000
// ---- the modelled machine's own values: the memory size and what a cudaMalloc takes of it, the PCI location, NUMA nodes, UUID, and cudaDeviceProp's size (it keeps the fields CUDA 13 removed)
// GPU: differs (the memory size, the PCI location and the layout are those of the modelled device, not the lent one)
#include <cstdio>
#include <cuda_runtime.h>
int main() {
  size_t free0, total;
  cudaMemGetInfo(&free0, &total);
  float *d;
  cudaMalloc(&d, 1 << 20);
  size_t free1;
  cudaMemGetInfo(&free1, &total);
  printf("total %zu, allocated %zu\n", total, free0 - free1);
  cudaFree(d);
  cudaMemGetInfo(&free1, &total);
  printf("freed back %d\n", free1 == free0);
  char bus[32];
  cudaDeviceGetPCIBusId(bus, sizeof bus, 0);
  int dev = -1;
  cudaDeviceGetByPCIBusId(&dev, bus);
  printf("%s -> %d\n", bus, dev);
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("mem %zu pci %d:%d:%d numa %d %d uuid %d size %zu\n", p.totalGlobalMem, p.pciDomainID, p.pciBusID,
         p.pciDeviceID, p.deviceNumaId, p.hostNumaId, p.uuid.bytes[0], sizeof(cudaDeviceProp));
  return 0;
}
// OUT: total 85899345920, allocated 1048576
// OUT: freed back 1
// OUT: 0000:00:00.0 -> 0
// OUT: mem 85899345920 pci 0:0:0 numa -1 -1 uuid 0 size 1032
// ---- device management around the properties: peers, limits
#include <cstdio>
#include <cuda_runtime.h>
int main() {
  int can = -1;
  int peerErr = (int)cudaDeviceCanAccessPeer(&can, 0, 1);
  printf("peer %d %d\n", peerErr, can);
  cudaDeviceCanAccessPeer(&can, 0, 0);
  size_t heap = 0;
  cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
  cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20);
  size_t heap2 = 0;
  cudaDeviceGetLimit(&heap2, cudaLimitMallocHeapSize);
  cudaError_t bad = cudaDeviceSetLimit((cudaLimit)9, 1);
  printf("self peer %d heap %zu -> %zu; bad limit %s\n", can, heap, heap2, cudaGetErrorName(bad));
  return 0;
}
// OUT: peer 101 -1
// OUT: self peer 0 heap 8388608 -> 67108864; bad limit cudaErrorUnsupportedLimit
