// Thread block clusters of more than one CTA (cluster.go): co-scheduled
// CTAs, barrier.cluster across them, mapa and distributed shared memory,
// remote mbarrier arrives, and happens-before through them.
// ---- a cluster of 4 CTAs: each CTA writes into the next one's shared memory, and reads what the previous one wrote after a cluster barrier
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

__device__ unsigned rank_() { unsigned r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r; }
__device__ unsigned nrank() { unsigned r; asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r)); return r; }
__device__ void csync() {
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

__global__ void ring(int *out) {
  __shared__ int buf[32];
  unsigned r = rank_(), n = nrank();
  csync(); // every CTA of the cluster has started
  unsigned local = (unsigned)__cvta_generic_to_shared(&buf[threadIdx.x]), remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"((r + 1) % n));
  asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(remote), "r"(blockIdx.x * 100 + threadIdx.x) : "memory");
  csync();
  out[blockIdx.x * 32 + threadIdx.x] = buf[threadIdx.x];
  csync(); // no CTA exits while another may still access its shared memory
}

int main() {
  int *d;
  cudaMalloc(&d, 8 * 32 * sizeof(int));
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(8, 1, 1);
  cfg.blockDim = dim3(32, 1, 1);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 4;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, ring, d);
  int h[8 * 32];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int b = 0; b < 8; b++) printf("%d %d\n", h[b * 32], h[b * 32 + 31]);
  return 0;
}
// OUT: 300 331
// OUT: 0 31
// OUT: 100 131
// OUT: 200 231
// OUT: 700 731
// OUT: 400 431
// OUT: 500 531
// OUT: 600 631
// ---- the same ring without the cluster barrier between the remote stores and the local reads: a race across CTAs
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

__device__ unsigned rank_() { unsigned r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r; }
__device__ unsigned nrank() { unsigned r; asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r)); return r; }
__device__ void csync() {
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

__global__ void ring(int *out) {
  __shared__ int buf[32];
  unsigned r = rank_(), n = nrank();
  csync();
  unsigned local = (unsigned)__cvta_generic_to_shared(&buf[threadIdx.x]), remote;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(local), "r"((r + 1) % n));
  asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(remote), "r"(blockIdx.x * 100 + threadIdx.x) : "memory"); // NOTE "the other access: write by thread \d+ of block \d+"
  out[blockIdx.x * 32 + threadIdx.x] = buf[threadIdx.x]; // ERROR C0501 "data race on shared memory buf \(byte \d+\): read by thread \d+ of block \d+ \(kernel ring\) conflicts with an unordered write by thread \d+ of block \d+" // WARN C0407 "read of uninitialized shared memory buf"
  csync();
}

int main() {
  int *d;
  cudaMalloc(&d, 8 * 32 * sizeof(int));
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(8, 1, 1);
  cfg.blockDim = dim3(32, 1, 1);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 4;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, ring, d);
  return 0;
}
// ---- distributed shared memory handed over with a remote mbarrier arrive (release at cluster scope) and a local acquire wait
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

__device__ unsigned rank_() { unsigned r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r; }
__device__ void csync() {
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

__global__ void pass(int *out) {
  __shared__ int buf[64];
  __shared__ uint64_t bar;
  unsigned r = rank_();
  unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(1));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  csync();
  if (r == 0 && threadIdx.x == 0) {
    // rank 0 fills rank 1's buffer through distributed shared memory, then
    // arrives on rank 1's mbarrier (a release at cluster scope)
    unsigned dst = (unsigned)__cvta_generic_to_shared(&buf[0]), rb;
    asm volatile("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(dst) : "r"(dst));
    for (int i = 0; i < 64; i++) asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(dst + 4 * i), "r"(i * i) : "memory");
    asm volatile("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(rb) : "r"(b));
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" :: "r"(rb) : "memory");
  }
  if (r == 1) {
    asm volatile("{\n.reg .pred p;\nW:\nmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%0], 0;\n@!p bra W;\n}" :: "r"(b) : "memory");
    out[threadIdx.x] = buf[threadIdx.x] + buf[63 - threadIdx.x];
  }
  csync();
}

int main() {
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(2, 1, 1);
  cfg.blockDim = dim3(64, 1, 1);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 2;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, pass, d);
  int h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d\n", h[0], h[1], h[63]);
  return 0;
}
// OUT: 3969 3845 3969
// ---- the same hand-over without the remote arrive: the waiting CTA and its cluster deadlock
#include <cstdio>
#include <cstdint>
#include <cuda_runtime.h>

