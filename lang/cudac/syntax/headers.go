package syntax

// knownHeaders are the standard and CUDA headers a program may include. Their
// functions and types are built into the sem package (and typedef names into
// the parser), so a header contributes only its macros. A header not listed
// here and not found next to the including file is an error (C0110).
var knownHeaders map[string]string

// initKnownHeaders builds knownHeaders (tables.go).
func initKnownHeaders() {
	knownHeaders = map[string]string{
		// C++ and CUDA C++ headers whose names sem builds in (lang/cudac/lib):
		// std::string, std::vector, the type traits, cuda::atomic_ref.
		"type_traits":          "",
		"cuda/std/type_traits": "", // libcu++'s copy of <type_traits>: the same built-in traits
		"string":               "",
		"vector":               "",
		"utility":              "#include <__weft/pair.h>\n", // pair.go
		"cstddef":              "#define NULL ((void*)0)\n",
		"climits":              limitsMacros,
		"cfloat":               floatMacros,
		"cinttypes":            "",
		"cuda/atomic":          "",
		"cuda/barrier":         "#include <__weft/cuda_barrier.h>\n",                                   // cudabarrier.go
		"cuda/pipeline":        "#include <cooperative_groups.h>\n#include <__weft/cuda_pipeline.h>\n", // cudapipeline.go
		"cuda/std/atomic":      "",
		"stdio.h":              "#define EOF (-1)\n#define NULL ((void*)0)\n",
		"stdlib.h":             "#define NULL ((void*)0)\n#define EXIT_SUCCESS 0\n#define EXIT_FAILURE 1\n#define RAND_MAX 2147483647\n" + "#include <__weft/qsort.h>\n", // stdalgo.go
		"stddef.h":             "#define NULL ((void*)0)\n",
		"string.h":             "#define NULL ((void*)0)\n",
		"math.h": "#define M_PI 3.14159265358979323846\n#define M_E 2.7182818284590452354\n#define M_SQRT2 1.41421356237309504880\n" +
			"#define INFINITY (__builtin_inff())\n#define NAN (__builtin_nanf())\n#define HUGE_VAL (__builtin_inf())\n",
		"assert.h":   "",
		"stdint.h":   stdintMacros,
		"stdbool.h":  "#define bool _Bool\n#define true 1\n#define false 0\n",
		"limits.h":   limitsMacros,
		"float.h":    floatMacros,
		"time.h":     "#define CLOCKS_PER_SEC 1000000000L\n",
		"ctime":      "#define CLOCKS_PER_SEC 1000000000L\n",
		"sys/time.h": "",
		// POSIX (sem/lib_posix.go): uname, sleep/usleep on the virtual
		// clock, getpid, gethostname, anonymous mmap/munmap
		"sys/utsname.h": "",
		"chrono":        "", // sem/lib_chrono.go
		"ratio":         "",
		"unistd.h":      "",
		"sys/types.h":   "",
		"sys/mman.h": "#define PROT_NONE 0\n#define PROT_READ 1\n#define PROT_WRITE 2\n#define PROT_EXEC 4\n" +
			"#define MAP_SHARED 1\n#define MAP_PRIVATE 2\n#define MAP_FIXED 0x10\n#define MAP_ANONYMOUS 0x20\n#define MAP_ANON 0x20\n" +
			"#define MAP_FAILED ((void*)-1)\n",
		"cuda_profiler_api.h": "",
		// NVTX annotations: no effect on the meaning (nvtx.go)
		"nvToolsExt.h":       "#include <__weft/nvtx.h>\n",
		"nvtx3/nvToolsExt.h": "#include <__weft/nvtx.h>\n",
		"memory.h":           "#define NULL ((void*)0)\n",                                 // <string.h>'s memcpy, memset, ... (glibc's <memory.h> includes it)
		"pthread.h":          pthreadText,                                                 // pthread.go
		"algorithm":          "#include <__weft/pair.h>\n#include <__weft/algorithm.h>\n", // stdalgo.go
		"numeric":            "#include <__weft/algorithm.h>\n",
		"functional":         "",                               // std::less/greater as sort comparators
		"limits":             "",                               // std::numeric_limits (sem: built in)
		"array":              "#include <__weft/array.h>\n",    // stdarray.go
		"initializer_list":   "#include <__weft/initlist.h>\n", // initlist.go
		"iterator":           "",                               // std::distance, next, prev, advance, begin, end (sem/lib_iterator.go)
		// associative containers: their class templates parse and a use is
		// C0309 naming them (parser.go, UnmodeledStdTypes)
		"map":                               "#include <__weft/pair.h>\n",
		"set":                               "#include <__weft/pair.h>\n",
		"unordered_map":                     "#include <__weft/pair.h>\n",
		"unordered_set":                     "#include <__weft/pair.h>\n",
		"deque":                             "", // sem/lib_deque.go
		"ctype.h":                           "",
		"inttypes.h":                        "",
		"cuda.h":                            "#define __CUDACC__ 1\n#define CUDART_VERSION 12000\n",
		"cuda_runtime.h":                    "#define __CUDACC__ 1\n#define CUDART_VERSION 12000\n",
		"cuda_runtime_api.h":                "",
		"device_launch_parameters.h":        "",
		"device_functions.h":                "",
		"sm_20_atomic_functions.h":          "",
		"cooperative_groups.h":              "",
		"cooperative_groups/reduce.h":       "",
		"cooperative_groups/scan.h":         "",
		"cooperative_groups/memcpy_async.h": "", // sem/cgasync.go
		"cuda_fp16.h":                       "",
		"cuda_bf16.h":                       "",
		"vector_types.h":                    "",
		"vector_functions.h":                "",
		"cstdio":                            "#define EOF (-1)\n#define NULL ((void*)0)\n#define SEEK_SET 0\n#define SEEK_CUR 1\n#define SEEK_END 2\n",
		"cstdlib":                           "#define NULL ((void*)0)\n#define EXIT_SUCCESS 0\n#define EXIT_FAILURE 1\n#include <__weft/qsort.h>\n",
		"cstring":                           "",
		"cmath":                             "#define M_PI 3.14159265358979323846\n#define INFINITY (__builtin_inff())\n#define NAN (__builtin_nanf())\n",
		"cassert":                           "",
		"cstdint":                           stdintMacros,
		"iostream":                          "#include <__weft/stdexcept.h>\n",
		// <fstream>, <sstream> and <iomanip>: sem/lib_sstream.go and
		// lib_fstream.go; the exception classes: stdexcept.go. A program
		// that uses a name not modeled gets an undeclared-name error.
		"fstream":       "",
		"sstream":       "",
		"exception":     "#include <__weft/stdexcept.h>\n", // stdexcept.go
		"stdexcept":     "#include <__weft/stdexcept.h>\n",
		"new":           "#include <__weft/stdexcept.h>\n",
		"strings.h":     "",
		"iomanip":       "",
		"helper_cuda.h": "#define checkCudaErrors(x) (x)\n",
		"immintrin.h":   immintrin,
		// Texts that several headers share (<stdlib.h> and <cstdlib>,
		// <iostream> and <stdexcept>, ...) are headers of their own, so that
		// every translation unit reads them from the same file and the linker
		// (sem/link.go) sees one declaration, whichever header a unit named.
		"__weft/qsort.h":         qsortText,
		"__weft/algorithm.h":     algorithmText,
		"__weft/pair.h":          pairText,
		"__weft/cuda_barrier.h":  cudaBarrierText,
		"__weft/cuda_pipeline.h": cudaPipelineText,
		"__weft/array.h":         stdArrayText,
		"__weft/initlist.h":      initListText,
		"__weft/stdarg.h":        stdargText,
		"stdarg.h":               "#include <__weft/stdarg.h>\n",
		"cstdarg":                "#include <__weft/stdarg.h>\n",
		"__weft/nvtx.h":          nvtxText,
		// cuRAND's device API: the state types; sem/curand.go models the
		// functions
		"curand_kernel.h":            "#include <__weft/curand.h>\n",
		"__weft/curand.h":            CurandTypes,
		"curand.h":                   "#include <stdlib.h>\n#include <math.h>\n#include <__weft/curand_host.h>\n",
		"__weft/curand_host.h":       curandHostText,
		"__weft/stdexcept.h":         stdexceptText,
		"memory":                     "#include <__weft/memory.h>\n", // stdmemory.go
		"random":                     "#include <__weft/random.h>\n", // stdrandom.go
		"__weft/random.h":            stdRandomText,
		"mma.h":                      "#include <__weft/wmma.h>\n", // wmma.go
		"cub/cub.cuh":                "#include <__weft/cub.h>\n",  // cub.go
		"cub/block/block_reduce.cuh": "#include <__weft/cub.h>\n",
		"cub/block/block_scan.cuh":   "#include <__weft/cub.h>\n",
		"cub/warp/warp_reduce.cuh":   "#include <__weft/cub.h>\n",
		"__weft/cub.h":               cubText,
		"cuda/functional":            "#include <__weft/cuda_functional.h>\n", // cub.go
		"__weft/cuda_functional.h":   cudaFunctionalText,
		"__weft/wmma.h":              wmmaText,
		"__weft/memory.h":            stdMemoryText,
	}
}

