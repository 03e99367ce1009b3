package lib

import (
	_ "embed" // the library's files (stdTexts)
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/syntax"
)

// The library's files, in the order Std loads them (their names' order).
// Each is an embedded string, read in place: a go:embed file system's
// ReadFile returns a heap copy, which a process kept alive beside the
// parsed text's own copy (diag.File.Text), 2 x 53 KB of live heap (stop
// 39). stdfiles_test.go checks that the table is every *.weft file here,
// in order, with its contents.
var (
	//go:embed exo_gpu.weft
	exoGPUWeft string
	//go:embed externs.weft
	externsWeft string
	//go:embed memories.weft
	memoriesWeft string
	//go:embed scalar.weft
	scalarWeft string
	//go:embed sm80.weft
	sm80Weft string
	//go:embed sm90.weft
	sm90Weft string
	//go:embed timelines.weft
	timelinesWeft string
	//go:embed units.weft
	unitsWeft string
	//go:embed x86.weft
	x86Weft string
)

// stdFile is one file of the standard library.
type stdFile struct{ name, text string }

// stdTexts lists the library's files sorted by name.
var stdTexts = [...]stdFile{
	{"exo_gpu.weft", exoGPUWeft},
	{"externs.weft", externsWeft},
	{"memories.weft", memoriesWeft},
	{"scalar.weft", scalarWeft},
	{"sm80.weft", sm80Weft},
	{"sm90.weft", sm90Weft},
	{"timelines.weft", timelinesWeft},
	{"units.weft", unitsWeft},
	{"x86.weft", x86Weft},
}

// Library is a loaded standard library (or any set of library files).
type Library struct {
	// Files are the parsed files whose trees later phases read: those
	// with procs (instructions, externs, helpers) or collective units
	// (Unit.Decl, Domain, Box). A file of data tables only (memories.weft,
	// timelines.weft: QualTL, SyncTL, DataMemory, BarrierMemory,
	// SpecialWindow and aliases) is loaded into the maps below, which keep
	// no node of it, and its tree is let go (dataOnly): the library lives
	// as long as the process, and every collection marked those trees
	// (stop 39, docs/weft-sync.md "Stop 39: front39"). Std's files of
	// procs are not parsed whole (lazy.go): a file of them is here when
	// its globals are more than data tables, as a File of those alone.
	Files     []*syntax.File
	Memories  map[string]*Memory
	Barriers  map[string]*BarrierMemory
	Windows   map[string]*SpecialWindow
	Units     map[string]*Unit
	Quals     map[string]*QualTL // Fig. 15
	QualOrder []*QualTL          // Fig. 15 in table order; QualTL.Index indexes it
	Timelines map[string]*SyncTL // Fig. 16 (sync timelines)
	// defs are the library's instructions and helper procs by name
	// (Instr, Proc, Decl, Names): those of Std's files of procs are
	// parsed at their first lookup (lazy.go; issue 13, stop 44).
	defs map[string]*def
	// defMu serializes the parses of lazy defs (nil: none).
	defMu *sync.Mutex
	// Known is the bits of the qualitative timelines the code generator
	// tests by name (known.go), resolved by Load.
	Known KnownQuals
	// StreamSync is the sets of a device function's cuda_stream_sync
	// fences (known.go), resolved by Load.
	StreamSync StreamSyncSets
}

// stdDiagFiles are the library's Files (Std), outside the heap: every node
// of the library's trees holds a position, and with it a pointer to its
// File; the trees live as long as the process, and each collection
// followed each of those pointers to a heap object (a pointer outside the
// heap costs the marker a table lookup and no mark; stop 39,
// docs/weft-sync.md "Stop 39: front39").
var stdDiagFiles [len(stdTexts)]diag.File

var (
	stdOnce sync.Once
	stdLib  *Library
	stdErr  error
)

