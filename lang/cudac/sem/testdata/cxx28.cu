// ---- perfect forwarding (C++ [temp.deduct.call]p3, [forward]): std::forward<T>(x) is an lvalue where T was deduced from an lvalue and an xvalue otherwise, so a forwarded rvalue chooses the move constructor or the && overload and a unique_ptr passes through a forwarding wrapper; T(args...) expands a pack (output from g++ 12)
#include <cstdio>
#include <memory>
#include <utility>
struct R {
  int v;
  R(int x) : v(x) { printf("ctor %d\n", v); }
  R(const R &o) : v(o.v) { printf("copy %d\n", v); }
  R(R &&o) : v(o.v) { o.v = -1; printf("move %d\n", v); }
  ~R() { printf("dtor %d\n", v); }
};
void f(const R &r) { printf("f const& %d\n", r.v); }
void f(R &&r) { printf("f && %d\n", r.v); }
template <typename T> void relay(T &&x) { f(std::forward<T>(x)); }
template <typename T> void keep(T &&x) { R r(std::forward<T>(x)); printf("kept %d\n", r.v); }
struct Pair { R a, b; Pair(const R &x, R &&y) : a(x), b(std::move(y)) {} };
template <typename T, typename... Args> T build(Args &&...args) { return T(std::forward<Args>(args)...); }
template <typename T, typename... Args> std::unique_ptr<T> mk(Args &&...args) { return std::unique_ptr<T>(new T(std::forward<Args>(args)...)); }
struct Box { std::unique_ptr<R> p; Box(std::unique_ptr<R> q) : p(std::move(q)) {} };
template <typename T> Box boxed(T &&x) { return Box(std::forward<T>(x)); }
int main() {
  R a(1);
  relay(a);
  relay(R(2));
  relay(std::move(a));
  printf("--\n");
  R b(3);
  keep(b);
  keep(std::move(b));
  printf("b %d\n", b.v);
  printf("--\n");
  R c(4), d(5);
  Pair p = build<Pair>(c, std::move(d));
  printf("p %d %d c %d d %d\n", p.a.v, p.b.v, c.v, d.v);
  printf("--\n");
  auto u = mk<R>(6);
  Box bx = boxed(std::move(u));
  printf("u %d box %d\n", u ? 1 : 0, bx.p->v);
  return 0;
}
// MODE: run
// OUT: ctor 1
// OUT: f const& 1
// OUT: ctor 2
// OUT: f && 2
// OUT: dtor 2
// OUT: f && 1
// OUT: --
// OUT: ctor 3
// OUT: copy 3
// OUT: kept 3
// OUT: dtor 3
// OUT: move 3
// OUT: kept 3
// OUT: dtor 3
// OUT: b -1
// OUT: --
// OUT: ctor 4
// OUT: ctor 5
// OUT: copy 4
// OUT: move 5
// OUT: p 4 5 c 4 d -1
// OUT: --
// OUT: ctor 6
// OUT: u 0 box 6
// OUT: dtor 6
// OUT: dtor 5
// OUT: dtor 4
// OUT: dtor -1
// OUT: dtor 4
// OUT: dtor -1
// OUT: dtor 1

