package interp

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/x448/float16"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// libProcs resolves the standard library's instructions, as the driver does.
func libProcs(t testing.TB) func(string) *syntax.Proc {
	l, err := lib.Std()
	if err != nil {
		t.Fatalf("lib.Std: %v", err)
	}
	return func(name string) *syntax.Proc {
		if in := l.Instr(name); in != nil {
			return in.Proc
		}
		return l.Proc(name)
	}
}

// compile parses src and compiles the proc named proc ("" = the only one).
func compile(t testing.TB, name, src, proc string) *Proc {
	t.Helper()
	var errs diag.List
	f := syntax.Parse(diag.NewFile(name, []byte(src)), &errs)
	if errs.HasErrors() {
		t.Fatalf("parse: %v", errs.Err())
	}
	p, err := New(f, Options{Procs: libProcs(t)}).Main(proc)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	return p
}

func example(t testing.TB, name string) *Proc {
	src, err := os.ReadFile(filepath.Join("../../../examples/weft", name))
	if err != nil {
		t.Fatal(err)
	}
	return compile(t, name, string(src), "")
}

func randArray(rng *rand.Rand, e Elem, shape ...int) *Array {
	a := NewArray(e, shape)
	for i := range a.Len() {
		a.Set(i, rng.Float64()*2-1)
	}
	return a
}

func f32s(a *Array) []float32 {
	out := make([]float32, a.Len())
	for i := range out {
		out[i] = float32(a.Value(i))
	}
	return out
}

// sameBits compares float32 results bit for bit: the interpreter promises
// exact IEEE arithmetic, so the Go loop and the interpreter must agree
// exactly, not within a tolerance.
func sameBits(t *testing.T, what string, got *Array, want []float32) {
	t.Helper()
	if got.Len() != len(want) {
		t.Fatalf("%s: %d elements, want %d", what, got.Len(), len(want))
	}
	for i, w := range want {
		if g := float32(got.Value(i)); math.Float32bits(g) != math.Float32bits(w) {
			t.Fatalf("%s[%d] = %v (%#x), want %v (%#x)", what, i, g, math.Float32bits(g), w, math.Float32bits(w))
		}
	}
}

func TestGEMMAgainstGo(t *testing.T) {
	p := example(t, "gemm_seq.weft")
	rng := rand.New(rand.NewPCG(1, 2))
	for _, sz := range [][3]int{{1, 1, 1}, {3, 5, 7}, {16, 8, 33}, {37, 29, 41}} {
		M, N, K := sz[0], sz[1], sz[2]
		A, B := randArray(rng, F32, M, K), randArray(rng, F32, K, N)
		C := randArray(rng, F32, M, N)
		a, b, want := f32s(A), f32s(B), f32s(C)
		for m := 0; m < M; m++ {
			for n := 0; n < N; n++ {
				for k := 0; k < K; k++ {
					want[m*N+n] += float32(a[m*K+k] * b[k*N+n]) // explicit rounding: no FMA fusion (Go spec)
				}
			}
		}
		if err := p.Call(map[string]any{"M": M, "N": N, "K": K, "A": A, "B": B, "C": C}); err != nil {
			t.Fatal(err)
		}
		sameBits(t, "C", C, want)
	}
}

func TestGEMVAgainstGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, file := range []string{"gemv_seq.weft", "gemv_cuda.weft", "gemv_smem.weft"} {
		p := example(t, file)
		M, K := 512, 384
		A, x := randArray(rng, F32, M, K), randArray(rng, F32, K)
		y := NewArray(F32, []int{M}) // uninitialized: the kernel must write every element
		a, xs := f32s(A), f32s(x)
		want := make([]float32, M)
		for m := range want {
			var acc float32
			for k := 0; k < K; k++ {
				acc += float32(a[m*K+k] * xs[k])
			}
			want[m] = acc
		}
		if err := p.Call(map[string]any{"M": M, "K": K, "A": A, "x": x, "y": y}); err != nil {
			t.Fatal(err)
		}
		sameBits(t, file+" y", y, want)
	}
}

