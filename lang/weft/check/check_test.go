package check

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

func chunks(src string) []string {
	return regexp.MustCompile(`(?m)^---\s*$\n?`).Split(src, -1)
}

// marker is `# ERROR CODE "regexp"` or, pinning the column too,
// `# ERROR CODE@COL "regexp"`.
var marker = regexp.MustCompile(`# ERROR (\w+)(?:@(\d+))? "((?:[^"\\]|\\.)*)"`)

func checkSrc(name, src string) (*Program, *diag.List) {
	var errs diag.List
	f := syntax.Parse(diag.NewFile(name, []byte(src)), &errs)
	p := Check(f, lib.MustStd(), &errs)
	return p, &errs
}

// runChunks checks every chunk of every testdata file: each line with
// `# ERROR CODE "regexp"` must get a matching diagnostic on that line, and
// no other diagnostic may appear. It returns the codes seen.
func runChunks(t *testing.T, files []string) map[string]bool {
	return runChunksFiltered(t, files, func(string) bool { return true })
}

// runChunksFiltered is runChunks restricted to diagnostics and markers whose
// code keep accepts.
func runChunksFiltered(t *testing.T, files []string, keep func(code string) bool) map[string]bool {
	seen := map[string]bool{}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		// Line offsets of chunks, so failures name the file line.
		base := 0
		for i, chunk := range chunks(string(src)) {
			_, errs := checkSrc(filepath.Base(file), chunk)
			type want struct {
				line, col int
				code      string
				re        *regexp.Regexp
			}
			var wants []want
			for ln, text := range strings.Split(chunk, "\n") {
				for _, m := range marker.FindAllStringSubmatch(text, -1) {
					if !keep(m[1]) {
						continue
					}
					col, _ := strconv.Atoi(m[2])
					wants = append(wants, want{ln + 1, col, m[1], regexp.MustCompile(m[3])})
				}
			}
			matched := map[int]bool{}
			for _, w := range wants {
				found := false
				for j, d := range errs.Diags {
					if !matched[j] && d.Pos.Line() == w.line && (w.col == 0 || d.Pos.Col() == w.col) && d.Code == w.code && w.re.MatchString(d.Message) {
						found, matched[j] = true, true
						seen[w.code] = true
						break
					}
				}
				if !found {
					t.Errorf("%s:%d (chunk %d): want %s %q; got:\n%s", file, base+w.line, i, w.code, w.re, dump(errs))
				}
			}
			for j, d := range errs.Diags {
				if !matched[j] && keep(d.Code) {
					t.Errorf("%s:%d (chunk %d): unexpected %s", file, base+d.Pos.Line(), i, d.Error())
				}
			}
			base += strings.Count(chunk, "\n") + 1
		}
	}
	return seen
}

func dump(errs *diag.List) string {
	var b strings.Builder
	for _, d := range errs.Diags {
		b.WriteString("\t" + d.Error() + "\n")
	}
	return b.String()
}

func TestData(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.weft")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	seen := runChunks(t, files)
	// Every registered check code is exercised by some case.
	for _, c := range codes {
		if !seen[c.Code] {
			t.Errorf("code %s (%s) has no test case in testdata", c.Code, c.Summary)
		}
	}
}

// TestLibraryChecksClean checks the standard library's instruction and
// proc bodies as user code: they must resolve without diagnostics.
func TestLibraryChecksClean(t *testing.T) {
	l := lib.MustStd()
	var errs diag.List
	p := Check(&syntax.File{Name: "empty.weft"}, l, &errs)
	if errs.Len() > 0 {
		t.Fatal(errs.Err())
	}
	c := &checker{}
	_ = c
	if len(p.ByName) != 0 || len(p.libProcs.entries()) != l.NumNames() {
		t.Errorf("ByName has %d entries (want 0: an empty file), the library's %d, library %d instrs + %d procs",
			len(p.ByName), len(p.libProcs.entries()), l.NumInstrs(), l.NumNames()-l.NumInstrs())
	}
	// Re-check with diagnostics visible: every file, so an eager load
	// (Std keeps only the files it parses whole; its procs are parsed
	// at first use, stop 44).
	eager, err := lib.Load(lib.StdFiles()...)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range eager.Files {
		if hasGlobals(f) {
			continue // data tables: loaded by package lib, not user code
		}
		var errs diag.List
		Check(f, eager, &errs)
		for _, d := range errs.Diags {
			t.Errorf("library: %s", d.Error())
		}
	}
	fma := p.Lookup("cuda_fma_f32")
	if fma == nil || fma.Instr == nil || len(fma.Params) != 3 || fma.Params[0].Kind != KindScalar || fma.Params[0].Mem != "" {
		t.Fatalf("cuda_fma_f32 resolved as %+v", fma)
	}
	// Every name use in the body is resolved.
	n := 0
	for name, sym := range fma.Uses {
		if sym == nil || sym.Name != name.Name {
			t.Errorf("use %s resolved to %v", name.Name, sym)
		}
		n++
	}
	if n != 3 {
		t.Errorf("cuda_fma_f32 body has %d resolved uses, want 3", n)
	}
}