// Std returns the standard library embedded in the binary, loaded once.
func Std() (*Library, error) {
	stdOnce.Do(func() {
		files := make([]*diag.File, len(stdTexts))
		for i, sf := range stdTexts {
			diag.InitFileString(&stdDiagFiles[i], "lib/"+sf.name, sf.text)
			files[i] = &stdDiagFiles[i]
		}
		stdLib, stdErr = load(files, true)
	})
	return stdLib, stdErr
}

// StdFiles returns the standard library's files, Std's own: an eager
// Load of them (tests) has Std's positions.
func StdFiles() []*diag.File {
	Std()
	files := make([]*diag.File, len(stdTexts))
	for i := range stdDiagFiles {
		files[i] = &stdDiagFiles[i]
	}
	return files
}

// MustStd is Std for callers (tests, tools) where a broken embedded library
// is a build defect.
func MustStd() *Library {
	l, err := Std()
	if err != nil {
		panic("weft standard library: " + err.Error())
	}
	return l
}

// Load parses and loads library files. All problems are reported together in
// the returned error (a *diag.ListError).
func Load(files ...*diag.File) (*Library, error) {
	return load(files, false)
}

// load is Load; with lazy, a file of procs alone (lazyDefs) is not
// parsed: its procs are, each at its first lookup (Std).
func load(files []*diag.File, lazy bool) (*Library, error) {
	l := &Library{
		Memories:  map[string]*Memory{},
		Barriers:  map[string]*BarrierMemory{},
		Windows:   map[string]*SpecialWindow{},
		Units:     map[string]*Unit{},
		Quals:     map[string]*QualTL{},
		Timelines: map[string]*SyncTL{},
		defs:      map[string]*def{},
	}
	var errs diag.List
	ld := &loader{lib: l, errs: &errs}
	decls := 0
	// segs[i] are the declarations of files[i] when it is not parsed
	// whole: its globals are parsed now, each from its lines, into a
	// File of them alone, its procs at their first lookup.
	segs := make([][]defSeg, len(files))
	for i, f := range files {
		if lazy {
			segs[i] = lazyDefs(f.Text())
		}
		if segs[i] == nil {
			sf := syntax.Parse(f, &errs)
			l.Files = append(l.Files, sf)
			decls += len(sf.Decls)
			continue
		}
		if l.defMu == nil {
			l.defMu = new(sync.Mutex)
		}
		gf := &syntax.File{Name: f.Name}
		for _, sg := range segs[i] {
			if sg.global {
				gf.Decls = append(gf.Decls, syntax.ParseRange(f, sg.start, sg.end, &errs).Decls...)
			}
		}
		l.Files = append(l.Files, gf)
		decls += len(segs[i])
	}
	// Every declaration defines a name or none: the table of names made
	// for them all (stop 44: its growth was most of define's cost).
	ld.defined = make(map[string]diag.Pos, decls)
	// Globals first, in dependency order of the kinds (timelines before
	// instructions, memories before everything that names them).
	for _, kind := range []string{"QualTL", "SyncTL", "DataMemory", "BarrierMemory", "SpecialWindow", "CollUnit"} {
		for _, f := range l.Files {
			for _, d := range f.Decls {
				if g, ok := d.(*syntax.Global); ok {
					ld.global(g, kind)
				}
			}
		}
	}
	for _, f := range l.Files {
		for _, d := range f.Decls {
			if g, ok := d.(*syntax.Global); ok {
				ld.alias(g)
			}
		}
	}
	ld.finishMemories()
	l.Known = knownQuals(l.Quals)
	l.StreamSync = streamSyncSets(l.Timelines)
	// The procs in the files' order (a parsed file's, or a lazy one's).
	for i, f := range files {
		for j := range segs[i] {
			sg := &segs[i][j]
			if !sg.global && !ld.define(sg.name, diag.Pos{File: f, Offset: sg.nameOff}) {
				l.defs[sg.name] = &def{name: sg.name, file: f, start: sg.start, end: sg.end, isInstr: sg.isInstr}
			}
		}
		for _, d := range l.Files[i].Decls {
			p, ok := d.(*syntax.Proc)
			if !ok {
				continue
			}
			if ld.define(p.Name.Name, p.Name.Pos()) {
				continue
			}
			if IsInstr(p) {
				if in := ParseInstr(p, l, &errs); in != nil {
					d := &def{name: in.Name, isInstr: true, instr: in}
					d.done.Store(true)
					l.defs[in.Name] = d
				}
			} else if IsExtern(p) {
				if x := ParseExtern(p, &errs); x != nil {
					addExtern(x)
				}
			} else {
				d := &def{name: p.Name.Name, proc: p}
				d.done.Store(true)
				l.defs[p.Name.Name] = d
			}
		}
	}
	kept := l.Files[:0]
	for _, f := range l.Files {
		if !dataOnly(f) {
			kept = append(kept, f)
		}
	}
	clear(l.Files[len(kept):])
	l.Files = kept
	if errs.HasErrors() {
		errs.Sort()
		return l, errs.Err()
	}
	return l, nil
}

