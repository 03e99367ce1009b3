//pass
//--blockDim=4 --gridDim=2 --only-intra-group
// RESULT: configs=2 excluded=0 findings=0
// The same kernel: --only-intra-group looks for races inside one block only.
__global__ void k(int *a) {
  a[threadIdx.x] = blockIdx.x;
}
