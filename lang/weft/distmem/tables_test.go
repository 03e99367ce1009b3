package distmem

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/internal/expect"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// mapCheck is Check as it was before its tables (stop 35): a map from
// each variable to its deduction, each deduction its own object, and
// each list of triples grown use by use.
func mapCheck(g *gpucheck.Result, errs *diag.List) []*Deduction {
	var out []*Deduction
	byVar := map[*gpucheck.Var]*Deduction{}
	for _, v := range g.Vars {
		if d := newDeduction(g, v, new(Deduction), errs); d != nil {
			out = append(out, d)
			byVar[v] = d
		}
	}
	for _, a := range g.Accesses {
		d := byVar[a.Var]
		if d == nil {
			continue
		}
		deduceAccess(g, d, a, errs, nil)
	}
	return out
}

// dumpDeductions prints every deduction and its triples.
func dumpDeductions(ds []*Deduction) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%s native %q TA %d TN %d dist %d chain %q unit %v\n", d.Var.Name, d.NativeUnit(), d.TA, d.TN, d.Dist, d.Chain(), d.unit)
		for _, t := range d.Triples {
			fmt.Fprintf(&b, "  %s %p %v offset %d:", t.Access.Node.Pos(), t.Tiling, t.Pitches, t.Offset)
			for _, it := range t.Iters {
				fmt.Fprintf(&b, " %s#%d", iterName(t, it), it.ID)
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// TestTablesMatchMap checks Check's tables (a deduction per variable's
// position, the triples' lists carved from one array) against the map
// it replaced: on every program of the repository and of distmem's and
// gpucheck's test data, both give the same deductions (triples, pitches,
// offsets, chains), the same diagnostics, and ByVar gives each
// variable's deduction.
func TestTablesMatchMap(t *testing.T) {
	l := lib.MustStd()
	files := repoFiles()
	programs, deductions, triples := 0, 0, 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, chunk := range expect.Chunks(string(src)) {
			var errs diag.List
			f := syntax.Parse(diag.NewFile(file, []byte(chunk)), &errs)
			if errs.HasErrors() {
				continue
			}
			g := gpucheck.Check(f, gpucheck.Options{Lib: l}, &errs)
			if errs.HasErrors() {
				continue
			}
			programs++
			var e1, e2 diag.List
			r := Check(g, &e1)
			want := mapCheck(g, &e2)
			if got, w := dumpDeductions(r.Deductions), dumpDeductions(want); got != w {
				t.Fatalf("%s: tables:\n%s\nmap:\n%s", file, got, w)
			}
			if fmt.Sprint(e1.Diags) != fmt.Sprint(e2.Diags) {
				t.Fatalf("%s: diagnostics %v, map %v", file, e1.Diags, e2.Diags)
			}
			for i, v := range g.Vars {
				var w *Deduction
				for _, d := range r.Deductions {
					if d.Var == v {
						w = d
					}
				}
				if got := r.ByVar(v); got != w {
					t.Fatalf("%s: ByVar(%s) = %p, want %p", file, v.Name, got, w)
				}
				if g.VarIndex(v) != i {
					t.Fatalf("%s: VarIndex(%s) = %d, want %d", file, v.Name, g.VarIndex(v), i)
				}
			}
			if r.ByVar(&gpucheck.Var{Name: "stranger"}) != nil {
				t.Fatalf("%s: ByVar of a variable not in the check", file)
			}
			deductions += len(want)
			for _, d := range want {
				triples += len(d.Triples)
			}
		}
	}
	t.Logf("%d programs, %d deductions, %d triples", programs, deductions, triples)
	if programs < 50 || triples < 300 {
		t.Errorf("the comparison exercised too little")
	}
}

// repoFiles lists the programs the differential tests run on: distmem's
// and gpucheck's test data, then every .weft file git tracks in the
// repository (none where git is missing; the tests' minimum counts then
// fail).
func repoFiles() []string {
	var files []string
	for _, pat := range []string{"testdata/*.weft", "../gpucheck/testdata/*.weft"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	if out, err := exec.Command("git", "ls-files", "--full-name", ":/*.weft").Output(); err == nil {
		root, _ := exec.Command("git", "rev-parse", "--show-toplevel").Output()
		for _, p := range strings.Fields(string(out)) {
			files = append(files, filepath.Join(strings.TrimSpace(string(root)), p))
		}
	}
	return files
}
