//pass
//--blockDim=8 --gridDim=1
// RESULT: configs=2 excluded=0 findings=0
// A buffer of unknown extent grows to 64 MiB: an access beyond is no error
// of the kernel but the search's bound, and cuts the configuration short
// (the summary counts it).
__global__ void k(float *a) {
  a[threadIdx.x * 4194304u] = 1.0f;
}
