package check

import (
	"sync"
	"sync/atomic"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// Check resolves and checks f against the library l, appending diagnostics
// to errs. It never panics and always returns a Program.
func Check(f *syntax.File, l *lib.Library, errs *diag.List) *Program {
	return check(f, l, errs, false)
}

// Lean is Check for a caller that reads none of the per-node index of the
// file's procs: its Programs' procs have nil Uses, Defs, Locals, Callees
// and Args (the library's procs keep theirs). The diagnostics are Check's.
// `weft check` runs it: none of its later passes reads the index, whose
// maps were a fifth of the check of a small kernel (issue 13).
func Lean(f *syntax.File, l *lib.Library, errs *diag.List) *Program {
	return check(f, l, errs, true)
}

func check(f *syntax.File, l *lib.Library, errs *diag.List, lean bool) *Program {
	if l == nil {
		l = &lib.Library{Memories: map[string]*lib.Memory{}, Barriers: map[string]*lib.BarrierMemory{},
			Windows: map[string]*lib.SpecialWindow{}, Units: map[string]*lib.Unit{}, Quals: map[string]*lib.QualTL{},
			Timelines: map[string]*lib.SyncTL{}}
	}
	// Configs, Fields and Externs are made at their first entry: most
	// files have none (issue 13: a map each per check for nothing); so
	// are Consts and Globals (stop 32: a host-only proc has neither).
	// The Program, Lean's first Proc and the first slot of Procs in one
	// allocation (stop 42: three per check, for a file of one proc), and
	// the checker with them (stop 43: a fourth).
	blk := &progBlock{prog: Program{File: f, Lib: l, ByName: map[string]*Proc{}}}
	prog := &blk.prog
	c := &blk.chk
	c.lib, c.errs, c.prog, c.lean = l, errs, prog, lean
	if f == nil {
		return prog
	}
	c.libProcs()
	c.declareGlobals(f)
	c.declareConfigs(f)
	// Declare every proc first so calls may refer forward.
	type pending struct {
		p    *Proc
		decl *syntax.Proc
	}
	// todo starts in an array of the stack (most files declare a proc or
	// two; stop 42: an allocation per check).
	var todoFirst [4]pending
	todo := todoFirst[:0]
	// callees: the callee names of the call statements of every proc of
	// f (procSize), while sized holds (every proc was sized).
	callees, sized := c.first.callees[:0], true
	for _, d := range f.Decls {
		sp, ok := d.(*syntax.Proc)
		if !ok || sp.Name == nil {
			continue
		}
		name := sp.Name.Name
		// ByName holds exactly the names declared so far (no map of its
		// own for this test).
		if prev := prog.ByName[name]; prev != nil {
			errs.Errorf(sp.Name.Pos(), "W0202", "proc %s is declared twice", name).Note(prev.Decl.Name.Pos(), "first declaration is here")
			sized = false
			continue
		}
		if g := c.globals.get(name); g != nil {
			errs.Errorf(sp.Name.Pos(), "W0202", "proc %s has the name of a module-level value", name).Note(g.Pos, "the value is declared here")
			sized = false
			continue
		}
		size := procSize{declsOnly: lean, callees: &callees}
		size.proc(sp)
		var p *Proc
		if lean {
			if prog.Procs == nil {
				p, prog.Procs = &blk.proc, blk.procs[:0]
			} else {
				p = new(Proc)
			}
			p.Name, p.Decl = sp.Name.Name, sp
		} else {
			p = newProcSized(sp, size.names, size.decls)
		}
		p.loops, p.decls = size.loops, size.decls
		if lib.IsInstr(sp) {
			p.Instr = lib.ParseInstr(sp, l, errs)
		} else {
			c.procDecorators(sp, libFile(l, f))
		}
		prog.Procs = append(prog.Procs, p)
		prog.ByName[name] = p
		todo = append(todo, pending{p, sp})
	}
	if !sized {
		callees = nil
	}
	where := c.procContexts(f, sized, callees)
	for _, t := range todo {
		c.checkProc(t.p, t.decl, where.of(t.p.Name))
	}
	return prog
}

// progBlock is a Program with room for its first proc (Lean's) and the
// first entry of its Procs, and the checker that fills it. The checker
// lives as long as the Program then (a few KB more held per Program;
// none of its state is read after check returns: the Program's slices
// into its scratch arrays, exprSlab's and a proc's Params, are the
// Program's own, handed out once).
type progBlock struct {
	prog  Program
	proc  Proc
	procs [1]*Proc
	chk   checker
}

func newProc(sp *syntax.Proc) *Proc { return newProcSized(sp, 0, 0) }

// newProcSized is newProc with Uses and Defs made for uses and defs
// entries (procSize). Callees, Args and Windows are made at their first
// entry (addCallee, addWindow): many procs call nothing or declare no
// window, and three maps per proc were a visible part of a small
// kernel's check (issue 13).
func newProcSized(sp *syntax.Proc, uses, defs int) *Proc {
	p := &Proc{Name: sp.Name.Name, Decl: sp, Uses: make(map[*syntax.Name]*Symbol, uses), Defs: make(map[syntax.Node]*Symbol, defs)}
	if defs > 0 {
		p.Locals = make([]*Symbol, 0, defs)
	}
	return p
}

// libProcs finds the library's table of procs (libTable), made once per
// Library and shared by every Program checked against it.
func (c *checker) libProcs() {
	if cached, ok := libCache.Load(c.lib); ok {
		c.prog.libProcs = cached.(*libTable)
		return
	}
	t, _ := libCache.LoadOrStore(c.lib, newLibTable(c.lib))
	c.prog.libProcs = t.(*libTable)
}

// libTable is the library's instructions and procs, each resolved and
// checked at its first lookup (get), not all of them when the first
// Program is checked: that was 1.06 M instructions of a one-shot `weft
// check` of a kernel that calls a handful of them, or none (issue 13,
// stop 44). Their bodies are checked with a private diagnostic list: the
// library's own tests keep them clean (TestLibraryChecksClean,
// TestLibTableAll), and a user must not see library internals.
type libTable struct {
	lib *lib.Library
	idx *libIndex
	// mu serializes resolution (resolve); held marks the view that a
	// library body's own lookups go through while mu is held (a library
	// proc calling another resolves it under the same lock).
	mu   *sync.Mutex
	held bool
	// errs is the bodies' private diagnostic list (appended to under mu).
	errs *diag.List
}

// libIndex is a libTable's entries by name, made at its first lookup
// (entries): a check that calls no library proc makes none of it (stop
// 44: some 40 K instructions of a one-shot check).
type libIndex struct {
	once  sync.Once
	procs map[string]*libProc
}

// libProc is one entry of a libTable. p is written under the table's
// lock, before done; get reads it without the lock only once done is set.
type libProc struct {
	done atomic.Bool
	name string
	p    *Proc
}

func newLibTable(l *lib.Library) *libTable {
	return &libTable{lib: l, idx: new(libIndex), mu: new(sync.Mutex), errs: &diag.List{}}
}

// entries returns the table's entries by name, made once.
func (t *libTable) entries() map[string]*libProc {
	t.idx.once.Do(t.index)
	return t.idx.procs
}

// index makes the table's entries: one per instruction and proc of the
// library, by name (the library parses one at its first lookup, resolve:
// issue 13, stop 44).
func (t *libTable) index() {
	n := t.lib.NumNames()
	procs := make(map[string]*libProc, n)
	ents := make([]libProc, n)
	i := 0
	for name := range t.lib.Names() {
		ents[i].name = name
		procs[name] = &ents[i]
		i++
	}
	t.idx.procs = procs
}

// get returns the library proc named name, resolved, or nil.
func (t *libTable) get(name string) *Proc {
	if t == nil {
		return nil
	}
	e := t.entries()[name]
	if e == nil {
		return nil
	}
	if e.done.Load() {
		return e.p
	}
	return t.resolve(e)
}

// resolve resolves and checks e's proc once, in full (a library proc is
// shared by every Program: never lean), with a checker of its own, as
// the first check of the process did for every library proc in name
// order before (its checker held nothing of the file then: no globals,
// no procs). A proc being resolved (a cycle of library calls) is
// returned as it stands.
func (t *libTable) resolve(e *libProc) *Proc {
	if !t.held {
		t.mu.Lock()
		defer t.mu.Unlock()
	}
	if e.p != nil {
		return e.p
	}
	instr := t.lib.Instr(e.name)
	decl := t.lib.Proc(e.name)
	if instr != nil {
		decl = instr.Proc
	}
	p := newProc(decl)
	p.Instr, p.Lib = instr, true
	e.p = p
	view := *t
	view.held = true
	c := &checker{lib: t.lib, errs: t.errs, libErrs: t.errs, prog: &Program{Lib: t.lib, ByName: map[string]*Proc{}, libProcs: &view}}
	c.checkProc(p, p.Decl, codeUnknown)
	libParamFacts(t.lib, p)
	e.done.Store(true)
	return p
}

// libParamFacts records, for a library proc p, what each call of it asks
// of the library about its parameters: an instruction's access mode of
// each (Proc.modes), and whether each one's memory names a special
// window (Symbol.winMem). They are two map lookups by name per argument
// of every call (stop 41: about 2.5 K instructions of checking row 15);
// the library's maps are complete once it is loaded (lib.Load) and only
// read after, and a parameter's Mem is set once (paramSymbol), so the
// answers recorded with the library's procs, which are shared like them
// (libCache), are the answers the lookups give.
func libParamFacts(l *lib.Library, p *Proc) {
	if p.Instr != nil {
		p.modes = make([]string, len(p.Params))
		for i, psym := range p.Params {
			if a := p.Instr.Access[psym.Name]; a != nil {
				p.modes[i] = a.Mode
			}
		}
	}
	for _, psym := range p.Params {
		psym.winMem = winMemNo
		if l.Windows[psym.Mem] != nil {
			psym.winMem = winMemYes
		}
	}
}

// libFile reports whether f is one of the library's files.
func libFile(l *lib.Library, f *syntax.File) bool {
	for _, lf := range l.Files {
		if lf == f {
			return true
		}
	}
	return false
}

// procDecorators accepts @proc (Exo's marker) on plain procs, and @extern
// on the library's extern functions (lib/externs.weft).
func (c *checker) procDecorators(sp *syntax.Proc, inLib bool) {
	for _, d := range sp.Decorators {
		if n, ok := d.(*syntax.Name); ok && n.Name == "proc" {
			continue
		}
		if n, ok := d.(*syntax.Name); ok && n.Name == "extern" {
			if !inLib {
				c.errs.Errorf(d.Pos(), "W0222", "@extern declares the library's extern functions (lib/externs.weft); a program calls them (%s)", lib.ExternNames())
			}
			continue
		}
		if cl, ok := d.(*syntax.Call); ok && cl.FunName() == "access" {
			c.errs.Errorf(d.Pos(), "W0222", "@access belongs to an @instr declaration")
			continue
		}
		c.errs.Errorf(d.Pos(), "W0222", "unknown decorator (procs take @proc, instructions @instr and @access)")
	}
}

// procWhere is procContexts' answer: where the top level of each proc
// runs.
type procWhere struct {
	m map[string]code
	// f is set instead of m when no proc of f calls another of its procs
	// (simpleProcContexts).
	f *syntax.File
}

// of returns where the proc named name runs.
func (w procWhere) of(name string) code {
	if w.f == nil {
		return w.m[name]
	}
	// No proc calls it: CPU code, or an instruction's body (codeUnknown);
	// the last declaration of the name decides, as in procContextsMap.
	for i := len(w.f.Decls) - 1; i >= 0; i-- {
		if p, ok := w.f.Decls[i].(*syntax.Proc); ok && p.Name != nil && p.Name.Name == name {
			if lib.IsInstr(p) {
				return codeUnknown
			}
			return codeCPU
		}
	}
	return codeUnknown
}

// procContexts decides where the top level of each proc of f runs. A proc
// nobody calls is CPU code (seed 002: "All non-@instr procs consist of CPU
// code at the top level"); a called proc runs where all its call sites
// run (in-order CUDA code if every call is inside a CudaDeviceFunction,
// ...), and its context is unknown when call sites disagree, in which case
// memory permissions at its top level are not checked.
//
// sized reports that procSize walked every proc of f, collecting the
// callee names of its call statements in callees; simpleProcContexts
// then reads them instead of walking the procs again.
func (c *checker) procContexts(f *syntax.File, sized bool, callees []string) procWhere {
	if simpleProcContexts(f, sized, callees) {
		return procWhere{f: f}
	}
	return procWhere{m: c.procContextsMap(f)}
}

// simpleProcContexts reports whether f has a few procs and none of them
// calls one of f's procs: then every proc is uncalled, which needs none
// of procContextsMap's maps (issue 13: they were a tenth of the check of
// a small kernel, most of whose files have one proc calling only
// instructions).
//
// With sized (procContexts) the walk below is not made: it looks only at
// the callee names of call statements, through the bodies of for, if
// (both branches) and with statements, which procSize.stmts walks too,
// collecting the same names (callees) for every proc of f; one of them
// names a proc of f exactly where the walk finds one (stop 41).
func simpleProcContexts(f *syntax.File, sized bool, callees []string) bool {
	n := 0
	for _, d := range f.Decls {
		if p, ok := d.(*syntax.Proc); ok && p.Name != nil {
			n++
		}
	}
	if n > 8 {
		return false // a map's lookups, not a walk of the declarations per call
	}
	isProc := func(name string) bool {
		for _, d := range f.Decls {
			if p, ok := d.(*syntax.Proc); ok && p.Name != nil && p.Name.Name == name {
				return true
			}
		}
		return false
	}
	if sized {
		for _, n := range callees {
			if isProc(n) {
				return false
			}
		}
		return true
	}
	var calls func(ss []syntax.Stmt) bool
	calls = func(ss []syntax.Stmt) bool {
		for _, s := range ss {
			switch s := s.(type) {
			case *syntax.CallStmt:
				if s.Call != nil && s.Call.FunName() != "" && isProc(s.Call.FunName()) {
					return true
				}
			case *syntax.For:
				if calls(s.Body) {
					return true
				}
			case *syntax.If:
				if calls(s.Then) || calls(s.Else) {
					return true
				}
			case *syntax.With:
				if calls(s.Body) {
					return true
				}
			}
		}
		return false
	}
	for _, d := range f.Decls {
		if p, ok := d.(*syntax.Proc); ok && p.Name != nil && calls(p.Body) {
			return false
		}
	}
	return true
}

// procContextsMap is procContexts for any file.
func (c *checker) procContextsMap(f *syntax.File) map[string]code {
	type site struct {
		caller string
		where  code // codeUnknown: the caller's own top-level context
	}
	sites := map[string][]site{}
	var walk func(caller string, ss []syntax.Stmt, where code)
	walk = func(caller string, ss []syntax.Stmt, where code) {
		for _, s := range ss {
			switch s := s.(type) {
			case *syntax.CallStmt:
				if s.Call != nil && s.Call.FunName() != "" {
					sites[s.Call.FunName()] = append(sites[s.Call.FunName()], site{caller, where})
				}
			case *syntax.For:
				walk(caller, s.Body, where)
			case *syntax.If:
				walk(caller, s.Then, where)
				walk(caller, s.Else, where)
			case *syntax.With:
				inner := where
				if call, ok := s.Ctx.(*syntax.Call); ok {
					switch call.FunName() {
					case "CudaDeviceFunction":
						inner = codeCUDA
					case "CudaAsync":
						inner = codeAsync
					}
				}
				walk(caller, s.Body, inner)
			}
		}
	}
	ctx := map[string]code{}
	instr := map[string]bool{}
	for _, d := range f.Decls {
		if p, ok := d.(*syntax.Proc); ok && p.Name != nil {
			walk(p.Name.Name, p.Body, codeUnknown)
			instr[p.Name.Name] = lib.IsInstr(p)
		}
	}
	const unset code = -1
	for _, d := range f.Decls {
		if p, ok := d.(*syntax.Proc); ok && p.Name != nil {
			ctx[p.Name.Name] = unset
		}
	}
	// Fixpoint over call chains; a proc's context only moves from unset to
	// a value, so len(ctx)+1 rounds suffice.
	for round := 0; round <= len(ctx); round++ {
		changed := false
		for name, cur := range ctx {
			if cur != unset {
				continue
			}
			if instr[name] {
				ctx[name], changed = codeUnknown, true
				continue
			}
			ss := sites[name]
			if len(ss) == 0 {
				ctx[name], changed = codeCPU, true
				continue
			}
			result, ready := unset, true
			for _, st := range ss {
				w := st.where
				if w == codeUnknown {
					cw, known := ctx[st.caller]
					if !known {
						w = codeUnknown
					} else if cw == unset {
						ready = false
						break
					} else {
						w = cw
					}
				}
				if result == unset {
					result = w
				} else if result != w {
					result = codeUnknown
				}
			}
			if ready {
				ctx[name], changed = result, true
			}
		}
		if !changed {
			break
		}
	}
	for name, cur := range ctx {
		if cur == unset { // recursion: no call site decides
			ctx[name] = codeUnknown
		}
	}
	return ctx
}

// declareGlobals folds integer constants and records other values.
func (c *checker) declareGlobals(f *syntax.File) {
	// isProc is asked only of simplify(p) (a proc rebound), so a walk of
	// the declarations, not a map per check.
	isProc := func(name string) bool {
		for _, d := range f.Decls {
			if p, ok := d.(*syntax.Proc); ok && p.Name != nil && p.Name.Name == name {
				return true
			}
		}
		return false
	}
	if c.globals.slots == nil {
		c.globals.slots = c.scratch().globals[:]
	}
	c.globalsOf = f
	for _, d := range f.Decls {
		g, ok := d.(*syntax.Global)
		if !ok {
			continue
		}
		if len(g.Values) != len(g.Names) {
			if len(g.Values) == 1 && len(g.Names) > 1 {
				c.errs.Errorf(g.Pos(), "W0223", "cannot unpack one value into %d names", len(g.Names))
			}
			for _, n := range g.Names {
				c.globals.set(n.Name, &Symbol{Name: n.Name, Kind: KindGlobal, Pos: n.Pos(), Decl: g, Param: -1})
			}
			continue
		}
		for i, n := range g.Names {
			v := g.Values[i]
			if call, ok := v.(*syntax.Call); ok && call.FunName() == "simplify" {
				// `p = simplify(p)` rebinds a proc (Exo's constant
				// folding of a scheduled proc, spec digest §3.1); it
				// declares no value.
				if len(call.Args) != 1 || !isProc(exprName(call.Args[0])) || exprName(call.Args[0]) != n.Name {
					c.errs.Errorf(v.Pos(), "W0223", "simplify takes the proc being rebound: %s = simplify(%s)", n.Name, n.Name)
				}
				continue
			}
			if prev := c.globals.get(n.Name); prev != nil {
				// `xgemm = simplify(xgemm)` rebinds a proc; constants may
				// not be redefined.
				if prev.Kind == KindConst {
					c.errs.Errorf(n.Pos(), "W0202", "constant %s is declared twice", n.Name).Note(prev.Pos, "first declaration is here")
				}
				continue
			}
			sym := &Symbol{Name: n.Name, Kind: KindGlobal, Pos: n.Pos(), Decl: g, Param: -1}
			if !c.lean {
				// Lean's Program has no Globals (no later pass of
				// `weft check` reads them; the check itself asks
				// globalValue): a map made and filled per check for
				// nothing (stop 42).
				if c.prog.Globals == nil {
					c.prog.Globals = map[string]syntax.Expr{}
				}
				c.prog.Globals[n.Name] = v
			}
			if val, ok := c.constValue(v); ok {
				sym.Kind, sym.Value = KindConst, val
				if c.prog.Consts == nil {
					c.prog.Consts = map[string]int64{}
				}
				c.prog.Consts[n.Name] = val
			} else {
				c.checkGlobalValue(v)
			}
			c.globals.set(n.Name, sym)
		}
	}
}

// globalValue is Check's Globals[name] (ok: an entry), found in f's
// declarations: warpConfig's question, which Lean, having no Globals,
// asks here. Why it is the map's answer: declareGlobals enters a name
// only where its module-level table has no symbol of that name yet
// (prev == nil), and every name it visits but a simplify(...) value's
// sets a symbol, which only a later symbol of the same name replaces;
// so the entry is made, with its value, at the name's first occurrence
// outside simplify values, and only where that occurrence's declaration
// gives each name a value (len(Values) == len(Names)).
//
// f is nil before declareGlobals (the library's procs are checked with
// no module-level values: Globals is still nil then).
func globalValue(f *syntax.File, name string) (syntax.Expr, bool) {
	if f == nil {
		return nil, false
	}
	for _, d := range f.Decls {
		g, ok := d.(*syntax.Global)
		if !ok {
			continue
		}
		matched := len(g.Values) == len(g.Names)
		for i, n := range g.Names {
			if n.Name != name {
				continue
			}
			if !matched {
				return nil, false
			}
			if call, ok := g.Values[i].(*syntax.Call); ok && call.FunName() == "simplify" {
				continue
			}
			return g.Values[i], true
		}
	}
	return nil, false
}

// checkGlobalValue accepts the non-integer module-level values the seeds
// use: warp configurations, collective units, simplify(proc), and lists of
// them.
func (c *checker) checkGlobalValue(v syntax.Expr) {
	switch v := v.(type) {
	case *syntax.List:
		for _, e := range v.Elems {
			c.checkGlobalValue(e)
		}
	case *syntax.Call:
		switch v.FunName() {
		case "CudaWarpConfig", "CollUnit":
			return
		}
		if c.lib.Units[v.FunName()] != nil {
			return
		}
		c.errs.Errorf(v.Pos(), "W0223", "module-level value must be an integer constant, CudaWarpConfig, CollUnit, a unit or simplify(proc)")
	case *syntax.Binary:
		if c.unitExprOK(v) {
			return
		}
		c.errs.Errorf(v.Pos(), "W0223", "module-level value must be an integer constant expression")
	case *syntax.Name:
		if c.lib.Units[v.Name] != nil || c.globals.get(v.Name) != nil {
			return
		}
		c.errs.Errorf(v.Pos(), "W0201", "undefined: %s", v.Name)
	case *syntax.BadExpr:
	default:
		c.errs.Errorf(v.Pos(), "W0223", "module-level value must be an integer constant, CudaWarpConfig, CollUnit, a unit or simplify(proc)")
	}
}

func (c *checker) unitExprOK(e syntax.Expr) bool {
	var scratch diag.List
	saved := c.errs
	c.errs = &scratch
	c.unitExpr(e)
	c.errs = saved
	return scratch.Len() == 0
}

func exprName(e syntax.Expr) string {
	if n, ok := e.(*syntax.Name); ok {
		return n.Name
	}
	return ""
}

var libCache sync.Map // *lib.Library -> *libTable
