// Dynamic parallelism and the race checker (cdp.go): a child grid is
// ordered after what its launching thread did, and synchronized with,
// before the launch, not after the parent's later accesses or other
// threads' (CUDA C++ Programming Guide, "CUDA Dynamic Parallelism",
// "Coherence and Consistency").
// ---- cdp: a parent write after the launch races with the child's read
#include <cstdio>
__global__ void child(const int *p, int *out) { out[0] = p[0]; } // ERROR C0501 col=58 "data race on global memory \(byte 0\): read by thread 0 of block 0 \(kernel child\) conflicts with an unordered write by thread 0 of block 0 \(kernel parent\)"
__global__ void parent(int *p, int *out) {
  if (threadIdx.x == 0) {
    child<<<1, 1>>>(p, out);
    p[0] = 1; // NOTE col=5 "the other access: write by thread 0 of block 0 \(kernel parent\)"
  }
}
int main() {
  int *p, *out;
  cudaMalloc(&p, 4 * sizeof(int));
  cudaMalloc(&out, 4 * sizeof(int));
  parent<<<1, 32>>>(p, out);
  cudaDeviceSynchronize();
  return 0;
}
// ---- cdp: a parent write before the launch, by the launching thread or by its block before a __syncthreads, is seen by the child; the child's own children in one stream run in order; the stream's next kernel and the host come after all of them
#include <cstdio>
__global__ void grand(int *p) { p[2] += 1000; }
__global__ void child(int *p) {
  p[2] = p[0] + p[1];
  grand<<<1, 1>>>(p);
  grand<<<1, 1>>>(p); // the same stream as the first: after it
}
__global__ void parent(int *p) {
  if (threadIdx.x == 1) p[1] = 20;
  __syncthreads();
  if (threadIdx.x == 0) {
    p[0] = 10;
    child<<<1, 1>>>(p);
  }
}
__global__ void after(int *p) { p[3] = p[2] + 1; }
int main() {
  int *p;
  cudaMallocManaged(&p, 4 * sizeof(int));
  parent<<<1, 32>>>(p);
  after<<<1, 1>>>(p);
  cudaDeviceSynchronize();
  printf("%d %d\n", p[2], p[3]);
  return 0;
}
// OUT: 2030 2031
// ---- cdp: another parent block's write, or another thread's of the launching block without a barrier, races with the child's read
#include <cstdio>
__global__ void child(const int *p, int *out) { out[0] = p[1] + p[2]; } // ERROR C0501 col=58 "data race on global memory \(byte 4\): read by thread 0 of block 0 \(kernel child\) conflicts with an unordered write by thread 0 of block 1 \(kernel parent\)" // ERROR C0501 col=65 "data race on global memory \(byte 8\): read by thread 0 of block 0 \(kernel child\) conflicts with an unordered write by thread 5 of block 0 \(kernel parent\)"
__global__ void parent(int *p, int *out) {
  if (blockIdx.x == 1 && threadIdx.x == 0) p[1] = 1; // NOTE col=44 "the other access: write by thread 0 of block 1 \(kernel parent\)"
  if (blockIdx.x == 0 && threadIdx.x == 5) p[2] = 2; // NOTE col=44 "the other access: write by thread 5 of block 0 \(kernel parent\)"
  if (blockIdx.x == 0 && threadIdx.x == 0) child<<<1, 1>>>(p, out);
}
int main() {
  int *p, *out;
  cudaMalloc(&p, 4 * sizeof(int));
  cudaMalloc(&out, 4 * sizeof(int));
  parent<<<2, 32>>>(p, out);
  cudaDeviceSynchronize();
  return 0;
}
// ---- cdp: fire-and-forget children are not ordered with each other; a tail launch runs after the whole parent grid and its other children
#include <cstdio>
__global__ void put(int *p, int v) { p[0] = v; } // ERROR C0501 col=38 "data race on global memory \(byte 0\): write by thread 0 of block 0 \(kernel put\) conflicts with an unordered write by thread 0 of block 0 \(kernel put\)" // NOTE col=38 "the other access: write by thread 0 of block 0 \(kernel put\)"
__global__ void sum(const int *p, int *out) { *out = p[1] + p[2]; }
__global__ void parent(int *p, int *out) {
  if (threadIdx.x == 0) {
    put<<<1, 1, 0, cudaStreamFireAndForget>>>(p, 1);
    put<<<1, 1, 0, cudaStreamFireAndForget>>>(p, 2);
    sum<<<1, 1, 0, cudaStreamTailLaunch>>>(p, out);
  }
  if (threadIdx.x == 1) p[1] = 5; // the tail launch is after every parent thread
  if (threadIdx.x == 2) p[2] = 6;
}
int main() {
  int *p, *out;
  cudaMalloc(&p, 4 * sizeof(int));
  cudaMallocManaged(&out, sizeof(int));
  parent<<<1, 32>>>(p, out);
  cudaDeviceSynchronize();
  printf("%d\n", *out);
  return 0;
}
// OUT: 11
