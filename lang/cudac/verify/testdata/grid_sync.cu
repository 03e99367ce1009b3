//pass
//--blockDim=32 --gridDim=4
// RESULT: configs=2 excluded=0 findings=0
// A lone kernel is launched cooperatively: grid.sync() orders the blocks.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int *A) {
  cg::grid_group g = cg::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int next = A[(i + 32) % (32 * 4)];
  g.sync();
  A[i] = next;
}
