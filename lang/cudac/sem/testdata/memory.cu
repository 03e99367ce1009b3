// ---- the host dereferences device memory
#include <stdio.h>
int main() {
  int *d;
  cudaMalloc(&d, 4 * sizeof(int)); // NOTE "the global memory was allocated here"
  d[0] = 1; // ERROR C0401 col=3 "illegal device memory access from the host: write of global memory"
  printf("not reached\n");
  return 0;
}
// ---- a kernel dereferences host memory
#include <stdio.h>
__global__ void k(int *p) { p[threadIdx.x] = 1; } // ERROR C0402 col=29 "illegal host memory access from the device: write of host memory \(thread 0 of block 0, kernel k\)"
int main() {
  int h[4]; // NOTE "the host memory was allocated here"
  k<<<1, 4>>>(h);
  cudaDeviceSynchronize();
  return 0;
}
// ---- cudaMemcpy moves values both ways without errors
#include <stdio.h>
__global__ void twice(float *p) { p[threadIdx.x] *= 2.0f; }
int main() {
  float h[3] = {1.5f, -2.25f, 3.0f}, *d;
  cudaMalloc(&d, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  twice<<<1, 3>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%g %g %g\n", h[0], h[1], h[2]);
  cudaFree(d);
  return 0;
}
// OUT: 3 -4.5 6
// ---- the copy direction must match the pointers
int main() {
  int h[2] = {1, 2}, *d;
  cudaMalloc(&d, sizeof(h));
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyHostToDevice); // ERROR C0607 col=3 "cudaMemcpyHostToDevice copies from global memory to host memory"
  return 0;
}
// ---- indexing past the dynamic shared memory is out of bounds
__global__ void k() {
  extern __shared__ float buf[];
  buf[threadIdx.x] = 1.0f; // ERROR C0403 col=3 "out-of-bounds write of 4 bytes at offset 32 of shared memory buf \(32 bytes\) \(thread 8 of block 0, kernel k\)"
}
int main() {
  k<<<1, 9, 8 * sizeof(float)>>>();
  cudaDeviceSynchronize();
  return 0;
}
// ---- use after free on the host
#include <stdlib.h>
int main() {
  int *p = (int *)malloc(8 * sizeof(int));
  p[0] = 1;
  free(p);
  return p[0]; // ERROR C0404 col=10 "use of host memory after it was freed"
}
// ---- double cudaFree
int main() {
  int *d;
  cudaMalloc(&d, 16);
  cudaFree(d);
  cudaFree(d); // ERROR C0406 col=3 "double cudaFree of global memory"
  return 0;
}
// ---- reading uninitialized device memory warns
#include <stdio.h>
__global__ void k(int *in, int *out) { out[0] = in[3]; } // WARN C0407 col=49 "read of uninitialized global memory"
int main() {
  int *in, *out, h;
  cudaMalloc(&in, 4 * sizeof(int));
  cudaMalloc(&out, sizeof(int));
  k<<<1, 1>>>(in, out);
  cudaMemcpy(&h, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("%d\n", h);
  return 0;
}
// OUT: 0
// ---- integer division by zero in a kernel
__global__ void k(int *p, int d) { p[threadIdx.x] = 10 / (d - (int)threadIdx.x); } // ERROR C0601 col=56 "integer division by zero \(thread 2 of block 0, kernel k\)"
int main() {
  int *p;
  cudaMalloc(&p, 4 * sizeof(int));
  k<<<1, 4>>>(p, 2);
  cudaDeviceSynchronize();
  return 0;
}
// ---- a failed assert in device code
#include <assert.h>
__global__ void k(int n) { assert(threadIdx.x < n); } // WARN C0602 col=28 "device assertion `threadIdx.x < n` failed \(thread 3 of block 0, kernel k\)"
int main() {
  k<<<1, 4>>>(3);
  cudaDeviceSynchronize();
  return 0;
}
// STDERR: testdata/memory.cu:90: void k(int): block: [0,0,0], thread: [3,0,0] Assertion `threadIdx.x < n` failed.
// ---- a device write to __constant__ memory
__constant__ int c[4];
__global__ void k() { c[0] = 1; } // ERROR C0408 col=23 "write to __constant__ memory c from the device"
int main() {
  k<<<1, 1>>>();
  cudaDeviceSynchronize();
  return 0;
}
// ---- local arrays are bounds-checked too
#include <stdio.h>
int main() {
  int a[4];
  for (int i = 0; i <= 4; i++) a[i] = i; // ERROR C0403 col=32 "out-of-bounds write of 4 bytes at offset 16 of host memory \(16 bytes\)"
  printf("%d\n", a[0]);
  return 0;
}
// ---- a null pointer dereference
int main() {
  int *p = 0;
  return *p; // ERROR C0405 col=10 "null pointer dereference"
}
// ---- a kernel reads device memory after cudaFree; the run ends there
#include <stdio.h>
__global__ void r(int *p, int *o) { o[0] = p[0]; } // ERROR C0404 col=44 "use of global memory after it was freed \(thread 0 of block 0, kernel r\)"
int main() {
  int *d, *o;
  cudaMalloc(&d, 4 * sizeof(int));
  cudaMalloc(&o, sizeof(int));
  cudaMemset(d, 0, 4 * sizeof(int));
  cudaFree(d);
  r<<<1, 1>>>(d, o);
  cudaDeviceSynchronize();
  printf("not reached\n");
  return 0;
}
// ---- a kernel writes past its cudaMalloc buffer
__global__ void k(int *p, int n) { p[n] = 1; } // ERROR C0403 col=36 "out-of-bounds write of 4 bytes at offset 16 of global memory \(16 bytes\) \(thread 0 of block 0, kernel k\)"
int main() {
  int *d;
  cudaMalloc(&d, 4 * sizeof(int));
  k<<<1, 1>>>(d, 4);
  cudaDeviceSynchronize();
  return 0;
}
// ---- uninitialized host arrays and malloc memory warn, and the run goes on
#include <stdio.h>
#include <stdlib.h>
int main() {
  int arr[3];
  int *h = (int *)malloc(8);
  printf("%d %d\n", arr[1], h[1]); // WARN C0407 col=21 "read of uninitialized host memory" // WARN C0407 col=29 "read of uninitialized host memory"
  free(h);
  return 0;
}
// OUT: 0 0
// ---- integer remainder by zero on the host
#include <stdio.h>
int main() {
  int z = 0, y = 5;
  printf("%d\n", y % z); // ERROR C0601 col=20 "integer division by zero"
  printf("not reached\n");
  return 0;
}
// ---- uninitialized scalar locals warn on the host and the device; assignment on any path initializes
#include <stdio.h>
__global__ void k(int *out, int n) {
  int acc;
  int v;
  if (threadIdx.x == 0) acc = 1;
  for (int i = 0; i < n; i++) {
    int t;
    if (i == 1) t = 5;
    v = t; // WARN C0407 col=9 "read of uninitialized variable t"
  }
  out[threadIdx.x] = acc + v; // WARN C0407 col=22 "read of uninitialized variable acc"
}
int main() {
  int x, y;
  y = 2;
  int z = x + y; // WARN C0407 col=11 "read of uninitialized variable x"
  int *d, h[2];
  cudaMalloc(&d, sizeof(h));
  k<<<1, 2>>>(d, 1);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%d %d %d\n", z, h[0], y);
  return 0;
}
// OUT: 2 1 2
// ---- a variable assigned before every read does not warn
#include <stdio.h>
int main() {
  int i, s;
  s = 0;
  for (i = 0; i < 4; i++) { int t; t = i * i; s += t; }
  printf("%d\n", s);
  return 0;
}
// OUT: 14
// ---- pointer arithmetic keeps provenance: a huge offset does not wrap into the object
#include <stdio.h>
int main() {
  int a[4] = {1, 2, 3, 4};
  int *p = a;
  p += (1LL << 30);
  p -= 5;
  printf("%d\n", *p); // ERROR C0403 col=18 "out-of-bounds read of 4 bytes at offset 2147483627 of host memory \(16 bytes\)"
  return 0;
}
// ---- subtracting pointers to different objects
#include <stdio.h>
int main() {
  int a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
  long same = &a[3] - a;
  long d = b - same - a; // ERROR C0410 col=21 "subtraction of pointers to different objects \(host memory and host memory\)"
  printf("%ld\n", d);
  return 0;
}
