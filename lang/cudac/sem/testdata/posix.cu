// ---- uname, gettimeofday across sleep/usleep, anonymous mmap (outputs agree with g++ 12.2 on Linux x86-64)
#include <cstdio>
#include <cstring>
#include <sys/time.h>
#include <sys/utsname.h>
#include <sys/mman.h>
#include <unistd.h>
int main() {
  struct utsname u;
  if (uname(&u) != 0) return 1;
  printf("%s %s %d\n", u.sysname, u.machine, (int)strlen(u.release) > 0);
  struct timeval t0, t1;
  gettimeofday(&t0, NULL);
  sleep(2);
  usleep(1500);
  gettimeofday(&t1, NULL);
  double dt = (t1.tv_sec - t0.tv_sec) + (t1.tv_usec - t0.tv_usec) * 1e-6;
  printf("slept %s\n", dt >= 2.0015 && dt < 2.01 ? "2.0015 s" : "wrong");
  size_t n = 10000;
  int *p = (int *)mmap(NULL, n * sizeof(int), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return 1;
  long s = 0;
  for (size_t i = 0; i < n; i++) s += p[i];
  for (size_t i = 0; i < n; i++) p[i] = (int)i;
  for (size_t i = 0; i < n; i++) s += p[i];
  printf("%ld\n", s);
  munmap(p, n * sizeof(int));
  char host[64];
  printf("%d\n", gethostname(host, sizeof host));
  return 0;
}
// OUT: Linux x86_64 1
// OUT: slept 2.0015 s
// OUT: 49995000
// OUT: 0
// ---- the fixed uname values; clock() does not count a sleep
#include <cstdio>
#include <ctime>
#include <sys/utsname.h>
#include <unistd.h>
int main() {
  struct utsname u;
  uname(&u);
  printf("%s|%s|%s|%s|%s|%s|%zu\n", u.sysname, u.nodename, u.release, u.version, u.machine, u.domainname, sizeof u); // GPU: differs (the fixed uname and pid of the virtual machine)
  clock_t c0 = clock();
  sleep(1);
  clock_t c1 = clock();
  printf("%d %d\n", c1 - c0 < 1000, getpid());
  return 0;
}
// OUT: Linux|weft|6.1.0-weft|#1 SMP weft virtual machine|x86_64|(none)|390
// OUT: 1 4242
// ---- mmap and munmap misuse
#include <sys/mman.h>
int main() {
  char *p = (char *)mmap(0, 100, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  p[4095] = 1; // the mapping is whole pages
  munmap(p, 100);
  p[0] = 2; // ERROR C0404 "after it was freed"
  return 0;
}
// MODE: run
// ---- a file mapping is not modeled
#include <sys/mman.h>
int main() {
  void *q = mmap(0, 64, PROT_READ, MAP_PRIVATE, 3, 0); // ERROR C0309 col=13 "mmap of a file .fd 3. is not modeled"
  return q == MAP_FAILED;
}
// MODE: run
