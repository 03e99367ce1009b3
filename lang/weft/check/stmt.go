package check

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// code is where a statement runs (seed 002: CPU code at a proc's top level,
// in-order CUDA code inside CudaDeviceFunction, async CUDA code inside
// CudaAsync).
type code int

const (
	codeUnknown code = iota // top level of a called proc or an instruction body
	codeCPU
	codeCUDA
	codeAsync
)

type checker struct {
	lib     *lib.Library
	errs    *diag.List
	libErrs *diag.List
	prog    *Program
	globals symTab // module-level values (symtab.go)
	// globalsOf is the file whose module-level values globals holds
	// (declareGlobals; nil before): globalValue's.
	globalsOf *syntax.File

	// per proc
	proc *Proc
	// names are the names of the open scopes. A proc has one flat
	// namespace (declare refuses to shadow a visible name), so one table
	// serves every scope: a lookup hashes the name once, not once per
	// open scope (issue 13: the walk was a sixth of checking a GEMM).
	// declared lists the names in declaration order and marks where each
	// open scope's begin; pop removes a scope's names. Up to linearNames
	// open names, declared alone holds them (names is empty).
	names    symTab
	declared []declName
	marks    []int
	// openAt holds, per bucket of keys (nameBucket), 1 + the index in
	// declared of the last open name of the bucket (0: none); each
	// entry's prevSame links to the bucket's one before (openName).
	openAt [64]int32
	seen   []*Symbol // exactRange's iterator occurrences (interval)
	syms   []Symbol  // the proc's symbols (newSymbol)
	// lean: Lean's check, which records Uses only inside par loops
	// (parDepth of them open) and no Defs, Locals, Callees or Args.
	lean     bool
	parDepth int
	// symOnly: window resolves the symbol only (windowSym), without
	// extents or bounds checks.
	symOnly bool
	where   code
	async   string // CudaAsync timeline
	// narrowed undoes the narrowing of iterator ranges by the guards of
	// the open ifs (narrow): the ranges themselves are Symbol.rng.
	narrowed []rangeUndo
	device   bool // inside a CudaDeviceFunction
	tasks    bool // inside a cuda_tasks loop
	warps    int  // depth of CudaWarps blocks
	// first holds the first arrays of names, declared, marks and globals
	// (checkScratch), in the checker itself: one allocation fewer per
	// check (stop 41).
	first checkScratch
	// lits and exprs are slabs the checker carves the nodes and lists it
	// makes from (intLit, exprSlab).
	lits  []syntax.IntLit
	exprs []syntax.Expr
	// extents: the window being resolved is an argument's (arg), whose
	// extents are read for their values only (len and constValue) and
	// dropped when arg returns; slice's literals then come from ext
	// (extLits), without their Text.
	extents bool
	nExt    int
	ext     [4]syntax.IntLit
	// paramsTaken: paramList handed out first.params.
	paramsTaken bool
	// lastMemory: dataMemory's last lookup of lib.Memories.
	lastMemory lastLookup[*lib.Memory]
	// lastUnit, lastTimeline: unit's and timeline's last answers.
	lastUnit     lastLookup[*lib.Unit]
	lastTimeline lastLookup[*lib.SyncTL]
}

// intLit returns a new literal of v, as &syntax.IntLit{Text: itoa(v),
// Value: v}, carved from c.lits: a window's extents (slice) were one
// allocation each (stop 41). Each literal is handed out once and never
// written after.
func (c *checker) intLit(v int64) *syntax.IntLit {
	if c.extents && c.nExt < len(c.ext) {
		// An argument's extent (arg): only its Value is read, and only
		// until arg returns, when extLits hands the slots out again. Its
		// Text, itoa(v), was a formatting and a string allocation of
		// each slice of a call's arguments (d_src[0:256]; stop 43).
		l := &c.ext[c.nExt]
		c.nExt++
		l.Value = v
		return l
	}
	if len(c.lits) == cap(c.lits) {
		c.lits = make([]syntax.IntLit, 0, 4)
	}
	c.lits = c.lits[:len(c.lits)+1]
	l := &c.lits[len(c.lits)-1]
	l.Text, l.Value = itoa(v), v
	return l
}

// exprSlab returns n nil expressions carved from c.exprs, capped at n so
// that an append by their holder copies rather than overwrites the next
// carving: a call's bound arguments and a window's dimensions were a
// slice each, grown by appends (stop 41). Each carving is handed out
// once.
func (c *checker) exprSlab(n int) []syntax.Expr {
	if c.exprs == nil {
		c.exprs = c.first.exprs[:0]
	}
	if cap(c.exprs)-len(c.exprs) < n {
		c.exprs = make([]syntax.Expr, 0, max(16, n))
	}
	k := len(c.exprs)
	c.exprs = c.exprs[:k+n]
	return c.exprs[k : k+n : k+n]
}

// checkScratch is the first array of each of the per-proc tables: a
// small kernel's check made each of them on first use, three allocations
// where this is one (stop 36, issue 13). Each table takes a new array,
// as before, when it outgrows its first one (a proc of more than eight
// declarations makes declared anew, as it did). The module-level table
// starts in 4 slots of its own (one value; stop 41: most files have few
// or none, and its 16 slots were an allocation of 512 bytes).
type checkScratch struct {
	// declared's first entries, 16 (stop 43: declared had 8, which a
	// kernel of nine declarations outgrew, rows 9, 11 and 15: a list
	// made anew every check). names has no first slots (stop 45): it
	// holds names only past linearNames open ones, more than its 16
	// slots took, so they were 512 bytes of every check for nothing.
	declared [16]declName
	marks    [8]int
	globals  [4]symSlot
	callees  [4]string  // check's list of callee names (procSize)
	seen     [8]*Symbol // exactRange's occurrences (stop 42: its first append allocated)
	// params is the first proc's list of parameters (paramList).
	params [4]*Symbol
	// exprs is exprSlab's first slab (stop 43: a 256-byte allocation of
	// every check that calls or windows anything).
	exprs [16]syntax.Expr
}

// declName is a name of an open scope and its symbol. It keeps no hash
// of the name for names' delete (pop hashes it again): only a proc of
// more than linearNames open names hashes them, and the field made the
// checker's first 16 entries 128 bytes larger, past the 2304-byte size
// class of its progBlock (issue 13, stop 45).
type declName struct {
	name string
	sym  *Symbol
	key  uint32 // nameKey(name)
	// prevSame is 1 + the index of the open name declared before this
	// one in its bucket (0: none), openAt's value before this one.
	prevSame int32
}

