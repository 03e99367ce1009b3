package sched

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/interp"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

var update = flag.Bool("update", false, "rewrite the want.weft and errors sections of testdata/cases")

// parseChecked parses and checks a Weft source; the test fails on any error.
func parseChecked(t testing.TB, name string, src []byte) *syntax.File {
	t.Helper()
	var errs diag.List
	f := syntax.Parse(diag.NewFile(name, src), &errs)
	if !errs.HasErrors() {
		check.Check(f, lib.MustStd(), &errs)
	}
	if errs.HasErrors() {
		t.Fatalf("%s does not check: %v", name, errs.Err())
	}
	return f
}

// formatDiags prints diagnostics one per line with their notes, the form
// the errors sections hold.
func formatDiags(ds []*diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%s: %s %s\n", posString(d.Pos), d.Code, d.Message)
		for _, n := range d.Notes {
			fmt.Fprintf(&b, "    note %s: %s\n", posString(n.Pos), n.Message)
		}
	}
	return b.String()
}

func posString(p diag.Pos) string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%s:%d:%d", filepath.Base(p.File.Name), p.Line(), p.Col())
}

// TestCases runs every testdata/cases/*.txtar: input.weft scheduled by
// script.star must print as want.weft (and still check), or fail with
// exactly the diagnostics of the errors section. A sizes section lists
// sizes (one run per line) at which the original and the scheduled procs
// must compute the same arrays on random inputs.
func TestCases(t *testing.T) {
	files, _ := filepath.Glob("testdata/cases/*.txtar")
	if len(files) == 0 {
		t.Fatal("no test cases")
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			sec := map[string][]byte{}
			for _, f := range ar.Files {
				sec[f.Name] = f.Data
			}
			in := parseChecked(t, "input.weft", sec["input.weft"])
			var errs diag.List
			var printed, traced strings.Builder
			opts := Options{Lib: lib.MustStd(), Print: &printed}
			if _, ok := sec["trace"]; ok {
				opts.Trace = &traced
			}
			res := Run(in, diag.NewFile("script.star", sec["script.star"]), opts, &errs)
			if want, ok := sec["trace"]; ok {
				if *update {
					setSection(ar, "trace", traced.String())
				} else if traced.String() != string(want) {
					t.Errorf("trace:\n%s\nwant:\n%s", traced.String(), want)
				}
			}
			errs.Sort()
			got := formatDiags(errs.Diags)
			out := syntax.Print(res.File)
			if _, ok := sec["errors"]; ok {
				if *update {
					setSection(ar, "errors", got)
				} else if got != string(sec["errors"]) {
					t.Errorf("diagnostics:\n%s\nwant:\n%s", got, sec["errors"])
				}
			} else {
				if errs.Len() > 0 {
					t.Fatalf("unexpected diagnostics:\n%s", got)
				}
				if _, ok := sec["stdout"]; ok && *update {
					setSection(ar, "stdout", printed.String())
				}
				if *update {
					setSection(ar, "want.weft", out)
				} else if out != string(sec["want.weft"]) {
					t.Errorf("scheduled program:\n%s\nwant:\n%s", out, sec["want.weft"])
				}
				// The result parses back to itself and checks.
				again := parseChecked(t, "want.weft", []byte(out))
				if syntax.Print(again) != out {
					t.Errorf("the printed result does not round-trip")
				}
				if want, ok := sec["stdout"]; ok && printed.String() != string(want) {
					t.Errorf("print output:\n%s\nwant:\n%s", printed.String(), want)
				}
				for _, line := range strings.Split(strings.TrimSpace(string(sec["sizes"])), "\n") {
					if line == "" {
						continue
					}
					for seed := uint64(1); seed <= 3; seed++ {
						if msg := sameMeaning(in, res.File, strings.Fields(line), seed, len(res.Reassociated) > 0); msg != "" {
							t.Errorf("sizes %s seed %d: %s", line, seed, msg)
						}
					}
				}
			}
			if *update {
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

func setSection(ar *txtar.Archive, name, data string) {
	for i := range ar.Files {
		if ar.Files[i].Name == name {
			ar.Files[i].Data = []byte(data)
			return
		}
	}
	ar.Files = append(ar.Files, txtar.File{Name: name, Data: []byte(data)})
}

func libProcs(name string) *syntax.Proc {
	l := lib.MustStd()
	if in := l.Instr(name); in != nil {
		return in.Proc
	}
	return l.Proc(name)
}

// userProcs are a file's procs that are not instructions, in order.
func userProcs(f *syntax.File) []*syntax.Proc {
	var out []*syntax.Proc
	for _, d := range f.Decls {
		if p, ok := d.(*syntax.Proc); ok && !isInstrDecl(p) {
			out = append(out, p)
		}
	}
	return out
}

// sameMeaning runs each proc of before and the proc at the same place in
// after (procs the schedule added, by extract_subproc or copy_proc, come
// after them and are not compared) on the same random inputs (sizes from assigns, every array
// "rand") and compares every array argument afterwards: bit-exactly, or
// within a relative 1e-5 when the schedule reassociated reductions. It
// returns "" when they agree. A run that fails the same way on both (e.g. a
// failed assert added by add_assert on the scheduled side only) is
// reported unless before fails too.
func sameMeaning(before, after *syntax.File, assigns []string, seed uint64, reassoc bool) string {
	bp, ap := userProcs(before), userProcs(after)
	if len(bp) > len(ap) {
		return fmt.Sprintf("%d procs before, %d after", len(bp), len(ap))
	}
	for i := range bp {
		ra, errA := runProc(before, bp[i].Name.Name, assigns, seed)
		rb, errB := runProc(after, ap[i].Name.Name, assigns, seed)
		if errA != nil {
			return "original: " + errA.Error()
		}
		if errB != nil {
			return "scheduled: " + errB.Error()
		}
		names := make([]string, 0, len(ra))
		for n := range ra {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			tol := 0.0
			if reassoc {
				tol = 1e-5
			}
			if m := ra[n].Compare(rb[n], tol, tol); m != nil {
				return fmt.Sprintf("proc %s array %s: %s", bp[i].Name.Name, n, m)
			}
		}
	}
	return ""
}

func runProc(f *syntax.File, name string, assigns []string, seed uint64) (map[string]*interp.Array, error) {
	prog := interp.New(f, interp.Options{Procs: libProcs, MaxSteps: 50_000_000})
	p, err := prog.Main(name)
	if err != nil {
		return nil, err
	}
	var as [][2]string
	given := map[string]bool{}
	for _, a := range assigns {
		k, v, _ := strings.Cut(a, "=")
		as = append(as, [2]string{k, v})
		given[k] = true
	}
	for _, q := range p.Params {
		if q.IsArray() && !given[q.Name] {
			as = append(as, [2]string{q.Name, "rand"})
		}
	}
	args, arrays, err := p.Bind(as, seed, nil)
	if err != nil {
		return nil, err
	}
	if err := p.Call(args); err != nil {
		return nil, err
	}
	out := map[string]*interp.Array{}
	for _, n := range arrays {
		out[n] = args[n].(*interp.Array)
	}
	return out, nil
}