func TestVectorAddAgainstGo(t *testing.T) {
	p := example(t, "vector_add.weft")
	rng := rand.New(rand.NewPCG(5, 6))
	N := 1024
	X, Y := randArray(rng, F32, N), randArray(rng, F32, N)
	want := f32s(X)
	for i, y := range f32s(Y) {
		want[i] += y
	}
	if err := p.Call(map[string]any{"N": N, "X": X, "Y": Y}); err != nil {
		t.Fatal(err)
	}
	sameBits(t, "X", X, want)
}

// TestPrecisions checks each element type's arithmetic against Go on the
// same random inputs: f64 and f32 natively, f16 through x448/float16 with
// one rounding per operation, integers with C wraparound.
func TestPrecisions(t *testing.T) {
	const src = `
def axpby(N: size, a: T[N], b: T[N], c: T[N]):
    for i in seq(0, N):
        c[i] = a[i] * b[i] - a[i] / b[i] + c[i]
`
	rng := rand.New(rand.NewPCG(7, 8))
	N := 200
	for _, e := range []Elem{F64, F32, F16, BF16, I32, I8, UI8, UI16} {
		p := compile(t, "axpby.weft", strings.ReplaceAll(src, "T[", e.String()+"["), "")
		A, B, C := NewArray(e, []int{N}), NewArray(e, []int{N}), NewArray(e, []int{N})
		for i := 0; i < N; i++ {
			if e.IsFloat() {
				A.Set(i, rng.Float64()*8-4)
				B.Set(i, rng.Float64()*8-4)
				C.Set(i, rng.Float64()*8-4)
			} else {
				A.Set(i, float64(rng.IntN(200)-100))
				B.Set(i, float64(rng.IntN(200)-100|1))
				C.Set(i, float64(rng.IntN(200)-100))
			}
		}
		// Explicit conversions after each product keep Go from fusing it
		// into an FMA (allowed by the Go spec, done on arm64).
		want := make([]float64, N)
		for i := range want {
			a, b, c := A.Value(i), B.Value(i), C.Value(i)
			switch e {
			case F64:
				want[i] = float64(a*b) - a/b + c
			case F32:
				x, y, z := float32(a), float32(b), float32(c)
				p := float32(x * y)
				q := x / y
				r := p - q
				want[i] = float64(r + z)
			case F16:
				h := func(f float32) float32 { return float16.Fromfloat32(f).Float32() }
				x, y, z := float32(a), float32(b), float32(c)
				want[i] = float64(h(h(h(x*y)-h(x/y)) + z))
			case BF16:
				x, y, z := float32(a), float32(b), float32(c)
				want[i] = float64(roundBF16(roundBF16(roundBF16(x*y)-roundBF16(x/y)) + z))
			default:
				x, y, z := int64(a), int64(b), int64(c)
				w := func(v int64) int64 { return int64(wrapInt(e, v)) }
				want[i] = float64(w(w(w(x*y)-w(x/y)) + z))
			}
		}
		if err := p.Call(map[string]any{"N": N, "a": A, "b": B, "c": C}); err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if math.Float64bits(C.Value(i)) != math.Float64bits(want[i]) {
				t.Fatalf("%s: c[%d] = %v, want %v", e, i, C.Value(i), want[i])
			}
		}
	}
}

// TestMixedPrecision: an f16 x f16 product accumulated into f32 is computed
// in f32 (the destination's type), as tensor-core instructions do.
func TestMixedPrecision(t *testing.T) {
	p := compile(t, "mma.weft", `
def dot(K: size, a: f16[K], b: f16[K], c: f32[1]):
    for k in seq(0, K):
        c[0] += a[k] * b[k]
`, "")
	rng := rand.New(rand.NewPCG(9, 10))
	K := 64
	A, B := randArray(rng, F16, K), randArray(rng, F16, K)
	C := NewArray(F32, []int{1})
	C.Fill(0)
	var want float32
	for k := 0; k < K; k++ {
		want += float32(float32(A.Value(k)) * float32(B.Value(k)))
	}
	if err := p.Call(map[string]any{"K": K, "a": A, "b": B, "c": C}); err != nil {
		t.Fatal(err)
	}
	sameBits(t, "c", C, []float32{want})
}

