// std::string editing (erase, insert, replace), front/back/at as lvalues,
// and a std::vector's reallocation on push_back (issue 15, library items
// 1 and 2). Host-only outputs are pinned against g++ 12.2 -std=c++17.
// ---- erase, insert and replace in all their modeled forms; chained calls; front(), back() and at() are lvalues (output pinned against g++)
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
int main() {
  std::string exe = "./bin/x86_64/linux/release/matrixMul";
  size_t d = exe.find_last_of('/');
  exe.erase(0, d + 1);
  printf("%s %zu\n", exe.c_str(), exe.size());
  std::string path = "../data/<name>/input.ppm";
  size_t p = path.find("<name>");
  path.replace(p, strlen("<name>"), exe);
  printf("%s\n", path.c_str());
  path.insert(0, "./");
  path.insert(2, 3, '-');
  path.insert(path.size(), std::string("#"));
  path.insert(1, "abcdef", 2);
  printf("%s\n", path.c_str());
  path.replace(0, 100, 2, 'z');
  printf("%s\n", path.c_str());
  path.erase(1);
  path.erase();
  printf("[%s] %d\n", path.c_str(), (int)path.empty());
  std::string s = "hello world";
  s.erase(5, 1).insert(5, "_").replace(0, 1, "J");
  s.append("!").append(2, '?');
  printf("%s\n", s.c_str());
  std::vector<unsigned char> bytes;
  for (int i = 0; i < 6; i++) bytes.push_back((unsigned char)(i * 7));
  unsigned char out[6];
  memcpy(out, &bytes.front(), bytes.size());
  printf("%d %d\n", out[1], out[5]);
  bytes.front() = 100;
  bytes.back() += 1;
  bytes.at(2) = 9;
  unsigned char *q = &bytes.back();
  *q *= 2;
  printf("%d %d %d %d\n", bytes[0], bytes[2], bytes[5], (int)(q - &bytes.front()));
  std::string t = "abc";
  t.front() = 'X';
  t.back() = 'Z';
  char *c = &t.at(1);
  *c = 'y';
  printf("%s\n", t.c_str());
  return 0;
}
// OUT: matrixMul 9
// OUT: ../data/matrixMul/input.ppm
// OUT: .ab/---../data/matrixMul/input.ppm#
// OUT: zz
// OUT: [] 1
// OUT: Jello_world!??
// OUT: 7 35
// OUT: 100 9 72 5
// OUT: XyZ
// ---- erase past the end throws std::out_of_range in libstdc++: the model reports it at the call
#include <string>
int main() {
  std::string s = "abc";
  s.erase(4, 1); // ERROR C0403 col=10 "std::string::erase at position 4 of a string of size 3 \(out_of_range\)"
  return 0;
}
// ---- a helper header of our own in the style of the samples' Common/: a path from argv[0] built with erase/replace/insert, a kernel's result copied out through &v.front()
#include "include/sample_paths.h"
__global__ void square(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = i * i;
}
int main(int argc, char **argv) {
  std::string p = searchPath("data/<exe>/ref.txt", "/opt/samples/bin/vectorAdd.exe");
  printf("%s\n", p.c_str());
  int *d;
  cudaMalloc(&d, 8 * sizeof(int));
  square<<<2, 4>>>(d, 8);
  std::vector<int> v(8);
  cudaMemcpy(&v.front(), d, 8 * sizeof(int), cudaMemcpyDeviceToHost);
  int *h = NULL;
  unsigned int n = 0;
  copyOut(v, &h, &n);
  printf("%u %d %d\n", n, h[3], h[7]);
  free(h);
  cudaFree(d);
  return 0;
}
// OUT: ./data/vectorAdd/ref.txt
// OUT: 8 9 49
// ---- a vector's capacity follows libstdc++: push_back doubles it, resize takes max(n, 2*size), reserve and shrink_to_fit take what they are asked; clear and pop_back keep it (output pinned against g++)
#include <cstdio>
#include <vector>
int main() {
  std::vector<int> v;
  printf("%zu", v.capacity());
  for (int i = 0; i < 9; i++) {
    v.push_back(i);
    printf(" %zu", v.capacity());
  }
  printf("\n");
  v.pop_back();
  v.clear();
  printf("%zu %zu\n", v.size(), v.capacity());
  v.resize(20);
  printf("%zu %zu\n", v.size(), v.capacity());
  v.resize(41);
  printf("%zu %zu\n", v.size(), v.capacity());
  v.shrink_to_fit();
  printf("%zu %zu\n", v.size(), v.capacity());
  std::vector<double> w;
  w.reserve(5);
  printf("%zu %zu\n", w.size(), w.capacity());
  double *p = NULL;
  for (int i = 0; i < 5; i++) {
    w.push_back(i * 0.5);
    if (i == 0) p = &w[0];
  }
  printf("%g %zu\n", *p + w[4], w.capacity()); // no reallocation: p is still valid
  w.reserve(3);
  printf("%zu\n", w.capacity());
  std::vector<int> u(7, 1);
  printf("%zu %zu\n", u.size(), u.capacity());
  u.push_back(u[0]); // the argument is an element of the vector being reallocated
  printf("%zu %zu %d\n", u.size(), u.capacity(), u[7]);
  std::vector<int> c(u);
  printf("%zu %zu\n", c.size(), c.capacity());
  u.assign(3, 4);
  printf("%zu %zu\n", u.size(), u.capacity());
  u.assign(30, 4);
  printf("%zu %zu\n", u.size(), u.capacity());
  return 0;
}
// OUT: 0 1 2 4 4 8 8 8 8 16
// OUT: 0 16
// OUT: 20 20
// OUT: 41 41
// OUT: 41 41
// OUT: 0 5
// OUT: 2 5
// OUT: 5
// OUT: 7 7
// OUT: 8 14 1
// OUT: 8 8
// OUT: 3 14
// OUT: 30 30
// ---- a reference kept across a push_back that reallocates is a use after free naming the push_back (libstdc++ has given that storage back)
#include <cstdio>
#include <vector>
int main() {
  std::vector<int> v;
  v.push_back(1);
  int &first = v[0];
  v.push_back(2);
  printf("%d\n", first); // ERROR C0404 col=18 "use of host memory \(a std::vector's storage, given back when the push_back at line 154:14 reallocated\) after it was freed"
  return 0;
}
// ---- an iterator kept across reserve beyond the capacity is stale; one kept across push_backs within the reserved capacity is not
#include <cstdio>
#include <vector>
int main() {
  std::vector<float> v;
  v.reserve(4);
  v.push_back(1.5f);
  auto b = v.begin();
  v.push_back(2.5f);
  v.push_back(3.5f);
  printf("%g\n", *b + v.back());
  v.reserve(100);
  printf("%g\n", *b); // ERROR C0404 col=18 "given back when the reserve at line 169:12 reallocated"
  return 0;
}
// OUT: 5
// ---- div, ldiv and lldiv: quotient and remainder truncated toward zero, each operand evaluated once (output pinned against g++)
#include <cstdio>
#include <cstdlib>
int main() {
  div_t a = div(17, 5);
  div_t b = div(-17, 5);
  ldiv_t c = ldiv(-100000000000L, 7L);
  lldiv_t d = std::lldiv(123456789012345LL, -1000LL);
  int i = 3;
  div_t e = div(i++, 2);
  printf("%d %d %d %d %ld %ld %lld %lld %d %d %d\n", a.quot, a.rem, b.quot, b.rem, c.quot, c.rem, d.quot, d.rem, e.quot, e.rem, i);
  printf("%d\n", div(9, 4).rem);
  return 0;
}
// OUT: 3 2 -3 -2 -14285714285 -5 -123456789012 345 1 1 4
// OUT: 1
// ---- div by zero is the fault of x / 0
#include <cstdlib>
int main(int argc, char **argv) {
  div_t q = div(1, argc - 1); // ERROR C0601 col=13 "integer division by zero"
  return q.quot;
}