func TestProgramAPI(t *testing.T) {
	src := `Mw, Nw = 96, 64
K = Mw * 2 + Nw // 4


@instr(tl=cuda_in_order, unit=cuda_thread, cuda="{d} = {s};")
def my_copy(d: f32 @ CudaRmem, s: f32 @ CudaSmemLinear):
    d = s


def gemv(M: size, N: size, y: f32[M], A: f32[M, N], x: f32[N]):
    for i in seq(0, M):
        tmp: f32
        tmp = 0.0
        for j in seq(0, N):
            tmp += A[i, j] * x[j]
        y[i] = tmp
        row = A[i, :]
`
	p, errs := checkSrc("api.weft", src)
	if errs.Len() > 0 {
		t.Fatal(dump(errs))
	}
	if p.Consts["Mw"] != 96 || p.Consts["Nw"] != 64 || p.Consts["K"] != 208 {
		t.Errorf("consts %v", p.Consts)
	}
	if len(p.Procs) != 2 || p.Procs[0].Instr == nil || p.Procs[1].Instr != nil {
		t.Fatalf("procs %v", p.Procs)
	}
	main, err := p.Main("")
	if err != nil || main.Name != "gemv" {
		t.Fatalf("Main = %v, %v", main, err)
	}
	if _, err := p.Main("nope"); err == nil || !strings.Contains(err.Error(), "no proc nope") {
		t.Errorf("Main(nope) error %v", err)
	}
	if p.Lookup("cuda_add_f32") == nil || !p.Lookup("cuda_add_f32").Lib || p.ByName["cuda_add_f32"] != nil {
		t.Error("library instructions not found by Lookup, or in ByName")
	}
	if p.Lookup("my_copy") != p.Procs[0] || p.ByName["my_copy"] != p.Procs[0] {
		t.Error("the file's instruction not found by Lookup and ByName")
	}
	var kinds []string
	for _, s := range main.Params {
		kinds = append(kinds, s.Name+":"+s.Kind.String()+":"+s.Mem)
	}
	if got := strings.Join(kinds, " "); got != "M:size: N:size: y:tensor:DRAM A:tensor:DRAM x:tensor:DRAM" {
		t.Errorf("params %s", got)
	}
	var locals []string
	for _, s := range main.Locals {
		locals = append(locals, s.Name+":"+s.Kind.String())
	}
	if got := strings.Join(locals, " "); got != "i:iterator tmp:scalar j:iterator row:window" {
		t.Errorf("locals %s", got)
	}
	row := main.Locals[3]
	if row.Of != main.Params[3] || len(row.Dims) != 1 || exprString(row.Dims[0]) != "N" {
		t.Errorf("window row = %+v", row)
	}
	// Every Name in the body resolves.
	uses := 0
	for n, s := range main.Uses {
		if s.Name != n.Name {
			t.Errorf("%s resolved to %s", n.Name, s.Name)
		}
		uses++
	}
	if uses != 18 { // 4 in parameter dims, 14 in the body
		t.Errorf("%d uses resolved, want 18", uses)
	}
	var names []string
	for n := range main.Defs {
		if s := main.Defs[n]; s != nil {
			names = append(names, s.Name)
		}
	}
	sort.Strings(names)
	if strings.Join(names, ",") != "A,M,N,i,j,row,tmp,x,y" {
		t.Errorf("defs %v", names)
	}
}