// dataOnly reports whether f declares nothing but data tables: globals
// whose value is a QualTL, SyncTL, DataMemory, BarrierMemory or
// SpecialWindow call, or an alias (a name). Loading copies what those
// say into Go values (Memory, QualTL, ...), which hold positions but no
// node of the tree; a proc, a collective unit (Unit keeps its Decl and
// expressions) or anything else keeps the file.
func dataOnly(f *syntax.File) bool {
	for _, d := range f.Decls {
		g, ok := d.(*syntax.Global)
		if !ok {
			return false
		}
		for _, v := range g.Values {
			switch v := v.(type) {
			case *syntax.Name:
			case *syntax.Call:
				switch v.FunName() {
				case "QualTL", "SyncTL", "DataMemory", "BarrierMemory", "SpecialWindow":
				default:
					return false
				}
			default:
				return false
			}
		}
	}
	return true
}

type loader struct {
	lib     *Library
	errs    *diag.List
	defined map[string]diag.Pos
}

// define records a library name; it reports a duplicate and returns true.
func (ld *loader) define(name string, pos diag.Pos) bool {
	if prev, ok := ld.defined[name]; ok {
		ld.errs.Errorf(pos, "W0240", "library name %s is defined twice", name).Note(prev, "first definition is here")
		return true
	}
	ld.defined[name] = pos
	return false
}

