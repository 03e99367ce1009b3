package cudagen

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"weft.dev/weft/cuda"
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// Options control one generation.
type Options struct {
	// Stem is the base name of the generated files (STEM.h, STEM.c,
	// STEM.cuh, STEM.cu); it defaults to the source file's base name.
	Stem string
	// Harness also emits main.cu, a program that runs one proc on .npy
	// inputs and writes its outputs as .npy (seed 000 §6).
	Harness bool
	// Proc is the proc the harness drives ("": the file's only
	// non-instruction proc).
	Proc string
	// CheckOnly generates for the diagnostics alone (weft check): no text
	// is formatted and the Output has no files.
	CheckOnly bool
	// Prog, when not nil, is f checked against the same library
	// (check.Check), as weft check has it already: the generator reads
	// its configs and extern calls instead of checking f again.
	Prog *check.Program
	// GPU, when not nil, is the GPU checker's result for f (weft check
	// has it): under CheckOnly the generator takes each device function's
	// top-level tiling and each cuda_threads loop's body tiling from it
	// instead of deriving them again (shared.go).
	GPU *gpucheck.Result
}

// File is one generated file.
type File struct {
	Name string
	Data []byte
}

// Output is the result of Generate: the files in a fixed order.
type Output struct {
	Files []File
}

// Lookup returns the file named name, or nil.
func (o *Output) Lookup(name string) *File {
	for i := range o.Files {
		if o.Files[i].Name == name {
			return &o.Files[i]
		}
	}
	return nil
}

// gen is the state of one Generate call.
type gen struct {
	lib    *lib.Library
	errs   *diag.List
	file   *syntax.File
	stem   string
	consts smap[string, int64]
	lists  map[string]syntax.Expr // non-integer globals (warp configs)
	instrs map[string]*lib.Instr  // the file's @instr procs; instr also looks in the library
	order  []*syntax.Proc         // user procs to emit, file order (procNamed)

	// prog is f checked (Options.Prog, or checked once for both passes).
	prog *check.Program
	// gpu is Options.GPU under CheckOnly (shared.go); shareMiss is set
	// when a tiling could not be taken from it.
	gpu       *gpucheck.Result
	shareMiss bool
	bodyCur   int // the cursor of gpu.BodyAt

	// facts learned in the first pass, keyed by source offset.
	facts *facts
	pass  int

	h, c, cuh, cu cuda.Writer
	// discard: this pass formats no text (the first pass, which only
	// learns facts, and both passes under Options.CheckOnly); every
	// cuda.Writer of the pass has Discard set.
	discard    bool
	helpers    map[string]string // device helper code by name (wgmma shapes)
	intrinsics bool              // host code calls x86 intrinsics (lib/x86.weft)
	devFns     []*devFn
	curDev     *devFn
	reported   map[string]bool

	// single: the first pass reports the diagnostics of both passes
	// (Options.CheckOnly; single.go), logging in reads the facts it read
	// that can change them.
	single   bool
	reads    []func() bool
	deferred []func()

	scopeBuf []scope // the scopes newScope hands out next
	symBuf   []sym   // the syms newSym hands out next (arena.go)
	names    libNames
	nullW    cuda.Writer // taskWriter's
	// devFn0 is the first device function's state, devFnBuf devFns's
	// first array, and orderBuf order's (newDevFn, run): one object for
	// a small kernel's generator state (issue 13, stop 32).
	devFn0   devFn
	devFnBuf [1]*devFn
	orderBuf [2]*syntax.Proc
}

