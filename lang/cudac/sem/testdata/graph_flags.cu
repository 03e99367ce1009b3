// ---- cudaGraphInstantiateWithFlags: without AutoFreeOnLaunch a relaunch while the graph's allocation is unfreed is cudaErrorInvalidValue (nothing runs) until a free is issued; with it each launch frees and allocates afresh; UseNodePriority changes nothing; Upload and DeviceLaunch|AutoFree are cudaErrorInvalidValue; CUDA 12's three-argument cudaGraphInstantiate takes the flags
#include <cstdio>
__global__ void bump(int *a, int *out) {
  a[0] = 7 + *out;
  *out = a[0];
}
int main() {
  int *out;
  cudaMallocManaged(&out, sizeof(int));
  *out = 0;
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaMemAllocNodeParams ap = {};
  ap.bytesize = 16;
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  cudaGraphNode_t allocN, k;
  cudaGraphAddMemAllocNode(&allocN, g, NULL, 0, &ap);
  int *buf = (int *)ap.dptr;
  void *args[] = {&buf, &out};
  cudaKernelNodeParams kp = {0};
  kp.func = (void *)bump;
  kp.gridDim = dim3(1);
  kp.blockDim = dim3(1);
  kp.kernelParams = args;
  cudaGraphAddKernelNode(&k, g, &allocN, 1, &kp);
  cudaGraphExec_t e0, e1, e2, bad;
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  printf("%d", (int)cudaGraphInstantiateWithFlags(&e0, g, 0));
  printf(" %d", (int)cudaGraphLaunch(e0, s));
  printf(" %d", (int)cudaGraphLaunch(e0, s)); // the first launch's allocation is not freed
  cudaStreamSynchronize(s);
  printf(" %d", *out);
  cudaFreeAsync(buf, s);
  printf(" %d", (int)cudaGraphLaunch(e0, s)); // a free is issued before it
  cudaStreamSynchronize(s);
  printf(" %d\n", *out);
  cudaFree(buf);
  cudaGraphExecDestroy(e0);
  printf("%d", (int)cudaGraphInstantiateWithFlags(&e1, g, cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUseNodePriority));
  for (int r = 0; r < 3; r++)
    printf(" %d", (int)cudaGraphLaunch(e1, s));
  cudaStreamSynchronize(s);
  printf(" %d\n", *out);
  cudaGraphExecDestroy(e1);
  printf("%d", (int)cudaGraphInstantiateWithFlags(&bad, g, cudaGraphInstantiateFlagUpload));
  printf(" %d", (int)cudaGraphInstantiateWithFlags(&bad, g, cudaGraphInstantiateFlagDeviceLaunch | cudaGraphInstantiateFlagAutoFreeOnLaunch));
  printf(" %d", (int)cudaGraphInstantiateWithFlags(&bad, g, 16));
  printf(" %d", (int)cudaGraphInstantiate(&e2, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
  printf(" %d", (int)cudaGraphLaunch(e2, s));
  printf(" %d", (int)cudaGraphLaunch(e2, s));
  cudaStreamSynchronize(s);
  printf(" %d\n", *out);
  return 0;
}
// OUT: 0 0 1 7 0 14
// OUT: 0 0 0 0 35
// OUT: 1 1 1 0 0 0 49
// ---- a graph instantiated for device launch is not modeled
int main() {
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphExec_t e;
  cudaGraphInstantiateWithFlags(&e, g, cudaGraphInstantiateFlagDeviceLaunch); // ERROR C0309 col=3 "cudaGraphInstantiateWithFlags with cudaGraphInstantiateFlagDeviceLaunch is not modeled"
  return 0;
}
// ---- cuda_runtime.h's C++ overload cudaEventCreate(&event, flags) is cudaEventCreateWithFlags
#include <cstdio>
int main() {
  cudaEvent_t a, b;
  int r1 = cudaEventCreate(&a, cudaEventDisableTiming);
  int r2 = cudaEventCreate(&b, 0);
  cudaEventRecord(a, 0);
  cudaEventRecord(b, 0);
  printf("%d %d %d\n", r1, r2, (int)cudaEventSynchronize(b));
  return 0;
}
// OUT: 0 0 0
