package cudagen

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"weft.dev/weft/cuda"
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/audala/check"
	"weft.dev/weft/lang/audala/syntax"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func load(t testing.TB, name string) *check.Program {
	t.Helper()
	path := "../testdata/" + name + ".adl"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return loadSrc(t, path, string(src))
}

func loadSrc(t testing.TB, path, src string) *check.Program {
	t.Helper()
	var diags diag.List
	f := diag.NewFile(path, []byte(src))
	sp := syntax.Parse(f, &diags)
	if sp == nil {
		t.Fatal(diags.Err())
	}
	prog := check.Check(f, sp, &diags)
	if prog == nil || diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	return prog
}

type genCase struct {
	prog string
	opt  Options
}

func (c genCase) name() string {
	n := c.prog + "." + c.opt.Strategy.String() + "." + c.opt.MemOrder.String()
	if !c.opt.ONRP {
		n += ".noonrp"
	}
	if c.opt.Rotating {
		n += ".rotating"
	}
	if c.opt.Time {
		n += ".time"
	}
	if c.opt.PrintUnstable {
		n += ".unstable"
	}
	return n
}

// goldenCases cover every strategy and memory order once.
var goldenCases = []genCase{
	{"fig1", Options{Strategy: Graph, MemOrder: Relaxed, ONRP: true}},
	{"ps_thesis", Options{Strategy: Host, MemOrder: RA, ONRP: true}},
	{"fb_thesis_fixed", Options{Strategy: Graph, MemOrder: Relaxed, ONRP: true}},
	{"ch_thesis", Options{Strategy: Grid, MemOrder: SC, ONRP: false}},
	{"fb_thesis_fixed", Options{Strategy: Grid, MemOrder: Relaxed, ONRP: true, Rotating: true}},
	{"fb_thesis_fixed", Options{Strategy: Host, MemOrder: Relaxed, ONRP: true, Time: true, PrintUnstable: true}},
}

// TestGolden compares generated code with testdata/*.cu (regenerate with
// go test -update after reviewing a change); generation is deterministic.
func TestGolden(t *testing.T) {
	for _, c := range goldenCases {
		var diags diag.List
		got := Generate(load(t, c.prog), c.opt, &diags)
		if got == "" {
			t.Fatalf("%s: %v", c.name(), diags.Err())
		}
		if again := Generate(load(t, c.prog), c.opt, &diags); again != got {
			t.Errorf("%s: output differs between two runs", c.name())
		}
		path := filepath.Join("testdata", c.name()+".cu")
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update)", err)
		}
		if got != string(want) {
			t.Errorf("%s differs from %s (run go test -update and review the diff)", c.name(), path)
		}
	}
}

