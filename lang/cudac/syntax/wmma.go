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
__device__ inline double __wmma_acc(__half v) { return (double)__half2float(v); }
__device__ inline double __wmma_acc(float v) { return v; }
__device__ inline double __wmma_acc(double v) { return v; }
__device__ inline double __wmma_acc(int v) { return v; }
__device__ inline int __wmma_tcode(__half *) { return 1; }
__device__ inline int __wmma_tcode(__nv_bfloat16 *) { return 2; }
__device__ inline int __wmma_tcode(tf32 *) { return 3; }
__device__ inline int __wmma_tcode(float *) { return 4; }
__device__ inline int __wmma_tcode(double *) { return 5; }
__device__ inline int __wmma_tcode(signed char *) { return 6; }
__device__ inline int __wmma_tcode(unsigned char *) { return 7; }
__device__ inline int __wmma_tcode(int *) { return 8; }
__device__ inline unsigned __wmma_bits(__half v) { return __half_as_ushort(v); }
__device__ inline unsigned __wmma_bits(__nv_bfloat16 v) { return __bfloat16_as_ushort(v); }
__device__ inline unsigned __wmma_bits(float v) { return __float_as_uint(v); }
__device__ inline unsigned __wmma_bits(double v) { return 0; }
__device__ inline unsigned __wmma_bits(signed char v) { return (unsigned char)v; }
__device__ inline unsigned __wmma_bits(unsigned char v) { return v; }
__device__ inline unsigned __wmma_bits(int v) { return (unsigned)v; }
// __wmma_mmalayout: whether fragment kind (0: A, 1: B, 2: accumulator)
// of shape M x N x K and element type code tc is laid out as the
// mma.sync fragments it is computed by (m16n8k16 for half and bf16,
// m16n8k8 for tf32, f32 accumulators): see __wmma_rc
__device__ inline int __wmma_mmalayout(int kind, int M, int N, int K, int tc) {
	int s16 = M == 16 && N == 16 && K == 16 || M == 32 && N == 8 && K == 16;
	int s8 = M == 16 && N == 16 && K == 8;
	if (kind == 2) return tc == 4 && (s16 || s8);
	return (tc == 1 || tc == 2) && s16 || tc == 3 && s8;
}
// __wmma_rc: the row and column of element e of lane's fragment (kind, shape,
// type code tc): the PTX ISA's mma.m16n8k16 / m16n8k8 fragment layouts
// (ptx.md 1.1-1.3; g = lane / 4, t = lane % 4) block by block where
// __wmma_mmalayout holds, else lane-major over the row-major matrix
__device__ inline void __wmma_rc(int kind, int M, int N, int K, int tc, unsigned lane, int e, int *r, int *c) {
	int rows = kind == 1 ? K : M, cols = kind == 0 ? K : N;
	if (!__wmma_mmalayout(kind, M, N, K, tc)) {
		int i = lane * (rows * cols / 32) + e;
		*r = i / cols;
		*c = i % cols;
		return;
	}
	int g = lane >> 2, t = lane & 3;
	if (kind == 0) {
		int per = tc == 3 ? 4 : 8, blk = e / per, x = e % per;
		if (tc == 3) { *r = 16 * blk + g + 8 * (x & 1); *c = t + 4 * (x >> 1); }
		else { int j = x >> 1; *r = 16 * blk + g + 8 * (j & 1); *c = 2 * t + (x & 1) + 8 * (j >> 1); }
	} else if (kind == 1) {
		int per = tc == 3 ? 2 : 4, blk = e / per, x = e % per;
		if (tc == 3) { *r = t + 4 * x; *c = 8 * blk + g; }
		else { *r = 2 * t + (x & 1) + 8 * (x >> 1); *c = 8 * blk + g; }
	} else {
		int blk = e / 4, i = e % 4, nb = N / 8;
		*r = 16 * (blk / nb) + g + 8 * (i >> 1);
		*c = 8 * (blk % nb) + 2 * t + (i & 1);
	}
}
template <class U, int M, int N, int K, class T, class L, class V> __device__ void fill_fragment(fragment<U, M, N, K, T, L> &f, const V &v) {
	for (int i = 0; i < f.num_elements; i++) f.x[i] = v;
}
template <int M, int N, int K, class T, class P> __device__ void load_matrix_sync(fragment<matrix_a, M, N, K, T, row_major> &f, const P *p, unsigned ldm) {
	__syncwarp();
	unsigned l = __wmma_lane();
	int r, c;
	for (int e = 0; e < M * K / 32; e++) { __wmma_rc(0, M, N, K, __wmma_tcode((T *)0), l, e, &r, &c); f.x[e] = p[r * ldm + c]; }
}
template <int M, int N, int K, class T, class P> __device__ void load_matrix_sync(fragment<matrix_a, M, N, K, T, col_major> &f, const P *p, unsigned ldm) {
	__syncwarp();
	unsigned l = __wmma_lane();
	int r, c;
	for (int e = 0; e < M * K / 32; e++) { __wmma_rc(0, M, N, K, __wmma_tcode((T *)0), l, e, &r, &c); f.x[e] = p[c * ldm + r]; }
}
template <int M, int N, int K, class T, class P> __device__ void load_matrix_sync(fragment<matrix_b, M, N, K, T, row_major> &f, const P *p, unsigned ldm) {
	__syncwarp();
	unsigned l = __wmma_lane();
	int r, c;
	for (int e = 0; e < K * N / 32; e++) { __wmma_rc(1, M, N, K, __wmma_tcode((T *)0), l, e, &r, &c); f.x[e] = p[r * ldm + c]; }
}
template <int M, int N, int K, class T, class P> __device__ void load_matrix_sync(fragment<matrix_b, M, N, K, T, col_major> &f, const P *p, unsigned ldm) {
	__syncwarp();
	unsigned l = __wmma_lane();
	int r, c;
	for (int e = 0; e < K * N / 32; e++) { __wmma_rc(1, M, N, K, __wmma_tcode((T *)0), l, e, &r, &c); f.x[e] = p[c * ldm + r]; }
}
template <int M, int N, int K, class T, class P> __device__ void load_matrix_sync(fragment<accumulator, M, N, K, T, void> &f, const P *p, unsigned ldm, layout_t layout) {
	__syncwarp();
	unsigned l = __wmma_lane();
	int r, c;
	for (int e = 0; e < M * N / 32; e++) {
		__wmma_rc(2, M, N, K, __wmma_tcode((T *)0), l, e, &r, &c);
		f.x[e] = layout == mem_row_major ? p[r * ldm + c] : p[c * ldm + r];
	}
}
template <int M, int N, int K, class T, class P> __device__ void store_matrix_sync(P *p, const fragment<accumulator, M, N, K, T, void> &f, unsigned ldm, layout_t layout) {
	__syncwarp();
	unsigned l = __wmma_lane();
	int r, c;
	for (int e = 0; e < M * N / 32; e++) {
		__wmma_rc(2, M, N, K, __wmma_tcode((T *)0), l, e, &r, &c);
		if (layout == mem_row_major) p[r * ldm + c] = f.x[e];
		else p[c * ldm + r] = f.x[e];
	}
	__syncwarp();
}
// the mma.sync instructions the fast path issues (lang/cudac/ptx models them)
__device__ inline void __wmma_mma(float *d, const unsigned *a, const unsigned *b, int tc) {
	if (tc == 1)
		asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
		             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
	else if (tc == 2)
		asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
		             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
	else
		asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
		             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}