// nameKey is a digest of name, its length and first and last bytes:
// two equal names have equal keys, so a differing key rejects a name in
// one comparison (a kernel's names often share a length: t4, t2, t1;
// d_src, d_dst; and comparing two strings of one length is a call).
func nameKey(name string) uint32 {
	n := len(name)
	if n == 0 {
		return 0
	}
	return uint32(n) | uint32(name[0])<<16 | uint32(name[n-1])<<24
}

// nameBucket is key's bucket of openAt.
func nameBucket(key uint32) uint32 { return (key ^ key>>16 ^ key>>24) & 63 }

// linearNames is how many open names a proc's scopes hold in declared
// alone (stop 43). A proc has one flat namespace (declare refuses a name
// already open), so declared holds each open name once and a scan of it
// finds what the table finds. Up to linearNames names a scan, whose
// string comparisons mostly stop at the length, costs less than
// hashing the name, and a declaration and a pop neither hash nor probe:
// the table's insert, lookup and backward-shift delete were a fifth of
// checking a small kernel (rows 9, 11, 15 open at most ten names at
// once). The declaration that would open one more copies the open names
// into names (hashDeclared); from then on names holds exactly the open
// names (names.n > 0, or both are empty), as it always did before.
const linearNames = 16

// scratch returns c's first arrays.
func (c *checker) scratch() *checkScratch { return &c.first }

// newSymbol returns a Symbol from c.syms (or a new one should the count
// of declarations fall short) with the fields every declaration sets and
// the rest zero. The slot is zero already (a fresh array, each slot taken
// once), so the fields are written one by one: assigning a whole Symbol
// literal copied its 250-odd bytes through a temporary, about a hundred
// instructions per loop of a kernel (stop 41).
func (c *checker) newSymbol(name string, kind Kind, pos diag.Pos, decl syntax.Node, param int) *Symbol {
	var s *Symbol
	if len(c.syms) == cap(c.syms) {
		s = new(Symbol)
	} else {
		c.syms = c.syms[:len(c.syms)+1]
		s = &c.syms[len(c.syms)-1]
	}
	s.Name, s.Kind, s.Pos, s.Decl, s.Param = name, kind, pos, decl, int32(param)
	return s
}

// push opens a scope.
func (c *checker) push() { c.marks = append(c.marks, len(c.declared)) }

// pop closes the innermost scope: its names are no longer visible.
func (c *checker) pop() {
	m := c.marks[len(c.marks)-1]
	c.marks = c.marks[:len(c.marks)-1]
	// The scope's names leave their buckets last first, each bucket
	// back to what it was before the name's declaration.
	for j := len(c.declared) - 1; j >= m; j-- {
		d := &c.declared[j]
		c.openAt[nameBucket(d.key)] = d.prevSame
	}
	if c.names.n > 0 {
		for _, d := range c.declared[m:] {
			c.names.del(d.name)
		}
	}
	c.declared = c.declared[:m]
}

// declare adds sym to the innermost scope; names may not shadow a name of
// the proc (Exo procs have one flat namespace per proc body).
func (c *checker) declare(n *syntax.Name, sym *Symbol) {
	var prev *Symbol
	k := nameKey(n.Name)
	switch {
	case c.names.n > 0:
		prev, _ = c.names.insert(n.Name, sym)
	case len(c.declared) < linearNames:
		prev = c.openName(n.Name, k)
	default:
		c.hashDeclared()
		prev, _ = c.names.insert(n.Name, sym)
	}
	if prev != nil {
		c.errs.Errorf(n.Pos(), "W0202", "%s is already declared", n.Name).Note(prev.Pos, "the other declaration is here")
		return
	}
	// A module-level value is in scope in every proc, so a local or an
	// iterator of its name would shadow it (docs/weft-reference.md, "Names
	// and scopes": no shadowing, every use resolves to one declaration).
	// Left unchecked, a use of the module-level K above `K: f32` (or in a
	// sibling block after it) resolved to the constant here but to the
	// local in the later passes' per-proc lookup (issue 13, stop 44). A
	// parameter is declared before any use, so it may keep a module-level
	// name: every use in its proc resolves to it in every pass.
	if sym.Param < 0 && c.globals.n > 0 {
		if g := c.globals.getHashed(n.Name, hashName(n.Name)); g != nil {
			c.errs.Errorf(n.Pos(), "W0202", "%s is already declared at module level; a proc's local may not shadow it", n.Name).Note(g.Pos, "the module-level declaration is here")
			return
		}
	}
	b := nameBucket(k)
	c.declared = append(c.declared, declName{n.Name, sym, k, c.openAt[b]})
	c.openAt[b] = int32(len(c.declared))
	if c.lean {
		return
	}
	c.proc.Defs[sym.Decl] = sym
	if sym.Param < 0 {
		c.proc.Locals = append(c.proc.Locals, sym)
	}
}

// use records that n refers to s (Proc.Uses): always for Check; for Lean
// only inside a CPU par loop, whose analysis (parWrites) reads it.
func (c *checker) use(n *syntax.Name, s *Symbol) {
	if c.lean {
		if c.parDepth == 0 {
			return
		}
		if c.proc.Uses == nil {
			c.proc.Uses = map[*syntax.Name]*Symbol{}
		}
	}
	c.proc.Uses[n] = s
}

// lookup resolves a name: proc scopes, then module-level values.
func (c *checker) lookup(n *syntax.Name) *Symbol {
	s := c.find(n.Name)
	if s != nil {
		c.use(n, s)
	}
	return s
}

// find resolves name in the proc's scopes, then the module-level values,
// hashing the name once for both tables (one hash function, hashName;
// stop 42: a name of neither, such as a unit's, was hashed twice).
//
// Stop 41's memo of find's answers by the address of the name's bytes is
// gone (stop 42): it answered a node's second lookup, and no node is
// looked up twice in a row any more (control and the range of an index
// or a bound are one walk, controlRange; constValue asks no table in a
// file without constants); it missed every time on row 15, some 1.6 K
// instructions of checking.
func (c *checker) find(name string) *Symbol {
	if c.names.n == 0 {
		// The open names are declared's alone (linearNames).
		if s := c.openName(name, nameKey(name)); s != nil {
			return s
		}
		if c.globals.n == 0 {
			return nil
		}
		return c.globals.getHashed(name, hashName(name))
	}
	h := hashName(name)
	if s := c.names.getHashed(name, h); s != nil {
		return s
	}
	return c.globals.getHashed(name, h)
}

