// A CUDA graph of 2000 kernel nodes in a chain, each after the one added
// before it, launched 3 times: the cost of a launch in the node count
// (BenchmarkGraphChain, graph_order.go).
#include <cstdio>
#define N 2000
#define LAUNCHES 3
__global__ void step(int *c, int i) { c[0] += i & 1; }
int main() {
  int *c;
  cudaMallocManaged(&c, sizeof(int));
  c[0] = 0;
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  int i = 0;
  void *args[] = {&c, &i};
  cudaKernelNodeParams kp = {0};
  kp.func = (void *)step;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  cudaGraphNode_t prev, n;
  for (i = 0; i < N; i++) {
    cudaGraphAddKernelNode(&n, g, i ? &prev : nullptr, i ? 1 : 0, &kp);
    prev = n;
  }
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  for (int l = 0; l < LAUNCHES; l++) cudaGraphLaunch(e, 0);
  cudaDeviceSynchronize();
  printf("%d\n", c[0]);
  return 0;
}