func TestMainChoice(t *testing.T) {
	p, _ := checkSrc("two.weft", "def a():\n    pass\n\n\ndef b():\n    pass\n")
	if _, err := p.Main(""); err == nil || !strings.Contains(err.Error(), "several procs (a, b)") {
		t.Errorf("err %v", err)
	}
	if m, err := p.Main("b"); err != nil || m.Name != "b" {
		t.Errorf("Main(b) = %v %v", m, err)
	}
	p, _ = checkSrc("none.weft", "X = 1\n")
	if _, err := p.Main(""); err == nil || !strings.Contains(err.Error(), "no proc") {
		t.Errorf("err %v", err)
	}
}

// TestNilSafety: Check accepts nil inputs and partial trees from parse errors.
func TestNilSafety(t *testing.T) {
	var errs diag.List
	if p := Check(nil, nil, &errs); p == nil {
		t.Fatal("nil Program")
	}
	for _, src := range []string{"def f(x y):\n    z = \n", "def (:\n", "@instr\ndef g(x: f32):\n    x = 1.0\n", "def f():\n    for i in :\n        x[ = 1\n"} {
		checkSrc("bad.weft", src)
	}
}

func FuzzCheck(f *testing.F) {
	for _, pat := range []string{"testdata/*.weft", "../syntax/testdata/*.weft", "../lib/*.weft"} {
		m, _ := filepath.Glob(pat)
		for _, file := range m {
			src, _ := os.ReadFile(file)
			for _, c := range chunks(string(src)) {
				f.Add(c)
			}
		}
	}
	l := lib.MustStd()
	f.Fuzz(func(t *testing.T, src string) {
		var errs diag.List
		file := syntax.Parse(diag.NewFile("fuzz.weft", []byte(src)), &errs)
		p := Check(file, l, &errs)
		if p == nil {
			t.Fatal("nil program")
		}
		for _, d := range errs.Diags {
			if d.Code == "" || !d.Pos.IsValid() {
				t.Fatalf("diagnostic without code or position: %v", d)
			}
		}
	})
}

func hasGlobals(f *syntax.File) bool {
	for _, d := range f.Decls {
		if _, ok := d.(*syntax.Global); ok {
			return true
		}
	}
	return false
}

// TestPositions pins complete diagnostics, positions included.
func TestPositions(t *testing.T) {
	src := `def f(N: size, x: f32[8] @ CudaGmemLinear):
    y[0] = 1.0
    for i in seq(0, N * N):
        x[i] = N
    with CudaDeviceFunction(blockDim=32):
        for t in cuda_tasks(0, 1):
            for j in cuda_threads(0, 9):
                x[j] = 0.0
            Fence(cuda_in_order, nope)
`
	_, errs := checkSrc("pos.weft", src)
	want := []string{
		"pos.weft:2:5: error[W0201]: undefined: y",
		"pos.weft:4:9: error[W0224]: x (CudaGmemLinear) cannot be written in CPU code",
		"pos.weft:4:16: error[W0207]: N is a size: control values are not data (seed 000 §3.1)",
		"pos.weft:8:19: error[W0210]: index j ranges over [0, 8], out of bounds of dimension 0 of x (size 8)",
		"pos.weft:9:34: error[W0219]: unknown timeline nope",
	}
	var got []string
	for _, d := range errs.Diags {
		got = append(got, d.Error())
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

var gemmSrc = func() string {
	src, _ := os.ReadFile("testdata/seeds.weft")
	return chunks(string(src))[2]
}()

// BenchmarkCheckGEMM checks the sm_80 GEMM of the seeds' appendix;
// BenchmarkParseGEMM parses it, the baseline for the ratio check/parse.
func BenchmarkCheckGEMM(b *testing.B) {
	l := lib.MustStd()
	var errs diag.List
	f := syntax.Parse(diag.NewFile("gemm.weft", []byte(gemmSrc)), &errs)
	b.ResetTimer()
	for range b.N {
		var errs diag.List
		Check(f, l, &errs)
		if errs.Len() > 0 {
			b.Fatal(errs.Err())
		}
	}
}

func BenchmarkParseGEMM(b *testing.B) {
	for range b.N {
		var errs diag.List
		syntax.Parse(diag.NewFile("gemm.weft", []byte(gemmSrc)), &errs)
	}
}

// TestSharedTestdata checks the Weft programs of the shared test data
// (/work/shared/testdata, next to the repository) the same way: their W01xx
// and W02xx markers must match and no other diagnostic of this stage may
// appear. Later stages' markers (W03xx and up) are their packages' business.
func TestSharedTestdata(t *testing.T) {
	var files []string
	filepath.WalkDir("../../../../shared/testdata", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".weft") {
			files = append(files, path)
		}
		return nil
	})
	if len(files) == 0 {
		t.Skip("no Weft programs in the shared test data")
	}
	runChunksFiltered(t, files, func(code string) bool {
		return strings.HasPrefix(code, "W01") || strings.HasPrefix(code, "W02") || strings.HasPrefix(code, "S0")
	})
}

