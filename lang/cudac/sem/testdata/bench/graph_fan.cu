// A CUDA graph of one root and 2000 kernel nodes that depend on it only:
// the root is added last and the 2000 edges by one
// cudaGraphAddDependencies call, so the order of addition is not a
// topological order. Launched 3 times: the cost of a launch in the node
// and edge counts (BenchmarkGraphFan, graph_order.go).
#include <cstdio>
#ifndef N
#define N 2000
#endif
#define LAUNCHES 3
__global__ void leaf(const int *a, int *b, int i) { b[i] += a[0] + i; }
__global__ void root(int *a) { a[0] = 1; }
int main() {
  int *a, *b;
  cudaMallocManaged(&a, sizeof(int));
  cudaMallocManaged(&b, N * sizeof(int));
  for (int k = 0; k < N; k++) b[k] = 0;
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  int i = 0;
  void *largs[] = {&a, &b, &i};
  void *rargs[] = {&a};
  cudaKernelNodeParams kp = {0};
  kp.func = (void *)leaf;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = largs;
  static cudaGraphNode_t leaves[N], roots[N];
  for (i = 0; i < N; i++) cudaGraphAddKernelNode(&leaves[i], g, nullptr, 0, &kp);
  kp.func = (void *)root;
  kp.kernelParams = rargs;
  cudaGraphNode_t r;
  cudaGraphAddKernelNode(&r, g, nullptr, 0, &kp);
  for (int k = 0; k < N; k++) roots[k] = r;
  cudaGraphAddDependencies(g, roots, leaves, N);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  for (int l = 0; l < LAUNCHES; l++) cudaGraphLaunch(e, 0);
  cudaDeviceSynchronize();
  long s = 0;
  for (int k = 0; k < N; k++) s += b[k];
  printf("%ld\n", s);
  return 0;
}
