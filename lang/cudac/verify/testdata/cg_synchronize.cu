//pass
//--blockDim=32 --gridDim=1
// RESULT: configs=2 excluded=0 findings=0
// synchronize(g), the CUDA 9 spelling of g.sync() that GPUVerify's headers
// keep, is a barrier of the group.
#include <cooperative_groups.h>
using namespace cooperative_groups;
__global__ void k(int *A) {
  thread_block b = this_thread_block();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int next = A[i + 1];
  synchronize(b);
  A[i] = next;
}
