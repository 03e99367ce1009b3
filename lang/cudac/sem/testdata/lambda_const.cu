// The copies a lambda captures are const in its body unless the lambda is
// mutable (C++ [expr.prim.lambda.closure]p5): calling a member function
// that is not const on one is the error nvcc reports (lambda.go).
// ---- a non-const member function on a copy captured by a lambda that is not mutable: C0302 at the object, as nvcc says; const members, mutable lambdas and captures by reference are fine
#include <cstdio>
#include <vector>
struct Acc {
  int n;
  void bump() { n++; }
  int get() const { return n; }
};
struct Box { Acc a; };
int main() {
  Acc a{1};
  Box b{{5}};
  std::vector<int> v(3);
  auto f = [a]() { a.bump(); return a.get(); }; // ERROR C0302 col=20 "the object has type qualifiers that are not compatible with the member function \"Acc::bump\": a is a copy captured by a lambda that is not mutable"
  auto g = [a]() mutable { a.bump(); return a.get(); };
  auto h = [&a]() { a.bump(); return a.get(); };
  auto k = [b]() { b.a.bump(); return b.a.get(); }; // ERROR C0302 col=20 "member function \"Acc::bump\": b is a copy captured"
  auto w = [v]() { v.push_back(1); return (int)v.size(); }; // ERROR C0302 col=22 "member function \"push_back\" of std::vector<int>: v is a copy captured"
  auto r = [=]() { return (int)v.size() + a.get(); };
  printf("%d %d %d %d %d %d\n", f(), g(), h(), k(), w(), r());
  return 0;
}
// ---- the same lambdas made mutable run: each call changes the lambda's own copy
#include <cstdio>
struct Acc {
  int n;
  void bump() { n++; }
  int get() const { return n; }
};
int main() {
  Acc a{1};
  auto g = [a]() mutable { a.bump(); return a.get(); };
  int x = g();
  int y = g();
  printf("%d %d %d\n", x, y, a.get());
  return 0;
}
// OUT: 2 3 1
// ---- assigning to a const copy captured by a lambda that is not mutable, or to a member or array element of one, is C0303 at the target, as nvcc says
int main() {
  int x = 1;
  struct S { int a; int v[2]; } s{3, {4, 5}};
  auto f = [x]() { x = 2; return x; }; // ERROR C0303 col=20 "expression must be a modifiable lvalue: x is a copy captured by a lambda that is not mutable"
  auto g = [x]() { x++; return x; }; // ERROR C0303 col=20 "expression must be a modifiable lvalue: x is a copy captured"
  auto h = [s]() { s.a += 1; return s.a; }; // ERROR C0303 col=20 "expression must be a modifiable lvalue: s is a copy captured"
  auto k = [s]() { --s.v[1]; return s.v[1]; }; // ERROR C0303 col=22 "expression must be a modifiable lvalue: s is a copy captured"
  return f() + g() + h() + k();
}
// ---- through a captured pointer the target is not const; a mutable lambda changes its own copy
#include <cstdio>
struct P { int *q; int v[2]; };
int main() {
  int y = 0;
  int *p = &y;
  P s{&y, {1, 2}};
  auto f = [p]() { p[0] = 3; *p += 1; };
  auto g = [s]() { s.q[0] = 7; return s.v[1]; };
  auto h = [=]() mutable { s.v[0] = 9; return s.v[0]; };
  f();
  int two = g();
  int nine = h();
  printf("%d %d %d %d\n", y, two, nine, s.v[0]);
  return 0;
}
// OUT: 7 2 9 1