func names(set map[*check.Param]bool) string {
	var out []string
	for p := range set {
		out = append(out, p.Owner.Name+"."+p.Name)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// TestRacing checks the ONRP analysis (spec §5.9) on thesis programs.
func TestRacing(t *testing.T) {
	fb := load(t, "fb_thesis_fixed")
	for _, c := range []struct{ s, step, want string }{
		// set.pivot is written through a reference.
		{"Node", "pivot_nominate", "NodeSet.pivot"},
		// Own parameters only, and a constructor whose struct is read
		// through references (set.f_and_not_b): those race.
		{"Node", "trim", "NodeSet.f_and_not_b NodeSet.not_f_and_b NodeSet.not_f_and_not_b"},
		{"Node", "divide_into_sets", ""},
		{"Edge", "compute_fwd_bwd", "Node.bwd Node.fwd"},
		{"NodeSet", "allocate_sets", "Node.bwd Node.fwd"},
	} {
		st := fb.StructByName(c.s).Step(c.step)
		if got := names(racing(st)); got != c.want {
			t.Errorf("racing(%s.%s) = %q, want %q", c.s, c.step, got, c.want)
		}
	}
	// Fresh labels (spec §5.8): set := NodeSet(...) in trim, then copied.
	if got, want := names(freshCarrying(fb)), "Node.set NodeSet.f_and_not_b NodeSet.not_f_and_b NodeSet.not_f_and_not_b"; got != want {
		t.Errorf("freshCarrying(fb) = %q, want %q", got, want)
	}
	if got := names(freshCarrying(load(t, "ch_thesis"))); got != "" {
		t.Errorf("freshCarrying(ch) = %q, want none", got)
	}
}

// TestPrintInFix: the device-driven strategies cannot print between
// iterations; the host strategy can.
func TestPrintInFix(t *testing.T) {
	prog := loadSrc(t, "p.adl", "struct A(x: Nat) { s { x := x; } }\nFix(s < A.print)\n")
	for _, st := range []Strategy{Graph, Grid} {
		var diags diag.List
		if out := Generate(prog, Options{Strategy: st}, &diags); out != "" || len(diags.Diags) != 1 || diags.Diags[0].Code != "A0401" {
			t.Errorf("%v: want A0401, got %v", st, diags.Err())
		}
	}
	var diags diag.List
	if out := Generate(prog, Options{Strategy: Host}, &diags); out == "" || !strings.Contains(out, "adl_print_0();") {
		t.Errorf("host: %v", diags.Err())
	}
}

// TestTimeUnstable checks what --time and --printunstable add: the events
// around the schedule and the AuDaLaC line, the counters bumped only by
// writes and constructors inside a Fix, and the report in the format of
// weft run --printunstable; without the options none of it.
func TestTimeUnstable(t *testing.T) {
	prog := load(t, "fig1")
	for _, st := range []Strategy{Graph, Host, Grid} {
		var diags diag.List
		plain := Generate(prog, Options{Strategy: st, ONRP: true}, &diags)
		src := Generate(prog, Options{Strategy: st, ONRP: true, Time: true, PrintUnstable: true}, &diags)
		for _, want := range []string{
			`fprintf(stderr, "Total walltime GPU: %0.6f ms\n", adl_ms);`,
			"ADL_CHECK(cudaEventRecord(adl_t0));",
			"__device__ unsigned long long adl_unstable[5];",
			"&& lvl >= 0) atomicAdd(&adl_unstable[0], 1ull);",
			"if (lvl >= 0) atomicAdd(&adl_unstable[1], 1ull);",
			`if (u[0]) fprintf(stderr, "unstable: Node.reachable %llu\n", u[0]);`,
			`if (u[4]) fprintf(stderr, "unstable: new Edge %llu\n", u[4]);`,
		} {
			if !strings.Contains(src, want) {
				t.Errorf("%v: missing %q", st, want)
			}
			if strings.Contains(plain, want) {
				t.Errorf("%v: %q without the options", st, want)
			}
		}
		// The event pair brackets the schedule: t0 before the first
		// segment, t1 after the last error check.
		if i, j, k := strings.Index(src, "cudaEventRecord(adl_t0)"), strings.Index(src, "{ // segment 0"), strings.Index(src, "cudaEventRecord(adl_t1)"); !(i < j && j < k) {
			t.Errorf("%v: events not around the schedule (%d %d %d)", st, i, j, k)
		}
	}
}

// TestNVCC compiles generated programs with nvcc: full host+device object
// files for one program per strategy, device code (cubin) for the rest, and
// one for sm_80. Subtests run in parallel (nvcc takes seconds per file).
func TestNVCC(t *testing.T) {
	nvcc := cuda.FindNVCC()
	if nvcc == "" {
		if os.Getenv("WEFT_REQUIRE_NVCC") == "1" {
			t.Fatal("nvcc not found and WEFT_REQUIRE_NVCC=1")
		}
		t.Skip("nvcc not found")
	}
	dir := t.TempDir()
	cases := []struct {
		genCase
		args []string
	}{
		{genCase{"fig1", Options{Strategy: Graph, ONRP: true, Time: true, PrintUnstable: true}}, []string{"-arch=sm_90a", "-c"}},
		{genCase{"fb_thesis_fixed", Options{Strategy: Host, MemOrder: RA, ONRP: true, Time: true, PrintUnstable: true}}, []string{"-arch=sm_90a", "-c"}},
		{genCase{"scs_thesis", Options{Strategy: Grid, MemOrder: SC, ONRP: false, Time: true, PrintUnstable: true}}, []string{"-arch=sm_90a", "-c"}},
		{genCase{"ps_thesis", Options{Strategy: Graph, ONRP: true}}, []string{"-arch=sm_90a", "-cubin"}},
		{genCase{"ch_thesis", Options{Strategy: Graph, ONRP: true}}, []string{"-arch=sm_90a", "-cubin"}},
		{genCase{"spm_thesis", Options{Strategy: Grid, ONRP: true, Rotating: true}}, []string{"-arch=sm_80", "-cubin"}},
		{genCase{"cpp_lines", Options{Strategy: Graph, ONRP: true}}, []string{"-arch=sm_80", "-c"}},
	}
	for _, c := range cases {
		t.Run(c.name(), func(t *testing.T) {
			t.Parallel()
			var diags diag.List
			src := Generate(load(t, c.prog), c.opt, &diags)
			path := filepath.Join(dir, c.name()+".cu")
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			args := append(append([]string{}, c.args...), "-Werror", "all-warnings", "-o", path+".out", path)
			out, err := exec.Command(nvcc, args...).CombinedOutput()
			if err != nil {
				t.Fatalf("nvcc %s: %v\n%s", strings.Join(args, " "), err, out)
			}
		})
	}
}
