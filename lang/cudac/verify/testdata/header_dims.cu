//pass
//--blockDim=[8,4] --gridDim=[2,2] -DW=16 --no-inline --equality-abstraction
// RESULT: configs=2 excluded=0 findings=0
// GPUVerify's header: 2-d extents, a -D define and flags that change nothing for a run.
__global__ void tile(float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * W + x] = 2.0f;
}
