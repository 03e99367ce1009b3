package syntax

// CurandTypes is the source of the state types: CUDA's names, our layout
// (programs treat the states as opaque; sem/curand_gen.go reads and
// writes them whole); an MTGP32 state is 256 words and a position.
const CurandTypes = `#ifndef __WEFT_CURAND_TYPES
#define __WEFT_CURAND_TYPES
struct curandStateXORWOW { unsigned int d; unsigned int v[5]; int boxmuller_flag; int boxmuller_flag_double; float boxmuller_extra; double boxmuller_extra_double; };
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;
struct curandStateMRG32k3a { unsigned int d; unsigned int v[5]; int boxmuller_flag; int boxmuller_flag_double; float boxmuller_extra; double boxmuller_extra_double; };
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;
struct curandStatePhilox4_32_10 { unsigned int ctr[4]; unsigned int output[4]; unsigned int key[2]; unsigned int STATE; int boxmuller_flag; int boxmuller_flag_double; float boxmuller_extra; double boxmuller_extra_double; };
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;
struct curandStateSobol32 { unsigned int d; unsigned int v[5]; int boxmuller_flag; int boxmuller_flag_double; float boxmuller_extra; double boxmuller_extra_double; };
typedef struct curandStateSobol32 curandStateSobol32_t;
struct curandStateScrambledSobol32 { unsigned int d; unsigned int v[5]; int boxmuller_flag; int boxmuller_flag_double; float boxmuller_extra; double boxmuller_extra_double; };
typedef struct curandStateScrambledSobol32 curandStateScrambledSobol32_t;
struct curandStateMtgp32 { unsigned int s[256]; int offset; int pIdx; };
typedef struct curandStateMtgp32 curandStateMtgp32_t;
#define CURAND_2POW32_INV (2.3283064e-10f)
#endif
`

