package syntax

// algorithmText is our own C++ for the <algorithm> and <numeric>
// functions that take a callable (a lambda, a function object, a function
// pointer) or work on elements of any type, C++ [algorithms] and
// [numeric.ops]: ordinary function templates over pointer ranges (the
// interpreter's std::vector iterators are pointers), compiled to bytecode
// like the program's own templates, so that a comparator or predicate is
// an ordinary call from them and every element access is checked (bounds,
// races) where it happens. lang/cudac/sem/lib_algorithm.go maps std::NAME
// to __std_NAME when a call needs one of them; the plain scalar forms of
// sort, min_element, max_element and accumulate stay built in.
//
// Sorting is a bottom-up merge sort: stable (what std::stable_sort
// promises and std::sort allows), O(n log n) comparisons, elements moved
// as bytes (a permutation: each moves once, so a member std::string
// moves with its buffer).
const algorithmText = `#ifndef __WEFT_ALGORITHM
#define __WEFT_ALGORITHM
template <typename T, typename C> void __std_sort(T *first, T *last, C comp) {
	long n = last - first;
	if (n < 2)
		return;
	T *buf = (T *)malloc(n * sizeof(T));
	for (long w = 1; w < n; w *= 2) {
		for (long lo = 0; lo < n; lo += 2 * w) {
			long mid = lo + w < n ? lo + w : n;
			long hi = lo + 2 * w < n ? lo + 2 * w : n;
			long i = lo, j = mid, k = lo;
			while (i < mid && j < hi) {
				if (comp(first[j], first[i]))
					memcpy(buf + k++, first + j++, sizeof(T));
				else
					memcpy(buf + k++, first + i++, sizeof(T));
			}
			if (i < mid)
				memcpy(buf + k, first + i, (mid - i) * sizeof(T));
			if (j < hi)
				memcpy(buf + k + (mid - i), first + j, (hi - j) * sizeof(T));
		}
		memcpy(first, buf, n * sizeof(T));
	}
	free(buf);
}
template <typename A> struct __std_lt {
	bool operator()(const A &a, const A &b) const { return a < b; }
};
template <typename A> struct __std_gt {
	bool operator()(const A &a, const A &b) const { return a > b; }
};
template <typename A> __std_lt<A> __std_make_less() { return __std_lt<A>(); }
template <typename A> __std_gt<A> __std_make_greater() { return __std_gt<A>(); }
template <typename A> __std_lt<A> __std_less_for(A *) { return __std_lt<A>(); }
template <typename A> __std_gt<A> __std_greater_for(A *) { return __std_gt<A>(); }
template <typename T> void __std_sort_lt(T *first, T *last) { __std_sort(first, last, __std_lt<T>()); }
template <typename T, typename C> T *__std_min_element(T *first, T *last, C comp) {
	if (first == last)
		return last;
	T *best = first;
	for (T *p = first + 1; p != last; ++p)
		if (comp(*p, *best))
			best = p;
	return best;
}
template <typename T, typename C> T *__std_max_element(T *first, T *last, C comp) {
	if (first == last)
		return last;
	T *best = first;
	for (T *p = first + 1; p != last; ++p)
		if (comp(*best, *p))
			best = p;
	return best;
}
template <typename T> T *__std_min_element_lt(T *first, T *last) { return __std_min_element(first, last, __std_lt<T>()); }
template <typename T> T *__std_max_element_lt(T *first, T *last) { return __std_max_element(first, last, __std_lt<T>()); }
template <typename T, typename P> T *__std_find_if(T *first, T *last, P pred) {
	for (; first != last; ++first)
		if (pred(*first))
			return first;
	return last;
}
template <typename T, typename P> T *__std_find_if_not(T *first, T *last, P pred) {
	for (; first != last; ++first)
		if (!pred(*first))
			return first;
	return last;
}
template <typename T, typename V> T *__std_find(T *first, T *last, const V &v) {
	for (; first != last; ++first)
		if (*first == v)
			return first;
	return last;
}
template <typename T, typename P> long __std_count_if(T *first, T *last, P pred) {
	long n = 0;
	for (; first != last; ++first)
		if (pred(*first))
			n++;
	return n;
}
template <typename T, typename V> long __std_count(T *first, T *last, const V &v) {
	long n = 0;
	for (; first != last; ++first)
		if (*first == v)
			n++;
	return n;
}
template <typename T, typename P> bool __std_any_of(T *first, T *last, P pred) {
	for (; first != last; ++first)
		if (pred(*first))
			return true;
	return false;
}
template <typename T, typename P> bool __std_all_of(T *first, T *last, P pred) {
	for (; first != last; ++first)
		if (!pred(*first))
			return false;
	return true;
}
template <typename T, typename P> bool __std_none_of(T *first, T *last, P pred) {
	for (; first != last; ++first)
		if (pred(*first))
			return false;
	return true;
}
template <typename T, typename F> F __std_for_each(T *first, T *last, F f) {
	for (; first != last; ++first)
		f(*first);
	return f;
}
template <typename T, typename U, typename F> U *__std_transform(T *first, T *last, U *out, F f) {
	for (; first != last; ++first, ++out)
		*out = f(*first);
	return out;
}
template <typename T, typename T2, typename U, typename F> U *__std_transform2(T *first, T *last, T2 *first2, U *out, F f) {
	for (; first != last; ++first, ++first2, ++out)
		*out = f(*first, *first2);
	return out;
}
template <typename T, typename P> T *__std_remove_if(T *first, T *last, P pred) {
	T *out = first;
	for (; first != last; ++first)
		if (!pred(*first)) {
			if (out != first)
				*out = *first;
			++out;
		}
	return out;
}
template <typename T, typename V> T *__std_remove(T *first, T *last, const V &v) {
	T *out = first;
	for (; first != last; ++first)
		if (!(*first == v)) {
			if (out != first)
				*out = *first;
			++out;
		}
	return out;
}
template <typename T, typename F> void __std_generate(T *first, T *last, F f) {
	for (; first != last; ++first)
		*first = f();
}
template <typename T, typename N, typename F> T *__std_generate_n(T *first, N n, F f) {
	for (; n > 0; --n, ++first)
		*first = f();
	return first;
}
template <typename T, typename V> void __std_fill(T *first, T *last, const V &v) {
	for (; first != last; ++first)
		*first = v;
}
template <typename T, typename U> U *__std_copy(T *first, T *last, U *out) {
	for (; first != last; ++first, ++out)
		*out = *first;
	return out;
}
template <typename T, typename U, typename P> U *__std_copy_if(T *first, T *last, U *out, P pred) {
	for (; first != last; ++first)
		if (pred(*first)) {
			*out = *first;
			++out;
		}
	return out;
}
template <typename T> void __std_reverse(T *first, T *last) {
	while (first != last && first != --last) {
		T tmp = *first;
		*first = *last;
		*last = tmp;
		++first;
	}
}
template <typename T, typename V> void __std_iota(T *first, T *last, V v) {
	for (; first != last; ++first, ++v)
		*first = v;
}
template <typename T, typename V, typename Op> V __std_accumulate(T *first, T *last, V init, Op op) {
	for (; first != last; ++first)
		init = op(init, *first);
	return init;
}
template <typename T, typename V> V __std_accumulate_plus(T *first, T *last, V init) {
	for (; first != last; ++first)
		init = init + *first;
	return init;
}
template <typename T, typename T2, typename V> V __std_inner_product(T *first, T *last, T2 *first2, V init) {
	for (; first != last; ++first, ++first2)
		init = init + *first * *first2;
	return init;
}
template <typename T, typename P> bool __std_is_sorted(T *first, T *last, P comp) {
	if (first == last)
		return true;
	for (T *p = first + 1; p != last; ++p)
		if (comp(*p, *(p - 1)))
			return false;
	return true;
}
template <typename T> bool __std_is_sorted_lt(T *first, T *last) { return __std_is_sorted(first, last, __std_lt<T>()); }
#endif
`

