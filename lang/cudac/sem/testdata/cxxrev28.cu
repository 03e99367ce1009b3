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