// facts is what the first pass learns for the second.
type facts struct {
	distDims smap[int, int]      // alloc offset -> number of distributed dims
	captures smap[int, []string] // CudaDeviceFunction offset -> captured CPU names, in order
	bars     map[int]*barFacts   // barrier alloc offset -> usage
	mbarSize smap[int, int]      // CudaDeviceFunction offset -> bytes of mbarriers
	tx       map[int]int         // Arrive offset -> expect-tx bytes
	used     smap[usedKey, bool] // cuda_threads loop (and warp code path) -> its iterator is read
	read     smap[int, bool]     // declaration offset -> the name is read (not only assigned)

	// tops is the device tiling of each launch shape, made once for both
	// passes: coll memoizes the tilings derived from a tiling, so the
	// second pass derives none of its cuda_threads loops and CudaWarps
	// blocks again (issue 13).
	tops smap[coll.Machine, *coll.Tiling]
}

type barFacts struct {
	arriveTL             string // first timeline of the (forward) arrives
	fwdSkips, revSkips   int
	fwdCount, revCount   int // threads of the arriving collective
	hasRev               bool
	fwdRemote, revRemote bool
	// ctaPitch is, per dimension indexed by a CTA-selecting iterator, how
	// many CTAs apart consecutive index values are (multicast Arrives,
	// ring.go).
	ctaPitch map[int]int
}

// The facts of one Generate are zero (passState): every map is made at
// its first entry (put): a map made per Generate is an allocation weft
// check pays on every program (issue 13), and most programs leave some
// empty (barriers, expect-tx bytes; stop 29: all of them).

// put sets (*m)[k] = v, making the map at its first entry: reading a nil
// map is reading an empty one.
func put[K comparable, V any](m *map[K]V, k K, v V) {
	if *m == nil {
		*m = map[K]V{}
	}
	(*m)[k] = v
}

// Generate lowers f. Problems are reported to errs; the Output is complete
// only when errs has no errors.
func Generate(f *syntax.File, l *lib.Library, opt Options, errs *diag.List) *Output {
	out, _ := runPasses(f, l, opt, errs, false)
	if out == nil {
		out = &Output{} // the walk's (CheckOnly: no files)
	}
	return out
}

// Diagnose is Generate under Options.CheckOnly for a caller that reads
// only the diagnostics (weft check's build checker): it makes no Output
// (an allocation of every weft check, issue 13, stop 37).
func Diagnose(f *syntax.File, l *lib.Library, opt Options, errs *diag.List) {
	opt.CheckOnly = true
	runPasses(f, l, opt, errs, false)
}

// runPasses is Generate; twoPass makes CheckOnly run both passes (the
// differential test of the single pass, single_test.go). single reports
// whether the first pass's diagnostics were the result. out is nil when
// the diagnostics-only walk answered (walk.go).
func runPasses(f *syntax.File, l *lib.Library, opt Options, errs *diag.List, twoPass bool) (out *Output, single bool) {
	if opt.GPU != nil && opt.CheckOnly {
		if !walkOff && walkClean(f, l, opt.GPU) {
			// The generator would report nothing (walk.go); the Output
			// of CheckOnly has no files (Generate makes it).
			return nil, false
		}
		st := new(passState)
		if out, single, ok := st.run(f, l, opt, &st.shared, twoPass); ok {
			for _, d := range st.shared.Diags {
				errs.Add(d)
			}
			return out, single
		}
	}
	opt.GPU = nil
	out, single, _ = runPassesOnce(f, l, opt, errs, twoPass)
	return out, single
}

// runPassesOnce is runPasses with opt.GPU's tilings taken as they are
// (under CheckOnly); ok is false, and the diagnostics are not the
// generator's, when a tiling could not be taken (sharedBody).
func runPassesOnce(f *syntax.File, l *lib.Library, opt Options, errs *diag.List, twoPass bool) (out *Output, single, ok bool) {
	return new(passState).run(f, l, opt, errs, twoPass)
}

// passState is what one runPassesOnce allocates at its start: the facts,
// the first pass's diagnostics and its generator state, and, for
// runPasses, the diagnostics of the pass with the GPU checker's tilings,
// in one object (issue 13, stop 32: five allocations of every weft check
// had been apart).
type passState struct {
	facts   facts
	scratch diag.List
	shared  diag.List
	g1      gen
	out     Output
	// scopes and syms are the first pass's first scopes and syms
	// (newScope, newSym): a small kernel's pass takes them all from
	// here, not from chunks allocated apart (issue 13, stop 34: an empty
	// kernel makes 10 scopes and 4 syms, per_cta_alloc 14 and 7).
	scopes [16]scope
	syms   [4]sym
}

