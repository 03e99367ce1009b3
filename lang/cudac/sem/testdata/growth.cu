// ---- push_back grows the buffer in place: n push_backs are linear, the bounds stay exact
#include <cstdio>
#include <vector>
#include <string>
int main() {
  std::vector<int> v;
  for (int i = 0; i < 20000; i++) v.push_back(i);
  long s = 0;
  for (int x : v) s += x;
  std::vector<std::string> w;
  for (int i = 0; i < 1000; i++) w.push_back(std::to_string(i));
  printf("%zu %ld %s %zu\n", v.size(), s, w[999].c_str(), w.size());
  int *p = &v[0];
  v.push_back(7);
  *p = 42; // the same object: C++ keeps it valid while the capacity suffices
  printf("%d %d\n", v[0], v[20000]);
  int *end = v.data() + v.size();
  return *end; // ERROR C0403 col=10 "out-of-bounds read of 4 bytes at offset 80004 of host memory std buffer .80004 bytes."
}
// MODE: run
// OUT: 20000 199990000 999 1000
// OUT: 42 7
// ---- a string built by += grows its buffer in place (outputs from g++ 12.2)
#include <cstdio>
#include <string>
int main() {
  std::string s;
  for (int i = 0; i < 200000; i++) s += (char)('a' + i % 26);
  std::string t = "x";
  t += t;
  t += "yz";
  t.push_back('!');
  t.append(3, '-');
  const char *c = t.c_str();
  printf("%zu %c%c %s %zu\n", s.size(), s[0], s[199999], c, t.size());
  return 0;
}
// OUT: 200000 ah xxyz!--- 8
