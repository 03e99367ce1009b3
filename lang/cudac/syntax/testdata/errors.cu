// ---- unknown directive
#pragma once
#frobnicate // ERROR C0109 col=2 "unknown directive #frobnicate"
int x;
// ---- #error
#define FOO 1
#if FOO && defined(FOO)
#error stop here // ERROR C0107 col=2 "#error stop here"
#endif
// ---- #elif and #else without #if
#else // ERROR C0105 col=2 "#else without #if"
#endif // ERROR C0105 col=2 "#endif without #if"
// ---- an unterminated #if
#ifdef BAR // ERROR C0106 col=2 "unterminated conditional directive"
int y;
// ---- missing include
#include "nope.h" // ERROR C0110 col=10 "cannot find include file \"nope.h\""
#include <forward_list> // ERROR C0110 col=10 "cannot find include file \"forward_list\""
// ---- wrong number of macro arguments
#define ADD(a, b) ((a) + (b))
int z = ADD(1); // ERROR C0113 col=9 "macro ADD expects 2 arguments, got 1" // ERROR C0210 col=15 "expected expression"
// ---- a bad #if expression
#if 1 + // ERROR C0114 "in #if expression"
#endif
// ---- unterminated comment and string
int a = 1; /* never closed // ERROR C0101 col=12 "unterminated comment"
// ---- an invalid character
int b = 1 @ 2; // ERROR C0103 col=11 "invalid character '@'" // ERROR C0201 col=13 "expected ';', found '2'"
// ---- syntax errors are reported with recovery at the next declaration
int f(int x) {
  return x +; // ERROR C0210 col=13 "expected expression, found ';'"
}
int g(void) { return 1 } // ERROR C0201 col=24 "expected ';'"
int h(void) { return 2; }
// ---- a launch needs 2 to 4 configuration arguments
__global__ void k() {}
int main() { k<<<1>>>(); } // ERROR C0211 col=15 "a kernel launch takes 2 to 4 configuration arguments"
// ---- invalid type specifiers
unsigned float q; // ERROR C0203 col=1 "invalid type 'unsigned float'"
// ---- macros: function-like, stringizing, pasting, variadic, nesting
#define STR(x) #x
#define CAT(a, b) a##b
#define SQ(x) ((x) * (x))
#define LOG(fmt, ...) printf(fmt, __VA_ARGS__)
#define TWICE(x) SQ(x) + SQ(x)
int CAT(va, r) = SQ(3) + TWICE(2);
const char *s = STR(hello world);
void p() { LOG("%d %d\n", 1, 2); }
// ---- inline asm: constraints and sections
__device__ void f(unsigned *p, float x) {
  unsigned r;
  asm volatile("mov.u32 %0, %%tid.x;" : "=r"(r));
  asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
  __asm__ __volatile__("barrier.cta.sync 0;" ::: "memory");
  asm volatile("cp.async.wait_group %0;" ::"n"(1) : "memory");
  asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};"
               : "+f"(x), "+f"(x), "+f"(x), "+f"(x) : "r"(r), "r"(r), "r"(r));
}
__device__ void g1(unsigned r) { asm volatile("mov.u32 %0, 1;" : "r"(r)); } // ERROR C0212 col=66 "asm output constraint \"r\" needs '=' or '\+'"
__device__ void g2(unsigned r) { asm volatile("mov.u32 %0, 1;" :: "=r"(r)); } // ERROR C0212 col=67 "asm input constraint \"=r\" may not have"
__device__ void g3(unsigned r) { asm volatile("mov.u32 %0, 1;" : "=x"(r)); } // ERROR C0212 col=66 "unsupported asm operand constraint \"=x\""
__device__ void g4(unsigned x) { asm volatile(x); } // ERROR C0212 col=47 "asm needs a string literal template"
__device__ void g5() { asm goto("bra L;" ::: "memory" : L); } // ERROR C0212 col=28 "asm goto is not supported"
__device__ void g6() { asm("bra L;" ::: "memory" : "x"); } // ERROR C0212 col=52 "at most three ':' sections"
// ---- texture references, mipmapped arrays and the driver's texture handles are reported where each type is named; texture and surface objects parse
texture<float, 1, cudaReadModeElementType> texRef; // ERROR C0309 col=1 "texture: texture and surface references, mipmapped arrays and the driver API's texture handles are not modeled"
__global__ void k(cudaMipmappedArray_t m, float *o) { // ERROR C0309 col=19 "cudaMipmappedArray_t: texture and surface references"
  CUsurfObject s = 0; // ERROR C0309 col=3 "CUsurfObject: texture and surface references"
  cudaTextureObject_t t = 0;
  cudaSurfaceObject_t u = t;
}
// ---- std::pair as a template argument of a container parses (no diagnostic)
#include <map>
#include <utility>
std::multimap<std::pair<int, int>, int> byArch();
std::map<std::pair<int, std::pair<int, int>>, std::pair<int, float>> nested;
int main() { std::pair<int, int> p(1, 2); return std::make_pair(p, 3).second; }
// ---- a parameter or variable of a type never declared is named, not misparsed
int alloc(Handle *out, unsigned long size, int flags); // ERROR C0204 col=11 "unknown type name 'Handle'"
int release(Ptr p, unsigned long size); // ERROR C0204 col=13 "unknown type name 'Ptr'"
int again(Handle *h, int n); // (now a type: no second report)
void g(int n) {
  Props prop = {}; // ERROR C0204 col=3 "unknown type name 'Props'"
  Props more[2];
  int a = n * n, b(n);
}