// ---- temporaries destroyed at the end of their full-expression (C++ [class.temporary]p4): an assignment from a call, arguments bound to reference parameters, an operator's result, conditions, loop conditions, a return expression, a temporary of an unevaluated && operand never made, and lifetime extension by a local const reference (p6) (output from g++ 12)
#include <cstdio>
#include <utility>
struct R {
  int v;
  R(int x) : v(x) { printf("ctor %d\n", v); }
  R(const R &o) : v(o.v) { printf("copy %d\n", v); }
  R(R &&o) : v(o.v) { o.v = -o.v; printf("move %d\n", v); }
  R &operator=(const R &o) { v = o.v; printf("copy= %d\n", v); return *this; }
  R &operator=(R &&o) { v = o.v; o.v = -o.v; printf("move= %d\n", v); return *this; }
  ~R() { printf("dtor %d\n", v); }
  int get() const { return v; }
};
R make(int v) { return R(v); }
int look(const R &r) { printf("look %d\n", r.v); return r.v; }
bool pos(const R &r) { return r.v > 0; }
R operator+(const R &a, const R &b) { return R(a.v + b.v); }
const R &pick(const R &r) { return r; }
int twice(int x) { return look(R(x)) * 2; }
int main() {
  R g(1);
  g = make(9);
  printf("-- a\n");
  int n = look(R(2));
  n += look(R(3));
  printf("n %d\n", n);
  printf("-- b\n");
  {
    const R &r = make(5);
    printf("r %d\n", r.v);
  }
  printf("-- c\n");
  if (pos(R(6))) printf("pos\n");
  printf("-- d\n");
  for (int i = 0; i < 2; i++) look(R(10 + i));
  printf("-- e\n");
  bool t = n < 0 && pos(R(7));
  printf("t %d\n", t);
  printf("-- f\n");
  R s = g + g;
  look(g + s);
  printf("-- g\n");
  printf("tw %d\n", twice(4));
  printf("-- h\n");
  const R &q = pick(R(8));
  printf("after pick\n");
  printf("-- i\n");
  int k = 0;
  while (look(R(k)) < 2) k++;
  printf("end\n");
  return 0;
}
// MODE: run
// OUT: ctor 1
// OUT: ctor 9
// OUT: move= 9
// OUT: dtor -9
// OUT: -- a
// OUT: ctor 2
// OUT: look 2
// OUT: dtor 2
// OUT: ctor 3
// OUT: look 3
// OUT: dtor 3
// OUT: n 5
// OUT: -- b
// OUT: ctor 5
// OUT: r 5
// OUT: dtor 5
// OUT: -- c
// OUT: ctor 6
// OUT: dtor 6
// OUT: pos
// OUT: -- d
// OUT: ctor 10
// OUT: look 10
// OUT: dtor 10
// OUT: ctor 11
// OUT: look 11
// OUT: dtor 11
// OUT: -- e
// OUT: t 0
// OUT: -- f
// OUT: ctor 18
// OUT: ctor 27
// OUT: look 27
// OUT: dtor 27
// OUT: -- g
// OUT: ctor 4
// OUT: look 4
// OUT: dtor 4
// OUT: tw 8
// OUT: -- h
// OUT: ctor 8
// OUT: dtor 8
// OUT: after pick
// OUT: -- i
// OUT: ctor 0
// OUT: look 0
// OUT: dtor 0
// OUT: ctor 1
// OUT: look 1
// OUT: dtor 1
// OUT: ctor 2
// OUT: look 2
// OUT: dtor 2
// OUT: end
// OUT: dtor 18
// OUT: dtor 9

// ---- temporaries as the object of a member call and as by-value arguments (destroyed by the callee, not twice), copy-elided initializations (output from g++ 12)
#include <cstdio>
#include <vector>
#include <map>
#include <utility>
struct R {
  int *p;
  R(int x) : p(new int(x)) { printf("ctor %d\n", x); }
  R(const R &o) : p(new int(*o.p)) { printf("copy %d\n", *p); }
  R(R &&o) : p(o.p) { o.p = nullptr; printf("move\n"); }
  ~R() { printf("dtor %d\n", p ? *p : -1); delete p; }
  int get() const { return *p; }
};
R make(int v) { return R(v); }
void take(R r) { printf("take %d\n", *r.p); }
R pass(int v) { return make(v); }
int main() {
  printf("%d\n", make(3).get());
  printf("%d\n", R(5).get());
  take(R(2));
  take(make(6));
  R x = R(3);
  R y = pass(4);
  R z = x.get() > 0 ? make(1) : make(2);
  printf("end\n");
  return 0;
}
// MODE: run
// OUT: ctor 3
// OUT: 3
// OUT: dtor 3
// OUT: ctor 5
// OUT: 5
// OUT: dtor 5
// OUT: ctor 2
// OUT: take 2
// OUT: dtor 2
// OUT: ctor 6
// OUT: take 6
// OUT: dtor 6
// OUT: ctor 3
// OUT: ctor 4
// OUT: ctor 1
// OUT: end
// OUT: dtor 1
// OUT: dtor 4
// OUT: dtor 3

