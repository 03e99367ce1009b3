// The C++ that CUDA code commonly uses: namespaces, using, constexpr,
// references, auto, static_cast/reinterpret_cast, structs with
// constructors and member functions, templates, new and delete.
#include <cstdio>

namespace geom {
constexpr int kDim = 3;
struct Vec3 {
  float x, y, z;
  __host__ __device__ Vec3() : x(0), y(0), z(0) {}
  __host__ __device__ Vec3(float a, float b, float c) : x(a), y(b), z(c) {}
  __host__ __device__ float dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  __host__ __device__ void scale(float s) { x *= s; y *= s; z *= s; }
};
} // namespace geom

using geom::Vec3;
using real = float;

template <typename T>
__host__ __device__ void swapValues(T &a, T &b) {
  T t = a;
  a = b;
  b = t;
}

__global__ void normsKernel(const Vec3 *__restrict__ v, real *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Vec3 p = v[i];
  const Vec3 &q = v[(i + 1) % n];
  p.scale(2.0f);
  auto d = p.dot(q);
  real lo = static_cast<real>(i), hi = d;
  if (lo > hi) swapValues(lo, hi);
  out[2 * i] = lo;
  out[2 * i + 1] = hi;
}

int main() {
  const int n = 4;
  Vec3 *h = new Vec3[n];
  for (int i = 0; i < n; i++) h[i] = Vec3(i, i + 1, geom::kDim - i);
  Vec3 *d;
  real *dout;
  cudaMalloc(reinterpret_cast<void **>(&d), n * sizeof(Vec3));
  cudaMalloc(&dout, 2 * n * sizeof(real));
  cudaMemcpy(d, h, n * sizeof(Vec3), cudaMemcpyHostToDevice);
  normsKernel<<<1, 32>>>(d, dout, n);
  real *out = new real[2 * n];
  cudaMemcpy(out, dout, 2 * n * sizeof(real), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) printf("%d: min %g max %g\n", i, out[2 * i], out[2 * i + 1]);
  int a = 1, b = 2;
  swapValues(a, b);
  Vec3 u;
  u.scale(5);
  printf("swapped: %d %d, default Vec3: (%g, %g, %g), dot = %g\n", a, b, u.x, u.y, u.z, h[1].dot(h[2]));
  unsigned bitsOfOne = *reinterpret_cast<unsigned *>(&out[0]);
  printf("bits of out[0]: 0x%08x\n", bitsOfOne);
  delete[] h;
  delete[] out;
  return 0;
}
