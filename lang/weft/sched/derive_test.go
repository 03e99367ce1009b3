package sched_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"weft.dev/weft/cuda"
	cudainclude "weft.dev/weft/cuda/include"
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/cudagen"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/sched"
	"weft.dev/weft/lang/weft/syntax"
)

// The derivations of examples/weft/sched against the hand-written kernels
// of examples/weft/gemm (issue: "Tests compare the scheduled kernel's
// generated CUDA against the hand-written example's (same instruction mix
// and register counts from ptxas -v)").

func readChecked(t *testing.T, path string) *syntax.File {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var errs diag.List
	f := syntax.Parse(diag.NewFile(path, src), &errs)
	if !errs.HasErrors() {
		check.Check(f, lib.MustStd(), &errs)
	}
	if errs.HasErrors() {
		t.Fatalf("%s: %v", path, errs.Err())
	}
	return f
}

// derive runs a shipped schedule and returns the printed result, parsed
// and checked again.
func derive(t *testing.T, src, script string) *syntax.File {
	t.Helper()
	ex := filepath.Join("..", "..", "..", "examples", "weft")
	f := readChecked(t, filepath.Join(ex, src))
	sc, err := os.ReadFile(filepath.Join(ex, "sched", script))
	if err != nil {
		t.Fatal(err)
	}
	var errs diag.List
	res := sched.Run(f, diag.NewFile(script, sc), sched.Options{Lib: lib.MustStd()}, &errs)
	if errs.HasErrors() {
		t.Fatalf("%s: %v", script, errs.Err())
	}
	if len(res.Reassociated) > 0 {
		t.Errorf("%s reassociates: %v", script, res.Reassociated)
	}
	text := syntax.Print(res.File)
	var errs2 diag.List
	g := syntax.Parse(diag.NewFile("derived.weft", []byte(text)), &errs2)
	if !errs2.HasErrors() {
		check.Check(g, lib.MustStd(), &errs2)
	}
	if errs2.HasErrors() {
		t.Fatalf("the derived program does not check: %v\n%s", errs2.Err(), text)
	}
	return g
}

// compileBoth compiles f's generated CUDA for arch to a cubin (with the
// ptxas -v report) and to PTX; it returns the report, the cubin path and
// the PTX instruction mix (opcode, with modifiers, to count).
func compileBoth(t *testing.T, nvcc string, f *syntax.File, stem, arch string) (string, string, map[string]int) {
	t.Helper()
	var errs diag.List
	out := cudagen.Generate(f, lib.MustStd(), cudagen.Options{Stem: stem}, &errs)
	if errs.HasErrors() {
		t.Fatalf("generate %s: %v", stem, errs.Err())
	}
	dir := t.TempDir()
	files := out.Files
	for _, h := range cudainclude.Headers() {
		files = append(files, cudagen.File{Name: h.Name, Data: h.Data})
	}
	for _, fl := range files {
		if err := os.WriteFile(filepath.Join(dir, fl.Name), fl.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(nvcc, "-std=c++17", "-Werror", "all-warnings", "-arch="+arch, "-cubin", "-Xptxas", "-v", "-o", "k.cubin", stem+".cu")
	cmd.Dir = dir
	b, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nvcc %s: %v\n%s", stem, err, b)
	}
	cmd = exec.Command(nvcc, "-std=c++17", "-arch="+arch, "-ptx", "-o", "k.ptx", stem+".cu")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("nvcc -ptx %s: %v\n%s", stem, err, out)
	}
	ptx, err := os.ReadFile(filepath.Join(dir, "k.ptx"))
	if err != nil {
		t.Fatal(err)
	}
	mix := map[string]int{}
	for _, line := range strings.Split(string(ptx), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], ".") || strings.HasPrefix(f[0], "//") || strings.HasSuffix(f[0], ":") || f[0] == "{" || f[0] == "}" || f[0] == ")" || f[0] == "(" {
			continue
		}
		op := f[0]
		if strings.HasPrefix(op, "@") && len(f) > 1 {
			op = f[1]
		}
		mix[op]++
	}
	return string(b), filepath.Join(dir, "k.cubin"), mix
}

var usedRE = regexp.MustCompile(`Used (\d+) registers`)
var spillRE = regexp.MustCompile(`(\d+) bytes spill stores, (\d+) bytes spill loads`)

