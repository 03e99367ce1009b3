#include <chrono>
#include <cstdio>
#include <unistd.h>
int main() {
  using namespace std;
  auto t0 = chrono::steady_clock::now();
  sleep(3);
  auto t1 = chrono::steady_clock::now();
  printf("%ld s, %ld ms\n", chrono::duration_cast<chrono::seconds>(t1 - t0).count(),
         chrono::duration_cast<chrono::milliseconds>(t1 - t0).count());
  return 0;
}
// OUT: 3 s, 3000 ms
