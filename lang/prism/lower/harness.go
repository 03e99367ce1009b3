package lower

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"weft.dev/weft/cuda"
	"weft.dev/weft/lang/prism/check"
)

// Launch describes one run of a kernel for Harness: its grid, scalar
// arguments, the initial contents of its pointer arguments and of the host
// buffers behind its tensor maps, and its tensor maps.
type Launch struct {
	Blocks int
	Args   map[string]float64
	// Buffers holds explicit contents, embedded in the program: pointer
	// arguments without an Init, and the data of Init{Kind: "rand"}.
	Buffers map[string][]float64
	// Inits are buffers the program fills itself (so that GEMM-sized
	// inputs do not become source text): pointer arguments, and global
	// buffers that are not parameters (the tensors behind tensor maps,
	// `weft run --buffer`).
	Inits map[string]Init
	// TensorMaps gives each CUtensorMap parameter its map.
	TensorMaps map[string]TensorMap
	// Flops is the work of one launch, for the TFLOP/s of WEFT_REPEAT
	// timing (0: not printed).
	Flops float64
}

// Init is a buffer initializer of `weft run`: Kind zeros, ones, iota
// (i mod Mod when Mod > 0) or rand (the values, drawn by the driver, are in
// Launch.Buffers). Values are rounded to Elem (a Prism type name) as the
// interpreter rounds them.
type Init struct {
	Elem string
	Len  int
	Kind string
	Mod  int
}

// TensorMap is a 2-D tiled tensor map over buffer Buf, with the meaning of
// bundl.TensorMap: Rows x Cols elements, Cols contiguous, boxes of
// BoxRows x BoxCols, Swizzle 0, 32, 64 or 128 bytes.
type TensorMap struct {
	Buf                                   string
	Rows, Cols, BoxRows, BoxCols, Swizzle int
}

// maxEmbedded bounds the elements embedded as source text (rand buffers,
// explicit contents): larger inputs should use zeros, ones or iota%M,
// which the program computes.
const maxEmbedded = 1 << 20

// tmaType maps an element type to its CUtensorMapDataType (TMA copies
// bits; the type matters for the element size and the out-of-bounds fill).
var tmaType = map[string]string{
	"float": "CU_TENSOR_MAP_DATA_TYPE_FLOAT32", "c_float": "CU_TENSOR_MAP_DATA_TYPE_FLOAT32", "tf32": "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32",
	"double": "CU_TENSOR_MAP_DATA_TYPE_FLOAT64",
	"bf16":   "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16", "half": "CU_TENSOR_MAP_DATA_TYPE_FLOAT16", "fp16": "CU_TENSOR_MAP_DATA_TYPE_FLOAT16",
	"int": "CU_TENSOR_MAP_DATA_TYPE_INT32", "c_int": "CU_TENSOR_MAP_DATA_TYPE_INT32", "int32_t": "CU_TENSOR_MAP_DATA_TYPE_INT32",
	"uint": "CU_TENSOR_MAP_DATA_TYPE_UINT32", "uint32_t": "CU_TENSOR_MAP_DATA_TYPE_UINT32",
	"int64_t": "CU_TENSOR_MAP_DATA_TYPE_INT64", "uint64_t": "CU_TENSOR_MAP_DATA_TYPE_UINT64",
	"uint8_t": "CU_TENSOR_MAP_DATA_TYPE_UINT8", "int8_t": "CU_TENSOR_MAP_DATA_TYPE_UINT8", "char": "CU_TENSOR_MAP_DATA_TYPE_UINT8",
}

