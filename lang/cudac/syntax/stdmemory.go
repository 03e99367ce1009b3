package syntax

// stdMemoryText is our own C++ for <memory>'s smart pointers (C++17
// [unique.ptr], [util.smartptr.shared]): unique_ptr<T> and unique_ptr<T[]>
// (the array form a partial specialization) owning what new and new[]
// made, move-only (the copy constructor and assignment deleted, so a copy
// is an error at the copy: sem/rvalue.go); shared_ptr<T> with a use count
// shared by its copies and the object deleted with the last; make_unique
// and make_shared forwarding any number of arguments to the constructor
// (sem/variadic.go, sem/rvalue.go: a move-only argument is moved). Deleters other than delete and delete[], weak_ptr, aliasing
// and atomic operations are not modeled: a program that names them gets
// an undeclared-name or no-member error. Like pair.h, its std:: is
// flattened.
const stdMemoryText = `#ifndef __WEFT_MEMORY
#define __WEFT_MEMORY
#include <__weft/pair.h>
template <class T> struct unique_ptr {
	T *__p;
	unique_ptr() : __p(nullptr) {}
	explicit unique_ptr(T *p) : __p(p) {}
	unique_ptr(const unique_ptr &) = delete;
	unique_ptr(unique_ptr &&o) : __p(o.__p) { o.__p = nullptr; }
	~unique_ptr() { if (__p) delete __p; }
	unique_ptr &operator=(const unique_ptr &) = delete;
	unique_ptr &operator=(unique_ptr &&o) {
		if (this != &o) {
			T *q = __p;
			__p = o.__p;
			o.__p = nullptr;
			if (q) delete q;
		}
		return *this;
	}
	T &operator*() const { return *__p; }
	T *operator->() const { return __p; }
	T *get() const { return __p; }
	explicit operator bool() const { return __p != nullptr; }
	T *release() { T *q = __p; __p = nullptr; return q; }
	void reset() { T *q = __p; __p = nullptr; if (q) delete q; }
	void reset(T *p) { T *q = __p; __p = p; if (q) delete q; }
	void swap(unique_ptr &o) { T *q = __p; __p = o.__p; o.__p = q; }
};
template <class T> struct unique_ptr<T[]> {
	T *__p;
	unique_ptr() : __p(nullptr) {}
	explicit unique_ptr(T *p) : __p(p) {}
	unique_ptr(const unique_ptr &) = delete;
	unique_ptr(unique_ptr &&o) : __p(o.__p) { o.__p = nullptr; }
	~unique_ptr() { if (__p) delete[] __p; }
	unique_ptr &operator=(const unique_ptr &) = delete;
	unique_ptr &operator=(unique_ptr &&o) {
		if (this != &o) {
			T *q = __p;
			__p = o.__p;
			o.__p = nullptr;
			if (q) delete[] q;
		}
		return *this;
	}
	T &operator[](unsigned long i) const { return __p[i]; }
	T *get() const { return __p; }
	explicit operator bool() const { return __p != nullptr; }
	T *release() { T *q = __p; __p = nullptr; return q; }
	void reset() { T *q = __p; __p = nullptr; if (q) delete[] q; }
	void reset(T *p) { T *q = __p; __p = p; if (q) delete[] q; }
	void swap(unique_ptr &o) { T *q = __p; __p = o.__p; o.__p = q; }
};
template <class T> struct shared_ptr {
	T *__p;
	long *__n;
	shared_ptr() : __p(nullptr), __n(nullptr) {}
	explicit shared_ptr(T *p) : __p(p), __n(new long(1)) {}
	shared_ptr(const shared_ptr &o) : __p(o.__p), __n(o.__n) { if (__n) ++*__n; }
	shared_ptr(shared_ptr &&o) : __p(o.__p), __n(o.__n) { o.__p = nullptr; o.__n = nullptr; }
	~shared_ptr() { __drop(); }
	void __drop() {
		if (__n && --*__n == 0) {
			if (__p) delete __p;
			delete __n;
		}
		__p = nullptr;
		__n = nullptr;
	}
	shared_ptr &operator=(const shared_ptr &o) {
		if (__n != o.__n) {
			if (o.__n) ++*o.__n;
			T *p = o.__p;
			long *n = o.__n;
			__drop();
			__p = p;
			__n = n;
		}
		return *this;
	}
	shared_ptr &operator=(shared_ptr &&o) {
		if (this != &o) {
			T *p = o.__p;
			long *n = o.__n;
			o.__p = nullptr;
			o.__n = nullptr;
			__drop();
			__p = p;
			__n = n;
		}
		return *this;
	}
	T &operator*() const { return *__p; }
	T *operator->() const { return __p; }
	T *get() const { return __p; }
	explicit operator bool() const { return __p != nullptr; }
	long use_count() const { return __n ? *__n : 0; }
	void reset() { __drop(); }
	void reset(T *p) { __drop(); __p = p; __n = new long(1); }
	void swap(shared_ptr &o) { T *p = __p; long *n = __n; __p = o.__p; __n = o.__n; o.__p = p; o.__n = n; }
};
template <class T, class... Args> unique_ptr<T> make_unique(Args &&...args) { return unique_ptr<T>(new T(forward<Args>(args)...)); }
template <class T, class... Args> shared_ptr<T> make_shared(Args &&...args) { return shared_ptr<T>(new T(forward<Args>(args)...)); }
#endif
`
