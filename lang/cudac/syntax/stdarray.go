package syntax

// stdArrayText is our own C++ for <array> (C++17 [array]): std::array<T,
// N> is an aggregate holding T[N] (so "std::array<int, 3> a = {1, 2, 3};"
// initializes it by brace elision), with operator[] and at() (at() past
// the end throws std::out_of_range, as [array.overview] via
// [sequence.reqmts] says), front, back, data, begin and end (pointers to
// the elements: range for works), size, max_size, empty and fill. Its
// members are __host__ __device__ (in CUDA they are constexpr, which nvcc
// lets device code call with --expt-relaxed-constexpr). The name keeps its
// std:: qualifier (resolveScopes), so a program's own variable or
// function named array is untouched; unqualified after using namespace
// std it is not this class.
const stdArrayText = `#ifndef __WEFT_ARRAY
#define __WEFT_ARRAY
#include <__weft/stdexcept.h>
template <class T, int N> struct std::array {
	T __weft_elems[N];
	__host__ __device__ T &operator[](unsigned long i) { return __weft_elems[i]; }
	__host__ __device__ const T &operator[](unsigned long i) const { return __weft_elems[i]; }
	T &at(unsigned long i) {
		if (i >= (unsigned long)N) throw std::out_of_range("array::at");
		return __weft_elems[i];
	}
	const T &at(unsigned long i) const {
		if (i >= (unsigned long)N) throw std::out_of_range("array::at");
		return __weft_elems[i];
	}
	__host__ __device__ T &front() { return __weft_elems[0]; }
	__host__ __device__ const T &front() const { return __weft_elems[0]; }
	__host__ __device__ T &back() { return __weft_elems[N - 1]; }
	__host__ __device__ const T &back() const { return __weft_elems[N - 1]; }
	__host__ __device__ T *data() { return __weft_elems; }
	__host__ __device__ const T *data() const { return __weft_elems; }
	__host__ __device__ T *begin() { return __weft_elems; }
	__host__ __device__ const T *begin() const { return __weft_elems; }
	__host__ __device__ T *end() { return __weft_elems + N; }
	__host__ __device__ const T *end() const { return __weft_elems + N; }
	__host__ __device__ unsigned long size() const { return N; }
	__host__ __device__ unsigned long max_size() const { return N; }
	__host__ __device__ bool empty() const { return N == 0; }
	__host__ __device__ void fill(const T &v) { for (int i = 0; i < N; i++) __weft_elems[i] = v; }
};
#endif
`