// sassOps disassembles a cubin (nvdisasm next to nvcc or on PATH) into its
// instruction sequence without addresses; "" when nvdisasm is absent.
func sassOps(t *testing.T, nvcc, cubin string) string {
	nd := filepath.Join(filepath.Dir(nvcc), "nvdisasm")
	if _, err := os.Stat(nd); err != nil {
		if p, err := exec.LookPath("nvdisasm"); err == nil {
			nd = p
		} else {
			return ""
		}
	}
	b, err := exec.Command(nd, "-c", cubin).CombinedOutput()
	if err != nil {
		t.Fatalf("nvdisasm: %v\n%s", err, b)
	}
	var ops []string
	addr := regexp.MustCompile(`/\*[0-9a-f]{4,}\*/\s+(.*?);`)
	for _, line := range strings.Split(string(b), "\n") {
		if m := addr.FindStringSubmatch(line); m != nil {
			ops = append(ops, m[1])
		}
	}
	return strings.Join(ops, "\n")
}

// TestSm80DerivationMatchesHandWritten schedules matmul_seq.weft with
// sched/xgemm_sm80.star and compiles its generated CUDA and that of the
// hand-written examples/weft/gemm/xgemm_sm80.weft for sm_80: no nvcc or
// ptxas warning (-Werror all-warnings), the same PTX instruction mix, the
// same register count, no spills, and, where nvdisasm is available, the
// same SASS instruction sequence.
func TestSm80DerivationMatchesHandWritten(t *testing.T) {
	compareDerived(t, "matmul_seq.weft", "xgemm_sm80.star", "xgemm_sm80.weft", "sm_80")
}

// TestSm90DerivationMatchesHandWritten does the same for the Hopper GEMM
// (TMA into a swizzled 4-stage ring, mbarrier ring, producer/consumer warp
// specialization with setmaxnreg, wgmma) derived from matmul_bt_seq.weft
// by sched/xgemm_sm90.star, compiled for sm_90a.
func TestSm90DerivationMatchesHandWritten(t *testing.T) {
	compareDerived(t, "matmul_bt_seq.weft", "xgemm_sm90.star", "xgemm_sm90.weft", "sm_90a")
}

func compareDerived(t *testing.T, src, script, handFile, arch string) {
	derived := derive(t, src, script)
	nvcc := cuda.FindNVCC()
	if nvcc == "" {
		if os.Getenv("WEFT_REQUIRE_NVCC") == "1" {
			t.Fatal("nvcc not found and WEFT_REQUIRE_NVCC=1")
		}
		t.Skip("nvcc not found")
	}
	hand := readChecked(t, filepath.Join("..", "..", "..", "examples", "weft", "gemm", handFile))
	rd, cd, md := compileBoth(t, nvcc, derived, "derived", arch)
	rh, ch, mh := compileBoth(t, nvcc, hand, "hand", arch)
	total := 0
	for op, n := range mh {
		total += n
		if md[op] != n {
			t.Errorf("PTX instruction %s: derived %d, hand-written %d", op, md[op], n)
		}
	}
	for op, n := range md {
		if _, ok := mh[op]; !ok {
			t.Errorf("PTX instruction %s: derived %d, hand-written 0", op, n)
		}
	}
	t.Logf("PTX: %d instructions of %d kinds, the same mix", total, len(mh))
	regs := func(r string) string {
		m := usedRE.FindStringSubmatch(r)
		if m == nil {
			t.Fatalf("no register count in the ptxas report:\n%s", r)
		}
		return m[1]
	}
	if a, b := regs(rd), regs(rh); a != b {
		t.Errorf("registers: derived %s, hand-written %s", a, b)
	} else {
		t.Logf("registers: %s (both)", a)
	}
	for _, r := range []string{rd, rh} {
		if m := spillRE.FindStringSubmatch(r); m == nil || m[1] != "0" || m[2] != "0" {
			t.Errorf("spills in:\n%s", r)
		}
	}
	sd, sh := sassOps(t, nvcc, cd), sassOps(t, nvcc, ch)
	if sd == "" {
		t.Log("nvdisasm not found: SASS not compared")
		return
	}
	if sd != sh {
		t.Errorf("the SASS differs (%d vs %d instructions)", strings.Count(sd, "\n")+1, strings.Count(sh, "\n")+1)
	} else {
		t.Logf("SASS: %d instructions, identical", strings.Count(sd, "\n")+1)
	}
}
