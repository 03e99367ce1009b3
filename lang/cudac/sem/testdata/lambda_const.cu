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
