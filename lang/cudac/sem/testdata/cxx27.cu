// ---- copy and move constructors and assignments chosen by value category (C++ [over.ics.rank]): std::move and by-value arguments move, lvalues copy, a prvalue initializes directly, a returned local is the result (NRVO, as g++), by-value parameters destroyed at the callee's end (output from g++ 12)
#include <cstdio>
#include <utility>
struct R {
  int *p;
  R(int v) : p(new int(v)) { printf("ctor %d\n", v); }
  R(const R &o) : p(new int(*o.p)) { printf("copy %d\n", *p); }
  R(R &&o) : p(o.p) { o.p = nullptr; printf("move\n"); }
  R &operator=(const R &o) { if (this != &o) { delete p; p = new int(*o.p); } printf("copy=\n"); return *this; }
  R &operator=(R &&o) { if (this != &o) { delete p; p = o.p; o.p = nullptr; } printf("move=\n"); return *this; }
  ~R() { printf("dtor %d\n", p ? *p : -1); delete p; }
};
R make(int v) { return R(v); }
R named(int v) { R r(v); *r.p += 1; return r; }
void take(R r) { printf("take %d\n", *r.p); }
void look(const R &r) { printf("look %d\n", *r.p); }
int main() {
  R a(1);
  R b(a);
  R c(std::move(a));
  R d = make(4);
  R e = b;
  R f = std::move(b);
  take(std::move(c));
  take(e);
  look(f);
  R g = named(7);
  g = d;

  g = std::move(d);
  printf("end %d\n", *g.p);
}
// MODE: run
// OUT: ctor 1
// OUT: copy 1
// OUT: move
// OUT: ctor 4
// OUT: copy 1
// OUT: move
// OUT: move
// OUT: take 1
// OUT: dtor 1
// OUT: copy 1
// OUT: take 1
// OUT: dtor 1
// OUT: look 1
// OUT: ctor 7
// OUT: copy=
// OUT: move=
// OUT: end 4
// OUT: dtor 4
// OUT: dtor 1
// OUT: dtor 1
// OUT: dtor -1
// OUT: dtor -1
// OUT: dtor -1
// OUT: dtor -1

// ---- <memory>: unique_ptr (make_unique, move, operator->, operator*, operator bool, release, the T[] form) and shared_ptr (use counts over copies and moves, reset) (output from g++ 12)
#include <cstdio>
#include <memory>
#include <vector>
struct Node {
  int v;
  Node(int a, int b) : v(a * 10 + b) { printf("node %d\n", v); }
  ~Node() { printf("~node %d\n", v); }
  int twice() const { return 2 * v; }
};
std::unique_ptr<Node> build(int a) { auto p = std::make_unique<Node>(a, 1); p->v += 1; return p; }
int main() {
  std::unique_ptr<Node> a = std::make_unique<Node>(1, 2);
  printf("%d %d %d\n", a->v, (*a).twice(), a ? 1 : 0);
  std::unique_ptr<Node> b = std::move(a);
  printf("%d %d\n", a ? 1 : 0, b->twice());
  if (!a) printf("a empty\n");
  std::unique_ptr<Node> c = build(3);
  printf("c %d\n", c->v);
  c = std::move(b);
  printf("c %d %d\n", c->v, b.get() == nullptr);
  std::unique_ptr<float[]> arr(new float[4]);
  for (int i = 0; i < 4; i++) arr[i] = i * 1.5f;
  printf("%.1f\n", arr[3]);
  std::shared_ptr<Node> s1 = std::make_shared<Node>(5, 5);
  {
    std::shared_ptr<Node> s2 = s1;
    printf("use %ld %ld\n", s1.use_count(), s2.use_count());
    std::shared_ptr<Node> s3 = std::move(s2);
    printf("use %ld %ld %ld\n", s1.use_count(), s2.use_count(), s3.use_count());
  }
  printf("use %ld\n", s1.use_count());
  s1.reset();
  printf("use %ld\n", s1.use_count());
  Node *raw = c.release();
  printf("raw %d %d\n", raw->v, c ? 1 : 0);
  delete raw;
  printf("end\n");
}
// MODE: run
// OUT: node 12
// OUT: 12 24 1
// OUT: 0 24
// OUT: a empty
// OUT: node 31
// OUT: c 32
// OUT: ~node 32
// OUT: c 12 1
// OUT: 4.5
// OUT: node 55
// OUT: use 2 2
// OUT: use 2 0 2
// OUT: use 1
// OUT: ~node 55
// OUT: use 0
// OUT: raw 12 0
// OUT: ~node 12
// OUT: end