// ---- members of a class template instance are instantiated where used (C++ [temp.inst]p3): pair<int, R> and a template whose unused members would not compile, with R not default-constructible; an initializer whose argument is a functional cast, Wrap<R> w(R(13)), is no function declaration (output from g++ 12)
#include <cstdio>
#include <utility>
struct R { int v; R(int x) : v(x) {} };
template <typename T> struct Wrap {
  T t;
  Wrap(T x) : t(x) {}
  int get() const { return t.v; }
  void reset() { t = T(); }
  int size() const { return t.size(); }
};
int main() {
  std::pair<int, R> pr(1, R(11));
  auto q = std::make_pair(2, R(12));
  Wrap<R> w(R(13));
  printf("%d %d %d %d %d\n", pr.first, pr.second.v, q.first, q.second.v, w.get());
  return 0;
}
// MODE: run
// OUT: 1 11 2 12 13

// ---- class templates of the standard library that are not modeled are named at their use (before: a parse error at their '<')
#include <memory>
#include <functional>
int main() { std::shared_ptr<int> s = std::make_shared<int>(3); std::weak_ptr<int> w = s; return 0; } // ERROR C0309 col=65 "std::weak_ptr is not modeled"

// ---- copying a struct copies its padding and the state of its members without reading them (no C0407 at struct copies, by-value arguments, assignments, push_back or emplace_back); a copied member that was never written is reported where it is used
#include <cstdio>
#include <vector>
struct T { float *p; int n; };
struct S { float *p; int n; S(int x) : p(nullptr), n(x) {} };
void take(T x) { printf("take %d\n", x.n); }
int main() {
  T t; t.p = nullptr; t.n = 3;
  T u = t;
  take(t);
  T w; w = u;
  std::vector<T> v;
  for (int i = 0; i < 3; i++) v.push_back(t);
  std::vector<S> s;
  for (int i = 0; i < 3; i++) s.emplace_back(i);
  T half; half.p = nullptr;
  T copy = half;
  printf("%d %d %d %d\n", w.n, v[2].n, s[2].n, copy.n); // WARN C0407 col=48 "read of uninitialized host memory"
  return 0;
}
// MODE: check
// OUT: take 3
// OUT: 3 3 2 0

// ---- member function templates of a class template (C++ [temp.mem]): deduced and explicit template arguments, per instance (output from g++ 12)
#include <cstdio>
template <typename T> struct Acc {
  T sum;
  Acc() : sum(0) {}
  template <typename U> void add(U u) { sum += (T)u; }
  template <typename U> U as() const { return (U)sum; }
};
struct Plain {
  int k;
  template <typename U> U scaled(U u) const { return u * k; }
};
int main() {
  Acc<float> a;
  a.add(3);
  a.add(2.5);
  Acc<int> b;
  b.add(7.9f);
  Plain p{3};
  printf("%g %d %d %g\n", a.sum, b.sum, a.as<int>(), p.scaled(1.5));
  return 0;
}
// MODE: run
// OUT: 5.5 7 5 4.5

