package syntax

// stdRandomText is our own C++ for the parts of <random> (C++17 [rand])
// that host code uses to make test data: the engines mt19937, mt19937_64
// ([rand.predef]: the Mersenne twister with the standard's parameters),
// minstd_rand0 and minstd_rand (the linear congruential engines), and
// default_random_engine, which is minstd_rand0 as in libstdc++; the
// distributions uniform_int_distribution, uniform_real_distribution,
// normal_distribution and bernoulli_distribution; generate_canonical; and
// random_device; and std::shuffle of <algorithm> (here: it needs an
// engine).
//
// The engines' sequences are fixed by the standard. The distributions'
// are not: each computes what libstdc++ (GCC 12) computes, so a program
// prints under Weft what it prints built with g++ or nvcc on Linux:
//   - generate_canonical ([rand.util.canonical]): k = max(1, ceil(b /
//     log2 R)) engine calls, sum_i (g() - min) R^i and tmp = R^k both
//     accumulated in the result type, then sum / tmp, and a result that
//     rounds to 1 replaced by the largest value below 1;
//   - uniform_real_distribution: canonical * (b - a) + a;
//   - uniform_int_distribution: for an engine of exactly 32 or 64 bits,
//     Lemire's multiply-and-shift with rejection (D. Lemire, "Fast random
//     integer generation in an interval", ACM TOMACS 29(1), 2019) on the
//     range b - a + 1; for another engine range (minstd) division with
//     rejection of the values past the largest multiple of the range; a
//     range wider than the engine's from several draws, high part first;
//   - normal_distribution: Marsaglia's polar method on 2u - 1 pairs of
//     canonical values, the second value of each pair kept for the next
//     call (reset() drops it);
//   - bernoulli_distribution: canonical (in double) < p.
//
// random_device is deterministic in Weft (a fixed sequence, the
// mt19937 of seed 5489 offset by a constant), so that a run can be
// repeated; entropy() is 0. Not modeled: seed_seq, engine adaptors, the
// other distributions, param_type, stream operators. Engines compare with
// == and != (their states).
const stdRandomText = `#ifndef __WEFT_RANDOM
#define __WEFT_RANDOM
#include <math.h>
#include <limits.h>
#include <string.h>
struct mt19937 {
	typedef unsigned int result_type;
	static constexpr unsigned int default_seed = 5489u;
	unsigned int __x[624];
	int __i;
	static constexpr unsigned int min() { return 0u; }
	static constexpr unsigned int max() { return 0xffffffffu; }
	static constexpr int __log2r = 32;
	explicit mt19937(unsigned int s = 5489u) { seed(s); }
	void seed(unsigned int s = 5489u) {
		__x[0] = s;
		for (int i = 1; i < 624; i++)
			__x[i] = 1812433253u * (__x[i - 1] ^ (__x[i - 1] >> 30)) + (unsigned int)i;
		__i = 624;
	}
	unsigned int operator()() { return __next(); }
	unsigned int __next() {
		if (__i >= 624) {
			// the state's next 624 words at once ([rand.eng.mers]p4)
			for (int k = 0; k < 624; k++) {
				unsigned int y = (__x[k] & 0x80000000u) | (__x[k + 1 < 624 ? k + 1 : 0] & 0x7fffffffu);
				unsigned int v = __x[k + 397 < 624 ? k + 397 : k + 397 - 624] ^ (y >> 1);
				__x[k] = (y & 1u) ? v ^ 0x9908b0dfu : v;
			}
			__i = 0;
		}
		unsigned int z = __x[__i++];
		z ^= z >> 11;
		z ^= (z << 7) & 0x9d2c5680u;
		z ^= (z << 15) & 0xefc60000u;
		return z ^ (z >> 18);
	}
	// equal when their sequences are ([rand.req.eng] Table 94): the
	// same state words at the same position
	bool operator==(const mt19937 &o) const { return __i == o.__i && memcmp(__x, o.__x, sizeof __x) == 0; }
	bool operator!=(const mt19937 &o) const { return !(*this == o); }
	void discard(unsigned long long n) {
		for (unsigned long long k = 0; k < n; k++)
			__next();
	}
};
struct mt19937_64 {
	typedef unsigned long long result_type;
	static constexpr unsigned long long default_seed = 5489ull;
	unsigned long long __x[312];
	int __i;
	static constexpr unsigned long long min() { return 0ull; }
	static constexpr unsigned long long max() { return 0xffffffffffffffffull; }
	static constexpr int __log2r = 64;
	explicit mt19937_64(unsigned long long s = 5489ull) { seed(s); }
	void seed(unsigned long long s = 5489ull) {
		__x[0] = s;
		for (int i = 1; i < 312; i++)
			__x[i] = 6364136223846793005ull * (__x[i - 1] ^ (__x[i - 1] >> 62)) + (unsigned long long)i;
		__i = 312;
	}
	unsigned long long operator()() { return __next(); }
	unsigned long long __next() {
		if (__i >= 312) {
			for (int k = 0; k < 312; k++) {
				unsigned long long y = (__x[k] & 0xffffffff80000000ull) | (__x[k + 1 < 312 ? k + 1 : 0] & 0x7fffffffull);
				unsigned long long v = __x[k + 156 < 312 ? k + 156 : k + 156 - 312] ^ (y >> 1);
				__x[k] = (y & 1ull) ? v ^ 0xb5026f5aa96619e9ull : v;
			}
			__i = 0;
		}
		unsigned long long z = __x[__i++];
		z ^= (z >> 29) & 0x5555555555555555ull;
		z ^= (z << 17) & 0x71d67fffeda60000ull;
		z ^= (z << 37) & 0xfff7eee000000000ull;
		return z ^ (z >> 43);
	}
	// equal when their sequences are ([rand.req.eng] Table 94): the
	// same state words at the same position
	bool operator==(const mt19937_64 &o) const { return __i == o.__i && memcmp(__x, o.__x, sizeof __x) == 0; }
	bool operator!=(const mt19937_64 &o) const { return !(*this == o); }
	void discard(unsigned long long n) {
		for (unsigned long long k = 0; k < n; k++)
			__next();
	}
};
// x <- a x mod 2^31 - 1 ([rand.eng.lcong]; seed: s mod m, 0 made 1)
template <unsigned int A> struct __weft_minstd {
	typedef unsigned int result_type;
	static constexpr unsigned int default_seed = 1u;
	unsigned int __s;
	static constexpr unsigned int min() { return 1u; }
	static constexpr unsigned int max() { return 2147483646u; }
	static constexpr int __log2r = 30; // floor(log2(2^31 - 2))
	explicit __weft_minstd(unsigned int s = 1u) { seed(s); }
	void seed(unsigned int s = 1u) {
		__s = s % 2147483647u;
		if (__s == 0u)
			__s = 1u;
	}
	unsigned int operator()() { return __next(); }
	unsigned int __next() {
		__s = (unsigned int)(((unsigned long long)A * __s) % 2147483647ull);
		return __s;
	}
	bool operator==(const __weft_minstd &o) const { return __s == o.__s; }
	bool operator!=(const __weft_minstd &o) const { return __s != o.__s; }
	void discard(unsigned long long n) {
		for (unsigned long long k = 0; k < n; k++)
			__next();
	}
};
typedef __weft_minstd<16807u> minstd_rand0;
typedef __weft_minstd<48271u> minstd_rand;
typedef minstd_rand0 default_random_engine;
struct random_device {
	typedef unsigned int result_type;
	mt19937 __g;
	random_device() : __g(5489u + 0x5eedu) {}
	static constexpr unsigned int min() { return 0u; }
	static constexpr unsigned int max() { return 0xffffffffu; }
	static constexpr int __log2r = 32;
	unsigned int operator()() { return __g.__next(); }
	double entropy() const { return 0.0; }
};
// the largest value of Real below 1
template <class Real> Real __weft_below1() {
	return sizeof(Real) == 4 ? Real(0.999999940395355224609375) : Real(0.99999999999999988897769753748434595763683319091796875);
}
template <class Real, class G> Real __weft_canonical(G &g) {
	const int b = sizeof(Real) == 4 ? 24 : 53;
	const int log2r = g.__log2r;
	int k = (b + log2r - 1) / log2r;
	if (k < 1)
		k = 1;
	const double r = (double)g.max() - (double)g.min() + 1.0;
	Real sum = Real(0);
	Real tmp = Real(1);
	for (; k != 0; --k) {
		sum += Real(g() - g.min()) * tmp;
		tmp = Real(tmp * r);
	}
	Real ret = sum / tmp;
	if (ret >= Real(1))
		ret = __weft_below1<Real>();
	return ret;
}
template <class Real, int Bits, class G> Real generate_canonical(G &g) { return __weft_canonical<Real>(g); }
// the high 64 bits of the 128-bit product a b
inline unsigned long long __weft_mulhi64(unsigned long long a, unsigned long long b) {
	unsigned long long a0 = a & 0xffffffffull, a1 = a >> 32, b0 = b & 0xffffffffull, b1 = b >> 32;
	unsigned long long p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	unsigned long long mid = (p00 >> 32) + (p01 & 0xffffffffull) + (p10 & 0xffffffffull);
	return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}
// a value in [0, urange] from g (uniform_int_distribution; urange below
// 2^64 - 1 unless the engine has 64 bits)
template <class G> unsigned long long __weft_uniform(G &g, unsigned long long urange) {
	const unsigned long long gmin = g.min();
	const unsigned long long grange = (unsigned long long)g.max() - gmin;
	if (grange > urange) {
		const unsigned long long e = urange + 1ull;
		if (g.__log2r == 64) {
			unsigned long long x = g();
			unsigned long long low = x * e;
			if (low < e) {
				const unsigned long long threshold = (0ull - e) % e;
				while (low < threshold) {
					x = g();
					low = x * e;
				}
			}
			return __weft_mulhi64(x, e);
		}
		if (grange == 0xffffffffull) {
			unsigned long long p = (unsigned long long)g() * e;
			unsigned long long low = p & 0xffffffffull;
			if (low < e) {
				const unsigned long long threshold = (0x100000000ull - e) % e;
				while (low < threshold) {
					p = (unsigned long long)g() * e;
					low = p & 0xffffffffull;
				}
			}
			return p >> 32;
		}
		const unsigned long long scaling = grange / e;
		const unsigned long long past = e * scaling;
		unsigned long long ret;
		do
			ret = (unsigned long long)g() - gmin;
		while (ret >= past);
		return ret / scaling;
	}
	if (grange < urange) {
		// wider than the engine: (grange + 1) high + low, high drawn first
		unsigned long long ret, tmp;
		do {
			const unsigned long long ge = grange + 1ull;
			tmp = ge * __weft_uniform(g, urange / ge);
			ret = tmp + ((unsigned long long)g() - gmin);
		} while (ret > urange || ret < tmp);
		return ret;
	}
	return (unsigned long long)g() - gmin;
}
template <class IntType = int> struct uniform_int_distribution {
	typedef IntType result_type;
	IntType __a, __b;
	uniform_int_distribution() : __a(0), __b(numeric_limits<IntType>::max()) {}
	explicit uniform_int_distribution(IntType a) : __a(a), __b(numeric_limits<IntType>::max()) {}
	uniform_int_distribution(IntType a, IntType b) : __a(a), __b(b) {}
	template <class G> IntType operator()(G &g) {
		unsigned long long urange = (unsigned long long)__b - (unsigned long long)__a;
		if (sizeof(IntType) < 8)
			urange &= 0xffffffffull; // in the unsigned type of IntType (int: 32 bits)
		return (IntType)((unsigned long long)__a + __weft_uniform(g, urange));
	}
	IntType a() const { return __a; }
	IntType b() const { return __b; }
	IntType min() const { return __a; }
	IntType max() const { return __b; }
	void reset() {}
};
template <class RealType = double> struct uniform_real_distribution {
	typedef RealType result_type;
	RealType __a, __b;
	explicit uniform_real_distribution(RealType a = 0, RealType b = 1) : __a(a), __b(b) {}
	template <class G> RealType operator()(G &g) { return __weft_canonical<RealType>(g) * (__b - __a) + __a; }
	RealType a() const { return __a; }
	RealType b() const { return __b; }
	RealType min() const { return __a; }
	RealType max() const { return __b; }
	void reset() {}
};
template <class RealType = double> struct normal_distribution {
	typedef RealType result_type;
	RealType __mean, __stddev, __saved;
	bool __has;
	explicit normal_distribution(RealType mean = 0, RealType stddev = 1) : __mean(mean), __stddev(stddev), __saved(0), __has(false) {}
	template <class G> RealType operator()(G &g) {
		RealType ret;
		if (__has) {
			__has = false;
			ret = __saved;
		} else {
			RealType x, y, r2;
			do {
				x = RealType(2) * __weft_canonical<RealType>(g) - RealType(1);
				y = RealType(2) * __weft_canonical<RealType>(g) - RealType(1);
				r2 = x * x + y * y;
			} while (r2 > RealType(1) || r2 == RealType(0));
			RealType mult;
			if (sizeof(RealType) == 4)
				mult = sqrtf(-2.0f * logf((float)r2) / (float)r2);
			else
				mult = sqrt(-2.0 * log((double)r2) / (double)r2);
			__saved = x * mult;
			__has = true;
			ret = y * mult;
		}
		return ret * __stddev + __mean;
	}
	RealType mean() const { return __mean; }
	RealType stddev() const { return __stddev; }
	void reset() { __has = false; }
};
struct bernoulli_distribution {
	typedef bool result_type;
	double __p;
	explicit bernoulli_distribution(double p = 0.5) : __p(p) {}
	template <class G> bool operator()(G &g) { return __weft_canonical<double>(g) < __p; }
	double p() const { return __p; }
	void reset() {}
};
// std::shuffle as libstdc++ does it (so that a shuffled order is g++'s):
// when the engine's range covers n^2, two swap positions from one draw in
// [0, r (r + 1)) for positions i and i + 1 (r = i + 1), after a first
// swap of position 1 by a draw in [0, 1] when n is even; else one draw in
// [0, i] per position. Elements are swapped as bytes.
template <typename T> void __weft_swap_bytes(T *a, T *b) {
	if (a == b)
		return;
	unsigned char tmp[sizeof(T)];
	memcpy(tmp, a, sizeof(T));
	memcpy(a, b, sizeof(T));
	memcpy(b, tmp, sizeof(T));
}
template <typename T, class G> void __std_shuffle(T *first, T *last, G &g) {
	if (first == last)
		return;
	const unsigned long long grange = (unsigned long long)g.max() - (unsigned long long)g.min();
	const unsigned long long n = (unsigned long long)(last - first);
	if (grange / n >= n) {
		T *i = first + 1;
		if (n % 2 == 0) {
			__weft_swap_bytes(i, first + __weft_uniform(g, 1ull));
			++i;
		}
		while (i != last) {
			const unsigned long long r = (unsigned long long)(i - first) + 1;
			const unsigned long long x = __weft_uniform(g, r * (r + 1) - 1);
			__weft_swap_bytes(i, first + x / (r + 1));
			++i;
			__weft_swap_bytes(i, first + x % (r + 1));
			++i;
		}
		return;
	}
	for (T *i = first + 1; i != last; ++i)
		__weft_swap_bytes(i, first + __weft_uniform(g, (unsigned long long)(i - first)));
}
#endif
`