// curandHostText is our own C for the part of cuRAND's host API
// (<curand.h>) that programs use to draw reference values on the CPU: a
// generator created with curandCreateGeneratorHost (or
// curandCreateGenerator, whose output then goes to device memory the
// program passes) is one XORWOW stream seeded as curand_init(seed, 0, 0)
// seeds a device state (cuRAND's seeding, sem/curand_gen.go), and
// curandGenerate, ...Uniform and ...Normal draw from it in order: the
// raw bits, x·2^-32 + 2^-33, and Box-Muller pairs (sine then cosine)
// scaled by stddev and shifted by mean. cuRAND's own host generator
// interleaves many streams (its "ordering"), so the values are the
// documented distributions but not its sequence. A null generator, an
// odd count for the normal functions (which cuRAND requires even) and a
// generator used after destruction are reported by the status codes
// cuRAND returns.
const curandHostText = `#ifndef __WEFT_CURAND_HOST
#define __WEFT_CURAND_HOST
#include <__weft/curand.h>
typedef enum curandStatus {
	CURAND_STATUS_SUCCESS = 0, CURAND_STATUS_VERSION_MISMATCH = 100, CURAND_STATUS_NOT_INITIALIZED = 101,
	CURAND_STATUS_ALLOCATION_FAILED = 102, CURAND_STATUS_TYPE_ERROR = 103, CURAND_STATUS_OUT_OF_RANGE = 104,
	CURAND_STATUS_LENGTH_NOT_MULTIPLE = 105, CURAND_STATUS_DOUBLE_PRECISION_REQUIRED = 106,
	CURAND_STATUS_LAUNCH_FAILURE = 201, CURAND_STATUS_PREEXISTING_FAILURE = 202,
	CURAND_STATUS_INITIALIZATION_FAILED = 203, CURAND_STATUS_ARCH_MISMATCH = 204, CURAND_STATUS_INTERNAL_ERROR = 999
} curandStatus_t;
typedef enum curandRngType {
	CURAND_RNG_TEST = 0, CURAND_RNG_PSEUDO_DEFAULT = 100, CURAND_RNG_PSEUDO_XORWOW = 101,
	CURAND_RNG_PSEUDO_MRG32K3A = 121, CURAND_RNG_PSEUDO_MTGP32 = 141, CURAND_RNG_PSEUDO_MT19937 = 142,
	CURAND_RNG_PSEUDO_PHILOX4_32_10 = 161, CURAND_RNG_QUASI_DEFAULT = 200, CURAND_RNG_QUASI_SOBOL32 = 201
} curandRngType_t;
struct __weft_curand_gen { unsigned int d; unsigned int v[5]; int live; int have; float extra; };
typedef struct __weft_curand_gen *curandGenerator_t;
static inline void __weft_curand_seed(curandGenerator_t g, unsigned long long seed) {
	unsigned int s0 = (unsigned int)seed ^ 0xaad26b49u, s1 = (unsigned int)(seed >> 32) ^ 0xf7dcefddu;
	unsigned int t0 = 1099087573u * s0, t1 = 2591861531u * s1;
	g->d = 6615241u + t1 + t0;
	g->v[0] = 123456789u + t0; g->v[1] = 362436069u ^ t0; g->v[2] = 521288629u + t1;
	g->v[3] = 88675123u ^ t1; g->v[4] = 5783321u + t0;
	g->have = 0;
}
static inline unsigned int __weft_curand_next(curandGenerator_t g) {
	unsigned int t = g->v[0] ^ (g->v[0] >> 2);
	g->v[0] = g->v[1]; g->v[1] = g->v[2]; g->v[2] = g->v[3]; g->v[3] = g->v[4];
	g->v[4] = (g->v[4] ^ (g->v[4] << 4)) ^ (t ^ (t << 1));
	g->d += 362437u;
	return g->v[4] + g->d;
}
static inline float __weft_curand_unit(unsigned int x) { return (float)x * CURAND_2POW32_INV + CURAND_2POW32_INV / 2.0f; }
static inline curandStatus_t curandCreateGeneratorHost(curandGenerator_t *g, curandRngType_t type) {
	if (g == 0) return CURAND_STATUS_NOT_INITIALIZED;
	if (type != CURAND_RNG_PSEUDO_DEFAULT && type != CURAND_RNG_PSEUDO_XORWOW) return CURAND_STATUS_TYPE_ERROR;
	*g = (curandGenerator_t)malloc(sizeof(struct __weft_curand_gen));
	if (*g == 0) return CURAND_STATUS_ALLOCATION_FAILED;
	(*g)->live = 1;
	__weft_curand_seed(*g, 0ULL);
	return CURAND_STATUS_SUCCESS;
}
static inline curandStatus_t curandCreateGenerator(curandGenerator_t *g, curandRngType_t type) { return curandCreateGeneratorHost(g, type); }
static inline curandStatus_t curandDestroyGenerator(curandGenerator_t g) {
	if (g == 0 || !g->live) return CURAND_STATUS_NOT_INITIALIZED;
	g->live = 0;
	free(g);
	return CURAND_STATUS_SUCCESS;
}
static inline curandStatus_t curandSetPseudoRandomGeneratorSeed(curandGenerator_t g, unsigned long long seed) {
	if (g == 0 || !g->live) return CURAND_STATUS_NOT_INITIALIZED;
	__weft_curand_seed(g, seed);
	return CURAND_STATUS_SUCCESS;
}
static inline curandStatus_t curandGenerate(curandGenerator_t g, unsigned int *out, size_t n) {
	if (g == 0 || !g->live) return CURAND_STATUS_NOT_INITIALIZED;
	for (size_t i = 0; i < n; i++) out[i] = __weft_curand_next(g);
	return CURAND_STATUS_SUCCESS;
}
static inline curandStatus_t curandGenerateUniform(curandGenerator_t g, float *out, size_t n) {
	if (g == 0 || !g->live) return CURAND_STATUS_NOT_INITIALIZED;
	for (size_t i = 0; i < n; i++) out[i] = __weft_curand_unit(__weft_curand_next(g));
	return CURAND_STATUS_SUCCESS;
}
static inline curandStatus_t curandGenerateNormal(curandGenerator_t g, float *out, size_t n, float mean, float stddev) {
	if (g == 0 || !g->live) return CURAND_STATUS_NOT_INITIALIZED;
	if (n % 2 != 0) return CURAND_STATUS_LENGTH_NOT_MULTIPLE;
	for (size_t i = 0; i < n; i += 2) {
		float u = __weft_curand_unit(__weft_curand_next(g));
		float v = (float)__weft_curand_next(g) * (CURAND_2POW32_INV * 6.2831853071795864f) + CURAND_2POW32_INV * 3.1415926535897932f;
		float s = sqrtf(-2.0f * logf(u));
		out[i] = mean + stddev * s * sinf(v);
		out[i + 1] = mean + stddev * s * cosf(v);
	}
	return CURAND_STATUS_SUCCESS;
}
#endif
`