// ---- member templates of a class template with a non-type parameter, used on host and device: one calling another, a parameter type naming the class's N, a function object, and a variadic recursion ended by the overload without a pack ([temp.func.order]) (output from g++ 12 of the same code on the host)
#include <cstdio>
template <typename T, int N> struct Vec {
  T v[N];
  __host__ __device__ Vec() { for (int i = 0; i < N; i++) v[i] = T(i); }
  template <typename U> __host__ __device__ Vec<U, N> cast() const {
    Vec<U, N> r;
    for (int i = 0; i < N; i++) r.v[i] = U(v[i]) + U(0.5);
    return r;
  }
  template <typename F> __host__ __device__ T fold(F f, T init) const {
    for (int i = 0; i < N; i++) init = f(init, v[i]);
    return init;
  }
  template <typename U> __host__ __device__ T dot(const Vec<U, N> &o) const { return fold2(o); }
  template <typename U> __host__ __device__ T fold2(const Vec<U, N> &o) const {
    T s = 0;
    for (int i = 0; i < N; i++) s += v[i] * T(o.v[i]);
    return s;
  }
  template <typename A> __host__ __device__ void put(int i, A a) { if (i < N) v[i] = T(a); }
  template <typename A, typename... R> __host__ __device__ void put(int i, A a, R... r) { put(i, a); put(i + 1, r...); }
  template <typename... A> __host__ __device__ void set(A... a) { put(0, a...); }
};
struct Add { __host__ __device__ int operator()(int a, int b) const { return a + b; } };
__global__ void k(int *out) {
  Vec<int, 4> a;
  Vec<float, 4> f = a.cast<float>();
  out[threadIdx.x] = a.fold(Add(), (int)threadIdx.x) + (int)(f.v[3] * 2) + a.dot(f);
}
int main() {
  Vec<int, 3> a;
  a.set(5, 6, 7);
  Vec<double, 3> d = a.cast<double>();
  printf("%g %d %d\n", d.v[2], a.fold(Add(), 1), a.dot(d));
  int *o, h[2];
  cudaMalloc(&o, sizeof h);
  k<<<1, 2>>>(o);
  cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[1]);
  return 0;
}
// MODE: run
// OUT: 7.5 19 110
// OUT: 27 28

// ---- temporaries of a global's initializer and of each member initializer are destroyed at the end of that initializer ([class.base.init]p7) (output from g++ 12)
#include <cstdio>
struct R {
  int v;
  R(int x) : v(x) { printf("ctor %d\n", v); }
  R(const R &o) : v(o.v) { printf("copy %d\n", v); }
  ~R() { printf("dtor %d\n", v); }
};
int look(const R &r) { printf("look %d\n", r.v); return r.v; }
int g = look(R(1));
struct H { int a, b; H() : a(look(R(2))), b(look(R(3))) { printf("body\n"); } };
struct Range {
  int n;
  Range(int k) : n(k) { printf("range %d\n", n); }
  ~Range() { printf("~range %d\n", n); }
  const int *begin() const { return &n; }
  const int *end() const { return &n + 1; }
};
int main() {
  printf("g %d\n", g);
  H h;
  Range rg(4);
  for (int x : rg) printf("x %d\n", x);
  printf("end %d %d\n", h.a, h.b);
  return 0;
}
// MODE: run
// OUT: ctor 1
// OUT: look 1
// OUT: dtor 1
// OUT: g 1
// OUT: ctor 2
// OUT: look 2
// OUT: dtor 2
// OUT: ctor 3
// OUT: look 3
// OUT: dtor 3
// OUT: body
// OUT: range 4
// OUT: x 4
// OUT: end 2 3
// OUT: ~range 4

