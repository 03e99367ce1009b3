// CUDA graphs beyond kernel and conditional nodes (graph_more.go; issue 15
// library item 3): memcpy, memset, host and empty nodes, clone, node
// lists, and stream capture with a fork and join through events.
// ---- a graph built by hand: memset (4-byte pattern), memcpy (cudaMemcpy3DParms of linear memory), kernel and host nodes; launched twice, cloned, its nodes counted
#include <cstdio>
__global__ void twice(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 2 * a[i] + i;
}
void CUDART_CB report(void *p) {
  int *h = (int *)p;
  printf("host node: %d %d %d\n", h[0], h[1], h[7]);
}
int main() {
  const int n = 8;
  int *d, *h;
  cudaMalloc(&d, n * sizeof(int));
  cudaMallocHost(&h, n * sizeof(int));
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphNode_t setN, kerN, cpyN, hostN, emptyN;
  cudaMemsetParams ms = {0};
  ms.dst = d;
  ms.value = 5;
  ms.elementSize = sizeof(int);
  ms.width = n;
  ms.height = 1;
  cudaGraphAddMemsetNode(&setN, g, NULL, 0, &ms);
  void *args[] = {&d, (void *)&n};
  cudaKernelNodeParams kp = {0};
  kp.func = (void *)twice;
  kp.gridDim = dim3(2);
  kp.blockDim = dim3(4);
  kp.kernelParams = args;
  cudaGraphAddKernelNode(&kerN, g, &setN, 1, &kp);
  cudaMemcpy3DParms cp = {0};
  cp.srcPtr = make_cudaPitchedPtr(d, n * sizeof(int), n, 1);
  cp.dstPtr = make_cudaPitchedPtr(h, n * sizeof(int), n, 1);
  cp.extent = make_cudaExtent(n * sizeof(int), 1, 1);
  cp.kind = cudaMemcpyDeviceToHost;
  cudaGraphAddMemcpyNode(&cpyN, g, &kerN, 1, &cp);
  cudaHostNodeParams hp = {0};
  hp.fn = report;
  hp.userData = h;
  cudaGraphAddHostNode(&hostN, g, &cpyN, 1, &hp);
  cudaGraphAddEmptyNode(&emptyN, g, &hostN, 1);
  size_t count = 0;
  cudaGraphGetNodes(g, NULL, &count);
  printf("%zu nodes\n", count);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, NULL, NULL, 0);
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaGraphLaunch(e, s);
  cudaGraphLaunch(e, s);
  cudaGraph_t c;
  cudaGraphClone(&c, g);
  cudaGraphExec_t ce;
  cudaGraphInstantiate(&ce, c, 0);
  cudaGraphLaunch(ce, s);
  cudaStreamSynchronize(s);
  cudaGraphNode_t bad = kerN;
  printf("%d\n", (int)cudaGraphAddEmptyNode(&emptyN, c, &bad, 1) == 0);
  cudaGraphExecDestroy(e);
  cudaGraphExecDestroy(ce);
  cudaGraphDestroy(g);
  cudaGraphDestroy(c);
  cudaStreamDestroy(s);
  cudaFree(d);
  cudaFreeHost(h);
  return 0;
}
// OUT: 5 nodes
// OUT: host node: 10 11 17
// OUT: host node: 10 11 17
// OUT: host node: 10 11 17
// OUT: 0
// ---- stream capture: work enqueued on a capturing stream, and on a second stream forked from it by an event, becomes a graph that runs only when launched
#include <cstdio>
__global__ void add(float *a, float v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += v;
}
int main() {
  const int n = 64;
  float *a, *b, h[n];
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  for (int i = 0; i < n; i++) h[i] = i;
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaEvent_t fork, join;
  cudaEventCreate(&fork);
  cudaEventCreate(&join);
  cudaGraph_t g;
  cudaStreamCaptureStatus st;
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  cudaStreamIsCapturing(s1, &st);
  printf("capturing %d\n", (int)st);
  cudaMemcpyAsync(a, h, n * sizeof(float), cudaMemcpyHostToDevice, s1);
  cudaEventRecord(fork, s1);
  cudaStreamWaitEvent(s2, fork, 0);
  cudaMemsetAsync(b, 0, n * sizeof(float), s2);
  add<<<1, n, 0, s2>>>(b, 1.0f, n);
  cudaEventRecord(join, s2);
  add<<<2, 32, 0, s1>>>(a, 100.0f, n);
  cudaStreamWaitEvent(s1, join, 0);
  cudaMemcpyAsync(h, a, n * sizeof(float), cudaMemcpyDeviceToHost, s1);
  cudaStreamEndCapture(s1, &g);
  cudaStreamIsCapturing(s1, &st);
  printf("capturing %d, h[3] still %g\n", (int)st, h[3]);
  size_t count = 0;
  cudaGraphGetNodes(g, NULL, &count);
  printf("%zu nodes\n", count);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  cudaGraphLaunch(e, s1);
  cudaGraphLaunch(e, s1);
  cudaStreamSynchronize(s1);
  float hb[n];
  cudaMemcpy(hb, b, sizeof(hb), cudaMemcpyDeviceToHost);
  printf("%g %g %g\n", h[3], h[63], hb[5]);
  printf("%d\n", (int)cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal));
  return 0;
}
// OUT: capturing 1
// OUT: capturing 0, h[3] still 3
// OUT: 5 nodes
// OUT: 203 263 1
// OUT: 900
// ---- graph memory nodes: an allocation node fixes the address, the memory lives from it to the free node and is allocated afresh at each launch; a stream-ordered allocation inside a capture is such a node; the device's graph memory attributes count its backing, in 32 MiB units as on an H100
#include <cstdio>
#include <cstdint>
__global__ void iota(int *a, int n) {
  int i = threadIdx.x;
  if (i < n) a[i] = i * 3;
}
__global__ void sum(const int *a, int n, int *out) {
  if (threadIdx.x == 0) {
    int s = 0;
    for (int i = 0; i < n; i++) s += a[i];
    *out = s;
  }
}
int main() {
  const int n = 32;
  int *out;
  cudaMallocManaged(&out, sizeof(int));
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaMemAllocNodeParams ap = {};
  ap.bytesize = n * sizeof(int);
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  cudaGraphNode_t allocN, k1, k2, freeN;
  cudaGraphAddMemAllocNode(&allocN, g, NULL, 0, &ap);
  int *buf = (int *)ap.dptr;
  int nn = n;
  void *a1[] = {&buf, &nn};
  cudaKernelNodeParams kp = {0};
  kp.func = (void *)iota;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(n);
  kp.kernelParams = a1;
  cudaGraphAddKernelNode(&k1, g, &allocN, 1, &kp);
  void *a2[] = {&buf, &nn, &out};
  kp.func = (void *)sum;
  kp.kernelParams = a2;
  cudaGraphAddKernelNode(&k2, g, &k1, 1, &kp);
  cudaGraphAddMemFreeNode(&freeN, g, &k2, 1, buf);
  uint64_t used = 0, high = 0;
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  printf("used %llu\n", (unsigned long long)used);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  for (int r = 0; r < 2; r++) {
    cudaGraphLaunch(e, 0);
    cudaDeviceSynchronize();
    printf("%d\n", *out);
  }
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &high);
  printf("used %llu high %llu\n", (unsigned long long)used, (unsigned long long)high);

  // the same through stream capture
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaGraph_t cg;
  int *cb;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMallocAsync(&cb, n * sizeof(int), s);
  iota<<<1, n, 0, s>>>(cb, n);
  sum<<<1, 1, 0, s>>>(cb, n, out);
  cudaFreeAsync(cb, s);
  cudaStreamEndCapture(s, &cg);
  cudaGraphExec_t ce;
  cudaGraphInstantiate(&ce, cg, 0);
  *out = 0;
  cudaGraphLaunch(ce, s);
  cudaGraphLaunch(ce, s);
  cudaStreamSynchronize(s);
  printf("%d\n", *out);
  return 0;
}
// OUT: used 0
// OUT: 1488
// OUT: 1488
// OUT: used 33554432 high 33554432
// OUT: 1488
// ---- a pointer to graph memory used after the launch freed it is a use after free
#include <cstdio>
__global__ void one(int *a) { a[threadIdx.x] = 1; } // ERROR C0404 col=31 "use of global memory after it was freed \(thread 0 of block 0, kernel one\)"
int main() {
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaGraph_t g;
  int *p;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cudaMallocAsync(&p, 4 * sizeof(int), s);
  one<<<1, 4, 0, s>>>(p);
  cudaFreeAsync(p, s);
  cudaStreamEndCapture(s, &g);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  cudaGraphLaunch(e, s);
  cudaStreamSynchronize(s);
  one<<<1, 4>>>(p);
  cudaDeviceSynchronize();
  return 0;
}
// ---- an executable graph is a copy: cudaGraphExecKernelNodeSetParams changes its kernel node only; cudaGraphExecUpdate takes the nodes of a graph of the same topology and refuses another
#include <cstdio>
__global__ void put(int *a, int v) { a[threadIdx.x] = v; }
int main() {
  int *d;
  cudaMallocManaged(&d, 4 * sizeof(int));
  int v = 1;
  void *args[] = {&d, &v};
  cudaKernelNodeParams kp = {0};
  kp.func = (void *)put;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(4);
  kp.kernelParams = args;
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphNode_t k;
  cudaGraphAddKernelNode(&k, g, NULL, 0, &kp);
  cudaGraphExec_t e1, e2;
  cudaGraphInstantiate(&e1, g, NULL, NULL, 0);
  cudaGraphInstantiate(&e2, g, NULL, NULL, 0);
  v = 7;
  cudaGraphExecKernelNodeSetParams(e1, k, &kp);
  cudaGraphLaunch(e1, 0);
  cudaDeviceSynchronize();
  printf("%d", d[3]);
  cudaGraphLaunch(e2, 0);
  cudaDeviceSynchronize();
  printf(" %d", d[3]);
  cudaGraph_t h;
  cudaGraphCreate(&h, 0);
  v = 9;
  cudaGraphNode_t k2;
  cudaGraphAddKernelNode(&k2, h, NULL, 0, &kp);
  cudaGraphExecUpdateResult r;
  cudaGraphNode_t errNode;
  printf(" %d", (int)cudaGraphExecUpdate(e2, h, &errNode, &r));
  cudaGraphLaunch(e2, 0);
  cudaDeviceSynchronize();
  printf(" %d %d", (int)r, d[0]);
  cudaGraphAddKernelNode(&k2, h, NULL, 0, &kp);
  // (the result is read after the call: g++ evaluates arguments right to left)
  int st = (int)cudaGraphExecUpdate(e2, h, &errNode, &r);
  printf(" %d %d\n", st, (int)(r == cudaGraphExecUpdateErrorTopologyChanged));
  return 0;
}
// OUT: 7 1 0 0 9 910 1
// ---- conditional nodes with more bodies: IF with an else body, SWITCH indexed by the handle's value (no body past the last); kernel nodes through cudaGraphAddNode; bodies filled by capturing into them
#include <cstdio>
__global__ void setCond(cudaGraphConditionalHandle h, int *v) { cudaGraphSetConditional(h, *v); }
__global__ void say(int k) { printf("body %d\n", k); }
int main() {
  int *v;
  cudaMallocManaged(&v, sizeof(int));
  for (int kind = 0; kind < 2; kind++) {
    cudaGraph_t g;
    cudaGraphCreate(&g, 0);
    cudaGraphConditionalHandle h;
    cudaGraphConditionalHandleCreate(&h, g);
    cudaGraphNode_t setN, condN;
    cudaGraphNodeParams kp = {cudaGraphNodeTypeKernel};
    void *args[] = {&h, &v};
    kp.kernel.func = (void *)setCond;
    kp.kernel.gridDim = dim3(1);
    kp.kernel.blockDim = dim3(1);
    kp.kernel.kernelParams = args;
    cudaGraphAddNode(&setN, g, NULL, NULL, 0, &kp);
    cudaGraphNodeParams cp = {cudaGraphNodeTypeConditional};
    cp.conditional.handle = h;
    cp.conditional.type = kind == 0 ? cudaGraphCondTypeIf : cudaGraphCondTypeSwitch;
    cp.conditional.size = kind == 0 ? 2 : 3;
    cudaGraphAddNode(&condN, g, &setN, NULL, 1, &cp);
    cudaStream_t s;
    cudaStreamCreate(&s);
    for (unsigned i = 0; i < cp.conditional.size; i++) {
      cudaStreamBeginCaptureToGraph(s, cp.conditional.phGraph_out[i], nullptr, nullptr, 0, cudaStreamCaptureModeGlobal);
      say<<<1, 1, 0, s>>>(10 * kind + i);
      cudaStreamEndCapture(s, nullptr);
    }
    cudaGraphExec_t e;
    cudaGraphInstantiate(&e, g, 0);
    for (int x = 0; x < 4; x++) {
      *v = x;
      cudaGraphLaunch(e, s);
      cudaStreamSynchronize(s);
    }
  }
  return 0;
}
// OUT: body 1
// OUT: body 0
// OUT: body 0
// OUT: body 0
// OUT: body 10
// OUT: body 11
// OUT: body 12
