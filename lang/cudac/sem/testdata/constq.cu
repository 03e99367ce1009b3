// Writes through const (C++ [dcl.type.cv], [expr.ass]): assigning to a
// const object, a reference to const, or through a pointer to const is
// C0303 at the target ("expression must be a modifiable lvalue", as nvcc
// says); calling a member function that is not const on a const object is
// C0302 at the object (constq.go). Mutable members stay writable, and
// overloads that differ only in const are chosen by the object.
// ---- writes through const references, pointers to const, const objects and this in a const member function
#include <vector>
struct S {
  std::vector<int> a;
  int b[3];
  int n;
  mutable int hits;
  void bump() { n++; }
  int get() const { hits++; return n; }
};
struct T {
  int v;
  mutable int c;
  void set(int x) const { v = x; c = x; } // ERROR C0303 col=27 "expression must be a modifiable lvalue: v is a member of the object of a const member function"
  int get() const { return peek(); } // ERROR C0302 col=28 "not compatible with the member function \"T::peek\": this points to const"
  int peek() { return v; }
};
void f(const S &s) { s.bump(); } // ERROR C0302 col=22 "the object has type qualifiers that are not compatible with the member function \"S::bump\": s is a reference to const"
int main() {
  S s;
  s.a.resize(2);
  const auto &a = s.a;
  a[0] = 5; // ERROR C0303 col=3 "expression must be a modifiable lvalue: a is a reference to const"
  int x = 1;
  const int &r = x;
  r = 3; // ERROR C0303 col=3 "modifiable lvalue: r is a reference to const"
  const int *p = &x;
  *p = 1; // ERROR C0303 col=3 "modifiable lvalue: the object is reached through a pointer to const"
  p[0] = 2; // ERROR C0303 col=3 "modifiable lvalue: the element is reached through a pointer to const"
  const S *ps = &s;
  ps->n = 1; // ERROR C0303 col=3 "modifiable lvalue: n is reached through a pointer to const"
  ps->bump(); // ERROR C0302 col=3 "member function \"S::bump\": the object is reached through a pointer to const"
  a.push_back(1); // ERROR C0302 col=5 "member function \"push_back\" of std::vector<int>: a is a reference to const"
  const int k = x;
  k = 5; // ERROR C0303 col=3 "modifiable lvalue: k is declared const"
  s.b[0] = k;
  const S &cs = s;
  cs.bump(); // ERROR C0302 col=3 "member function \"S::bump\": cs is a reference to const"
  cs.b[1]++; // ERROR C0303 col=3 "modifiable lvalue: cs is a reference to const"
  cs.n += 2; // ERROR C0303 col=3 "modifiable lvalue: cs is a reference to const"
  cs.hits = 4;
  typedef const int CI;
  CI z = 3;
  z -= 1; // ERROR C0303 col=3 "modifiable lvalue: z is declared const"
  return cs.get() + z;
}
// ---- what C++ allows: const and non-const overloads chosen by the object, mutable members, a const pointer to non-const, reseating a pointer to const, const_cast, const parameters read
// MODE: run
#include <cstdio>
#include <vector>
struct Grid {
  int cells[4];
  mutable int reads;
  int &operator[](int i) { return cells[i]; }
  const int &operator[](int i) const { reads++; return cells[i]; }
  int &at(int i) { return cells[i]; }
  int at(int i) const { reads++; return cells[i] + 100; }
  int sum() const { int s = 0; for (int i = 0; i < 4; i++) s += (*this)[i]; return s; }
};
__global__ void scale(const float *in, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = 2 * in[i];
}
int total(const std::vector<int> &v) {
  int s = 0;
  for (const auto &e : v) s += e;
  return s;
}
int main() {
  Grid g = {{1, 2, 3, 4}, 0};
  g[0] = 10;
  g.at(1) = 20;
  const Grid &cg = g;
  int x = cg[2] + cg.at(3);
  int y = 7;
  int *const q = &y;
  *q = 8;
  const int *p = &x;
  p = &y;
  int *w = const_cast<int *>(p);
  *w += 1;
  std::vector<int> v = {1, 2, 3};
  int &r = v[1];
  r = 5;
  float *in, *out;
  cudaMallocManaged(&in, 4 * sizeof(float));
  cudaMallocManaged(&out, 4 * sizeof(float));
  for (int i = 0; i < 4; i++) in[i] = i;
  scale<<<1, 4>>>(in, out, 4);
  cudaDeviceSynchronize();
  int sum = g.sum();
  printf("%d %d %d %d %d %d %g\n", sum, x, y, total(v), cg.reads, g.reads, out[3]);
  return 0;
}
// OUT: 37 107 9 9 6 6 6
// ---- a reference member names its object: a const enclosing object (or this in a const member function) leaves it writable, a static member too; a reference to const is not (as nvcc)
#include <cstdio>
struct S {
  int &r;
  const int &cr;
  int *p;
  static int count;
  void f() const { r = 5; *p = 6; count++; }
  void g() const { cr = 1; } // ERROR C0303 col=20 "expression must be a modifiable lvalue: cr is a reference to const"
};
int S::count = 0;
int main() {
  int a = 0, b = 0, c = 0;
  const S s{a, b, &c};
  s.f();
  s.r = 7;
  s.cr = 2; // ERROR C0303 col=3 "expression must be a modifiable lvalue: cr is a reference to const"
  printf("%d %d %d\n", a, c, S::count);
  return 0;
}
// ---- a call whose result is a reference to const is not assignable: a const member function's, a free function's, a function template's (g++: assignment of read-only location)
#include <cstdio>
struct V { int a[4]; const int &at(int i) const { return a[i]; } int &get(int i) { return a[i]; } };
const int &second(const V &v) { return v.a[1]; }
template <class T> const T &ref(const T &x) { return x; }
int main() {
  V v = {{1, 2, 3, 4}};
  v.get(1) = 5;
  v.at(2) = 7; // ERROR C0303 col=3 "expression must be a modifiable lvalue: V::at returns a reference to const"
  second(v) = 8; // ERROR C0303 col=3 "second returns a reference to const"
  ref(v.a[0]) += 1; // ERROR C0303 col=3 "ref returns a reference to const"
  printf("%d\n", v.a[1]);
  return 0;
}
