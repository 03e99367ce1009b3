// ---- <algorithm> and <numeric> with callables: function pointers, function objects, lambdas with captures as comparators and predicates of sort, stable_sort, count_if, find_if, any_of/all_of/none_of, for_each, transform, remove_if, max_element, accumulate; sort of structs by operator<; iota, reverse, inner_product, count, is_sorted (output pinned against g++)
#include <cstdio>
#include <vector>
#include <string>
#include <algorithm>
#include <numeric>
struct Item { std::string name; int weight; double price; };
bool byWeight(const Item &a, const Item &b) { return a.weight < b.weight; }
struct ByPriceDesc { bool operator()(const Item &a, const Item &b) const { return a.price > b.price; } };
struct Point { int x, y; bool operator<(const Point &o) const { return x < o.x || (x == o.x && y < o.y); } };
int main() {
  std::vector<Item> items = {{"pen", 3, 1.5}, {"book", 12, 9.0}, {"lamp", 7, 20.25}, {"cup", 5, 4.0}};
  std::sort(items.begin(), items.end(), byWeight);
  for (auto &it : items) printf("%s ", it.name.c_str());
  printf("\n");
  std::sort(items.begin(), items.end(), ByPriceDesc());
  for (auto &it : items) printf("%s ", it.name.c_str());
  printf("\n");
  int limit = 6;
  std::stable_sort(items.begin(), items.end(), [limit](const Item &a, const Item &b) { return (a.weight > limit) < (b.weight > limit); });
  for (auto &it : items) printf("%s ", it.name.c_str());
  printf("\n");
  std::vector<int> v = {5, 3, 9, 1, 7, 2, 8};
  std::sort(v.begin(), v.end(), [](int a, int b) { return a > b; });
  for (int x : v) printf("%d ", x);
  printf("\n");
  int threshold = 4;
  printf("count_if %ld\n", (long)std::count_if(v.begin(), v.end(), [&](int x) { return x > threshold; }));
  auto it = std::find_if(v.begin(), v.end(), [](int x) { return x % 2 == 0; });
  printf("first even %d at %ld\n", *it, (long)(it - v.begin()));
  printf("any>8 %d all>0 %d none<0 %d\n", std::any_of(v.begin(), v.end(), [](int x) { return x > 8; }),
         std::all_of(v.begin(), v.end(), [](int x) { return x > 0; }), std::none_of(v.begin(), v.end(), [](int x) { return x < 0; }));
  int sum = 0;
  std::for_each(v.begin(), v.end(), [&sum](int x) { sum += x; });
  printf("sum %d\n", sum);
  std::vector<int> sq(v.size());
  std::transform(v.begin(), v.end(), sq.begin(), [](int x) { return x * x; });
  for (int x : sq) printf("%d ", x);
  printf("\n");
  auto end = std::remove_if(v.begin(), v.end(), [](int x) { return x < 5; });
  printf("kept %ld:", (long)(end - v.begin()));
  for (auto p = v.begin(); p != end; ++p) printf(" %d", *p);
  printf("\n");
  auto mx = std::max_element(items.begin(), items.end(), [](const Item &a, const Item &b) { return a.price < b.price; });
  printf("priciest %s\n", mx->name.c_str());
  double total = std::accumulate(items.begin(), items.end(), 0.0, [](double acc, const Item &i) { return acc + i.price * i.weight; });
  printf("total %.2f\n", total);
  std::vector<Point> pts = {{3, 1}, {1, 2}, {3, 0}, {1, 1}};
  std::sort(pts.begin(), pts.end());
  for (auto &p : pts) printf("(%d,%d) ", p.x, p.y);
  printf("\n");
  std::vector<int> w(6);
  std::iota(w.begin(), w.end(), 10);
  std::reverse(w.begin(), w.end());
  for (int x : w) printf("%d ", x);
  printf("| %d %ld\n", std::inner_product(w.begin(), w.end(), w.begin(), 0), (long)std::count(w.begin(), w.end(), 12));
  printf("sorted %d %d\n", std::is_sorted(w.begin(), w.end()), std::is_sorted(w.begin(), w.end(), [](int a, int b) { return a > b; }));
  int arr[5] = {4, 2, 5, 1, 3};
  std::sort(arr, arr + 5, [](int a, int b) { return a < b; });
  printf("%d %d %d %d %d\n", arr[0], arr[1], arr[2], arr[3], arr[4]);
  return 0;
}
// OUT: pen cup lamp book 
// OUT: lamp book cup pen 
// OUT: cup pen lamp book 
// OUT: 9 8 7 5 3 2 1 
// OUT: count_if 4
// OUT: first even 8 at 1
// OUT: any>8 1 all>0 1 none<0 1
// OUT: sum 35
// OUT: 81 64 49 25 9 4 1 
// OUT: kept 4: 9 8 7 5
// OUT: priciest lamp
// OUT: total 274.25
// OUT: (1,1) (1,2) (3,0) (3,1) 
// OUT: 15 14 13 12 11 10 | 955 1
// OUT: sorted 0 1
// OUT: 1 2 3 4 5
// ---- a kernel's results sorted on the host through a function pointer; a stateful function object returned by for_each; an exception thrown by a comparator leaves std::sort
#include <cstdio>
#include <vector>
#include <algorithm>
#include <stdexcept>
struct Stats {
  int n = 0;
  long sum = 0;
  void operator()(int x) { n++; sum += x; }
};
__global__ void squares(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (i * 37) % 101;
}
bool descending(int a, int b) { return a > b; }
int main() {
  const int n = 64;
  int *d;
  cudaMalloc(&d, n * sizeof(int));
  squares<<<2, 32>>>(d, n);
  std::vector<int> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(d);
  Stats s = std::for_each(h.begin(), h.end(), Stats());
  printf("n=%d sum=%ld\n", s.n, s.sum);
  bool (*cmp)(int, int) = descending;
  std::sort(h.begin(), h.end(), cmp);
  printf("top3 %d %d %d\n", h[0], h[1], h[2]);
  try {
    std::sort(h.begin(), h.end(), [](int a, int b) {
      if (a == 0 || b == 0) throw std::domain_error("zero in the data");
      return a < b;
    });
  } catch (const std::exception &e) {
    printf("sort aborted: %s\n", e.what());
  }
  return 0;
}
// OUT: n=64 sum=3185
// OUT: top3 100 99 97
// OUT: sort aborted: zero in the data
// ---- a range past the end of its array is reported at the program's call of std::sort, naming the model's access
#include <algorithm>
int main() {
  int arr[5] = {4, 2, 5, 1, 3};
  std::sort(arr, arr + 6, [](int a, int b) { return a < b; }); // ERROR C0403 col=3 "out-of-bounds read of 4 bytes at offset 20 .*inside the library's std::sort, <__weft/algorithm.h>:14:14"
  return 0;
}
// ---- a predicate of the wrong arity is reported at the call; std::sort with a comparator needs <algorithm>
#include <vector>
int main() {
  std::vector<int> v(3);
  std::sort(v.begin(), v.end(), [](int a, int b) { return a < b; }); // ERROR C0301 col=3 "std::sort as called here needs #include <algorithm>"
  return 0;
}
// ---- <functional>'s comparison objects passed to the models: std::greater<T>(), std::greater<>() (of the range's element type), std::less<T>(), {} (output pinned against g++)
#include <cstdio>
#include <vector>
#include <algorithm>
#include <functional>
int main() {
  std::vector<double> v = {2.5, -1, 7, 3};
  auto mx = std::max_element(v.begin(), v.end(), std::greater<double>());
  auto mn = std::min_element(v.begin(), v.end(), std::greater<>());
  printf("%g %g %d\n", *mx, *mn, std::is_sorted(v.begin(), v.end(), std::less<double>()));
  std::sort(v.begin(), v.end(), std::greater<double>());
  printf("%g %g %d\n", v[0], v[3], std::is_sorted(v.begin(), v.end(), std::greater<double>{}));
  return 0;
}
// OUT: -1 7 0
// OUT: 7 -1 1
// ---- <stdlib.h>'s qsort and bsearch call the program's comparator through its pointer (output pinned against gcc)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef struct { char name[8]; int score; } Entry;
static int byScoreDesc(const void *a, const void *b) {
  const Entry *x = (const Entry *)a, *y = (const Entry *)b;
  if (x->score != y->score) return y->score - x->score;
  return strcmp(x->name, y->name);
}
static int cmpInt(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}
int main() {
  int v[10] = {42, -7, 19, 0, 88, 3, -50, 19, 7, 1};
  qsort(v, 10, sizeof(int), cmpInt);
  for (int i = 0; i < 10; i++) printf("%d ", v[i]);
  printf("\n");
  int key = 19, miss = 5;
  int *hit = (int *)bsearch(&key, v, 10, sizeof(int), cmpInt);
  printf("found %d at %ld, miss %p\n", *hit, (long)(hit - v), bsearch(&miss, v, 10, sizeof(int), cmpInt));
  Entry e[4] = {{"ann", 70}, {"bob", 92}, {"cy", 70}, {"dee", 85}};
  qsort(e, 4, sizeof(Entry), byScoreDesc);
  for (int i = 0; i < 4; i++) printf("%s:%d ", e[i].name, e[i].score);
  printf("\n");
  return 0;
}
// OUT: -50 -7 0 1 3 7 19 19 42 88 
// OUT: found 19 at 7, miss (nil)
// OUT: bob:92 dee:85 ann:70 cy:70 
// ---- qsort of more elements than the array holds is reported at the program's call
#include <stdlib.h>
static int cmpInt(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }
int main() {
  int v[4] = {4, 3, 2, 1};
  qsort(v, 5, sizeof(int), cmpInt); // ERROR C0403 col=3 "out-of-bounds read of 4 bytes at offset 16 .*inside the library's qsort, <__weft/qsort.h>"
  return 0;
}
// ---- a lambda without captures converts to a function pointer: initialized pointers, an argument, qsort's comparator (output pinned against g++)
#include <cstdio>
#include <cstdlib>
typedef int (*binop)(int, int);
int apply(binop f, int a, int b) { return f(a, b); }
int main() {
  binop add = [](int a, int b) { return a + b; };
  int (*mul)(int, int) = [](int a, int b) -> int { return a * b; };
  printf("%d %d %d\n", add(2, 3), mul(4, 5), apply([](int a, int b) { return a - b; }, 9, 4));
  int v[6] = {5, 1, 4, 2, 6, 3};
  qsort(v, 6, sizeof(int), [](const void *a, const void *b) { return *(const int *)b - *(const int *)a; });
  for (int x : v) printf("%d ", x);
  printf("\n");
  return 0;
}
// OUT: 5 20 5
// OUT: 6 5 4 3 2 1 
// ---- a lambda that captures has no conversion to a function pointer
typedef int (*binop)(int, int);
int main() {
  int k = 3;
  binop f = [k](int a, int b) { return a + b + k; }; // ERROR C0302 col=13 "a lambda that captures \(k\) has no conversion to a function pointer"
  return f(1, 2);
}