// TestInstrBehaviour: calls of library and user instructions run their
// behaviour bodies; scalar parameters are passed by reference.
func TestInstrBehaviour(t *testing.T) {
	p := compile(t, "instr.weft", `
@instr(tl=cuda_in_order, unit=cuda_thread, cuda="{dst} = {a} * {b} + {dst};")
def my_fma(dst: f32, a: f32, b: f32):
    dst += a * b


def k(N: size, x: f16[N], y: f16[N], z: f32[N]):
    for i in seq(0, N):
        cuda_add_f16(y[i], x[i], y[i])
        my_fma(z[i], 2.0, z[i])
`, "k")
	rng := rand.New(rand.NewPCG(11, 12))
	N := 50
	X, Y, Z := randArray(rng, F16, N), randArray(rng, F16, N), randArray(rng, F32, N)
	wy := make([]float64, N)
	wz := make([]float32, N)
	for i := range wy {
		wy[i] = float64(float16.Fromfloat32(float32(X.Value(i) + Y.Value(i))).Float32())
		z := float32(Z.Value(i))
		wz[i] = z + float32(2*z)
	}
	if err := p.Call(map[string]any{"N": N, "x": X, "y": Y, "z": Z}); err != nil {
		t.Fatal(err)
	}
	for i := range wy {
		if Y.Value(i) != wy[i] {
			t.Fatalf("y[%d] = %v, want %v", i, Y.Value(i), wy[i])
		}
	}
	sameBits(t, "z", Z, wz)
}

// TestWindowsAndCalls: windows passed to procs alias their buffer, with
// offsets and strides.
func TestWindowsAndCalls(t *testing.T) {
	p := compile(t, "win.weft", `
def scale_row(n: size, r: [f32][n], s: f32):
    for j in seq(0, n):
        r[j] = r[j] * s


def add_tile(a: [f32][2, 2], b: [f32][2, 2]):
    for i in seq(0, 2):
        for j in seq(0, 2):
            a[i, j] += b[i, j]


def main(M: size, N: size, A: f32[M, N], B: f32[M, N]):
    assert M % 2 == 0 and N % 2 == 0
    for i in seq(0, M):
        scale_row(N, A[i, :], 3.0)
    for ti in seq(0, M / 2):
        for tj in seq(0, N / 2):
            t = B[2 * ti:2 * ti + 2, 2 * tj:2 * tj + 2]
            add_tile(A[2 * ti:2 * ti + 2, 2 * tj:2 * tj + 2], t)
    col = A[:, 1]
    scale_row(M, col, 0.5)
`, "main")
	rng := rand.New(rand.NewPCG(13, 14))
	M, N := 6, 4
	A, B := randArray(rng, F32, M, N), randArray(rng, F32, M, N)
	a, b := f32s(A), f32s(B)
	for i := range a {
		a[i] = a[i]*3 + b[i]
	}
	for i := 0; i < M; i++ {
		a[i*N+1] *= 0.5
	}
	if err := p.Call(map[string]any{"M": M, "N": N, "A": A, "B": B}); err != nil {
		t.Fatal(err)
	}
	sameBits(t, "A", A, a)
}

func TestNpyRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, e := range []Elem{F64, F32, F16, I32, I8, UI8, UI16} {
		for _, shape := range [][]int{{7}, {3, 4}, {2, 3, 5}} {
			a := randArray(rng, e, shape...)
			var buf bytes.Buffer
			if err := WriteNpy(&buf, a); err != nil {
				t.Fatal(err)
			}
			if buf.Len()%64 != (a.Len()*elemSize(e))%64 {
				t.Errorf("%s%v: header not padded to 64 bytes", e, shape)
			}
			b, err := ReadNpy(&buf)
			if err != nil {
				t.Fatalf("%s%v: %v", e, shape, err)
			}
			if b.Elem != e || !equalInts(b.Shape, a.Shape) {
				t.Fatalf("read back %s%v, want %s%v", b.Elem, b.Shape, e, a.Shape)
			}
			for i := range a.Len() {
				if a.Value(i) != b.Value(i) {
					t.Fatalf("%s%v: element %d = %v, want %v", e, shape, i, b.Value(i), a.Value(i))
				}
			}
		}
	}
}

func elemSize(e Elem) int {
	switch e {
	case I8, UI8:
		return 1
	case UI16, F16:
		return 2
	case F64:
		return 8
	}
	return 4
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestBind(t *testing.T) {
	p := example(t, "gemm_seq.weft")
	args, arrays, err := p.Bind([][2]string{{"M", "2"}, {"N", "3"}, {"K", "2"}, {"A", "iota"}, {"B", "ones"}}, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(arrays, ",") != "A,B,C" {
		t.Errorf("arrays = %v", arrays)
	}
	if err := p.Call(args); err != nil {
		t.Fatal(err)
	}
	got := args["C"].(*Array).String()
	if want := "f32[2 3]\n 1 1 1\n 5 5 5"; got != want {
		t.Errorf("C = %q, want %q", got, want)
	}
	for _, bad := range []struct {
		assigns [][2]string
		err     string
	}{
		{[][2]string{{"M", "x"}}, "M=x: M is a size, want an integer"},
		{[][2]string{{"Q", "1"}}, "gemm has no parameter Q"},
		{[][2]string{{"M", "2"}, {"K", "2"}, {"A", "pi"}}, "A=pi: want FILE.npy, zeros, ones, rand or iota"},
		{[][2]string{{"M", "2"}, {"A", "zeros"}}, "the shape of A needs K: give K=VALUE"},
	} {
		_, _, err := p.Bind(bad.assigns, 1, nil)
		if err == nil || err.Error() != bad.err {
			t.Errorf("Bind(%v) = %v, want %q", bad.assigns, err, bad.err)
		}
	}
}

func TestCompare(t *testing.T) {
	a := NewArray(F32, []int{2, 3})
	for i := range a.Len() {
		a.Set(i, float64(i))
	}
	b := a.Convert(F64) // same values
	if m := a.Compare(b, 0, 0); m != nil {
		t.Fatalf("equal arrays: %v", m)
	}
	b.Set(4, 4.5)
	b.Set(5, 5.001)
	m := a.Compare(b, 0, 0)
	if m == nil || m.Count != 2 || !equalInts(m.Index, []int{1, 1}) || m.Got != 4.5 || m.Want != 4 || m.MaxAbs != 0.5 {
		t.Fatalf("Compare = %+v", m)
	}
	if m := a.Compare(b, 0.2, 0); m != nil { // 0.5 <= 0.2*4
		t.Fatalf("within rtol: %v", m)
	}
	if m := a.Compare(b, 0, 0.01); m == nil || m.Count != 1 {
		t.Fatalf("atol 0.01: %+v", m)
	}
	a.Set(0, math.NaN())
	b.Set(0, math.NaN())
	if m := a.Compare(b, 0.2, 0); m != nil {
		t.Fatalf("NaN vs NaN: %v", m)
	}
	b.Set(0, 0)
	if m := a.Compare(b, 1, 1); m == nil || !math.IsInf(m.MaxAbs, 1) {
		t.Fatalf("NaN vs 0: %+v", m)
	}
	if m := a.Compare(NewArray(F32, []int{3, 2}), 0, 0); m == nil || m.ShapeErr != "shape [3 2], want [2 3]" {
		t.Fatalf("shape: %+v", m)
	}
}
