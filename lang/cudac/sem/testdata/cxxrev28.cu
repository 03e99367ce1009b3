// ---- a member call returning a class by value is a prvalue: make(2).f().f() destroys both results at the end of the full-expression, auto b = a.f() elides the copy, and a discarded (make(3);, (void)make(5);) or assigned (a = make(6);) temporary is destroyed (C++ [class.temporary]p4, [expr.context]p2; output from g++ 12)
#include <cstdio>
struct T {
  int v;
  T(int x) : v(x) { printf("ctor %d\n", v); }
  T(const T &o) : v(o.v) { printf("copy %d\n", v); }
  ~T() { printf("dtor %d\n", v); }
  T f() const { return T(v * 10); }
  T &self() { return *this; }
  int get() const { return v; }
};
struct B {
  virtual ~B() {}
  virtual T make() const { return T(100); }
};
struct D : B {
  T make() const override { return T(200); }
};
T make(int x) { return T(x); }
int main() {
  T a(1);
  auto b = a.f();
  printf("b %d\n", b.v);
  printf("A %d\n", make(2).f().f().get());
  T *p = &a;
  printf("p %d\n", p->f().self().get());
  D d;
  const B &rb = d;
  printf("virt %d\n", rb.make().f().get());
  make(3);
  a.f();
  (void)make(5);
  a = make(6);
  a = a.f();
  printf("end\n");
  return 0;
}
// MODE: run
// OUT: ctor 1
// OUT: ctor 10
// OUT: b 10
// OUT: ctor 2
// OUT: ctor 20
// OUT: ctor 200
// OUT: A 200
// OUT: dtor 200
// OUT: dtor 20
// OUT: dtor 2
// OUT: ctor 10
// OUT: p 10
// OUT: dtor 10
// OUT: ctor 200
// OUT: ctor 2000
// OUT: virt 2000
// OUT: dtor 2000
// OUT: dtor 200
// OUT: ctor 3
// OUT: dtor 3
// OUT: ctor 10
// OUT: dtor 10
// OUT: ctor 5
// OUT: dtor 5
// OUT: ctor 6
// OUT: dtor 6
// OUT: ctor 60
// OUT: dtor 60
// OUT: end
// OUT: dtor 10
// OUT: dtor 60
// ---- host math as glibc on x86-64 prints it: a NaN argument keeps its sign, a domain error of log, log2, sin, cos, tan, pow gives the x86 default NaN (-nan) and of log10, asin, acos +nan; exp10(DBL_MAX) and pow(10, 1e308) overflow to inf (were -nan); asin(x) = x for |x| < 2^-26 (was an ulp high) (C99 F.9, Intel SDM 4.8.3.7; output from gcc 12 / glibc 2.36)
#include <cstdio>
#include <cmath>
#include <cfloat>
int main() {
  double v[] = {-1.0, -INFINITY, INFINITY, -2.0, NAN, -NAN, -1e-300};
  for (int i = 0; i < 7; i++) {
    double x = v[i];
    printf("%a: log %f log2 %f log10 %f sin %f cos %f tan %f asin %f acos %f exp %f exp10 %f atan %f pow %f %f %f atan2 %f %f\n", x, log(x), log2(x), log10(x), sin(x), cos(x), tan(x), asin(x), acos(x), exp(x), exp10(x), atan(x), pow(x, 0.5), pow(0.5, x), pow(x, x), atan2(x, 1.0), atan2(1.0, x));
  }
  printf("f %f %f %f %f %f %f\n", logf(-1.0f), log10f(-1.0f), sinf(INFINITY), asinf(2.0f), powf(-2.0f, 0.5f), logf(-NAN));
  printf("%a %a %a %a\n", exp10(DBL_MAX), exp10(-DBL_MAX), pow(10.0, 1e308), pow(0.5, 1e308));
  printf("%a %a %a\n", asin(0x1.5798ee2308c3ap-27), asin(-0x1.fffffffffffffp-27), asin(0x1p-30));
  return 0;
}
// MODE: run
// OUT: -0x1p+0: log -nan log2 -nan log10 nan sin -0.841471 cos 0.540302 tan -1.557408 asin -1.570796 acos 3.141593 exp 0.367879 exp10 0.100000 atan -0.785398 pow -nan 2.000000 -1.000000 atan2 -0.785398 2.356194
// OUT: -inf: log -nan log2 -nan log10 nan sin -nan cos -nan tan -nan asin nan acos nan exp 0.000000 exp10 0.000000 atan -1.570796 pow inf inf 0.000000 atan2 -1.570796 3.141593
// OUT: inf: log inf log2 inf log10 inf sin -nan cos -nan tan -nan asin nan acos nan exp inf exp10 inf atan 1.570796 pow inf 0.000000 inf atan2 1.570796 0.000000
// OUT: -0x1p+1: log -nan log2 -nan log10 nan sin -0.909297 cos -0.416147 tan 2.185040 asin nan acos nan exp 0.135335 exp10 0.010000 atan -1.107149 pow -nan 4.000000 0.250000 atan2 -1.107149 2.677945
// OUT: nan: log nan log2 nan log10 nan sin nan cos nan tan nan asin nan acos nan exp nan exp10 nan atan nan pow nan nan nan atan2 nan nan
// OUT: -nan: log -nan log2 -nan log10 -nan sin -nan cos -nan tan -nan asin -nan acos -nan exp -nan exp10 -nan atan -nan pow -nan -nan -nan atan2 -nan -nan
// OUT: -0x1.56e1fc2f8f359p-997: log -nan log2 -nan log10 nan sin -0.000000 cos 1.000000 tan -0.000000 asin -0.000000 acos 1.570796 exp 1.000000 exp10 1.000000 atan -0.000000 pow -nan 1.000000 -nan atan2 -0.000000 1.570796
// OUT: f -nan nan -nan nan -nan -nan
// OUT: inf 0x0p+0 inf 0x0p+0
// OUT: 0x1.5798ee2308c3ap-27 -0x1.fffffffffffffp-27 0x1p-30
// ---- exp10 and log10 as glibc 2.36 computes them, not correctly rounded (exp10(3) is 0x1.f400000000001p+9, log10(pi) 0x1.fd14db31ba3bap-2); 2000 arguments each hash as gcc's (output from gcc 12 / glibc 2.36)
#include <cstdio>
#include <cmath>
#include <cstring>
int main() {
  double xs[] = {-1.0, 3.0, 0x1.0000000000001p+0, 0x1.921fb54442d18p+1, 0x1.fffffffffffffp-1, 0x1.921fb54442d18p-1, 0x1.2d97c7f3321d2p+1, 308.25, -323.5, 1e-300};
  for (int i = 0; i < 10; i++) printf("%a %a\n", exp10(xs[i]), log10(fabs(xs[i])));
  unsigned long long s = 0x2545F4914F6CDD1DULL, h = 0;
  int n = 0;
  for (int i = 0; i < 2000; i++) {
    s ^= s << 13; s ^= s >> 7; s ^= s << 17;
    double u = (double)(s >> 11) * 0x1p-53;
    double a = exp10(u * 20 - 10), b = log10(u * 1000);
    unsigned long long ba, bb;
    memcpy(&ba, &a, 8); memcpy(&bb, &b, 8);
    h = h * 31 + ba; h = h * 31 + bb;
  }
  printf("%llx\n", h);
  return 0;
}
// MODE: run
// OUT: 0x1.9999999999999p-4 0x0p+0
// OUT: 0x1.f400000000001p+9 0x1.e8927964fd5fdp-2
// OUT: 0x1.4000000000002p+3 0x1.bcb7b1526e50dp-54
// OUT: 0x1.5a5d2ab3e544ap+10 0x1.fd14db31ba3bap-2
// OUT: 0x1.3ffffffffffffp+3 -0x1.bcb7b1526e50ep-55
// OUT: 0x1.867620180febdp+2 -0x1.adb63b88d410dp-4
// OUT: 0x1.c62d233941288p+7 0x1.7d24ea82c85bap-2
// OUT: 0x1.fa788589d81d3p+1023 0x1.3e94605511bcap+1
// OUT: 0x0.0000000000001p-1022 0x1.41438f819554ep+1
// OUT: 0x1p+0 -0x1.2cp+8
// OUT: b8aea4c5cf8abbca
// ---- return of an lvalue that is not a local (a reference parameter, a global, *p, a member) copy-constructs the result ([stmt.return]p2; only a local may be the result object, [class.copy.elision]p1); globals are destroyed after main returns, latest first ([basic.start.term]) (output from g++ 12)
#include <cstdio>
struct T {
  int v;
  T(int x) : v(x) { printf("ctor %d\n", v); }
  T(const T &o) : v(o.v) { printf("copy %d\n", v); }
  ~T() { printf("dtor %d\n", v); }
};
T g0(42);
T g1 = T(43);
T retc(const T &t) { return t; }
T retr(T &t) { return t; }
T retg() { return g0; }
T retp(T *p) { return *p; }
struct H { T m; T get() const { return m; } };
int main() {
  T a(1);
  T w = retc(a);
  T x = retr(a);
  T y = retg();
  T z = retp(&a);
  printf("--\n");
  H h{T(3)};
  T u = h.get();
  printf("--\n");
  return 0;
}
// MODE: run
// OUT: ctor 42
// OUT: ctor 43
// OUT: ctor 1
// OUT: copy 1
// OUT: copy 1
// OUT: copy 42
// OUT: copy 1
// OUT: --
// OUT: ctor 3
// OUT: copy 3
// OUT: --
// OUT: dtor 3
// OUT: dtor 3
// OUT: dtor 1
// OUT: dtor 42
// OUT: dtor 1
// OUT: dtor 1
// OUT: dtor 1
// OUT: dtor 43
// OUT: dtor 42
// ---- a temporary bound to a lambda's reference parameter is destroyed at the end of the call's full-expression, in each iteration ([class.temporary]p6.9); a closure's or function object's result is a prvalue: f(60).get() and m(7); destroy it, auto v = f(61) elides the copy (output from g++ 12)
#include <cstdio>
struct T {
  int v;
  T(int x) : v(x) { printf("ctor %d\n", v); }
  T(const T &o) : v(o.v) { printf("copy %d\n", v); }
  ~T() { printf("dtor %d\n", v); }
  int get() const { return v; }
};
struct Maker { int base; T operator()(int x) const { return T(base + x); } };
int main() {
  auto g = [](const T &t) { return t.v; };
  for (int i = 0; i < 2; i++) printf("lam %d\n", g(T(i)));
  auto f = [](int x) { return T(x); };
  int r = f(60).get();
  printf("r %d\n", r);
  auto v = f(61);
  printf("v %d\n", v.v);
  f(62);
  Maker m{100};
  printf("m %d\n", m(5).get());
  T w = m(6);
  m(7);
  printf("--\n");
  return 0;
}
// MODE: run
// OUT: ctor 0
// OUT: lam 0
// OUT: dtor 0
// OUT: ctor 1
// OUT: lam 1
// OUT: dtor 1
// OUT: ctor 60
// OUT: dtor 60
// OUT: r 60
// OUT: ctor 61
// OUT: v 61
// OUT: ctor 62
// OUT: dtor 62
// OUT: ctor 105
// OUT: m 105
// OUT: dtor 105
// OUT: ctor 106
// OUT: ctor 107
// OUT: dtor 107
// OUT: --
// OUT: dtor 106
// OUT: dtor 61
// ---- c ? make(1) : make(2) and (a, make(2)) are class prvalues: materialized as a reference argument, a member call's object, a discarded value or a local const T& (extended), each destroyed once ([expr.cond]p7, [expr.comma], [class.temporary]; output from g++ 12)
#include <cstdio>
struct T {
  int v;
  T(int x) : v(x) { printf("ctor %d\n", v); }
  T(const T &o) : v(o.v) { printf("copy %d\n", v); }
  ~T() { printf("dtor %d\n", v); }
  int get() const { return v; }
};
T make(int x) { return T(x); }
int val(const T &t) { return t.v; }
T pass(bool b) { return b ? make(1) : make(2); }
int main(int argc, char **) {
  bool c = argc > 0;
  T x = c ? make(1) : make(2);
  printf("x %d\n", x.v);
  printf("val %d\n", val(c ? make(3) : make(4)));
  printf("get %d\n", (c ? make(5) : make(6)).get());
  x = c ? make(7) : make(8);
  const T &r = c ? make(9) : make(10);
  printf("r %d\n", r.v);
  T y = (make(11), make(12));
  printf("val %d\n", val((make(13), make(14))));
  T p = pass(false);
  c ? make(15) : make(16);
  printf("--\n");
  return 0;
}
// MODE: run
// OUT: ctor 1
// OUT: x 1
// OUT: ctor 3
// OUT: val 3
// OUT: dtor 3
// OUT: ctor 5
// OUT: get 5
// OUT: dtor 5
// OUT: ctor 7
// OUT: dtor 7
// OUT: ctor 9
// OUT: r 9
// OUT: ctor 11
// OUT: ctor 12
// OUT: dtor 11
// OUT: ctor 13
// OUT: ctor 14
// OUT: val 14
// OUT: dtor 14
// OUT: dtor 13
// OUT: ctor 2
// OUT: ctor 15
// OUT: dtor 15
// OUT: --
// OUT: dtor 2
// OUT: dtor 12
// OUT: dtor 9
// OUT: dtor 7
// ---- a deduced auto result type is the type of the first return's operand ([dcl.type.auto.deduct]): a function template's (was int, silently: halve(3) printed 0.000000), a plain function's (was C0309), void without a return (output from g++ 12)
#include <cstdio>
struct P { int a; double b; };
template <typename T> auto halve(T x) { return x / 2.0; }
template <typename F, typename... A> auto call(F f, A... a) { return f(a...); }
auto twice(int x) { return x * 2; }
auto mkp(int a) { return P{a, 1.5}; }
template <typename T> auto first(const T &p) { return p.b; }
auto nothing() { printf("nothing\n"); }
int main() {
  printf("%f %f\n", halve(3), halve(5.0f));
  printf("%f\n", call([](double a) { return a * 1.5; }, 3.0));
  printf("%d %d\n", twice(4), mkp(7).a);
  P p = mkp(8);
  printf("%f\n", first(p));
  nothing();
  int v = 1;
  printf("%d\n", v);
  return 0;
}
// MODE: run
// OUT: 1.500000 2.500000
// OUT: 4.500000
// OUT: 8 7
// OUT: 1.500000
// OUT: nothing
// OUT: 1
// ---- a member function's deduced auto result type is C0309, not modeled (g++ 12 accepts it)
#include <cstdio>
struct S { int v; auto get() const { return v; } }; // ERROR C0309 col=19 "deduced \(auto\) result type of member function S::get is not modeled"
int main() { S s{3}; printf("%d\n", s.get()); return 0; }
// MODE: check
// ---- printf of an infinity or NaN keeps its width (%10f printed inf unpadded: the zeros of the width were dropped with the 0 flag) and space flag (C11 7.21.6.1p6; output from gcc 12)
#include <cstdio>
#include <cmath>
int main() {
  printf("[%10f] [% f] [%010f] [%-8e|] [%+g] [%12G] [% e]\n", INFINITY, INFINITY, -INFINITY, NAN, NAN, INFINITY, -NAN);
  printf("[%20.3a] [% a] [%010a] [%-6a|] [%*f]\n", INFINITY, NAN, -INFINITY, NAN, 7, INFINITY);
  return 0;
}
// MODE: run
// OUT: [       inf] [ inf] [      -inf] [nan     |] [+nan] [         INF] [-nan]
// OUT: [                 inf] [ nan] [      -inf] [nan   |] [    inf]
// ---- T(4);, T{5};, T(); and T(6), T(7); are expression statements making temporaries destroyed at their end, as no declarator begins with a literal, '{' or ')' ([stmt.ambig]p1; was C0202; output from g++ 12)
#include <cstdio>
struct T {
  int v;
  T() : v(0) { printf("ctor0\n"); }
  T(int x) : v(x) { printf("ctor %d\n", v); }
  ~T() { printf("dtor %d\n", v); }
};
int main() {
  T(4);
  T{5};
  T();
  T(true);
  T(6), T(7);
  T x(8);
  T y;
  y.v = 9;
  printf("%d %d\n", x.v, y.v);
  return 0;
}
// MODE: run
// OUT: ctor 4
// OUT: dtor 4
// OUT: ctor 5
// OUT: dtor 5
// OUT: ctor0
// OUT: dtor 0
// OUT: ctor 1
// OUT: dtor 1
// OUT: ctor 6
// OUT: ctor 7
// OUT: dtor 7
// OUT: dtor 6
// OUT: ctor 8
// OUT: ctor0
// OUT: 8 9
// OUT: dtor 9
// OUT: dtor 8
// ---- a derived temporary bound to a base reference (look(D(1)), const B &rb = makeD(2), a second base of M) is destroyed as the derived object, extended by a local reference; the object of a virtual call (makeD(3).get()) and of a member access ((a + a).x, V(3, 4).y) is destroyed; (-a).y of an operator- result is no C0303 ([class.temporary], [expr.ref]; output from g++ 12)
#include <cstdio>
struct B {
  int v;
  B(int x) : v(x) { printf("B %d\n", v); }
  virtual ~B() { printf("~B %d\n", v); }
  virtual int get() const { return v; }
};
struct D : B {
  D(int x) : B(x) { printf("D %d\n", x); }
  ~D() { printf("~D %d\n", v); }
  int get() const override { return v * 100; }
};
struct X { int w; X() : w(7) {} ~X() { printf("~X\n"); } };
struct M : X, B { M(int x) : B(x) { printf("M %d\n", x); } ~M() { printf("~M\n"); } };
D makeD(int x) { return D(x); }
M makeM(int x) { return M(x); }
int look(const B &b) { return b.get(); }
struct V { int x, y; V(int a, int b) : x(a), y(b) {} ~V() { printf("~V %d %d\n", x, y); }
  V operator+(const V &o) const { return V(x + o.x, y + o.y); }
  V operator-() const { return V(-x, -y); } };
