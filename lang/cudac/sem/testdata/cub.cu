// ---- <cub/cub.cuh>: BlockReduce (Sum, Reduce with CUDA 13's cuda::maximum<>, which replaced cub::Max), BlockScan (InclusiveSum, ExclusiveSum with the aggregate), WarpReduce (Sum per warp), each over its typename X::TempStorage in shared memory; results checked against the host's
#include <cstdio>
#include <cub/cub.cuh>
__global__ void k(const int *in, int *out) {
  typedef cub::BlockReduce<int, 128> BlockReduce;
  typedef cub::BlockScan<int, 128> BlockScan;
  typedef cub::WarpReduce<int> WarpReduce;
  __shared__ typename BlockReduce::TempStorage rtemp;
  __shared__ typename BlockScan::TempStorage stemp;
  __shared__ typename WarpReduce::TempStorage wtemp[4];
  int v = in[threadIdx.x];
  int sum = BlockReduce(rtemp).Sum(v);
  __syncthreads();
  int mx = BlockReduce(rtemp).Reduce(v, cuda::maximum<>{});
  int incl, excl, agg;
  BlockScan(stemp).InclusiveSum(v, incl);
  __syncthreads();
  BlockScan(stemp).ExclusiveSum(v, excl, agg);
  int ws = WarpReduce(wtemp[threadIdx.x / 32]).Sum(v);
  if (threadIdx.x == 0) { out[0] = sum; out[1] = mx; }
  if (threadIdx.x == 127) { out[2] = incl; out[3] = excl; out[4] = agg; }
  if (threadIdx.x % 32 == 0) out[5 + threadIdx.x / 32] = ws;
}
int main() {
  int *in, *out;
  cudaMallocManaged(&in, 128 * sizeof(int));
  cudaMallocManaged(&out, 16 * sizeof(int));
  for (int i = 0; i < 128; i++) in[i] = (i * 37) % 101;
  k<<<1, 128>>>(in, out);
  cudaDeviceSynchronize();
  int s = 0, m = 0;
  for (int i = 0; i < 128; i++) { s += in[i]; m = in[i] > m ? in[i] : m; }
  printf("%d %d | %d %d\n", out[0], out[1], s, m);
  printf("%d %d %d\n", out[2], out[3], out[4]);
  printf("%d %d %d %d\n", out[5], out[6], out[7], out[8]);
}
// OUT: 6321 100 | 6321 100
// OUT: 6321 6268 6321
// OUT: 1586 1599 1612 1524