// harnessRuntime is the host side every harness needs: the conversions
// that round initial values as the interpreter does (bundl.RoundBuffer),
// the number format of `weft run` (Go's strconv.FormatFloat(v, 'g', -1,
// 64)) and the tensor-map encoder.
const harnessRuntime = `#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#define PRISM_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("cuda error: %s (%s)\n", cudaGetErrorString(e_), #x); \
    return e_ == cudaErrorNoDevice || e_ == cudaErrorInsufficientDriver ? 3 : 1; } } while (0)

// Initial values are rounded to the element type as weft run rounds them:
// floats to nearest even, integers truncated then wrapped.
template <typename T> inline T prism_from_double(double v) {
  if constexpr (std::is_integral<T>::value) return (T)(long long)std::trunc(v);
  else return (T)v;
}
template <> inline __nv_bfloat16 prism_from_double<__nv_bfloat16>(double v) { return __double2bfloat16(v); }
template <> inline __half prism_from_double<__half>(double v) { return __double2half(v); }
template <typename T> inline double prism_to_double(T v) { return (double)v; }
template <> inline double prism_to_double<__nv_bfloat16>(__nv_bfloat16 v) { return (double)__bfloat162float(v); }
template <> inline double prism_to_double<__half>(__half v) { return (double)__half2float(v); }

// prism_format writes v as Go's strconv.FormatFloat(v, 'g', -1, 64) does
// (weft run's format): the fewest significant digits that read back as v,
// exponent form when the decimal exponent is below -4 or at least 6.
// (Go picks among equally short strings the one nearest v; this takes the
// correctly rounded one, which can differ only next to a power of two.)
inline void prism_format(char* out, size_t n, double v) {
  if (std::isnan(v)) { snprintf(out, n, "NaN"); return; }
  if (std::isinf(v)) { snprintf(out, n, v > 0 ? "+Inf" : "-Inf"); return; }
  if (v == 0) { snprintf(out, n, std::signbit(v) ? "-0" : "0"); return; }
  char e[40];
  int p = 1;
  for (; p < 17; p++) {
    snprintf(e, sizeof e, "%.*e", p - 1, v);
    if (strtod(e, nullptr) == v) break;
  }
  snprintf(e, sizeof e, "%.*e", p - 1, v);
  int x = atoi(strchr(e, 'e') + 1);
  if (x < -4 || x >= 6) { snprintf(out, n, "%s", e); return; }
  snprintf(out, n, "%.*f", p - 1 - x > 0 ? p - 1 - x : 0, v);
}

// prism_print prints NAME[LEN] = v0 v1 ... as weft run --print N does
// (N from WEFT_PRINT; default: every element).
template <typename T> inline void prism_print(const char* name, const T* h, long long len) {
  long long show = len;
  if (const char* s = getenv("WEFT_PRINT")) show = atoll(s);
  char buf[64];
  printf("%s[%lld] =", name, len);
  for (long long i = 0; i < len; i++) {
    if (i == show) { printf(" ..."); break; }
    prism_format(buf, sizeof buf, prism_to_double(h[i]));
    printf(" %s", buf);
  }
  printf("\n");
}

// prism_fill computes a weft run initializer: 0 zeros, 1 ones, 2 iota
// (i mod m when m > 0).
template <typename T> inline void prism_fill(T* h, long long len, int kind, long long m) {
  for (long long i = 0; i < len; i++) {
    double v = kind == 0 ? 0.0 : kind == 1 ? 1.0 : (double)(m > 0 ? i % m : i);
    h[i] = prism_from_double<T>(v);
  }
}

typedef CUresult (*prism_encode_tiled_t)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                         const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                         CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

// prism_tensor_map_2d encodes the map of weft run's --arg NAME=tma:BUF,
// ROWS,COLS,BOX_ROWS,BOX_COLS,SWIZZLE (bundl.TensorMap): ROWS x COLS
// elements with COLS contiguous (TMA dimension 0), boxes of BOX_ROWS x
// BOX_COLS, out-of-bounds elements read as zero. The driver entry point is
// fetched through the runtime (as cuda/include/weft_cuda.cuh does), so the
// program links without -lcuda.
inline int prism_tensor_map_2d(CUtensorMap* out, void* gmem, CUtensorMapDataType type, int elem_bytes,
                               unsigned long long rows, unsigned long long cols, unsigned box_rows, unsigned box_cols,
                               int swizzle) {
  static prism_encode_tiled_t encode = nullptr;
  if (!encode) {
    cudaDriverEntryPointQueryResult q;
    cudaError_t e = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", (void**)&encode, 12000, cudaEnableDefault, &q);
    if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !encode) {
      printf("cuda error: cuTensorMapEncodeTiled is not available\n");
      return 1;
    }
  }
  cuuint64_t dims[2] = {cols, rows};
  cuuint64_t strides[1] = {cols * (cuuint64_t)elem_bytes};
  cuuint32_t box[2] = {box_cols, box_rows};
  cuuint32_t estr[2] = {1, 1};
  CUtensorMapSwizzle sw = swizzle == 128 ? CU_TENSOR_MAP_SWIZZLE_128B
                        : swizzle == 64  ? CU_TENSOR_MAP_SWIZZLE_64B
                        : swizzle == 32  ? CU_TENSOR_MAP_SWIZZLE_32B
                                         : CU_TENSOR_MAP_SWIZZLE_NONE;
  CUresult r = encode(out, type, 2, gmem, dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE, sw,
                      CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    printf("cuda error: cuTensorMapEncodeTiled failed (%d) for %llux%llu, box %ux%u, swizzle %d\n", (int)r, rows, cols,
           box_rows, box_cols, swizzle);
    return 1;
  }
  return 0;
}
`

