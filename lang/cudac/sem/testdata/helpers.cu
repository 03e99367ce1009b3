// ---- a helper header's overloads beside the built-ins (as NVIDIA's helper_math.h): make_<vector> of other arities, operators on vector_types.h types, fminf of vectors beside fminf of floats
#include <cstdio>
#include <cmath>
inline __host__ __device__ float2 make_float2(float s) { return make_float2(s, s); }
inline __host__ __device__ float2 operator*(float2 a, float s) { return make_float2(a.x * s, a.y * s); }
inline __host__ __device__ void operator+=(float2 &a, float2 b) { a.x += b.x; a.y += b.y; }
inline __host__ __device__ float2 operator-(float2 &a) { return make_float2(-a.x, -a.y); }
inline __host__ __device__ float2 fminf(float2 a, float2 b) { return make_float2(fminf(a.x, b.x), fminf(a.y, b.y)); }
inline __host__ __device__ float dot(float2 a, float2 b) { return a.x * b.x + a.y * b.y; }
__global__ void k(float2 *o) {
  float2 v = make_float2(1.0f, -2.0f);
  v += make_float2(0.5f) * 2.0f;
  o[0] = fminf(-v, make_float2(0.0f));
  o[1] = make_float2(dot(v, v), fminf(3.0f, 4.0f));
}
int main() {
  float2 *d, h[2];
  cudaMalloc(&d, sizeof h);
  k<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%g %g %g %g\n", h[0].x, h[0].y, h[1].x, h[1].y);
  return 0;
}
// OUT: -2 0 5 3
// ---- the built-in make_int2 stays a candidate beside the program's make_int2(int); a call no overload takes is an error
inline __host__ __device__ int2 make_int2(int s) { return make_int2(s, s); }
int main() {
  int2 a = make_int2(3), b = make_int2(1, 2);
  int2 c = make_int2(1, 2, 3); // ERROR C0304 col=12 "int2 takes 2 arguments, 3 given"
  return a.x + b.y + c.x;
}
// ---- "extern T a[];" then "T a[] = {...}" in one file: the definition's initializer sizes the array (NVIDIA's SobolQRNG pattern)
#include <cstdio>
struct prim { unsigned dim, deg, a; unsigned m[4]; };
extern const struct prim prims[];
const struct prim prims[] = {
  {1, 0, 0, {}},
  {2, 1, 0, {1}},
  {3, 2, 1, {1, 3}},
};
int main() { printf("%u %u %d\n", prims[2].m[1], prims[1].deg, (int)(sizeof prims / sizeof prims[0])); return 0; }
// OUT: 3 1 3
// ---- frexp, ldexp, modf and their float forms on the host and in device code (outputs as g++ 12.2 prints them)
#include <cstdio>
#include <cmath>
__global__ void k(float *o) {
  int e;
  float f = frexpf(48.0f, &e);
  float ip;
  float fr = modff(-3.75f, &ip);
  o[0] = f; o[1] = e; o[2] = ldexpf(0.75f, 5); o[3] = fr; o[4] = ip;
}
int main() {
  int e;
  double ip, f = frexp(-10.0, &e), fr = modf(2.5, &ip);
  int e0 = 7;
  double z = frexp(0.0, &e0);
  printf("%g %d %g %g %g %g %d\n", f, e, ldexp(1.5, -3), fr, ip, z, e0);
  float *d, h[5];
  cudaMalloc(&d, sizeof h);
  k<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%g %g %g %g %g\n", h[0], h[1], h[2], h[3], h[4]);
  return 0;
}
// OUT: -0.625 4 0.1875 0.5 2 0 0
// OUT: 0.75 6 24 -0.75 -3
