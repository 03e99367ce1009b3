package syncheck

import (
	"crypto/sha256"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/internal/expect"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

var updateConvertIR = flag.Bool("update-convert-ir", false, "rewrite testdata/convert_ir.sum from this build's Convert")

// TestConvertIR pins Convert's output on every program of the repository
// that converts (the examples, the bench programs and the testdata
// chunks): a canonical dump of each AMIR program (every exported field
// of every statement, access, window, variable and source; compiled
// expressions evaluated in three slot environments) hashed per proc, in
// testdata/convert_ir.sum. The sums were made by the converter before
// stop 27's allocation changes (issue 13), so the test is the
// differential check of that rewrite, and of any later one that must
// keep the IR as it is: regenerate with -update-convert-ir only for an
// intended change of the IR.
func TestConvertIR(t *testing.T) { convertIRCheck(t, *updateConvertIR) }

// TestConvertIRTinyRoom is TestConvertIR with every proc with variables
// converted in a tinyRoom (tinyForce): most outgrow its pieces, whose
// growth paths must give the same IR (issue 13, stop 45).
func TestConvertIRTinyRoom(t *testing.T) {
	tinyForce = true
	defer func() { tinyForce = false }()
	convertIRCheck(t, false)
}

func convertIRCheck(t *testing.T, update bool) {
	var files []string
	for _, pat := range []string{
		filepath.Join(examplesDir, "*.weft"), filepath.Join(examplesDir, "*", "*.weft"),
		"../../../bench/syncref/weft/*.weft", "testdata/*.weft",
	} {
		fs, _ := filepath.Glob(pat)
		files = append(files, fs...)
	}
	sort.Strings(files)
	var got []string
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for ci, chunk := range expect.Chunks(string(src)) {
			name := fmt.Sprintf("%s#%d", strings.TrimPrefix(filepath.ToSlash(file), "../../../"), ci+1)
			for _, line := range convertIRSums(name, chunk) {
				got = append(got, line)
			}
		}
	}
	if len(got) < 50 {
		t.Fatalf("only %d procs converted", len(got))
	}
	const sumFile = "testdata/convert_ir.sum"
	text := strings.Join(got, "\n") + "\n"
	if update {
		if err := os.WriteFile(sumFile, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(sumFile)
	if err != nil {
		t.Fatal(err)
	}
	wl := strings.Split(strings.TrimSpace(string(want)), "\n")
	if len(wl) != len(got) {
		t.Errorf("%d procs converted, %s has %d", len(got), sumFile, len(wl))
	}
	for i := 0; i < min(len(wl), len(got)); i++ {
		if wl[i] != got[i] {
			t.Errorf("AMIR differs from %s:\n got %s\nwant %s", sumFile, got[i], wl[i])
		}
	}
}

// convertIRSums converts every proc of one program that has device code
// and returns "name proc sum" lines.
func convertIRSums(name, src string) []string {
	l := lib.MustStd()
	var errs diag.List
	df := diag.NewFile(name, []byte(src))
	f := syntax.Parse(df, &errs)
	if errs.HasErrors() {
		return nil
	}
	check.Check(f, l, &errs)
	if errs.HasErrors() {
		return nil
	}
	var sizes map[string]int64
	if ds := Directives(df, &errs); len(ds) > 0 {
		sizes = ds[0]
	}
	gpu := gpucheck.Check(f, gpucheck.Options{Lib: l, Sizes: sizes}, &errs)
	if errs.HasErrors() {
		return nil
	}
	var out []string
	for _, d := range f.Decls {
		p, ok := d.(*syntax.Proc)
		if !ok || lib.IsInstr(p) || !hasDeviceVia(p.Body, f, 0) {
			continue
		}
		var cerrs diag.List
		prog := Convert(f, p, gpu, l, &cerrs)
		dump := dumpProgram(prog)
		for _, e := range cerrs.Diags {
			dump += fmt.Sprintf("diag %s %d:%d\n", e.Code, e.Pos.Line(), e.Pos.Col())
		}
		out = append(out, fmt.Sprintf("%s %s %x", name, p.Name.Name, sha256.Sum256([]byte(dump))))
	}
	return out
}

// irEnvs are the slot environments compiled expressions are evaluated in.
func irEnvs(n int) [][]int {
	envs := make([][]int, 3)
	for k := range envs {
		envs[k] = make([]int, n)
		for i := range envs[k] {
			envs[k][i] = (i*7+k*5+3)%17 - 4 + k*(i%3)
		}
	}
	return envs
}

// dumpProgram is the canonical text of a converted program.
func dumpProgram(prog *Program) string {
	var b strings.Builder
	p := prog.AMIR
	envs := irEnvs(len(p.Slots))
	ints := func(f amir.IntExpr) string {
		if f == nil {
			return "nil"
		}
		var vs []string
		for _, env := range envs {
			vs = append(vs, fmt.Sprint(f(env)))
		}
		return strings.Join(vs, "/")
	}
	bools := func(f amir.BoolExpr) string {
		if f == nil {
			return "nil"
		}
		var vs []string
		for _, env := range envs {
			vs = append(vs, fmt.Sprint(f(env)))
		}
		return strings.Join(vs, "/")
	}
	aff := func(a *amir.Affine) string {
		if a == nil {
			return "nil"
		}
		return fmt.Sprintf("%d%v", a.K, a.Terms)
	}
	acc := func(a *amir.Access) string {
		if a == nil {
			return "nil"
		}
		s := fmt.Sprintf("v%d slots%v [", a.Var, a.Slots)
		for _, w := range a.Idx {
			s += fmt.Sprintf("(%s:%s %s:%s", ints(w.Lo), ints(w.Hi), aff(w.LoAff), aff(w.HiAff))
			if w.LoMod != nil {
				s += fmt.Sprintf(" mod %s%%%d*%d+%d", aff(&w.LoMod.Aff), w.LoMod.M, w.LoMod.Sign, w.LoMod.Add)
			}
			s += ")"
		}
		return s + "]"
	}
	prog.fillQuals()
	fmt.Fprintf(&b, "proc %s slots %v params %v size %v mbar %d quals %v\n", p.Name, p.Slots, p.Params, prog.SizeParams, p.MbarQual, p.QualNames)
	for i, s := range p.Shapes {
		fmt.Fprintf(&b, "shape %d %+v\n", i, s)
	}
	for i, v := range p.Vars {
		var dims []string
		for _, d := range v.Dims {
			dims = append(dims, ints(d))
		}
		fmt.Fprintf(&b, "var %d %s barrier %v dims %v param %v gran %v nr %v nm %v neverR %v neverM %v local %v ptq %v ring %d/%d/%d/%d oneshot %v\n",
			i, v.Name, v.Barrier, dims, v.Param, v.Gran, v.NoReadRecords, v.NoMutateRecords, v.NeverRead, v.NeverMutated, v.TaskLocal,
			v.PerThreadQueue, v.Ring, v.RingDepth, v.RingDim, v.PreArrive, v.OneShotArrive)
	}
	for i, s := range p.Srcs {
		fmt.Fprintf(&b, "src %d %q %s machine %+v\n", i, s.Timeline, prog.srcStmts[i].Pos(), prog.Machines[i])
	}
	for i, s := range p.Syncs {
		fmt.Fprintf(&b, "sync %d src %d %s\n", i, s.Src, prog.Syncs[i].Pos())
	}
	var walk func(s *amir.Stmt, depth int)
	walk = func(s *amir.Stmt, depth int) {
		// The side structs of other kinds read as zero (amir.Stmt).
		ctl, ev := s.Ctl, s.Event
		if ctl == nil {
			ctl = &amir.Ctl{}
		}
		if ev == nil {
			ev = &amir.Event{}
		}
		// The start's values: Start, or StartAff's where the converter
		// makes only the form (exec, stop 31).
		start := s.Exec.Start
		if af := s.Exec.StartAff; start == nil && af != nil {
			start = af.Eval
		}
		fmt.Fprintf(&b, "%s%d src %d sync %d slot %d lo %s hi %s tasks %v cond %s exec %v/%d/%s/%s acc %s level %d cvg %v q %d quals %x pre %x full %x temp %x n %s what %d tx %d/%v/%d/%d ctl %v",
			strings.Repeat(" ", depth), s.Kind, s.Src, s.Sync, ctl.Slot, ints(ctl.Lo), ints(ctl.Hi), ctl.Tasks, bools(ctl.Cond),
			s.Exec.All, s.Exec.Shape, ints(start), aff(s.Exec.StartAff), acc(s.Acc), s.Level, s.Convergent, s.Q, s.Quals, ev.Pre, ev.Full, ev.Temp,
			ints(ev.N), s.What, s.TxBytes, s.TxCheck, ev.ExpectTx, ev.TxSrc, s.CtlSlots)
		for _, a := range s.Bars {
			fmt.Fprintf(&b, " bar %s", acc(a))
		}
		for _, d := range ctl.Dims {
			fmt.Fprintf(&b, " dim %s", ints(d))
		}
		fmt.Fprintf(&b, " body %d\n", len(s.Body))
		for _, c := range s.Body {
			walk(c, depth+1)
		}
	}
	walk(p.Body, 0)
	return b.String()
}