int main() {
  printf("%d\n", look(D(1)));
  printf("--\n");
  {
    const B &rb = makeD(2);
    const B &rm = makeM(4);
    printf("rb %d rm %d\n", rb.get(), rm.get());
  }
  printf("--\n");
  printf("%d\n", makeD(3).get());
  printf("%d\n", look(makeM(5)));
  printf("--\n");
  V a(1, 2);
  printf("%d\n", (a + a).x);
  printf("%d\n", (-a).y);
  printf("%d\n", V(3, 4).y);
  printf("--\n");
  return 0;
}
// MODE: run
// OUT: B 1
// OUT: D 1
// OUT: 100
// OUT: ~D 1
// OUT: ~B 1
// OUT: --
// OUT: B 2
// OUT: D 2
// OUT: B 4
// OUT: M 4
// OUT: rb 200 rm 4
// OUT: ~M
// OUT: ~B 4
// OUT: ~X
// OUT: ~D 2
// OUT: ~B 2
// OUT: --
// OUT: B 3
// OUT: D 3
// OUT: 300
// OUT: ~D 3
// OUT: ~B 3
// OUT: B 5
// OUT: M 5
// OUT: 5
// OUT: ~M
// OUT: ~B 5
// OUT: ~X
// OUT: --
// OUT: 2
// OUT: ~V 2 4
// OUT: -2
// OUT: ~V -1 -2
// OUT: 4
// OUT: ~V 3 4
// OUT: --
// OUT: ~V 1 2
// ---- temporaries of a for's init, condition and step, a do-while's and a switch's condition (was never destroyed) are destroyed at the end of each; Holder<T>::take() of a class template returns a destroyed prvalue (output from g++ 12)
#include <cstdio>
struct T {
  int v;
  T(int x) : v(x) { printf("ctor %d\n", v); }
  T(const T &o) : v(o.v) { printf("copy %d\n", v); }
  ~T() { printf("dtor %d\n", v); }
  int get() const { return v; }
  const int *begin() const { return &v; }
  const int *end() const { return &v + 1; }
};
T make(int x) { return T(x); }
int val(const T &t) { return t.v; }
template <typename U> struct Holder { U u; Holder(int x) : u(x) {} U take() const { return u; } };
int main() {
  for (int i = val(T(100)); i < make(102).get(); i += val(T(1))) printf("i %d\n", i);
  printf("--\n");
  int n = 0;
  do { n++; } while (make(n).get() < 2);
  printf("--\n");
  switch (make(5).get()) { case 5: printf("five\n"); break; default: break; }
  printf("--\n");
  printf("--\n");
  Holder<T> h(9);
  printf("take %d\n", h.take().get());
  printf("--\n");
  return 0;
}
// MODE: run
// OUT: ctor 100
// OUT: dtor 100
// OUT: ctor 102
// OUT: dtor 102
// OUT: i 100
// OUT: ctor 1
// OUT: dtor 1
// OUT: ctor 102
// OUT: dtor 102
// OUT: i 101
// OUT: ctor 1
// OUT: dtor 1
// OUT: ctor 102
// OUT: dtor 102
// OUT: --
// OUT: ctor 1
// OUT: dtor 1
// OUT: ctor 2
// OUT: dtor 2
// OUT: --
// OUT: ctor 5
// OUT: dtor 5
// OUT: five
// OUT: --
// OUT: --
// OUT: ctor 9
// OUT: copy 9
// OUT: take 9
// OUT: dtor 9
// OUT: --
// OUT: dtor 9
// ---- a class template instance without a destructor of its own destroys its members ([class.dtor]p7; Holder<T> never destroyed its T; output from g++ 12)
#include <cstdio>
struct T {
  int v;
  T(int x) : v(x) { printf("ctor %d\n", v); }
  ~T() { printf("dtor %d\n", v); }
};
template <typename U> struct Holder { U u; Holder(int x) : u(x) {} };
template <typename U> struct Holder2 { U u; Holder2(int x) : u(x) {} ~Holder2() { printf("~H2\n"); } };
int main() {
  { Holder<T> h(9); }
  printf("--\n");
  { Holder2<T> h(8); }
  printf("--\n");
  return 0;
}
// MODE: run
// OUT: ctor 9
// OUT: dtor 9
// OUT: --
// OUT: ctor 8
// OUT: ~H2
// OUT: dtor 8
// OUT: --
// ---- return of a by-value parameter moves it (copies without a move constructor) into the result and destroys the parameter: a parameter is no NRVO candidate ([class.copy.elision]p1.1, p3; output from g++ 12)
#include <cstdio>
#include <utility>
struct T {
  int v;
  T(int x) : v(x) { printf("ctor %d\n", v); }
  T(const T &o) : v(o.v) { printf("copy %d\n", v); }
  ~T() { printf("dtor %d\n", v); }
};
struct M {
  int v;
  M(int x) : v(x) { printf("Mctor %d\n", v); }
  M(const M &o) : v(o.v) { printf("Mcopy %d\n", v); }
  M(M &&o) : v(o.v) { o.v = -1; printf("Mmove %d\n", v); }
  ~M() { printf("Mdtor %d\n", v); }
};
struct P { int v; ~P() { printf("Pdtor %d\n", v); } };
T retv(T t) { return t; }
M retm(M m) { return m; }
P retp(P p) { p.v++; return p; }
int main() {
  T a(1);
  T b = retv(a);
  printf("--\n");
  M m(2);
  M n = retm(m);
  printf("--\n");
  P p{5};
  P q = retp(p);
  printf("q %d\n", q.v);
  printf("--\n");
  return 0;
}
// MODE: run
// OUT: ctor 1
// OUT: copy 1
// OUT: copy 1
// OUT: dtor 1
// OUT: --
// OUT: Mctor 2
// OUT: Mcopy 2
// OUT: Mmove 2
// OUT: Mdtor -1
// OUT: --
// OUT: Pdtor 6
// OUT: q 6
// OUT: --
// OUT: Pdtor 6
// OUT: Pdtor 5
// OUT: Mdtor 2
// OUT: Mdtor 2
// OUT: dtor 1
// OUT: dtor 1
// ---- <random> engines compare with == and != ([rand.req.eng]: equal sequences; was C0302); full-range and one-value uniform_int, bernoulli(0)/(1), normal across engines, a uniform_real range whose width overflows to inf, seed(0) (output from g++ 12)
#include <cstdio>
#include <random>
int main() {
  std::mt19937_64 g(0);
  std::uniform_int_distribution<unsigned long long> full(0, ~0ULL);
  std::uniform_int_distribution<long long> neg(-5, -5);
  std::uniform_int_distribution<short> sh(-32768, 32767);
  for (int i = 0; i < 4; i++) { unsigned long long a = full(g); long long b = neg(g); int c = sh(g); printf("%llu %lld %d\n", a, b, c); }
  std::bernoulli_distribution b0(0.0), b1(1.0), bh;
  std::minstd_rand m(1);
  for (int i = 0; i < 4; i++) { int x = b0(m), y = b1(m), z = bh(m); printf("%d%d%d ", x, y, z); }
  printf("\n");
  std::normal_distribution<float> nf(0.0f, 1.0f);
  std::normal_distribution<double> nd;
  std::mt19937 g32(5489u);
  for (int i = 0; i < 4; i++) { double a = nd(g32); double b = nd(g); printf("%a %a\n", a, b); }
  std::uniform_real_distribution<double> ur(-1e308, 1e308);
  std::uniform_real_distribution<float> uf(0.0f, 1e-30f);
  for (int i = 0; i < 3; i++) { double a = ur(g); float b = uf(g32); printf("%a %a\n", a, b); }
  std::mt19937 e1(42), e2(42);
  e2.discard(3);
  e1(); e1(); e1();
  printf("%d %d %u %u\n", e1 == e2, e1 != e2, (unsigned)std::mt19937::min(), (unsigned)std::mt19937::max());
  std::uniform_int_distribution<int> d(1, 6);
  printf("%d %d\n", d.a(), d.b());
  std::minstd_rand0 z(0);
  printf("%u\n", (unsigned)z());
  std::mt19937 s2;
  s2.seed(0);
  printf("%u\n", (unsigned)s2());
  std::mt19937_64 a64(9), b64 = a64;
  std::minstd_rand ma(3), mb(4);
  b64();
  printf("%d %d %d\n", a64 == b64, ma == mb, ma != mb);
  a64();
  printf("%d\n", a64 == b64);
  return 0;
}
// MODE: run
// OUT: 2947667278772165694 -5 -30175
// OUT: 11021831128136023278 -5 -29022
// OUT: 11649642299870863663 -5 22430
// OUT: 16718309832681015833 -5 10192
// OUT: 011 010 010 010 
// OUT: 0x1.1384491bd8788p-3 -0x1.2bca3617854c4p-3
// OUT: 0x1.d7b4ae70ed411p-2 -0x1.df130acb76077p+0
// OUT: 0x1.4f48124e135cfp-3 -0x1.b6ca7afb511dcp-3
// OUT: 0x1.31c2f4aa2b1bbp-2 -0x1.a7e84cc446763p-1
// OUT: inf 0x1.011602p-100
// OUT: inf 0x1.1d112ap-100
// OUT: inf 0x1.375f84p-100
// OUT: 1 0 0 4294967295
// OUT: 1 6
// OUT: 16807
// OUT: 2357136044
// OUT: 0 0 1
// OUT: 1
// ---- explicit operator function calls through . and -> (a.operator+(b), a.operator[](4), p->operator()(6); C++ [over.oper]p2; was C0210; output from g++ 12)
#include <cstdio>
struct V { int x; V operator+(const V &o) const { return V{x + o.x}; } bool operator==(const V &o) const { return x == o.x; }
  int operator[](int i) const { return x + i; } int operator()(int i) const { return x * i; } };
