// ---- C++17 as generated code uses it: attributes, static members, nested structs, default member initializers, if constexpr, explicit specializations, traits, if-init, range for, __FILE__/__LINE__, stderr
#include <cstdio>
#include <cstdint>
#include <climits>
#include <type_traits>
#include <cuda_bf16.h>

#define CHECK(x) do { if (!(x)) { fprintf(stderr, "%s:%d: check failed\n", __FILE__, __LINE__); } } while (0)

constexpr int kN = 8;
constexpr float kScale = 0.5f;
static_assert(kN % 4 == 0, "kN is a multiple of 4");

struct alignas(16) Cfg {
  static constexpr unsigned blockDim = 4;
  static constexpr int tiles = kN / 4;
  struct Task {
    int m, n;
  };
  struct State {
    unsigned count = 7;
    unsigned phase = 0;
  };
  int x;
  static void launch(int *d);
  static __device__ void work(int *d, State &s, const Task &t);
};

__global__ void __launch_bounds__(4, 1) kern(int *d) {
  [[maybe_unused]] Cfg::State st{};
  for (int m = 0; m < Cfg::tiles; m++) Cfg::work(d, st, Cfg::Task{m, (int)threadIdx.x});
}

__device__ void Cfg::work(int *d, State &s, const Task &t) {
  d[t.m * blockDim + t.n] = (int)(s.count * kScale * 4) + t.m;
  s.phase++;
}

void Cfg::launch(int *d) { kern<<<1, blockDim>>>(d); }

template <typename T> inline T from_double(double v) {
  if constexpr (std::is_integral<T>::value) return (T)(long long)v;
  else return (T)v;
}
template <> inline __nv_bfloat16 from_double<__nv_bfloat16>(double v) { return __double2bfloat16(v); }
template <typename T> inline double to_double(T v) { return (double)v; }
template <> inline double to_double<__nv_bfloat16>(__nv_bfloat16 v) { return (double)__bfloat162float(v); }

int main() {
  int *d, h[kN];
  cudaMalloc(&d, sizeof h);
  Cfg::launch(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int v : h) printf("%d ", v);
  printf("\n");
  printf("%zu %d %d\n", sizeof(Cfg), (int)std::is_same<int, int32_t>::value, (int)std::is_unsigned<int>::value);
  printf("%d %g %g\n", from_double<int>(2.75), from_double<float>(2.75), to_double(from_double<__nv_bfloat16>(1.00390625)));
  if (int k = h[1]; k > 10) printf("big %d\n", k); else printf("small %d\n", k);
  CHECK(h[0] == 99);
  fprintf(stdout, "line %d %d\n", __LINE__, INT_MAX);
  return 0;
}
// OUT: 14 14 14 14 15 15 15 15 
// OUT: 16 1 0
// OUT: 2 2.75 1
// OUT: big 14
// OUT: line 60 2147483647
// STDERR: testdata/cxx17.cu:59: check failed
// ---- kernels and functions as values, cudaLaunchKernelEx with a cluster attribute, device attributes, occupancy, opt-in shared memory, stream-ordered allocation, driver entry points, C strings
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void fill(int *d, int v) { d[threadIdx.x + blockIdx.x * blockDim.x] = v + threadIdx.x; }
extern __shared__ int dyn[];
__global__ void big(int *d) { dyn[threadIdx.x] = threadIdx.x; __syncthreads(); d[threadIdx.x] = dyn[(threadIdx.x + 1) % blockDim.x]; }

static int twice(int x) { return 2 * x; }
static int square(int x) { return x * x; }
typedef int (*unop)(int);
typedef CUresult (*encode_t)(CUtensorMap *, CUtensorMapDataType, cuuint32_t);

int apply(unop f, int x) { return f(x); }

