package cudagen

import (
	"bufio"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/interp"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestGPU runs every program's harness on a GPU and compares its outputs
// with the sequential interpreter's (issue 5, item 6): exactly for scalar
// code (compiled with -fmad=false, so no FMA contraction changes rounding),
// within the tf32 bound of docs/weft-codegen.md for tensor-core GEMMs; then
// compute-sanitizer racecheck and synccheck must report nothing. It runs
// only with WEFT_GPU=1 (CI has no GPU).
func TestGPU(t *testing.T) {
	if os.Getenv("WEFT_GPU") != "1" {
		t.Skip("set WEFT_GPU=1 on a machine with a GPU")
	}
	nvcc := needNVCC(t)
	sanitizer, _ := exec.LookPath("compute-sanitizer")
	if sanitizer == "" {
		cand := filepath.Join(filepath.Dir(nvcc), "compute-sanitizer")
		if _, err := os.Stat(cand); err == nil {
			sanitizer = cand
		}
	}
	for _, path := range programs(t) {
		sizes := checkSizes(path)
		if sizes == nil {
			continue
		}
		t.Run(filepath.Base(path), func(t *testing.T) {
			out, errs := generate(t, path, Options{Harness: true})
			if errs.HasErrors() {
				t.Fatal(diagText(errs))
			}
			dir := t.TempDir()
			writeOutput(t, dir, out)
			stem := strings.TrimSuffix(out.Files[0].Name, ".h")
			run := func(name string, args ...string) {
				t.Helper()
				cmd := exec.Command(name, args...)
				cmd.Dir = dir
				if b, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, b)
				}
			}
			run("gcc", "-std=c11", "-Wall", "-Werror", "-c", stem+".c", "-o", stem+"_host.o")
			arch := "sm_90a"
			run(nvcc, "-std=c++17", "-fmad=false", "-lineinfo", "-arch="+arch, stem+".cu", "main.cu", stem+"_host.o", "-o", "main")

			// Inputs: every array random (uniform in [-1, 1)), written for
			// the harness; the interpreter runs on the same values.
			p, args := bindProgram(t, path, sizes)
			os.MkdirAll(filepath.Join(dir, "in"), 0o755)
			os.MkdirAll(filepath.Join(dir, "out"), 0o755)
			for _, q := range p.Params {
				if a, ok := args[q.Name].(*interp.Array); ok {
					writeNpy(t, filepath.Join(dir, "in", q.Name+".npy"), a)
				}
			}
			if err := p.Call(args); err != nil {
				t.Fatal(err)
			}
			var kv []string
			for _, s := range sizes {
				kv = append(kv, s[0]+"="+s[1])
			}
			run("./main", append([]string{"in", "out"}, kv...)...)
			tf32 := usesTensorCores(path)
			for _, q := range p.Params {
				want, ok := args[q.Name].(*interp.Array)
				if !ok {
					continue
				}
				got := readNpy(t, filepath.Join(dir, "out", q.Name+".npy"))
				compareArrays(t, q.Name, got, want, tf32, args)
			}
			timing := exec.Command("./main", append([]string{"in", "out"}, kv...)...)
			timing.Dir = dir
			timing.Env = append(os.Environ(), "WEFT_REPEAT=20")
			if b, err := timing.CombinedOutput(); err != nil {
				t.Fatalf("timing run: %v\n%s", err, b)
			} else {
				t.Logf("%s", strings.TrimSpace(string(b)))
			}
			if sanitizer == "" {
				t.Log("compute-sanitizer not found: racecheck and synccheck skipped")
				return
			}
			for _, tool := range []string{"racecheck", "synccheck", "memcheck"} {
				run(sanitizer, append([]string{"--tool", tool, "--error-exitcode", "1", "./main", "in", "out"}, kv...)...)
			}
		})
	}
}

// checkSizes returns the NAME=VALUE pairs of the file's first `# check:`
// line (nil when it has none).
func checkSizes(path string) [][2]string {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "# check:"); ok {
			out := [][2]string{}
			for _, kv := range strings.Fields(rest) {
				if k, v, ok := strings.Cut(kv, "="); ok {
					out = append(out, [2]string{k, v})
				}
			}
			return out
		}
	}
	return nil
}

func usesTensorCores(path string) bool {
	src, _ := os.ReadFile(path)
	return strings.Contains(string(src), "_mma_tf32(") || strings.Contains(string(src), "_wgmma_")
}

func bindProgram(t *testing.T, path string, sizes [][2]string) (*interp.Proc, map[string]any) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var errs diag.List
	f := syntax.Parse(diag.NewFile(path, src), &errs)
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
	assigns := append([][2]string(nil), sizes...)
	for _, q := range p.Params {
		if q.IsArray() {
			assigns = append(assigns, [2]string{q.Name, "rand"})
		}
	}
	args, _, err := p.Bind(assigns, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p, args
}

func writeNpy(t *testing.T, path string, a *interp.Array) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := interp.WriteNpy(f, a); err != nil {
		t.Fatal(err)
	}
}

func readNpy(t *testing.T, path string) *interp.Array {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a, err := interp.ReadNpy(f)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// compareArrays compares a GPU output with the interpreter's. For
// tensor-core GEMMs (arrays A, B, C and sizes M, N, K) the bound is
// (2^-10 + K 2^-23) sum_k |A[i,k] B[k,j]| (docs/weft-codegen.md); otherwise
// the arrays must be equal.
func compareArrays(t *testing.T, name string, got, want *interp.Array, tf32 bool, args map[string]any) {
	t.Helper()
	if got.Len() != want.Len() {
		t.Fatalf("%s: %d elements, want %d", name, got.Len(), want.Len())
	}
	if !tf32 || name != "C" {
		for i := range got.Len() {
			if got.Value(i) != want.Value(i) && !(math.IsNaN(got.Value(i)) && math.IsNaN(want.Value(i))) {
				t.Fatalf("%s[%d] = %g on the GPU, %g in weft run", name, i, got.Value(i), want.Value(i))
			}
		}
		return
	}
	A, B := args["A"].(*interp.Array), args["B"].(*interp.Array)
	m, k := A.Shape[0], A.Shape[1]
	n := got.Shape[1]
	bT := B.Shape[0] == n && B.Shape[1] == k && !(B.Shape[0] == k && B.Shape[1] == n)
	tol := math.Pow(2, -10) + float64(k)*math.Pow(2, -23)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			mag := 0.0
			for kk := 0; kk < k; kk++ {
				b := B.Value(kk*n + j)
				if bT {
					b = B.Value(j*k + kk)
				}
				mag += math.Abs(A.Value(i*k+kk) * b)
			}
			// Plus a few ulps of the result: accumulating kernels (split-k)
			// add partial sums in another order.
			bound := tol*mag + 4*math.Pow(2, -24)*math.Abs(want.Value(i*n+j))
			if d := math.Abs(got.Value(i*n+j) - want.Value(i*n+j)); d > bound {
				t.Fatalf("C[%d, %d] = %g on the GPU, %g in weft run: |difference| %g exceeds the tf32 bound %g", i, j, got.Value(i*n+j), want.Value(i*n+j), d, bound)
			}
		}
	}
}
