// ---- function pointers: calls through (*f)(...) and f(...), arrays of them in device memory and on the host, passed as arguments
#include <cstdio>
__device__ int add1(int x) { return x + 1; }
__device__ int dbl(int x) { return x * 2; }
typedef int (*op_t)(int);
__device__ op_t ops[2] = {add1, dbl};
__global__ void k(int *d) {
  int (*f)(int) = threadIdx.x ? dbl : add1;
  d[threadIdx.x] = (*f)(10) + ops[threadIdx.x](1) + (**f)(0);
}
int apply(int (*g)(int), int v) { return (*g)(v) + g(v); }
int triple(int x) { return x * 3; }
int square(int x) { return x * x; }
int main() {
  int *d, h[2];
  cudaMalloc(&d, sizeof h);
  k<<<1, 2>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int (*tab[2])(int) = {triple, &square};
  printf("%d %d %d %d %d\n", h[0], h[1], apply(triple, 4), (*tab[1])(5), tab[0](2));
  return 0;
}
// OUT: 14 22 24 25 6
// ---- a call through a null function pointer is reported where it happens
#include <cstdio>
__device__ float half_of(float v) { return v / 2; }
__global__ void k(float *d, int pick) {
  float (*f)(float) = 0;
  if (pick) f = half_of;
  d[threadIdx.x] = (*f)(d[threadIdx.x]); // ERROR C0405 col=24 "call through an invalid function pointer 0x0"
}
int main() {
  float *d;
  cudaMalloc(&d, 4 * sizeof(float));
  cudaMemset(d, 0, 4 * sizeof(float));
  k<<<1, 4>>>(d, 0);
  cudaDeviceSynchronize();
  return 0;
}
// ---- virtual functions: pure virtual, override and final, dispatch through pointers, references and arrays of base pointers on the device and the host, Base::f() without dispatch, new with constructor arguments, virtual destructors run by delete with the bases after, and at the end of a kernel's block for its objects
#include <cstdio>
int destroyed = 0;
class Shape {
 public:
  float w;
  int *log;
  __host__ __device__ Shape(float a, int *lg = nullptr) : w(a), log(lg) {}
  __host__ __device__ virtual float area() const = 0;
  __host__ __device__ virtual const char *name() const { return "shape"; }
  __host__ __device__ float twice() const { return 2 * area(); }
  __host__ __device__ virtual ~Shape() {
    if (log) *log += 1;
  }
};
class Sq : public Shape {
 public:
  __host__ __device__ Sq(float a, int *lg = nullptr) : Shape(a, lg) {}
  __host__ __device__ float area() const override { return w * w; }
  __host__ __device__ const char *name() const override { return "square"; }
  __host__ __device__ ~Sq() {
    if (log) *log += 10;
  }
};
class Circle final : public Shape {
 public:
  __host__ __device__ explicit Circle(float r, int *lg = nullptr) : Shape(r, lg) {}
  __host__ __device__ float area() const final { return 3 * w * w; }
};
struct Cube : Sq {
  __host__ __device__ Cube(float a, int *lg = nullptr) : Sq(a, lg) {}
  __host__ __device__ float area() const override { return 6 * Sq::area(); }
};
__host__ __device__ float total(Shape *const *s, int n) {
  float t = 0;
  for (int i = 0; i < n; i++) t += s[i]->area();
  return t;
}
__global__ void k(float *out, int *dlog) {
  Sq s(2, dlog + threadIdx.x);
  Circle c(1, dlog + threadIdx.x);
  Cube q(1);
  Shape *all[3] = {&s, &c, &q};
  const Shape &r = c;
  out[threadIdx.x] = total(all, 3) + r.twice() * threadIdx.x;
}
int main() {
  float *d, h[2];
  int *dlog, hlog[2];
  cudaMalloc(&d, sizeof h);
  cudaMalloc(&dlog, sizeof hlog);
  cudaMemset(dlog, 0, sizeof hlog);
  k<<<1, 2>>>(d, dlog);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(hlog, dlog, sizeof hlog, cudaMemcpyDeviceToHost);
  Shape *p = new Cube(2, &destroyed);
  Shape *q = new Circle(2, &destroyed);
  printf("%g %g %g %s %s %zu %d %d\n", h[0], h[1], p->area(), p->name(), q->name(), sizeof(Sq), hlog[0], hlog[1]);
  delete p;
  delete q;
  printf("%d\n", destroyed);
  return 0;
}
// OUT: 13 19 24 square shape 24 12 12
// OUT: 12
// ---- an abstract class cannot be instantiated; a virtual call on memory that holds no constructed object faults at the call
#include <cstdio>
#include <cstdlib>
struct A {
  virtual int f() = 0;
  virtual int g() { return f() + 1; }
};
struct B : A {
  int f() override { return 41; }
};
int main() {
  B b;
  A *p = (A *)calloc(1, sizeof(B));
  printf("%d\n", b.g());
  printf("%d\n", p->g()); // ERROR C0405 col=22 "virtual call of g on memory that holds no constructed object of struct A or a class derived from it"
  return 0;
}
// OUT: 42
// ---- creating an object of an abstract class is a static error
struct A {
  virtual int f() = 0;
};
struct B : A {};
int main() {
  A *q = new B; // ERROR C0302 col=10 "abstract class struct B \(pure virtual f\)"
  B b; // ERROR C0302 col=5 "abstract class struct B"
  return 0;
}
// ---- class templates: type and value parameters, member typedefs, static members, a partial and an explicit specialization, Name<A>::member, deduction of T and a non-type N from Vec<T, N> and from T (&)[N]
#include <cstdio>
template <typename T, int N>
struct Vec {
  T v[N];
  typedef T value_type;
  __host__ __device__ T sum() const {
    value_type s = 0;
    for (int i = 0; i < N; i++) s += v[i];
    return s;
  }
  __host__ __device__ Vec operator+(const Vec &o) const {
    Vec r;
    for (int i = 0; i < N; i++) r.v[i] = v[i] + o.v[i];
    return r;
  }
  static const int size = N;
};
// partial specialization: one element
template <typename T>
struct Vec<T, 1> {
  T x;
  __host__ __device__ T sum() const { return x * 100; }
};
// explicit specialization
template <>
struct Vec<char, 2> {
  int tag;
  __host__ __device__ int sum() const { return -1; }
};
template <typename T>
struct Traits { static const int bits = 0; };
template <typename T>
struct Traits<T *> { static const int bits = 64; };
template <typename T, int N>
__host__ __device__ T total(const Vec<T, N> &a) { return a.sum() * N; }
template <typename T, int N>
int count(T (&arr)[N]) { return N; }
__global__ void k(float *o) {
  Vec<float, 3> a = {{1, 2, 3}};
  Vec<float, 3> b = a + a;
  Vec<int, 1> one;
  one.x = 2;
  o[0] = b.sum();
  o[1] = total(a);
  o[2] = one.sum();
}
int main() {
  float *d, h[3];
  cudaMalloc(&d, sizeof h);
  k<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  Vec<char, 2> c;
  double xs[7];
  printf("%g %g %g %d %zu %d %d %d\n", h[0], h[1], h[2], c.sum(), sizeof(Vec<double, 4>), count(xs), Traits<int *>::bits, Traits<int>::bits);
  return 0;
}
// OUT: 12 18 200 -1 32 7 64 0
// ---- members defined out of their class (constructors with member initializers, destructors, member functions, of structs and of class templates), a class template deriving from its parameter, virtual members of an instance
#include <cstdio>
struct Counter {
  int n;
  Counter(int start);
  ~Counter();
  int next();
};
Counter::Counter(int start) : n(start) {}
Counter::~Counter() { printf("bye %d\n", n); }
int Counter::next() { return n++; }
template <class B>
class Named : public B {
 public:
  static int made;
  Named(int v);
  virtual ~Named() {}
  virtual const char *what() const { return "named"; }
  int twice();
};
template <class B>
int Named<B>::made = 0;
template <class B>
Named<B>::Named(int v) : B(v) { made++; }
template <class B>
int Named<B>::twice() { return 2 * this->next(); }
template <typename T>
struct Stack {
  T items[8];
  int top;
  __host__ __device__ Stack() : top(0) {}
  __host__ __device__ void push(T x);
  __host__ __device__ T pop() { return items[--top]; }
};
template <typename T>
__host__ __device__ void Stack<T>::push(T x) { items[top++] = x; }
__global__ void k(int *o) {
  Stack<int> s;
  s.push(3);
  s.push(4);
  o[0] = s.pop() * 10 + s.pop();
}
int main() {
  int *d, h;
  cudaMalloc(&d, sizeof h);
  k<<<1, 1>>>(d);
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  Named<Counter> *c = new Named<Counter>(5);
  int a = c->twice();
  int b = c->next();
  printf("%d %d %d %s %d\n", h, a, b, c->what(), Named<Counter>::made);
  delete c;
  return 0;
}
// OUT: 43 10 6 named 1
// OUT: bye 7
// ---- class template errors: wrong argument count or kind, a template without a definition
template <typename T, int N> struct Arr { T v[N]; };
template <typename T> struct Fwd;
Arr<int> a; // ERROR C0313 col=1 "Arr takes 2 template arguments, 1 given"
Arr<int, float> b; // ERROR C0313 col=1 "template argument 2 of Arr must be a value"
Fwd<int> *c; // ERROR C0302 col=1 "class template Fwd is declared but not defined"
int main() { return 0; }
// ---- lambdas as values: captures by value ([=], [x]) and by reference ([&], [&x]), passed to templates by value and by forwarding reference, on the device and the host, returning a struct
#include <cstdio>
template <typename F>
__host__ __device__ int apply(F f, int x) { return f(x) + f(x + 1); }
template <typename F>
void each(int *a, int n, F &&g) { for (int i = 0; i < n; i++) g(a[i]); }
struct P { int a, b; };
__global__ void k(int *o, int s) {
  int base = 10 * threadIdx.x;
  auto add = [=](int v) { return v + base + s; };
  o[threadIdx.x] = apply(add, 1) + apply([](int v) { return v * v; }, 2);
}
int main() {
  int *d, h[2];
  cudaMalloc(&d, sizeof h);
  k<<<1, 2>>>(d, 100);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int sum = 0, scale = 3;
  int a[4] = {1, 2, 3, 4};
  each(a, 4, [&](int v) { sum += v * scale; });
  int captured = scale;
  auto byval = [captured, &sum](int v) { sum += 1000; return captured * v; };
  scale = 99;
  P p = {5, 6};
  auto mk = [p](int z) -> P { return P{p.a + z, p.b}; };
  P q = mk(1); int before = sum, b2 = byval(2); // argument order is unspecified (g++: right to left), so sequence byval's effect
  printf("%d %d %d %d %d %d\n", h[0], h[1], before, b2, sum, q.a * 10 + q.b);
  return 0;
}
// OUT: 216 236 30 6 1030 66
// ---- a generic lambda used as a value is a positioned diagnostic
template <typename F> int call(F f) { return f(1); } // ERROR C0305 col=46 "called object of type int"
int main() {
  int r = call([](auto v) { return v; }); // ERROR C0309 col=16 "a generic lambda \(auto parameter\) used as a value is not supported"
  return r;
}
// ---- the texture fetches without a model are reported at each call (gather, LOD, gradients)
__global__ void k(unsigned long long tex, float *o) {
  o[0] = tex2Dgather<float>(tex, 0.5f, 0.5f, 0); // ERROR C0309 col=10 "tex2Dgather is not modeled \(texture and surface objects are"
  o[1] = tex2DLod<float>(tex, 0.5f, 0.5f, 0.0f); // ERROR C0309 col=10 "tex2DLod is not modeled"
}
int main() { return 0; }
// ---- a sample-style helper header: virtual timer classes created with new and destroyed through the base, flags compared with strncasecmp, __FILE__ in a macro; its functions that need unmodeled library classes are never compiled, as they are never called
#include "include/sample_helpers.h"
__global__ void scale(float *v, float k) { v[threadIdx.x] *= k; }
int main(int argc, const char **argv) {
  Timer *t = NULL;
  makeTimer(&t);
  t->start();
  float *d, h[4] = {1, 2, 3, 4};
  CHECK(cudaMalloc(&d, sizeof h));
  CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
  scale<<<1, 4>>>(d, 2.5f);
  CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  t->stop();
  const char *args[] = {"prog", "--Device=1", "-quiet"};
  printf("%g %g %d %d %d %d\n", h[0], h[3], flagIndex(3, args, "device"), flagIndex(3, args, "QUIET"),
         flagIndex(3, args, "verbose"), t->elapsedMs() >= 0);
  freeTimer(&t);
  CHECK(cudaFree(d));
  CHECK(cudaMemcpy(h, h, sizeof h, (cudaMemcpyKind)9));
  return 0;
}
// OUT: 2.5 10 1 2 -1 1
// STDERR: testdata/cxxobj.cu:314: CUDA error 21
// ---- try and catch: a thrown int is caught by its handler (testdata/exceptions.cu has the rest)
#include <cstdio>
int parse(int v) {
  if (v < 0) throw 1;
  return v * 2;
}
int main() {
  try {
    printf("%d\n", parse(2));
    parse(-1);
  } catch (int e) {
    printf("caught %d\n", e);
  } catch (...) {
  }
  return 0;
}
// OUT: 4
// OUT: caught 1
// ---- half2 constructor-style initialization (float4 has none: see below); a parenthesized expression starting with a functional cast; EXIT_FAILURE without <stdlib.h>
#include <cstdio>
#include <cuda_fp16.h>
__global__ void k(float *o) {
  half2 h(1.5f, -2.0f);
  float4 f = make_float4(1, 2, 3, 4);
  o[0] = __low2float(h) + __high2float(h) + (float(f.w) * 2.0f);
}
int main() {
  float *d, r;
  cudaMalloc(&d, sizeof r);
  k<<<1, 1>>>(d);
  cudaMemcpy(&r, d, sizeof r, cudaMemcpyDeviceToHost);
  printf("%g %d\n", r, EXIT_FAILURE);
  return 0;
}
// OUT: 7.5 1
// ---- operators: prefix and postfix ++ (the dummy int), binary -, *=, <, !=, operator() with two arguments, a converting constructor with a default argument, friend operators defined in a class and in a class template (one per instance)
#include <cstdio>
struct C {
  int v;
  __host__ __device__ C(int x = 0) : v(x) {}
  __host__ __device__ C &operator++() { ++v; return *this; }
  __host__ __device__ C operator++(int) { C old = *this; v++; return old; }
  __host__ __device__ C operator-(const C &o) const { return C(v - o.v); }
  __host__ __device__ C &operator*=(int k) { v *= k; return *this; }
  __host__ __device__ bool operator<(const C &o) const { return v < o.v; }
  __host__ __device__ bool operator!=(const C &o) const { return v != o.v; }
  __host__ __device__ int operator()(int a, int b) const { return v * a + b; }
  friend __host__ __device__ C operator+(const C &a, int b) { return C(a.v + b); }
};
template <typename T> struct W {
  T x;
  __host__ __device__ W operator*(const W &o) const { return W{x * o.x}; }
  friend __host__ __device__ W operator-(const W &a) { return W{-a.x}; }
};
int main() {
  C a(5), b(2);
  C c = a - b;
  ++c;
  C d = c++;
  d *= 3;
  C e = a + 10;
  W<float> w{1.5f}, w2 = w * w;
  W<int> wi{4};
  W<int> wn = -wi;
  W<float> wf = -w2;
  printf("%d %d %d %d %d %d %d %g %d %g\n", c.v, d.v, (int)(b < a), (int)(a != a), a(2, 1), e.v, C(7).v, w2.x, wn.x, wf.x);
  return 0;
}
// OUT: 5 12 1 0 11 15 7 2.25 -4 -2.25
// ---- an enum name is a type name; return {} and return {a, b}; T x = {0} zero-fills a struct whose first member is an array; CUDART_VERSION is predefined
#include <cstdio>
enum Mode { FAST, SLOW };
struct Pair { int a; float b; };
__host__ __device__ Pair mk(bool z) {
  if (z) return {};
  return {3, 1.5f};
}
int pick(Mode m) { if (m == SLOW) return {}; return {7}; }
cudaDeviceProp prop = {0};
int main() {
  Pair p = mk(false), q = mk(true);
  cudaDeviceProp local = {0};
  printf("%d %g %d %g %d %d %d %d\n", p.a, p.b, q.a, q.b, pick(FAST), pick(SLOW), local.major, CUDART_VERSION >= 2020);
  return 0;
}
// OUT: 3 1.5 0 0 7 0 0 1
// ---- a kernel launched through a pointer chosen at run time: the pointer selects the kernel
#include <cstdio>
__global__ void copyK(float *o, const float *i, int n) { int t = threadIdx.x; if (t < n) o[t] = i[t]; }
__global__ void dblK(float *o, const float *i, int n) { int t = threadIdx.x; if (t < n) o[t] = 2 * i[t]; }
__device__ float plain(float x) { return x; }
int main() {
  void (*kernel)(float *, const float *, int);
  const char *names[2] = {"copy", "double"};
  float *a, *b, h[4] = {1, 2, 3, 4};
  cudaMalloc(&a, sizeof h);
  cudaMalloc(&b, sizeof h);
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  for (int k = 0; k < 2; k++) {
    switch (k) {
      case 0: kernel = &copyK; break;
      case 1: kernel = &dblK; break;
    }
    kernel<<<1, 4>>>(b, a, 4);
    cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost);
    printf("%s %g %g\n", names[k], h[0], h[3]);
  }
  return 0;
}
// OUT: copy 1 4
// OUT: double 2 8
// ---- a launch through a pointer that is not a kernel faults at the launch
__global__ void k1(int *o) { o[0] = 1; }
int main() {
  void (*kernel)(int *) = 0;
  int *d;
  cudaMalloc(&d, 4);
  kernel<<<1, 1>>>(d); // ERROR C0309 col=3 "launch through a pointer that is not a __global__ function of this type"
  return 0;
}
// ---- a discarded *p (an expression statement, a for step, the left of a comma) is not a read: *p++ only advances p
#include <cstdio>
unsigned radix2(unsigned *log2L, unsigned L) {
  for (*log2L = 0; (L & 1) == 0; L >>= 1, *log2L++)
    ;
  return L;
}
int main() {
  unsigned l;
  int a[2] = {1, 2}, *p = a;
  *p++;
  *p++;
  printf("%u %d\n", radix2(&l, 48), (int)(p - a));
  return 0;
}
// OUT: 3 2
// ---- polymorphic objects created with new and destroyed with delete in device code; objects value-initialized with {} and T() keep their class
#include <cstdio>
struct Base { __device__ virtual int f() const { return 1; } __device__ virtual ~Base() {} };
struct Der : Base { int k; __device__ Der(int x) : k(x) {} __device__ int f() const override { return k; } };
__global__ void k(int *o) {
  Base *b = threadIdx.x ? (Base *)new Der(10 + threadIdx.x) : new Base();
  o[threadIdx.x] = b->f();
  delete b;
}
struct H { virtual int g() const { return 5; } };
struct H2 : H { int g() const override { return 6; } };
int main() {
  H2 a{}, b = H2();
  const H &ra = a, &rb = b;
  printf("%d %d %d\n", ra.g(), rb.g(), H2().g());
  int *d, h[2];
  cudaMalloc(&d, sizeof h);
  k<<<1, 2>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[1]);
  return 0;
}
// OUT: 6 6 6
// OUT: 1 11
// ---- conversion functions: SharedMemory<T> (operator T*() and operator const T*()) in a kernel template, operator double() in arithmetic and initialization; an explicit instantiation adds nothing
#include <cstdio>
template <class T> struct SharedMemory {
  __device__ inline operator T *() {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
  __device__ inline operator const T *() const {
    extern __shared__ int __smem[];
    return (T *)__smem;
  }
};
struct Meters {
  double v;
  __host__ __device__ operator double() const { return v; }
  __host__ __device__ explicit operator bool() const { return v != 0; }
};
template <class T> __global__ void sum(const T *in, T *out) {
  T *s = SharedMemory<T>();
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    T t = 0;
    for (int i = 0; i < blockDim.x; i++) t += s[i];
    *out = t;
  }
}
template __global__ void sum<float>(const float *, float *);
int main() {
  float h[4] = {1, 2, 3, 4}, *d, r;
  cudaMalloc(&d, 5 * sizeof(float));
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  sum<float><<<1, 4, 4 * sizeof(float)>>>(d, d + 4);
  cudaMemcpy(&r, d + 4, sizeof r, cudaMemcpyDeviceToHost);
  Meters m{2.5};
  double x = m * 2;
  double y = m;
  printf("%g %g %g\n", r, x, y);
  return 0;
}
// OUT: 10 5 2.5
// ---- a lambda capturing by reference that returns a struct (its closure is called)
#include <cstdio>
struct Q { int a, b; };
int main() {
  Q q = {3, 4};
  int k = 10;
  auto pick = [&q, &k](unsigned i) -> const Q {
    switch (i) {
      case 0: return Q{q.a * k, q.b};
      case 1: return q;
    }
    return {};
  };
  Q x = pick(0), y = pick(1), z = pick(7);
  k = 2;
  Q w = pick(0);
  printf("%d %d %d %d %d %d\n", x.a, x.b, y.a, z.a, z.b, w.a);
  return 0;
}
// OUT: 30 4 3 0 0 6
// ---- a function and a function template of one name: a call without template arguments is the function's
#include <cstdio>
template <unsigned B, bool Pow2> __global__ void scale(float *v) { v[threadIdx.x] *= Pow2 ? B : 1; }
void scale(int n, float *d) {
  if (n == 4) scale<2, true><<<1, 4>>>(d);
  else scale<2, false><<<1, n>>>(d);
}
int main() {
  float h[4] = {1, 2, 3, 4}, *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  scale(4, d);
  scale(3, d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%g %g\n", h[0], h[3]);
  return 0;
}
// OUT: 2 8
// ---- user-declared assignment operators (overloaded), unary operator! and operator* on objects
#include <cstdio>
struct Acc {
  int n, copies;
  Acc() : n(0), copies(0) {}
  Acc &operator=(const Acc &o) { n = o.n; copies = o.copies + 1; return *this; }
  Acc &operator=(int v) { n = v; return *this; }
  bool operator!() const { return n == 0; }
  int operator*() const { return n * 10; }
};
int main() {
  Acc a, b;
  a = 5;
  b = a;
  Acc c;
  c = b = a;
  printf("%d %d %d %d %d %d\n", b.n, b.copies, c.copies, (int)!a, (int)!Acc(), *a);
  return 0;
}
// OUT: 5 1 2 0 1 50
// ---- overloaded member functions (of a struct and of a class template), chosen by the arguments, also unqualified inside a member; a member returning a reference returns the object another member returned
#include <cstdio>
template <typename T> struct Grid {
  T d[6];
  int w;
  __host__ __device__ T &at(int i) { return d[i]; }
  __host__ __device__ T &at(int x, int y) { return at(y * w + x); }
  __host__ __device__ T get(float f) const { return (T)(f * 2); }
  __host__ __device__ T get(int i) const { return d[i]; }
};
struct S {
  int v;
  int f(int a) { return a + v; }
  int f(int a, int b) { return a * b + v; }
  double f(double x) { return x / 2; }
};
int main() {
  Grid<int> g;
  g.w = 3;
  for (int i = 0; i < 6; i++) g.at(i) = i * i;
  g.at(1, 1) = 100;
  S s{1};
  printf("%d %d %d %d %d %g\n", g.at(2, 1), g.get(4), g.get(1.5f), s.f(2), s.f(2, 3), s.f(3.0));
  return 0;
}
// OUT: 25 100 3 3 7 1.5
// ---- an object constructed on the host and copied to the device has the host's virtual functions: a virtual call on the device is undefined, and reported
struct B { __host__ __device__ virtual int f() const { return 1; } };
struct D : B { __host__ __device__ int f() const override { return 2; } };
__global__ void k(const D *d, int *o) { o[0] = d->f(); } // ERROR C0405 col=52 "virtual call of f on an object of struct D constructed in host code, called from device code"
int main() {
  D h;
  D *dd;
  int *o;
  cudaMalloc(&dd, sizeof(D));
  cudaMalloc(&o, 4);
  cudaMemcpy(dd, &h, sizeof(D), cudaMemcpyHostToDevice);
  k<<<1, 1>>>(dd, o);
  cudaDeviceSynchronize();
  return h.f() - 2;
}
// ---- default template arguments of class and function templates, depending on earlier parameters
#include <cstdio>
template <typename T, int N = 4, typename Acc = T>
struct Buf {
  T v[N];
  __host__ __device__ Acc total() const { Acc s = 0; for (int i = 0; i < N; i++) s += v[i]; return s; }
};
template <int B = 128, typename T = float>
__host__ __device__ T scaled(T x) { return x * B; }
int main() {
  Buf<int> a = {{1, 2, 3, 4}};
  Buf<char, 2, int> b = {{100, 100}};
  Buf<float, 3> c = {{0.5f, 0.25f, 0.25f}};
  printf("%d %d %g %zu %zu %g %d\n", a.total(), b.total(), c.total(), sizeof(Buf<double>), sizeof(Buf<char, 2, int>), scaled(1.5f), scaled<2>(3));
  return 0;
}
// OUT: 10 200 1 32 2 192 6
// ---- destructors of automatic objects run where their block ends and on return, break and continue, latest first, bases after; also inside an inline lambda
#include <cstdio>
int order[16], n = 0;
struct Guard {
  int id;
  Guard(int i) : id(i) {}
  ~Guard() { order[n++] = id; }
};
struct Timer : Guard {
  Timer() : Guard(99) {}
  ~Timer() { order[n++] = -1; }
};
int f(int k) {
  Guard a(1);
  for (int i = 0; i < 3; i++) {
    Guard b(10 + i);
    if (i == 1) continue;
    if (i == 2) break;
  }
  {
    Guard c(2);
    if (k) return k * 10;
  }
  Guard d(3);
  return 0;
}
int main() {
  int r1 = f(1);
  int r2 = f(0);
  {
    Timer t;
    auto g = [&]() { Guard in(7); return 5; };
    r1 += g();
  }
  printf("%d %d:", r1, r2);
  for (int i = 0; i < n; i++) printf(" %d", order[i]);
  printf("\n");
  return 0;
}
// OUT: 15 0: 10 11 12 2 1 10 11 12 2 3 1 7 -1 99
// ---- member function templates: deduced and explicit (x.f<2>(...)) arguments, called from another member
#include <cstdio>
struct Loader {
  int scale;
  template <typename T> __host__ __device__ T load(const T *p, int i) const { return p[i] * (T)scale; }
  template <int N> __host__ __device__ int sumN(const int *p) const {
    int s = 0;
    for (int i = 0; i < N; i++) s += load(p, i);
    return s;
  }
};
__global__ void k(const float *f, const int *v, float *o) {
  Loader l{3};
  o[0] = l.load(f, 1) + l.sumN<2>(v);
}
int main() {
  float hf[2] = {0.5f, 1.5f}, *df, r;
  int hv[2] = {1, 2}, *dv;
  cudaMalloc(&df, sizeof hf);
  cudaMalloc(&dv, sizeof hv);
  cudaMalloc(&df, sizeof hf);
  cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice);
  cudaMemcpy(dv, hv, sizeof hv, cudaMemcpyHostToDevice);
  float *dout;
  cudaMalloc(&dout, sizeof r);
  k<<<1, 1>>>(df, dv, dout);
  cudaMemcpy(&r, dout, sizeof r, cudaMemcpyDeviceToHost);
  Loader h{2};
  printf("%g %g %d\n", r, h.load(hf, 0), h.load(hv, 1));
  return 0;
}
// OUT: 13.5 1 4
// ---- lambdas capturing this ([this], or [=]/[&] naming members) in member functions, passed to a template; a lambda nested in a closure captures the outer one's captures
#include <cstdio>
struct S {
  int k;
  template <typename F> int apply(F f) const { return f(2); }
  int twice(int v) const { return 2 * v; }
  int run() { return apply([this](int x) { return x * k + this->k; }); }
  int run2() { return apply([=](int x) { return twice(x) + k; }); }
  int run3() {
    apply([&](int x) { k += x; return 0; });
    return k;
  }
};
int main() {
  S s{5};
  int base = 100;
  auto outer = [=](int x) {
    auto inner = [=](int y) { return y + base; };
    return s.apply(inner) + x;
  };
  int r1 = s.run(), r2 = s.run2(), r3 = s.run3(); printf("%d %d %d %d\n", r1, r2, r3, outer(1)); // argument order is unspecified
  return 0;
}
// OUT: 15 9 7 103
// ---- a global object whose constructor is defined in a header (compiled because the global's initializer uses it)
#include "include/sample_helpers.h"
WallTimer global_timer;
int main() {
  global_timer.start();
  global_timer.stop();
  printf("%d\n", global_timer.elapsedMs() >= 0);
  return 0;
}
// OUT: 1
// ---- the vector types of vector_types.h are aggregates: constructor-style initialization is an error, as with nvcc
__global__ void k(float *o) {
  float4 f(1, 2, 3, 4); // ERROR C0302 col=10 "float4 has no constructor \(it is an aggregate of vector_types.h\): write float4 v = make_float4\(...\)"
  int2 i = {5, 6};
  o[0] = f.x + i.y;
}
int main() { return 0; }
// ---- list-initialization of a class with constructors calls the constructor: T x{a, b}, T{a, b}, T x = {a}; std::runtime_error e{"..."} (output pinned against g++)
#include <cstdio>
#include <stdexcept>
struct P { int a, b; P(int x, int y) : a(x * 10), b(y * 10) {} };
int main() {
  std::runtime_error e{"local braced"};
  P p{1, 2};
  P q = P{3, 4};
  printf("%s %d %d %d %d\n", e.what(), p.a, p.b, q.a, q.b);
  return 0;
}
// OUT: local braced 10 20 30 40
