package syntax

// pairText is our own C++ for <utility>'s std::pair and std::make_pair
// (C++17 [pairs]): a class template with members first and second, its
// default, value and converting constructors, make_pair deducing both
// types from its arguments (as values: arrays and functions decay), and
// the six comparisons, lexicographic on (first, second) with only < and ==
// asked of the members ([pairs.spec]); and std::move ([forward]), the
// object itself (sem binds rvalue references as it binds const ones, to
// the object, so what moving from it observes is the object), and
// std::forward, the argument itself (sem/rvalue.go decides its value
// category: an lvalue or an xvalue, as the instance deduced T). Like the
// exception classes
// (stdexcept.go) its std:: is flattened, so the program's pair and
// std::pair are one class. <utility>, <map>, <set> and <algorithm>
// include it (libstdc++'s headers make std::pair visible through each).
const pairText = `#ifndef __WEFT_PAIR
#define __WEFT_PAIR
template <class T1, class T2> struct pair {
	T1 first;
	T2 second;
	pair() : first(), second() {}
	pair(const T1 &a, const T2 &b) : first(a), second(b) {}
};
template <class T1, class T2> pair<T1, T2> make_pair(T1 a, T2 b) { return pair<T1, T2>(a, b); }
template <class T> __host__ __device__ T &move(T &x) { return x; }
template <class T> __host__ __device__ T &forward(T &x) { return x; }
template <class T1, class T2> bool operator==(const pair<T1, T2> &x, const pair<T1, T2> &y) { return x.first == y.first && x.second == y.second; }
template <class T1, class T2> bool operator!=(const pair<T1, T2> &x, const pair<T1, T2> &y) { return !(x == y); }
template <class T1, class T2> bool operator<(const pair<T1, T2> &x, const pair<T1, T2> &y) { return x.first < y.first || (!(y.first < x.first) && x.second < y.second); }
template <class T1, class T2> bool operator>(const pair<T1, T2> &x, const pair<T1, T2> &y) { return y < x; }
template <class T1, class T2> bool operator<=(const pair<T1, T2> &x, const pair<T1, T2> &y) { return !(y < x); }
template <class T1, class T2> bool operator>=(const pair<T1, T2> &x, const pair<T1, T2> &y) { return !(x < y); }
#endif
`
