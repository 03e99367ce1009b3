// ---- brace elision (C11 6.7.9p20, C++ [dcl.init.aggr]): nested arrays and structs take their initializers without braces of their own, at file scope, in __constant__ memory, in an array of unknown size; strings, a struct value and designators take one (outputs from g++ 12 and gcc for the designator)
#include <cstdio>
struct P { int x, y; };
struct Q { P p[2]; char name[4]; int z; };
int g[2][2] = {1, 2, 3, 4};
__constant__ float cf[2][3] = {1, 2, 3, 4, 5, 6};
int h[][3] = {1, 2, 3, 4};
Q q = {1, 2, 3, 4, "ab", 9};
Q q2 = {{{5, 6}}, "cd", 7};
P ps[] = {1, 2, 3, 4, 5};
struct V { float4 v[2]; } vv = {1, 2, 3, 4, 5, 6, 7, 8};
int d[4] = {[2] = 5, 6};
__global__ void k(float *o) { o[0] = cf[1][2]; }
int main() {
  float *o;
  cudaMallocManaged(&o, 4);
  k<<<1, 1>>>(o);
  cudaDeviceSynchronize();
  printf("%d %g %zu %d %d %s %d | %d %d %s %d | %zu %d %d | %g %g | %d %d\n", g[1][1], o[0], sizeof h / sizeof h[0], h[1][0], q.p[1].y, q.name, q.z,
         q2.p[0].y, q2.p[1].x, q2.name, q2.z, sizeof ps / sizeof ps[0], ps[2].x, ps[1].y, vv.v[1].x, vv.v[0].w, d[2], d[3]);
  return 0;
}
// MODE: run
// OUT: 4 6 2 4 4 ab 9 | 6 0 cd 7 | 3 5 4 | 5 4 | 5 6
// ---- brace elision inside functions and a class template holding an array (std::array's shape); a class with a constructor takes one initializer per element
#include <cstdio>
template <class T, int N> struct Arr { T e[N]; T &operator[](int i) { return e[i]; } };
struct C { int a, b; C(int v) : a(v), b(-v) {} };
int main() {
  Arr<int, 3> a = {1, 2, 3};
  Arr<int, 3> b = {{4, 5, 6}};
  int m[2][2] = {1, 2, 3};
  C cs[2] = {7, 8};
  struct { float m[2][2]; int k; } x = {1, 2, 3, 4, 5};
  printf("%d %d %d %d %d %d %g %d\n", a[2], b[1], m[1][0], m[1][1], cs[1].a, cs[1].b, x.m[1][1], x.k);
  return 0;
}
// MODE: run
// OUT: 3 5 3 0 8 -8 4 5
// ---- excess initializers after elision are still excess
int main() {
  int m[2][2] = {1, 2, 3, 4, 5}; // ERROR C0302 col=30 "excess elements in array initializer"
  return m[0][0];
}
// ---- copy-initialization from another type calls the converting constructor (T x = v), and an element initialized from {args} the constructor they choose (output from g++ 12)
#include <cstdio>
struct C { int a, b; C(int v) : a(v), b(-v) {} };
int main() { C c = 7; C d(8); C e{9}; C arr[2] = {C(1), C(2)}; C arr2[2] = {{3}, {4}}; printf("%d %d %d %d %d\n", c.b, d.a, e.b, arr[1].a, arr2[1].b); return 0; }
// MODE: run
// OUT: -7 8 -9 2 -4
// ---- globals initialized by braced lists of integer constants are copied as data (constinit.go): nested structs and arrays, empty and partial braces zero-filled, negative constants, constants cast to narrower types (wrapped), enumerators, sizeof, bool; a float table keeps the element-wise code (outputs from g++ 12)
#include <cstdio>
#define N 3
enum { RED = 7, BLUE = -2 };
struct P { unsigned dim; short deg; unsigned char a; unsigned m[4]; long long big; bool f; };
const struct P table[] = {
  {1, 0, 0, {}, 0, 0},
  {2, -1, 255, {1}, -5, 1},
  {3, 2, (unsigned char)300, {1, 3, RED, (unsigned)BLUE}, (1LL << 40) + 3, (bool)256},
  {4, N * 2, 'x', {sizeof(int), 0xffffffffu, 017, (unsigned)(1 << 31)}},
};
int grid[2][3] = {{1, 2, 3}, {4}};
signed char sc[4] = {-1, 127, -128, (signed char)200};
int nonconst = 5;
int mixed[2] = {1, 2};
float fl[2] = {1.5f, 2};
int main() {
  for (int i = 0; i < 4; i++) {
    const P &p = table[i];
    printf("%u %d %u [%u %u %u %u] %lld %d\n", p.dim, p.deg, p.a, p.m[0], p.m[1], p.m[2], p.m[3], p.big, p.f);
  }
  printf("%d %d %d %d %d %d\n", grid[0][0], grid[0][1], grid[0][2], grid[1][0], grid[1][1], grid[1][2]);
  printf("%d %d %d %d %d %d %.1f %.1f\n", sc[0], sc[1], sc[2], sc[3], mixed[0], mixed[1], fl[0], fl[1]);
  return 0;
}
// OUT: 1 0 0 [0 0 0 0] 0 0
// OUT: 2 -1 255 [1 0 0 0] -5 1
// OUT: 3 2 44 [1 3 7 4294967294] 1099511627779 1
// OUT: 4 6 120 [4 4294967295 15 2147483648] 0 0
// OUT: 1 2 3 4 0 0
// OUT: -1 127 -128 -56 1 2 1.5 2.0
// ---- a constant converted with narrowing in a braced initializer is ill-formed (C++11 [dcl.init.list]): an integer out of the target's range (its value in its own type: 1 << 31 is negative), a floating value to an integer, an integer a float cannot hold exactly, a double beyond float's range; a constant that fits, a cast, and a value that is not constant are accepted
enum { BLUE = -2 };
struct P { unsigned char a; unsigned m[2]; bool f; };
const P table[] = {
  {255, {7, 0xffffffffu}, 1},
  {300, {1, 2}, 0},        // ERROR C0302 col=4 "narrowing conversion of '300' from 'int' to 'unsigned char'"
  {1, {BLUE, 1 << 31}, 2}, // ERROR C0302 col=8 "narrowing conversion of '-2' from 'int' to 'unsigned int'" // ERROR C0302 col=16 "'-2147483648' from 'int' to 'unsigned int'" // ERROR C0302 col=24 "'2' from 'int' to 'bool'"
};
signed char sc[] = {-128, (signed char)200, 200}; // ERROR C0302 col=45 "'200' from 'int' to 'signed char'"
int main() {
  int n = 300;
  unsigned char ok[] = {n, 'x', sizeof(int)};
  int i[] = {1.5};         // ERROR C0302 col=14 "'1.5' from 'double' to 'int'"
  float f[] = {16777217, 16777216, 0.1}; // ERROR C0302 col=16 "'16777217' from 'int' to 'float'"
  float g{1e300};          // ERROR C0302 col=11 "'1e\+300' from 'double' to 'float'"
  unsigned char u = {256}; // ERROR C0302 col=22 "'256' from 'int' to 'unsigned char'"
  return ok[0] + i[0] + (int)f[0] + (int)g + u + table[0].a + sc[0];
}