// ---- <cub/cub.cuh>: reusing a BlockReduce's TempStorage without the __syncthreads() CUB's documentation requires is a race
#include <cstdio>
#include <cub/cub.cuh>
__global__ void k(const int *in, int *out) {
  typedef cub::BlockReduce<int, 128> BlockReduce;
  typedef cub::BlockScan<int, 128> BlockScan;
  typedef cub::WarpReduce<int> WarpReduce;
  __shared__ typename BlockReduce::TempStorage rtemp;
  __shared__ typename BlockScan::TempStorage stemp;
  __shared__ typename WarpReduce::TempStorage wtemp[4];
  int v = in[threadIdx.x];
  int sum = BlockReduce(rtemp).Sum(v);
  int mx = BlockReduce(rtemp).Reduce(v, cub::Max()); // ERROR C0501 col=37 "data race on shared memory rtemp \(byte 4\): write by thread 1 of block 0 \(kernel k\) conflicts with an unordered read by thread 0"
  int incl, excl, agg;
  BlockScan(stemp).InclusiveSum(v, incl);
  __syncthreads();
  BlockScan(stemp).ExclusiveSum(v, excl, agg);
  int ws = WarpReduce(wtemp[threadIdx.x / 32]).Sum(v);
  if (threadIdx.x == 0) { out[0] = sum; out[1] = mx; }
  if (threadIdx.x == 127) { out[2] = incl; out[3] = excl; out[4] = agg; }
  if (threadIdx.x % 32 == 0) out[5 + threadIdx.x / 32] = ws;
}
int main() {
  int *in, *out;
  cudaMallocManaged(&in, 128 * sizeof(int));
  cudaMallocManaged(&out, 16 * sizeof(int));
  for (int i = 0; i < 128; i++) in[i] = (i * 37) % 101;
  k<<<1, 128>>>(in, out);
  cudaDeviceSynchronize();
  int s = 0, m = 0;
  for (int i = 0; i < 128; i++) { s += in[i]; m = in[i] > m ? in[i] : m; }
  printf("%d %d | %d %d\n", out[0], out[1], s, m);
  printf("%d %d %d\n", out[2], out[3], out[4]);
  printf("%d %d %d %d\n", out[5], out[6], out[7], out[8]);
}
// OUT: 6321 100 | 6321 100
// OUT: 6321 6268 6321
// OUT: 1586 1599 1612 1524
// ---- the parts of CUB that are not modeled are named at their use (before, cub::DeviceReduce::Sum flattened into cub::Sum, a type, and read as a declaration)
#include <cub/cub.cuh>
int main() { void *t = 0; size_t n = 0; cub::DeviceReduce::Sum(t, n, (int*)0, (int*)0, 4); return 0; } // ERROR C0309 col=41 "cub::DeviceReduce is not modeled" // ERROR C0202 col=63 "expected a declarator name"
// ---- CUDA 13's <cuda/functional>: cuda::maximum and cuda::minimum as function objects (typed, and the void cuda::maximum<> of any type) and as CUB's reduction operators (BlockReduce, with num_valid; WarpReduce); a program's own maximum keeps its name
#include <cstdio>
#include <cub/cub.cuh>
#include <cuda/functional>
__host__ __device__ int maximum(int a, int b, int c) { return a > b ? (a > c ? a : c) : (b > c ? b : c); }
__global__ void k(const int *in, int *out) {
  typedef cub::BlockReduce<int, 64> BlockReduce;
  typedef cub::WarpReduce<int> WarpReduce;
  __shared__ typename BlockReduce::TempStorage t;
  __shared__ typename WarpReduce::TempStorage w[2];
  int v = in[threadIdx.x];
  int mn = BlockReduce(t).Reduce(v, cuda::minimum<>{});
  __syncthreads();
  int mx10 = BlockReduce(t).Reduce(v, cuda::maximum<>(), 10);
  int wmax = WarpReduce(w[threadIdx.x / 32]).Reduce(v, cuda::maximum<>{});
  if (threadIdx.x == 0) { out[0] = mn; out[1] = mx10; out[4] = cuda::maximum<int>{}(v, 50); }
  if (threadIdx.x % 32 == 0) out[2 + threadIdx.x / 32] = wmax;
}
int main() {
  int *in, *out;
  cudaMallocManaged(&in, 64 * sizeof(int));
  cudaMallocManaged(&out, 8 * sizeof(int));
  for (int i = 0; i < 64; i++) in[i] = (i * 29 + 7) % 83;
  k<<<1, 64>>>(in, out);
  cudaDeviceSynchronize();
  int mn = 1000, mx10 = -1, w0 = -1, w1 = -1;
  for (int i = 0; i < 64; i++) {
    mn = in[i] < mn ? in[i] : mn;
    if (i < 10) mx10 = in[i] > mx10 ? in[i] : mx10;
    if (i < 32) w0 = in[i] > w0 ? in[i] : w0;
    else w1 = in[i] > w1 ? in[i] : w1;
  }
  printf("%d %d %d %d %d | %d %d %d %d\n", out[0], out[1], out[2], out[3], out[4], mn, mx10, w0, w1);
  printf("%d %g %d\n", cuda::minimum<>()(4, -3), cuda::maximum<>{}(2.5, 1.5), maximum(1, 9, 4));
  return 0;
}
// OUT: 0 73 81 80 50 | 0 73 81 80
// OUT: -3 2.5 9
// ---- a typedef of a class template instance named other than the template (BR, WR: before, the token scan kept the name twice and the parser stopped at C0202), at file and block scope, with and without typename, and typename at the start of a statement
#include <cstdio>
#include <cub/cub.cuh>
typedef cub::BlockReduce<int, 64> BR;
template <typename T> struct Pair { typedef T Elem; T a, b; };
typedef Pair<int> IntPair;
__global__ void k(const int *in, int *out) {
  typedef cub::WarpReduce<int> WR;
  __shared__ BR::TempStorage t;
  __shared__ typename WR::TempStorage w[2];
  int v = in[threadIdx.x];
  int sum = BR(t).Sum(v);
  typename WR::TempStorage *mine = &w[threadIdx.x / 32];
  int ws = WR(*mine).Sum(v);
  if (threadIdx.x == 0) out[0] = sum;
  if (threadIdx.x % 32 == 0) out[1 + threadIdx.x / 32] = ws;
}
int main() {
  int *in, *out;
  cudaMallocManaged(&in, 64 * sizeof(int));
  cudaMallocManaged(&out, 4 * sizeof(int));
  for (int i = 0; i < 64; i++) in[i] = (i * 13 + 5) % 47;
  k<<<1, 64>>>(in, out);
  cudaDeviceSynchronize();
  int s = 0, s0 = 0;
  for (int i = 0; i < 64; i++) { s += in[i]; if (i < 32) s0 += in[i]; }
  typename IntPair::Elem e = 2;
  IntPair::Elem f = 3;
  printf("%d %d %d | %d %d %d\n", out[0], out[1], out[2], s, s0, s - s0);
  printf("%d\n", e * f);
  return 0;
}
// OUT: 1477 733 744 | 1477 733 744
// OUT: 6