// qsortText is our own C for <stdlib.h>'s qsort and bsearch (C11
// 7.22.5): the comparator is an ordinary call through the function
// pointer, and every element access is checked where it happens. qsort is
// the stable merge sort of algorithmText on elements of size bytes (C
// leaves the order of equal elements unspecified); bsearch halves the
// range and returns a matching element, or NULL.
const qsortText = `#ifndef __WEFT_QSORT
#define __WEFT_QSORT
static void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
	if (n < 2 || size == 0)
		return;
	char *a = (char *)base;
	char *buf = (char *)malloc(n * size);
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n;
			size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;
			while (i < mid && j < hi) {
				if (cmp(a + j * size, a + i * size) < 0) {
					memcpy(buf + k * size, a + j * size, size);
					j++;
				} else {
					memcpy(buf + k * size, a + i * size, size);
					i++;
				}
				k++;
			}
			if (i < mid) {
				memcpy(buf + k * size, a + i * size, (mid - i) * size);
				k += mid - i;
			}
			if (j < hi)
				memcpy(buf + k * size, a + j * size, (hi - j) * size);
		}
		memcpy(a, buf, n * size);
	}
	free(buf);
}
static void *bsearch(const void *key, const void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
	const char *a = (const char *)base;
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = cmp(key, a + mid * size);
		if (r == 0)
			return (void *)(a + mid * size);
		if (r < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}
#endif
`
