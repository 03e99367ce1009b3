// auto deduction for references bound to arrays (C++ [dcl.type.auto.deduct]
// by way of [temp.deduct.call]p2-3): auto&, const auto& and auto&& bound to
// an array lvalue deduce the array type itself; auto by value decays to a
// pointer to the first element. Deducing the pointer for a reference read
// the array's contents as a pointer (C0405).
// ---- host: references deduced by auto to array members, arrays through pointers, rows of 2-D arrays and globals; auto by value decays (outputs checked against g++)
#include <cstdio>
struct S { float a[4]; int m[2][3]; };
int g[3] = {5, 6, 7};
int main() {
  S s = {{1, 2, 3, 4}, {{1, 2, 3}, {4, 5, 6}}};
  S *ps = &s;
  const auto &a = s.a;
  auto &b = ps->a;
  b[1] = 20;
  auto &&c = s.a;
  auto d = s.a;
  d[0] = 9;
  auto &m = s.m;
  auto &row = s.m[1];
  const auto &gg = g;
  int sum = 0;
  for (auto &r : s.m)
    for (auto x : r) sum += x;
  for (const auto &r : m) sum += (int)(sizeof(r) / sizeof(r[0]));
  row[2] = 60;
  float *p = b;
  float (*q)[4] = &b;
  printf("%.1f %.1f %.1f %.1f %d %d\n", a[2], a[1], c[3], s.a[0], (int)sizeof(a), (int)sizeof(c));
  printf("%d %d %d %d %d %d\n", (int)sizeof(d), (int)sizeof(m), (int)sizeof(row), m[1][2], gg[2], (int)sizeof(gg));
  printf("%d %.1f %.1f\n", sum, p[3], (*q)[1]);
  return 0;
}
// OUT: 3.0 20.0 4.0 9.0 16 16
// OUT: 8 24 12 60 7 12
// OUT: 27 4.0 20.0
// ---- device: the same deduction in a kernel, for a parameter's member array and a __shared__ array
#include <cstdio>
struct S { float a[4]; };
__global__ void k(S s, float *out) {
  __shared__ int sh[2][4];
  const auto &a = s.a;
  auto &b = s.a;
  b[1] = 7;
  auto &&c = s.a;
  auto d = s.a;
  auto &row = sh[threadIdx.x];
  for (int i = 0; i < 4; i++) row[i] = (int)threadIdx.x * 10 + i;
  __syncthreads();
  auto &all = sh;
  out[threadIdx.x] = a[2] + c[1] + all[1 - threadIdx.x][3];
  if (threadIdx.x == 0)
    printf("dev %.1f %.1f %d %d %d %d\n", a[2], s.a[1], (int)sizeof(c), (int)sizeof(d), (int)sizeof(row), (int)sizeof(all));
}
int main() {
  S s = {{1, 2, 3, 4}};
  float *out;
  cudaMallocManaged(&out, 2 * sizeof(float));
  k<<<1, 2>>>(s, out);
  cudaDeviceSynchronize();
  printf("%.1f %.1f %.1f\n", out[0], out[1], s.a[1]);
  cudaFree(out);
  return 0;
}
// OUT: dev 3.0 7.0 16 8 16 32
// OUT: 23.0 13.0 2.0