// global loads `Name = Kind(...)` when the call's callee is kind.
func (ld *loader) global(g *syntax.Global, kind string) {
	if len(g.Names) != 1 || len(g.Values) != 1 {
		if kind == "QualTL" { // report once
			ld.errs.Errorf(g.Pos(), "W0241", "library globals must be `Name = Kind(...)`")
		}
		return
	}
	call, ok := g.Values[0].(*syntax.Call)
	if !ok {
		if _, isName := g.Values[0].(*syntax.Name); !isName && kind == "QualTL" {
			ld.errs.Errorf(g.Pos(), "W0241", "library globals must be `Name = Kind(...)` or an alias `Name = Other`")
		}
		return
	}
	fun := call.FunName()
	if kind == "QualTL" {
		switch fun {
		case "QualTL", "SyncTL", "DataMemory", "BarrierMemory", "SpecialWindow", "CollUnit":
		default:
			ld.errs.Errorf(call.Pos(), "W0241", "unknown library declaration kind %q", fun)
			return
		}
	}
	if fun != kind {
		return
	}
	name := g.Names[0].Name
	if ld.define(name, g.Names[0].Pos()) {
		return
	}
	a := &args{ld: ld, call: call}
	switch kind {
	case "QualTL":
		q := &QualTL{Name: name, Pos: g.Pos(), Abbrev: a.str("abbrev"), Doc: a.str("doc"), Index: len(ld.lib.QualOrder)}
		ld.lib.Quals[name] = q
		ld.lib.QualOrder = append(ld.lib.QualOrder, q)
	case "SyncTL":
		s := &SyncTL{Name: name, Pos: g.Pos(), Transitive: a.bool("transitive"), Instr: a.bool("instr"), AsyncBlock: a.bool("async_block")}
		for _, q := range a.names("full") {
			qt := ld.qual(q)
			if qt != nil {
				s.Full = append(s.Full, qt.Name)
				s.FullSet |= 1 << qt.Index
			}
		}
		s.TemporalSet = s.FullSet
		s.Temporal = append([]string(nil), s.Full...)
		for _, q := range a.names("temp") {
			qt := ld.qual(q)
			if qt != nil {
				if s.FullSet.Has(qt.Index) {
					ld.errs.Errorf(q.Pos(), "W0242", "%s is both full and temp. in %s", qt.Name, name)
				}
				s.Temporal = append(s.Temporal, qt.Name)
				s.TemporalSet |= 1 << qt.Index
			}
		}
		ld.lib.Timelines[name] = s
	case "DataMemory":
		m := &Memory{Name: name, Pos: g.Pos(), lib: ld.lib,
			Abstract: a.bool("abstract"), Space: a.str("space"), Params: a.strs("params"),
			CPU: Perm(a.str("cpu")), CUDA: Perm(a.str("cuda")), Async: Perm(a.str("async")), AsyncInstr: Perm(a.str("async_instr"))}
		m.CPUInstr = m.CPU
		if call.Kwarg("cpu_instr") != nil {
			m.CPUInstr = Perm(a.str("cpu_instr"))
		}
		for _, b := range a.names("base") {
			m.Base = append(m.Base, b.Name)
		}
		if u := a.name("native_unit"); u != nil {
			m.NativeUnit = u.Name
		}
		if u := a.str("uniform"); u != "" {
			m.Uniform = u
			found := false
			for _, p := range m.Params {
				found = found || p == u
			}
			if !found || m.Space != "rmem" {
				ld.errs.Errorf(call.Pos(), "W0243", "memory %s: uniform names one of its params and needs space=\"rmem\"", name)
			}
		}
		for _, t := range a.list("tiles") {
			tl, ok := t.(*syntax.List)
			if !ok || len(tl.Elems) != 2 {
				ld.errs.Errorf(t.Pos(), "W0243", "a tile is a list of two integers")
				continue
			}
			var tile [2]int64
			for i, e := range tl.Elems {
				n, ok := e.(*syntax.IntLit)
				if !ok {
					ld.errs.Errorf(e.Pos(), "W0243", "a tile is a list of two integers")
				} else {
					tile[i] = n.Value
				}
			}
			m.Tiles = append(m.Tiles, tile)
		}
		switch m.Space {
		case "dram", "gmem", "smem", "rmem", "grid_constant":
		default:
			ld.errs.Errorf(call.Pos(), "W0243", "memory %s: space must be dram, gmem, smem, rmem or grid_constant, not %q", name, m.Space)
		}
		for _, p := range []struct {
			n string
			v Perm
		}{{"cpu", m.CPU}, {"cpu_instr", m.CPUInstr}, {"cuda", m.CUDA}, {"async", m.Async}, {"async_instr", m.AsyncInstr}} {
			if strings.Trim(string(p.v), "rwc") != "" {
				ld.errs.Errorf(call.Pos(), "W0243", "memory %s: %s permissions must be letters of \"rwc\", not %q", name, p.n, p.v)
			}
		}
		ld.lib.Memories[name] = m
	case "BarrierMemory":
		b := &BarrierMemory{Name: name, Pos: g.Pos(), lib: ld.lib, Abstract: a.bool("abstract"), Reverse: a.bool("reverse"), Cluster: a.bool("cluster"), CPU: a.bool("cpu"), Params: a.strs("params")}
		for _, n := range a.names("base") {
			b.Base = append(b.Base, n.Name)
		}
		ld.lib.Barriers[name] = b
	case "SpecialWindow":
		w := &SpecialWindow{Name: name, Pos: g.Pos(), Params: a.strs("params"), Variadic: a.bool("variadic")}
		if s := a.name("source"); s != nil {
			w.Source = s.Name
		}
		ld.lib.Windows[name] = w
	case "CollUnit":
		u := &Unit{Name: name, Pos: g.Pos(), Decl: g, Params: a.strs("params"), Domain: a.list("domain"), Box: a.list("box"), Scale: -1}
		if k := call.Kwarg("scale"); k != nil {
			u.Scale = int(a.int("scale"))
		}
		if len(u.Domain) == 0 || len(u.Domain) != len(u.Box) {
			ld.errs.Errorf(call.Pos(), "W0243", "unit %s: domain and box must be non-empty lists of equal length", name)
		} else if u.Scale >= len(u.Box) {
			ld.errs.Errorf(call.Pos(), "W0243", "unit %s: scale %d is not a box coordinate", name, u.Scale)
		}
		ld.lib.Units[name] = u
	}
	a.done()
}

