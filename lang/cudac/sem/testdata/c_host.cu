// ---- host C: integer widths, conversions, printf formats, structs, recursion, control flow (expected output from gcc)
// MODE: run
#include <stdio.h>
#include <stdint.h>
#include <limits.h>
struct P { char c; int i; short s; double d; };
typedef struct { int x, y; } V2;
static int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
V2 addv(V2 a, V2 b) { V2 r; r.x = a.x + b.x; r.y = a.y + b.y; return r; }
enum Color { RED, GREEN = 5, BLUE };
int main(void) {
  unsigned u = 0; u -= 1;
  int i = -7;
  unsigned char uc = 300;
  signed char sc = (signed char)200;
  short sh = 70000;
  long long ll = LLONG_MAX; ll += 0;
  unsigned long long ull = 18446744073709551615ULL;
  printf("%u %d %d %d %d %lld %llu\n", u, i / 2, i % 3, uc, sc, ll, ull);
  printf("%d %u %d\n", sh, (unsigned short)-1, -1 < 0u);
  printf("%d %d %ld\n", i >> 1, (int)(u >> 28), (long)INT_MIN - 1);
  printf("%x %X %o %#x %08.3f|%-6d|%+d|% d\n", 255u, 0xABCDu, 8, 0x1f, 3.14159, 42, 5, 7);
  printf("%5.2f %e %g %g %g %g\n", 2.0 / 3, 12345.678, 0.0001, 1e-5, 123456789.0, 100000.0);
  printf("%c%c %s %5s|%-5s| %%\n", 'o', 'k', "str", "ab", "cd");
  float f = 1.0f / 3.0f; double d = 1.0 / 3.0;
  printf("%.10f %.10f %d %d\n", f, d, (int)2.99, (int)-2.99);
  printf("%d %d %u\n", (int)3000000000.0, (char)0x1ff, (unsigned)-1.0f == 0);
  struct P p = { 'a', 2, 3, 4.5 };
  printf("%zu %d %d %d %.1f\n", sizeof(struct P), p.c, p.i, p.s, p.d);
  V2 a = {1, 2}, b = {10, 20};
  V2 c = addv(a, b);
  printf("%d %d %d\n", c.x, c.y, fib(15));
  printf("%d %d %d\n", RED, GREEN, BLUE);
  int arr[5] = {1, 2, 3};
  int *q = arr + 4; q -= 2;
  printf("%d %ld %d\n", arr[3], (long)(q - arr), *q);
  uint8_t b8 = 250; b8 += 10;
  int16_t s16 = 32767; s16++;
  uint32_t w = 0xffffffffu; w *= w;
  printf("%d %d %u\n", b8, s16, w);
  int x = 5;
  x += 1; x++;
  int y = (x > 3) ? 10 : 20;
  printf("%d %d %d\n", x, y, !x);
  switch (y) { case 10: printf("ten\n"); case 11: printf("fall\n"); break; default: printf("no\n"); }
  int k = 0;
  do { k += 3; } while (k < 10);
  for (int j = 0; j < 10; j++) { if (j == 2) continue; if (j == 5) break; k += j; }
  printf("%d\n", k);
  char s[16];
  sprintf(s, "%d-%s", 42, "x");
  printf("%s %d\n", s, (int)sizeof(s));
  printf("%.3g %.0f %.2e %g %g\n", 3.14159, 2.5, -0.000123, 0.5, 1e20);
  printf("%lu %d\n", sizeof(long), (int)sizeof(V2));
  return 0;
}
// OUT: 4294967295 -3 -1 44 -56 9223372036854775807 18446744073709551615
// OUT: 4464 65535 0
// OUT: -4 15 -2147483649
// OUT: ff ABCD 10 0x1f 0003.142|42    |+5| 7
// OUT:  0.67 1.234568e+04 0.0001 1e-05 1.23457e+08 100000
// OUT: ok str    ab|cd   | %
// OUT: 0.3333333433 0.3333333333 2 -2
// OUT: 2147483647 -1 1
// OUT: 24 97 2 3 4.5
// OUT: 11 22 610
// OUT: 0 5 6
// OUT: 0 2 3
// OUT: 4 -32768 1
// OUT: 7 10 0
// OUT: ten
// OUT: fall
// OUT: 20
// OUT: 42-x 16
// OUT: 3.14 2 -1.23e-04 0.5 1e+20
// OUT: 8 8
