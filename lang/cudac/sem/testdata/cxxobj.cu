// ---- function pointers: calls through (*f)(...) and f(...), arrays of them in device memory and on the host, passed as arguments
#include <cstdio>
__device__ int add1(int x) { return x + 1; }
__device__ int dbl(int x) { return x * 2; }
typedef int (*op_t)(int);
__device__ op_t ops[2] = {add1, dbl};
__global__ void k(int *d) {
  int (*f)(int) = threadIdx.x ? dbl : add1;
  d[threadIdx.x] = (*f)(10) + ops[threadIdx.x](1) + (**f)(0);
}
int apply(int (*g)(int), int v) { return (*g)(v) + g(v); }
int triple(int x) { return x * 3; }
int square(int x) { return x * x; }
int main() {
  int *d, h[2];
  cudaMalloc(&d, sizeof h);
  k<<<1, 2>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  int (*tab[2])(int) = {triple, &square};
  printf("%d %d %d %d %d\n", h[0], h[1], apply(triple, 4), (*tab[1])(5), tab[0](2));
  return 0;
}
// OUT: 14 22 24 25 6
// ---- a call through a null function pointer is reported where it happens
#include <cstdio>
__device__ float half_of(float v) { return v / 2; }
__global__ void k(float *d, int pick) {
  float (*f)(float) = 0;
  if (pick) f = half_of;
  d[threadIdx.x] = (*f)(d[threadIdx.x]); // ERROR C0405 col=24 "call through an invalid function pointer 0x0"
}
int main() {
  float *d;
  cudaMalloc(&d, 4 * sizeof(float));
  cudaMemset(d, 0, 4 * sizeof(float));
  k<<<1, 4>>>(d, 0);
  cudaDeviceSynchronize();
  return 0;
}
// ---- virtual functions: pure virtual, override and final, dispatch through pointers, references and arrays of base pointers on the device and the host, Base::f() without dispatch, new with constructor arguments, virtual destructors run by delete with the bases after
#include <cstdio>
int destroyed = 0;
class Shape {
 public:
  float w;
  __host__ __device__ Shape(float a) : w(a) {}
  __host__ __device__ virtual float area() const = 0;
  __host__ __device__ virtual const char *name() const { return "shape"; }
  __host__ __device__ float twice() const { return 2 * area(); }
  virtual ~Shape() { destroyed += 1; }
};
class Sq : public Shape {
 public:
  __host__ __device__ Sq(float a) : Shape(a) {}
  __host__ __device__ float area() const override { return w * w; }
  __host__ __device__ const char *name() const override { return "square"; }
  ~Sq() { destroyed += 10; }
};
class Circle final : public Shape {
 public:
  __host__ __device__ explicit Circle(float r) : Shape(r) {}
  __host__ __device__ float area() const final { return 3 * w * w; }
};
struct Cube : Sq {
  __host__ __device__ Cube(float a) : Sq(a) {}
  __host__ __device__ float area() const override { return 6 * Sq::area(); }
};
__host__ __device__ float total(Shape *const *s, int n) {
  float t = 0;
  for (int i = 0; i < n; i++) t += s[i]->area();
  return t;
}
__global__ void k(float *out) {
  Sq s(2);
  Circle c(1);
  Cube q(1);
  Shape *all[3] = {&s, &c, &q};
  const Shape &r = c;
  out[threadIdx.x] = total(all, 3) + r.twice() * threadIdx.x;
}
int main() {
  float *d, h[2];
  cudaMalloc(&d, sizeof h);
  k<<<1, 2>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  Shape *p = new Cube(2);
  Shape *q = new Circle(2);
  printf("%g %g %g %s %s %zu\n", h[0], h[1], p->area(), p->name(), q->name(), sizeof(Sq));
  delete p;
  delete q;
  printf("%d\n", destroyed);
  return 0;
}
// OUT: 13 19 24 square shape 16
// OUT: 12
// ---- an abstract class cannot be instantiated; a virtual call on memory that holds no constructed object faults at the call
#include <cstdio>
#include <cstdlib>
struct A {
  virtual int f() = 0;
  virtual int g() { return f() + 1; }
};
struct B : A {
  int f() override { return 41; }
};
int main() {
  B b;
  A *p = (A *)calloc(1, sizeof(B));
  printf("%d\n", b.g());
  printf("%d\n", p->g()); // ERROR C0405 col=22 "call through an invalid function pointer 0x0"
  return 0;
}
// OUT: 42
// ---- creating an object of an abstract class is a static error
struct A {
  virtual int f() = 0;
};
struct B : A {};
int main() {
  A *q = new B; // ERROR C0302 col=10 "abstract class struct B \(pure virtual f\)"
  B b; // ERROR C0302 col=5 "abstract class struct B"
  return 0;
}