// Harness returns a host program (C++ main, to be appended to the lowered
// CUDA) that fills the buffers, copies them to the device, encodes the
// tensor maps, launches kernel fn through its launcher once and prints
// every non-const pointer argument as `NAME[LEN] = v0 v1 ...`, exactly as
// `weft run --print LEN` does, so that a GPU run can be diffed with the
// Bundl interpreter. WEFT_PRINT=N in the environment prints at most N
// elements (as --print N); WEFT_REPEAT=R then times R more launches with
// CUDA events and prints the time per launch (and TFLOP/s when l.Flops is
// set) on stderr. Exit status 3 means no usable CUDA device.
func Harness(fn *check.Func, l Launch) (string, error) {
	var w cuda.Writer
	w.Tab = "  "
	w.Line("")
	w.Line("// Host harness generated by weft for %s.", fn.Name)
	for _, ln := range strings.Split(strings.TrimSuffix(harnessRuntime, "\n"), "\n") {
		w.Line("%s", ln)
	}
	w.Line("")
	// Buffers: the parameters in order, then the host buffers by name.
	type buffer struct {
		name, c, elem string
		out           bool
	}
	var bufs []buffer
	params := map[string]bool{}
	for _, p := range fn.Params {
		params[p.Name] = true
		if p.Type.Kind == check.Pointer {
			bufs = append(bufs, buffer{name: p.Name, c: cuda.Ident(p.Name), elem: p.Type.Base().Name, out: !p.Type.Elem.Const})
		}
	}
	var host []string
	for name := range l.Inits {
		if !params[name] {
			host = append(host, name)
		}
	}
	sort.Strings(host)
	for _, name := range host {
		bufs = append(bufs, buffer{name: name, c: "host_" + cuda.Ident(name), elem: l.Inits[name].Elem})
	}
	lens := map[string]int{}
	for _, b := range bufs {
		in, gen := l.Inits[b.name]
		data, ok := l.Buffers[b.name]
		switch {
		case gen && in.Kind != "rand":
		case ok:
		case gen:
			return "", fmt.Errorf("no values for the rand buffer %s", b.name)
		default:
			return "", fmt.Errorf("no buffer for %s", b.name)
		}
		if (!gen || in.Kind == "rand") && len(data) > maxEmbedded {
			return "", fmt.Errorf("%s: %d values to embed, more than %d (use zeros, ones or iota%%M, which the harness computes)", b.name, len(data), maxEmbedded)
		}
		if !gen || in.Kind == "rand" {
			var vals []string
			for _, v := range data {
				vals = append(vals, strconv.FormatFloat(v, 'g', -1, 64))
			}
			if len(vals) == 0 {
				vals = []string{"0"}
			}
			w.Line("static const double prism_init_%s[%d] = {%s};", b.c, max(len(data), 1), strings.Join(vals, ", "))
			lens[b.name] = len(data)
		} else {
			lens[b.name] = in.Len
		}
	}
	w.Line("")
	w.Open("int main() {")
	w.Line("int ndev = 0;")
	w.Line(`if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) { printf("no CUDA device\n"); return 3; }`)
	for _, b := range bufs {
		elem := check.CName(b.elem)
		n := lens[b.name]
		w.Line("// %s: %d x %s", b.name, n, b.elem)
		w.Line("const long long n_%s = %d;", b.c, n)
		w.Line("%s* h_%s = (%s*)malloc(sizeof(%s) * (n_%s ? n_%s : 1));", elem, b.c, elem, elem, b.c, b.c)
		if in, gen := l.Inits[b.name]; gen && in.Kind != "rand" {
			kind := map[string]int{"zeros": 0, "ones": 1, "iota": 2}[in.Kind]
			if _, ok := map[string]int{"zeros": 0, "ones": 1, "iota": 2}[in.Kind]; !ok {
				return "", fmt.Errorf("%s: unknown initializer %q", b.name, in.Kind)
			}
			w.Line("prism_fill(h_%s, n_%s, %d, %d); // %s", b.c, b.c, kind, in.Mod, initString(in))
		} else {
			w.Line("for (long long i = 0; i < n_%s; i++) h_%s[i] = prism_from_double<%s>(prism_init_%s[i]);", b.c, b.c, elem, b.c)
		}
		w.Line("%s* d_%s = nullptr;", elem, b.c)
		w.Line("PRISM_CHECK(cudaMalloc(&d_%s, sizeof(%s) * (n_%s ? n_%s : 1)));", b.c, elem, b.c, b.c)
		w.Line("PRISM_CHECK(cudaMemcpy(d_%s, h_%s, sizeof(%s) * n_%s, cudaMemcpyHostToDevice));", b.c, b.c, elem, b.c)
	}
	var args []string
	for _, p := range fn.Params {
		n := cuda.Ident(p.Name)
		switch {
		case p.Type.Kind == check.Pointer:
			args = append(args, "d_"+n)
		case p.Type.Kind == check.Scalar && p.Type.Name == "CUtensorMap":
			tm, ok := l.TensorMaps[p.Name]
			if !ok {
				return "", fmt.Errorf("no tensor map for %s (--arg %s=tma:BUF,ROWS,COLS,BOX_ROWS,BOX_COLS[,SWIZZLE])", p.Name, p.Name)
			}
			var b *buffer
			for i := range bufs {
				if bufs[i].name == tm.Buf {
					b = &bufs[i]
				}
			}
			if b == nil {
				return "", fmt.Errorf("tensor map %s: no buffer %s", p.Name, tm.Buf)
			}
			t := &check.Type{Kind: check.Scalar, Name: b.elem}
			dt, ok := tmaType[b.elem]
			if !ok || t.Size() == 0 {
				return "", fmt.Errorf("tensor map %s: TMA has no element type for %s", p.Name, b.elem)
			}
			if tm.Rows*tm.Cols > lens[b.name] {
				return "", fmt.Errorf("tensor map %s: a %dx%d tensor needs %d elements, buffer %s has %d", p.Name, tm.Rows, tm.Cols, tm.Rows*tm.Cols, b.name, lens[b.name])
			}
			sw := "none"
			if tm.Swizzle != 0 {
				sw = strconv.Itoa(tm.Swizzle)
			}
			w.Line("// %s = tma:%s,%d,%d,%d,%d,%s", p.Name, tm.Buf, tm.Rows, tm.Cols, tm.BoxRows, tm.BoxCols, sw)
			w.Line("CUtensorMap tm_%s;", n)
			w.Line("if (prism_tensor_map_2d(&tm_%s, d_%s, %s, %d, %d, %d, %d, %d, %d)) return 1;", n, b.c, dt, t.Size(), tm.Rows, tm.Cols, tm.BoxRows, tm.BoxCols, tm.Swizzle)
			args = append(args, "tm_"+n)
		default:
			v, ok := l.Args[p.Name]
			if !ok {
				return "", fmt.Errorf("no value for %s", p.Name)
			}
			args = append(args, fmt.Sprintf("(%s)%s", check.CName(p.Type.Name), strconv.FormatFloat(v, 'g', -1, 64)))
		}
	}
	launch := fmt.Sprintf("prism_launch_%s(%d, 0%s)", cuda.Ident(fn.Name), max(l.Blocks, 1), prefixComma(args))
	w.Line("PRISM_CHECK(%s);", launch)
	w.Line("PRISM_CHECK(cudaDeviceSynchronize());")
	for _, b := range bufs {
		if !b.out {
			continue
		}
		w.Line("PRISM_CHECK(cudaMemcpy(h_%s, d_%s, sizeof(*h_%s) * n_%s, cudaMemcpyDeviceToHost));", b.c, b.c, b.c, b.c)
		w.Line("prism_print(%q, h_%s, n_%s);", b.name, b.c, b.c)
	}
	w.Line("fflush(stdout);")
	// Timing after the printed run, so the outputs reflect one launch.
	w.Line("const char* repeat = getenv(\"WEFT_REPEAT\");")
	w.Open("if (repeat && atoi(repeat) > 0) {")
	w.Line("const int reps = atoi(repeat);")
	w.Line("cudaEvent_t t0, t1;")
	w.Line("PRISM_CHECK(cudaEventCreate(&t0));")
	w.Line("PRISM_CHECK(cudaEventCreate(&t1));")
	w.Line("PRISM_CHECK(cudaEventRecord(t0, 0));")
	w.Line("for (int r = 0; r < reps; r++) PRISM_CHECK(%s);", launch)
	w.Line("PRISM_CHECK(cudaEventRecord(t1, 0));")
	w.Line("PRISM_CHECK(cudaEventSynchronize(t1));")
	w.Line("float ms = 0;")
	w.Line("PRISM_CHECK(cudaEventElapsedTime(&ms, t0, t1));")
	w.Line("ms /= reps;")
	if l.Flops > 0 {
		w.Line(`fprintf(stderr, "%s: %%.4f ms per launch (%%d launches), %%.2f TFLOP/s\n", ms, reps, %s / (ms * 1e9));`, fn.Name, strconv.FormatFloat(l.Flops, 'g', -1, 64))
	} else {
		w.Line(`fprintf(stderr, "%s: %%.4f ms per launch (%%d launches)\n", ms, reps);`, fn.Name)
	}
	w.Close("}")
	for _, b := range bufs {
		w.Line("cudaFree(d_%s);", b.c)
		w.Line("free(h_%s);", b.c)
	}
	w.Line("return 0;")
	w.Close("}")
	return w.String(), nil
}

func initString(in Init) string {
	s := in.Kind
	if in.Mod > 0 {
		s += "%" + strconv.Itoa(in.Mod)
	}
	return fmt.Sprintf("%s:%d", s, in.Len)
}
