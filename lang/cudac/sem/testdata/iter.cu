// Iterators of std::vector and std::string have a type of their own
// (iter.go): they work as the model's pointers to the elements do, but
// do not convert to a plain pointer, which nvcc rejects ("no suitable
// conversion function from ... iterator to int * exists", at the start
// of the expression).
// ---- what iterators do: dereference, index, arithmetic, difference, comparisons, &*it, data(), range for, <algorithm>, templates and iterator parameters (outputs checked against g++)
#include <cstdio>
#include <vector>
#include <string>
#include <algorithm>
int sum(const int *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
template <class It> int tsum(It a, It b) { int s = 0; for (; a != b; ++a) s += *a; return s; }
int first(std::vector<int>::iterator it) { return *it; }
int main() {
  std::vector<int> v = {3, 1, 2, 5};
  std::string str = "hello";
  auto it = v.begin();
  std::vector<int>::iterator e = v.end();
  std::vector<int>::const_iterator ci = v.begin();
  int *q = &*it;
  int d = (int)(e - it);
  it = it + 1;
  bool lt = it < e && it != v.end();
  std::sort(v.begin(), v.end());
  int mx = *std::max_element(v.begin(), v.end());
  auto f = std::find(v.begin(), v.end(), 5);
  int cnt = std::count_if(v.begin(), v.end(), [](int x) { return x > 1; });
  int s = 0;
  for (int x : v) s += x;
  char c0 = *str.begin();
  printf("%d %d %d %d %d %d %d %d %d %c %d %d %d\n", *q, d, it[1], lt, mx, (int)(f - v.begin()), cnt, s, sum(v.data(), 4), c0, tsum(v.begin(), v.end()), first(v.begin()), *ci);
  return 0;
}
// OUT: 1 4 3 1 5 3 3 11 11 h 11 1 1
// ---- an iterator converted to a plain pointer: C0302 at the start of the expression, in an initializer, a direct initializer, an assignment, an argument and a return value, as nvcc reports them
#include <vector>
#include <string>
int sum(const int *p, int n) { int s = 0; for (int i = 0; i < n; i++) s += p[i]; return s; }
std::vector<int> g(3);
int *at() { return g.begin(); } // ERROR C0302 col=20 "no suitable conversion function from std::vector<int>::iterator to int\* exists"
int main() {
  std::vector<int> v(4);
  std::string str = "hi";
  int *p = v.begin(); // ERROR C0302 col=12 "from std::vector<int>::iterator to int\* exists"
  int *r(v.end()); // ERROR C0302 col=10 "from std::vector<int>::iterator to int\*"
  const int *c;
  c = v.begin() + 1; // ERROR C0302 col=7 "from std::vector<int>::iterator to int\*"
  const char *s = str.begin(); // ERROR C0302 col=19 "from std::string::iterator to char\* exists"
  return sum(v.begin(), 4) + *p + *r + *c + *s + *at(); // ERROR C0302 col=14 "from std::vector<int>::iterator to int\*"
}
