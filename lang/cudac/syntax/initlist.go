package syntax

// initListText is our own C++ for <initializer_list> (C++17
// [support.initlist]): std::initializer_list<E> is a pointer to the
// elements and their count, with size, begin and end. sem builds one from
// a braced list where one is initialized (a parameter, a variable, a
// constructor that takes one: lang/cudac/sem/braces.go), the elements in
// a temporary array that lives as long as the list's full expression (a
// call's arguments) needs it. Only the qualified name
// std::initializer_list names it.
const initListText = `#ifndef __WEFT_INITLIST
#define __WEFT_INITLIST
template <class E> struct std::initializer_list {
	const E *__weft_b;
	unsigned long __weft_n;
	__host__ __device__ unsigned long size() const { return __weft_n; }
	__host__ __device__ const E *begin() const { return __weft_b; }
	__host__ __device__ const E *end() const { return __weft_b + __weft_n; }
};
#endif
`