int main() {
  V a{2}, b{3};
  V *p = &a;
  printf("%d %d %d %d\n", a.operator+(b).x, (int)a.operator==(b), a.operator[](4), a.operator()(5));
  printf("%d %d\n", p->operator()(6), p->operator[](1));
  return 0;
}
// MODE: run
// OUT: 5 0 6 10
// OUT: 12 3
// ---- X<> with defaults, Box b(R(13)), (*this)(x) and this->operator()(x) in a class template, fs[1](7) (output from g++ 12)
#include <cstdio>
template <typename T = int, int N = 3> struct X { T a[N]; int size() const { return N; } };
struct R { int v; R(int x) : v(x) {} };
struct Box { R r; Box(R x) : r(x) {} };
struct F { int k; int operator()(int x) const { return x * k; } int twice(int x) const { return (*this)(x) * 2; } };
template <typename T> struct Acc { T s; Acc() : s() {} void operator()(T x) { s += x; } void add2(T x) { (*this)(x); this->operator()(x); } };
int main() {
  X<> x;
  X<double> y;
  X<char, 5> z;
  printf("%d %d %d %zu\n", x.size(), y.size(), z.size(), sizeof(X<>));
  Box b(R(13));
  Box c(R{14});
  printf("%d %d\n", b.r.v, c.r.v);
  F f{3};
  printf("%d\n", f.twice(5));
  Acc<int> a;
  a.add2(4);
  printf("%d\n", a.s);
  F fs[2] = {{1}, {2}};
  printf("%d\n", fs[1](7));
  return 0;
}
// MODE: run
// OUT: 3 3 5 12
// OUT: 13 14
// OUT: 30
// OUT: 8
// OUT: 14
// ---- f(R&) beside f(const R&): a non-const lvalue prefers R&, a const one binds only const R& ([over.ics.rank]p3.2.6, [dcl.init.ref]p5; was C0304 ambiguous; output from g++ 12)
#include <cstdio>
#include <utility>
struct R { int v; };
void f(R &r) { printf("f& %d\n", r.v); }
void f(const R &r) { printf("fc& %d\n", r.v); }
void f(R &&r) { printf("f&& %d\n", r.v); }
void g(R &r) { printf("g& %d\n", r.v); }
void g(const R &r) { printf("gc& %d\n", r.v); }
int main() {
  R a{1};
  const R c{2};
  f(a);
  f(c);
  f(R{3});
  f(std::move(a));
  g(a);
  g(c);
  g(R{4});
  return 0;
}
// MODE: run
// OUT: f& 1
// OUT: fc& 2
// OUT: f&& 3
// OUT: f&& 1
// OUT: g& 1
// OUT: gc& 2
// OUT: gc& 4
// ---- perfect forwarding to f(const R&) / f(R&&), recursive variadic forwarding, a by-value template parameter, make_unique forwarding an rvalue and a const lvalue to a constructor, make_shared (output from g++ 12)
#include <cstdio>
#include <utility>
#include <memory>
struct R {
  int v;
  R(int x) : v(x) { printf("ctor %d\n", v); }
  R(const R &o) : v(o.v) { printf("copy %d\n", v); }
  R(R &&o) : v(o.v) { o.v = -1; printf("move %d\n", v); }
  ~R() { printf("dtor %d\n", v); }
};

