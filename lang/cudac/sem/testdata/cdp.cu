// ---- cdp: dynamic parallelism: recursive launches from device code run after their parent (a child reads what its parent wrote before the launch; the tree is recorded in memory, as concurrent grids print in no fixed order on a GPU); device-side streams and cudaStreamFireAndForget; a quicksort by child grids
#include <cstdio>
__device__ int launches;
// one slot per tree node, level by level (2 + 4 + 8): the node's depth + 1
// when every ancestor's slot was visible to its child, the parent block in
// the upper bits
__device__ int nodes[14];
__global__ void tree(int depth, int maxDepth, int parentPos) {
  if (threadIdx.x != 0) return;
  int pos = parentPos * 2 + blockIdx.x;
  int chain = depth == 0 ? 1 : (nodes[(1 << depth) - 2 + parentPos] & 0xff) + 1;
  nodes[(1 << (depth + 1)) - 2 + pos] = chain | (parentPos & 1) << 8;
  if (depth + 1 < maxDepth) {
    atomicAdd(&launches, 1);
    tree<<<2, 2>>>(depth + 1, maxDepth, pos);
  }
}
__device__ void swapInts(int *a, int *b) { int t = *a; *a = *b; *b = t; }
__global__ void sortRange(int *d, int lo, int hi) {
  if (hi - lo < 1) return;
  int pivot = d[(lo + hi) / 2], i = lo, j = hi;
  while (i <= j) {
    while (d[i] < pivot) i++;
    while (d[j] > pivot) j--;
    if (i <= j) { swapInts(&d[i], &d[j]); i++; j--; }
  }
  if (lo < j) {
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    sortRange<<<1, 1, 0, s>>>(d, lo, j);
    cudaStreamDestroy(s);
  }
  if (i < hi) {
    sortRange<<<1, 1, 0, cudaStreamFireAndForget>>>(d, i, hi);
  }
}
int main() {
  tree<<<2, 2>>>(0, 3, 0);
  cudaDeviceSynchronize();
  int n = 0, h[14];
  cudaMemcpyFromSymbol(&n, launches, sizeof n);
  cudaMemcpyFromSymbol(h, nodes, sizeof h);
  for (int depth = 0, base = 0; depth < 3; base += 2 << depth, depth++)
    for (int pos = 0; pos < 2 << depth; pos++)
      printf("%*sdepth %d block %d (parent block %d)%s\n", 2 * depth, "", depth, pos & 1,
             depth == 0 ? -1 : h[base + pos] >> 8, (h[base + pos] & 0xff) == depth + 1 ? "" : " before its parent");
  printf("device launches: %d\n", n);
  const int N = 40;
  int *d;
  cudaMallocManaged(&d, N * sizeof(int));
  for (int k = 0; k < N; k++) d[k] = (k * 37 + 11) % 53;
  sortRange<<<1, 1>>>(d, 0, N - 1);
  cudaDeviceSynchronize();
  int sorted = 1;
  for (int k = 1; k < N; k++) sorted &= d[k - 1] <= d[k];
  printf("sorted %d: %d %d %d\n", sorted, d[0], d[N / 2], d[N - 1]);
  return 0;
}
// OUT: depth 0 block 0 (parent block -1)
// OUT: depth 0 block 1 (parent block -1)
// OUT:   depth 1 block 0 (parent block 0)
// OUT:   depth 1 block 1 (parent block 0)
// OUT:   depth 1 block 0 (parent block 1)
// OUT:   depth 1 block 1 (parent block 1)
// OUT:     depth 2 block 0 (parent block 0)
// OUT:     depth 2 block 1 (parent block 0)
// OUT:     depth 2 block 0 (parent block 1)
// OUT:     depth 2 block 1 (parent block 1)
// OUT:     depth 2 block 0 (parent block 0)
// OUT:     depth 2 block 1 (parent block 0)
// OUT:     depth 2 block 0 (parent block 1)
// OUT:     depth 2 block 1 (parent block 1)
// OUT: device launches: 6
// OUT: sorted 1: 0 26 52
// ---- cdp: a child grid is part of its parent's work: a host read before synchronizing races with it
#include <cstdio>
__global__ void child(int *out) { out[threadIdx.x] += 10; }
__global__ void parent(int *out) {
  out[threadIdx.x] = threadIdx.x; // ERROR C0501 col=3 "data race on pinned memory \(byte 8\): write by thread 2 of block 0 \(kernel parent\) conflicts with an unordered read by the host"
  __syncthreads();
  if (threadIdx.x == 0) child<<<1, 4>>>(out);
}
int main() {
  int *out;
  cudaMallocManaged(&out, 4 * sizeof(int));
  parent<<<1, 4>>>(out);
  cudaDeviceSynchronize();
  printf("%d %d\n", out[0], out[3]);
  parent<<<1, 4>>>(out);
  int early = out[2]; // NOTE "the other access: read by the host"
  cudaDeviceSynchronize();
  printf("%d\n", early);
  return 0;
}
// OUT: 10 13
// OUT: 12
// ---- cdp: CDP2 has no device-side cudaDeviceSynchronize
__global__ void child() {}
__global__ void parent() {
  child<<<1, 1>>>();
  cudaDeviceSynchronize(); // ERROR C0307 col=3 "cudaDeviceSynchronize can only be called from host code"
}
int main() { return 0; }
// ---- cdp: the device runtime's cudaMalloc and cudaFree use the device heap; a floating grid extent converts to unsigned
#include <cstdio>
struct Curve {
  int n;
  float *pts;
};
__global__ void fill(Curve *c, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < c[k].n) c[k].pts[i] = k + i * 0.5f;
}
__global__ void build(Curve *c, int count) {
  int k = threadIdx.x;
  if (k >= count) return;
  c[k].n = 10 * (k + 1);
  if (cudaMalloc((void **)&c[k].pts, c[k].n * sizeof(float)) != cudaSuccess) return;
  fill<<<ceilf(c[k].n / 8.0f), 8>>>(c, k);
  if (cudaGetLastError() != cudaSuccess) printf("launch failed\n");
}
__global__ void sum(Curve *c, int count, float *out) {
  int k = threadIdx.x;
  if (k >= count) return;
  float s = 0;
  for (int i = 0; i < c[k].n; i++) s += c[k].pts[i];
  out[k] = s;
  cudaFree(c[k].pts);
}
int main() {
  Curve *c;
  float *out;
  cudaMalloc(&c, 3 * sizeof(Curve));
  cudaMallocManaged(&out, 3 * sizeof(float));
  build<<<1, 3>>>(c, 3);
  sum<<<1, 3>>>(c, 3, out);
  cudaDeviceSynchronize();
  printf("%.1f %.1f %.1f\n", out[0], out[1], out[2]);
  return 0;
}
// OUT: 22.5 115.0 277.5
