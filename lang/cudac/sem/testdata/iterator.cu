// ---- <iterator>: std::distance, std::next, std::prev, std::advance over vector and string iterators and pointers, std::begin/std::end of arrays and containers; a lambda of the program named distance keeps its meaning (output as g++ prints it)
#include <cstdio>
#include <iterator>
#include <vector>
#include <string>
int main() {
  std::vector<int> v = {3, 1, 4, 1, 5, 9};
  auto distance = [](int a, int b) { return a * 10 + b; };
  long d = std::distance(v.begin(), v.end());
  auto it = std::next(v.begin(), 2);
  auto jt = std::prev(v.end());
  auto kt = std::next(v.begin());
  std::advance(kt, 3);
  int arr[5] = {10, 20, 30, 40, 50};
  int *p = std::begin(arr);
  std::advance(p, 2);
  std::string s = "hello";
  printf("%ld %d %d %d %d %d\n", d, *it, *jt, *kt, *p, distance(2, 3));
  printf("%ld %ld %ld\n", (long)std::distance(std::begin(arr), std::end(arr)), (long)std::distance(std::begin(s), std::end(s)), (long)std::distance(p, std::prev(std::end(arr), 1)));
  printf("%c %d\n", *std::prev(std::end(s), 2), *std::prev(std::end(v), 2));
  return 0;
}
// OUT: 6 4 9 5 30 23
// OUT: 5 5 2
// OUT: l 5
// ---- std::distance over the iterators of two vectors subtracts pointers to different objects
#include <cstdio>
#include <iterator>
#include <vector>
int main() {
  std::vector<int> v(3), w(4);
  long d = std::distance(v.begin(), w.end()); // ERROR C0410 col=12 "subtraction of pointers to different objects"
  printf("%ld\n", d);
  return 0;
}
// ---- <iterator> functions: host-only, their argument counts, an argument that is no iterator
#include <iterator>
__global__ void k(int *a) {
  a[0] = std::distance(a, a + 2); // ERROR C0307 col=10 "std::distance is a host function"
}
int main() {
  int x = 3;
  std::next(&x, 1, 2); // ERROR C0304 col=3 "std::next takes 1 or 2 arguments, 3 given"
  std::advance(x, 1); // ERROR C0302 col=3 "no std::advance for an argument of type int: not an iterator"
  return 0;
}
// ---- after using namespace std the unqualified names are std's, where the program declares none of its own (a function of the program named prev keeps its meaning); output as g++ 12 prints it
#include <cstdio>
#include <vector>
#include <string>
#include <iterator>
#include <numeric>
#include <algorithm>
using namespace std;
int prev(int x) { return x - 100; }
int main() {
  vector<int> v = {3, 1, 2, 5};
  int a[3] = {7, 8, 9};
  auto it = begin(v);
  advance(it, 2);
  long d = distance(v.begin(), end(v));
  auto n = next(v.begin());
  string w = "weft";
  auto last = end(w);
  int s = accumulate(begin(v), end(v), 0);
  iota(begin(a), end(a), 4);
  sort(begin(v), end(v));
  printf("%d %ld %d %c %d %d %d %d %d\n", *it, d, *n, *next(begin(w), 3), (int)distance(begin(w), last), s, v[0], a[2], prev(1));
  return 0;
}
// MODE: run
// OUT: 3 4 2 t 4 11 1 6 -99
