// Inclusive scan of one block (Hillis-Steele) with two shared buffers: each
// step reads one buffer and writes the other, so one barrier per step suffices.
#include <cstdio>
#define N 256

__global__ void scanHillisSteele(const int *in, int *out) {
  __shared__ int buf[2][N];
  int tid = threadIdx.x;
  int pout = 0, pin = 1;
  buf[pout][tid] = in[tid];
  __syncthreads();
  for (int offset = 1; offset < N; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (tid >= offset)
      buf[pout][tid] = buf[pin][tid] + buf[pin][tid - offset];
    else
      buf[pout][tid] = buf[pin][tid];
    __syncthreads();
  }
  out[tid] = buf[pout][tid];
}

int main() {
  int h[N], r[N];
  for (int i = 0; i < N; i++) h[i] = (i % 10) + 1;
  int *din, *dout;
  cudaMalloc(&din, sizeof(h));
  cudaMalloc(&dout, sizeof(r));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  scanHillisSteele<<<1, N>>>(din, dout);
  cudaMemcpy(r, dout, sizeof(r), cudaMemcpyDeviceToHost);
  int acc = 0, bad = 0;
  for (int i = 0; i < N; i++) {
    acc += h[i];
    if (r[i] != acc) bad++;
  }
  printf("scan: out[0]=%d out[9]=%d out[127]=%d out[255]=%d\n", r[0], r[9], r[127], r[255]);
  printf("%s\n", bad ? "FAILED" : "PASSED");
  return bad != 0;
}
