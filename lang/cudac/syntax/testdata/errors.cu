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
#include <unordered_map> // ERROR C0110 col=10 "cannot find include file \"unordered_map\""
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
