// Texture and surface objects (lib_texobj.go; CUDA C++ Programming Guide,
// "Texture and Surface Memory" and the appendix "Texture Fetching"). The
// expected values are worked out from the appendix's formulas: point
// sampling takes floor(x), linear filtering x - 0.5 and the weight in
// 9-bit fixed point (1 + 1/3 gives 213/256), wrap takes frac(x) and mirror
// reflects before normalized coordinates are scaled, the border reads 0.
// ---- tex1Dfetch over linear memory (0 outside it), tex2D over an array: point and linear sampling, clamp, wrap, mirror (of the texel index, as an H100 does), border, normalized coordinates
#include <cstdio>
#include <cuda_runtime.h>
__global__ void fetch1D(cudaTextureObject_t t, cudaTextureObject_t ti, float *out, int4 *iout) {
  out[0] = tex1Dfetch<float>(t, -1);
  out[1] = tex1Dfetch<float>(t, 0);
  out[2] = tex1Dfetch<float>(t, 3);
  out[3] = tex1Dfetch<float>(t, 4);
  iout[0] = tex1Dfetch<int4>(ti, 1);
}
__global__ void fetch2D(cudaTextureObject_t pt, cudaTextureObject_t lin, cudaTextureObject_t wrap, cudaTextureObject_t mirror, cudaTextureObject_t border, float *out) {
  out[0] = tex2D<float>(pt, 1.5f, 0.5f);
  out[1] = tex2D<float>(pt, 2.9f, 1.2f);
  out[2] = tex2D<float>(pt, -3.0f, 0.5f);
  out[3] = tex2D<float>(lin, 1.0f, 0.5f);
  out[4] = tex2D<float>(lin, 1.0f + 1.0f / 3, 0.5f);
  out[5] = tex2D<float>(lin, 1.0f, 1.0f);
  out[6] = tex2D<float>(wrap, 1.125f, 0.25f);
  out[7] = tex2D<float>(mirror, 1.25f, 0.25f);
  out[8] = tex2D<float>(border, 10.0f, 0.5f);
  out[9] = tex2D<float>(border, 0.5f, 1.5f);
}
int main() {
  float h[4] = {1, 2, 3, 4};
  float *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeLinear;
  rd.res.linear.devPtr = d;
  rd.res.linear.desc = cudaCreateChannelDesc<float>();
  rd.res.linear.sizeInBytes = sizeof h;
  cudaTextureDesc td = {};
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t1;
  cudaCreateTextureObject(&t1, &rd, &td, NULL);
  int4 hi[2] = {{1, 2, 3, 4}, {-5, 6, -7, 8}};
  int4 *di;
  cudaMalloc(&di, sizeof hi);
  cudaMemcpy(di, hi, sizeof hi, cudaMemcpyHostToDevice);
  rd.res.linear.devPtr = di;
  rd.res.linear.desc = cudaCreateChannelDesc<int4>();
  rd.res.linear.sizeInBytes = sizeof hi;
  cudaTextureObject_t t2;
  cudaCreateTextureObject(&t2, &rd, &td, NULL);
  float *out;
  int4 *iout;
  cudaMallocManaged(&out, 16 * sizeof(float));
  cudaMallocManaged(&iout, sizeof(int4));
  fetch1D<<<1, 1>>>(t1, t2, out, iout);
  cudaDeviceSynchronize();
  printf("%g %g %g %g | %d %d %d %d\n", out[0], out[1], out[2], out[3], iout->x, iout->y, iout->z, iout->w);

  // a 4 x 2 array: row 0 is 0 1 2 3, row 1 is 10 11 12 13
  float img[8] = {0, 1, 2, 3, 10, 11, 12, 13};
  cudaChannelFormatDesc cd = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaArray_t arr;
  cudaMallocArray(&arr, &cd, 4, 2);
  cudaMemcpy2DToArray(arr, 0, 0, img, 4 * sizeof(float), 4 * sizeof(float), 2, cudaMemcpyHostToDevice);
  cudaResourceDesc ra = {};
  ra.resType = cudaResourceTypeArray;
  ra.res.array.array = arr;
  cudaTextureObject_t tex[5];
  for (int i = 0; i < 5; i++) {
    cudaTextureDesc t = {};
    t.addressMode[0] = t.addressMode[1] = i == 2 ? cudaAddressModeWrap : i == 3 ? cudaAddressModeMirror : i == 4 ? cudaAddressModeBorder : cudaAddressModeClamp;
    t.filterMode = i == 1 ? cudaFilterModeLinear : cudaFilterModePoint;
    t.normalizedCoords = i == 2 || i == 3;
    cudaCreateTextureObject(&tex[i], &ra, &t, NULL);
  }
  fetch2D<<<1, 1>>>(tex[0], tex[1], tex[2], tex[3], tex[4], out);
  cudaDeviceSynchronize();
  for (int i = 0; i < 10; i++) printf("%.8g ", out[i]);
  printf("\n");
  return 0;
}
// OUT: 0 1 4 0 | -5 6 -7 8
// OUT: 1 12 0 0.5 0.83203125 5.5 0 2 0 10 
// ---- uchar4 in the normalized-float read mode, linear filtering of uchar4 in 16-bit steps (0.500008 for the midpoint of 255 and 0, as an H100 returned), linear filtering of integers rejected at creation (cudaErrorInvalidFilterSetting), a surface read (Zero mode outside) and written by a kernel, a layered array filled by cudaMemcpy3D
#include <cstdio>
#include <cuda_runtime.h>
__global__ void norm(cudaTextureObject_t t, float4 *out) {
  out[0] = tex2D<float4>(t, 0.5f, 0.5f);
  out[1] = tex2D<float4>(t, 1.0f, 0.5f);
}
__global__ void flip(cudaSurfaceObject_t s, int w) {
  int x = threadIdx.x;
  float v = surf2Dread<float>(s, x * 4, 0);
  float z;
  surf2Dread(&z, s, (x + 100) * 4, 0, cudaBoundaryModeZero);
  surf2Dwrite(v * 2 + z, s, (w - 1 - x) * 4, 1);
}
__global__ void layers(cudaTextureObject_t t, float *out) {
  out[0] = tex2DLayered<float>(t, 0.5f, 0.5f, 0);
  out[1] = tex2DLayered<float>(t, 0.5f, 0.5f, 1);
  out[2] = tex2DLayered<float>(t, 1.5f, 1.5f, 7);
}
int main() {
  uchar4 px[2] = {{255, 51, 0, 255}, {0, 102, 255, 0}};
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t a;
  cudaMallocArray(&a, &cd, 2, 1);
  cudaMemcpyToArray(a, 0, 0, px, sizeof px, cudaMemcpyHostToDevice);
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaTextureDesc td = {};
  td.readMode = cudaReadModeNormalizedFloat;
  td.filterMode = cudaFilterModeLinear;
  cudaTextureObject_t t;
  printf("create %d\n", (int)cudaCreateTextureObject(&t, &rd, &td, NULL));
  float4 *o4;
  cudaMallocManaged(&o4, 2 * sizeof(float4));
  norm<<<1, 1>>>(t, o4);
  cudaDeviceSynchronize();
  printf("%g %g %g %g | %g %g %g %g\n", o4[0].x, o4[0].y, o4[0].z, o4[0].w, o4[1].x, o4[1].y, o4[1].z, o4[1].w);
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t bad;
  printf("linear filter of integers: %d\n", (int)cudaCreateTextureObject(&bad, &rd, &td, NULL));

  // a surface: row 0 read, row 1 written reversed
  float f[8] = {1, 2, 3, 4, 0, 0, 0, 0};
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t sa;
  cudaMallocArray(&sa, &fd, 4, 2, cudaArraySurfaceLoadStore);
  cudaMemcpy2DToArray(sa, 0, 0, f, 16, 16, 2, cudaMemcpyHostToDevice);
  rd.res.array.array = sa;
  cudaSurfaceObject_t s;
  cudaCreateSurfaceObject(&s, &rd);
  flip<<<1, 4>>>(s, 4);
  cudaMemcpy2DFromArray(f, 16, sa, 0, 0, 16, 2, cudaMemcpyDeviceToHost);
  printf("%g %g %g %g %g %g %g %g\n", f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]);

  // a layered array of 2 x 2 texels in 3 layers, filled by cudaMemcpy3D
  float l[12] = {0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23};
  cudaArray_t la;
  cudaMalloc3DArray(&la, &fd, make_cudaExtent(2, 2, 3), cudaArrayLayered);
  cudaMemcpy3DParms p = {0};
  p.srcPtr = make_cudaPitchedPtr(l, 2 * sizeof(float), 2, 2);
  p.dstArray = la;
  p.extent = make_cudaExtent(2, 2, 3);
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&p);
  rd.res.array.array = la;
  td.filterMode = cudaFilterModePoint;
  cudaTextureObject_t lt;
  cudaCreateTextureObject(&lt, &rd, &td, NULL);
  float *out;
  cudaMallocManaged(&out, 3 * sizeof(float));
  layers<<<1, 1>>>(lt, out);
  cudaDeviceSynchronize();
  printf("%g %g %g\n", out[0], out[1], out[2]);
  cudaDestroyTextureObject(lt);
  cudaFreeArray(la);
  return 0;
}
// OUT: create 0
// OUT: 1 0.2 0 1 | 0.500008 0.300008 0.500008 0.500008
// OUT: linear filter of integers: 26
// OUT: 1 2 3 4 8 6 4 2
// OUT: 0 10 23
// ---- a fetch needs its result type, and a texel type; it is a device function
#include <cuda_runtime.h>
__global__ void k(cudaTextureObject_t t, float *o) {
  o[0] = tex2D(t, 0.5f, 0.5f); // ERROR C0302 col=10 "tex2D needs its result type, tex2D<T>\(...\)"
  o[1] = tex2D<double2>(t, 0.5f, 0.5f); // ERROR C0302 col=10 "no tex2D for double2: texels are 8-, 16- or 32-bit"
}
int main() {
  cudaTextureObject_t t = 0;
  float v = tex2D<float>(t, 0.5f, 0.5f); // ERROR C0307 col=13 "tex2D is a device function"
  return (int)v;
}
// ---- two threads writing one texel of a surface race; a fetch from a destroyed texture object is C0402
#include <cuda_runtime.h>
__global__ void w(cudaSurfaceObject_t s) {
  surf2Dwrite(1.0f, s, 0, 0); // ERROR C0501 col=3 "data race on global memory CUDA array \(byte 0\): write by thread 1 of block 0 \(kernel w\) conflicts with an unordered write by thread 0" // NOTE "the other access"
}
__global__ void gone(cudaTextureObject_t t, float *o) {
  o[0] = tex2D<float>(t, 0.5f, 0.5f); // ERROR C0402 col=10 "fetch from a destroyed texture or surface object 2"
}
int main() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t sa;
  cudaMallocArray(&sa, &fd, 4, 2, cudaArraySurfaceLoadStore);
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = sa;
  cudaSurfaceObject_t s;
  cudaCreateSurfaceObject(&s, &rd);
  w<<<1, 2>>>(s);
  cudaDeviceSynchronize();
  cudaTextureDesc td = {};
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &rd, &td, NULL);
  cudaDestroyTextureObject(t);
  float *o;
  cudaMalloc(&o, 4);
  gone<<<1, 1>>>(t, o);
  cudaDeviceSynchronize();
  return 0;
}
// ---- a surface write outside the array traps (cudaBoundaryModeTrap, the default)
#include <cuda_runtime.h>
__global__ void trap(cudaSurfaceObject_t s) {
  surf2Dwrite(1.0f, s, 16, 1); // ERROR C0403 col=3 "surface write at \(16, 1, 0\) outside the 16x2x1 array \(x in bytes"
}
int main() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t sa;
  cudaMallocArray(&sa, &fd, 4, 2, cudaArraySurfaceLoadStore);
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = sa;
  cudaSurfaceObject_t s;
  cudaCreateSurfaceObject(&s, &rd);
  trap<<<1, 1>>>(s);
  cudaDeviceSynchronize();
  return 0;
}