// openName is the symbol of name, whose key is k (nameKey), among the
// open names of declared, or nil: while names holds none of them
// (linearNames), find's and declare's answer from the proc's scopes.
// Only the open names of k's bucket are compared (openAt's chain), by
// key first: every open name is in its bucket's chain (declare links
// it, pop unlinks it when its scope closes), so the chain holds name if
// it is open.
func (c *checker) openName(name string, k uint32) *Symbol {
	for i := c.openAt[nameBucket(k)]; i > 0; {
		d := &c.declared[i-1]
		if d.key == k && d.name == name {
			return d.sym
		}
		i = d.prevSame
	}
	return nil
}

// hashDeclared enters the open names of declared, linearNames of them,
// in names (empty). A names without slots takes 64, the power of two
// that holds them and the one being declared at most half full (stop
// 45: it has no first slots; growing from 16 took two more arrays).
func (c *checker) hashDeclared() {
	if c.names.slots == nil {
		c.names.slots = make([]symSlot, 64)
	}
	for i := range c.declared {
		d := &c.declared[i]
		c.names.insert(d.name, d.sym)
	}
}

func (c *checker) checkProc(p *Proc, sp *syntax.Proc, where code) {
	c.proc = p
	// The scopes of the previous proc are all closed (push and pop pair
	// up), so names is empty.
	c.names.clear()
	// openAt is empty too where declared is: each pop restores the
	// buckets of its names, last first, so popping every name declared
	// since the checker was made (zero) leaves openAt zero.
	if len(c.declared) > 0 {
		c.openAt = [64]int32{}
	}
	c.declared, c.marks = c.declared[:0], c.marks[:0]
	if c.declared == nil {
		c.declared = c.scratch().declared[:0]
	}
	// declared holds the open names, which a proc's sibling blocks
	// reuse: not sized by its declarations (stop 45: row 15's 17 made a
	// list of 17 where 9 are open at most; more than the first 16 open
	// at once grow it by append).
	if c.marks == nil {
		c.marks = c.scratch().marks[:0] // the nesting of scopes
	}
	// The proc's symbols (parameters, allocations, iterators, windows)
	// are carved from one array sized by the declaring statements
	// (procSize), not allocated one by one (issue 13).
	c.syms = make([]Symbol, 0, p.decls)
	c.narrowed = c.narrowed[:0]
	c.tasks, c.warps, c.async = false, 0, ""
	c.where = where
	if p.Instr != nil {
		c.where = codeUnknown
	}
	// A helper called from device code is device code (seed 000 §3.3).
	c.device = where == codeCUDA || where == codeAsync
	c.push()
	for i, prm := range sp.Params {
		if prm == nil || prm.Name == nil {
			continue
		}
		sym := c.paramSymbol(prm, i, p.Instr != nil)
		c.declare(prm.Name, sym)
		if p.Params == nil {
			p.Params = c.paramList(p, len(sp.Params))
		}
		p.Params = append(p.Params, sym)
	}
	if p.Instr != nil && p.Instr.Unit != nil && !p.Lib {
		c.unitExpr(p.Instr.Unit)
	}
	c.stmts(sp.Body)
	c.pop()
}

// paramList returns the empty list, of capacity n, of p's parameters:
// for the first proc of the file with at most len(c.first.params) of
// them, the checker's array (stop 43: an allocation per check), capped at
// n so that no append writes past it; for another proc, or a library
// proc (shared by every check, libCache, so never in one check's
// checker), a list of its own.
func (c *checker) paramList(p *Proc, n int) []*Symbol {
	if !p.Lib && !c.paramsTaken && n <= len(c.first.params) {
		c.paramsTaken = true
		return c.first.params[:0:n]
	}
	return make([]*Symbol, 0, n) // one list of its size
}

// paramSymbol resolves a parameter's type (seed 000 Fig. 2 and 10).
func (c *checker) paramSymbol(prm *syntax.Param, i int, instr bool) *Symbol {
	sym := c.newSymbol(prm.Name.Name, KindInvalid, prm.Name.Pos(), prm, i)
	sym.Type = prm.Type
	t := prm.Type
	if t == nil || t.Elem == nil {
		sym.Kind = KindInvalid
		return sym
	}
	switch t.Elem.Name {
	case "size", "index", "stride", "bool":
		// A switch, not a map literal built for every parameter.
		switch t.Elem.Name {
		case "size":
			sym.Kind = KindSize
		case "index":
			sym.Kind = KindIndex
		case "stride":
			sym.Kind = KindStride
		default:
			sym.Kind = KindBool
		}
		if t.Dims != nil || t.Window {
			c.errs.Errorf(t.Pos(), "W0203", "%s parameter cannot have dimensions", t.Elem.Name)
		}
		if t.Mem != nil && !controlParamMem(t) {
			c.errs.Errorf(t.Mem.Pos(), "W0203", "%s is a control type: it has no memory (Exo's `@ DRAM` is accepted)", t.Elem.Name)
		}
		return sym
	case "barrier":
		sym.Kind, sym.Elem = KindBarrier, "barrier"
		c.dims(t.Dims)
		sym.Dims = t.Dims
		sym.Mem = c.barrierMem(t.Mem, t.Pos())
		if t.Guard != nil {
			c.errs.Errorf(t.Guard.Pos(), "W0203", "a barrier parameter cannot name its guard; guard the allocation")
		}
		return sym
	}
	c.dataType(t)
	sym.Elem, sym.Dims = lib.ResolveElem(t.Elem.Name), t.Dims
	switch {
	case t.Window:
		sym.Kind = KindWindow
	case len(t.Dims) > 0:
		sym.Kind = KindTensor
	default:
		sym.Kind = KindScalar
	}
	c.dims(t.Dims)
	if t.Mem == nil {
		if !instr {
			sym.Mem = "DRAM" // Exo's default memory
		}
		return sym
	}
	// A window parameter may be a special window (seed 000 Fig. 14): a TMA
	// instruction takes its GMEM operand @ Sm90_tensorMap.
	// (t.Window first: specialName only reads the library's map, and a
	// parameter that is no window never asks it; stop 43.)
	if w := c.specialWindowParam(t); w != nil {
		sym.Mem, sym.Special = w.Name, true
		if call, ok := t.Mem.(*syntax.Call); ok {
			sym.MemArgs = call.Args
			for _, a := range call.Args {
				c.control(a)
			}
		}
		return sym
	}
	var m *lib.Memory
	if m, sym.MemArgs = c.dataMemory(t.Mem, sym.Dims, false); m != nil {
		sym.Mem = m.Name // the memory's own name (an alias names it too)
	}
	c.knownMemory(sym, m)
	return sym
}

// knownMemory records m, c.lib.Memories[sym.Mem] (nil: not known), as
// sym.Memory's remembered answer, for a symbol of no special window:
// permitAs and sameMem asked the map again for it at the symbol's first
// access (stop 42: a lookup per allocation and parameter). The memory
// dataMemory returns is the library's memory of its own name (lib.Load
// enters each under its name), and so is DRAM's lookup.
func (c *checker) knownMemory(sym *Symbol, m *lib.Memory) {
	if m != nil && !sym.Special {
		sym.memOf, sym.memKey, sym.mem = c.lib, sym.Mem, m
	}
}

