// ---- std::map and std::set: insert, operator[], find, count, erase, bounds, iteration in key order (outputs from g++ 12.2)
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <iostream>
int main() {
  std::map<std::string, int> count;
  const char *words[] = {"pear", "apple", "fig", "apple", "kiwi", "pear", "apple"};
  for (int i = 0; i < 7; i++) count[words[i]]++;
  for (auto it = count.begin(); it != count.end(); ++it) std::cout << it->first << "=" << it->second << " ";
  std::cout << "size " << count.size() << std::endl;
  std::map<int, double> sq = {{3, 9.0}, {1, 1.0}, {2, 4.0}};
  sq.emplace(5, 25.0);
  sq.insert(std::make_pair(4, 16.0));
  sq.insert(std::make_pair(3, -1.0)); // present: unchanged
  sq[0] = 0.5;
  for (auto &kv : sq) printf("%d:%g ", kv.first, kv.second);
  printf("\n");
  printf("find 4 %g, find 7 %d, count 2 %zu, count 9 %zu\n", sq.find(4)->second, sq.find(7) == sq.end(), sq.count(2), sq.count(9));
  size_t e1 = sq.erase(2), e2 = sq.erase(2);
  printf("erase 2 -> %zu, erase 2 -> %zu, size %zu, at(5) %g\n", e1, e2, sq.size(), sq.at(5));
  for (auto it = sq.begin(); it != sq.end();) {
    if (it->first % 2 == 1) it = sq.erase(it); else ++it;
  }
  for (const auto &kv : sq) printf("%d ", kv.first);
  printf("| lb(2)=%d ub(4)=%d\n", sq.lower_bound(2)->first, sq.upper_bound(4) == sq.end());
  std::set<int> s;
  int vals[] = {5, -3, 8, 5, 0, -3, 12};
  for (int v : vals) s.insert(v);
  for (int v : s) printf("%d ", v);
  printf("size %zu has 8 %zu has 7 %zu\n", s.size(), s.count(8), s.count(7));
  s.erase(8);
  auto last = s.end();
  --last;
  printf("min %d max %d empty %d\n", *s.begin(), *last, s.empty());
  std::set<std::string> names = {"b", "a", "c", "a"};
  for (const std::string &n : names) std::cout << n;
  std::cout << std::endl;
  std::map<int, std::string> copy;
  copy[2] = "two"; copy[1] = "one";
  std::map<int, std::string> other = copy;
  other[1] += "!";
  std::cout << copy[1] << " " << other[1] << " " << other.size() << std::endl;
  count.clear();
  printf("%zu %d\n", count.size(), count.empty());
  return 0;
}
// OUT: apple=3 fig=1 kiwi=1 pear=2 size 4
// OUT: 0:0.5 1:1 2:4 3:9 4:16 5:25 
// OUT: find 4 16, find 7 1, count 2 1, count 9 0
// OUT: erase 2 -> 1, erase 2 -> 0, size 5, at(5) 25
// OUT: 0 4 | lb(2)=4 ub(4)=1
// OUT: -3 0 5 8 12 size 5 has 8 1 has 7 0
// OUT: min -3 max 12 empty 0
// OUT: abc
// OUT: one one! 2
// OUT: 0 1
// ---- insert's pair<iterator, bool>, sets from a range (outputs from g++ 12.2)
#include <cstdio>
#include <map>
#include <set>
#include <vector>
int main() {
  std::vector<int> v = {4, 1, 4, 9, 1, 7};
  std::set<int> s(v.begin(), v.end());
  printf("%zu:", s.size());
  for (int x : s) printf(" %d", x);
  printf("\n");
  std::map<int, int> m;
  bool a = m.insert(std::make_pair(1, 10)).second;
  bool b = m.insert(std::make_pair(1, 20)).second;
  auto r = m.emplace(2, 30);
  printf("%d %d %d %d %d\n", a, b, r.second, r.first->first, m.insert(std::make_pair(1, 5)).first->second);
  int arr[] = {3, 3, 2};
  std::set<int> t(arr, arr + 3);
  printf("%zu %d\n", t.size(), *t.begin());
  return 0;
}
// OUT: 4: 1 4 7 9
// OUT: 1 0 1 2 10
// OUT: 2 2
// ---- values that are vectors, strings and structs; deep copies (outputs from g++ 12.2)
#include <cstdio>
#include <map>
#include <string>
#include <vector>
struct Stat { int n; double sum; };
int main() {
  std::map<std::string, std::vector<int>> groups;
  const char *keys[] = {"b", "a", "b", "c", "a", "b"};
  for (int i = 0; i < 6; i++) groups[keys[i]].push_back(i);
  for (auto &g : groups) {
    printf("%s:", g.first.c_str());
    for (int x : g.second) printf(" %d", x);
    printf("\n");
  }
  std::map<int, Stat> stats;
  for (int i = 0; i < 10; i++) { stats[i % 3].n++; stats[i % 3].sum += i; }
  for (auto it = stats.begin(); it != stats.end(); ++it) printf("%d %d %.1f\n", it->first, it->second.n, it->second.sum);
  std::map<std::string, std::vector<int>> copy = groups;
  copy["a"].push_back(99);
  printf("%zu %zu\n", groups["a"].size(), copy["a"].size());
  return 0;
}
// OUT: a: 1 4
// OUT: b: 0 2 5
// OUT: c: 3
// OUT: 0 4 18.0
// OUT: 1 3 12.0
// OUT: 2 3 15.0
// OUT: 2 3
// ---- structured bindings over map elements and structs (outputs from g++ 12.2)
#include <cstdio>
#include <map>
#include <string>
struct P { int x; float y; };
P make(int i) { P p; p.x = i; p.y = i * 0.5f; return p; }
int main() {
  std::map<std::string, int> m;
  m["b"] = 2;
  m["a"] = 1;
  for (const auto &[k, v] : m) printf("%s=%d ", k.c_str(), v);
  for (auto &[k, v] : m) v *= 10;
  for (auto [k, v] : m) printf("%s=%d ", k.c_str(), v);
  printf("\n");
  auto [x, y] = make(3);
  P q = {7, 1.5f};
  auto &[qx, qy] = q;
  qx = 8;
  printf("%d %g %d %g\n", x, y, q.x, qy);
  return 0;
}
// OUT: a=1 b=2 a=10 b=20 
// OUT: 3 1.5 8 1.5
// ---- structured binding errors
struct P { int x; };
int main() {
  P p = {1};
  auto [b, c] = p; // ERROR C0306 col=12 "structured binding: name 2 of the binding has no member of struct P to bind to"
  return b;
}
// ---- a structured binding is declared with auto
int main() {
  int q[1] = {1};
  int [a] = q; // ERROR C0203 col=3 "a structured binding is declared with auto"
  return 0;
}
// ---- what the associative containers do not model is named
#include <map>
#include <set>
#include <unordered_map>
struct P { int x; };
int main() {
  std::map<P, int> a; // ERROR C0309 col=3 "std::map with key type struct P is not modeled"
  std::unordered_map<int, int, long> h; // ERROR C0309 col=3 "std::unordered_map with a comparator, hash or allocator argument"
  std::set<int> s;
  s.insert(1);
  s[0]; // ERROR C0302 col=4 "std::set has no operator"
  s.extract(1); // ERROR C0309 col=5 "std::set::extract is not modeled"
  std::map<int, int> m;
  m.emplace(1, 2, 3); // ERROR C0304 "takes the element"
  return 0;
}
// ---- at() of a missing key
#include <map>
#include <cstdio>
int main() {
  std::map<int, int> m;
  m[1] = 10;
  printf("%d\n", m.at(1));
  return m.at(2); // ERROR C0403 col=14 "std::map::at: the key is not in the map"
}
// MODE: run
// OUT: 10
// ---- a reference kept across an insertion is reported, not silently stale
#include <map>
int main() {
  std::map<int, int> m;
  m[1] = 1;
  int &r = m[1];
  m[2] = 2;
  r = 5; // ERROR C0404 col=3 "std::map or std::set's elements before an insertion or erasure moved them"
  return 0;
}
// MODE: run
// ---- std::multimap and std::multiset, std::pair keys and comparisons (outputs from g++ 12.2)
#include <map>
#include <set>
#include <utility>
#include <string>
#include <stdio.h>
std::multimap<std::pair<int, int>, int> build() {
  std::multimap<std::pair<int, int>, int> m;
  m.emplace(std::make_pair(9, 0), 0);
  m.emplace(std::make_pair(8, 6), 1);
  m.emplace(std::make_pair(9, 0), 2);
  m.insert(std::make_pair(std::make_pair(8, 6), 3));
  m.emplace(std::make_pair(7, 5), 4);
  return m;
}
int main() {
  std::multimap<std::pair<int, int>, int> m = build();
  printf("size %d count(9,0) %d count(1,1) %d\n", (int)m.size(), (int)m.count(std::make_pair(9, 0)), (int)m.count(std::make_pair(1, 1)));
  for (auto it = m.begin(); it != m.end(); ++it)
    printf("(%d,%d) -> %d\n", it->first.first, it->first.second, it->second);
  auto r = m.equal_range(std::make_pair(8, 6));
  for (auto it = r.first; it != r.second; ++it) printf("eq %d\n", it->second);
  auto u = m.upper_bound(std::make_pair(8, 6));
  printf("upper %d\n", u->second);
  size_t n = m.erase(std::make_pair(9, 0));
  printf("erased %d size %d\n", (int)n, (int)m.size());
  std::multiset<int> s;
  s.insert(3); s.insert(1); s.insert(3); s.insert(2);
  for (int x : s) printf("%d ", x);
  printf("| %d\n", (int)s.count(3));
  std::multimap<std::string, int> ms;
  ms.insert(std::make_pair(std::string("b"), 1));
  ms.insert(std::make_pair(std::string("a"), 2));
  ms.insert(std::make_pair(std::string("b"), 3));
  for (auto &kv : ms) printf("%s=%d ", kv.first.c_str(), kv.second);
  printf("\n");
  std::pair<int, int> a(1, 2), b = std::make_pair(1, 3);
  printf("%d %d %d %d %d %d\n", a < b, a > b, a == b, a != b, a <= b, a >= b);
  return 0;
}
// MODE: run
// OUT: size 5 count(9,0) 2 count(1,1) 0
// OUT: (7,5) -> 4
// OUT: (8,6) -> 1
// OUT: (8,6) -> 3
// OUT: (9,0) -> 0
// OUT: (9,0) -> 2
// OUT: eq 1
// OUT: eq 3
// OUT: upper 0
// OUT: erased 2 size 3
// OUT: 1 2 3 3 | 2
// OUT: a=2 b=1 b=3 
// OUT: 1 0 0 1 1 0
// ---- a pair of multimap iterators from make_pair and equal_range's are one type (streamOrderedAllocationP2P picks the largest group so); insert's pair<iterator, bool>, the containers' member types iterator, const_iterator, value_type, mapped_type, size_type (outputs from g++ 12)
#include <cstdio>
#include <map>
#include <set>
#include <iterator>
#include <utility>
#include <deque>
int main() {
  std::multimap<std::pair<int, int>, int> byArch;
  int majors[5] = {8, 9, 8, 9, 9};
  for (int i = 0; i < 5; i++) byArch.emplace(std::make_pair(majors[i], 0), i);
  auto it = byArch.begin();
  auto end = byArch.end();
  auto best = std::make_pair(it, it);
  auto width = [](decltype(best) p) { return std::distance(p.first, p.second); };
  for (; it != end; it = byArch.upper_bound(it->first)) {
    auto test = byArch.equal_range(it->first);
    if (width(best) <= width(test)) best = test;
  }
  printf("%ld %d %d\n", (long)width(best), best.first->first.first, best.first->second);
  std::map<int, int> m;
  std::pair<std::map<int, int>::iterator, bool> r = m.insert(std::make_pair(4, 40));
  auto again = m.insert(std::make_pair(4, 41));
  r = again;
  std::set<int> s;
  std::pair<std::set<int>::iterator, bool> sr = s.insert(3);
  printf("%d %d %d %d %d\n", r.first->first, r.first->second, (int)r.second, *sr.first, (int)sr.second);
  std::deque<int> d = {1, 2, 3};
  std::deque<int>::iterator di = d.begin() + 1;
  std::set<int>::const_iterator si = s.find(3);
  std::multimap<std::pair<int, int>, int>::iterator mi = byArch.begin();
  std::map<int, double>::value_type vt = std::make_pair(3, 1.5);
  std::map<int, double>::mapped_type mt = 2.5;
  std::map<int, double>::size_type n = 7;
  printf("%d %d %d %d %g %g %zu\n", *di, *si, mi->second, vt.first, vt.second, mt, n);
  return 0;
}
// MODE: run
// OUT: 3 9 1
// OUT: 4 40 0 3 1
// OUT: 2 3 0 3 1.5 2.5 7
