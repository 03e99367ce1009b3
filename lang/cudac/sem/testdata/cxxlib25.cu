// ---- anonymous struct and union members: a union of an anonymous struct and a word, as DXT colour codecs write it (outputs from g++ 12.2)
#include <stdio.h>
union Color32 {
  struct { unsigned char b, g, r, a; };
  unsigned int u;
};
struct S { int k; union { float f; int i; }; struct { short lo, hi; }; };
int main() {
  Color32 c;
  c.u = 0x11223344u;
  printf("%x %x %x %x %d\n", c.b, c.g, c.r, c.a, (int)sizeof(Color32));
  c.r = 0xff;
  printf("%x\n", c.u);
  S s; s.k = 1; s.f = 1.0f; s.lo = 2; s.hi = 3;
  printf("%x %d %d %d %d\n", s.i, s.lo, s.hi, (int)sizeof(S), s.k);
  return 0;
}
// MODE: run
// OUT: 44 33 22 11 4
// OUT: 11ff3344
// OUT: 3f800000 2 3 12 1
// ---- NVTX annotations have no effect; without a tool attached push and pop answer NVTX_NO_PUSH_POP_TRACKING
#include <nvtx3/nvToolsExt.h>
#include <stdio.h>
struct Tracer { Tracer(const char *n) { nvtxRangePushA(n); } ~Tracer() { nvtxRangePop(); } };
int main() {
  Tracer t("main");
  nvtxEventAttributes_t a = {0};
  a.version = NVTX_VERSION; a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE; a.colorType = NVTX_COLOR_ARGB; a.color = 0xff00ff00;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII; a.message.ascii = "x";
  int l = nvtxRangePushEx(&a);
  nvtxRangeId_t id = nvtxRangeStartA("r");
  nvtxMarkA("m");
  nvtxRangeEnd(id);
  printf("%d %d %llu\n", l, nvtxRangePop(), id);
  return 0;
}
// MODE: run
// OUT: -2 -2 0
// ---- cuRAND in a whole program: Philox4_32_10 from key 0 and counter 0 draws Random123's known answer (6627e8d5 e169c58d bc57ac4c 9b00dbd8), skipahead within the counter block; XORWOW seeded and jumped to subsequences as cuRAND documents (these uniforms are our implementation's, not checked on a GPU); the host API's status codes
#include <curand_kernel.h>
#include <curand.h>
#include <stdio.h>
__global__ void draw(unsigned *bits, float *u, float *n) {
  int i = threadIdx.x;
  curandStatePhilox4_32_10_t p;
  curand_init(0, 0, 0, &p);            // key 0, counter 0: Random123's first known answer
  skipahead(i, &p);
  bits[i] = curand(&p);
  curandState x;
  curand_init(1234, i, 0, &x);
  u[i] = curand_uniform(&x);
  float a = curand_normal(&x), b = curand_normal(&x); // one Box-Muller pair
  n[i] = a * a + b * b;
}
int main() {
  unsigned *bits; float *u, *n;
  cudaMallocManaged(&bits, 4 * sizeof(unsigned));
  cudaMallocManaged(&u, 4 * sizeof(float));
  cudaMallocManaged(&n, 4 * sizeof(float));
  draw<<<1, 4>>>(bits, u, n);
  cudaDeviceSynchronize();
  for (int i = 0; i < 4; i++) printf("%08x %.9g %d\n", bits[i], u[i], u[i] > 0.0f && u[i] <= 1.0f && n[i] >= 0.0f);
  curandGenerator_t g;
  printf("%d\n", (int)curandCreateGeneratorHost(&g, CURAND_RNG_PSEUDO_DEFAULT));
  curandSetPseudoRandomGeneratorSeed(g, 1234ULL);
  float h[4];
  printf("%d %d\n", (int)curandGenerateNormal(g, h, 3, 0.0f, 1.0f), (int)curandGenerateUniform(g, h, 4));
  printf("%d\n", h[0] > 0.0f && h[3] <= 1.0f);
  curandDestroyGenerator(g);
  return 0;
}
// MODE: run
// OUT: 6627e8d5 0.145467639 1
// OUT: e169c58d 0.820180893 1
// OUT: bc57ac4c 0.550399244 1
// OUT: 9b00dbd8 0.294830292 1
// OUT: 0
// OUT: 105 0
// OUT: 1
// ---- <cstdarg>: variadic functions of the program, va_arg of promoted int, long long, pointer, unsigned and double (a float argument promoted), va_copy, vsnprintf truncating, vprintf and vfprintf (outputs from g++ 12.2)
#include <cstdio>
#include <cstdarg>
double avg(int n, ...) {
  va_list ap, again;
  va_start(ap, n);
  va_copy(again, ap);
  double s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, double);
  va_end(ap);
  double first = va_arg(again, double);
  va_end(again);
  return s / n + first * 0;
}
void mixed(const char *tag, ...) {
  va_list ap;
  va_start(ap, tag);
  char c = (char)va_arg(ap, int);
  long long big = va_arg(ap, long long);
  const char *str = va_arg(ap, const char *);
  unsigned u = va_arg(ap, unsigned);
  double d = va_arg(ap, double);
  va_end(ap);
  printf("%s %c %lld %s %u %.3f\n", tag, c, big, str, u, d);
}
void report(FILE *f, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char buf[16];
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  fprintf(f, "%s|%d\n", buf, n);
}
int main() {
  printf("%.2f\n", avg(3, 1.0, 2.5f, 4.0));
  mixed("m", 'x', 1LL << 40, "str", 4000000000u, 0.125f);
  report(stdout, "%s-%05d-%x", "abcdef", 42, 255);
  return 0;
}
// MODE: run
// OUT: 2.50
// OUT: m x 1099511627776 str 4000000000 0.125
// OUT: abcdef-00042-ff|15
// ---- structs through "..." pass by value, read back with va_arg(ap, S), among scalars, a float4 and a 16-byte struct (16.75 + 65 + 0.125 + 100 + 1000 + 7 = 1188.875)
#include <cstdio>
#include <cstdarg>
struct S { int a; double b; char c[3]; };
struct Big { long v[5]; };
struct Q { int q[4]; };
double sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double t = 0;
  for (int i = 0; i < n; i++) {
    S s = va_arg(ap, S);
    t += s.a + s.b + s.c[1];
  }
  char c = (char)va_arg(ap, int);
  float4 f = va_arg(ap, float4);
  Big g = va_arg(ap, Big);
  Q q = va_arg(ap, Q);
  int tail = va_arg(ap, int);
  va_end(ap);
  return t + c + f.w + g.v[4] + q.q[3] + tail;
}
int main() {
  S x = {1, 0.5, {0, 2, 0}};
  S y = {10, 0.25, {0, 3, 0}};
  Big g = {{1, 2, 3, 4, 100}};
  Q q = {{0, 0, 0, 1000}};
  x.a = 1; // the callee's copy is the value at the call
  printf("%g\n", sum(2, x, y, 'A', make_float4(0, 0, 0, 0.125f), g, q, 7));
  return 0;
}
// MODE: run
// OUT: 1188.88
// ---- an object with std members through "..." is conditionally-supported: named, not modeled
#include <cstdarg>
#include <string>
struct P { std::string s; };
int take(int n, ...) { return n; }
int main() {
  P p;
  return take(1, p); // ERROR C0309 col=18 "passing an object of struct P, which is not trivially copyable, through \"...\" is conditionally-supported"
}
// ---- va_arg past the arguments passed reads past their block
#include <cstdarg>
int take(int n, ...) { va_list ap; va_start(ap, n); int a = va_arg(ap, int); int b = va_arg(ap, int); va_end(ap); return a + b; } // ERROR C0403 col=86 "out-of-bounds read of 4 bytes at offset 8"
int main() { return take(1, 5); }
// MODE: run
// ---- a variadic function called through a function pointer gets its extra arguments, promoted, as a direct call does (outputs from g++ 12.2)
#include <cstdarg>
#include <cstdio>
double sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, double);
  va_end(ap);
  return s;
}
int main() {
  double (*f)(int, ...) = sum;
  float x = 0.5f;
  printf("%.2f %.2f %.2f\n", sum(2, 1.0, 2.0), f(3, 1.0, x, 4.0), (*f)(0));
  return 0;
}
// MODE: run
// OUT: 3.00 5.50 0.00
// ---- std::deque: push and pop at both ends, indexing, iteration, strings, deep copies (outputs from g++ 12.2)
#include <cstdio>
#include <deque>
#include <string>
int main() {
  std::deque<int> d;
  for (int i = 0; i < 4; i++) { d.push_back(i); d.push_front(-i); }
  printf("size %d front %d back %d [2] %d\n", (int)d.size(), d.front(), d.back(), d[2]);
  d.pop_front();
  d.pop_back();
  for (int x : d) printf("%d ", x);
  printf("\n");
  std::deque<std::string> q;
  q.push_back("b"); q.push_front("a"); q.emplace_front("z"); q.push_back("c");
  while (!q.empty()) { printf("%s ", q.front().c_str()); q.pop_front(); }
  printf("| %d\n", (int)q.size());
  std::deque<int> copy = d;
  copy.push_front(100);
  printf("%d %d %d\n", (int)d.size(), (int)copy.size(), copy.at(0));
  return 0;
}
// MODE: run
// OUT: size 8 front -3 back 3 [2] -1
// OUT: -2 -1 0 0 1 2 
// OUT: z a b c | 0
// OUT: 6 7 100
// ---- pop_front of an empty deque
#include <deque>
int main() {
  std::deque<int> d;
  d.push_back(1);
  d.pop_front();
  d.pop_front(); // ERROR C0403 col=14 "pop_front of an empty std::deque"
  return 0;
}
// MODE: run
// ---- pop_front and push_front into the room it leaves keep the other elements in place: a reference to one stays valid, as C++ [deque.modifiers] says (output from g++ 12; the former model shifted the elements and printed 41 7 30 4)
#include <cstdio>
#include <deque>
int main() {
  std::deque<int> d;
  for (int i = 0; i < 5; i++) d.push_back(i * 10);
  int &keep = d[3];
  d.pop_front();
  d.pop_front();
  d.push_front(7);
  keep += 1;
  printf("%d %d %d %d\n", keep, d[0], d[2], (int)d.size());
  return 0;
}
// OUT: 31 7 31 4
// ---- reading a popped element through a pointer kept across pop_front reads memory the deque no longer holds
#include <cstdio>
#include <deque>
int main() {
  std::deque<int> d;
  for (int i = 0; i < 3; i++) d.push_back(i + 5);
  int *first = &d.front();
  d.pop_front();
  return *first; // WARN C0407 col=10 "read of uninitialized host memory std buffer"
}
// ---- cooperative groups memcpy_async: two copies into shared memory, wait_prior<1> completing the first, wait the second
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__global__ void k(const float *in, float *out, int n) {
  __shared__ float tile[2][64];
  cg::thread_block cta = cg::this_thread_block();
  cg::memcpy_async(cta, tile[0], in, sizeof(float) * 64);
  cg::memcpy_async(cta, tile[1], in + 64, sizeof(float) * 64);
  cg::wait_prior<1>(cta); // tile[0] is here, tile[1] may not be
  float a = tile[0][63 - threadIdx.x];
  cg::wait(cta);
  out[threadIdx.x] = a + tile[1][threadIdx.x];
}
int main() {
  float *in, *out;
  cudaMallocManaged(&in, 128 * sizeof(float));
  cudaMallocManaged(&out, 64 * sizeof(float));
  for (int i = 0; i < 128; i++) in[i] = i;
  k<<<1, 64>>>(in, out, 128);
  cudaDeviceSynchronize();
  printf("%g %g %g\n", out[0], out[1], out[63]);
  return 0;
}
// OUT: 127 127 127
// ---- reading a memcpy_async destination before the wait that completes it is a race
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__global__ void k(const float *in, float *out, int n) {
  __shared__ float tile[2][64];
  cg::thread_block cta = cg::this_thread_block();
  cg::memcpy_async(cta, tile[0], in, sizeof(float) * 64);
  cg::memcpy_async(cta, tile[1], in + 64, sizeof(float) * 64); // ERROR C0501 col=3 "data race on shared memory tile \(byte 256\): write by thread 0"
  cg::wait_prior<1>(cta); // tile[0] is here, tile[1] may not be
  float a = tile[1][63 - threadIdx.x]; // WARN C0407 col=13 "read of uninitialized shared memory tile" // ERROR C0501 col=13 "data race on shared memory tile \(byte 508\): read by thread 0 of block 0 \(kernel k\) of the destination of its own asynchronous copy"
  cg::wait(cta);
  out[threadIdx.x] = a + tile[1][threadIdx.x];
}
int main() {
  float *in, *out;
  cudaMallocManaged(&in, 128 * sizeof(float));
  cudaMallocManaged(&out, 64 * sizeof(float));
  for (int i = 0; i < 128; i++) in[i] = i;
  k<<<1, 64>>>(in, out, 128);
  cudaDeviceSynchronize();
  printf("%g %g %g\n", out[0], out[1], out[63]);
  return 0;
}
// OUT: 64 65 127
// ---- the issuing thread reading the destination of its own memcpy_async before the wait is a race with its copy (PTX orders cp.async with the thread's own accesses only through a wait); after the wait it is not
#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__global__ void k(const float *in, float *out) {
  __shared__ float tile[32];
  cg::thread_block cta = cg::this_thread_block();
  cg::memcpy_async(cta, tile, in, sizeof(float) * 32); // NOTE "the copy"
  float early = tile[5]; // WARN C0407 col=17 "read of uninitialized shared memory tile" // ERROR C0501 col=17 "data race on shared memory tile \(byte 20\): read by thread 0 of block 0 \(kernel k\) of the destination of its own asynchronous copy, which no wait has completed"
  cg::wait(cta);
  out[0] = early + tile[6];
}
int main() {
  float *in, *out;
  cudaMallocManaged(&in, 32 * sizeof(float));
  cudaMallocManaged(&out, sizeof(float));
  for (int i = 0; i < 32; i++) in[i] = i;
  k<<<1, 1>>>(in, out);
  cudaDeviceSynchronize();
  printf("%g\n", out[0]);
  return 0;
}
// OUT: 6
// ---- decltype of a variable, of an expression, in a lambda's parameter and under sizeof (outputs from g++ 12.2)
#include <cstdio>
#include <utility>
int main() {
  int a = 3;
  decltype(a) b = a + 1;
  double d = 2.5;
  decltype(a * d) e = a * d;
  auto p = std::make_pair(1, 2.5f);
  auto f = [](decltype(p) q) { return q.first + q.second; };
  printf("%d %g %g %d\n", b, e, f(p), (int)sizeof(decltype(p)));
  return 0;
}
// MODE: run
// OUT: 4 7.5 3.5 8
// ---- std::vector and std::string from an iterator or pointer range, and assign of a range (outputs from g++ 12.2)
#include <cstdio>
#include <vector>
#include <string>
int main() {
  std::vector<int> v = {5, 3, 9, 1};
  std::vector<int> w(v.begin(), v.end());
  std::vector<int> x(v.begin() + 1, v.end() - 1);
  int a[] = {7, 8, 9};
  std::vector<int> y(a, a + 3);
  std::vector<int> e(a, a);
  std::string s = "hello";
  std::string t(s.begin() + 1, s.end());
  std::vector<char> c(s.begin(), s.end());
  printf("%zu %d %d | %zu %d %d | %zu %d | %zu | %s | %zu %c\n", w.size(), w[0], w[3], x.size(), x[0], x[1], y.size(), y[2], e.size(), t.c_str(), c.size(), c[4]);
  w.assign(a, a + 2);
  x.assign(v.begin(), v.end());
  printf("%zu %d %d | %zu %d\n", w.size(), w[0], w[1], x.size(), x[3]);
  std::vector<int> n(3, 4);
  printf("%zu %d\n", n.size(), n[2]);
  return 0;
}
// MODE: run
// OUT: 4 5 1 | 2 3 9 | 3 9 | 0 | ello | 5 o
// OUT: 2 7 8 | 4 1
// OUT: 3 4
// ---- a range of another element type converts each element, as C++ constructs them (also std elements, copied deeply); the capacity is libstdc++'s (outputs from g++ 12)
#include <cstdio>
#include <vector>
#include <string>
int main() {
  int a[4] = {1, 2, 3, 4};
  std::vector<float> f(a, a + 4);
  std::vector<int> vi = {5, 6, 7};
  std::vector<double> d(vi.begin(), vi.end());
  const char *s = "hello";
  std::vector<char> cs(s, s + 5);
  std::string str(cs.begin(), cs.end());
  std::vector<int> back(str.begin(), str.end());
  std::vector<float> g;
  g.assign(vi.begin(), vi.end());
  std::vector<std::string> words = {"ab", "cd"};
  std::vector<std::string> w2(words.begin(), words.end());
  w2[0] += "x";
  std::vector<double> e(6, 9.0);
  short h[3] = {-1, 2, 3};
  e.assign(h, h + 3);
  printf("%g %g %g %s %d %g %zu\n", f[3] / 8, d[2] / 2, (double)d.size(), str.c_str(), back[1], g[2], g.size());
  printf("%s %s %zu | %zu %zu %g %zu\n", w2[0].c_str(), words[0].c_str(), w2.size(), e.size(), e.capacity(), e[0], f.capacity());
  return 0;
}
// MODE: run
// OUT: 0.5 3.5 3 hello 101 7 3
// OUT: abx ab 2 | 3 6 -1 4
// ---- a range whose elements do not convert is C0302 at the construction
#include <vector>
struct P { int x; };
int main() {
  P ps[2] = {{1}, {2}};
  std::vector<int> bad(ps, ps + 2); // ERROR C0302 col=20 "std::vector<int> from a range of struct P: the elements do not convert to int"
  return 0;
}
// ---- iterators of two different vectors do not delimit a range
#include <vector>
int main() {
  std::vector<int> v = {1, 2}, u = {3};
  std::vector<int> w(v.begin(), u.end()); // ERROR C0402 col=20 "the iterators of a range do not delimit one sequence"
  return (int)w.size();
}
// MODE: run
