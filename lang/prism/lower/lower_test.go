package lower_test

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/cuda"
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/check"
	"weft.dev/weft/lang/prism/internal/progen"
	"weft.dev/weft/lang/prism/lower"
	"weft.dev/weft/lang/prism/syntax"
)

var update = flag.Bool("update", false, "rewrite golden files")

func examples(t *testing.T) []string {
	files, _ := filepath.Glob("../../../examples/prism/*.prism")
	if len(files) < 8 {
		t.Fatalf("found %d examples", len(files))
	}
	return files
}

func build(t *testing.T, path string) *lower.Output {
	return buildOpts(t, path, lower.Options{})
}

func buildOpts(t *testing.T, path string, opts lower.Options) *lower.Output {
	info, errs := load(t, path)
	ext := strings.TrimSuffix(path, ".prism") + ".extern.cuh"
	if _, err := os.Stat(ext); err == nil {
		opts.ExternHeader = filepath.Base(ext)
	}
	out := lower.Lower(info, opts, errs)
	for _, d := range errs.Diags {
		if d.Severity == diag.Error {
			t.Fatalf("%s: %s", path, d.Message)
		}
	}
	return out
}

// TestGolden compares the generated CUDA of every example with
// testdata/golden/NAME.cu (go test -update rewrites them) and checks that
// lowering is deterministic.
func TestGolden(t *testing.T) {
	for _, path := range examples(t) {
		base := strings.TrimSuffix(filepath.Base(path), ".prism")
		out := build(t, path)
		if again := build(t, path); again.CUDA != out.CUDA {
			t.Errorf("%s: lowering is not deterministic", base)
		}
		golden := filepath.Join("testdata", "golden", base+".cu")
		if *update {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			os.WriteFile(golden, []byte(out.CUDA), 0o644)
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -update)", err)
		}
		if string(want) != out.CUDA {
			t.Errorf("%s: generated CUDA differs from %s (run go test -update and review the diff)", base, golden)
		}
		if strings.Contains(out.CUDA, "@ ") || strings.Contains(out.CUDA, "thread[") && !strings.Contains(out.CUDA, "// ") {
			t.Errorf("%s: perspective syntax leaked into the CUDA", base)
		}
	}
}

// TestNVCC compiles the generated CUDA of every example with nvcc: sm_90a
// always, sm_80 too when the program uses no Hopper-only instruction.
func TestNVCC(t *testing.T) {
	nvcc := cuda.FindNVCC()
	if nvcc == "" {
		if os.Getenv("WEFT_REQUIRE_NVCC") == "1" {
			t.Fatal("nvcc not found and WEFT_REQUIRE_NVCC=1")
		}
		t.Skip("nvcc not found")
	}
	dir := t.TempDir()
	for _, path := range examples(t) {
		path := path
		base := strings.TrimSuffix(filepath.Base(path), ".prism")
		out := build(t, path)
		if strings.HasPrefix(base, "fig6") {
			// Also the full-barrier form of the running example.
			full := buildOpts(t, path, lower.Options{FullBarriers: true})
			if full.CUDA == out.CUDA || !strings.Contains(full.CUDA, "__syncthreads();") {
				t.Errorf("FullBarriers made no difference")
			}
			fsrc := filepath.Join(dir, base+"_full.cu")
			os.WriteFile(fsrc, []byte(full.CUDA), 0o644)
			t.Run(base+"_full", func(t *testing.T) {
				t.Parallel()
				if msg, err := exec.Command(nvcc, "-cubin", "-arch=sm_80", "-o", filepath.Join(dir, base+"_full.cubin"), fsrc).CombinedOutput(); err != nil {
					t.Fatalf("nvcc: %v\n%s", err, msg)
				}
			})
			out = build(t, path)
		}
		src := filepath.Join(dir, base+".cu")
		if err := os.WriteFile(src, []byte(out.CUDA), 0o644); err != nil {
			t.Fatal(err)
		}
		ext := strings.TrimSuffix(path, ".prism") + ".extern.cuh"
		if data, err := os.ReadFile(ext); err == nil {
			os.WriteFile(filepath.Join(dir, filepath.Base(ext)), data, 0o644)
		}
		// One nvcc process per program: sm_90a always, plus sm_80 when the
		// program uses no Hopper-only instruction (one fatbin, both targets).
		args := []string{"-cubin", "-arch=sm_90a", "-o", filepath.Join(dir, base+".cubin"), src}
		if !out.SM90 {
			args = []string{"-fatbin", "-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90a,code=sm_90a",
				"-o", filepath.Join(dir, base+".fatbin"), src}
		}
		t.Run(base, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(nvcc, args...)
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("nvcc %s: %v\n%s", strings.Join(args, " "), err, msg)
			}
		})
	}
}

// TestNVCCGenerated compiles the CUDA of a few random well-typed kernels
// (the generator of the soundness test), in split and full-barrier forms.
func TestNVCCGenerated(t *testing.T) {
	nvcc := cuda.FindNVCC()
	if nvcc == "" {
		if os.Getenv("WEFT_REQUIRE_NVCC") == "1" {
			t.Fatal("nvcc not found and WEFT_REQUIRE_NVCC=1")
		}
		t.Skip("nvcc not found")
	}
	dir := t.TempDir()
	for _, seed := range []int64{3, 42, 257} { // 257: wgmma and setmaxnreg from block code
		src, _ := progen.Generate(seed)
		f, errs := syntax.Parse(diag.NewFile("gen.prism", []byte(src)))
		info := check.Check(f, errs)
		if errs.HasErrors() {
			t.Fatalf("seed %d: %v", seed, errs.Err())
		}
		for _, full := range []bool{false, true} {
			out := lower.Lower(info, lower.Options{FullBarriers: full}, errs)
			name := filepath.Join(dir, fmt.Sprintf("gen%d_%v.cu", seed, full))
			os.WriteFile(name, []byte(out.CUDA), 0o644)
			t.Run(filepath.Base(name), func(t *testing.T) {
				t.Parallel()
				arch := []string{"-arch=sm_80"}
				if out.SM90 {
					arch = []string{"-gencode", "arch=compute_90a,code=sm_90a"}
				}
				args := append(append([]string{"-cubin"}, arch...), "-o", name+".cubin", name)
				if msg, err := exec.Command(nvcc, args...).CombinedOutput(); err != nil {
					t.Fatalf("nvcc: %v\n%s\n%s", err, msg, src)
				}
			})
		}
	}
}
