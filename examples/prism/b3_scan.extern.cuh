// Raw-CUDA bodies of the functions b3_scan.prism declares with `pass`
// (seed 001 B.3: "Implemented in raw CUDA: only exposing the necessary
// interfaces"). weft build copies this file next to b3_scan.cu.
//
// Decoupled look-back (Merrill & Garland): block_infos holds two ints per
// block, [2b] the value and [2b+1] its status: 0 not ready, 1 the block's
// aggregate, 2 its inclusive prefix.
#pragma once

__device__ uint32_t shfl_up_sync_wrapper(uint32_t val, uint32_t delta, int prism_p, int prism_b, unsigned prism_s) {
  (void)prism_p; (void)prism_b; (void)prism_s;
  return __shfl_up_sync(0xffffffffu, val, delta);
}

__device__ void write_block_aggregate(uint32_t aggregate, uint32_t block_idx, const int* block_infos, int prism_p, int prism_b, unsigned prism_s) {
  (void)prism_b; (void)prism_s;
  int* infos = const_cast<int*>(block_infos);
  if (prism_p == 0) {
    volatile int* v = infos;
    v[2 * block_idx] = (int)aggregate;
    __threadfence();
    v[2 * block_idx + 1] = 1;
  }
}

__device__ void write_block_prefix(uint32_t prefix, uint32_t block_idx, const int* block_infos, int prism_p, int prism_b, unsigned prism_s) {
  (void)prism_b; (void)prism_s;
  int* infos = const_cast<int*>(block_infos);
  if (prism_p == 0) {
    volatile int* v = infos;
    v[2 * block_idx] = (int)prefix;
    __threadfence();
    v[2 * block_idx + 1] = 2;
  }
}

__device__ uint32_t lookback_to_prev_blocks(uint32_t block_idx, const int* block_infos, int prism_p, int prism_b, unsigned prism_s) {
  (void)prism_b; (void)prism_s;
  __shared__ uint32_t result;
  if (prism_p == 0) {
    volatile const int* v = block_infos;
    uint32_t sum = 0;
    for (int j = (int)block_idx - 1; j >= 0; j--) {
      int status;
      while ((status = v[2 * j + 1]) == 0) {
      }
      __threadfence();
      sum += (uint32_t)v[2 * j];
      if (status == 2) break;
    }
    result = sum;
  }
  __syncthreads();
  uint32_t r = result;
  __syncthreads();
  return r;
}

__device__ uint32_t get_block_idx_from_global_counter(const uint32_t* block_idx_counter, int prism_p, int prism_b, unsigned prism_s) {
  (void)prism_b; (void)prism_s;
  __shared__ uint32_t idx;
  if (prism_p == 0) idx = atomicAdd(const_cast<uint32_t*>(block_idx_counter), 1u);
  __syncthreads();
  uint32_t r = idx;
  __syncthreads();
  return r;
}
