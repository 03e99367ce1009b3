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
