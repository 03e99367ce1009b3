// ---- <random>: mt19937, mt19937_64, minstd_rand, default_random_engine and random_device with uniform_int_distribution (int, int with defaults, long long wider than 32 bits, unsigned), uniform_real_distribution (float, double), normal_distribution (float, double) and bernoulli_distribution print what g++ 12 (libstdc++) prints
#include <cstdio>
#include <random>
#include <vector>
int main() {
  std::mt19937 g(42);
  std::mt19937_64 g64(7);
  std::minstd_rand ms(3);
  std::default_random_engine de;
  std::uniform_int_distribution<int> di(-5, 5);
  std::uniform_int_distribution<> dfull;
  std::uniform_int_distribution<long long> dll(0, 10000000000LL);
  std::uniform_int_distribution<unsigned> du(0, 99);
  std::uniform_real_distribution<float> df(-1.0f, 1.0f);
  std::uniform_real_distribution<> dd(0.0, 10.0);
  std::normal_distribution<float> nf(0.0f, 1.0f);
  std::normal_distribution<double> nd(5.0, 2.0);
  std::bernoulli_distribution bd(0.3);
  for (int i = 0; i < 6; i++) {
    int a = di(g); int b = dfull(g); long long c = dll(g); unsigned d = du(g64);
    int e = di(ms); int f = di(de); unsigned h = du(de);
    float x = df(g); double y = dd(g64); float z = nf(g); double w = nd(ms); int q = bd(g);
    printf("%d %d %lld %u | %d %d %u | %.9g %.17g %.9g %.17g %d\n", a, b, c, d, e, f, h, x, y, z, w, q);
  }
  std::vector<float> v(5);
  std::mt19937 gen(123);
  for (auto &x : v) x = df(gen);
  unsigned g1 = g(); unsigned g2 = (unsigned)g64(); unsigned g3 = ms();
  printf("%u %u %u %.9g %.9g\n", g1, g2, g3, v[0], v[4]);
  std::random_device rd;
  std::mt19937 r2(rd());
  printf("%d\n", di(r2) >= -5);
  return 0;
}
// MODE: run
// OUT: -1 1710563033 9377781006 75 | -5 -5 13 | 0.463987827 9.4930120289264419 0.480811536 7.8968746516714017 1
// OUT: -1 334995689 249467210 11 | -3 3 45 | -0.0815021992 8.9191317671247639 1.36307204 5.4507825375176395 0
// OUT: 1 306804147 242285876 14 | -3 0 21 | 0.939819694 0.55093158503943052 0.786776543 6.6358941787280408 1
// OUT: -5 390466143 9377650964 83 | 0 -5 67 | 0.234963059 9.0071047645970843 0.525394082 6.4634557754917825 0
// OUT: 0 15174782 4394019672 25 | 1 2 93 | -0.417541742 7.1790568464900337 2.37029076 7.1520626904171714 1
// OUT: -5 627375853 1958805693 75 | 4 -1 51 | -0.818787098 5.9618878077843318 0.525003612 7.0877984434276478 0
// OUT: 857592370 2832255855 1061154990 0.392938375 -0.546297073
// OUT: 1

