// Our own helper header in the style of CUDA samples' Common/ headers
// (issue 15 item 2): an abstract timer interface with a virtual
// implementation, a class template for errors that derives from its
// parameter and throws, functions that need unmodeled library classes
// (file streams) and are never called, and macros with __FILE__/__LINE__.
#ifndef SAMPLE_HELPERS_H
#define SAMPLE_HELPERS_H
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <strings.h>
#include <sys/time.h>

template <class Base>
class Failure : public Base {
 public:
  static void raise(const char *file, const int line, const char *what = "-");
  virtual ~Failure() throw();

 private:
  explicit Failure(const std::string &s);
};
template <class Base>
void Failure<Base>::raise(const char *file, const int line, const char *what) {
  std::stringstream s;
  s << file << ":" << line << ": " << what;
  throw Failure(s.str());
}
template <class Base>
Failure<Base>::Failure(const std::string &s) : Base(s) {}
template <class Base>
Failure<Base>::~Failure() throw() {}

// never called: needs std::ifstream, which is not modeled
inline bool readLines(const char *path, std::string &out) {
  std::ifstream in(path);
  if (!in.good()) return false;
  std::getline(in, out);
  return true;
}

class Timer {
 public:
  Timer() {}
  virtual ~Timer() {}
  virtual void start() = 0;
  virtual void stop() = 0;
  virtual float elapsedMs() = 0;
};

class WallTimer : public Timer {
 public:
  WallTimer() : running(false), total(0) {}
  ~WallTimer() {}
  inline void start();
  inline void stop();
  inline float elapsedMs() { return total; }

 private:
  bool running;
  float total;
  struct timeval began;
};
inline void WallTimer::start() {
  gettimeofday(&began, NULL);
  running = true;
}
inline void WallTimer::stop() {
  struct timeval now;
  gettimeofday(&now, NULL);
  total += (now.tv_sec - began.tv_sec) * 1000.0f + (now.tv_usec - began.tv_usec) / 1000.0f;
  running = false;
}

inline bool makeTimer(Timer **t) {
  *t = (Timer *)new WallTimer();
  return *t != NULL;
}
inline bool freeTimer(Timer **t) {
  if (*t) {
    delete *t;
    *t = NULL;
  }
  return true;
}

inline int flagIndex(int argc, const char **argv, const char *flag) {
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    while (*a == '-') a++;
    if (!strncasecmp(a, flag, strlen(flag))) return i;
  }
  return -1;
}

#define CHECK(call)                                                             \
  do {                                                                          \
    cudaError_t e_ = (call);                                                    \
    if (e_ != cudaSuccess) {                                                    \
      fprintf(stderr, "%s:%d: CUDA error %d\n", __FILE__, __LINE__, (int)e_); \
      exit(EXIT_FAILURE);                                                       \
    }                                                                           \
  } while (0)
#endif