// run is runPassesOnce with st's storage.
func (st *passState) run(f *syntax.File, l *lib.Library, opt Options, errs *diag.List, twoPass bool) (out *Output, single, ok bool) {
	stem := "" // text alone: a CheckOnly Generate formats none
	if !opt.CheckOnly || textAlways {
		stem = opt.Stem
		if stem == "" {
			stem = strings.TrimSuffix(filepath.Base(f.Name), filepath.Ext(f.Name))
		}
		stem = cuda.Ident(stem)
	}
	fs := &st.facts
	prog := opt.Prog
	if prog == nil {
		var scratch diag.List // the checker reports these
		prog = check.Check(f, l, &scratch)
	}
	// Pass 1 learns facts; its diagnostics are those of pass 2 as well, so
	// they are dropped. Under CheckOnly it reports them, and pass 2 runs
	// only when a fact the diagnostics depend on changed after pass 1 read
	// it (single.go).
	scratch := &st.scratch
	g1 := &st.g1
	initGen(g1, f, l, stem, scratch, fs, 1, true)
	g1.scopeBuf, g1.symBuf = st.scopes[:], st.syms[:]
	g1.prog = prog
	g1.single = opt.CheckOnly && !twoPass
	g1.shareFrom(opt)
	g1.run(opt, &st.out)
	if g1.shareMiss {
		return nil, false, false
	}
	if g1.single {
		g1.reportDeferred()
	}
	if g1.single && g1.readsHold() {
		for _, d := range scratch.Diags {
			errs.Add(d)
		}
		return &st.out, true, true
	}
	g2 := newGen(f, l, stem, errs, fs, 2, opt.CheckOnly)
	g2.prog = prog
	g2.shareFrom(opt)
	out = g2.run(opt, new(Output))
	return out, false, !g2.shareMiss
}

func newGen(f *syntax.File, l *lib.Library, stem string, errs *diag.List, fs *facts, pass int, discard bool) *gen {
	// lists, instrs, helpers and reported are made at their first entry
	// (put): most programs have none.
	// consts too (globals), and the procs are found in order (procNamed).
	g := new(gen)
	initGen(g, f, l, stem, errs, fs, pass, discard)
	return g
}

// initGen makes *g, which must be zero (new, or a new passState's), a new
// generator state: its fields are set one by one, not by assigning a
// whole gen, which cleared its two kilobytes again (issue 13, stop 34: a
// sixteenth of the CheckOnly pass on an empty kernel).
func initGen(g *gen, f *syntax.File, l *lib.Library, stem string, errs *diag.List, fs *facts, pass int, discard bool) {
	g.lib, g.errs, g.file, g.stem, g.facts, g.pass, g.discard = l, errs, f, stem, fs, pass, discard
	g.h.Discard, g.c.Discard, g.cuh.Discard, g.cu.Discard = discard, discard, discard, discard
}

// procNamed is the user proc named name (the last of that name, as a map
// filled in file order held), nil when none: the few procs of a file are
// searched in place rather than indexed by a map made per Generate (issue
// 13, stop 29).
func (g *gen) procNamed(name string) *syntax.Proc {
	for i := len(g.order) - 1; i >= 0; i-- {
		if g.order[i].Name.Name == name {
			return g.order[i]
		}
	}
	return nil
}

// instr resolves an instruction name: the file's own @instr shadows the
// library's, whose table is read in place (not copied for each of the two
// passes of each Generate).
func (g *gen) instr(name string) *lib.Instr {
	if in, ok := g.instrs[name]; ok {
		return in
	}
	return g.lib.Instr(name)
}