// ---- <random>: 20000 draws of each distribution on each engine (Lemire's method with and without rejection, division for minstd, a range wider than the engine, generate_canonical's rounding): the integer, uniform real and bernoulli draws hash bit for bit to g++ 12's; the normal draws' sums print as g++'s (18 of 20 000 double and 5 of 20 000 float normal draws differ from g++'s in the last bit: glibc's log and logf are not correctly rounded near halfway cases, Weft's are)
#include <cstdio>
#include <random>
#include <cstring>
template <class G, class D> unsigned long long sum(G &g, D &d, int n) {
  unsigned long long h = 1469598103934665603ull;
  for (int i = 0; i < n; i++) { auto v = d(g); h = (h ^ (unsigned long long)(long long)v) * 1099511628211ull; }
  return h;
}
template <class G, class D> unsigned long long fsum(G &g, D &d, int n) {
  unsigned long long h = 1469598103934665603ull;
  for (int i = 0; i < n; i++) { double v = d(g); unsigned long long b; memcpy(&b, &v, 8); h = (h ^ b) * 1099511628211ull; }
  return h;
}
template <class G, class D> double dsum(G &g, D &d, int n) {
  double s = 0; for (int i = 0; i < n; i++) s += d(g); return s;
}
int main() {
  const int n = 20000;
  std::mt19937 a(1); std::mt19937_64 b(2); std::minstd_rand0 c(3); std::minstd_rand e(4);
  std::uniform_int_distribution<unsigned> u1(0, 0xfffffffeu), u2(0, 2);
  std::uniform_int_distribution<long long> u3(-3000000000000LL, 5000000000000LL);
  std::uniform_int_distribution<unsigned long long> u4;
  std::uniform_int_distribution<short> u5(-7, 1000);
  std::uniform_int_distribution<int> u6(0, 2147483645);
  unsigned long long s1 = sum(a, u1, n), s2 = sum(a, u2, n), s3 = sum(a, u3, n), s4 = sum(b, u4, n), s5 = sum(c, u5, n), s6 = sum(e, u6, n);
  printf("%llu %llu %llu %llu %llu %llu\n", s1, s2, s3, s4, s5, s6);
  s1 = sum(b, u1, n); s2 = sum(b, u3, n); s3 = sum(c, u3, n); s4 = sum(e, u2, n);
  printf("%llu %llu %llu %llu\n", s1, s2, s3, s4);
  std::uniform_real_distribution<float> f1(0.0f, 1.0f), f2(-1e6f, 1e6f);
  std::uniform_real_distribution<double> d1, d2(-3.5, 2.25);
  std::normal_distribution<float> n1(1.0f, 0.5f);
  std::normal_distribution<double> n2;
  std::bernoulli_distribution bb(0.75);
  unsigned long long t1 = fsum(a, f1, n), t2 = fsum(c, f2, n), t3 = fsum(b, d1, n), t4 = fsum(e, d2, n);
  printf("%llx %llx %llx %llx\n", t1, t2, t3, t4);
  double q1 = dsum(a, n1, n), q2 = dsum(b, n2, n), q3 = dsum(c, n2, n), q4 = dsum(e, n2, n); unsigned long long t5 = fsum(a, bb, n);
  printf("%.17g %.17g %.17g %.17g %llx\n", q1, q2, q3, q4, t5);
  return 0;
}
// MODE: run
// OUT: 1856718889192200631 17394868880222707908 7755244503853967 15405716777522254778 9885310094736387576 12213587497544322355
// OUT: 2425649399313124082 3280899085965153449 12207066227461441541 17541775480510554342
// OUT: e7a9ccd66f272d03 1640c1418f272d03 4ca07dd040b4c150 ee53f7eac395fad6
// OUT: 19909.233877301216 -138.9955396461846 -24.215662826051446 78.448618265994583 a3cb89fe2f272d03

// ---- log correctly rounded: on these arguments (normal_distribution's r2 from minstd_rand), where Go's math.Log is one ulp off, it gives glibc's bits
#include <cstdio>
#include <cmath>
#include <random>
int main() {
  std::minstd_rand e(4);
  for (int i = 0; i < 7; i++) {
    double x, y, r2;
    do {
      x = 2.0 * std::generate_canonical<double, 53>(e) - 1.0;
      y = 2.0 * std::generate_canonical<double, 53>(e) - 1.0;
      r2 = x * x + y * y;
    } while (r2 > 1.0 || r2 == 0.0);
    double lg = std::log(r2);
    double mult = std::sqrt(-2 * lg / r2);
    printf("%a %a %a %a %a %a\n", x, y, r2, lg, mult, y * mult);
  }
  return 0;
}
// MODE: run
// OUT: -0x1.476a07851d49ep-2 0x1.1028bef139c28p-3 0x1.eb15b22f806a2p-4 -0x1.0f81d33788adbp+1 0x1.7cb31544c169bp+2 0x1.94bade880483bp-1
// OUT: 0x1.08f8246b1d5ecp-1 0x1.78f82ca7ce9b8p-3 0x1.34f25adfb907dp-2 -0x1.32c3fce846bdfp+0 0x1.68c228e88ee1fp+1 0x1.099d738d85ff2p-1
// OUT: 0x1.a23558598c8ecp-2 0x1.cabb2bda4daa8p-3 0x1.bc5968095814dp-3 -0x1.872b8abf88d24p+0 0x1.e062e065a08e8p+1 0x1.ae680ffcfe8e9p-1
// OUT: 0x1.62708aa26320ap-1 -0x1.16bc458f45a1p-3 0x1.fdb347fb49d96p-2 -0x1.65323b70255efp-1 0x1.ac9d14297ce3dp+0 -0x1.d2adcbb612d87p-3
// OUT: -0x1.4bab3c9829ce1p-1 0x1.44c4b520fe7d4p-2 0x1.0a5a70d1eab88p-1 -0x1.4e97b0f373e87p-1 0x1.95c61b9636078p+0 0x1.016342d84c845p-1
// OUT: -0x1.4aa89a4f1d302p-1 -0x1.00fbd7be19efp-2 0x1.eb9546ae1a372p-2 -0x1.77b9fac297d4dp-1 0x1.bf9e2ad23e751p+0 -0x1.c1568420754bp-2
// OUT: 0x1.d511ed9e56138p-2 -0x1.ecb5771af4cdcp-3 0x1.12234ca0f8c65p-2 -0x1.515e00255e8e4p+0 0x1.91a04393c677bp+1 -0x1.827e5985c954cp-1

