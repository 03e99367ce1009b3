// ---- std::string and std::vector: construction, copies are deep, find/substr/append/+/==, push_back/resize, range for, to_string, npos, a checked operator[]
#include <cstdio>
#include <cstdint>
#include <string>
#include <vector>

struct Arr {
  std::string descr;
  std::vector<int64_t> shape;
  std::vector<unsigned char> data;
};

static int64_t count(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

static std::string join(const std::string &dir, const char *name) { return dir + "/" + name + ".npy"; }

int main() {
  std::string h(5, ' ');
  h[0] = '{';
  h += "'descr': '<f4', 'shape': (3, 4), }";
  size_t d = h.find("'descr':");
  size_t q1 = h.find('\'', d + 8), q2 = h.find('\'', q1 + 1);
  Arr a;
  a.descr = h.substr(q1 + 1, q2 - q1 - 1);
  size_t s = h.find("'shape':");
  size_t p1 = h.find('(', s), p2 = h.find(')', p1);
  std::string dims = h.substr(p1 + 1, p2 - p1 - 1);
  for (size_t i = 0; i < dims.size();) {
    while (i < dims.size() && (dims[i] == ' ' || dims[i] == ',')) i++;
    if (i >= dims.size()) break;
    a.shape.push_back(strtoll(dims.c_str() + i, NULL, 10));
    while (i < dims.size() && dims[i] != ',') i++;
  }
  printf("descr=%s n=%zu count=%lld\n", a.descr.c_str(), a.shape.size(), (long long)count(a.shape));
  Arr b = a;
  b.shape[0] = 7;
  const std::vector<int64_t> want = {3, 4};
  printf("%d %d %lld %lld\n", a.shape == want, b.shape != want, (long long)a.shape[0], (long long)b.shape[0]);
  std::string path = join("out", "X");
  printf("%s %zu %s\n", path.c_str(), path.size(), std::to_string(42).c_str());
  std::vector<float> v(4, 1.5f);
  v.resize(6);
  float sum = 0;
  for (float x : v) sum += x;
  printf("%g %zu %s\n", sum, v.size(), (h.find("zzz") == std::string::npos) ? "npos" : "found");
  std::string e;
  printf("[%s] %d %d\n", e.c_str(), (int)e.empty(), path == "out/X.npy");
  printf("%d\n", v[6] == 0.0f); // ERROR C0403 "index 6 out of range of a std::vector of size 6"
  return 0;
}
// OUT: descr=<f4 n=2 count=12
// OUT: 1 1 3 7
// OUT: out/X.npy 9 42
// OUT: 6 6 npos
// OUT: [] 1 1
// ---- overloaded functions are chosen by argument count and type
#include <cstdio>
__device__ int f(int x) { return x + 1; }
__device__ int f(int x, int y) { return x * y; }
__device__ float f(float x) { return x * 0.5f; }
__global__ void k(float *out) { out[0] = f(3) + f(4, 5) + f(3.0f); }
static const char *g(const char *s) { return s; }
static const char *g(int) { return "int"; }
int main() {
  float *d, h;
  cudaMalloc(&d, sizeof(float));
  k<<<1, 1>>>(d);
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%g %s %s\n", h, g("str"), g(1));
  return 0;
}
// OUT: 25.5 str int
// ---- a std::vector in device code is an execution-space error
#include <vector>
__global__ void k(int *d) {
  std::vector<int> v; // ERROR C0307 "std::string and std::vector are host-only"
  d[0] = 1;
}
int main() { return 0; }
// ---- nested containers (vector of strings, of vectors, of structs with std members), assign, find_first_not_of, lambdas capturing by reference, sscanf
#include <cstdio>
#include <string>
#include <vector>
struct Rec {
  std::string name;
  std::vector<std::vector<long long>> cols;
};
int main() {
  std::vector<std::string> names = {"b", "a"};
  names.push_back("c");
  std::vector<Rec> recs(2);
  recs[0].name = names[1];
  recs[0].cols.assign(2, std::vector<long long>(3, 7));
  recs[1] = recs[0];
  recs[1].cols[1][2] = 9;
  recs[1].name += "!";
  long long sum = 0;
  auto add = [&](const std::vector<long long> &v) { for (long long x : v) sum += x; return (int)v.size(); };
  int n = add(recs[0].cols[1]) + add(recs[1].cols[1]);
  std::string line = "  \t x";
  char word[16];
  int k = 0;
  double d = 0;
  int got = sscanf("ADL 12 2.5", "%15s %d %lf", word, &k, &d);
  printf("%s %s %s %zu %lld %d %zu %d %s %d %g\n", names[0].c_str(), recs[0].name.c_str(), recs[1].name.c_str(),
         recs.size(), sum, n, line.find_first_not_of(" \t"), got, word, k, d);
  return 0;
}
// OUT: b a a! 2 44 6 4 3 ADL 12 2.5
// ---- std::cout and std::cerr with operator<< and std::endl
#include <iostream>
#include <string>
int main() {
  std::string name = "weft";
  int n = -3;
  unsigned u = 7;
  std::cout << "hello " << name << ' ' << n << " " << u << " " << 1.5f << " " << 2.0 / 3 << " " << true << std::endl;
  std::cerr << "to stderr " << 42 << std::endl;
  return 0;
}
// OUT: hello weft -3 7 1.5 0.666667 1
// STDERR: to stderr 42
// ---- std::vector and std::string begin()/end() are pointers (contiguous iterators): loops and templates over iterator ranges
#include <cstdio>
#include <string>
#include <vector>
template <typename It, typename T> T sum(It first, It last, T init) {
  for (; first != last; ++first) init += *first;
  return init;
}
int main() {
  std::vector<int> v;
  for (int i = 1; i <= 5; i++) v.push_back(i * i);
  std::vector<int> e;
  std::string s("abc");
  int n = 0;
  for (auto c = s.begin(); c != s.end(); ++c) n += *c - 'a';
  for (auto p = v.begin(); p != v.end(); p++) *p += 1;
  printf("%d %d %d %ld\n", sum(v.begin(), v.end(), 0), (int)(e.end() - e.begin()), n, (long)(v.end() - v.begin()));
  return 0;
}
// OUT: 60 0 3 5
// ---- <algorithm> and <numeric> over pointer ranges and vector iterators: sort, stable_sort, min_element, max_element, accumulate (output checked against nvcc 13)
#include <cstdio>
#include <algorithm>
#include <numeric>
#include <vector>
int main() {
  int a[7] = {5, -2, 9, 1, 7, 3, -8};
  std::sort(a, a + 7);
  std::vector<double> v;
  v.push_back(2.5); v.push_back(-0.5); v.push_back(1.5);
  std::stable_sort(v.begin(), v.end());
  unsigned u[4] = {4000000000u, 3u, 7u, 1u};
  std::sort(u, u + 4);
  float f[3] = {0.5f, 0.25f, 0.125f};
  int *mx = std::max_element(a, a + 7), *mn = std::min_element(a, a + 7);
  printf("%d %d %d | %g %g %g | %u %u | %d %d %ld | %d %g %d %g\n", a[0], a[3], a[6], v[0], v[1], v[2], u[0], u[3], *mx, *mn, (long)(mx - a),
         std::accumulate(a, a + 7, 0), std::accumulate(f, f + 3, 0.0), std::accumulate(f, f + 3, 0), std::accumulate(v.begin(), v.end(), 1.0f));
  return 0;
}
// OUT: -8 3 9 | -0.5 1.5 2.5 | 1 4000000000 | 9 -8 6 | 15 0.875 0 4.5
// ---- std::sort over structs without operator<, a comparator that is no callable, and a comparison object as a value are named at the call
#include <algorithm>
#include <functional>
struct P { int x; };
int main() {
  int a[3] = {3, 1, 2};
  P p[2];
  std::sort(a, a + 3, 7); // ERROR C0305 col=3 "called object of type int is not a function or function pointer \(inside the library's std::sort, <__weft/algorithm.h>:14:9\)"
  std::sort(p, p + 2); // ERROR C0302 col=3 "invalid operands to binary < \(struct P and struct P\) \(inside the library's std::sort, <__weft/algorithm.h>:29:59\)"
  auto cmp = std::greater<int>(); // ERROR C0309 col=14 "std::greater as a value is not modeled \(only as the comparator or predicate of an <algorithm> function\)"
  return 0;
}
// ---- std::sort and std::stable_sort with std::greater and std::less objects (expected output from g++)
// MODE: run
#include <stdio.h>
#include <algorithm>
#include <functional>
#include <vector>
int main() {
  int a[6] = {3, -1, 7, 2, 7, 0};
  std::sort(a, a + 6, std::greater<int>());
  for (int i = 0; i < 6; i++) printf("%d ", a[i]);
  printf("\n");
  std::vector<double> v = {2.5, -0.5, 9.0, 1.0};
  std::stable_sort(v.begin(), v.end(), std::greater<>());
  for (double x : v) printf("%g ", x);
  printf("\n");
  unsigned u[4] = {4000000000u, 1, 3, 2};
  std::sort(u, u + 4, std::less<unsigned>{});
  for (int i = 0; i < 4; i++) printf("%u ", u[i]);
  printf("\n");
  return 0;
}
// OUT: 7 7 3 2 0 -1 
// OUT: 9 2.5 1 -0.5 
// OUT: 1 2 3 4000000000 
// ---- the associative containers are named where they are used; a program's own map and set keep their meaning
#include <map>
#include <unordered_set>
int set(int x) { return x; }
int main() {
  std::multimap<int, float> m; // lib_map.go, as std::multiset
  std::multimap<int, float, long> c; // ERROR C0309 col=3 "std::multimap with a comparator, hash or allocator argument is not modeled"
  std::multiset<long> s;
  std::map<int, float> modeled; // lib_map.go
  std::unordered_set<long> too;
  int map = 2;
  return map - set(2);
}
