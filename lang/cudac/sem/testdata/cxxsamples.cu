// ---- cxxsamples: placement new, a class template deriving from a class template, std::vector's member types, std::chrono::time_point<Clock> and using namespace std::chrono (output pinned against g++ 12)
// MODE: run
#include <cstdio>
#include <new>
#include <vector>
#include <chrono>
using namespace std::chrono;
struct Point {
  int x, y;
  Point(int a, int b) : x(a), y(b) {}
  int sum() const { return x + y; }
};
template <class T> class Box {
public:
  virtual ~Box() {}
  virtual T get() const = 0;
};
template <class T> class Cell : public Box<T> {
public:
  explicit Cell(T v) : v_(v) {}
  T get() const { return v_ * 2; }
private:
  T v_;
};
static double elapsed(std::chrono::time_point<std::chrono::steady_clock> a, time_point<steady_clock> b) {
  auto us = duration_cast<duration<double, microseconds::period>>(b - a);
  return us.count() >= 0 ? 1.0 : -1.0;
}
int main() {
  unsigned char raw[2 * sizeof(Point)];
  Point *p = new (raw) Point(3, 4);
  Point *q = new (raw + sizeof(Point)) Point(10, 20);
  printf("%d %d %d\n", p->sum(), q->sum(), (int)((unsigned char *)q - raw));
  int buf[4] = {7, 7, 7, 7};
  int *arr = new (buf) int[4];
  arr[2] = 1;
  printf("%d %d %d\n", buf[0], buf[2], (int)(arr == buf));
  Cell<int> c(21);
  Box<int> *b = &c;
  printf("%d\n", b->get());
  std::vector<int> v;
  for (int i = 1; i <= 4; i++) v.push_back(i * 3);
  std::vector<int>::size_type n = v.size();
  long s = 0;
  for (std::vector<int>::iterator it = v.begin(); it != v.end(); ++it) *it += 1;
  for (std::vector<int>::const_iterator it = v.begin(); it != v.end(); it++) s += *it;
  std::vector<int>::difference_type d = v.end() - v.begin();
  std::vector<double>::value_type half = 0.5;
  printf("%zu %ld %ld %.1f\n", n, s, (long)d, half);
  steady_clock::time_point t0 = steady_clock::now();
  std::chrono::steady_clock::time_point t1 = std::chrono::steady_clock::now();
  printf("%.1f\n", elapsed(t0, t1));
  return 0;
}
// OUT: 7 30 8
// OUT: 7 1 1
// OUT: 42
// OUT: 4 34 4 0.5
// OUT: 1.0
// ---- cxxsamples: placement new in device code: an object built in shared memory, its array member in a shared buffer, called through its base class
#include <cstdio>
#include <new>
template <class T> class Stack {
public:
  __device__ virtual ~Stack() {}
  __device__ virtual void push(T v) = 0;
  __device__ virtual T top() const = 0;
};
template <class T> class ArrayStack : public Stack<T> {
public:
  __device__ ArrayStack(T *storage) : data_(new (storage) T[8]), n_(0) {}
  __device__ void push(T v) { data_[n_++] = v; }
  __device__ T top() const { return data_[n_ - 1]; }
private:
  T *data_;
  int n_;
};
__global__ void useStack(int *out) {
  __shared__ unsigned char objMem[sizeof(ArrayStack<int>)];
  __shared__ int items[8];
  __shared__ Stack<int> *s;
  if (threadIdx.x == 0) {
    s = new (objMem) ArrayStack<int>(items);
    for (int i = 1; i <= 3; i++) s->push(i * 5);
  }
  __syncthreads();
  out[threadIdx.x] = s->top() + threadIdx.x;
}
int main() {
  int *out;
  cudaMallocManaged(&out, 4 * sizeof(int));
  useStack<<<1, 4>>>(out);
  cudaDeviceSynchronize();
  printf("%d %d %d %d\n", out[0], out[1], out[2], out[3]);
  return 0;
}
// OUT: 15 16 17 18