template <int M, int N, int K, class TD, class TA, class LA, class TB, class LB, class TC> __device__ void mma_sync(fragment<accumulator, M, N, K, TD, void> &d, const fragment<matrix_a, M, N, K, TA, LA> &a, const fragment<matrix_b, M, N, K, TB, LB> &b, const fragment<accumulator, M, N, K, TC, void> &c) {
	unsigned l = __wmma_lane();
	int ta = __wmma_tcode((TA *)0), tb = __wmma_tcode((TB *)0), tcc = __wmma_tcode((TC *)0), td = __wmma_tcode((TD *)0);
	if (ta == tb && __wmma_mmalayout(0, M, N, K, ta) && __wmma_mmalayout(2, M, N, K, tcc) && __wmma_mmalayout(2, M, N, K, td)) {
		// the fragments are the mma.sync fragments: one instruction per
		// 16 x 8 block of D, over A's 16-row block and B's 8-column block
		int half = ta != 3, ar = half ? 8 : 4, br = half ? 4 : 2;
		for (int mb = 0; mb < M / 16; mb++)
			for (int nb = 0; nb < N / 8; nb++) {
				unsigned ra[4], rb[2];
				float acc[4];
				for (int j = 0; j < 4; j++)
					ra[j] = half ? __wmma_bits(a.x[mb * ar + 2 * j]) | __wmma_bits(a.x[mb * ar + 2 * j + 1]) << 16 : __wmma_bits(a.x[mb * ar + j]);
				for (int j = 0; j < 2; j++)
					rb[j] = half ? __wmma_bits(b.x[nb * br + 2 * j]) | __wmma_bits(b.x[nb * br + 2 * j + 1]) << 16 : __wmma_bits(b.x[nb * br + j]);
				int blk = mb * (N / 8) + nb;
				for (int i = 0; i < 4; i++) acc[i] = c.x[4 * blk + i];
				__wmma_mma(acc, ra, rb, ta);
				for (int i = 0; i < 4; i++) d.x[4 * blk + i] = acc[i];
			}
		return;
	}
	int nd = M * N / 32, na = M * K / 32, nb = K * N / 32;
	if (!__wmma_mmalayout(0, M, N, K, ta) && !__wmma_mmalayout(1, M, N, K, tb) && !__wmma_mmalayout(2, M, N, K, td) &&
	    __wmma_mmalayout(2, M, N, K, tcc) == __wmma_mmalayout(2, M, N, K, td) && N % nd == 0) {
		// lane-major A, B and D, a lane's D elements within one row of
		// D: each lane gathers only A's row and B's columns it needs,
		// over the full mask (a source lane range per row of A and per
		// k of B; the loop bounds are the largest over the warp, so every
		// lane takes part in every shuffle)
		int r0 = l * nd / N, c0 = l * nd % N;
		int spanA = 0, spanB = 0;
		for (int q = 0; q < 32; q++) {
			int qr = q * nd / N, qc = q * nd % N;
			int sa = ((qr + 1) * K - 1) / na - qr * K / na + 1;
			spanA = sa > spanA ? sa : spanA;
			for (int k = 0; k < K; k++) {
				int sb = (k * N + qc + nd - 1) / nb - (k * N + qc) / nb + 1;
				spanB = sb > spanB ? sb : spanB;
			}
		}
		double Ar[K];
		double Bc[K * (M * N / 32)];
		int a0 = r0 * K / na;
		for (int j = 0; j < spanA; j++)
			for (int e = 0; e < na; e++) {
				int src = a0 + j < 32 ? a0 + j : 31;
				double v = __shfl_sync(0xffffffffu, __wmma_in(a.x[e], (TA *)0), src);
				int idx = src * na + e - r0 * K;
				if (idx >= 0 && idx < K) Ar[idx] = v;
			}
		for (int k = 0; k < K; k++) {
			int b0 = (k * N + c0) / nb;
			for (int j = 0; j < spanB; j++)
				for (int e = 0; e < nb; e++) {
					int src = b0 + j < 32 ? b0 + j : 31;
					double v = __shfl_sync(0xffffffffu, __wmma_in(b.x[e], (TB *)0), src);
					int idx = src * nb + e - (k * N + c0);
					if (idx >= 0 && idx < nd) Bc[k * nd + idx] = v;
				}
		}
		for (int e = 0; e < nd; e++) {
			double s = __wmma_acc(c.x[e]);
			for (int k = 0; k < K; k++) s += Ar[k] * Bc[k * nd + e];
			d.x[e] = (TD)s;
		}
		return;
	}
	// any other shape or type: every lane gathers A and B over the full
	// mask (each element from the lane that holds it) and computes its own
	// elements of D
	double A[M * K];
	double B[K * N];
	int r, cc;
	for (int i = 0; i < M * K; i++) {
		int src = i / (M * K / 32), e = i % (M * K / 32);
		__wmma_rc(0, M, N, K, ta, src, e, &r, &cc);
		A[r * K + cc] = __shfl_sync(0xffffffffu, __wmma_in(a.x[e], (TA *)0), src);
	}
	for (int i = 0; i < K * N; i++) {
		int src = i / (K * N / 32), e = i % (K * N / 32);
		__wmma_rc(1, M, N, K, tb, src, e, &r, &cc);
		B[r * N + cc] = __shfl_sync(0xffffffffu, __wmma_in(b.x[e], (TB *)0), src);
	}
	// a C whose layout differs from D's (a float and a half
	// accumulator) is gathered too
	int same = __wmma_mmalayout(2, M, N, K, tcc) == __wmma_mmalayout(2, M, N, K, td);
	double Cm[M * N];
	if (!same)
		for (int i = 0; i < M * N; i++) {
			int src = i / (M * N / 32), e = i % (M * N / 32);
			__wmma_rc(2, M, N, K, tcc, src, e, &r, &cc);
			Cm[r * N + cc] = __shfl_sync(0xffffffffu, __wmma_acc(c.x[e]), src);
		}
	for (int e = 0; e < M * N / 32; e++) {
		__wmma_rc(2, M, N, K, td, l, e, &r, &cc);
		double s = same ? __wmma_acc(c.x[e]) : Cm[r * N + cc];
		for (int k = 0; k < K; k++) s += A[r * K + k] * B[k * N + cc];
		d.x[e] = (TD)s;
	}
}
}
}
#endif
`
