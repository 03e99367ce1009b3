// ---- string streams: <<, >>, str, getline and the manipulators (outputs from g++ 12.2)
#include <cstdio>
#include <iostream>
#include <iomanip>
#include <sstream>
#include <string>
int main() {
  std::ostringstream os;
  os << "n=" << 42 << ' ' << 3.5f << " " << -7L << " " << true << " " << 1e20 << " " << 0.1 + 0.2;
  std::string s = os.str();
  std::cout << s << " [" << s.size() << "]" << std::endl;
  std::ostringstream f;
  f << std::fixed << std::setprecision(3) << 3.14159 << " " << std::scientific << 12345.678
    << " " << std::defaultfloat << std::setprecision(10) << 1.0 / 3;
  std::cout << f.str() << "\n";
  std::ostringstream w;
  w << "[" << std::setw(6) << 42 << "][" << std::left << std::setw(5) << "ab" << "]["
    << std::right << std::setfill('0') << std::setw(4) << 7 << "]" << std::hex << 255 << " " << std::dec << 255
    << " " << std::boolalpha << false;
  std::cout << w.str() << std::endl;
  std::istringstream in("12 -3 4.5 word 99999999999 x");
  int a, b; double d; std::string word; int big; char c;
  in >> a >> b >> d >> word;
  std::cout << a + b << " " << d * 2 << " " << word << std::endl;
  in >> big;
  std::cout << "fail=" << in.fail() << " big=" << big << std::endl;
  in.clear();
  in >> c;
  std::cout << "c=" << c << " eof=" << in.eof() << std::endl;
  std::stringstream ss;
  ss << "3 4 5";
  int sum = 0, x;
  while (ss >> x) sum += x;
  std::cout << "sum=" << sum << " eof=" << ss.eof() << " fail=" << ss.fail() << " good=" << ss.good() << std::endl;
  std::istringstream lines("first line\nsecond\n\nlast");
  std::string line;
  int n = 0;
  while (std::getline(lines, line)) std::cout << ++n << ":" << line << "|" << std::endl;
  std::istringstream csv("a,b,,c");
  std::string tok;
  while (std::getline(csv, tok, ',')) std::cout << "<" << tok << ">";
  std::cout << std::endl;
  std::ostringstream o2("abcdef");
  o2 << "XY";
  std::cout << o2.str() << std::endl;
  ss.str("");
  ss.clear();
  ss << 1.5 << "," << 2;
  std::cout << ss.str() << std::endl;
  std::stringstream conv("0x1f 077 1e3");
  float fv; std::string hx;
  conv >> hx >> x >> fv;
  std::cout << hx << " " << x << " " << fv << std::endl;
  if (!(conv >> x)) std::cout << "end" << std::endl;
  std::cout << std::setprecision(4) << 3.14159265 << " " << 100.0 << std::endl;
  std::cout << std::fixed << 2.0 << std::endl;
  return 0;
}
// OUT: n=42 3.5 -7 1 1e+20 0.3 [23]
// OUT: 3.142 1.235e+04 0.3333333333
// OUT: [    42][ab   ][0007]ff 255 false
// OUT: 9 9 word
// OUT: fail=1 big=2147483647
// OUT: c=x eof=0
// OUT: sum=12 eof=1 fail=1 good=0
// OUT: 1:first line|
// OUT: 2:second|
// OUT: 3:|
// OUT: 4:last|
// OUT: <a><b><><c>
// OUT: XYcdef
// OUT: 1.5,2
// OUT: 0x1f 77 1000
// OUT: end
// OUT: 3.142 100
// OUT: 2.0000
// ---- widths, float forms, members and pointers to streams, input bases, ignore (outputs from g++ 12.2)
#include <cstdio>
#include <iostream>
#include <iomanip>
#include <sstream>
#include <string>
struct Acc { std::ostringstream log; int n; };
void report(std::ostringstream &os, int v) { os << "[" << v << "]"; }
int main() {
  std::ostringstream os;
  os << std::setw(8) << 3.14 << "|" << std::setw(3) << "abcdef" << "|" << 1e-5 << " " << 123456789.0 << " " << 0.0001 << " " << -0.0;
  printf("%s\n", os.str().c_str());
  report(os, 7);
  std::cout << os.str().size() << " " << os.str() << std::endl;
  Acc a;
  a.n = 3;
  a.log << "n=" << a.n;
  Acc *pa = &a;
  pa->log << "!";
  std::cout << pa->log.str() << std::endl;
  std::istringstream hx("ff 10 777");
  int x, y, z;
  hx >> std::hex >> x >> std::dec >> y >> std::oct >> z;
  std::cout << x << " " << y << " " << z << std::endl;
  std::cout << std::setprecision(3) << std::showpoint << 2.0 << " " << std::noshowpoint << 2.0 << std::endl;
  std::cout << std::uppercase << std::hex << 48879 << std::nouppercase << " " << 48879 << std::dec << std::endl;
  std::cout << std::fixed << std::setprecision(2) << 1.005 << " " << 2.675 << " " << (float)0.1 << std::endl;
  std::cerr << std::setw(5) << 42 << std::endl;
  unsigned long long big = 18446744073709551615ULL;
  long long neg = -9223372036854775807LL - 1;
  std::cout << big << " " << neg << " " << (short)-5 << " " << (unsigned char)65 << std::endl;
  std::istringstream is("  42abc 3.5e2x -7");
  int i; double d; std::string rest;
  is >> i >> rest;
  std::cout << i << "/" << rest << std::endl;
  std::istringstream fs("3.5e2x");
  fs >> d;
  char c;
  fs >> c;
  std::cout << d << c << std::endl;
  std::istringstream ig("skip this line\nnext");
  ig.ignore(100, '\n');
  std::string nx;
  ig >> nx;
  std::cout << nx << std::endl;
  return 0;
}
// OUT:     3.14|abcdef|1e-05 1.23457e+08 0.0001 -0
// OUT: 46     3.14|abcdef|1e-05 1.23457e+08 0.0001 -0[7]
// OUT: n=3!
// OUT: 255 10 511
// OUT: 2.00 2
// OUT: BEEF beef
// OUT: 1.00 2.67 0.10
// OUT: 18446744073709551615 -9223372036854775808 -5 A
// OUT: 42/abc
// OUT: 350.00x
// OUT: next
// STDERR:    42
// MODE: run
// ---- std::ostream& and std::istream& bind to std::cout, std::cerr and stream objects; pointers to them (outputs from g++ 12.2)
#include <iostream>
#include <sstream>
#include <fstream>
#include <string>
void table(std::ostream &os, int n) {
  for (int i = 1; i <= n; i++) os << i << (i < n ? "," : "\n");
}
int sum(std::istream &is) {
  int s = 0, x;
  while (is >> x) s += x;
  return s;
}
struct Logger {
  std::ostream *out;
  void log(const char *m) { *out << "[log] " << m << "\n"; }
};
int main() {
  table(std::cout, 3);
  std::ostringstream os;
  table(os, 4);
  std::cout << os.str();
  std::istringstream in("1 2 3 4");
  std::cout << sum(in) << std::endl;
  std::ostream &err = std::cerr;
  err << "to stderr" << std::endl;
  Logger lg;
  lg.out = &os;
  lg.log("a");
  std::cout << os.str();
  return 0;
}
// OUT: 1,2,3
// OUT: 1,2,3,4
// OUT: 10
// OUT: 1,2,3,4
// OUT: [log] a
// STDERR: to stderr
// MODE: run
// ---- an std::ostream object
#include <iostream>
int main() {
  std::ostream o; // ERROR C0309 col=16 "an std::ostream object is not modeled"
  std::istream &in = std::cout; // ERROR C0302 "cannot bind std::istream& to std::ostream"
  return 0;
}
// ---- std::cin reads the run's empty standard input, as scanf does (g++ 12.2 with stdin from /dev/null prints the same)
#include <iostream>
#include <string>
int main() {
  int n = 7;
  std::cin >> n;
  std::string line = "unchanged";
  bool got = (bool)std::getline(std::cin, line);
  std::cout << n << " " << std::cin.eof() << std::cin.fail() << " " << got << " " << line << std::endl;
  return 0;
}
// OUT: 7 11 0 unchanged
// ---- a program's operator<< and operator>> for std::ostream& and std::istream& (outputs from g++ 12.2)
#include <iostream>
#include <sstream>
#include <string>
struct Vec { float x, y; };
std::ostream &operator<<(std::ostream &os, const Vec &v) {
  os << "(" << v.x << ", " << v.y << ")";
  return os;
}
std::istream &operator>>(std::istream &is, Vec &v) { return is >> v.x >> v.y; }
int main() {
  Vec a = {1.5f, -2.f};
  std::cout << "a = " << a << std::endl;
  std::ostringstream s;
  s << a << a;
  std::cout << s.str() << std::endl;
  std::istringstream in("3 4 5 6");
  Vec b, c;
  in >> b >> c;
  std::cout << b << c << std::endl;
  return 0;
}
// OUT: a = (1.5, -2)
// OUT: (1.5, -2)(1.5, -2)
// OUT: (3, 4)(5, 6)
// ---- &std::cout and &std::cerr as std::ostream* beside a string stream (outputs from g++ 12.2)
#include <iostream>
#include <sstream>
struct Logger {
  std::ostream *out;
  int n;
  void log(const char *m) { *out << "[" << ++n << "] " << m << "\n"; }
};
int main(int argc, char **argv) {
  Logger lg = {&std::cout, 0};
  lg.log("to stdout");
  std::ostringstream mem;
  lg.out = &mem;
  lg.log("to memory");
  lg.out = &std::cerr;
  lg.log("to stderr");
  std::cout << mem.str() << (lg.out == &std::cerr) << (lg.out == (std::ostream *)&mem) << std::endl;
  return 0;
}
// OUT: [1] to stdout
// OUT: [2] to memory
// OUT: 10
// STDERR: [3] to stderr
// MODE: run
// ---- stream misuse is a positioned error
#include <sstream>
#include <string>
void take(std::ostringstream s) {}
int main() {
  std::ostringstream os;
  std::istringstream is("1");
  int x = 0;
  char buf[8];
  os >> x; // ERROR C0302 col=6 "operator>> on an output stream"
  is << 1; // ERROR C0302 col=6 "operator<< on an input stream"
  std::ostringstream copy(os); // ERROR C0302 "cannot be copied"
  take(os); // ERROR C0302 "cannot be copied"
  std::getline(is, buf); // ERROR C0302 col=20 "std::getline reads into a std::string"
  is >> 3; // ERROR C0303 col=9 "operator>> needs an object to read into"
  os.rdbuf(); // ERROR C0309 col=6 "std::ostringstream::rdbuf is not modeled"
  is.str(x); // ERROR C0302 col=10 "a string .std::string or char.. is needed, not int"
  return 0;
}
// ---- a stream in device code
#include <sstream>
__global__ void k() {
  std::ostringstream os; // ERROR C0307 "host-only"
}
int main() { k<<<1, 1>>>(); cudaDeviceSynchronize(); return 0; }
