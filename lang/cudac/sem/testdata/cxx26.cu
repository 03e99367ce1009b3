// ---- nvcc's two passes: __CUDA_ARCH__ is undefined in host code and 900 in __global__ and __device__ functions (syntax/devicepass.go); a __host__ __device__ function is the host pass's
// MODE: run
#include <cstdio>
__device__ int arch() {
#ifdef __CUDA_ARCH__
  return __CUDA_ARCH__;
#else
  return -1;
#endif
}
#if __CUDA_ARCH__ >= 700
__device__ int onlyDevice() { return 7; }
#endif
__host__ __device__ int both() {
#ifdef __CUDA_ARCH__
  return 1;
#else
  return 2;
#endif
}
__global__ void k(int *o) {
#if __CUDA_ARCH__ >= 700
  o[0] = arch();
  o[1] = onlyDevice();
#else
  o[0] = 0;
  o[1] = 0;
#endif
  o[2] = both();
}
int main() {
  int *o;
  cudaMallocManaged(&o, 3 * sizeof(int));
  k<<<1, 1>>>(o);
  cudaDeviceSynchronize();
#ifdef __CUDA_ARCH__
  printf("host sees __CUDA_ARCH__\n");
#endif
  printf("%d %d %d %d\n", o[0], o[1], o[2], both());
  return 0;
}
// OUT: 900 7 2 2
// ---- <cuda/barrier>: cuda::barrier<thread_scope_block> in shared memory, init, arrive returning a token, wait(std::move(token)): the phase orders the writes before the reads
#include <cstdio>
#include <cuda/barrier>
#include <utility>
__global__ void k(int *o) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int s[64];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  for (int round = 0; round < 2; round++) {
    s[threadIdx.x] = threadIdx.x + 100 * round;
    auto tok = bar.arrive();
    bar.wait(std::move(tok));
    o[64 * round + threadIdx.x] = s[63 - threadIdx.x];
    bar.arrive_and_wait();
  }
}
int main() {
  int *o;
  cudaMallocManaged(&o, 128 * sizeof(int));
  k<<<1, 64>>>(o);
  cudaDeviceSynchronize();
  int moved = std::move(o[127]);
  printf("%d %d %d %d\n", o[0], o[63], o[64], moved);
  return 0;
}
// OUT: 63 0 163 100
// ---- reading before waiting on the barrier's phase is a race
#include <cstdio>
#include <cuda/barrier>
__global__ void k(int *o) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ int s[64];
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  s[threadIdx.x] = threadIdx.x;
  auto tok = bar.arrive();
  o[threadIdx.x] = s[63 - threadIdx.x]; // ERROR C0501 col=20 "data race on shared memory s \(byte 252\): read by thread 0 of block 0 \(kernel k\) conflicts with an unordered write by thread 63"
  bar.wait(tok);
}
int main() { int *o; cudaMallocManaged(&o, 256); k<<<1, 64>>>(o); cudaDeviceSynchronize(); return 0; }
// ---- a barrier of namespace cuda and the program's own barrier are two names
#include <cstdio>
#include <cuda/barrier>
struct barrier { int n; };
int main() {
  barrier b = {3};
  printf("%d\n", b.n);
  return 0;
}
// MODE: run
// OUT: 3
// ---- x = {...}: a vector keeps its storage when the list fits (libstdc++'s capacities), a struct takes T{...}, a scalar the one element (outputs from g++ 12)
#include <cstdio>
#include <string>
#include <vector>
struct P { int a; float b; };
int main() {
  std::vector<double> d = {9, 9, 9, 9, 9, 9};
  printf("%zu %zu\n", d.size(), d.capacity());
  d = {1, 2};
  printf("%zu %zu %g\n", d.size(), d.capacity(), d[1]);
  d = {1, 2, 3, 4, 5, 6, 7, 8};
  printf("%zu %zu %g\n", d.size(), d.capacity(), d[7]);
  std::vector<int> e{4, 5, 6};
  e.push_back(7);
  printf("%zu %zu\n", e.size(), e.capacity());
  P p = {1, 2};
  p = {3, 4.5f};
  int x = 1;
  x = {7};
  std::string s = "a";
  s = {};
  printf("%d %g %d %zu\n", p.a, p.b, x, s.size());
  return 0;
}
// MODE: run
// OUT: 6 6
// OUT: 2 6 2
// OUT: 8 8 8
// OUT: 4 6
// OUT: 3 4.5 7 0
// ---- an array is not assignable, from a list either; a scalar takes one element
int main() {
  int a[2];
  a = {1, 2}; // ERROR C0303 col=3 "array is not assignable \(assigning a list to int\[2\]\)"
  int x;
  x = {1, 2}; // ERROR C0302 col=7 "a list of 2 elements assigned to int, a scalar"
  return 0;
}
// ---- std::vector insert (value, n copies, a range), emplace and erase (one, a range): the returned iterators, libstdc++'s capacities, deep copies of strings (outputs from g++ 12)
#include <cstdio>
#include <vector>
#include <string>
int main() {
  std::vector<int> v = {1, 2, 3};
  auto it = v.insert(v.begin() + 1, 10);
  printf("%d %zu %zu |", *it, v.size(), v.capacity());
  v.insert(v.end(), 2, 7);
  int a[3] = {100, 200, 300};
  v.insert(v.begin(), a, a + 3);
  for (int x : v) printf(" %d", x);
  printf(" | %zu %zu\n", v.size(), v.capacity());
  it = v.erase(v.begin() + 2);
  printf("%d ", *it);
  it = v.erase(v.begin(), v.begin() + 3);
  printf("%d |", *it);
  for (int x : v) printf(" %d", x);
  printf(" | %zu %zu\n", v.size(), v.capacity());
  std::vector<std::string> w = {"a", "b"};
  std::string s = "mid";
  w.insert(w.begin() + 1, s);
  s += "!";
  w.emplace(w.end(), "z");
  w.erase(w.begin());
  for (auto &x : w) printf("%s ", x.c_str());
  printf("%zu\n", w.size());
  std::vector<int> e;
  e.insert(e.begin(), 5);
  printf("%d %zu\n", e[0], e.size());
  return 0;
}
// MODE: run
// OUT: 10 4 6 | 100 200 300 1 10 2 3 7 7 | 9 12
// OUT: 1 10 | 10 2 3 7 7 | 5 12
// OUT: mid b z 3
// OUT: 5 1
// ---- erase(end()) is C0403 (undefined in C++)
#include <vector>
int main() {
  std::vector<int> v = {1, 2};
  v.erase(v.end()); // ERROR C0403 col=10 "std::vector::erase\(end\(\)\): no element to erase"
  return 0;
}
// MODE: run
// ---- an iterator of another vector as the position is C0402
#include <vector>
int main() {
  std::vector<int> v = {1, 2}, u = {3};
  v.insert(u.begin(), 4); // ERROR C0402 col=11 "std::vector::insert: the position \(0x[0-9a-f]+\) is not an iterator into this vector of 2 elements"
  return 0;
}
// MODE: run
// ---- a reference kept across an insert that reallocates is a use after free naming the insert
#include <vector>
int main() {
  std::vector<int> v = {1, 2};
  int &first = v[0];
  v.insert(v.begin(), 0);
  return first; // ERROR C0404 col=10 "use of host memory \(a std::vector's storage, given back when the insert at line [0-9]+:11 reallocated\) after it was freed"
}
// MODE: run
// ---- <limits> is a known header: std::numeric_limits (output from g++ 12)
#include <cstdio>
#include <limits>
int main() {
  printf("%d %g %d\n", std::numeric_limits<int>::max(), std::numeric_limits<float>::lowest(), std::numeric_limits<unsigned char>::max());
  return 0;
}
// MODE: run
// OUT: 2147483647 -3.40282e+38 255
// ---- constexpr functions in constant expressions: array sizes, template arguments, static_assert, recursion (output as nvcc computes it)
#include <cstdio>
constexpr int sq(int x) { return x * x; }
constexpr int tiles(int n, int t) { return (n + t - 1) / t; }
template <int N> struct B { int v[N]; };
static_assert(sq(3) == 9, "sq");
__global__ void k(int *o) {
  __shared__ int s[sq(4)];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  o[threadIdx.x] = s[15 - threadIdx.x];
}
int main() {
  int *o;
  cudaMallocManaged(&o, 16 * sizeof(int));
  k<<<1, sq(4)>>>(o);
  cudaDeviceSynchronize();
  B<tiles(10, 4)> b;
  int arr[sq(2)];
  printf("%d %zu %zu %d\n", o[0], sizeof b.v / sizeof(int), sizeof arr / sizeof(int), sq(5));
  return 0;
}
constexpr int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
int table[fact(4)];
static_assert(sizeof table == 96, "fact");
// MODE: run
// OUT: 15 3 4 25
// ---- a failed static_assert over a constexpr call is C0316; a constexpr body that is no single return is not evaluated (C++14 loops), so its call is no constant here
constexpr int halve(int n) { return n / 2; }
constexpr int loop(int n) { int s = 0; for (int i = 0; i < n; i++) s += i; return s; }
static_assert(halve(9) == 5, "halve"); // ERROR C0316 col=1 "halve"
int a[loop(3)]; // ERROR C0313 col=7 "array size is not a non-negative constant"
int main() { return 0; }
// ---- the warp reduce functions of compute capability 8.0: __reduce_add/min/max_sync of int and unsigned, __reduce_and/or/xor_sync, over the lanes of the mask
#include <cstdio>
__global__ void k2(unsigned *o) {
  int v = threadIdx.x - 5;
  unsigned u = threadIdx.x * 3u;
  o[0 + threadIdx.x] = __reduce_max_sync(0xffffffff, v);
  o[32 + threadIdx.x] = __reduce_min_sync(0x0000ffff << (threadIdx.x & 16), u);
  o[64 + threadIdx.x] = __reduce_xor_sync(0xffffffff, u);
  o[96 + threadIdx.x] = __reduce_or_sync(0xffffffff, u);
  int s = __reduce_add_sync(0xffffffff, v);
  if (threadIdx.x == 31) o[31] = (unsigned)s;
}
int main() {
  unsigned *o;
  cudaMallocManaged(&o, 128 * sizeof(unsigned));
  k2<<<1, 32>>>(o);
  cudaDeviceSynchronize();
  printf("%d %u %u %u %u %d\n", (int)o[0], o[32], o[48], o[64], o[96], (int)o[31]);
  return 0;
}
// MODE: run
// OUT: 26 0 48 32 127 336
// ---- a warp reduce function in host code is C0307
int main() { return (int)__reduce_add_sync(0xffffffff, 1u); } // ERROR C0307 col=26 "__reduce_add_sync is a device function"
// ---- <array>: std::array by brace elision and {}, operator[], at (throwing std::out_of_range), front/back/size/empty/fill/end, range for (also over a const reference), passed by value to a kernel, as a member; a variable of the program named array keeps its meaning (outputs from g++ 12)
#include <cstdio>
#include <array>
#include <stdexcept>
struct Cfg { std::array<float, 3> w; int n; };
__global__ void k(std::array<int, 4> a, int *o) { o[threadIdx.x] = a[threadIdx.x] * 2; }
int sum(const std::array<int, 4> &a) { int s = 0; for (int x : a) s += x; return s; }
int main() {
  std::array<int, 4> a = {1, 2, 3, 4};
  int array[2] = {7, 8};
  std::array<double, 2> z{};
  a[0] = 10;
  Cfg c = {{0.5f, 1.5f, 2.5f}, 3};
  int *o;
  cudaMallocManaged(&o, 4 * sizeof(int));
  k<<<1, 4>>>(a, o);
  cudaDeviceSynchronize();
  std::array<char, 3> s;
  s.fill('x');
  printf("%d %zu %d %d %g %g %d %d %c %d\n", sum(a), a.size(), a.front() + a.back(), o[3], c.w[2], z[1], array[1], (int)a.empty(), s[2], *(a.end() - 1));
  try {
    a.at(4) = 1;
  } catch (const std::out_of_range &e) {
    printf("caught out_of_range\n");
  }
  return 0;
}
// MODE: run
// OUT: 19 4 14 8 2.5 0 8 0 x 4
// OUT: caught out_of_range
// ---- range for over a class of the program with begin() and end(): an iterator class with !=, ++ and *
#include <cstdio>
struct Count {
  struct It {
    int i;
    bool operator!=(const It &o) const { return i != o.i; }
    void operator++() { i++; }
    int operator*() const { return i * i; }
  };
  int n;
  It begin() const { return It{0}; }
  It end() const { return It{n}; }
};
int main() {
  Count c{4};
  int s = 0;
  for (int sq : c) s += sq;
  printf("%d\n", s);
  return 0;
}
// MODE: run
// OUT: 14
// ---- <initializer_list>: a parameter, a variable and a constructor taking std::initializer_list (chosen by T x = {...} and T x{...}), range for over one; f({...}) copy-list-initializes a struct or std::vector parameter (outputs from g++ 12)
#include <cstdio>
#include <initializer_list>
#include <vector>
struct P { int a, b; };
int sum(std::initializer_list<int> l) { int s = 0; for (int x : l) s += x; return s + (int)l.size() * 100; }
int dot(P p) { return p.a * p.b; }
struct Bag {
  int n, total;
  Bag(std::initializer_list<int> l) : n((int)l.size()), total(0) { for (int x : l) total += x; }
};
int main() {
  std::initializer_list<double> d = {1.5, 2.5};
  double ds = 0;
  for (double x : d) ds += x;
  Bag b = {4, 5, 6};
  Bag e{7};
  printf("%d %d %g %zu %d %d %d %d\n", sum({1, 2, 3}), dot({3, 4}), ds, d.size(), b.n, b.total, e.n, e.total);
  return 0;
}
// MODE: run
// OUT: 306 12 4 2 3 15 1 7
// ---- a std::vector parameter from a braced list
#include <cstdio>
#include <vector>
int total(std::vector<int> v) { int s = 0; for (int x : v) s += x; return s; }
int main() { printf("%d\n", total({1, 2, 3})); return 0; }
// MODE: run
// OUT: 6
// ---- cuda::barrier: a deadlock inside <cuda/barrier>'s wrappers is reported at the program's call, the header's line as a note
#include <cuda/barrier>
__global__ void k() {
  __shared__ cuda::barrier<cuda::thread_scope_block> b;
  if (threadIdx.x == 0) init(&b, 5); // one arrival more than the block has threads
  __syncthreads();
  b.arrive_and_wait(); // ERROR C0502 col=20 "deadlock in block 0 of kernel k: a barrier or mbarrier phase that threads wait for can never complete" // NOTE "threads 0-3 wait at an mbarrier phase of parity 0 \(mbarrier wait\) \(inside the library's cuda::barrier<[0-9]+>::arrive_and_wait, <__weft/cuda_barrier.h>:13:3\)"
}
int main() {
  k<<<1, 4>>>();
  cudaDeviceSynchronize();
  return 0;
}
