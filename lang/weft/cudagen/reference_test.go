package cudagen

import (
	"math"
	"os"
	"strconv"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/interp"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// runExample runs a proc of an example with the sequential interpreter (the
// CPU reference a GPU run is compared with) and returns its arrays.
func runExample(t *testing.T, path string, assigns [][2]string) map[string]any {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var errs diag.List
	f := syntax.Parse(diag.NewFile(path, src), &errs)
	if errs.HasErrors() {
		t.Fatal(diagText(&errs))
	}
	l := lib.MustStd()
	prog := interp.New(f, interp.Options{Procs: func(name string) *syntax.Proc {
		if in := l.Instr(name); in != nil {
			return in.Proc
		}
		return l.Proc(name)
	}})
	p, err := prog.Main("")
	if err != nil {
		t.Fatal(err)
	}
	args, _, err := p.Bind(assigns, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Call(args); err != nil {
		t.Fatal(err)
	}
	return args
}

// TestExampleGEMMs checks that the examples compute what they claim: their
// sequential meaning, built from the instructions' behaviour bodies, is
// C = A B (sm_80) and C = A B^T (sm_90) up to f32 rounding. This is the
// reference the generated kernels are compared with on a GPU.
func TestExampleGEMMs(t *testing.T) {
	for _, tc := range []struct {
		path    string
		m, n, k int
		bT      bool
	}{
		{"../../../examples/weft/gemm/xgemm_sm80.weft", 192, 256, 32, false},
		{"../../../examples/weft/gemm/xgemm_sm90.weft", 128, 256, 64, true},
	} {
		args := runExample(t, tc.path, [][2]string{
			{"M", itoa(tc.m)}, {"N", itoa(tc.n)}, {"K", itoa(tc.k)}, {"A", "rand"}, {"B", "rand"}})
		A, B, C := args["A"].(*interp.Array), args["B"].(*interp.Array), args["C"].(*interp.Array)
		worst := 0.0
		for i := 0; i < tc.m; i++ {
			for j := 0; j < tc.n; j++ {
				want, mag := 0.0, 0.0
				for k := 0; k < tc.k; k++ {
					b := B.Value(k*tc.n + j)
					if tc.bT {
						b = B.Value(j*tc.k + k)
					}
					want += A.Value(i*tc.k+k) * b
					mag += math.Abs(A.Value(i*tc.k+k) * b)
				}
				// f32 accumulation: at most K ulps of the magnitude.
				if d := math.Abs(C.Value(i*tc.n+j) - want); d > float64(tc.k)*mag*math.Pow(2, -24) {
					t.Fatalf("%s: C[%d, %d] = %g, want %g", tc.path, i, j, C.Value(i*tc.n+j), want)
				} else if d > worst {
					worst = d
				}
			}
		}
		t.Logf("%s: max |C - A B| = %g", tc.path, worst)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
