// ---- <chrono> clocks, durations, duration_cast (outputs agree with g++ 12.2)
#include <chrono>
#include <cstdio>
#include <iostream>
#include <unistd.h>
namespace chr = std::chrono;
int main() {
  auto t0 = std::chrono::high_resolution_clock::now();
  usleep(2500);
  auto t1 = std::chrono::high_resolution_clock::now();
  long us = std::chrono::duration_cast<std::chrono::microseconds>(t1 - t0).count();
  double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  std::chrono::duration<double> sec = t1 - t0;
  chr::milliseconds whole = chr::duration_cast<chr::milliseconds>(t1 - t0);
  printf("%d %d %d %ld\n", us >= 2500, ms >= 2.5, sec.count() >= 0.0025, whole.count() >= 2);
  std::chrono::seconds s(90);
  std::chrono::minutes m = std::chrono::duration_cast<std::chrono::minutes>(s);
  std::chrono::milliseconds msx = s;
  auto sum = msx + std::chrono::milliseconds(250);
  std::cout << m.count() << " " << msx.count() << " " << sum.count() << " " << (sum > msx) << std::endl;
  std::chrono::duration<float, std::ratio<60> > fm = s;
  printf("%.2f\n", fm.count());
  std::chrono::steady_clock::time_point a = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point b = std::chrono::steady_clock::now();
  printf("%d\n", (b - a).count() >= 0);
  return 0;
}
// OUT: 1 1 1 1
// OUT: 1 90000 90250 1
// OUT: 1.50
// OUT: 1
// ---- the clocks read the deterministic wall clock: a sleep is exact
#include <chrono>
#include <cstdio>
#include <unistd.h>
int main() {
  using namespace std;
  auto t0 = chrono::steady_clock::now();
  sleep(3); // GPU: differs (a real sleep overshoots by a few ms; the semantics's clock is exact)
  auto t1 = chrono::steady_clock::now();
  printf("%ld s, %ld ms\n", chrono::duration_cast<chrono::seconds>(t1 - t0).count(),
         chrono::duration_cast<chrono::milliseconds>(t1 - t0).count());
  return 0;
}
// OUT: 3 s, 3000 ms
// ---- what <chrono> does not model, and C++'s own errors
#include <chrono>
int main() {
  std::chrono::milliseconds ms(1500);
  std::chrono::seconds s = ms; // ERROR C0302 col=28 "implicit conversion from .* truncates"
  auto mixed = ms + s; // ERROR C0309 col=19 "operator \+ on"
  auto bad = ms * 2; // ERROR C0309 col=17 "operator \* on"
  auto e = std::chrono::steady_clock::now();
  e.foo(); // ERROR C0309 col=5 "foo is not modeled"
  std::chrono::duration<short> d; // ERROR C0309 col=3 "a duration of short is not modeled"
  return 0;
}