// specialWindowParam is specialName(t.Mem) for a window type t, nil for
// another.
func (c *checker) specialWindowParam(t *syntax.Type) *lib.SpecialWindow {
	if !t.Window {
		return nil
	}
	return c.specialName(t.Mem)
}

func (c *checker) specialName(e syntax.Expr) *lib.SpecialWindow {
	switch e := e.(type) {
	case *syntax.Name:
		return c.lib.Windows[e.Name]
	case *syntax.Call:
		return c.lib.Windows[e.FunName()]
	}
	return nil
}

func (c *checker) dataType(t *syntax.Type) {
	if !lib.IsDataType(t.Elem.Name) {
		c.errs.Errorf(t.Elem.Pos(), "W0203", "unknown type %s (data types: R, f16, bf16, f32, f64, i8, ui8, ui16, i32)", t.Elem.Name)
	}
}

// dims checks that each dimension is a control expression.
func (c *checker) dims(ds []syntax.Expr) {
	for _, d := range ds {
		c.control(d)
	}
}

// dataMemory resolves a data memory annotation: a name or a call with the
// memory's parameters, e.g. Sm80_RmemMatrixD(16, 8). It returns the memory
// itself (nil: none), which alloc and paramSymbol read without looking
// its name up again (stop 37, stop 42).
func (c *checker) dataMemory(e syntax.Expr, dims []syntax.Expr, alloc bool) (*lib.Memory, []syntax.Expr) {
	var name *syntax.Name
	var args []syntax.Expr
	switch e := e.(type) {
	case *syntax.Name:
		name = e
	case *syntax.Call:
		if n, ok := e.Fun.(*syntax.Name); ok {
			name, args = n, e.Args
			for _, k := range e.Kwargs {
				c.errs.Errorf(k.Pos(), "W0204", "memory parameters are positional")
			}
		}
	}
	if name == nil {
		c.errs.Errorf(e.Pos(), "W0204", "expected a memory type")
		return nil, nil
	}
	// The memories of a kernel's declarations come in runs (two DRAM
	// parameters, two GMEM buffers): the last answer is asked first.
	m := c.lastMemory.get(c.lib.Memories, name.Name)
	if m == nil {
		switch {
		case c.lib.Barriers[name.Name] != nil:
			c.errs.Errorf(name.Pos(), "W0204", "%s is a barrier memory, not a data memory", name.Name)
		case c.lib.Windows[name.Name] != nil:
			c.errs.Errorf(name.Pos(), "W0204", "%s is a special window: use it in a window statement", name.Name)
		default:
			c.errs.Errorf(name.Pos(), "W0204", "unknown memory %s%s", name.Name, didYouMean(name.Name, keys(c.lib.Memories)))
		}
		return nil, nil
	}
	if len(args) > len(m.Params) {
		c.errs.Errorf(e.Pos(), "W0204", "%s takes %d parameters, got %d", m.Name, len(m.Params), len(args))
	}
	for _, a := range args {
		c.control(a)
	}
	if alloc && m.Abstract {
		c.errs.Errorf(name.Pos(), "W0204", "%s is an abstract memory type and cannot be allocated", m.Name)
	}
	// Memory parameters name the tile shape they hold
	// (Sm80_RmemMatrixD(16, 8)): they must agree with the last dimensions.
	if len(m.Tiles) > 0 && len(args) == 2 && len(dims) >= 2 {
		for i, a := range args {
			av, ok1 := c.constValue(a)
			dv, ok2 := c.constValue(dims[len(dims)-2+i])
			if ok1 && ok2 && av != dv {
				c.errs.Errorf(a.Pos(), "W0204", "%s parameter %s is %d, the tile dimension is %d", m.Name, m.Params[i], av, dv)
			}
		}
	}
	// Matrix-tile memories fix the shape of the last two dimensions
	// (seed 002 "Memory types"; Sm80 mma operand tiles).
	if len(m.Tiles) > 0 && len(dims) >= 2 {
		r, okR := c.constValue(dims[len(dims)-2])
		k, okK := c.constValue(dims[len(dims)-1])
		if okR && okK {
			fits := false
			for _, t := range m.Tiles {
				fits = fits || (t[0] == r && t[1] == k)
			}
			if !fits {
				c.errs.Errorf(e.Pos(), "W0204", "%s holds tiles of %s, not [%d, %d]", m.Name, tileList(m.Tiles), r, k)
			}
		}
	} else if len(m.Tiles) > 0 && alloc && len(dims) < 2 {
		c.errs.Errorf(e.Pos(), "W0204", "%s holds matrix tiles: it needs at least two dimensions", m.Name)
	}
	return m, args
}

func tileList(ts [][2]int64) string {
	s := ""
	for i, t := range ts {
		if i > 0 {
			s += " or "
		}
		s += "[" + itoa(t[0]) + ", " + itoa(t[1]) + "]"
	}
	return s
}

func (c *checker) barrierMem(e syntax.Expr, at diag.Pos) string {
	if e == nil {
		c.errs.Errorf(at, "W0204", "a barrier needs a barrier memory (CudaMbarrier, CudaCommitGroup, CudaClusterSync, CudaEvent)")
		return ""
	}
	var args []syntax.Expr
	if call, ok := e.(*syntax.Call); ok {
		// A parameterized barrier memory: CudaMbarrierPreArrive(d).
		e, args = call.Fun, call.Args
		for _, k := range call.Kwargs {
			c.errs.Errorf(k.Pos(), "W0204", "barrier memory parameters are positional")
		}
	}
	n, ok := e.(*syntax.Name)
	if !ok {
		c.errs.Errorf(e.Pos(), "W0204", "expected a barrier memory")
		return ""
	}
	b := c.lib.Barriers[n.Name]
	if b != nil && len(args) != len(b.Params) {
		c.errs.Errorf(n.Pos(), "W0204", "%s takes %d parameter(s), got %d", b.Name, len(b.Params), len(args))
	}
	for _, a := range args {
		if v, ok := c.constValue(a); !ok || v < 0 {
			c.errs.Errorf(a.Pos(), "W0204", "%s parameters must be non-negative integer constants", n.Name)
		}
	}
	if b == nil {
		if c.lib.Memories[n.Name] != nil {
			c.errs.Errorf(n.Pos(), "W0204", "%s is a data memory, not a barrier memory", n.Name)
		} else {
			c.errs.Errorf(n.Pos(), "W0204", "unknown barrier memory %s%s", n.Name, didYouMean(n.Name, keys(c.lib.Barriers)))
		}
		return ""
	}
	return b.Name
}