__device__ unsigned rank_() { unsigned r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r; }
__device__ void csync() {
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory"); // ERROR C0502 "deadlock in cluster 0 of kernel pass: a cluster barrier or mbarrier phase that threads wait for can never complete" // NOTE "threads 0-63 of block 0 wait at barrier.cluster.wait"
}

__global__ void pass(int *out) {
  __shared__ int buf[64];
  __shared__ uint64_t bar;
  unsigned r = rank_();
  unsigned b = (unsigned)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(1));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  csync();
  if (r == 0 && threadIdx.x == 0) {
    // rank 0 fills rank 1's buffer through distributed shared memory, then
    // arrives on rank 1's mbarrier (a release at cluster scope)
    unsigned dst = (unsigned)__cvta_generic_to_shared(&buf[0]), rb;
    asm volatile("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(dst) : "r"(dst));
    for (int i = 0; i < 64; i++) asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(dst + 4 * i), "r"(i * i) : "memory");
    asm volatile("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(rb) : "r"(b));
    (void)rb; // the remote arrive is missing
  }
  if (r == 1) {
    asm volatile("{\n.reg .pred p;\nW:\nmbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%0], 0;\n@!p bra W;\n}" :: "r"(b) : "memory"); // NOTE "threads 0-63 of block 1 wait for an mbarrier phase of parity 0"
    out[threadIdx.x] = buf[threadIdx.x] + buf[63 - threadIdx.x];
  }
  csync();
}

int main() {
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(2, 1, 1);
  cfg.blockDim = dim3(64, 1, 1);
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 2;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  cudaLaunchKernelEx(&cfg, pass, d);
  int h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  return 0;
}
// ---- __cluster_dims__ gives the cluster shape of a <<<>>> launch; a generic mapa gives a C pointer into the other CTA's shared memory; the cluster registers
#include <cstdio>
#include <cuda_runtime.h>

__device__ unsigned sreg_rank() { unsigned r; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r)); return r; }
__device__ unsigned sreg_cid() { unsigned r; asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(r)); return r; }
__device__ unsigned sreg_n() { unsigned r; asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(r)); return r; }
__device__ void csync() {
  asm volatile("barrier.cluster.arrive.release.aligned;" ::: "memory");
  asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
}

// a generic mapa: a C pointer into the other CTA's shared memory
__global__ void __cluster_dims__(2, 1, 1) swap(int *out) {
  __shared__ int v[16];
  v[threadIdx.x] = blockIdx.x * 10 + threadIdx.x;
  csync();
  int *peer;
  asm volatile("mapa.u64 %0, %1, %2;" : "=l"(peer) : "l"(&v[0]), "r"(sreg_rank() ^ 1));
  int x = peer[15 - threadIdx.x];
  csync();
  out[blockIdx.x * 16 + threadIdx.x] = x * 1000 + sreg_cid() * 100 + sreg_rank() * 10 + sreg_n();
}

int main() {
  int *d;
  cudaMalloc(&d, 4 * 16 * sizeof(int));
  swap<<<4, 16>>>(d);
  int h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int b = 0; b < 4; b++) printf("%d %d\n", h[b * 16], h[b * 16 + 15]);
  swap<<<3, 16>>>(d); // WARN C0603 "kernel swap not launched: grid 3x1x1 is not a multiple of the cluster dimension 2x1x1"
  printf("%s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
// OUT: 25002 10002
// OUT: 15012 12
// OUT: 45102 30102
// OUT: 35112 20112
// OUT: cudaErrorInvalidConfiguration
// ---- __cluster_dims__ with extents that are not constants from 1 to 16
#include <cuda_runtime.h>
int n = 2;
__global__ void __cluster_dims__(n) k(int *p) { *p = 1; } // ERROR C0313 col=34 "__cluster_dims__ takes constant extents from 1 to 16"
__global__ void __cluster_dims__(2, 32) k2(int *p) { *p = 1; } // ERROR C0313 col=37 "__cluster_dims__ takes constant extents from 1 to 16"
int main() { return 0; }
