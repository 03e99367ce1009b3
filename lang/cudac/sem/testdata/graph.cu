// ---- a CUDA graph with nested WHILE nodes: a handle's default applies when the graph is launched, so an upstream kernel must set the inner condition again on every outer iteration
#include <stdio.h>
__device__ int outer, inner, runs;
__global__ void reset_inner(cudaGraphConditionalHandle h, int set) {
  inner = 0;
  if (set) cudaGraphSetConditional(h, 1u);
}
__global__ void inner_step(cudaGraphConditionalHandle h) {
  runs++;
  cudaGraphSetConditional(h, ++inner < 3 ? 1u : 0u);
}
__global__ void outer_step(cudaGraphConditionalHandle h) { cudaGraphSetConditional(h, ++outer < 4 ? 1u : 0u); }
static cudaGraph_t add_while(cudaGraph_t g, cudaGraphNode_t *prev, cudaGraphConditionalHandle h) {
  cudaGraphNodeParams p = {};
  p.type = cudaGraphNodeTypeConditional;
  p.conditional.handle = h;
  p.conditional.type = cudaGraphCondTypeWhile;
  p.conditional.size = 1;
  cudaGraphNode_t n;
  cudaGraphAddNode(&n, g, *prev ? prev : nullptr, nullptr, *prev ? 1 : 0, &p);
  *prev = n;
  return p.conditional.phGraph_out[0];
}
static void add_kernel(cudaGraph_t g, cudaGraphNode_t *prev, const void *func, void **args) {
  cudaKernelNodeParams kp = {};
  kp.func = (void *)func;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  cudaGraphNode_t n;
  cudaGraphAddKernelNode(&n, g, *prev ? prev : nullptr, *prev ? 1 : 0, &kp);
  *prev = n;
}
int run(int set) {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphNode_t prev = nullptr;
  cudaGraphConditionalHandle ho, hi;
  cudaGraphConditionalHandleCreate(&ho, g, 1, cudaGraphCondAssignDefault);
  cudaGraph_t body = add_while(g, &prev, ho);
  cudaGraphNode_t bprev = nullptr;
  cudaGraphConditionalHandleCreate(&hi, body, 1, cudaGraphCondAssignDefault);
  {
    void *args[] = {&hi, &set};
    add_kernel(body, &bprev, (const void *)reset_inner, args);
  }
  cudaGraph_t ibody = add_while(body, &bprev, hi);
  cudaGraphNode_t iprev = nullptr;
  {
    void *args[] = {&hi};
    add_kernel(ibody, &iprev, (const void *)inner_step, args);
  }
  {
    void *args[] = {&ho};
    add_kernel(body, &bprev, (const void *)outer_step, args);
  }
  cudaGraphExec_t exec;
  cudaGraphInstantiate(&exec, g, 0);
  int zero = 0, r;
  cudaMemcpyToSymbol(outer, &zero, sizeof zero);
  cudaMemcpyToSymbol(runs, &zero, sizeof zero);
  cudaGraphLaunch(exec, 0);
  cudaStreamSynchronize(0);
  cudaMemcpyFromSymbol(&r, runs, sizeof r);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(g);
  return r;
}
int main() {
  // 4 outer iterations of 3 inner ones; without setting the inner handle
  // again, the inner loop runs only in the first outer iteration
  printf("set: %d, default only: %d\n", run(1), run(0));
  return 0;
}
// OUT: set: 12, default only: 3
// ---- cudaLaunchCooperativeKernel: grid.sync in a cooperative launch, arguments through void*
#include <stdio.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
struct P { int *buf, *out; int n; };
__global__ void k(P p, int add) {
  cg::grid_group g = cg::this_grid();
  int i = g.thread_rank();
  p.buf[i] = i;
  g.sync();
  p.out[i] = p.buf[(i + 1) % p.n] + add;
}
int main() {
  int h[64];
  P p;
  p.n = 64;
  cudaMalloc(&p.buf, sizeof h);
  cudaMalloc(&p.out, sizeof h);
  int add = 100;
  void *args[] = {&p, &add};
  cudaError_t e = cudaLaunchCooperativeKernel((const void *)k, dim3(2), dim3(32), args, 0, 0);
  cudaMemcpy(h, p.out, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d %d\n", (int)e, h[0], h[63]);
  return 0;
}
// OUT: 0 101 100