func (g *gen) errorf(n syntax.Node, code, format string, args ...any) {
	var pos diag.Pos
	if n != nil {
		pos = n.Pos()
	}
	// Device code is generated once per named-warp code path: report each
	// problem once.
	key := fmt.Sprintf("%d %s %s", pos.Offset, code, fmt.Sprintf(format, args...))
	if g.reported[key] {
		return
	}
	put(&g.reported, key, true)
	g.errs.Errorf(pos, code, format, args...)
}

func (g *gen) run(opt Options, out *Output) *Output {
	g.globals()
	g.order = g.orderBuf[:0]
	for _, d := range g.file.Decls {
		p, ok := d.(*syntax.Proc)
		if !ok {
			continue
		}
		if lib.IsInstr(p) {
			var scratch diag.List // check reports malformed headers
			if in := lib.ParseInstr(p, g.lib, &scratch); in != nil {
				put(&g.instrs, in.Name, in)
			}
			continue
		}
		g.order = append(g.order, p)
	}
	g.header()
	for _, p := range g.order {
		if g.deviceProc(p) {
			continue // inlined where device code calls it
		}
		g.proc(p)
	}
	g.footer()
	if g.discard {
		return out
	}
	out.Files = append(out.Files,
		File{Name: g.stem + ".h", Data: []byte(g.h.String())},
		File{Name: g.stem + ".c", Data: []byte(g.cText())},
		File{Name: g.stem + ".cuh", Data: []byte(g.cuhText())},
		File{Name: g.stem + ".cu", Data: []byte(g.cu.String())})
	if opt.Harness {
		if m := g.harness(opt.Proc); m != "" {
			out.Files = append(out.Files, File{Name: "main.cu", Data: []byte(m)})
		}
	}
	return out
}

// deviceProc reports whether p's body is device code (cuda_threads loops,
// CudaWarps or CudaAsync blocks, CUDA instructions, split barriers outside
// any CudaDeviceFunction): such a proc is not CPU code, so it has no C
// function; device code that calls it inlines it.
func (g *gen) deviceProc(p *syntax.Proc) bool {
	var walk func(ss []syntax.Stmt) bool
	walk = func(ss []syntax.Stmt) bool {
		for _, s := range ss {
			switch s := s.(type) {
			case *syntax.For:
				if s.Mode.Name == "cuda_threads" || s.Mode.Name == "cuda_tasks" || walk(s.Body) {
					return true
				}
			case *syntax.If:
				if walk(s.Then) || walk(s.Else) {
					return true
				}
			case *syntax.With:
				if c, ok := s.Ctx.(*syntax.Call); ok && c.FunName() == "CudaDeviceFunction" {
					continue
				}
				return true
			case *syntax.CallStmt:
				if in := g.instr(s.Call.FunName()); in != nil && !in.CPU {
					return true
				}
			case *syntax.Arrive, *syntax.Await:
				return true
			}
		}
		return false
	}
	return walk(p.Body)
}

// globals evaluates module-level constants (`Mw, Nw = 96, 64`) and keeps
// list globals (warp configs) for CudaDeviceFunction.
func (g *gen) globals() {
	for _, d := range g.file.Decls {
		gl, ok := d.(*syntax.Global)
		if !ok {
			continue
		}
		if len(gl.Names) != len(gl.Values) {
			continue
		}
		for i, n := range gl.Names {
			v := gl.Values[i]
			if c, ok := v.(*syntax.Call); ok && c.FunName() == "simplify" {
				continue // a scheduling operation; constants are folded anyway
			}
			if k, ok := g.constValue(v, nil); ok {
				g.consts.put(n.Name, k)
				continue
			}
			put(&g.lists, n.Name, v)
		}
	}
}

