// The race detector and the edges of a CUDA graph (graph_order.go): a
// node is ordered after exactly the nodes it has a path from, whatever
// order the interpreter runs the nodes in (CUDA Programming Guide, "CUDA
// Graphs", "Graph Structure").
// ---- two kernel nodes without an edge between them: a write and a read of the same buffer race
#include <cstdio>
__global__ void put(int *a, int v) { a[threadIdx.x] = v; } // NOTE col=38 "the other access: write by thread 0 of block 0 \(kernel put\)"
__global__ void get(const int *a, int *b) { b[threadIdx.x] = a[threadIdx.x]; } // ERROR C0501 col=62 "data race on global memory \(byte 0\): read by thread 0 of block 0 \(kernel get\) conflicts with an unordered write by thread 0 of block 0 \(kernel put\)"
int main() {
  int *a, *b;
  cudaMalloc(&a, 4 * sizeof(int));
  cudaMallocManaged(&b, 4 * sizeof(int));
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  int v = 5;
  void *pa[] = {&a, &v};
  void *ga[] = {&a, &b};
  cudaKernelNodeParams kp = {0};
  kp.func = (void *)put;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(4);
  kp.kernelParams = pa;
  cudaGraphNode_t w, r;
  cudaGraphAddKernelNode(&w, g, NULL, 0, &kp);
  kp.func = (void *)get;
  kp.kernelParams = ga;
  cudaGraphAddKernelNode(&r, g, NULL, 0, &kp);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  cudaGraphLaunch(e, 0);
  cudaDeviceSynchronize();
  return 0;
}
// ---- the same two nodes with an edge: ordered, no race; an edge added afterwards by cudaGraphAddDependencies to a node added earlier orders the run as well
#include <cstdio>
__global__ void put(int *a, int v) { a[threadIdx.x] = v; }
__global__ void get(const int *a, int *b) { b[threadIdx.x] = a[threadIdx.x]; }
__global__ void add(int *a, int v) { a[threadIdx.x] += v; }
int main() {
  int *a, *b;
  cudaMalloc(&a, 4 * sizeof(int));
  cudaMallocManaged(&b, 4 * sizeof(int));
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  int v = 5, d = 100;
  void *pa[] = {&a, &v};
  void *ga[] = {&a, &b};
  void *aa[] = {&a, &d};
  cudaKernelNodeParams kp = {0};
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(4);
  cudaGraphNode_t w, r, x;
  kp.func = (void *)put;
  kp.kernelParams = pa;
  cudaGraphAddKernelNode(&w, g, NULL, 0, &kp);
  kp.func = (void *)get;
  kp.kernelParams = ga;
  cudaGraphAddKernelNode(&r, g, &w, 1, &kp);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  cudaGraphLaunch(e, 0);
  cudaDeviceSynchronize();
  printf("%d\n", b[2]);
  // x is added last but runs between w and r: w -> x -> r
  kp.func = (void *)add;
  kp.kernelParams = aa;
  cudaGraphAddKernelNode(&x, g, &w, 1, &kp);
  printf("%d\n", (int)cudaGraphAddDependencies(g, &x, &r, nullptr, 1));
  int again = (int)cudaGraphAddDependencies(g, &x, &r, nullptr, 1); // "Specifying an existing dependency will return an error"
  printf("%d\n", again != 0);
  cudaGraphExec_t e2;
  cudaGraphInstantiate(&e2, g, 0);
  cudaGraphLaunch(e2, 0);
  cudaDeviceSynchronize();
  printf("%d\n", b[2]);
  return 0;
}
// OUT: 5
// OUT: 0
// OUT: 1
// OUT: 105
// ---- a diamond: the two middle nodes write disjoint halves, the last reads both; no race
#include <cstdio>
__global__ void fill(int *a, int v) { a[threadIdx.x] = v; }
__global__ void part(int *a, int off) { a[off + threadIdx.x] += off; }
__global__ void sum(const int *a, int *out) {
  int s = 0;
  for (int i = 0; i < 8; i++) s += a[i];
  *out = s;
}
int main() {
  int *a, *out;
  cudaMalloc(&a, 8 * sizeof(int));
  cudaMallocManaged(&out, sizeof(int));
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  int one = 1, lo = 0, hi = 4;
  void *fa[] = {&a, &one};
  void *la[] = {&a, &lo};
  void *ha[] = {&a, &hi};
  void *sa[] = {&a, &out};
  cudaKernelNodeParams kp = {0};
  kp.gridDim = dim3(1);
  cudaGraphNode_t top, left, right, bottom;
  kp.func = (void *)fill;
  kp.blockDim = dim3(8);
  kp.kernelParams = fa;
  cudaGraphAddKernelNode(&top, g, NULL, 0, &kp);
  kp.func = (void *)part;
  kp.blockDim = dim3(4);
  kp.kernelParams = la;
  cudaGraphAddKernelNode(&left, g, &top, 1, &kp);
  kp.kernelParams = ha;
  cudaGraphAddKernelNode(&right, g, &top, 1, &kp);
  cudaGraphNode_t both[] = {left, right};
  kp.func = (void *)sum;
  kp.blockDim = dim3(1);
  kp.kernelParams = sa;
  cudaGraphAddKernelNode(&bottom, g, both, 2, &kp);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  cudaGraphLaunch(e, 0);
  cudaDeviceSynchronize();
  printf("%d\n", *out);
  return 0;
}
// OUT: 24
// ---- a diamond whose middle nodes both write the same element race, and a memset node beside a kernel node on the same bytes races too
#include <cstdio>
__global__ void fill(int *a, int v) { a[threadIdx.x] = v; }
__global__ void bump(int *a) { a[0] += 1; } // ERROR C0501 col=32 "data race on global memory \(byte 0\): read by thread 0 of block 0 \(kernel bump\) conflicts with an unordered write by thread 0 of block 0 \(kernel bump\)" // NOTE col=32 "the other access: write by thread 0 of block 0 \(kernel bump\)"
__global__ void get(const int *a, int *b) { b[threadIdx.x] = a[threadIdx.x]; } // ERROR C0501 col=62 "data race on global memory \(byte 16\): read by thread 4 of block 0 \(kernel get\) conflicts with an unordered write by an asynchronous copy"
int main() {
  int *a, *b;
  cudaMalloc(&a, 8 * sizeof(int));
  cudaMallocManaged(&b, 8 * sizeof(int));
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  int one = 1;
  void *fa[] = {&a, &one};
  void *ba[] = {&a};
  cudaKernelNodeParams kp = {0};
  kp.gridDim = dim3(1);
  cudaGraphNode_t top, left, right, bottom;
  kp.func = (void *)fill;
  kp.blockDim = dim3(4);
  kp.kernelParams = fa;
  cudaGraphAddKernelNode(&top, g, NULL, 0, &kp);
  kp.func = (void *)bump;
  kp.blockDim = dim3(1);
  kp.kernelParams = ba;
  cudaGraphAddKernelNode(&left, g, &top, 1, &kp);
  cudaGraphAddKernelNode(&right, g, &top, 1, &kp);
  cudaGraphNode_t both[] = {left, right};
  cudaGraphAddEmptyNode(&bottom, g, both, 2);
  // a memset node of a[4..7], unordered with the kernel that reads them
  cudaMemsetParams ms = {0};
  ms.dst = a + 4;
  ms.value = 0;
  ms.elementSize = 1;
  ms.width = 4 * sizeof(int);
  ms.height = 1;
  cudaGraphNode_t set, rd;
  cudaGraphAddMemsetNode(&set, g, &bottom, 1, &ms); // NOTE "the other access: write by an asynchronous copy"
  void *ga[] = {&a, &b};
  kp.func = (void *)get;
  kp.blockDim = dim3(8);
  kp.kernelParams = ga;
  cudaGraphAddKernelNode(&rd, g, &bottom, 1, &kp);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  cudaGraphLaunch(e, 0);
  cudaDeviceSynchronize();
  return 0;
}
// ---- stream capture with a fork and a join through events: the forked stream's kernel races with the origin stream's kernel between fork and join, and is ordered before what follows the join
#include <cstdio>
__global__ void put(int *a, int v) { a[threadIdx.x] = v; } // NOTE col=38 "the other access: write by thread 0 of block 0 \(kernel put\)"
__global__ void get(const int *a, int *b) { b[threadIdx.x] = a[threadIdx.x]; } // ERROR C0501 col=62 "data race on global memory \(byte 0\): read by thread 0 of block 0 \(kernel get\) conflicts with an unordered write by thread 0 of block 0 \(kernel put\)"
__global__ void twice(const int *a, int *b) { b[threadIdx.x] = 2 * a[threadIdx.x]; }
int main() {
  int *x, *y, *o1, *o2, *o3;
  cudaMalloc(&x, 4 * sizeof(int));
  cudaMalloc(&y, 4 * sizeof(int));
  cudaMalloc(&o1, 4 * sizeof(int));
  cudaMalloc(&o2, 4 * sizeof(int));
  cudaMallocManaged(&o3, 4 * sizeof(int));
  cudaStream_t s1, s2;
  cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  cudaEvent_t fork, join;
  cudaEventCreate(&fork);
  cudaEventCreate(&join);
  cudaGraph_t g;
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  put<<<1, 4, 0, s1>>>(x, 3);
  cudaEventRecord(fork, s1);
  cudaStreamWaitEvent(s2, fork, 0);
  put<<<1, 4, 0, s2>>>(y, 7);
  get<<<1, 4, 0, s2>>>(x, o1); // after the fork: ordered after put(x)
  get<<<1, 4, 0, s1>>>(y, o2); // between fork and join: races with put(y)
  cudaEventRecord(join, s2);
  cudaStreamWaitEvent(s1, join, 0);
  twice<<<1, 4, 0, s1>>>(y, o3); // after the join: ordered
  cudaStreamEndCapture(s1, &g);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  cudaGraphLaunch(e, s1);
  cudaStreamSynchronize(s1);
  printf("%d\n", o3[1]);
  return 0;
}
// OUT: 14
// ---- a host node without an edge from the kernel node that writes what it reads races with it
#include <cstdio>
__global__ void put(int *a) { a[threadIdx.x] = 1; } // NOTE col=31 "the other access: write by thread 0 of block 0 \(kernel put\)"
void CUDART_CB rd(void *p) { printf("%d\n", ((int *)p)[0]); } // ERROR C0501 col=46 "data race on pinned memory \(byte 0\): read by the host function of a graph.s host node conflicts with an unordered write by thread 0 of block 0 \(kernel put\)"
int main() {
  int *a;
  cudaMallocManaged(&a, 4 * sizeof(int));
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  void *args[] = {&a};
  cudaKernelNodeParams kp = {0};
  kp.func = (void *)put;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(4);
  kp.kernelParams = args;
  cudaGraphNode_t k, h;
  cudaGraphAddKernelNode(&k, g, NULL, 0, &kp);
  cudaHostNodeParams hp = {0};
  hp.fn = rd;
  hp.userData = a;
  cudaGraphAddHostNode(&h, g, NULL, 0, &hp);
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  cudaGraphLaunch(e, 0);
  cudaDeviceSynchronize();
  return 0;
}
// OUT: 1
// ---- cudaGraphNodeFindInClone names the copy of a node in a clone, which can take an edge the original lacks; cudaGraphUpload backs a graph's allocations before its launch (32 MiB units, kept mapped after the destroy until a trim, as on an H100)
#include <cstdio>
#include <cstdint>
__global__ void put(int *a, int v) { a[threadIdx.x] = v; }
__global__ void get(const int *a, int *b) { b[threadIdx.x] = a[threadIdx.x]; }
int main() {
  int *a, *b;
  cudaMalloc(&a, 4 * sizeof(int));
  cudaMallocManaged(&b, 4 * sizeof(int));
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  int v = 9;
  void *pa[] = {&a, &v};
  void *ga[] = {&a, &b};
  cudaKernelNodeParams kp = {0};
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(4);
  cudaGraphNode_t w, r, cw, cr;
  kp.func = (void *)put;
  kp.kernelParams = pa;
  cudaGraphAddKernelNode(&w, g, NULL, 0, &kp);
  kp.func = (void *)get;
  kp.kernelParams = ga;
  cudaGraphAddKernelNode(&r, g, NULL, 0, &kp);
  cudaGraph_t c;
  cudaGraphClone(&c, g);
  int found = (int)cudaGraphNodeFindInClone(&cw, w, c);
  printf("%d %d\n", found, (int)(cw != w));
  cudaGraphNodeFindInClone(&cr, r, c);
  int bad = (int)cudaGraphAddDependencies(c, &w, &cr, nullptr, 1);
  printf("%d %d\n", bad, (int)cudaGraphAddDependencies(c, &cw, &cr, nullptr, 1));
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, c, 0);
  cudaGraphLaunch(e, 0);
  cudaDeviceSynchronize();
  printf("%d\n", b[3]);
  // a graph with an allocation node: no memory is used until its upload
  cudaGraph_t m;
  cudaGraphCreate(&m, 0);
  cudaMemAllocNodeParams ap = {};
  ap.bytesize = 256;
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  cudaGraphNode_t an, fn;
  cudaGraphAddMemAllocNode(&an, m, NULL, 0, &ap);
  cudaGraphAddMemFreeNode(&fn, m, &an, 1, ap.dptr);
  cudaGraphExec_t me;
  cudaGraphInstantiate(&me, m, 0);
  uint64_t used = 0;
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  printf("used %llu", (unsigned long long)used);
  cudaGraphUpload(me, 0);
  cudaDeviceSynchronize();
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  printf(" %llu", (unsigned long long)used);
  // the backing is mapped in 32 MiB units and stays mapped after the
  // executable graph is destroyed, until a trim (as an H100 showed)
  cudaGraphExecDestroy(me);
  cudaDeviceSynchronize();
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  printf(" %llu", (unsigned long long)used);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &used);
  printf(" reserved %llu\n", (unsigned long long)used);
  // instantiated again, the graph takes that memory over
  cudaGraphInstantiate(&me, m, 0);
  cudaGraphUpload(me, 0);
  cudaDeviceSynchronize();
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  printf("again %llu", (unsigned long long)used);
  cudaGraphExecDestroy(me);
  cudaDeviceSynchronize();
  cudaDeviceGraphMemTrim(0);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used);
  printf(" trimmed %llu", (unsigned long long)used);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &used);
  printf(" %llu\n", (unsigned long long)used);
  return 0;
}
// OUT: 0 1
// OUT: 1 0
// OUT: 9
// OUT: used 0 33554432 33554432 reserved 33554432
// OUT: again 33554432 trimmed 0 0
// ---- nodes along a chain share one race-detector agent (agentOf): a branch off the chain's first node is still unordered with the chain's later nodes, and ordered after the first; a second launch is ordered after the first
#include <cstdio>
__global__ void wr(int *a, int i, int v) { a[i] = v; } // NOTE col=44 "the other access: write by thread 0 of block 0 \(kernel wr\)"
__global__ void rd(const int *a, int i, int *out) { out[i] += a[i]; } // ERROR C0501 col=63 "data race on pinned memory \(byte 4\): read by thread 0 of block 0 \(kernel rd\) conflicts with an unordered write by thread 0 of block 0 \(kernel wr\)"
int main() {
  int *a, *out;
  cudaMallocManaged(&a, 4 * sizeof(int));
  cudaMallocManaged(&out, 4 * sizeof(int));
  for (int k = 0; k < 4; k++) a[k] = out[k] = 0;
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  int i = 0, v = 0;
  void *wa[] = {&a, &i, &v};
  void *ra[] = {&a, &i, &out};
  cudaKernelNodeParams kp = {0};
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  cudaGraphNode_t n0, n1, n2, n3, n4;
  kp.func = (void *)wr;
  kp.kernelParams = wa;
  i = 0, v = 5;
  cudaGraphAddKernelNode(&n0, g, NULL, 0, &kp); // n0 -> n1 -> n2: one chain
  i = 2, v = 6;
  cudaGraphAddKernelNode(&n1, g, &n0, 1, &kp);
  i = 1, v = 7;
  cudaGraphAddKernelNode(&n2, g, &n1, 1, &kp);
  kp.func = (void *)rd;
  kp.kernelParams = ra;
  i = 0;
  cudaGraphAddKernelNode(&n3, g, &n0, 1, &kp); // n0 -> n3 -> n4: after n0 only
  i = 1;
  cudaGraphAddKernelNode(&n4, g, &n3, 1, &kp); // reads what n2 writes: a race
  cudaGraphExec_t e;
  cudaGraphInstantiate(&e, g, 0);
  cudaGraphLaunch(e, 0);
  cudaGraphLaunch(e, 0);
  cudaDeviceSynchronize();
  printf("%d %d %d\n", out[0], out[1], a[2]);
  return 0;
}
// OUT: 10 14 6
