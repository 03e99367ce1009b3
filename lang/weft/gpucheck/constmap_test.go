package gpucheck

import (
	"bytes"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// constVariants are files whose globals evaluate in order: one naming a
// later one, one declared twice, one the check cannot evaluate.
var constVariants = []string{
	`B = A * 2
A = 4
N = A * 8

@proc
def p():
    with CudaDeviceFunction(blockDim=N):
        for task in cuda_tasks(0, 1):
            for t in cuda_threads(0, A, unit=cuda_thread):
                pass
`,
	`A = 1
A = 2
M = A * 16

@proc
def p():
    with CudaDeviceFunction(blockDim=32 * A):
        for task in cuda_tasks(0, 1):
            for t in cuda_threads(0, M, unit=cuda_thread):
                pass
`,
	`W = [CudaWarpConfig("p", 1), CudaWarpConfig("c", 2)]
K = 2
L = K // 3

@proc
def p():
    with CudaDeviceFunction(warp_config=W):
        for task in cuda_tasks(0, 1):
            with CudaWarps(name="c"):
                for t in cuda_threads(0, K, unit=cuda_warp):
                    pass
`,
}

// TestFileConstsMatchMap checks fileConsts (constmap.go) against the map
// built for every check: the repository's programs, the benchmark rows
// with their command lines and constVariants, each checked with package
// check's program and sizes that agree with it, sizes that change one
// constant, a size of a name the file does not declare, and none, with
// and without the program's map taken as the check's: the same
// constants, diagnostics, scopes, iterators, devices and thread report.
// The program's map and the sizes' must each be taken for some and
// neither for others (a program with a constant of its own: p3).
func TestFileConstsMatchMap(t *testing.T) {
	l := lib.MustStd()
	type input struct {
		name, src string
		sizes     map[string]int64
	}
	var inputs []input
	for _, path := range programFiles() {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, chunk := range strings.Split(string(b), "\n---\n") {
			inputs = append(inputs, input{fmt.Sprintf("%s#%d", path, i), chunk, nil})
		}
	}
	for i, v := range constVariants {
		inputs = append(inputs, input{fmt.Sprintf("variant %d", i), v, nil})
	}
	if idx, err := os.ReadFile("/work/wt/rows/index"); err == nil {
		for _, line := range strings.Split(string(idx), "\n") {
			fs := strings.Fields(line)
			if len(fs) < 2 {
				continue
			}
			src, err := os.ReadFile("/work/wt/rows/" + fs[0] + ".weft")
			if err != nil {
				continue
			}
			sizes := map[string]int64{}
			for _, a := range fs[2:] {
				var name string
				var v int64
				if k := strings.IndexByte(a, '='); k > 0 {
					if _, err := fmt.Sscan(a[k+1:], &v); err == nil {
						name = a[:k]
						sizes[name] = v
					}
				}
			}
			inputs = append(inputs, input{"row " + fs[0], string(src), sizes})
		}
	}
	shared, fromSizes, built := 0, 0, 0
	for _, in := range inputs {
		var errs diag.List
		f := syntax.Parse(diag.NewFile("x.weft", []byte(in.src)), &errs)
		if errs.HasErrors() {
			continue
		}
		prog := check.Check(f, l, &errs)
		if prog == nil {
			continue
		}
		sizeSets := []map[string]int64{nil, {"ZZ_NOT_DECLARED": 3}, {"ZZ_ZERO": 0}}
		if in.sizes != nil {
			sizeSets = append(sizeSets, in.sizes)
		}
		agree := map[string]int64{}
		for k, v := range prog.Consts {
			agree[k] = v
		}
		sizeSets = append(sizeSets, agree)
		for k, v := range prog.Consts {
			changed := map[string]int64{}
			for k2, v2 := range prog.Consts {
				changed[k2] = v2
			}
			changed[k] = v + 1
			sizeSets = append(sizeSets, changed)
		}
		// Programs whose constants lack one of the file's (Options
		// allow any program): the map must be built.
		progs := []*check.Program{prog}
		for k := range prog.Consts {
			p2 := *prog
			p2.Consts = map[string]int64{}
			for k2, v2 := range prog.Consts {
				if k2 != k {
					p2.Consts[k2] = v2
				}
			}
			progs = append(progs, &p2)
		}
		// A program with a constant neither the file nor the sizes
		// name: the sizes' map must not be taken for it.
		p3 := *prog
		p3.Consts = map[string]int64{"ZZ_PROG_ONLY": 5}
		for k, v := range prog.Consts {
			p3.Consts[k] = v
		}
		progs = append(progs, &p3)
		for pi, sizes := range sizeSets {
			for _, p := range progs {
				if pi > 1 && p != prog && p != &p3 {
					continue
				}
				a := constsDump(l, f, p, sizes, false)
				b := constsDump(l, f, p, sizes, true)
				if a != b {
					t.Fatalf("%s with sizes %v, constants %v: with the program's map:\n%s\nbuilt:\n%s", in.name, sizes, p.Consts, a, b)
				}
			}
			if r := Check(f, Options{Lib: l, Prog: prog, Sizes: sizes}, &diag.List{}); r.Consts != nil && prog.Consts != nil &&
				fmt.Sprintf("%p", r.Consts) == fmt.Sprintf("%p", prog.Consts) {
				shared++
			} else if r.Consts != nil && len(sizes) > 0 && fmt.Sprintf("%p", r.Consts) == fmt.Sprintf("%p", sizes) {
				fromSizes++
			} else {
				built++
			}
		}
	}
	t.Logf("%d inputs: the program's map taken %d times, the sizes %d, built %d", len(inputs), shared, fromSizes, built)
	if shared < 50 || fromSizes < 50 || built < 50 {
		t.Errorf("the comparison exercised too little")
	}
}

// constsDump checks f with prog and sizes (the map built when built is
// set) and prints its constants and what the check gave.
func constsDump(l *lib.Library, f *syntax.File, prog *check.Program, sizes map[string]int64, built bool) string {
	constMapsOff = built
	defer func() { constMapsOff = false }()
	var errs diag.List
	r := Check(f, Options{Lib: l, Prog: prog, Sizes: sizes}, &errs)
	var b strings.Builder
	var names []string
	for k := range r.Consts {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		fmt.Fprintf(&b, "const %s = %d\n", k, r.Consts[k])
	}
	// The constant lookup keeps (consts.hit, stop 47; takenMap's
	// first global) is the map's entry.
	if h := r.consts.hit; h.name != "" {
		if v, ok := r.Consts[h.name]; !ok || v != h.val {
			fmt.Fprintf(&b, "hit %s = %d, not the map's (%d, %v)\n", h.name, h.val, v, ok)
		}
	}
	for _, d := range errs.Diags {
		fmt.Fprintf(&b, "diag %s\n", d)
	}
	for i, st := range r.Stmts {
		s := r.StmtScopes[i]
		fmt.Fprintf(&b, "stmt %s: %s", st.Pos(), s.TL)
		if s.Tiling != nil {
			fmt.Fprintf(&b, " %s", s.Tiling)
		}
		for _, it := range s.Iters {
			fmt.Fprintf(&b, " %s#%d(%d, %s)", it.Name, it.ID, it.Count, it.Unit)
		}
		b.WriteByte('\n')
	}
	for _, d := range r.Devices {
		fmt.Fprintf(&b, "device %s %s %d iters\n", d.Stmt.Pos(), d.Top, len(d.Iters))
	}
	var tw bytes.Buffer
	if !errs.HasErrors() {
		r.WriteThreads(&tw)
	}
	b.WriteString(tw.String())
	return b.String()
}