func (g *gen) header() {
	if g.discard {
		return // text only (the configs' structs too)
	}
	guard := "WEFT_" + strings.ToUpper(g.stem) + "_H"
	g.h.Line("// Code generated by weft build from %s. DO NOT EDIT.", filepath.Base(g.file.Name))
	g.h.Line("#ifndef %s", guard)
	g.h.Line("#define %s", guard)
	g.h.Line("")
	g.h.Line("#include \"weft_runtime.h\"")
	g.h.Line("")
	g.h.Line("#ifdef __cplusplus")
	g.h.Line("extern \"C\" {")
	g.h.Line("#endif")
	g.h.Line("")
	g.c.Line("// Code generated by weft build from %s. DO NOT EDIT.", filepath.Base(g.file.Name))
	g.c.Line("#include \"%s.h\"", g.stem)
	g.c.Line("")
	g.c.Line("#include <stdlib.h>")
	g.c.Line("")
	// CPU-only programs launch nothing; gcc -Wall -Werror would reject an
	// unused static.
	g.c.Line("static const weft_stream exo_cudaStream __attribute__((unused)) = 0;")
	g.configs()
	g.cu.Line("// Code generated by weft build from %s. DO NOT EDIT.", filepath.Base(g.file.Name))
	g.cu.Line("#include \"%s.cuh\"", g.stem)
}

// cText is the host C file; x86 intrinsics (Exo's AVX2 instructions,
// lib/x86.weft) need immintrin.h.
func (g *gen) cText() string {
	c := g.c.String()
	if g.intrinsics {
		c = strings.Replace(c, "#include <stdlib.h>\n", "#include <stdlib.h>\n#pragma GCC target(\"avx2,fma\")\n#include <immintrin.h>\n", 1)
	}
	return c
}

func (g *gen) footer() {
	if g.discard {
		return
	}
	g.h.Line("#ifdef __cplusplus")
	g.h.Line("}")
	g.h.Line("#endif")
	g.h.Line("")
	g.h.Line("#endif")
}

func (g *gen) cuhText() string {
	var w strings.Builder
	fmt.Fprintf(&w, "// Code generated by weft build from %s. DO NOT EDIT.\n", filepath.Base(g.file.Name))
	w.WriteString("#pragma once\n\n")
	fmt.Fprintf(&w, "#include \"%s.h\"\n", g.stem)
	w.WriteString("#include \"weft_cuda.cuh\"\n")
	if len(g.helpers) > 0 {
		names := make([]string, 0, len(g.helpers))
		for n := range g.helpers {
			names = append(names, n)
		}
		sort.Strings(names)
		w.WriteString("\nnamespace weft {\n")
		for _, n := range names {
			w.WriteString("\n")
			w.WriteString(g.helpers[n])
		}
		w.WriteString("\n}  // namespace weft\n")
	}
	w.WriteString(g.cuh.String())
	return w.String()
}

// ctype is the C type of a Weft scalar type (device code).
func ctype(elem string) string {
	switch elem {
	case "f16":
		return "__half"
	case "bf16":
		return "__nv_bfloat16"
	case "f32", "R": // Exo's generic real is f32 (lib.ResolveElem)
		return "float"
	case "f64":
		return "double"
	case "i8":
		return "int8_t"
	case "ui8":
		return "uint8_t"
	case "ui16":
		return "uint16_t"
	case "i32":
		return "int32_t"
	case "size", "index", "stride":
		return "int_fast32_t"
	case "bool":
		return "bool"
	}
	return ""
}

// hostCType is the C type in host code, where half types are bit patterns.
func hostCType(elem string) string {
	switch elem {
	case "f16", "bf16":
		return "uint16_t"
	}
	return ctype(elem)
}

func elemBytes(elem string) int {
	switch elem {
	case "f16", "bf16", "ui16":
		return 2
	case "i8", "ui8":
		return 1
	case "f64":
		return 8
	}
	return 4
}

// usedKey names a cuda_threads loop in one warp-specialized code path:
// the loop's iterator may be read in one path (the producer's TMA
// coordinates) and not in another (the consumer's), where it must be
// declared [[maybe_unused]].
type usedKey struct {
	off  int
	path string
}