func (c *checker) stmts(ss []syntax.Stmt) {
	for _, s := range ss {
		c.stmt(s)
	}
}

func (c *checker) stmt(s syntax.Stmt) {
	switch s := s.(type) {
	case *syntax.Alloc:
		c.alloc(s)
	case *syntax.Assign:
		c.assign(s)
	case *syntax.For:
		c.forStmt(s)
	case *syntax.If:
		c.boolean(s.Cond)
		mark := len(c.narrowed)
		c.narrow(s.Cond)
		c.push()
		c.stmts(s.Then)
		c.pop()
		c.unnarrow(mark)
		c.push()
		c.stmts(s.Else)
		c.pop()
	case *syntax.With:
		c.with(s)
	case *syntax.CallStmt:
		c.call(s)
	case *syntax.Fence:
		c.syncTL(s.First)
		c.syncTL(s.Second)
	case *syntax.Arrive:
		c.syncTL(s.TL)
		c.count(s.N)
		for _, b := range s.Barriers {
			c.barrierUse(b, s.Reverse)
		}
	case *syntax.Await:
		c.barrierUse(s.Bar, s.Reverse)
		c.syncTL(s.TL)
		c.count(s.N)
	case *syntax.Assert:
		c.boolean(s.Cond)
	case *syntax.Free:
		if s.Name == nil {
			return
		}
		sym := c.lookup(s.Name)
		if sym == nil {
			c.errs.Errorf(s.Name.Pos(), "W0201", "undefined: %s", s.Name.Name)
		} else if _, isAlloc := sym.Decl.(*syntax.Alloc); !isAlloc {
			c.errs.Errorf(s.Name.Pos(), "W0226", "free %s: only local allocations can be freed", s.Name.Name)
		}
	case *syntax.Pass, nil:
	}
}

// guard resolves z of an explicitly guarded barrier `barrier(z)` (seed 000
// Fig. 10): another barrier of the same proc, and both mbarriers ("the
// explicitly guarded barrier case is required only for mbarriers").
func (c *checker) guard(t *syntax.Type, sym *Symbol) {
	if t.Guard == nil {
		return
	}
	g := c.barrierUse(t.Guard, false)
	if g == nil {
		return
	}
	sym.Guard = g
	if g == sym {
		return
	}
	for _, b := range []*Symbol{sym, g} {
		if m := c.lib.Barriers[b.Mem]; m != nil && !m.Reverse {
			c.errs.Errorf(t.Guard.Pos(), "W0204", "explicitly guarded barriers are mbarriers: %s is a %s", b.Name, m.Name)
			return
		}
	}
}

func (c *checker) alloc(s *syntax.Alloc) {
	if s.Name == nil || s.Type == nil || s.Type.Elem == nil {
		return
	}
	t := s.Type
	sym := c.newSymbol(s.Name.Name, KindInvalid, s.Name.Pos(), s, -1)
	sym.Type, sym.Dims = t, t.Dims
	c.dims(t.Dims)
	if t.Window {
		c.errs.Errorf(t.Pos(), "W0203", "cannot allocate a window; allocate a tensor")
	}
	switch {
	case t.Elem.Name == "barrier":
		sym.Kind, sym.Elem = KindBarrier, "barrier"
		sym.Mem = c.barrierMem(t.Mem, t.Pos())
		if b := c.lib.Barriers[sym.Mem]; b != nil && b.Abstract {
			c.errs.Errorf(t.Mem.Pos(), "W0204", "%s is an abstract barrier memory and cannot be allocated", b.Name)
		} else if b != nil {
			// Device barriers live in device code, CUDA events on the CPU
			// (spec digest §3.7 permission table; seed 002 CudaEvent).
			switch {
			case !b.CPU && c.where == codeCPU:
				c.errs.Errorf(s.Name.Pos(), "W0224", "%s (%s) cannot be allocated in CPU code: allocate it inside the CudaDeviceFunction", s.Name.Name, b.Name)
			case b.CPU && (c.where == codeCUDA || c.where == codeAsync):
				c.errs.Errorf(s.Name.Pos(), "W0224", "%s (%s) is a CPU-side barrier: it cannot be allocated in CUDA code", s.Name.Name, b.Name)
			}
		}
		c.guard(t, sym)
	case t.Elem.Name == "size" || t.Elem.Name == "index" || t.Elem.Name == "bool" || t.Elem.Name == "stride":
		c.errs.Errorf(t.Elem.Pos(), "W0203", "cannot allocate a %s: only data and barriers are allocated", t.Elem.Name)
		sym.Kind = KindInvalid
	default:
		c.dataType(t)
		sym.Elem = lib.ResolveElem(t.Elem.Name)
		sym.Kind = KindScalar
		if len(t.Dims) > 0 {
			sym.Kind = KindTensor
		}
		var m *lib.Memory
		if t.Mem == nil {
			sym.Mem = "DRAM"
			m = c.lib.Memories[sym.Mem]
		} else if m, sym.MemArgs = c.dataMemory(t.Mem, t.Dims, true); m != nil {
			// m is the memory named m.Name (lib.Load enters each memory
			// under its own name): the lookup of sym.Mem this replaces
			// found m again.
			sym.Mem = m.Name
		}
		c.knownMemory(sym, m)
		if m != nil && !m.Abstract {
			c.permit(sym, 'c', s.Name.Pos())
		}
	}
	c.dimAnnotations(t, sym)
	c.declare(s.Name, sym)
}

// permit checks the memory permission for op ('r', 'w', 'c') on sym's
// memory in the current code (seed 002 "Memory types"). instrArg selects
// the instruction-parameter column inside CudaAsync blocks.
func (c *checker) permit(sym *Symbol, op byte, at diag.Pos) {
	c.permitAs(sym, op, at, false)
}

func (c *checker) permitAs(sym *Symbol, op byte, at diag.Pos, instrArg bool) {
	if c.where == codeUnknown || sym == nil {
		return
	}
	m := sym.Memory(c.lib)
	if m == nil {
		return
	}
	var p lib.Perm
	var where string
	switch c.where {
	case codeCPU:
		p, where = m.CPU, "CPU code"
		if instrArg {
			p, where = m.CPUInstr, "an instruction in CPU code"
		}
	case codeCUDA:
		p, where = m.CUDA, "CUDA code"
	case codeAsync:
		if instrArg {
			p, where = m.AsyncInstr, "an instruction of a CudaAsync block"
		} else {
			p, where = m.Async, "a CudaAsync block (outside instructions)"
		}
	}
	if !p.Can(op) {
		verb := map[byte]string{'r': "read", 'w': "written", 'c': "allocated"}[op]
		c.errs.Errorf(at, "W0224", "%s (%s) cannot be %s in %s", sym.Name, m.Name, verb, where)
	}
}

