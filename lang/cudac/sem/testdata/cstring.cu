// ---- strtok, strtok_r, strspn, strcspn, strpbrk, strerror, gmtime, strftime, asctime, mktime, difftime (outputs from g++ 12.2 with TZ=UTC)
#include <cstdio>
#include <cstring>
#include <ctime>
int main() {
  char line[] = "  alpha, beta,,gamma ;delta";
  for (char *tok = strtok(line, " ,;"); tok; tok = strtok(NULL, " ,;")) printf("[%s]", tok);
  printf("\n");
  char kv[] = "a=1&b=22&c=333";
  char *save = NULL;
  for (char *p = strtok_r(kv, "&", &save); p; p = strtok_r(NULL, "&", &save)) {
    char *inner = NULL;
    char *k = strtok_r(p, "=", &inner);
    char *v = strtok_r(NULL, "=", &inner);
    printf("%s->%s ", k, v);
  }
  printf("\n");
  printf("%zu %zu %s\n", strspn("123abc", "0123456789"), strcspn("hello world", " "), strpbrk("key: value", ":="));
  printf("%s | %s\n", strerror(2), strerror(22));
  time_t t = 951782400 + 3723; // 2000-02-29 01:02:03 UTC
  struct tm *g = gmtime(&t);
  printf("%d-%02d-%02d %02d:%02d:%02d wday %d yday %d\n", g->tm_year + 1900, g->tm_mon + 1, g->tm_mday, g->tm_hour, g->tm_min, g->tm_sec, g->tm_wday, g->tm_yday);
  char buf[64];
  size_t n = strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %a %b %j %%", g);
  printf("%zu %s\n", n, buf);
  printf("%s", asctime(g));
  struct tm x = *g;
  x.tm_mday += 1; // normalizes to March 1
  time_t u = mktime(&x);
  printf("%ld %d %d %.0f\n", (long)u, x.tm_mon, x.tm_mday, difftime(u, t));
  return 0;
}
// OUT: [alpha][beta][gamma][delta]
// OUT: a->1 b->22 c->333 
// OUT: 3 5 : value
// OUT: No such file or directory | Invalid argument
// OUT: 2000-02-29 01:02:03 wday 2 yday 59
// OUT: 33 2000-02-29 01:02:03 Tue Feb 060 %
// OUT: Tue Feb 29 01:02:03 2000
// OUT: 951872523 2 1 86400
// ---- time() is the wall clock's seconds from the epoch the run starts at
#include <cstdio>
#include <ctime>
#include <unistd.h>
int main() {
  time_t t0;
  time(&t0);
  sleep(65);
  time_t t1 = time(NULL);
  char buf[32];
  strftime(buf, sizeof buf, "%F %T", localtime(&t1));
  printf("%ld %ld %s\n", (long)t0, (long)t1, buf); // GPU: differs (the virtual clock starts at the epoch)
  return 0;
}
// OUT: 0 65 1970-01-01 00:01:05
// ---- drand48, lrand48, mrand48, srand48 and rand_r give glibc's sequences (outputs from g++ 12.2)
#include <cstdio>
#include <cstdlib>
int main() {
  double a = drand48();
  long b = lrand48();
  long c = mrand48();
  printf("%.17g %ld %ld\n", a, b, c);
  srand48(2026);
  for (int i = 0; i < 3; i++) {
    double x = drand48();
    printf("%.17g ", x);
  }
  long l = lrand48(), mm = mrand48();
  printf("%ld %ld\n", l, mm);
  unsigned seed = 7;
  for (int i = 0; i < 4; i++) {
    int r = rand_r(&seed);
    printf("%d ", r);
  }
  printf("%u\n", seed);
  return 0;
}
// OUT: 3.907985046680551e-14 2116118 178803790
// OUT: 0.4163053925885869 0.25018253815093772 0.18708136844555767 33527254 -1537897373
// OUT: 1187592820 153898277 1377876785 706688787 3809678875
