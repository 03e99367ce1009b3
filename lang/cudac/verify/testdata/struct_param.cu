//pass
//--blockDim=16 --gridDim=2
// RESULT: configs=2 excluded=0 findings=0
// A struct parameter: each pointer field is a fresh buffer of unknown extent.
struct pair {
  float *x;
  int *y[2];
};
__global__ void k(pair p) {
  __requires_fresh_array(p.x);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p.x[i] = 1.0f;
  p.y[1][i] = 2;
}