func (c *checker) assign(s *syntax.Assign) {
	if a, ok := s.LHS.(*syntax.Attr); ok {
		c.configWrite(s, a)
		return
	}
	// A window statement `x = y[...]` (optionally `@ SpecialWindow`)
	// declares x; any other assignment writes data.
	if n, ok := s.LHS.(*syntax.Name); ok && s.Op == "=" {
		existing := c.lookupQuiet(n.Name)
		if s.Mem != nil || (existing == nil && isWindowable(s.RHS)) {
			c.windowStmt(s, n)
			return
		}
	}
	if s.Mem != nil {
		c.errs.Errorf(s.Mem.Pos(), "W0217", "only a window statement `x = y[...] @ Window` takes a memory")
	}
	sym := c.access(s.LHS, true)
	if sym != nil {
		op := byte('w')
		c.permit(sym, op, s.LHS.Pos())
		if s.Op == "+=" {
			c.permit(sym, 'r', s.LHS.Pos())
		}
	}
	c.data(s.RHS)
}

func (c *checker) lookupQuiet(name string) *Symbol { return c.find(name) }

func isWindowable(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.Index:
		for _, i := range e.Indices {
			if _, ok := i.(*syntax.Slice); ok {
				return true
			}
		}
		return isWindowable(e.X)
	}
	return false
}

// windowStmt checks `x = y[w*] @ π_w` (seed 000 §3.4 Window Statement).
func (c *checker) windowStmt(s *syntax.Assign, n *syntax.Name) {
	sym := c.newSymbol(n.Name, KindWindow, n.Pos(), s, -1)
	if c.proc.Windows == nil {
		c.proc.Windows = map[*syntax.Assign]bool{}
	}
	c.proc.Windows[s] = true
	base, dims := c.window(s.RHS)
	if base != nil {
		sym.Elem, sym.Dims, sym.Of, sym.Mem = base.Elem, dims, base, base.Mem
		if base.Special {
			// A window of a special window is one too (Exo prints
			// `x_input = x_map[i * 248:i * 248 + 248, :]` and passes
			// x_input to a TMA instruction).
			sym.Special, sym.MemArgs = true, base.MemArgs
		}
		if base.Kind == KindBarrier {
			c.errs.Errorf(s.RHS.Pos(), "W0217", "cannot window a barrier")
		}
	}
	if s.Mem != nil {
		c.specialWindow(s.Mem, sym, base)
	}
	c.declare(n, sym)
}

func (c *checker) specialWindow(e syntax.Expr, sym, base *Symbol) {
	var name *syntax.Name
	var call *syntax.Call
	switch e := e.(type) {
	case *syntax.Name:
		name = e
	case *syntax.Call:
		call = e
		name, _ = e.Fun.(*syntax.Name)
	}
	if name == nil {
		c.errs.Errorf(e.Pos(), "W0227", "expected a special window type")
		return
	}
	w := c.lib.Windows[name.Name]
	if w == nil {
		if c.lib.Memories[name.Name] != nil {
			c.errs.Errorf(name.Pos(), "W0227", "%s is a data memory; a window statement takes a special window type (Sm90_tensorMap)", name.Name)
		} else {
			c.errs.Errorf(name.Pos(), "W0227", "unknown special window type %s%s", name.Name, didYouMean(name.Name, keys(c.lib.Windows)))
		}
		return
	}
	sym.Mem, sym.Special = w.Name, true
	if call != nil {
		sym.MemArgs = call.Args
		for _, a := range call.Args {
			c.control(a)
		}
		if !w.Variadic && len(call.Args) > len(w.Params) {
			c.errs.Errorf(call.Pos(), "W0227", "%s takes %d parameters, got %d", w.Name, len(w.Params), len(call.Args))
		}
		for _, k := range call.Kwargs {
			known := false
			for _, p := range w.Params {
				known = known || p == k.Name.Name
			}
			if !known {
				c.errs.Errorf(k.Pos(), "W0227", "%s has no parameter %s", w.Name, k.Name.Name)
			}
			c.control(k.Value)
		}
	}
	if call != nil && len(call.Args) > 0 {
		// Sm90_tensorMap(swizzle, *smem_box): a TMA swizzle mode and one box
		// extent per dimension of the window (seed 000 Fig. 14).
		if v, ok := c.constValue(call.Args[0]); ok && v != 0 && v != 32 && v != 64 && v != 128 {
			c.errs.Errorf(call.Args[0].Pos(), "W0227", "swizzle must be 0, 32, 64 or 128 (bytes), not %d", v)
		}
		if box := call.Args[1:]; w.Variadic && len(box) > 0 && len(box) != len(sym.Dims) {
			c.errs.Errorf(call.Pos(), "W0227", "%s box has %d dimensions, the window has %d", w.Name, len(box), len(sym.Dims))
		} else if w.Variadic {
			for i, b := range box {
				bv, ok1 := c.constValue(b)
				dv, ok2 := c.constValue(sym.Dims[i])
				if ok1 && (bv <= 0 || (ok2 && bv > dv)) {
					c.errs.Errorf(b.Pos(), "W0227", "box extent %d of dimension %d does not fit the window's %s", bv, i, exprString(sym.Dims[i]))
				}
			}
		}
	}
	if base != nil && w.Source != "" {
		if m := base.Memory(c.lib); m != nil && !m.DerivesFrom(w.Source) {
			c.errs.Errorf(name.Pos(), "W0227", "%s windows %s memory, not %s (%s)", w.Name, w.Source, m.Name, base.Name)
		}
	}
}