// immintrin is the part of <immintrin.h> (Intel Intrinsics Guide, AVX and
// FMA) that host code of Exo's x86 library uses (lang/weft/lib/x86.weft):
// __m256 is eight binary32 lanes, and each intrinsic is its lane-wise
// operation written in C, so the semantics runs it as the C it is. The
// unaligned loads and stores are plain element accesses (the bounds and
// race checks see them); _mm256_fmadd_ps rounds once per lane (fmaf), as
// the VFMADD instructions do.
const immintrin = `typedef struct __weft_m256 { float __lane[8]; } __m256;
static inline __m256 _mm256_loadu_ps(const float *p) { __m256 r; for (int i = 0; i < 8; i++) r.__lane[i] = p[i]; return r; }
static inline void _mm256_storeu_ps(float *p, __m256 a) { for (int i = 0; i < 8; i++) p[i] = a.__lane[i]; }
static inline __m256 _mm256_setzero_ps(void) { __m256 r; for (int i = 0; i < 8; i++) r.__lane[i] = 0.0f; return r; }
static inline __m256 _mm256_set1_ps(float v) { __m256 r; for (int i = 0; i < 8; i++) r.__lane[i] = v; return r; }
static inline __m256 _mm256_broadcast_ss(const float *p) { return _mm256_set1_ps(*p); }
static inline __m256 _mm256_add_ps(__m256 a, __m256 b) { __m256 r; for (int i = 0; i < 8; i++) r.__lane[i] = a.__lane[i] + b.__lane[i]; return r; }
static inline __m256 _mm256_sub_ps(__m256 a, __m256 b) { __m256 r; for (int i = 0; i < 8; i++) r.__lane[i] = a.__lane[i] - b.__lane[i]; return r; }
static inline __m256 _mm256_mul_ps(__m256 a, __m256 b) { __m256 r; for (int i = 0; i < 8; i++) r.__lane[i] = a.__lane[i] * b.__lane[i]; return r; }
static inline __m256 _mm256_fmadd_ps(__m256 a, __m256 b, __m256 c) { __m256 r; for (int i = 0; i < 8; i++) r.__lane[i] = fmaf(a.__lane[i], b.__lane[i], c.__lane[i]); return r; }
`