func TestDidYouMean(t *testing.T) {
	cases := []struct {
		name  string
		cands []string
		want  string
	}{
		{"y", []string{"x", "N"}, ""},
		{"sq", []string{"seq", "par"}, " (did you mean seq?)"},
		{"cuda_add_f23", []string{"cuda_add_f16", "cuda_add_f32"}, " (did you mean cuda_add_f32?)"},
		{"cudasmemlinear", []string{"CudaSmemLinear"}, " (did you mean CudaSmemLinear?)"},
		{"totally_else", []string{"CudaSmemLinear"}, ""},
	}
	for _, c := range cases {
		if got := didYouMean(c.name, c.cands); got != c.want {
			t.Errorf("didYouMean(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	if d := editDistance("ab", "ba"); d != 1 {
		t.Errorf("transposition distance %d", d)
	}
}

// TestLookupShadowsLibrary: a file's instruction named like a library one
// is the one Lookup finds (and calls resolve to), the library's stays in
// the shared table untouched, and an unknown name's suggestion still
// draws on both (Program.Lookup, issue 13).
func TestLookupShadowsLibrary(t *testing.T) {
	src := `@instr(tl=cuda_in_order, unit=cuda_thread, cuda="{dst} = {a} - {b};")
def cuda_add_f32(dst: f32 @ CudaRmem, a: f32 @ CudaRmem, b: f32 @ CudaRmem):
    dst = a - b


def f(x: f32 @ DRAM):
    cuda_add_f32(x, x, x)
    cuda_fma_f33(x, x, x)
`
	p, errs := checkSrc("shadow.weft", src)
	own := p.Lookup("cuda_add_f32")
	if own == nil || own.Lib || own != p.Procs[0] || own.Instr == nil || own.Instr.CUDA != "{dst} = {a} - {b};" {
		t.Fatalf("Lookup(cuda_add_f32) = %+v, want the file's instruction", own)
	}
	lib := p.libProcs.get("cuda_add_f32")
	if lib == nil || !lib.Lib || lib == own {
		t.Fatalf("library cuda_add_f32 = %+v", lib)
	}
	f := p.Procs[1]
	for call, callee := range f.Callees {
		if call.FunName() == "cuda_add_f32" && callee != own {
			t.Errorf("the call of cuda_add_f32 resolved to %p, want the file's %p", callee, own)
		}
	}
	var msgs []string
	for _, d := range errs.Diags {
		msgs = append(msgs, d.Code+" "+d.Message)
	}
	// The memories the file's instruction declares (the library's
	// declares none) are checked at the call: it is the one called.
	want := []string{
		"W0215 dst of cuda_add_f32 is @ CudaRmem, the argument x is in DRAM",
		"W0215 a of cuda_add_f32 is @ CudaRmem, the argument x is in DRAM",
		"W0215 b of cuda_add_f32 is @ CudaRmem, the argument x is in DRAM",
		"W0212 unknown proc or instruction cuda_fma_f33 (did you mean cuda_fma_f32?)",
	}
	if strings.Join(msgs, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics %q, want %q", msgs, want)
	}
}

// TestSimpleProcContexts checks procContexts' shortcut for files whose
// procs call none of the file's procs against the general computation
// (procContextsMap), on every chunk of the testdata and every .weft file
// of the repository, and that the shortcut is taken for a file with one
// proc and refused where a proc calls another.
func TestSimpleProcContexts(t *testing.T) {
	var srcs []string
	files, _ := filepath.Glob("testdata/*.weft")
	more, _ := filepath.Glob("../../../examples/weft/*/*.weft")
	files = append(files, more...)
	more, _ = filepath.Glob("../../../bench/syncref/weft/*.weft")
	files = append(files, more...)
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, chunks(string(src))...)
	}
	simple, calling := 0, 0
	for i, src := range srcs {
		var errs diag.List
		f := syntax.Parse(diag.NewFile("t.weft", []byte(src)), &errs)
		// procSize's callee names (stop 41): the answer from them must
		// be the walk's.
		var callees []string
		for _, d := range f.Decls {
			if p, ok := d.(*syntax.Proc); ok && p.Name != nil {
				size := procSize{declsOnly: true, callees: &callees}
				size.proc(p)
			}
		}
		walked := simpleProcContexts(f, false, nil)
		if len(callees) > 0 {
			calling++
		}
		if simpleProcContexts(f, true, callees) != walked {
			t.Errorf("source %d: simpleProcContexts from procSize's callees %v, walking %v", i, !walked, walked)
		}
		if !walked {
			continue
		}
		simple++
		c := &checker{}
		want := c.procContextsMap(f)
		got := procWhere{f: f}
		for name, w := range want {
			if g := got.of(name); g != w {
				t.Errorf("source %d, proc %s: shortcut says %d, procContextsMap %d", i, name, g, w)
			}
		}
	}
	if simple < 50 {
		t.Errorf("only %d of %d sources took the shortcut", simple, len(srcs))
	}
	if calling < 20 || calling == len(srcs) || simple == len(srcs) {
		t.Errorf("%d of %d sources with calls, %d simple: each kind is needed", calling, len(srcs), simple)
	}
	one := "@proc\ndef f(n: size):\n    pass\n"
	two := one + "@proc\ndef g(n: size):\n    f(n)\n"
	for src, want := range map[string]bool{one: true, two: false} {
		var errs diag.List
		if got := simpleProcContexts(syntax.Parse(diag.NewFile("t.weft", []byte(src)), &errs), false, nil); got != want {
			t.Errorf("simpleProcContexts(%q) = %v, want %v", src, got, want)
		}
	}
}