void f(const R &r) { printf("fc& %d\n", r.v); }
void f(R &&r) { printf("f&& %d\n", r.v); }
template <typename T> void fwd(T &&x) { f(std::forward<T>(x)); }
void fwdAll() {}
template <typename H, typename... A> void fwdAll(H &&h, A &&...a) { f(std::forward<H>(h)); fwdAll(std::forward<A>(a)...); }
template <typename T> void byval(T x) { f(x); }
struct Two { R a, b; Two(R &&x, const R &y) : a(std::move(x)), b(y) {} };
int main() {
  R a(1);
  const R c(2);
  fwd(a);
  fwd(c);
  fwd(R(3));
  fwd(std::move(a));
  printf("--\n");
  fwdAll(a, c, R(4));
  printf("--\n");
  byval(R(5));
  printf("--\n");
  auto p = std::make_unique<Two>(R(6), c);
  printf("two %d %d\n", p->a.v, p->b.v);
  auto s = std::make_shared<R>(7);
  auto s2 = s;
  printf("use %ld\n", s.use_count());
  printf("--\n");
  return 0;
}
// MODE: run
// OUT: ctor 1
// OUT: ctor 2
// OUT: fc& 1
// OUT: fc& 2
// OUT: ctor 3
// OUT: f&& 3
// OUT: dtor 3
// OUT: f&& 1
// OUT: --
// OUT: ctor 4
// OUT: fc& 1
// OUT: fc& 2
// OUT: f&& 4
// OUT: dtor 4
// OUT: --
// OUT: ctor 5
// OUT: fc& 5
// OUT: dtor 5
// OUT: --
// OUT: ctor 6
// OUT: move 6
// OUT: copy 2
// OUT: dtor -1
// OUT: two 6 2
// OUT: ctor 7
// OUT: use 2
// OUT: --
// OUT: dtor 7
// OUT: dtor 2
// OUT: dtor 6
// OUT: dtor 2
// OUT: dtor 1
// ---- a throw destroys the temporaries of the full-expressions it leaves, in the throwing function's caller and further up, made ones only (x && make(3) not evaluated), once ([except.ctor]p1; were never destroyed; output from g++ 12)
#include <cstdio>
#include <stdexcept>
struct T {
  int v;
  T(int x) : v(x) { printf("ctor %d\n", v); }
  ~T() { printf("dtor %d\n", v); }
  int get() const { return v; }
};
T make(int x) { return T(x); }
int boom(const T &t) { if (t.v > 12) throw std::runtime_error("boom"); return t.v; }
int main() {
  for (int i = 12; i < 15; i++) {
    try {
      bool r = make(i * 10).get() > 0 && boom(T(i)) > 0;
      printf("r %d\n", (int)r);
    } catch (const std::exception &e) { printf("caught %s\n", e.what()); }
  }
  try {
    T keep(1);
    bool r = make(2).get() > 0 && boom(make(20)) > 0;
    printf("%d\n", (int)r);
  } catch (...) { printf("caught2\n"); }
  bool f = false;
  try {
    if (f && make(3).get()) printf("no\n");
    printf("%d\n", boom(T(30)));
  } catch (...) { printf("caught3\n"); }
  return 0;
}
// MODE: run
// OUT: ctor 120
// OUT: ctor 12
// OUT: dtor 12
// OUT: dtor 120
// OUT: r 1
// OUT: ctor 130
// OUT: ctor 13
// OUT: dtor 13
// OUT: dtor 130
// OUT: caught boom
// OUT: ctor 140
// OUT: ctor 14
// OUT: dtor 14
// OUT: dtor 140
// OUT: caught boom
// OUT: ctor 1
// OUT: ctor 2
// OUT: ctor 20
// OUT: dtor 20
// OUT: dtor 2
// OUT: dtor 1
// OUT: caught2
// OUT: ctor 30
// OUT: dtor 30
// OUT: caught3
// ---- unwinding through a function destroys its pending temporaries and its locals, latest first ([except.ctor]; output from g++ 12)
#include <cstdio>
struct T {
  int v;
  T(int x) : v(x) { printf("ctor %d\n", v); }
  ~T() { printf("dtor %d\n", v); }
};
int boom(const T &t) { if (t.v > 2) throw 7; return t.v; }
int mid(int x) { T local(x * 100); return T(x).v > 0 && boom(T(x + 1)) > 0; }
int main() {
  try { printf("%d\n", mid(1)); printf("%d\n", mid(2)); } catch (int e) { printf("caught %d\n", e); }
  return 0;
}
// MODE: run
// OUT: ctor 100
// OUT: ctor 1
// OUT: ctor 2
// OUT: dtor 2
// OUT: dtor 1
// OUT: dtor 100
// OUT: 1
// OUT: ctor 200
// OUT: ctor 2
// OUT: ctor 3
// OUT: dtor 3
// OUT: dtor 2
// OUT: dtor 200
// OUT: caught 7
// ---- c ? x : make(2) with an lvalue and a prvalue arm of one class is a prvalue: the lvalue is copy-constructed into it, and the temporary destroyed at the end of the full-expression ([expr.cond]p7.1; output from g++ 12)
#include <cstdio>
struct T {
  int v;
  T(int x) : v(x) { printf("ctor %d\n", v); }
  T(const T &o) : v(o.v) { printf("copy %d\n", v); }
  ~T() { printf("dtor %d\n", v); }
  int get() const { return v; }
};
T make(int x) { return T(x); }
int val(const T &t) { return t.v; }
int main(int argc, char **) {
  T x(1);
  bool c = argc > 0;
  printf("%d\n", val(c ? x : make(2)));
  printf("%d\n", (c ? x : make(3)).get());
  printf("--\n");
  T y = c ? x : make(4);
  printf("y %d\n", y.v);
  T z = !c ? x : make(5);
  printf("z %d\n", z.v);
  y = c ? z : make(6);
  printf("y %d\n", y.v);
  c ? x : make(7);
  printf("--\n");
  return 0;
}
// MODE: run
// OUT: ctor 1
// OUT: copy 1
// OUT: 1
// OUT: dtor 1
// OUT: copy 1
// OUT: 1
// OUT: dtor 1
// OUT: --
// OUT: copy 1
// OUT: y 1
// OUT: ctor 5
// OUT: z 5
// OUT: copy 5
// OUT: dtor 5
// OUT: y 5
// OUT: copy 1
// OUT: dtor 1
// OUT: --
// OUT: dtor 5
// OUT: dtor 5
// OUT: dtor 1
// ---- a closure's by-value capture of a class with a destructor is destroyed with the closure ([expr.prim.lambda.closure], [class.dtor]p7; was never destroyed; output from g++ 12)
#include <cstdio>
struct T {
  int v;
  T(int x) : v(x) { printf("ctor %d\n", v); }
  T(const T &o) : v(o.v) { printf("copy %d\n", v); }
  ~T() { printf("dtor %d\n", v); }
};
template <typename F> int run(F f) { return f(); }
int main() {
  T t(1);
  {
    auto l = [t]() { return t.v; };
    printf("l %d\n", l());
  }
  printf("--\n");
  printf("run %d\n", run([&t]() { return t.v + 1; }));
  printf("--\n");
  return 0;
}
// MODE: run
// OUT: ctor 1
// OUT: copy 1
// OUT: l 1
// OUT: dtor 1
// OUT: --
// OUT: run 2
// OUT: --
// OUT: dtor 1
// ---- the exception object is destroyed when its handler exits (not on throw;), a class caught by value is a copy destroyed after the handler, and a base-class copy constructor takes a derived object (B(o) of a const D& was C0304) ([except.throw]p4, [except.handle]p16, [over.ics.ref]; output from g++ 12)
#include <cstdio>
#include <stdexcept>
struct B {
  int v;
  B(int x) : v(x) { printf("B %d\n", v); }
  B(const B &o) : v(o.v) { printf("Bcopy %d\n", v); }
  virtual ~B() { printf("~B %d\n", v); }
};
struct D : B { D(int x) : B(x) { printf("D %d\n", x); } D(const D &o) : B(o) { printf("Dcopy\n"); } ~D() { printf("~D\n"); } };
struct P { int k; ~P() { printf("~P %d\n", k); } };
int main() {
  try { throw D(1); } catch (B b) { printf("caught B %d\n", b.v); }
  printf("--\n");
  try { throw D(2); } catch (const B &b) { printf("caught &B %d\n", b.v); }
  printf("--\n");
  try {
    try { throw B(3); } catch (B b) { printf("inner %d\n", b.v); throw; }
  } catch (B &b) { printf("outer %d\n", b.v); }
  printf("--\n");
  try { throw P{4}; } catch (P p) { printf("P %d\n", p.k); }
  printf("--\n");
  try { throw std::runtime_error("x"); } catch (std::exception &e) { printf("%s\n", e.what()); }
  printf("--\n");
  return 0;
}
// MODE: run
// OUT: B 1
// OUT: D 1
// OUT: Bcopy 1
// OUT: caught B 1
// OUT: ~B 1
// OUT: ~D
// OUT: ~B 1
// OUT: --
// OUT: B 2
// OUT: D 2
// OUT: caught &B 2
// OUT: ~D
// OUT: ~B 2
// OUT: --
// OUT: B 3
// OUT: Bcopy 3
// OUT: inner 3
// OUT: ~B 3
// OUT: outer 3
// OUT: ~B 3
// OUT: --
// OUT: P 4
// OUT: ~P 4
// OUT: ~P 4
// OUT: --
// OUT: x
// OUT: --
// ---- default arguments make temporaries destroyed with the call's full-expression; throw E{3} destroyed after its handler; catch (T t) copies (output from g++ 12)
#include <cstdio>
struct T {
  int v;
  T(int x) : v(x) { printf("ctor %d\n", v); }
  T(const T &o) : v(o.v) { printf("copy %d\n", v); }
  ~T() { printf("dtor %d\n", v); }
};
int look(const T &t = T(5)) { return t.v; }
struct E { int code; ~E() { printf("~E %d\n", code); } };
int main() {
  printf("%d\n", look());
  printf("%d\n", look(T(6)));
  try { throw E{3}; } catch (const E &e) { printf("caught %d\n", e.code); }
  try { throw T(4); } catch (T t) { printf("caught T %d\n", t.v); }
  printf("--\n");
  return 0;
}
// MODE: run
// OUT: ctor 5
// OUT: 5
// OUT: dtor 5
// OUT: ctor 6
// OUT: 6
// OUT: dtor 6
// OUT: caught 3
// OUT: ~E 3
// OUT: ctor 4
// OUT: copy 4
// OUT: caught T 4
// OUT: dtor 4
// OUT: dtor 4
// OUT: --
// ---- the implicit copy constructor copies members by their copy constructors ([class.copy.ctor]p14): H k = h, a nested aggregate, a class template instance, a by-value parameter returned (was a bitwise copy: no member copy constructor ran; output from g++ 12)
#include <cstdio>
#include <string>
struct T {
  int v;
  T(int x) : v(x) { printf("ctor %d\n", v); }
  T(const T &o) : v(o.v) { printf("copy %d\n", v); }
  ~T() { printf("dtor %d\n", v); }
};
struct H { int n; T m; std::string s; };
struct O { H h; double d; };
template <typename U> struct Holder { U u; Holder(int x) : u(x) {} };
H makeH() { return H{1, T(2), "s"}; }
H pass(H h) { return h; }
int main() {
  H h{7, T(3), "abc"};
  H k = h;
  printf("k %d %d %s\n", k.n, k.m.v, k.s.c_str());
  printf("--\n");
  O o{h, 1.5};
  O p = o;
  printf("p %d %s\n", p.h.m.v, p.h.s.c_str());
  printf("--\n");
  Holder<T> a(4);
  Holder<T> b = a;
  printf("b %d\n", b.u.v);
  printf("--\n");
  H q = makeH();
  printf("q %d\n", q.m.v);
  H r = pass(q);
  printf("r %d\n", r.m.v);
  printf("--\n");
  return 0;
}
// MODE: run
// OUT: ctor 3
// OUT: copy 3
// OUT: k 7 3 abc
// OUT: --
// OUT: copy 3
// OUT: copy 3
// OUT: p 3 abc
// OUT: --
// OUT: ctor 4
// OUT: copy 4
// OUT: b 4
// OUT: --
// OUT: ctor 2
// OUT: q 2
// OUT: copy 2
// OUT: copy 2
// OUT: dtor 2
// OUT: r 2
// OUT: --
// OUT: dtor 2
// OUT: dtor 2
// OUT: dtor 4
// OUT: dtor 4
// OUT: dtor 3
// OUT: dtor 3
// OUT: dtor 3
// OUT: dtor 3
// ---- asin, acos, atan, atan2 at the edges (±1, 1 - 2^-53, subnormals, 2^-26 and neighbours, signed zeros) and exp, exp2, pow with subnormal results, bit for bit as glibc; atan2(-0x1p-1074, DBL_MAX) is -0 (was +0) (C99 F.9.1.4; output from gcc 12)
#include <cstdio>
#include <cmath>
#include <cfloat>
int main() {
  double xs[] = {1.0, -1.0, 0x1.fffffffffffffp-1, -0x1.fffffffffffffp-1, 0x1p-1022, 0x1p-1074, 0.5, -0.5, 0x1.6a09e667f3bcdp-1, 1e-8, 0x1p-26, 0x1.0000000000001p-26, 0x1p-27, -0x1p-28, 0x1.ffffffffffffep-27};
  for (int i = 0; i < 15; i++) printf("%a %a %a %a %a\n", asin(xs[i]), acos(xs[i]), atan(xs[i]), atan2(xs[i], -0.0), atan2(-0.0, xs[i]));
  double ys[] = {0x1p-1074, -0x1p-1074, DBL_MAX, 0x1p-1022};
  for (int i = 0; i < 4; i++) for (int j = 0; j < 4; j++) printf("%a ", atan2(ys[i], ys[j]));
  printf("\n%a %a %a %a\n", exp(-745.0), exp(-708.5), exp2(-1074.0), exp2(-1023.5));
  printf("%a %a %a\n", pow(2.0, -1074.0), pow(0.5, 1074.5), pow(-2.0, -1075.0));
  printf("%a %a %a %a\n", sin(0x1p-1074), cos(1e300), tan(0x1.921fb54442d18p+0), sin(0x1.921fb54442d18p+1));
  return 0;
}
// MODE: run
// OUT: 0x1.921fb54442d18p+0 0x0p+0 0x1.921fb54442d18p-1 0x1.921fb54442d18p+0 -0x0p+0
// OUT: -0x1.921fb54442d18p+0 0x1.921fb54442d18p+1 -0x1.921fb54442d18p-1 -0x1.921fb54442d18p+0 -0x1.921fb54442d18p+1
// OUT: 0x1.921fb50442d18p+0 0x1p-26 0x1.921fb54442d18p-1 0x1.921fb54442d18p+0 -0x0p+0
// OUT: -0x1.921fb50442d18p+0 0x1.921fb52442d18p+1 -0x1.921fb54442d18p-1 -0x1.921fb54442d18p+0 -0x1.921fb54442d18p+1
// OUT: 0x1p-1022 0x1.921fb54442d18p+0 0x1p-1022 0x1.921fb54442d18p+0 -0x0p+0
// OUT: 0x0.0000000000001p-1022 0x1.921fb54442d18p+0 0x0.0000000000001p-1022 0x1.921fb54442d18p+0 -0x0p+0
// OUT: 0x1.0c152382d7366p-1 0x1.0c152382d7366p+0 0x1.dac670561bb4fp-2 0x1.921fb54442d18p+0 -0x0p+0
// OUT: -0x1.0c152382d7366p-1 0x1.0c152382d7366p+1 -0x1.dac670561bb4fp-2 -0x1.921fb54442d18p+0 -0x1.921fb54442d18p+1
// OUT: 0x1.921fb54442d19p-1 0x1.921fb54442d18p-1 0x1.3b2028082e8d4p-1 0x1.921fb54442d18p+0 -0x0p+0
// OUT: 0x1.5798ee2308c3ap-27 0x1.921fb5194fb3cp+0 0x1.5798ee2308c3ap-27 0x1.921fb54442d18p+0 -0x0p+0
// OUT: 0x1p-26 0x1.921fb50442d18p+0 0x1.fffffffffffffp-27 0x1.921fb54442d18p+0 -0x0p+0
// OUT: 0x1.0000000000001p-26 0x1.921fb50442d18p+0 0x1.0000000000001p-26 0x1.921fb54442d18p+0 -0x0p+0
// OUT: 0x1p-27 0x1.921fb52442d18p+0 0x1p-27 0x1.921fb54442d18p+0 -0x0p+0
// OUT: -0x1p-28 0x1.921fb55442d18p+0 -0x1p-28 -0x1.921fb54442d18p+0 -0x1.921fb54442d18p+1
// OUT: 0x1.ffffffffffffep-27 0x1.921fb50442d18p+0 0x1.ffffffffffffdp-27 0x1.921fb54442d18p+0 -0x0p+0
// OUT: 0x1.921fb54442d18p-1 0x1.2d97c7f3321d2p+1 0x0p+0 0x1p-52 -0x1.921fb54442d18p-1 -0x1.2d97c7f3321d2p+1 -0x0p+0 -0x1p-52 0x1.921fb54442d18p+0 0x1.921fb54442d18p+0 0x1.921fb54442d18p-1 0x1.921fb54442d18p+0 0x1.921fb54442d17p+0 0x1.921fb54442d19p+0 0x0p+0 0x1.921fb54442d18p-1 
// OUT: 0x0.0000000000001p-1022 0x0.e6cf6d08897acp-1022 0x0.0000000000001p-1022 0x0.5a827999fcef3p-1022
// OUT: 0x0.0000000000001p-1022 0x0.0000000000001p-1022 -0x0p+0
// OUT: 0x0.0000000000001p-1022 -0x1.2699022adc4c1p-1 0x1.d02967c31cdb5p+53 0x1.1a62633145c07p-53
// ---- a member template defined outside its class template is C0206 at the second template, as documented (was C0204 "expected a type"), and the rest of the file parses
#include <cstdio>
template <typename T> struct Wrap {
  T v;
  template <typename U> U conv() const;
};
template <typename T> template <typename U> U Wrap<T>::conv() const { return (U)(v * 2); } // ERROR C0206 col=23 "member template defined outside its class template is not supported"
int main() { Wrap<int> w{1}; printf("%d\n", w.v); return 0; }
// MODE: check
// ---- member function templates of a class template: cast<U>() returning Vec<U, N>, each(F), count() with a pack beside a one-parameter overload (the non-pack one wins for one argument), head<M>() (output from g++ 12)
#include <cstdio>
template <typename T, int N> struct Vec {
  T d[N];
  template <typename U> Vec<U, N> cast() const { Vec<U, N> r; for (int i = 0; i < N; i++) r.d[i] = (U)d[i]; return r; }
  template <typename F> void each(F f) const { for (int i = 0; i < N; i++) f(d[i]); }
  template <typename... A> int count(A... a) const { return (int)sizeof...(a) + N; }
  template <typename A> int count(A a) const { return 100 + N; }
  template <int M> Vec<T, M> head() const { Vec<T, M> r; for (int i = 0; i < M; i++) r.d[i] = d[i]; return r; }
};
template <typename T> struct Wrap {
  T v;
  template <typename U> U conv() const { return (U)(v * 2); }
};
int main() {
  Vec<double, 3> v = {{1.5, 2.5, 3.5}};
  Vec<int, 3> w = v.cast<int>();
  printf("%d %d %d\n", w.d[0], w.d[1], w.d[2]);
  v.each([](double x) { printf("%g ", x); });
  printf("\n%d %d %d\n", v.count(), v.count(1), v.count(1, 2));
  Vec<double, 2> h = v.head<2>();
  printf("%g %g\n", h.d[0], h.d[1]);
  Wrap<float> wr{1.25f};
  printf("%d %g\n", wr.conv<int>(), wr.conv<double>());
  return 0;
}
// MODE: run
// OUT: 1 2 3
// OUT: 1.5 2.5 3.5 
// OUT: 3 103 5
// OUT: 1.5 2.5
// OUT: 2 2.5
// ---- the implicit copy assignment assigns members by their operator= ([class.copy.assign]p12): a = b and a = b = c call T::operator= (was a bitwise copy; output from g++ 12)
#include <cstdio>
#include <string>
struct T {
  int v;
  T(int x) : v(x) { printf("ctor %d\n", v); }
  T(const T &o) : v(o.v) { printf("copy %d\n", v); }
  T &operator=(const T &o) { printf("assign %d <- %d\n", v, o.v); v = o.v; return *this; }
  ~T() { printf("dtor %d\n", v); }
};
struct H { int n; T m; std::string s; double d; };
T make(int x) { return T(x); }
int main() {
  H a{1, T(2), "x", 1.5}, b{3, T(4), "yy", 2.5};
  a = b;
  printf("a %d %d %s %g\n", a.n, a.m.v, a.s.c_str(), a.d);
  H c{5, T(6), "zzz", 3.5};
  a = b = c;
  printf("a %d %d %s b %d %d\n", a.n, a.m.v, a.s.c_str(), b.n, b.m.v);
  printf("--\n");
  return 0;
}
// MODE: run
// OUT: ctor 2
// OUT: ctor 4
// OUT: assign 2 <- 4
// OUT: a 3 4 yy 2.5
// OUT: ctor 6
// OUT: assign 4 <- 6
// OUT: assign 4 <- 6
// OUT: a 5 6 zzz b 5 6
// OUT: --
// OUT: dtor 6
// OUT: dtor 6
// OUT: dtor 6
