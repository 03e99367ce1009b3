// ---- inline PTX: cp.async into shared memory, an mbarrier phase orders the copies before other threads' reads, cvt.rna.tf32
#include <stdio.h>
#include <stdint.h>
__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__global__ void k(const float *in, float *out) {
  __shared__ float buf[32];
  __shared__ uint64_t bar;
  unsigned tid;
  asm volatile("mov.u32 %0, %%tid.x;" : "=r"(tid));
  if (tid == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_u32(&bar)), "r"(32) : "memory");
  __syncthreads();
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem_u32(&buf[tid])), "l"(in + tid) : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_u32(&bar)) : "memory");
  asm volatile("{\n.reg .pred p;\nW_%=:\nmbarrier.test_wait.parity.shared.b64 p, [%0], %1;\n@!p bra W_%=;\n}" ::"r"(smem_u32(&bar)), "r"(0) : "memory");
  uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(buf[(tid + 1) % 32]));
  out[tid] = __uint_as_float(r);
}
int main() {
  float h[32], *din, *dout;
  for (int i = 0; i < 32; i++) h[i] = 1.0f + i / 1024.0f + 1 / 8192.0f;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof h);
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  k<<<1, 32>>>(din, dout);
  cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost);
  printf("%.9g %.9g %.9g\n", h[0], h[1], h[31]);
  return 0;
}
// OUT: 1.00097656 1.00195312 1
// ---- inline PTX: reading another thread's cp.async destination without waiting on the mbarrier is a race
#include <stdint.h>
__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }
__global__ void k(const float *in, float *out) {
  __shared__ float buf[32];
  unsigned tid = threadIdx.x;
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem_u32(&buf[tid])), "l"(in + tid) : "memory"); // NOTE "the other access: write by thread 1 of block 0"
  asm volatile("cp.async.wait_all;" ::: "memory");
  out[tid] = buf[(tid + 1) % 32]; // ERROR C0501 col=14 "shared memory buf \(byte 4\): read by thread 0 of block 0 \(kernel k\) conflicts with an unordered write by thread 1"
}
int main() {
  float *d;
  cudaMalloc(&d, 256);
  cudaMemset(d, 0, 256);
  k<<<1, 32>>>(d, d + 32);
  cudaDeviceSynchronize();
  return 0;
}
// ---- inline PTX: an mbarrier that expects more arrivals than arrive never completes its phase
#include <stdint.h>
__global__ void k() {
  __shared__ uint64_t bar;
  uint32_t a = (uint32_t)__cvta_generic_to_shared(&bar);
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(5) : "memory"); // NOTE "the mbarrier initialized here \(5 arrivals per phase\) is in phase 0; it misses 1 arrivals and 0 transaction bytes"
  __syncthreads();
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(a) : "memory");
  asm volatile("{\n.reg .pred P1;\nWAIT:\nmbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n@!P1 bra WAIT;\n}" ::"r"(a), "r"(0) : "memory"); // ERROR C0502 col=3 "deadlock in block 0 of kernel k: a barrier or mbarrier phase that threads wait for can never complete" // NOTE "threads 0-3 wait at an mbarrier phase of parity 0"
}
int main() {
  k<<<1, 4>>>();
  cudaDeviceSynchronize();
  return 0;
}
// ---- inline PTX: mma.sync m16n8k8 tf32 computes D = A B + C with the ISA's fragment layout
#include <stdio.h>
#include <stdint.h>
__global__ void k(float *out) {
  int lane = threadIdx.x, g = lane / 4, t = lane % 4;
  // A[i][k] = i + k, B[k][j] = k - j, C[i][j] = 100 i + j
  float a0 = g + t, a1 = g + 8 + t, a2 = g + t + 4, a3 = g + 8 + t + 4;
  float b0 = t - g, b1 = t + 4 - g;
  float d0 = 100 * g + 2 * t, d1 = d0 + 1, d2 = d0 + 800, d3 = d2 + 1;
  uint32_t A0, A1, A2, A3, B0, B1;
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(A0) : "f"(a0));
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(A1) : "f"(a1));
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(A2) : "f"(a2));
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(A3) : "f"(a3));
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(B0) : "f"(b0));
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(B1) : "f"(b1));
  asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
               : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3)
               : "r"(A0), "r"(A1), "r"(A2), "r"(A3), "r"(B0), "r"(B1));
  out[g * 8 + 2 * t] = d0;
  out[g * 8 + 2 * t + 1] = d1;
  out[(g + 8) * 8 + 2 * t] = d2;
  out[(g + 8) * 8 + 2 * t + 1] = d3;
}
int main() {
  float *d, h[128];
  cudaMalloc(&d, sizeof h);
  k<<<1, 32>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  // D[i][j] = 100 i + j + sum_k (i + k)(k - j)
  int bad = 0;
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 8; j++) {
      float want = 100 * i + j;
      for (int k = 0; k < 8; k++) want += (i + k) * (k - j);
      if (h[i * 8 + j] != want) bad++;
    }
  printf("%g %g %g mismatches %d\n", h[0], h[9], h[127], bad);
  return 0;
}
// OUT: 140 233 1031 mismatches 0
// ---- inline PTX: a named barrier orders a producer warp before a consumer warp; the other warp does not take part
#include <stdio.h>
__global__ void k(int *out) {
  __shared__ int s[32];
  int w = threadIdx.x / 32, l = threadIdx.x % 32;
  if (w == 0) s[l] = l * l;
  if (w < 2) asm volatile("barrier.cta.sync %0, %1;" ::"r"(1), "r"(64) : "memory");
  if (w == 1) out[l] = s[31 - l];
}
int main() {
  int *d, h[32];
  cudaMalloc(&d, sizeof h);
  k<<<1, 96>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[31]);
  return 0;
}
// OUT: 961 0
// ---- inline PTX: an instruction without a model is reported at the template
__global__ void k(unsigned *p) {
  unsigned a = 0, b, c, d, e;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(b), "=r"(c), "=r"(d), "=r"(e) : "r"(a)); // ERROR C0315 col=16 "line 1 of the asm template: ldmatrix.sync.aligned.m8n8.x4.shared.b16: no model for this PTX instruction"
}
int main() { return 0; }