// TestLean checks that Lean reports exactly Check's diagnostics (codes,
// positions, messages, notes) on every chunk of the testdata and every
// example, and returns the same program but for the per-node index.
func TestLean(t *testing.T) {
	var srcs []string
	files, _ := filepath.Glob("testdata/*.weft")
	for _, pat := range []string{"../../../examples/weft/*/*.weft", "../../../bench/syncref/weft/*.weft", "../syntax/testdata/*.weft", "../gpucheck/testdata/*.weft"} {
		more, _ := filepath.Glob(pat)
		files = append(files, more...)
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, chunks(string(src))...)
	}
	render := func(l *diag.List) string {
		var b strings.Builder
		diag.WriteJSON(&b, l.Diags)
		return b.String()
	}
	for i, src := range srcs {
		var e1, e2 diag.List
		f := syntax.Parse(diag.NewFile("t.weft", []byte(src)), &e1)
		e2.Diags = append(e2.Diags, e1.Diags...)
		full := Check(f, lib.MustStd(), &e1)
		lean := Lean(f, lib.MustStd(), &e2)
		if a, b := render(&e1), render(&e2); a != b {
			t.Errorf("source %d: Check reports\n%s\nLean reports\n%s", i, a, b)
			continue
		}
		if len(full.Procs) != len(lean.Procs) || len(full.Consts) != len(lean.Consts) || lean.Globals != nil || len(full.Configs) != len(lean.Configs) {
			t.Errorf("source %d: Lean's program differs from Check's", i)
			continue
		}
		sameGlobalValues(t, f, full)
		for j, p := range lean.Procs {
			q := full.Procs[j]
			if p.Name != q.Name || len(p.Params) != len(q.Params) || len(p.Windows) != len(q.Windows) || p.Defs != nil || p.Locals != nil || p.Callees != nil || p.Args != nil {
				t.Errorf("source %d, proc %s: Lean's proc differs from Check's", i, p.Name)
			}
			for n, s := range p.Uses { // recorded inside par loops only
				if q.Uses[n] == nil || q.Uses[n].Name != s.Name || q.Uses[n].Pos != s.Pos {
					t.Errorf("source %d, proc %s: Lean resolves %s to %v, Check to %v", i, p.Name, n.Name, s, q.Uses[n])
				}
			}
		}
	}
}
