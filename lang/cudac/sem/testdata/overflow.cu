// ---- overflow: signed int + past INT_MAX in a kernel is undefined (C0611), once per position; the run goes on with the wrapped value
#include <cstdio>
#include <climits>
__global__ void k(int *out, int base) {
  int i = threadIdx.x;
  out[i] = base + i; // ERROR C0611 col=17 "signed integer overflow: 2147483646 \+ 2 does not fit in a 32-bit int \(undefined behaviour\) in thread 2 of block 0 \(kernel k\)$"
}
int main() {
  int *out, h[4];
  cudaMalloc(&out, sizeof h);
  k<<<1, 4>>>(out, INT_MAX - 1);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d\n", h[0], h[1], h[3]);
  return 0;
}
// OUT: 2147483646 2147483647 -2147483647
// ---- overflow: unsigned arithmetic wraps and is not reported; signed arithmetic in range is not either
#include <cstdio>
__global__ void hash(unsigned *out, int *s) {
  unsigned h = 2166136261u;
  for (int i = 0; i < 8; i++) h = (h ^ (threadIdx.x + i)) * 16777619u;
  out[threadIdx.x] = h;
  int a = -2147483647;
  s[threadIdx.x] = a - 1 + (int)threadIdx.x * 2;
}
int main() {
  unsigned *out, h[2];
  int *s, hs[2];
  cudaMalloc(&out, sizeof h);
  cudaMalloc(&s, sizeof hs);
  hash<<<1, 2>>>(out, s);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(hs, s, sizeof hs, cudaMemcpyDeviceToHost);
  printf("%u %u %d %d\n", h[0], h[1], hs[0], hs[1]);
  return 0;
}
// OUT: 1811325981 671377293 -2147483648 -2147483646
// ---- overflow: a 64-bit product and ++ in host code
#include <cstdio>
int main() {
  long long big = 3037000500LL;
  long long sq = big * big; // ERROR C0611 col=22 "signed integer overflow: 3037000500 \* 3037000500 does not fit in a 64-bit long \(undefined behaviour\)$"
  int n = 2147483647;
  n++; // ERROR C0611 col=3 "signed integer overflow: 2147483647 \+ 1 does not fit in a 32-bit int"
  long long m = -9223372036854775807LL;
  m -= 2; // ERROR C0611 col=3 "signed integer overflow: -9223372036854775807 - 2 does not fit in a 64-bit long"
  printf("%lld %d %lld\n", sq, n, m);
  return 0;
}
// OUT: -9223372036709301616 -2147483648 9223372036854775807
// ---- overflow: negating INT_MIN overflows; negating other values does not
#include <cstdio>
#include <climits>
int main() {
  int a = INT_MIN, b = -7;
  int c = -b;
  int d = -a; // ERROR C0611 col=11 "signed integer overflow: 0 - -2147483648 does not fit in a 32-bit int"
  printf("%d %d\n", c, d);
  return 0;
}
// OUT: 7 -2147483648
// ---- overflow: INT_MIN / -1 and LLONG_MIN % -1 are undefined; other divisions by -1 are not
#include <cstdio>
#include <climits>
__global__ void k(int *out, long long *lo, int m) {
  out[0] = INT_MIN / m; // ERROR C0611 col=20 "signed integer overflow: -2147483648 / -1 does not fit in a 32-bit int \(undefined behaviour\) in thread 0 of block 0 \(kernel k\)"
  out[1] = 7 / m;
  lo[0] = LLONG_MIN % (long long)m; // ERROR C0611 col=21 "signed integer overflow: -9223372036854775808 % -1 does not fit in a 64-bit long"
}
int main() {
  int *out, h[2];
  long long *lo, hl;
  cudaMalloc(&out, sizeof h);
  cudaMalloc(&lo, sizeof hl);
  k<<<1, 1>>>(out, lo, -1);
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hl, lo, sizeof hl, cudaMemcpyDeviceToHost);
  printf("%d %d %lld\n", h[0], h[1], hl);
  return 0;
}
// OUT: -2147483648 -7 0
