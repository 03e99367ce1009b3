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