// ---- printf %a and %A as glibc prints them: the exponent with the digits it needs, subnormals as 0x0.<hex>p-1022, rounding to a precision ties to even with the leading digit kept (%.0a of 1.5 is 0x2p+0), flags and widths
#include <cstdio>
int main() {
  double xs[] = {1.0, -1.5, 0.0, -0.0, 0.1, 1e300, 5e-324, 2.2250738585072009e-308, 3.0e-310, 255.5, 1.0/3};
  for (double x : xs) printf("[%a] [%A] [%.3a] [%20a] [%-20a|] [%020a] [%+a] [% a] [%#a] [%.0a]\n", x, x, x, x, x, x, x, x, x, x);
  printf("[%a] [%a]\n", 1.0f, 0.1f);
  return 0;
}
// MODE: run
// OUT: [0x1p+0] [0X1P+0] [0x1.000p+0] [              0x1p+0] [0x1p+0              |] [0x000000000000001p+0] [+0x1p+0] [ 0x1p+0] [0x1.p+0] [0x1p+0]
// OUT: [-0x1.8p+0] [-0X1.8P+0] [-0x1.800p+0] [           -0x1.8p+0] [-0x1.8p+0           |] [-0x000000000001.8p+0] [-0x1.8p+0] [-0x1.8p+0] [-0x1.8p+0] [-0x2p+0]
// OUT: [0x0p+0] [0X0P+0] [0x0.000p+0] [              0x0p+0] [0x0p+0              |] [0x000000000000000p+0] [+0x0p+0] [ 0x0p+0] [0x0.p+0] [0x0p+0]
// OUT: [-0x0p+0] [-0X0P+0] [-0x0.000p+0] [             -0x0p+0] [-0x0p+0             |] [-0x00000000000000p+0] [-0x0p+0] [-0x0p+0] [-0x0.p+0] [-0x0p+0]
// OUT: [0x1.999999999999ap-4] [0X1.999999999999AP-4] [0x1.99ap-4] [0x1.999999999999ap-4] [0x1.999999999999ap-4|] [0x1.999999999999ap-4] [+0x1.999999999999ap-4] [ 0x1.999999999999ap-4] [0x1.999999999999ap-4] [0x2p-4]
// OUT: [0x1.7e43c8800759cp+996] [0X1.7E43C8800759CP+996] [0x1.7e4p+996] [0x1.7e43c8800759cp+996] [0x1.7e43c8800759cp+996|] [0x1.7e43c8800759cp+996] [+0x1.7e43c8800759cp+996] [ 0x1.7e43c8800759cp+996] [0x1.7e43c8800759cp+996] [0x1p+996]
// OUT: [0x0.0000000000001p-1022] [0X0.0000000000001P-1022] [0x0.000p-1022] [0x0.0000000000001p-1022] [0x0.0000000000001p-1022|] [0x0.0000000000001p-1022] [+0x0.0000000000001p-1022] [ 0x0.0000000000001p-1022] [0x0.0000000000001p-1022] [0x0p-1022]
// OUT: [0x0.fffffffffffffp-1022] [0X0.FFFFFFFFFFFFFP-1022] [0x1.000p-1022] [0x0.fffffffffffffp-1022] [0x0.fffffffffffffp-1022|] [0x0.fffffffffffffp-1022] [+0x0.fffffffffffffp-1022] [ 0x0.fffffffffffffp-1022] [0x0.fffffffffffffp-1022] [0x1p-1022]
// OUT: [0x0.03739a252b281p-1022] [0X0.03739A252B281P-1022] [0x0.037p-1022] [0x0.03739a252b281p-1022] [0x0.03739a252b281p-1022|] [0x0.03739a252b281p-1022] [+0x0.03739a252b281p-1022] [ 0x0.03739a252b281p-1022] [0x0.03739a252b281p-1022] [0x0p-1022]
// OUT: [0x1.ffp+7] [0X1.FFP+7] [0x1.ff0p+7] [           0x1.ffp+7] [0x1.ffp+7           |] [0x000000000001.ffp+7] [+0x1.ffp+7] [ 0x1.ffp+7] [0x1.ffp+7] [0x2p+7]
// OUT: [0x1.5555555555555p-2] [0X1.5555555555555P-2] [0x1.555p-2] [0x1.5555555555555p-2] [0x1.5555555555555p-2|] [0x1.5555555555555p-2] [+0x1.5555555555555p-2] [ 0x1.5555555555555p-2] [0x1.5555555555555p-2] [0x1p-2]
// OUT: [0x1p+0] [0x1.99999ap-4]

// ---- a variable declared twice in one block is an error (C++ [basic.scope.declarative], C11 6.7p3; before: accepted, the second shadowing the first); an inner block may redeclare
int main() {
  int a = 1;
  { double a = 2.5; (void)a; }
  double a = 2; // ERROR C0311 col=10 "redefinition of a in the same block"
  return 0;
}