// alias loads `Name = Other`.
func (ld *loader) alias(g *syntax.Global) {
	if len(g.Names) != 1 || len(g.Values) != 1 {
		return
	}
	src, ok := g.Values[0].(*syntax.Name)
	if !ok {
		return
	}
	name := g.Names[0].Name
	if ld.define(name, g.Names[0].Pos()) {
		return
	}
	l := ld.lib
	switch {
	case l.Memories[src.Name] != nil:
		l.Memories[name] = l.Memories[src.Name]
	case l.Barriers[src.Name] != nil:
		l.Barriers[name] = l.Barriers[src.Name]
	case l.Windows[src.Name] != nil:
		l.Windows[name] = l.Windows[src.Name]
	case l.Units[src.Name] != nil:
		l.Units[name] = l.Units[src.Name]
	case l.Timelines[src.Name] != nil:
		l.Timelines[name] = l.Timelines[src.Name]
	case l.Quals[src.Name] != nil:
		l.Quals[name] = l.Quals[src.Name]
	default:
		ld.errs.Errorf(src.Pos(), "W0244", "alias %s names %s, which is not a library declaration", name, src.Name)
	}
}

func (ld *loader) qual(n *syntax.Name) *QualTL {
	q := ld.lib.Quals[n.Name]
	if q == nil {
		ld.errs.Errorf(n.Pos(), "W0244", "%s is not a qualitative timeline (seed 000 Fig. 15)", n.Name)
	}
	return q
}

