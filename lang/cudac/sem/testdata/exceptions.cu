// ---- exceptions (C++ [except]): catch by type, by reference, by base class, by pointer, C strings, std::string, catch (...), unwinding through recursive frames, try in loops left by continue and break, a throw inside a handler caught outside, std::bad_alloc and std::exception what(); output pinned against g++
#include <cstdio>
#include <stdexcept>
#include <string>
#include <exception>
class ParseError : public std::exception {
  int line_;
public:
  ParseError(int line) : line_(line) {}
  const char *what() const noexcept override { return "parse error"; }
  int line() const { return line_; }
};
struct Node { int depth; };
int depthFirst(int n, int limit) {
  int local[4];
  for (int i = 0; i < 4; i++) local[i] = n + i;
  if (n == limit) throw Node{n};
  return depthFirst(n + 1, limit) + local[3];
}
int classify(int v) {
  try {
    if (v == 0) throw ParseError(17);
    if (v == 1) throw "literal";
    if (v == 2) throw new ParseError(3);
    if (v == 3) throw std::string("a string");
    if (v == 4) throw 2.5;
    return v;
  } catch (const ParseError &e) {
    printf("ParseError %s at %d\n", e.what(), e.line());
    return -1;
  } catch (const char *s) {
    printf("C string %s\n", s);
  } catch (std::exception *p) {
    printf("pointer %s\n", p->what());
    delete p;
  } catch (const std::string &s) {
    printf("std::string %s (%d)\n", s.c_str(), (int)s.size());
  }
  return -2;
}
int main() {
  for (int v = 0; v < 6; v++) {
    try {
      printf("classify(%d) = %d\n", v, classify(v));
    } catch (double d) {
      printf("double %g escaped classify\n", d);
    }
  }
  try {
    depthFirst(0, 50);
  } catch (Node &n) {
    printf("unwound from depth %d\n", n.depth);
  }
  int caught = 0;
  for (int i = 0; i < 10; i++) {
    try {
      if (i % 3 == 0) continue;
      if (i == 8) break;
      throw i;
    } catch (int k) {
      caught += k;
    }
  }
  printf("caught sum %d\n", caught);
  try {
    try {
      throw std::out_of_range("index 9");
    } catch (std::logic_error &e) {
      printf("inner %s\n", e.what());
      throw std::runtime_error(std::string("wrapped: ") + e.what());
    }
  } catch (std::exception &e) {
    printf("outer %s\n", e.what());
  }
  try {
    throw std::bad_alloc();
  } catch (std::exception &e) {
    printf("%s\n", e.what());
  }
  try {
    throw std::exception();
  } catch (...) {
    printf("catch-all\n");
  }
  return 0;
}
// OUT: ParseError parse error at 17
// OUT: classify(0) = -1
// OUT: C string literal
// OUT: classify(1) = -2
// OUT: pointer parse error
// OUT: classify(2) = -2
// OUT: std::string a string (8)
// OUT: classify(3) = -2
// OUT: double 2.5 escaped classify
// OUT: classify(5) = 5
// OUT: unwound from depth 50
// OUT: caught sum 19
// OUT: inner index 9
// OUT: outer wrapped: index 9
// OUT: std::bad_alloc
// OUT: catch-all
// ---- a CUDA error-check helper that throws std::runtime_error, caught in main
#include <cstdio>
#include <stdexcept>
#include <cuda_runtime.h>
#define CUDA_CHECK(call) checkCuda((call), #call)
void checkCuda(cudaError_t e, const char *what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
__global__ void fill(int *p, int v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v + i;
}
int main() {
  int *d = nullptr, h[8];
  try {
    CUDA_CHECK(cudaMalloc(&d, sizeof h));
    fill<<<1, 8>>>(d, 100, 8);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    printf("%d %d\n", h[0], h[7]);
    fill<<<1, 4096>>>(d, 0, 8); // WARN C0603 col=5 "4096 threads per block exceed the limit of 1024"
    CUDA_CHECK(cudaGetLastError());
    printf("not reached\n");
  } catch (const std::exception &e) {
    printf("error: %s\n", e.what());
  }
  cudaFree(d);
  return 0;
}
// OUT: 100 107
// OUT: error: cudaGetLastError(): invalid configuration argument
// ---- an exception no handler catches ends the run as std::terminate does, with what()
#include <cstdio>
#include <stdexcept>
void load(int n) {
  if (n > 2) throw std::invalid_argument("n must be at most 2"); // ERROR C0604 col=14 "uncaught exception of type std::invalid_argument: what\(\): \"n must be at most 2\"; std::terminate"
}
int main() {
  try {
    load(1);
    printf("loaded\n");
    load(3);
  } catch (std::out_of_range &e) {
    printf("not this handler\n");
  }
  return 0;
}
// OUT: loaded
// ---- a rethrown exception that escapes names where it was thrown; a thrown struct without what()
#include <cstdio>
struct Oops { int code; };
void inner() { throw Oops{3}; }
int main() {
  try {
    inner();
  } catch (Oops &o) {
    printf("saw %d, rethrowing\n", o.code);
    throw; // ERROR C0604 col=5 "uncaught exception of type struct Oops \(thrown at .*exceptions.cu:155:16\); std::terminate"
  }
  return 0;
}
// OUT: saw 3, rethrowing
// ---- throw; with no exception being handled
int main() {
  throw; // ERROR C0604 col=3 "throw; with no exception being handled"
}
// ---- throw and try in device code are compile-time errors (CUDA has exceptions in host code only)
__device__ int checked(int x) {
  if (x < 0) throw 1; // ERROR C0307 col=14 "throw in device code"
  return x;
}
__global__ void k(int *p) {
  try { // ERROR C0307 col=3 "try in device code"
    p[0] = checked(p[0]);
  } catch (...) {
  }
}
int main() { return 0; }
// ---- unwinding runs the destructors of the automatic objects it leaves, latest first, in every frame and in the try block, and not those of the handler's enclosing scopes (output pinned against g++)
#include <cstdio>
#include <stdexcept>
struct Guard {
  const char *name;
  Guard(const char *n) : name(n) { printf("acquire %s\n", name); }
  ~Guard() { printf("release %s\n", name); }
};
void inner(int k) {
  Guard g("inner");
  if (k > 1) throw std::runtime_error("too deep");
  printf("inner ok %d\n", k);
}
void middle(int k) {
  Guard a("middle-a");
  {
    Guard b("middle-b");
    inner(k);
  }
  Guard c("middle-c");
}
int main() {
  for (int k = 1; k <= 2; k++) {
    try {
      Guard t("try");
      middle(k);
    } catch (std::exception &e) {
      printf("caught %s\n", e.what());
    }
  }
  Guard outer("outer");
  try {
    Guard inTry("in-try");
    throw 5;
  } catch (int v) {
    printf("caught %d\n", v);
  }
  return 0;
}
// OUT: acquire try
// OUT: acquire middle-a
// OUT: acquire middle-b
// OUT: acquire inner
// OUT: inner ok 1
// OUT: release inner
// OUT: release middle-b
// OUT: acquire middle-c
// OUT: release middle-c
// OUT: release middle-a
// OUT: release try
// OUT: acquire try
// OUT: acquire middle-a
// OUT: acquire middle-b
// OUT: acquire inner
// OUT: release inner
// OUT: release middle-b
// OUT: release middle-a
// OUT: release try
// OUT: caught too deep
// OUT: acquire outer
// OUT: acquire in-try
// OUT: release in-try
// OUT: caught 5
// OUT: release outer
// ---- throw; in a helper called from a handler, noexcept(false) and throw() specifications, std::runtime_error{"..."}, an object with a destructor freeing memory left by a throw, many throws in a loop (output pinned against g++)
#include <cstdio>
#include <stdexcept>
#include <string>
void handle() {
  try { throw; }
  catch (std::runtime_error const &e) { printf("helper saw runtime_error %s\n", e.what()); }
  catch (...) { printf("helper saw something else\n"); }
}
int risky(int x) noexcept(false) {
  if (x) throw std::runtime_error{"braced"};
  return 0;
}
void old() throw() {}
struct Res { int *p; Res() : p(new int(5)) {} ~Res() { delete p; printf("freed\n"); } };
int main() {
  try { risky(1); } catch (...) { handle(); }
  try { throw 3; } catch (...) { handle(); }
  old();
  try {
    Res r;
    std::string s = "abc";
    throw std::length_error(s + "def");
  } catch (const std::logic_error &e) {
    printf("%s\n", e.what());
  }
  int caught = 0;
  for (int i = 0; i < 1000; i++) {
    try { if (i % 2) throw i; } catch (int v) { caught += v; }
  }
  printf("%d\n", caught);
  return 0;
}
// OUT: helper saw runtime_error braced
// OUT: helper saw something else
// OUT: freed
// OUT: abcdef
// OUT: 250000
// ---- returns from inside try blocks, a function without a try between a throw and its handler, recursion whose handlers rethrow (output pinned against g++)
#include <cstdio>
int a(int x) { try { if (x) return x * 2; } catch (int) { printf("a caught\n"); } return -1; }
int b(int x) { if (x > 5) throw x; return x; }
int c(int x) { try { return b(x); } catch (int v) { printf("c caught %d\n", v); return -v; } }
int rec(int n) { try { if (n == 0) throw 100; return rec(n - 1) + 1; } catch (int v) { if (n < 3) throw v + 1; return v; } }
int main() {
  int s = 0;
  for (int i = 0; i < 5; i++) s += a(i + 1);
  for (int i = 0; i < 8; i++) {
    try { s += b(i); } catch (int v) { printf("main caught %d\n", v); }
  }
  printf("%d %d %d\n", s, c(3), c(9));
  printf("rec %d\n", rec(6));
  return 0;
}
// OUT: main caught 6
// OUT: main caught 7
// OUT: c caught 9
// OUT: 45 3 -9
// OUT: rec 106
// ---- an exception that would leave a noexcept function calls std::terminate (noexcept(false) and throw() are read too)
#include <cstdio>
void maybe(int x) noexcept(false) { if (x) throw x; } // ERROR C0604 col=44 "an exception of type int leaves never, which is noexcept; std::terminate is called"
void never(int x) noexcept { maybe(x); }
void old() throw() {}
int main() {
  try { maybe(1); } catch (int v) { printf("caught %d\n", v); }
  old();
  never(0);
  try { never(2); } catch (int v) { printf("not reached %d\n", v); }
  return 0;
}
// OUT: caught 1
