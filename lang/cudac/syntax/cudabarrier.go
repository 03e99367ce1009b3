package syntax

// cudaBarrierText is our own C++ for libcu++'s <cuda/barrier> (CUDA C++
// Programming Guide, "Asynchronous Barrier"): cuda::barrier<Scope> over
// the mbarrier that sem's inline-PTX model keeps (lang/cudac/sem/asm.go):
// init(&b, n) is mbarrier.init with n expected arrivals, b.arrive() an
// mbarrier.arrive returning the phase as its arrival token,
// b.wait(token) a try_wait on that phase's parity (blocking until the
// phase completes; a phase that cannot complete is a deadlock, C0502),
// arrive_and_wait both. The barrier must be in shared memory, where an
// mbarrier lives (block scope; a barrier elsewhere is the model's C0403).
// The token is a plain integer, so the default copy of it does what
// std::move does.
const cudaBarrierText = `#ifndef __WEFT_CUDA_BARRIER
#define __WEFT_CUDA_BARRIER
#include <__weft/pair.h>
enum __weft_thread_scope { thread_scope_system = 0, thread_scope_device = 1, thread_scope_block = 2, thread_scope_thread = 3 };
template <int Scope> struct cuda::barrier {
	unsigned long long __weft_word;
	__device__ unsigned long long arrive(int n = 1) {
		unsigned long long st;
		asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;" : "=l"(st) : "r"((unsigned)__cvta_generic_to_shared(&__weft_word)), "r"(n) : "memory");
		return st;
	}
	__device__ void wait(unsigned long long st) {
		asm volatile("{\n.reg .pred P1;\nWEFT_BAR_WAIT:\nmbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n@!P1 bra WEFT_BAR_WAIT;\n}" :: "r"((unsigned)__cvta_generic_to_shared(&__weft_word)), "r"((unsigned)(st & 1)) : "memory");
	}
	__device__ void arrive_and_wait() { wait(arrive(1)); }
};
template <class B> __device__ void init(B *b, int expected) {
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(&b->__weft_word)), "r"(expected) : "memory");
}
#endif
`
