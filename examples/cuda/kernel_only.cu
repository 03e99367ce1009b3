//--blockDim=64 --gridDim=2 --arg n=128
// A kernel-only file, as GPU verification tools take them: weft check
// launches it with the configuration above, a zero-filled device buffer per
// pointer parameter and --arg values for scalars.
__global__ void shift(int *a, int n) {
  __shared__ int tile[64];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = a[i];
  // missing __syncthreads(): the neighbour's element may not be written yet
  if (threadIdx.x + 1 < blockDim.x && i + 1 < n) a[i] = tile[threadIdx.x + 1];
}