func (c *checker) forStmt(s *syntax.For) {
	if s.Var == nil || s.Mode == nil {
		return
	}
	mode := s.Mode.Name
	// The bounds' checks (control) and ranges in one walk each
	// (controlRange, stop 42); the iterator's range below reads them.
	lo, _, okLo := c.controlRange(s.Lo, nil)
	hi, _, okHi := c.controlRange(s.Hi, nil)
	savedTasks := c.tasks
	switch mode {
	case "seq":
	case "par":
		// par is Exo's OpenMP loop: CPU code only (seed 002 "Loop modes").
		if c.device {
			c.errs.Errorf(s.Mode.Pos(), "W0211", "par loop inside a CudaDeviceFunction (use cuda_threads)")
		}
	case "cuda_tasks":
		if !c.device {
			c.errs.Errorf(s.Mode.Pos(), "W0211", "cuda_tasks loop outside a CudaDeviceFunction")
		}
		c.tasks = true
	case "cuda_threads":
		if !c.device {
			c.errs.Errorf(s.Mode.Pos(), "W0211", "cuda_threads loop outside a CudaDeviceFunction")
		}
		// seed 002 "cuda_threads Loops": lo == 0 and a constant hi.
		if lo, ok := c.constValue(s.Lo); !ok || lo != 0 {
			c.errs.Errorf(s.Lo.Pos(), "W0211", "cuda_threads loop must start at 0")
		}
		if _, ok := c.constValue(s.Hi); !ok {
			c.errs.Errorf(s.Hi.Pos(), "W0211", "cuda_threads loop bound must be a compile-time constant (rewrite with simplify(...) if needed)")
		}
	default:
		c.errs.Errorf(s.Mode.Pos(), "W0211", "unknown loop mode %s (seq, par, cuda_tasks, cuda_threads)%s", mode, didYouMean(mode, []string{"seq", "par", "cuda_tasks", "cuda_threads"}))
	}
	for _, k := range s.Kwargs {
		if !loopOption(mode, k.Name.Name) {
			c.errs.Errorf(k.Pos(), "W0211", "%s loop has no option %s", mode, k.Name.Name)
			continue
		}
		switch k.Name.Name {
		case "unit":
			c.unitExpr(k.Value)
		case "pragma_unroll":
			if _, ok := c.constValue(k.Value); !ok {
				c.errs.Errorf(k.Value.Pos(), "W0211", "pragma_unroll must be an integer constant")
			}
		}
	}
	c.push()
	it := c.newSymbol(s.Var.Name, KindIter, s.Var.Pos(), s, -1)
	c.declare(s.Var, it)
	// The ranges were taken before the iterator was declared, which
	// changes the answer of its own name only: a bound naming it (or of
	// another form than a literal or a name) is ranged again, as it was
	// before stop 42, after the declaration.
	if !boundWithout(s.Lo, s.Var.Name) {
		lo, okLo = c.rangeOf(s.Lo)
	}
	if !boundWithout(s.Hi, s.Var.Name) {
		hi, okHi = c.rangeOf(s.Hi)
	}
	if okLo && okHi && lo[0] <= hi[1]-1 {
		it.rng, it.hasRng = [2]int64{lo[0], hi[1] - 1}, true
	}
	par := mode == "par" && !c.device
	if par {
		c.parDepth++ // parWrites reads the body's Uses
	}
	c.stmts(s.Body)
	if par {
		c.parDepth--
		c.parWrites(s, it, s.Body)
	}
	c.pop()
	c.tasks = savedTasks
}

// boundWithout reports that e is a literal, or a name other than v: its
// range is the same whether or not v is declared.
func boundWithout(e syntax.Expr, v string) bool {
	switch e := e.(type) {
	case *syntax.IntLit:
		return true
	case *syntax.Name:
		return e.Name != v
	}
	return false
}

// loopOption reports whether a loop of mode takes the keyword option
// name: pragma_unroll for seq, unit for cuda_threads (a switch, not a map
// made per loop: a map's hash seed alone was a tenth of a loop's check,
// stop 31).
func loopOption(mode, name string) bool {
	switch mode {
	case "seq":
		return name == "pragma_unroll"
	case "cuda_threads":
		return name == "unit"
	}
	return false
}

func (c *checker) with(s *syntax.With) {
	call, ok := s.Ctx.(*syntax.Call)
	if !ok || call.FunName() == "" {
		c.errs.Errorf(s.Ctx.Pos(), "W0221", "expected CudaDeviceFunction(...), CudaWarps(...) or CudaAsync(...)")
		c.push()
		c.stmts(s.Body)
		c.pop()
		return
	}
	savedWhere, savedDevice, savedAsync, savedWarps := c.where, c.device, c.async, c.warps
	switch call.FunName() {
	case "CudaDeviceFunction":
		if c.device {
			c.errs.Errorf(call.Pos(), "W0221", "CudaDeviceFunction inside device code")
		}
		for _, a := range call.Args {
			c.errs.Errorf(a.Pos(), "W0221", "CudaDeviceFunction takes keyword arguments (blockDim, clusterDim, blocks_per_sm, warp_config)")
		}
		for _, k := range call.Kwargs {
			switch k.Name.Name {
			case "blockDim", "clusterDim", "blocks_per_sm":
				if _, ok := c.constValue(k.Value); !ok {
					c.errs.Errorf(k.Value.Pos(), "W0221", "%s must be an integer constant", k.Name.Name)
				}
			case "warp_config":
				c.warpConfig(k.Value)
			case "unsafe_no_shutdown_cluster_sync":
				// Exo's GPU branch: skip the cluster sync at the end of
				// the kernel (unsafe when other CTAs may still arrive on
				// this CTA's mbarriers).
				if _, ok := k.Value.(*syntax.BoolLit); !ok {
					c.errs.Errorf(k.Value.Pos(), "W0221", "unsafe_no_shutdown_cluster_sync must be True or False")
				}
			default:
				c.errs.Errorf(k.Pos(), "W0221", "CudaDeviceFunction has no parameter %s", k.Name.Name)
			}
		}
		if call.Kwarg("blockDim") != nil && call.Kwarg("warp_config") != nil {
			c.errs.Errorf(call.Pos(), "W0221", "give blockDim or warp_config, not both")
		}
		c.device = true
		c.where = codeCUDA
	case "CudaWarps":
		if !c.device {
			c.errs.Errorf(call.Pos(), "W0221", "CudaWarps outside a CudaDeviceFunction")
		}
		// CudaWarps(lo, hi), CudaWarps(name=...), or seed 000 Fig. 2's
		// CudaWarps(n, n, r) with the warp name third.
		if n := len(call.Args); n != 0 && n != 2 && n != 3 {
			c.errs.Errorf(call.Pos(), "W0221", "CudaWarps takes (lo, hi), (lo, hi, name) and/or name=")
		}
		for i, a := range call.Args {
			if i == 2 {
				if _, ok := a.(*syntax.StringLit); !ok {
					c.errs.Errorf(a.Pos(), "W0221", "the warp name must be a string")
				}
				if call.Kwarg("name") != nil {
					c.errs.Errorf(a.Pos(), "W0221", "warp name given twice")
				}
				continue
			}
			if _, ok := c.constValue(a); !ok {
				c.errs.Errorf(a.Pos(), "W0221", "CudaWarps bounds must be integer constants")
			}
		}
		for _, k := range call.Kwargs {
			switch k.Name.Name {
			case "name":
				if _, ok := k.Value.(*syntax.StringLit); !ok {
					c.errs.Errorf(k.Value.Pos(), "W0221", "name= must be a string")
				}
			case "lo", "hi":
				if _, ok := c.constValue(k.Value); !ok {
					c.errs.Errorf(k.Value.Pos(), "W0221", "CudaWarps bounds must be integer constants")
				}
			default:
				c.errs.Errorf(k.Pos(), "W0221", "CudaWarps has no parameter %s", k.Name.Name)
			}
		}
		if len(call.Args) == 0 && call.Kwarg("name") == nil && call.Kwarg("lo") == nil {
			c.errs.Errorf(call.Pos(), "W0221", "CudaWarps needs (lo, hi) or name=")
		}
		c.warps++
	case "CudaAsync":
		if !c.device {
			c.errs.Errorf(call.Pos(), "W0221", "CudaAsync outside a CudaDeviceFunction")
		}
		if c.async != "" {
			c.errs.Errorf(call.Pos(), "W0221", "CudaAsync blocks do not nest")
		}
		if len(call.Args) != 1 || len(call.Kwargs) != 0 {
			c.errs.Errorf(call.Pos(), "W0221", "CudaAsync takes one instruction timeline")
		} else if tl := c.syncTL(call.Args[0]); tl != nil {
			if !tl.AsyncBlock {
				c.errs.Errorf(call.Args[0].Pos(), "W0219", "CudaAsync needs an async instruction timeline (Sm80_cp_async, tma_to_smem_async, tma_to_gmem_async, wmma_async), not %s", tl.Name)
			} else {
				c.async = tl.Name
			}
		}
		c.where = codeAsync
	default:
		c.errs.Errorf(call.Pos(), "W0221", "unknown with block %s (CudaDeviceFunction, CudaWarps, CudaAsync)%s", call.FunName(), didYouMean(call.FunName(), []string{"CudaDeviceFunction", "CudaWarps", "CudaAsync"}))
	}
	c.push()
	c.stmts(s.Body)
	c.pop()
	c.where, c.device, c.async, c.warps = savedWhere, savedDevice, savedAsync, savedWarps
}

