//pass
//--blockDim=64 --gridDim=2
// RESULT: configs=2 excluded=0 findings=0
// cuRAND's device API: one state per thread, initialized and drawn from
// by its thread only; an MTGP32 state per block, each thread using its own
// word. Values are deterministic: the same seed and subsequence give the
// same draws.
#include <curand_kernel.h>
__global__ void k(curandState *states, curandStateMtgp32_t *mt, float *out, unsigned *bits) {
  unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(1234, tid, 0, &states[tid]);
  curandState local = states[tid];
  float u = curand_uniform(&local);
  __assert(u > 0.0f && u <= 1.0f);
  double d = curand_uniform_double(&local);
  __assert(d > 0.0 && d <= 1.0);
  float n = curand_normal(&local) + curand_log_normal(&local, 0.0f, 1.0f);
  unsigned p = curand_poisson(&local, 4.0);
  skipahead(10, &local);
  skipahead_sequence(1, &local);
  states[tid] = local;
  curandState a, b;
  curand_init(7, 3, 5, &a);
  curand_init(7, 3, 5, &b);
  __assert(curand(&a) == curand(&b));
  __assert(curand_normal_double(&a) == curand_normal_double(&b));
  out[tid] = u + n + (float)d;
  bits[tid] = p + curand(&mt[blockIdx.x]);
}
