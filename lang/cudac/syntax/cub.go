package syntax

// cubText is our own C++ for a subset of CUB's block- and warp-wide
// collectives (namespace cub; CUB's documentation of each class), the
// forms kernels use most: BlockReduce<T, BLOCK_DIM_X[, ALGORITHM,
// BLOCK_DIM_Y, BLOCK_DIM_Z]> (Sum, Sum of the first num_valid threads,
// Reduce with cub::Sum, cub::Max or cub::Min, or CUDA 13's
// cuda::maximum<> and cuda::minimum<>), BlockScan<T, BLOCK_DIM_X
// ...> (InclusiveSum and ExclusiveSum, with the block's aggregate), and
// WarpReduce<T[, LOGICAL_WARP_THREADS]> (Sum and Reduce, with the same
// operators), each over its
// TempStorage (typename BlockReduce::TempStorage in shared memory).
//
// The contracts are CUB's: the aggregate of a reduction is valid in
// thread 0 (lane 0 of a logical warp) only; every thread of the block
// (warp) must call the collective; the temporary storage is reused only
// after a __syncthreads() (the race checker reports a reuse without one,
// as CUB's documentation requires the barrier). The block collectives
// write each thread's input into the storage and read it back after a
// __syncthreads(); floating-point sums are added in thread-rank order
// (CUB's own order differs by algorithm and is unspecified, so the last
// bits of a float sum can differ from a GPU's). WarpReduce combines
// lanes with __shfl_down_sync over the logical warp, as CUB's shuffle
// reduction does. Not modeled: the rest of CUB (device-wide algorithms,
// BlockLoad/Store, radix sort, ...), and Reduce with other operators
// (member templates of class templates are not supported): a use of
// another cub:: name is C0309 naming it (cxx.go, cubModeled).
const cubText = `#ifndef __WEFT_CUB
#define __WEFT_CUB
#include <__weft/cuda_functional.h>
namespace cub {
enum BlockReduceAlgorithm { BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY, BLOCK_REDUCE_RAKING, BLOCK_REDUCE_WARP_REDUCTIONS };
enum BlockScanAlgorithm { BLOCK_SCAN_RAKING, BLOCK_SCAN_RAKING_MEMOIZE, BLOCK_SCAN_WARP_SCANS };
struct Sum {
	template <class T> __host__ __device__ T operator()(const T &a, const T &b) const { return a + b; }
};
struct Max {
	template <class T> __host__ __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
struct Min {
	template <class T> __host__ __device__ T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <typename T, int N> struct __weft_cub_block_storage {
	T data[N];
	T agg;
};
template <typename T> struct __weft_cub_warp_storage {
	T unused;
};
template <typename T, int BLOCK_DIM_X, int ALGORITHM = 2, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1> class BlockReduce {
public:
	typedef __weft_cub_block_storage<T, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z> TempStorage;
	TempStorage *__s;
	__device__ BlockReduce(TempStorage &s) : __s(&s) {}
	__device__ int __rank() const { return threadIdx.x + BLOCK_DIM_X * (threadIdx.y + BLOCK_DIM_Y * threadIdx.z); }
	__device__ T __fold(T v, int n, int op) {
		int r = __rank();
		__s->data[r] = v;
		__syncthreads();
		if (r != 0) return v;
		T a = __s->data[0];
		for (int i = 1; i < n; i++) {
			T b = __s->data[i];
			a = op == 0 ? a + b : op == 1 ? (a < b ? b : a) : (b < a ? b : a);
		}
		return a;
	}
	__device__ T Sum(T v) { return __fold(v, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, 0); }
	__device__ T Sum(T v, int num_valid) { return __fold(v, num_valid, 0); }
	__device__ T Reduce(T v, Sum op) { return __fold(v, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, 0); }
	__device__ T Reduce(T v, Max op) { return __fold(v, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, 1); }
	__device__ T Reduce(T v, Min op) { return __fold(v, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, 2); }
	__device__ T Reduce(T v, Sum op, int num_valid) { return __fold(v, num_valid, 0); }
	__device__ T Reduce(T v, Max op, int num_valid) { return __fold(v, num_valid, 1); }
	__device__ T Reduce(T v, Min op, int num_valid) { return __fold(v, num_valid, 2); }
	__device__ T Reduce(T v, cuda::maximum<> op) { return __fold(v, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, 1); }
	__device__ T Reduce(T v, cuda::minimum<> op) { return __fold(v, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z, 2); }
	__device__ T Reduce(T v, cuda::maximum<> op, int num_valid) { return __fold(v, num_valid, 1); }
	__device__ T Reduce(T v, cuda::minimum<> op, int num_valid) { return __fold(v, num_valid, 2); }
};
template <typename T, int BLOCK_DIM_X, int ALGORITHM = 0, int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1> class BlockScan {
public:
	typedef __weft_cub_block_storage<T, BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z> TempStorage;
	TempStorage *__s;
	__device__ BlockScan(TempStorage &s) : __s(&s) {}
	__device__ int __rank() const { return threadIdx.x + BLOCK_DIM_X * (threadIdx.y + BLOCK_DIM_Y * threadIdx.z); }
	__device__ void __scan(T in, T &out, T &agg, int inclusive) {
		int r = __rank(), n = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
		__s->data[r] = in;
		__syncthreads();
		T a = T();
		for (int i = 0; i < r; i++) a = a + __s->data[i];
		out = inclusive ? a + in : a;
		T t = T();
		for (int i = 0; i < n; i++) t = t + __s->data[i];
		agg = t;
	}
	__device__ void InclusiveSum(T in, T &out) { T agg; __scan(in, out, agg, 1); }
	__device__ void ExclusiveSum(T in, T &out) { T agg; __scan(in, out, agg, 0); }
	__device__ void InclusiveSum(T in, T &out, T &aggregate) { __scan(in, out, aggregate, 1); }
	__device__ void ExclusiveSum(T in, T &out, T &aggregate) { __scan(in, out, aggregate, 0); }
};
template <typename T, int LOGICAL_WARP_THREADS = 32> class WarpReduce {
public:
	typedef __weft_cub_warp_storage<T> TempStorage;
	__device__ WarpReduce(TempStorage &s) {}
	__device__ unsigned __mask() const {
		unsigned lane = (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31;
		unsigned base = lane / LOGICAL_WARP_THREADS * LOGICAL_WARP_THREADS;
		return LOGICAL_WARP_THREADS == 32 ? 0xffffffffu : ((1u << LOGICAL_WARP_THREADS) - 1) << base;
	}
	__device__ T __fold(T v, int op) {
		unsigned m = __mask();
		for (int d = LOGICAL_WARP_THREADS / 2; d > 0; d /= 2) {
			T b = __shfl_down_sync(m, v, d, LOGICAL_WARP_THREADS);
			v = op == 0 ? v + b : op == 1 ? (v < b ? b : v) : (b < v ? b : v);
		}
		return v;
	}
	__device__ T Sum(T v) { return __fold(v, 0); }
	__device__ T Reduce(T v, Sum op) { return __fold(v, 0); }
	__device__ T Reduce(T v, Max op) { return __fold(v, 1); }
	__device__ T Reduce(T v, Min op) { return __fold(v, 2); }
	__device__ T Reduce(T v, cuda::maximum<> op) { return __fold(v, 1); }
	__device__ T Reduce(T v, cuda::minimum<> op) { return __fold(v, 2); }
};
}
#endif
`

// cudaFunctionalText is our own C++ for the part of libcu++'s
// <cuda/functional> that replaced CUB's operators in CUDA 13 (CCCL 3.0
// removed cub::Max and cub::Min): cuda::maximum<T> and cuda::minimum<T>,
// whose void specialization (cuda::maximum<>) compares any one type. CUB's
// Reduce (above) takes cuda::maximum<> and cuda::minimum<>; a typed
// cuda::maximum<int> is a plain function object there.
const cudaFunctionalText = `#ifndef __WEFT_CUDA_FUNCTIONAL
#define __WEFT_CUDA_FUNCTIONAL
template <class T = void> struct cuda::maximum {
	__host__ __device__ T operator()(const T &a, const T &b) const { return a < b ? b : a; }
};
template <> struct cuda::maximum<void> {
	template <class U> __host__ __device__ U operator()(const U &a, const U &b) const { return a < b ? b : a; }
};
template <class T = void> struct cuda::minimum {
	__host__ __device__ T operator()(const T &a, const T &b) const { return b < a ? b : a; }
};
template <> struct cuda::minimum<void> {
	template <class U> __host__ __device__ U operator()(const U &a, const U &b) const { return b < a ? b : a; }
};
#endif
`
