package syntax

// cudaPipelineText is our own C++ for libcu++'s <cuda/pipeline> (CUDA C++
// Programming Guide, "Asynchronous Data Copies using cuda::pipeline";
// libcu++'s extended API documentation for each function), over the
// cp.async and mbarrier instructions that sem's inline-PTX model keeps:
//
//   - cuda::memcpy_async(dst, src, size, pipe) is cp.async when dst is
//     shared memory, src global memory and the size and both addresses
//     allow 16-, 8- or 4-byte pieces; otherwise the copy is done at once,
//     as libcu++ falls back to a synchronous copy. cuda::aligned_size_t<N>
//     is the size it holds.
//   - A thread-scope pipeline (cuda::make_pipeline()) is the thread's
//     cp.async groups: producer_commit commits a stage
//     (cp.async.commit_group), consumer_wait waits for the oldest stage not
//     released (cp.async.wait_group with the number of younger stages),
//     consumer_release releases it; producer_acquire has nothing to wait
//     for. pipeline_consumer_wait_prior<N> waits for every stage but the
//     N youngest committed and releases those before them. Copies not yet
//     committed to a stage are in none, and no wait covers them (the
//     documentation: "operations committed to pipeline stages"), so
//     reading their destination is a race.
//   - A block-scope pipeline (make_pipeline(block, &shared_state[, role]))
//     keeps, per stage of its pipeline_shared_state<scope, N>, a full and
//     an empty mbarrier. producer_acquire waits for the stage's previous
//     round to be released (the empty barrier, expecting every consumer),
//     producer_commit is cp.async.mbarrier.arrive.noinc on the full
//     barrier (expecting every producer: it arrives when the producer's
//     copies complete), consumer_wait waits on the full barrier's phase of
//     the round, consumer_release arrives on the empty one. make_pipeline
//     is collective over the block: it counts the producers and consumers
//     (all threads are both without a role) and initializes the barriers.
//   - cuda::memcpy_async(dst, src, size, bar) with a cuda::barrier is the
//     same copy followed by cp.async.mbarrier.arrive on the barrier (which
//     adds the pending arrival itself), so bar.wait of the phase orders it.
//
// Not modeled: quit, the group (cooperative) forms of memcpy_async with a
// pipeline, and timed waits; a program that names them gets a no-member
// or undeclared-name error.
const cudaPipelineText = `#ifndef __WEFT_CUDA_PIPELINE
#define __WEFT_CUDA_PIPELINE
#include <__weft/cuda_barrier.h>
template <unsigned long N> struct aligned_size_t {
	unsigned long value;
	__host__ __device__ explicit aligned_size_t(unsigned long v) : value(v) {}
	__host__ __device__ operator unsigned long() const { return value; }
};
enum pipeline_role { producer, consumer };
template <int Scope, int N> struct pipeline_shared_state {
	unsigned long long __full[N];
	unsigned long long __empty[N];
	int __nprod, __ncons;
};
__device__ inline unsigned __weft_smem(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
__device__ inline void __weft_mbar_wait(unsigned long long *bar, unsigned parity) {
	asm volatile("{\n.reg .pred P1;\nWEFT_PIPE_WAIT:\nmbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n@!P1 bra WEFT_PIPE_WAIT;\n}" :: "r"(__weft_smem(bar)), "r"(parity) : "memory");
}
__device__ inline void __weft_cp_wait(int n) {
	switch (n <= 0 ? 0 : n) {
	case 0: asm volatile("cp.async.wait_group 0;" ::: "memory"); break;
	case 1: asm volatile("cp.async.wait_group 1;" ::: "memory"); break;
	case 2: asm volatile("cp.async.wait_group 2;" ::: "memory"); break;
	case 3: asm volatile("cp.async.wait_group 3;" ::: "memory"); break;
	case 4: asm volatile("cp.async.wait_group 4;" ::: "memory"); break;
	case 5: asm volatile("cp.async.wait_group 5;" ::: "memory"); break;
	case 6: asm volatile("cp.async.wait_group 6;" ::: "memory"); break;
	case 7: asm volatile("cp.async.wait_group 7;" ::: "memory"); break;
	default: asm volatile("cp.async.wait_group 8;" ::: "memory"); break;
	}
}
// __weft_copy_async issues the copy as cp.async pieces when it can, and
// reports whether it did; otherwise it copies at once.
__device__ inline int __weft_copy_async(void *dst, const void *src, unsigned long size) {
	unsigned long a = ((unsigned long)dst | (unsigned long)src | size);
	unsigned long piece = (a & 15) == 0 ? 16 : (a & 7) == 0 ? 8 : (a & 3) == 0 ? 4 : 0;
	if (piece == 0 || size == 0 || !__isShared(dst) || !__isGlobal(src)) {
		for (unsigned long i = 0; i < size; i++) ((char *)dst)[i] = ((const char *)src)[i];
		return 0;
	}
	for (unsigned long off = 0; off < size; off += piece) {
		unsigned d = __weft_smem((char *)dst + off);
		const char *s = (const char *)src + off;
		if (piece == 16) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(d), "l"(s) : "memory");
		else if (piece == 8) asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" :: "r"(d), "l"(s) : "memory");
		else asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" :: "r"(d), "l"(s) : "memory");
	}
	return 1;
}
template <int Scope> struct cuda::pipeline {
	unsigned __head, __tail, __n, __pad; // (no padding bytes: a copy reads only initialized ones)
	unsigned long long *__full, *__empty;
	__device__ void producer_acquire() {
		if (__full == 0) return;
		unsigned s = __tail % __n, round = __tail / __n;
		if (round > 0) __weft_mbar_wait(&__empty[s], (round - 1) & 1);
	}
	__device__ void producer_commit() {
		if (__full == 0) {
			asm volatile("cp.async.commit_group;" ::: "memory");
		} else {
			asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" :: "r"(__weft_smem(&__full[__tail % __n])) : "memory");
		}
		__tail++;
	}
	__device__ void consumer_wait() {
		if (__full == 0) {
			__weft_cp_wait((int)(__tail - __head) - 1);
			return;
		}
		__weft_mbar_wait(&__full[__head % __n], (__head / __n) & 1);
	}
	__device__ void consumer_release() {
		if (__full != 0) {
			unsigned long long st;
			asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;" : "=l"(st) : "r"(__weft_smem(&__empty[__head % __n])), "r"(1) : "memory");
		}
		__head++;
	}
};
template <int Unused = 0> __device__ cuda::pipeline<thread_scope_thread> make_pipeline() {
	cuda::pipeline<thread_scope_thread> p;
	p.__head = 0;
	p.__tail = 0;
	p.__full = 0;
	p.__empty = 0;
	p.__n = 0;
	p.__pad = 0;
	return p;
}
template <int S, int N> __device__ cuda::pipeline<S> __weft_make_block_pipeline(const cooperative_groups::thread_block &g, pipeline_shared_state<S, N> *st, int role) {
	if (g.thread_rank() == 0) {
		st->__nprod = 0;
		st->__ncons = 0;
	}
	g.sync();
	if (role != consumer) atomicAdd(&st->__nprod, 1);
	if (role != producer) atomicAdd(&st->__ncons, 1);
	g.sync();
	if (g.thread_rank() == 0)
		for (int i = 0; i < N; i++) {
			asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(__weft_smem(&st->__full[i])), "r"(st->__nprod) : "memory");
			asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(__weft_smem(&st->__empty[i])), "r"(st->__ncons) : "memory");
		}
	g.sync();
	cuda::pipeline<S> p;
	p.__head = 0;
	p.__tail = 0;
	p.__full = st->__full;
	p.__empty = st->__empty;
	p.__n = N;
	p.__pad = 0;
	return p;
}
template <int S, int N> __device__ cuda::pipeline<S> make_pipeline(const cooperative_groups::thread_block &g, pipeline_shared_state<S, N> *st, pipeline_role role) {
	return __weft_make_block_pipeline(g, st, (int)role);
}
template <int S, int N> __device__ cuda::pipeline<S> make_pipeline(const cooperative_groups::thread_block &g, pipeline_shared_state<S, N> *st) {
	return __weft_make_block_pipeline(g, st, 2);
}
template <int S> __device__ void memcpy_async(void *dst, const void *src, unsigned long size, cuda::pipeline<S> &p) {
	__weft_copy_async(dst, src, size);
}
template <int S> __device__ void memcpy_async(void *dst, const void *src, unsigned long size, cuda::barrier<S> &b) {
	if (__weft_copy_async(dst, src, size))
		asm volatile("cp.async.mbarrier.arrive.shared::cta.b64 [%0];" :: "r"(__weft_smem(&b.__weft_word)) : "memory");
}
template <int Prior> __device__ void pipeline_consumer_wait_prior(cuda::pipeline<thread_scope_thread> &p) {
	__weft_cp_wait(Prior);
	p.__head = p.__tail - Prior;
}
#endif
`