int main(int argc, char **argv) {
  printf("argc=%d argv0=%s\n", argc, argc > 1 ? argv[1] : "-");
  unop ops[2] = {twice, &square};
  for (int i = 0; i < 2; i++) printf("%d ", apply(ops[i], 7));
  printf("\n");
  int sms = 0, optin = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  printf("sms=%d optin=%d\n", sms, optin);
  int nb = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, fill, 256, 0);
  printf("blocks/SM=%d\n", nb);
  int *d;
  cudaMallocAsync((void **)&d, 64 * sizeof(int), 0);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(2, 1, 1);
  cfg.blockDim = dim3(32, 1, 1);
  cfg.dynamicSmemBytes = 0;
  cfg.stream = 0;
  cudaLaunchAttribute attrs[1];
  attrs[0].id = cudaLaunchAttributeClusterDimension;
  attrs[0].val.clusterDim.x = 2;
  attrs[0].val.clusterDim.y = 1;
  attrs[0].val.clusterDim.z = 1;
  cfg.attrs = attrs;
  cfg.numAttrs = 1;
  cudaError_t e = cudaLaunchKernelEx(&cfg, fill, d, 100);
  int h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("launch=%d h[33]=%d\n", (int)e, h[33]);
  big<<<1, 32, 64 * 1024>>>(d); // WARN C0603 "kernel big not launched: 65536 bytes of dynamic shared memory without cudaFuncSetAttribute"
  printf("without opt-in: %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
  big<<<1, 32, 64 * 1024>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("with opt-in: %s %d\n", cudaGetErrorName(cudaGetLastError()), h[31]);
  cudaFreeAsync(d, 0);
  cudaDeviceSynchronize();
  encode_t enc = nullptr;
  cudaDriverEntryPointQueryResult q;
  cudaGetDriverEntryPointByVersion("cuNotAFunction", (void **)&enc, 12000, cudaEnableDefault, &q);
  printf("entry: %d %d\n", (int)q, enc == nullptr);
  char buf[32];
  int n = snprintf(buf, 8, "%d-%s", 12345, "abcdef");
  char *end;
  printf("%d %s %lld %g %lu %s %d\n", n, buf, strtoll("  -42x", &end, 10), strtod("2.5e1", NULL), strtoul("0x1f", NULL, 0), strchr("hello", 'l'), strncmp("abcd", "abce", 3));
  printf("%s %lld\n", end, atoll("9000000000"));
  printf("%s\n", getenv("WEFT_TEST_UNSET_VAR") ? "set" : "unset");
  return 0;
}
// OUT: argc=1 argv0=-
// OUT: 14 49 
// OUT: sms=132 optin=232448
// OUT: blocks/SM=8
// OUT: launch=0 h[33]=101
// OUT: without opt-in: cudaErrorInvalidValue
// OUT: with opt-in: cudaSuccess 0
// OUT: entry: 1 1
// OUT: 12 12345-a -42 25 31 llo 0
// OUT: x 9000000000
// OUT: unset
// ---- static_assert, if constexpr and unsupported C++ are positioned diagnostics
#include <cstdio>
template <int N> __device__ int f() {
  static_assert(N % 2 == 0, "N is even"); // ERROR C0316 "static assertion failed: N is even"
  return N;
}
__global__ void k(int *d, int n) {
  d[0] = f<3>();
  if constexpr (sizeof(int) == 4) d[1] = 1;
  int x = n;
  if constexpr (x > 0) d[2] = 2; // ERROR C0313 col=19 "if constexpr condition is not a constant expression"
}
static_assert(sizeof(long) == 8, "LP64");
static_assert(sizeof(int) == 8); // ERROR C0316 "static assertion failed: condition is false"
int main() { return 0; }
// ---- a class template nested in a class template is a positioned diagnostic (member function templates are supported: cxx28.cu)
template <typename U> struct Box { template <typename T> struct In { T x; }; }; // ERROR C0206 col=23 "member templates are not supported"
int main() { return 0; }
// ---- cuda::atomic_ref: load, store, fetch_add, fetch_or on bytes, compare_exchange_strong, with memory orders; atomics never race
#include <cstdio>
#include <cstdint>
#include <cuda/atomic>
__device__ bool flag[4];
__global__ void k(uint32_t *cnt, unsigned char *bytes) {
  cuda::atomic_ref<uint32_t, cuda::thread_scope_device> c(*cnt);
  c.fetch_add(2, cuda::memory_order_relaxed);
  cuda::atomic_ref<bool, cuda::thread_scope_device>(flag[threadIdx.x % 4]).store(true, cuda::memory_order_release);
  cuda::atomic_ref<unsigned char, cuda::thread_scope_block>(bytes[0]).fetch_or(1u << (threadIdx.x % 8));
  uint32_t expected = 0;
  cuda::atomic_ref<uint32_t>(cnt[1]).compare_exchange_strong(expected, threadIdx.x + 100);
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    bool f = cuda::atomic_ref<bool, cuda::thread_scope_device>(flag[0]).load(cuda::memory_order_acquire);
    cnt[2] = f;
  }
}
int main() {
  uint32_t *d, h[3] = {0, 0, 0};
  unsigned char *b, hb = 0;
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&b, 1);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaMemcpy(b, &hb, 1, cudaMemcpyHostToDevice);
  k<<<2, 16>>>(d, b);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hb, b, 1, cudaMemcpyDeviceToHost);
  printf("%u %u %u %u\n", h[0], h[1], h[2], hb);
  return 0;
}
// OUT: 64 100 1 255
// ---- default arguments, also declared on a prototype
#include <cstdio>
int scale(int x, int by = 2, int plus = 0);
int scale(int x, int by, int plus) { return x * by + plus; }
__device__ float lerp(float a, float b, float t = 0.5f) { return a + (b - a) * t; }
__global__ void k(float *o) { o[0] = lerp(1.0f, 3.0f); o[1] = lerp(1.0f, 3.0f, 0.25f); }
int main() {
  float *d, h[2];
  cudaMalloc(&d, sizeof h);
  k<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d %g %g\n", scale(5), scale(5, 3), scale(5, 3, 1), h[0], h[1]);
  return 0;
}
// OUT: 10 15 16 2 1.5
// ---- operator overloading (member and free, binary, unary, compound, [] returning a reference, () of a function object), functions returning references, c ? x : y as an lvalue
#include <cstdio>
struct V2 {
  float x, y;
  __host__ __device__ V2 operator+(const V2 &o) const { return V2{x + o.x, y + o.y}; }
  __host__ __device__ V2 &operator+=(const V2 &o) { x += o.x; y += o.y; return *this; }
  __host__ __device__ float &operator[](int i) { return i == 0 ? x : y; }
  __host__ __device__ bool operator==(const V2 &o) const { return x == o.x && y == o.y; }
};
__host__ __device__ V2 operator*(float s, const V2 &v) { return V2{s * v.x, s * v.y}; }
__host__ __device__ V2 operator-(const V2 &v) { return V2{-v.x, -v.y}; }
struct Scale {
  float k;
  __host__ __device__ float operator()(float v) const { return k * v; }
};
__global__ void k(V2 *out) {
  V2 a{1, 2}, b{3, 4};
  V2 c = a + b;
  c += 2.0f * a;
  c[1] = c[1] + 100;
  Scale s{0.5f};
  out[0] = -c;
  out[1] = V2{s(c[0]), (float)(a == V2{1, 2})};
}
int main() {
  V2 *d, h[2];
  cudaMalloc(&d, sizeof h);
  k<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%g %g %g %g\n", h[0].x, h[0].y, h[1].x, h[1].y);
  return 0;
}
// OUT: -6 -110 3 1
// ---- single inheritance: the base's members first, its member functions and constructor, a derived object bound to a base reference
#include <cstdio>
struct Shape {
  float w, h;
  __host__ __device__ Shape(float a, float b) : w(a), h(b) {}
  __host__ __device__ float area() const { return w * h; }
};
struct Box : public Shape {
  float d;
  __host__ __device__ Box(float a, float b, float c) : Shape(a, b), d(c) {}
  __host__ __device__ float volume() const { return area() * d; }
};
__host__ __device__ float twice(const Shape &s) { return 2 * s.area(); }
__global__ void k(float *o) {
  Box b(2, 3, 4);
  o[0] = b.volume();
  o[1] = twice(b);
  o[2] = b.w + b.d;
}
int main() {
  float *d, h[3];
  cudaMalloc(&d, sizeof h);
  k<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%g %g %g %zu\n", h[0], h[1], h[2], sizeof(Box));
  return 0;
}
// OUT: 24 12 6 12
