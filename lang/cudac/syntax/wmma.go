package syntax

// wmmaText is our own C++ for <mma.h>'s warp matrix functions (CUDA C++
// Programming Guide, "Warp Matrix Functions"; namespace nvcuda::wmma,
// flattened like the other library namespaces): fragment, fill_fragment,
// load_matrix_sync, store_matrix_sync, mma_sync and __float_to_tf32, for
// the Guide's shapes and types: half and __nv_bfloat16 (m16n16k16,
// m32n8k16, m8n32k16, float or half accumulators), precision::tf32
// (m16n16k8, float), double (m8n8k4) and signed/unsigned char (the three
// half shapes, int accumulators).
//
// The Guide leaves the mapping of matrix elements to fragment elements
// unspecified; here lane l holds elements l*n .. l*n+n-1 of the row-major
// matrix (n = num_elements = rows*cols/32), so element-wise code over
// x[0..num_elements) means what it means on the GPU, and code that
// assumes a mapping does not get the hardware's by accident.
//
// Each function is warp-synchronous, as the Guide requires ("waits until
// all warp lanes have arrived"): load and store begin with __syncwarp(),
// which also orders the lanes' earlier shared-memory writes before the
// reads (the race checker sees the lane that reads each element), and
// mma_sync gathers the A and B fragments of all 32 lanes with
// __shfl_sync over the full mask, so a lane that does not take part is
// reported (C0630). Precision model, the same as the mma.sync model's
// (lang/cudac/ptx, doc.go): products exact, the K products added to C in
// k order in binary64, the sum rounded once to the accumulator type; a
// tf32 operand uses the top 19 bits of its binary32 pattern. Integer
// products accumulate in 32-bit int (wrapping).
const wmmaText = `#ifndef __WEFT_WMMA
#define __WEFT_WMMA
#include <cuda_fp16.h>
#include <cuda_bf16.h>
namespace nvcuda {
namespace wmma {
struct matrix_a {};
struct matrix_b {};
struct accumulator {};
struct row_major {};
struct col_major {};
namespace precision {
struct tf32 {};
}
enum layout_t { mem_row_major, mem_col_major };
template <class Use, int M, int N, int K, class T, class Layout = void> struct fragment;
template <int M, int N, int K, class L> struct fragment<matrix_a, M, N, K, tf32, L> {
	static const int num_elements = M * K / 32;
	float x[M * K / 32];
};
template <int M, int N, int K, class L> struct fragment<matrix_b, M, N, K, tf32, L> {
	static const int num_elements = K * N / 32;
	float x[K * N / 32];
};
template <int M, int N, int K, class T, class L> struct fragment<matrix_a, M, N, K, T, L> {
	static const int num_elements = M * K / 32;
	T x[M * K / 32];
};
template <int M, int N, int K, class T, class L> struct fragment<matrix_b, M, N, K, T, L> {
	static const int num_elements = K * N / 32;
	T x[K * N / 32];
};
template <int M, int N, int K, class T> struct fragment<accumulator, M, N, K, T, void> {
	static const int num_elements = M * N / 32;
	T x[M * N / 32];
};
__device__ inline unsigned __wmma_lane() {
	return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31;
}
__device__ inline float __float_to_tf32(float x) {
	unsigned u = __float_as_uint(x);
	if ((u >> 23 & 0xff) == 0xff) {
		if (u & 0x7fffff) return __uint_as_float((u & 0xffffe000) | 0x400000);
		return x;
	}
	return __uint_as_float((u + 0x1000) & 0xffffe000);
}
__device__ inline double __wmma_in(float v, tf32 *) { return (double)__uint_as_float(__float_as_uint(v) & 0xffffe000); }
__device__ inline double __wmma_in(__half v, __half *) { return (double)__half2float(v); }
__device__ inline double __wmma_in(__nv_bfloat16 v, __nv_bfloat16 *) { return (double)__bfloat162float(v); }
__device__ inline double __wmma_in(double v, double *) { return v; }
__device__ inline int __wmma_in(signed char v, signed char *) { return v; }
__device__ inline int __wmma_in(unsigned char v, unsigned char *) { return v; }
template <class U, int M, int N, int K, class T, class L, class V> __device__ void fill_fragment(fragment<U, M, N, K, T, L> &f, const V &v) {
	for (int i = 0; i < f.num_elements; i++) f.x[i] = v;
}
template <int M, int N, int K, class T, class P> __device__ void load_matrix_sync(fragment<matrix_a, M, N, K, T, row_major> &f, const P *p, unsigned ldm) {
	__syncwarp();
	unsigned l = __wmma_lane();
	for (int e = 0; e < M * K / 32; e++) { int i = l * (M * K / 32) + e; f.x[e] = p[(i / K) * ldm + i % K]; }
}
template <int M, int N, int K, class T, class P> __device__ void load_matrix_sync(fragment<matrix_a, M, N, K, T, col_major> &f, const P *p, unsigned ldm) {
	__syncwarp();
	unsigned l = __wmma_lane();
	for (int e = 0; e < M * K / 32; e++) { int i = l * (M * K / 32) + e; f.x[e] = p[(i % K) * ldm + i / K]; }
}
template <int M, int N, int K, class T, class P> __device__ void load_matrix_sync(fragment<matrix_b, M, N, K, T, row_major> &f, const P *p, unsigned ldm) {
	__syncwarp();
	unsigned l = __wmma_lane();
	for (int e = 0; e < K * N / 32; e++) { int i = l * (K * N / 32) + e; f.x[e] = p[(i / N) * ldm + i % N]; }
}
template <int M, int N, int K, class T, class P> __device__ void load_matrix_sync(fragment<matrix_b, M, N, K, T, col_major> &f, const P *p, unsigned ldm) {
	__syncwarp();
	unsigned l = __wmma_lane();
	for (int e = 0; e < K * N / 32; e++) { int i = l * (K * N / 32) + e; f.x[e] = p[(i % N) * ldm + i / N]; }
}
template <int M, int N, int K, class T, class P> __device__ void load_matrix_sync(fragment<accumulator, M, N, K, T, void> &f, const P *p, unsigned ldm, layout_t layout) {
	__syncwarp();
	unsigned l = __wmma_lane();
	for (int e = 0; e < M * N / 32; e++) {
		int i = l * (M * N / 32) + e;
		f.x[e] = layout == mem_row_major ? p[(i / N) * ldm + i % N] : p[(i % N) * ldm + i / N];
	}
}
template <int M, int N, int K, class T, class P> __device__ void store_matrix_sync(P *p, const fragment<accumulator, M, N, K, T, void> &f, unsigned ldm, layout_t layout) {
	__syncwarp();
	unsigned l = __wmma_lane();
	for (int e = 0; e < M * N / 32; e++) {
		int i = l * (M * N / 32) + e;
		if (layout == mem_row_major) p[(i / N) * ldm + i % N] = f.x[e];
		else p[(i % N) * ldm + i / N] = f.x[e];
	}
	__syncwarp();
}
template <int M, int N, int K, class TD, class TA, class LA, class TB, class LB, class TC> __device__ void mma_sync(fragment<accumulator, M, N, K, TD, void> &d, const fragment<matrix_a, M, N, K, TA, LA> &a, const fragment<matrix_b, M, N, K, TB, LB> &b, const fragment<accumulator, M, N, K, TC, void> &c) {
	unsigned l = __wmma_lane();
	double A[M * K];
	double B[K * N];
	for (int i = 0; i < M * K; i++) A[i] = __shfl_sync(0xffffffffu, __wmma_in(a.x[i % (M * K / 32)], (TA *)0), i / (M * K / 32));
	for (int i = 0; i < K * N; i++) B[i] = __shfl_sync(0xffffffffu, __wmma_in(b.x[i % (K * N / 32)], (TB *)0), i / (K * N / 32));
	for (int e = 0; e < M * N / 32; e++) {
		int i = l * (M * N / 32) + e;
		double s = (double)c.x[e];
		for (int k = 0; k < K; k++) s += A[(i / N) * K + k] * B[k * N + i % N];
		d.x[e] = (TD)s;
	}
}
}
}
#endif
`
