// <immintrin.h>: the AVX/FMA intrinsics of Exo's x86 library as lane-wise C (lang/cudac/syntax/headers.go)
// ---- __m256 loads, stores, broadcast, add, sub, mul and fused multiply-add (expected output from gcc -mavx2 -mfma on x86-64)
// MODE: run
#include <stdio.h>
#include <immintrin.h>
int main(void) {
  float x[16], y[8], z[8], s = 2.5f;
  for (int i = 0; i < 16; i++) x[i] = (float)i - 3.5f;
  for (int i = 0; i < 8; i++) y[i] = 1.0f + (float)i / 4096.0f;
  __m256 a = _mm256_loadu_ps(&x[3]);            // unaligned
  __m256 b = _mm256_broadcast_ss(&s);
  __m256 c = _mm256_fmadd_ps(a, b, _mm256_set1_ps(1.0f));
  _mm256_storeu_ps(z, c);
  for (int i = 0; i < 8; i++) printf("%g ", z[i]);
  printf("\n");
  // one rounding: (1 + 2^-12)^2 - 1 is 2^-11 + 2^-24 fused, 2^-11 with a separate product
  __m256 u = _mm256_loadu_ps(y);
  _mm256_storeu_ps(z, _mm256_fmadd_ps(u, u, _mm256_set1_ps(-1.0f)));
  printf("%.9e %.9e\n", z[1], z[2]);
  _mm256_storeu_ps(z, _mm256_sub_ps(_mm256_mul_ps(u, u), _mm256_set1_ps(1.0f)));
  printf("%.9e %.9e\n", z[1], z[2]);
  _mm256_storeu_ps(z, _mm256_add_ps(_mm256_setzero_ps(), _mm256_mul_ps(a, a)));
  for (int i = 0; i < 8; i++) printf("%g ", z[i]);
  printf("\n");
  return 0;
}
// OUT: -0.25 2.25 4.75 7.25 9.75 12.25 14.75 17.25 
// OUT: 4.883408546e-04 9.768009186e-04
// OUT: 4.882812500e-04 9.768009186e-04
// OUT: 0.25 0.25 2.25 6.25 12.25 20.25 30.25 42.25 