// ---- std::shuffle as libstdc++ shuffles (pairs of swap positions from one draw when the engine covers n^2, one draw per position otherwise), std::generate and std::generate_n (output from g++ 12)
#include <cstdio>
#include <vector>
#include <algorithm>
#include <numeric>
#include <random>
int main() {
  std::vector<int> v(10), w(7), big(100);
  std::iota(v.begin(), v.end(), 0);
  std::iota(w.begin(), w.end(), 100);
  std::iota(big.begin(), big.end(), 0);
  std::mt19937 g(7);
  std::shuffle(v.begin(), v.end(), g);
  std::shuffle(w.begin(), w.end(), g);
  std::minstd_rand m(1);
  std::shuffle(big.begin(), big.end(), m);
  for (int x : v) printf("%d ", x);
  printf("| ");
  for (int x : w) printf("%d ", x);
  printf("| ");
  for (int i = 0; i < 10; i++) printf("%d ", big[i]);
  printf("\n");
  std::vector<float> f(5);
  std::uniform_real_distribution<float> d(0.0f, 1.0f);
  std::generate(f.begin(), f.end(), [&] { return d(g); });
  int k = 0;
  std::vector<int> sq(4);
  std::generate_n(sq.begin(), 4, [&] { ++k; return k * k; });
  printf("%.9g %.9g %d %d\n", f[0], f[4], sq[0], sq[3]);
  return 0;
}
// MODE: run
// OUT: 2 7 6 8 1 5 3 0 4 9 | 100 101 105 102 104 106 103 | 5 51 19 65 29 71 92 78 52 13 
// OUT: 0.977989495 0.501120448 1 16

// ---- a typical benchmark harness: test data from <random> through std::generate, a kernel, std::accumulate and max_element, std::chrono; checks clean and prints what the same host code built with g++ 12 prints
#include <cstdio>
#include <random>
#include <vector>
#include <algorithm>
#include <numeric>
#include <chrono>
__global__ void saxpy(int n, float a, const float *x, float *y) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + y[i]; }
int main() {
  const int n = 1000;
  std::mt19937 gen(42);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> x(n), y(n);
  std::generate(x.begin(), x.end(), [&] { return dist(gen); });
  std::fill(y.begin(), y.end(), 1.0f);
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float)); cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  auto t0 = std::chrono::high_resolution_clock::now();
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, dx, dy);
  cudaDeviceSynchronize();
  auto t1 = std::chrono::high_resolution_clock::now();
  cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  double s = std::accumulate(y.begin(), y.end(), 0.0);
  float mx = *std::max_element(y.begin(), y.end());
  printf("sum %.4f max %.4f %s\n", s, mx, std::chrono::duration<double>(t1 - t0).count() >= 0 ? "ok" : "bad");
  return 0;
}
// MODE: check
// OUT: sum 996.8018 max 2.9910 ok