// warpConfig accepts a list of CudaWarpConfig(name, count, ...) or a global
// holding one.
func (c *checker) warpConfig(e syntax.Expr) {
	if n, ok := e.(*syntax.Name); ok {
		if g := c.lookup(n); g == nil {
			c.errs.Errorf(n.Pos(), "W0201", "undefined: %s", n.Name)
			return
		} else if v, ok := globalValue(c.globalsOf, n.Name); ok {
			e = v
		} else {
			c.errs.Errorf(n.Pos(), "W0221", "warp_config must be a list of CudaWarpConfig")
			return
		}
	}
	l, ok := e.(*syntax.List)
	if !ok {
		c.errs.Errorf(e.Pos(), "W0221", "warp_config must be a list of CudaWarpConfig")
		return
	}
	for _, w := range l.Elems {
		wc, ok := w.(*syntax.Call)
		if !ok || wc.FunName() != "CudaWarpConfig" {
			c.errs.Errorf(w.Pos(), "W0221", "expected CudaWarpConfig(name, count, ...)")
			continue
		}
		args, problems := WarpConfigArgs(wc)
		for _, p := range problems {
			c.errs.Errorf(p.Pos, "W0221", "%s", p.Msg)
		}
		if args[0] != nil {
			if _, ok := args[0].(*syntax.StringLit); !ok {
				c.errs.Errorf(args[0].Pos(), "W0221", "warp name must be a string")
			}
		}
		for i, a := range args[1:] {
			if a == nil {
				continue
			}
			if _, ok := c.constValue(a); !ok {
				c.errs.Errorf(a.Pos(), "W0221", "CudaWarpConfig %s must be an integer constant (or None for a register count)", WarpConfigParams[i+1])
			}
		}
	}
}

// syncTL resolves a sync timeline name (seed 000 Fig. 16).
func (c *checker) syncTL(e syntax.Expr) *lib.SyncTL {
	if e == nil {
		return nil
	}
	n, ok := e.(*syntax.Name)
	if !ok {
		c.errs.Errorf(e.Pos(), "W0219", "expected a sync timeline")
		return nil
	}
	if tl := c.timeline(n.Name); tl != nil {
		return tl
	}
	if c.lib.Quals[n.Name] != nil {
		c.errs.Errorf(n.Pos(), "W0219", "%s is a qualitative timeline; synchronization takes a sync timeline (seed 000 Fig. 16)", n.Name)
	} else {
		c.errs.Errorf(n.Pos(), "W0219", "unknown timeline %s%s", n.Name, didYouMean(n.Name, keys(c.lib.Timelines)))
	}
	return nil
}

// timeline is c.lib.Timelines[name], remembering its last answer as unit
// does (a fence names its two timelines, often the same one; an arrive
// and its await name one).
func (c *checker) timeline(name string) *lib.SyncTL {
	return c.lastTimeline.get(c.lib.Timelines, name)
}

// count checks the N of Arrive/Await: an integer constant (~0 and -1 are
// the seed's "all" forms).
func (c *checker) count(e syntax.Expr) {
	if e == nil {
		return
	}
	if _, ok := c.constValue(e); !ok {
		c.errs.Errorf(e.Pos(), "W0228", "barrier count must be an integer constant")
	}
}

// barrierUse checks a barrier expression z or z[i, ...] (seed 000 Fig. 1
// ZExpr: barriers are only read, never composed).
func (c *checker) barrierUse(e syntax.Expr, reverse bool) *Symbol {
	if e == nil {
		return nil
	}
	var name *syntax.Name
	var idx []syntax.Expr
	switch x := e.(type) {
	case *syntax.Name:
		name = x
	case *syntax.Index:
		name, _ = x.X.(*syntax.Name)
		idx = x.Indices
	}
	if name == nil {
		c.errs.Errorf(e.Pos(), "W0218", "expected a barrier (z or z[i])")
		return nil
	}
	sym := c.lookup(name)
	if sym == nil {
		c.errs.Errorf(name.Pos(), "W0201", "undefined: %s", name.Name)
		return nil
	}
	if sym.Kind != KindBarrier {
		c.errs.Errorf(name.Pos(), "W0218", "%s is %s, not a barrier", name.Name, sym.Kind.A())
		return nil
	}
	if idx != nil {
		c.indices(sym, idx, e.Pos(), true)
	}
	if reverse {
		if b := c.lib.Barriers[sym.Mem]; b != nil && !b.Reverse {
			c.errs.Errorf(name.Pos(), "W0225", "%s is a %s: ReverseArrive/ReverseAwait need a CudaMbarrier", name.Name, b.Name)
		}
	}
	return sym
}