// finishMemories resolves bases and native units and rejects cycles.
func (ld *loader) finishMemories() {
	l := ld.lib
	for _, name := range sortedKeys(l.Memories) {
		m := l.Memories[name]
		if m.Name != name {
			continue // alias
		}
		for _, b := range m.Base {
			if l.Memories[b] == nil {
				ld.errs.Errorf(m.Pos, "W0244", "memory %s: base %s is not a data memory", name, b)
			}
		}
		if m.NativeUnit != "" && l.Units[m.NativeUnit] == nil {
			ld.errs.Errorf(m.Pos, "W0244", "memory %s: native_unit %s is not a collective unit", name, m.NativeUnit)
		}
		if m.derives(name, map[string]bool{}, true) {
			ld.errs.Errorf(m.Pos, "W0244", "memory %s derives from itself", name)
		}
	}
	for _, name := range sortedKeys(l.Barriers) {
		b := l.Barriers[name]
		for _, base := range b.Base {
			if l.Barriers[base] == nil {
				ld.errs.Errorf(b.Pos, "W0244", "barrier memory %s: base %s is not a barrier memory", name, base)
			}
		}
	}
	for _, name := range sortedKeys(l.Windows) {
		w := l.Windows[name]
		if w.Source != "" && l.Memories[w.Source] == nil {
			ld.errs.Errorf(w.Pos, "W0244", "special window %s: source %s is not a data memory", name, w.Source)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// args reads the keyword arguments of a library declaration and reports
// unknown or ill-typed ones. asked holds the names read, n of them, the
// ones past its room in more (a declaration reads a dozen at most; done
// compares each keyword argument's name with them), where a map of them
// was made for every declaration of the library's load (issue 13, stop
// 44).
type args struct {
	ld    *loader
	call  *syntax.Call
	n     int
	asked [16]string
	more  []string
}

func (a *args) get(name string) syntax.Expr {
	if a.n < len(a.asked) {
		a.asked[a.n] = name
		a.n++
	} else {
		a.more = append(a.more, name)
	}
	if k := a.call.Kwarg(name); k != nil {
		return k.Value
	}
	return nil
}

func (a *args) bad(e syntax.Expr, name, want string) {
	a.ld.errs.Errorf(e.Pos(), "W0243", "%s= of %s must be %s", name, a.call.FunName(), want)
}

func (a *args) str(name string) string {
	e := a.get(name)
	if e == nil {
		return ""
	}
	s, ok := e.(*syntax.StringLit)
	if !ok {
		a.bad(e, name, "a string")
		return ""
	}
	return s.Value
}

func (a *args) bool(name string) bool {
	e := a.get(name)
	if e == nil {
		return false
	}
	b, ok := e.(*syntax.BoolLit)
	if !ok {
		a.bad(e, name, "True or False")
		return false
	}
	return b.Value
}

func (a *args) int(name string) int64 {
	e := a.get(name)
	if e == nil {
		return 0
	}
	n, ok := e.(*syntax.IntLit)
	if !ok {
		a.bad(e, name, "an integer")
		return 0
	}
	return n.Value
}

func (a *args) name(name string) *syntax.Name {
	e := a.get(name)
	if e == nil {
		return nil
	}
	n, ok := e.(*syntax.Name)
	if !ok {
		a.bad(e, name, "a name")
		return nil
	}
	return n
}

func (a *args) list(name string) []syntax.Expr {
	e := a.get(name)
	if e == nil {
		return nil
	}
	l, ok := e.(*syntax.List)
	if !ok {
		a.bad(e, name, "a list")
		return nil
	}
	return l.Elems
}

func (a *args) names(name string) []*syntax.Name {
	var out []*syntax.Name
	for _, e := range a.list(name) {
		n, ok := e.(*syntax.Name)
		if !ok {
			a.bad(e, name, "a list of names")
			continue
		}
		out = append(out, n)
	}
	return out
}

func (a *args) strs(name string) []string {
	var out []string
	for _, e := range a.list(name) {
		s, ok := e.(*syntax.StringLit)
		if !ok {
			a.bad(e, name, "a list of strings")
			continue
		}
		out = append(out, s.Value)
	}
	return out
}

// done reports keyword arguments nobody asked for, and positional ones.
func (a *args) done() {
	if len(a.call.Args) > 0 {
		a.ld.errs.Errorf(a.call.Args[0].Pos(), "W0243", "%s takes keyword arguments only", a.call.FunName())
	}
	for _, k := range a.call.Kwargs {
		if !slices.Contains(a.asked[:a.n], k.Name.Name) && !slices.Contains(a.more, k.Name.Name) {
			a.ld.errs.Errorf(k.Pos(), "W0243", "%s has no field %s", a.call.FunName(), k.Name.Name)
		}
	}
}

// String is a short description used in messages.
func (l *Library) String() string {
	return fmt.Sprintf("library(%d memories, %d units, %d timelines, %d instrs)", len(l.Memories), len(l.Units), len(l.Timelines), l.NumInstrs())
}