// ---- exp, pow, sin, cos, tan, log10, log2 and exp2 on the host: the first values in %a and weighted sums of 3 000 values print as gcc 12 with glibc prints them (a sum hides a last-bit difference in one value: TestCrMath checks correct rounding; the float functions too)
#include <stdio.h>
#include <math.h>
int main() {
  unsigned s = 12345;
  int badd = 0;
  double acc = 0;
  for (int i = 0; i < 3000; i++) {
    s = s * 1103515245u + 12345u;
    double x = ((s >> 8) / 16777216.0 - 0.5) * 60;
    s = s * 1103515245u + 12345u;
    double y = (s >> 8) / 16777216.0 * 20;
    double v[8] = {exp(x), pow(y, x / 10), sin(x), cos(x), tan(x), log10(y), log2(y), exp2(x / 2)};
    for (int k = 0; k < 8; k++) acc += v[k] * (k + 1);
    if (i < 3) printf("%a %a %a %a %a %a %a %a\n", v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
  }
  printf("%a\n", acc);
  float facc = 0;
  for (int i = 0; i < 3000; i++) {
    s = s * 1103515245u + 12345u;
    float x = ((s >> 8) / 16777216.0f - 0.5f) * 20;
    facc += expf(x) + sinf(x) + cosf(x) + powf(1.5f, x) + logf(fabsf(x) + 1);
  }
  printf("%a\n", facc);
  return 0;
}
// MODE: run
// OUT: 0x1.478fc40552c8ep+28 0x1.3799cb27d4b57p+7 0x1.711681e471954p-1 0x1.62d9734b47897p-1 0x1.0a45a9e2f5ec5p+0 0x1.1d94992d6df1ep+0 0x1.da56c0dff70abp+1 0x1.c63d5a00adb04p+9
// OUT: 0x1.28b3a964ae80ep+29 0x1.244d80a054f79p+0 0x1.f87c66c038b8dp-1 0x1.5d94c20691729p-3 0x1.717007529ab22p+2 0x1.d200f53d6edf2p-6 0x1.8301faa4d55f1p-4 0x1.170e41022ec69p+10
// OUT: 0x1.480d369274667p+22 0x1.773c5a13ac7c6p+3 0x1.ac643b5182f82p-3 -0x1.f4ac706223bb7p-1 -0x1.b6152f25f504cp-3 0x1.613a979aae4a5p-1 0x1.2559a8c7599f4p+1 0x1.ae2045a7f754fp+7
// OUT: 0x1.a4cbb1075af96p+48
// OUT: 0x1.7505acp+21

// ---- atan, atan2, asin and acos on the host: the first values in %a and sums of 3 000 values print as gcc 12 with glibc prints them (a sum hides a last-bit difference in one value: TestCrAtan checks correct rounding)
#include <stdio.h>
#include <math.h>
int main() {
  unsigned s = 777;
  double acc[4] = {0, 0, 0, 0};
  int shown = 0;
  for (int i = 0; i < 3000; i++) {
    s = s * 1103515245u + 12345u;
    double x = ((s >> 8) / 16777216.0 - 0.5) * 20;
    s = s * 1103515245u + 12345u;
    double y = ((s >> 8) / 16777216.0 - 0.5) * 20;
    double u = x / 10.0000001;
    double v[4] = {atan(x), atan2(y, x), asin(u), acos(u)};
    for (int k = 0; k < 4; k++) acc[k] += v[k];
    if (shown++ < 2) printf("%a %a %a %a\n", v[0], v[1], v[2], v[3]);
  }
  printf("%a %a %a %a\n", acc[0], acc[1], acc[2], acc[3]);
  return 0;
}
// MODE: run
// OUT: 0x1.381cbd87a8257p+0 0x1.03a6e6fdb5c0cp-1 0x1.1ab5b27143941p-2 0x1.4b7248a7f1ec8p+0
// OUT: 0x1.3c1a23df4735fp+0 -0x1.fb14ae87c0396p-1 0x1.29588254841bcp-2 0x1.47c994af21ca9p+0
// OUT: -0x1.9128359e30264p+6 0x1.3460d64fa3982p+5 -0x1.18ed7be19d4cap+4 0x1.279f26bf608d9p+12