// predefined are the macros every translation unit starts with (nvcc
// includes cuda_runtime.h, whose include guards __CUDA_RUNTIME_H__ and
// __DRIVER_TYPES_H__ helper headers test, and through it <stdlib.h>'s
// EXIT_SUCCESS/EXIT_FAILURE, in every .cu file): we model
// nvcc compiling for a device of compute capability 9.0, and the host pass
// (so __CUDA_ARCH__ is left undefined, as nvcc's host pass sees it; code that
// branches on it keeps its host-side meaning for both sides).
const predefined = "#define CUDART_VERSION 12000\n#define __CUDA_RUNTIME_H__\n#define __DRIVER_TYPES_H__\n#define EXIT_SUCCESS 0\n#define EXIT_FAILURE 1\n#define __CUDACC__ 1\n#define __NVCC__ 1\n#define __cplusplus 201703L\n#define __STDC__ 1\n#define __forceinline__\n#define CUDART_CB\n#define __noinline__\n#define __launch_bounds__(...)\n#define __align__(n)\n#define __inline__ inline\n"

// The macros of <stdint.h>, <limits.h> and <float.h> (also <cstdint>, <climits>, <cfloat>).
const (
	stdintMacros = "#define INT8_MAX 127\n#define INT16_MAX 32767\n#define INT32_MAX 2147483647\n#define INT64_MAX 9223372036854775807LL\n#define UINT8_MAX 255\n#define UINT16_MAX 65535\n#define UINT32_MAX 4294967295U\n#define UINT64_MAX 18446744073709551615ULL\n#define INT32_MIN (-2147483647-1)\n#define INT64_MIN (-9223372036854775807LL-1)\n"
	limitsMacros = "#define CHAR_BIT 8\n#define INT_MAX 2147483647\n#define INT_MIN (-2147483647-1)\n#define UINT_MAX 4294967295U\n#define LONG_MAX 9223372036854775807L\n#define LONG_MIN (-9223372036854775807L-1)\n#define ULONG_MAX 18446744073709551615UL\n" +
		"#define SHRT_MAX 32767\n#define SHRT_MIN (-32768)\n#define USHRT_MAX 65535\n#define CHAR_MAX 127\n#define CHAR_MIN (-128)\n#define SCHAR_MAX 127\n#define SCHAR_MIN (-128)\n#define UCHAR_MAX 255\n#define LLONG_MAX 9223372036854775807LL\n#define LLONG_MIN (-9223372036854775807LL-1)\n#define ULLONG_MAX 18446744073709551615ULL\n"
	floatMacros = "#define FLT_MAX 3.402823466e+38F\n#define FLT_MIN 1.175494351e-38F\n#define FLT_EPSILON 1.192092896e-07F\n#define DBL_MAX 1.7976931348623158e+308\n#define DBL_MIN 2.2250738585072014e-308\n#define DBL_EPSILON 2.2204460492503131e-16\n"
)