// ---- an overloaded operator-> (C++ [over.ref]) applied again while its result is an object (drill-down), operator* as an lvalue, explicit operator bool in conditions, = default and = delete members (output from g++ 12)
#include <cstdio>
template <class T> struct up {
  T *p;
  explicit up(T *q) : p(q) {}
  ~up() { delete p; }
  T &operator*() const { return *p; }
  T *operator->() const { return p; }
  explicit operator bool() const { return p != nullptr; }
};
struct S { int v; int get() { return v * 2; } };
template <class T> struct wrap { up<T> u; up<T> &operator->() { return u; } };
struct D { int a = 5; D() = default; D(const D &) = default; int f() = delete; };
int main() {
  up<S> s(new S{7});
  printf("%d %d\n", s->get(), s->v);
  s->v = 9;
  (*s).v += 1;
  printf("%d %d\n", (*s).v, s->get());
  if (s) printf("nonnull\n");
  up<S> n(nullptr);
  if (!n && s) printf("null\n");
  wrap<S> w{up<S>(new S{3})};
  printf("%d %d\n", w->v, w->get());
  D d;
  D e = d;
  printf("%d\n", e.a);
  return 0;
}
// MODE: run
// OUT: 14 7
// OUT: 10 20
// OUT: nonnull
// OUT: null
// OUT: 3 6
// OUT: 5
// ---- copying a move-only class is an error at the copy (g++: use of deleted function), by copy-initialization, a by-value argument and assignment
#include <memory>
void take(std::unique_ptr<int> p) {}
int main() {
  std::unique_ptr<int> a(new int(3));
  std::unique_ptr<int> b = a; // ERROR C0304 col=28 "use of deleted function unique_ptr<int>::unique_ptr<int>\(struct unique_ptr<int>&\)"
  take(a); // ERROR C0304 col=8 "use of deleted function"
  std::unique_ptr<int> c;
  c = a; // ERROR C0304 col=5 "use of deleted function unique_ptr<int>::operator="
  return 0;
}
// ---- an overloaded operator-> whose pointer is null: the dereference is reported at the member access
#include <cstdio>
template <class T> struct box { T *p; T *operator->() const { return p; } };
struct S { int v; };
int main() {
  box<S> b{nullptr};
  printf("%d\n", b->v); // ERROR C0405 col=18 "null pointer dereference"
  return 0;
}
// ---- variadic function templates (C++ [temp.variadic]): sizeof..., a pack forwarded to printf, recursion down to a non-template base case, std::forward into a constructor through new T(args...), a kernel launch wrapper
#include <cstdio>
#include <utility>
template <typename... Args> int count(Args... args) { return sizeof...(args); }
template <typename... Args> void log(const char *fmt, Args... args) { printf(fmt, args...); }
void print() { printf("\n"); }
template <typename T, typename... Rest> void print(T first, Rest... rest) {
  printf("[%d]", (int)first);
  print(rest...);
}
template <typename T, typename... Args> T *make(Args &&...args) { return new T(std::forward<Args>(args)...); }
struct P { int a; float b; P(int x, float y) : a(x), b(y) {} };
__global__ void k(int *o, int a, int b) { o[threadIdx.x] = a * threadIdx.x + b; }
template <typename Kernel, typename... Args> void launch(Kernel kern, int n, Args... args) { kern<<<1, n>>>(args...); }
int main() {
  printf("%d %d %d\n", count(), count(1), count(1, 2.0, 'c'));
  log("%d-%s-%.1f\n", 7, "x", 2.5);
  print(1, 2, 3);
  print();
  P *p = make<P>(3, 4.5f);
  printf("%d %.1f\n", p->a, p->b);
  delete p;
  int *o;
  cudaMallocManaged(&o, 32 * sizeof(int));
  launch(k, 32, o, 3, 1);
  cudaDeviceSynchronize();
  printf("%d %d\n", o[0], o[31]);
  return 0;
}
// MODE: run
// OUT: 0 1 3
// OUT: 7-x-2.5
// OUT: [1][2][3]
// OUT:
// OUT: 3 4.5
// OUT: 1 94
// ---- a class template with a parameter pack is reported, not run wrongly
template <typename... Ts> struct tuple_like { int n; }; // ERROR C0206 "variadic class templates are not supported"
int main() { return 0; }
