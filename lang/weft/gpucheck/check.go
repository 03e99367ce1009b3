package gpucheck

import (
	"regexp"
	"strconv"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// Device is one `with CudaDeviceFunction(...)` block.
type Device struct {
	Stmt *syntax.With
	Fn   *coll.DeviceFunction
	Top  *coll.Tiling // the top-level collective: CTA, or cluster
	// Iters lists the device function's cuda_threads iterators by id.
	Iters []*Iter
}

// Iter is one cuda_threads iterator: its loop, the tiling of its parent
// scope and of its body (the tiling operator t0 -> t1 of seed 002 Rule 2/4
// is Parent.TileThreads -> Body.TileThreads).
type Iter struct {
	Name   string
	ID     int
	Loop   *syntax.For
	Count  int
	Unit   coll.Unit
	Parent *coll.Tiling
	Body   *coll.Tiling
}

// Scope is what every statement is annotated with.
type Scope struct {
	// TL is the instruction timeline (canonical name): cpu_in_order at the
	// top level, cuda_in_order in a device function, the CudaAsync
	// argument inside an async block (seed 000 §3.2).
	TL     string
	Device *Device      // nil in CPU code
	Tiling *coll.Tiling // nil in CPU code
	Iters  []*Iter      // cuda_threads iterators in scope, outermost first
	Warps  string       // the enclosing named CudaWarps, if any
	Parent *Scope       // nil for a proc's top scope
	Stmt   syntax.Stmt  // the statement that opened this scope
	// last is the variable declared last in this scope, and each Var's
	// prev the one declared before it here: a scope declares a few names
	// or none, searched newest first (a name declared again shadows), not
	// a map per declaring scope (issue 13, stop 31: the maps were two
	// allocations each and a hash per lookup).
	last *Var
	// iter is the loop variable a loop's body scope binds (hasIter): its
	// cuda_threads iterator, or nil for any other loop. One binding, not a
	// map per loop (issue 13: the maps were a visible part of a check).
	iterName string
	iter     *Iter
	hasIter  bool
}

// Iter returns the cuda_threads iterator named name visible in s.
func (s *Scope) Iter(name string) *Iter {
	for sc := s; sc != nil; sc = sc.Parent {
		if sc.declared(name) != nil {
			return nil // shadowed by a variable
		}
		if sc.hasIter && sameName(sc.iterName, name) {
			return sc.iter
		}
	}
	return nil
}

// Lookup returns the variable named name visible in s.
func (s *Scope) Lookup(name string) *Var {
	for sc := s; sc != nil; sc = sc.Parent {
		if v := sc.declared(name); v != nil {
			return v
		}
		if sc.hasIter && sameName(sc.iterName, name) {
			return nil
		}
	}
	return nil
}

// declared is the variable named name declared in s itself (the last
// such), or nil.
func (s *Scope) declared(name string) *Var {
	for v := s.last; v != nil; v = v.prev {
		if sameName(v.Name, name) {
			return v
		}
	}
	return nil
}

// Var is a data or barrier variable: a parameter, an allocation or a
// window.
type Var struct {
	Name    string
	Pos     diag.Pos
	Type    *syntax.Type
	Mem     string // memory type name ("" unknown)
	Barrier bool
	Param   bool
	Scope   *Scope // allocation scope (for parameters, the proc's scope)
	// Window is set for `w = x[...]`: the variable it views and the
	// access that created it.
	Window *Access

	prev *Var // declared before it in Scope (Scope.last)
	// mem is the library's memory type Mem names, looked up at the
	// variable's first access (memory): every access checks its
	// permissions, and uniform memories their writers (issue 13, stop
	// 31: a map lookup by name each time). Mem does not change after
	// the first access (a window's is set where it is declared).
	mem     *lib.Memory
	memDone bool
	// uniDone, uniOK and uniN are uniformThreads's answer for v, kept
	// at its first ask (a uniform register's every write and argument
	// asked it again, its memory's argument evaluated each time; issue
	// 13, stop 47), in the padding after memDone: an n past int32 is
	// not kept.
	uniDone, uniOK bool
	uniN           int32
	// index is v's position in Result.Vars (VarIndex).
	index int

	// ConvVar and ConvFacts are the sync check's (syncheck.Convert):
	// where its conversion keeps v's AMIR variable and v's facts, for a
	// lookup without a search of its lists (issue 13, stop 44). Hints
	// only: a conversion of another proc of the file, or again, finds
	// them stale, so it checks the entry holds v before it uses one.
	ConvVar, ConvFacts int32
}

// VarIndex returns v's position in r.Vars, or -1 when v is not one of
// them: a table indexed by it replaces a map keyed by the variable
// (distmem; issue 13, stop 35).
func (r *Result) VarIndex(v *Var) int {
	if i := v.index; i < len(r.Vars) && r.Vars[i] == v {
		return i
	}
	for i, x := range r.Vars {
		if x == v {
			return i
		}
	}
	return -1
}

// Dims is the number of dimensions of v's type.
func (v *Var) Dims() int {
	if v.Type == nil {
		return 0
	}
	return len(v.Type.Dims)
}

// Access is one use of a variable: the site (a *syntax.Name or
// *syntax.Index), the scope, and how it is used.
type Access struct {
	Var     *Var
	Node    syntax.Expr
	Indices []syntax.Expr
	Scope   *Scope
	Read    bool
	Write   bool
	Instr   *lib.Instr // set for an instruction argument
	Param   string     // the instruction parameter
	// CompletionOf is set for the completion barrier of an instruction
	// call (`g(...) >> z`): the instruction whose barrier units apply.
	CompletionOf *lib.Instr
	Stmt         syntax.Stmt
	// acc is Instr.Access[Param], found where the argument was bound
	// (ParamAccess).
	acc *lib.Access
}

// ParamAccess is a.Instr.Access[a.Param], the access qualities of the
// instruction parameter a is an argument of (nil for other uses): the
// one the GPU check bound the argument with, without a lookup by name.
func (a *Access) ParamAccess() *lib.Access {
	if a.acc != nil || a.Instr == nil {
		return a.acc
	}
	return a.Instr.Access[a.Param]
}

// paramAccess is in.Access[name] without hashing the name: ParseInstr
// (the only maker of an instruction's parameters) sets Access[p] for
// each data parameter p in order, appending it to AccessOrder, so the
// map holds the last entry of AccessOrder named name (a parameter
// named twice: the later), which the backward scan finds first. An
// instruction has a few data parameters; the map's hash of every
// argument's name was a twentieth of the GPU checker on shfl_xor (issue
// 13, stop 43). TestParamAccessMatchesMap compares the two.
func paramAccess(in *lib.Instr, name string) *lib.Access {
	for i := len(in.AccessOrder) - 1; i >= 0; i-- {
		if a := in.AccessOrder[i]; sameName(a.Param, name) {
			return a
		}
	}
	return nil
}

// Result is the collective analysis of one file.
type Result struct {
	// StmtScopes[i] is the scope of Stmts[i] (ScopeOf, ScopeAt; stop
	// 35, scopes.go: a list in walk order, not a map keyed by statement).
	StmtScopes []*Scope
	// bodies are the tilings the cuda_threads loops and CudaWarps blocks
	// derive for their bodies (Body, bodies.go).
	bodies   bodyList
	Stmts    []syntax.Stmt // every statement, in source order
	Accesses []*Access
	Vars     []*Var
	Devices  []*Device
	Lib      *lib.Library
	Consts   map[string]int64
	units    *unitEnv
	consts   *consts
	// unitArgs counts the accesses that are arguments of an instruction
	// parameter with distributed units (UnitArgs).
	unitArgs int
}

// UnitArgs is the number of accesses that are arguments of an
// instruction parameter with distributed units (@access(p,
// units=[...]): Access.ParamAccess().Units): the distributed memory
// analysis sizes its room by it without a walk of the accesses where
// it is zero (issue 13, stop 46).
func (r *Result) UnitArgs() int { return r.unitArgs }

// ResolveUnit evaluates a collective unit expression (a name of the
// library or of the file, `n * unit`, a parameterized unit) for m.
func (r *Result) ResolveUnit(e syntax.Expr, m coll.Machine) (coll.Unit, error) {
	return r.units.resolve(e, m)
}

// Eval evaluates a compile-time integer expression (literals, the file's
// constants, NAME=VALUE sizes).
func (r *Result) Eval(e syntax.Expr) (int64, bool) { return r.consts.eval(e) }

// Options are the inputs besides the file.
type Options struct {
	Lib   *lib.Library
	Sizes map[string]int64 // NAME=VALUE from the command line
	// Prog is the checked program (package check), when available: its
	// constants and its resolution of instruction names (a file's
	// instruction shadows the library's) are used.
	Prog *check.Program
}

type checker struct {
	f      *syntax.File
	l      *lib.Library
	errs   *diag.List
	c      *consts
	units  *unitEnv
	instrs map[string]*lib.Instr // the file's (nil: none); instr also looks in the library
	res    *Result
	warpCf map[string]syntax.Expr // nil: none
	// dev is the device function being walked.
	dev *Device
	// The scopes, iterators and variables of the check are carved from
	// arrays sized by a count of the statements that make them
	// (countStmts), and each loop body's list of iterators from a shared
	// array: one allocation each instead of one per statement (issue 13:
	// most of the allocations of a small kernel's collective analysis).
	scopes   []Scope
	iters    []Iter
	vars     []Var
	accs     []Access // the accesses, from an array sized by countStmts's estimate
	iterList []*Iter
	loops    int // the file's cuda_threads loops: a bound of a device function's iterators
	// scratch holds the substituted unit of the instruction call being
	// checked (unitFor), made at the first.
	scratch *unitScratch
	// room holds the device function of a small program's check and
	// roomSyms its first units' coordinates (room.go, roommedium.go),
	// nil for a larger one.
	room     *roomDev
	roomSyms []coll.Sym
	// threads are the stores of the cuda_threads loops' tilings
	// (threadsStore, threads.go), sized by the count of loops (k.stores).
	threads []coll.ThreadsStore
	// threadsLeft is the number of loops' stores not yet made (past
	// threads: deriveThreads).
	threadsLeft int
	// bindBuf holds an instruction call's arguments bound by keyword
	// (bindArgs): the medium room's, else made at the first such call
	// (in the state it had been 64 bytes of the small rooms).
	bindBuf *[4]syntax.Expr
}

// checkState is what one Check allocates at its start.
type checkState struct {
	checker checker
	consts  consts
	units   unitEnv
	res     Result
}

// newScope returns a zero Scope from c.scopes (a new one should the
// count fall short).
func (c *checker) newScope() *Scope {
	if len(c.scopes) == cap(c.scopes) {
		return new(Scope)
	}
	c.scopes = c.scopes[:len(c.scopes)+1]
	return &c.scopes[len(c.scopes)-1]
}

// carve returns the next element of the pre-sized *pool, or a new one
// once the pool's estimate falls short (the element is then not in the
// pool: callers keep their own pointers).
func carve[T any](pool *[]T) *T {
	if len(*pool) < cap(*pool) {
		*pool = (*pool)[:len(*pool)+1]
		return &(*pool)[len(*pool)-1]
	}
	return new(T)
}

// access records a (an Access carved from c.accs, a new one should the
// estimate fall short) in the result: an allocation per access had been
// the most frequent object of the check (issue 13, stop 31).
func (c *checker) access(a Access) *Access {
	p := carve(&c.accs)
	*p = a
	c.res.Accesses = append(c.res.Accesses, p)
	return p
}

// withIter returns list with it appended, in an array of its own (scopes
// share their parent's list read-only): carved from c.iterList.
func (c *checker) withIter(list []*Iter, it *Iter) []*Iter {
	n := len(list) + 1
	if cap(c.iterList)-len(c.iterList) < n {
		// countStmts's iterSlots fell short (it counts every
		// cuda_threads loop at its depth: it should not).
		c.iterList = make([]*Iter, 0, max(4*n, 32))
	}
	out := c.iterList[len(c.iterList) : len(c.iterList)+n : len(c.iterList)+n]
	c.iterList = c.iterList[:len(c.iterList)+n]
	copy(out, list)
	out[n-1] = it
	return out
}

// isProc reports whether f declares a (non-instruction) proc named name:
// asked only for a call in device code of something that is not an
// instruction, so a walk of the declarations, not a map per check.
func (c *checker) isProc(name string) bool {
	for _, d := range c.f.Decls {
		if p, ok := d.(*syntax.Proc); ok && p.Name != nil && p.Name.Name == name && !lib.IsInstr(p) {
			return true
		}
	}
	return false
}

// Check runs the collective analysis over f.
func Check(f *syntax.File, opts Options, errs *diag.List) *Result {
	// The checker, its constants, its unit environment and the result
	// in one object: four allocations of every check had been apart
	// (issue 13, stop 31).
	// Sized once for every statement (stmt records each): growing the map
	// statement by statement cost more than counting them. A small
	// program's state is part of its room (room.go, stop 37).
	k := countStmts(f)
	st, one, rm, md, sa := newState(&k)
	// The state is new (zero): its fields are set, not literals of
	// 280 and 184 bytes copied over it (issue 13, stop 47).
	c := &st.checker
	c.f, c.l, c.errs, c.c, c.units = f, opts.Lib, errs, &st.consts, &st.units
	c.res = &st.res
	c.res.Lib = opts.Lib
	c.makeArrays(&k, one, rm, md, sa)
	c.loops = k.loops
	c.fileConsts(f, opts)
	// The map is made at the first constant (set): a file without any
	// has none, and its readers read a nil map (stop 35); or it is the
	// checked program's own (fileConsts).
	c.res.Consts = c.c.vals
	initUnitEnv(c.units, opts.Lib, f, c.c)
	if c.room != nil {
		c.units.symBuf = c.roomSyms
	}
	c.res.units, c.res.consts = c.units, c.c
	for _, d := range f.Decls {
		if p, ok := d.(*syntax.Proc); ok {
			if lib.IsInstr(p) {
				if opts.Prog != nil && p.Name != nil {
					if pp := opts.Prog.ByName[p.Name.Name]; pp != nil && pp.Instr != nil {
						// Package check parsed it: its Instr is taken.
						// ByName holds the file's procs, so a lookup per
						// @instr proc of the file finds every one, without
						// a walk of the map per check (stop 35).
						c.addInstr(p.Name.Name, pp.Instr)
						continue
					}
				}
				if opts.Lib == nil {
					continue
				}
				var scratch diag.List // the checker (package check) reports these
				if in := lib.ParseInstr(p, opts.Lib, &scratch); in != nil {
					c.addInstr(p.Name.Name, in)
				}
			}
		}
	}
	for _, d := range f.Decls {
		p, ok := d.(*syntax.Proc)
		if !ok || lib.IsInstr(p) {
			continue
		}
		top := c.newScope()
		top.TL = "cpu_in_order"
		for _, prm := range p.Params {
			if prm.Type == nil || prm.Name == nil {
				continue
			}
			if prm.Type.Dims == nil && !prm.Type.Window && prm.Type.Mem == nil && !lib.IsDataType(prm.Type.Elem.Name) {
				continue // size, index, bool, stride
			}
			c.declare(top, prm.Name, prm.Type, true)
		}
		c.block(top, p.Body)
	}
	return c.res
}

// bindArgs is check.BindArgs(params, call, template...) as call reads
// it: where every argument is positional and there is one per parameter,
// BindArgs binds the i-th to the i-th parameter and reports no problem
// with an expression (call reads those), so the call's own list is the
// binding (read only), without a new one per call (stop 43: every
// instruction call of a small kernel is so written). Any other call binds
// into buf (check.BindArgsInto; call reads the list before the next
// call's binding): BindArgs's list had been an object of every call with
// keywords (shfl_xor's two `laneMask=` calls; issue 13, stop 46).
// TestBindArgsMatchesCheck compares the two.
func bindArgs(params []*syntax.Param, call *syntax.Call, template []string, buf []syntax.Expr) ([]syntax.Expr, []check.BindProblem) {
	if len(call.Kwargs) == 0 && len(call.Args) == len(params) {
		return call.Args, nil
	}
	return check.BindArgsInto(buf, params, call, template...)
}

// bindArgs is bindArgs with the checker's buffer, made at the first
// call the shortcut does not bind.
func (c *checker) bindArgs(params []*syntax.Param, call *syntax.Call, template []string) ([]syntax.Expr, []check.BindProblem) {
	if len(call.Kwargs) == 0 && len(call.Args) == len(params) {
		return call.Args, nil
	}
	if c.bindBuf == nil {
		c.bindBuf = new([4]syntax.Expr)
	}
	return bindArgs(params, call, template, c.bindBuf[:])
}

// addInstr records an instruction of the file.
func (c *checker) addInstr(name string, in *lib.Instr) {
	if c.instrs == nil {
		c.instrs = map[string]*lib.Instr{}
	}
	c.instrs[name] = in
}

// instr resolves an instruction name: the file's own @instr shadows the
// library's. The library's table is read in place, not copied per check.
func (c *checker) instr(name string) *lib.Instr {
	if in, ok := c.instrs[name]; ok {
		return in
	}
	if c.l != nil {
		return c.l.Instr(name)
	}
	return nil
}

func memName(e syntax.Expr) string {
	switch e := e.(type) {
	case *syntax.Name:
		return e.Name
	case *syntax.Call:
		return e.FunName()
	}
	return ""
}

func (c *checker) declare(s *Scope, n *syntax.Name, t *syntax.Type, param bool) *Var {
	// A carved Var is zero (a new array's or new): its fields are set,
	// not a literal copied over it (issue 13, stop 47), as are an
	// Iter's (forStmt).
	v := carve(&c.vars)
	v.Name, v.Pos, v.Type, v.Param, v.Scope, v.index = n.Name, n.Pos(), t, param, s, len(c.res.Vars)
	if t != nil {
		v.Mem = memName(t.Mem)
		v.Barrier = t.Elem != nil && t.Elem.Name == "barrier"
		if v.Mem == "" && !v.Barrier && !param {
			v.Mem = "DRAM"
		}
	}
	v.prev, s.last = s.last, v
	c.res.Vars = append(c.res.Vars, v)
	return v
}

func (c *checker) child(s *Scope, st syntax.Stmt) *Scope {
	n := c.newScope()
	*n = *s
	n.Parent = s
	n.Stmt = st
	n.last = nil // its own declarations (declare)
	n.iterName, n.iter, n.hasIter = "", nil, false
	n.Iters = s.Iters[:len(s.Iters):len(s.Iters)]
	return n
}

// setIter binds the loop variable name in s, a loop's body scope: to its
// cuda_threads iterator, or to nil for any other loop's control variable.
func (s *Scope) setIter(name string, it *Iter) {
	s.iterName, s.iter, s.hasIter = name, it, true
}

// stmtCounts bound what a check of a file makes (countStmts).
type stmtCounts struct {
	stmts  int // statements (Result.Stmts, Result.StmtScopes)
	scopes int // scopes: a proc's top one, one per loop and with-block, one per if and one per else, one more per device function whose body is not one cuda_tasks loop (walkUnchecked)
	loops  int // cuda_threads loops (iterators)
	// stores is the number of loops' tiling stores made (threads.go):
	// one per cuda_threads loop whose unit is no call (callUnit).
	stores int
	bodies int // loops and with-blocks (Result.Body)
	// iterSlots is the length of every loop body's iterator list
	// together (withIter): each cuda_threads loop's depth among them.
	iterSlots int
	vars      int // parameters, allocations and window statements' forms
	// accesses estimates the accesses (Result.Accesses): two per
	// assignment (a target and a read), one per argument or barrier of a
	// call, one per other barrier use; reads in bounds and conditions
	// and more in an expression take new ones.
	accesses int
}

// countStmts counts the statements of f's procs and what the check makes
// of them (instruction procs included: bounds, not exact counts).
func countStmts(f *syntax.File) stmtCounts {
	var k stmtCounts
	for _, d := range f.Decls {
		if p, ok := d.(*syntax.Proc); ok {
			k.scopes++
			k.vars += len(p.Params)
			k.count(p.Body, 0)
		}
	}
	return k
}

// callUnit reports whether loop st's unit is or scales a call: a
// parameterized unit (cuda_threads_strided(1, 2): two dimensions), whose
// tiling coll.CudaThreadsIn makes in a store of its own (the one-pass
// strided derivation, stop 46, or the general one; issue 13, stop 45: shfl_xor's
// eight other loops' stores fit a size class 2.7 KB smaller than nine).
// A loop that takes a store anyway takes the next one, leaving a later
// loop to the general derivation: the same tiling.
//
// A call deeper in the unit's expression is not looked for: its loop is
// given a store, as every loop had been.
func callUnit(st *syntax.For) bool {
	for _, kw := range st.Kwargs {
		if kw.Name == nil || kw.Name.Name != "unit" {
			continue
		}
		switch e := kw.Value.(type) {
		case *syntax.Call:
			return true
		case *syntax.Binary:
			_, x := e.X.(*syntax.Call)
			_, y := e.Y.(*syntax.Call)
			return x || y
		}
		return false
	}
	return false
}

// tasksAlone reports whether a device function's body is one cuda_tasks
// loop, which leaves walkUnchecked nothing to walk (no scope; stop 47).
func tasksAlone(body []syntax.Stmt) bool {
	if len(body) != 1 {
		return len(body) == 0
	}
	f, ok := body[0].(*syntax.For)
	return ok && f.Mode != nil && f.Mode.Name == "cuda_tasks"
}

// count adds body's statements to k; depth is the number of cuda_threads
// loops around it.
func (k *stmtCounts) count(body []syntax.Stmt, depth int) {
	k.stmts += len(body)
	for _, st := range body {
		switch st := st.(type) {
		case *syntax.For:
			k.scopes++
			d := depth
			if st.Mode != nil && st.Mode.Name == "cuda_threads" {
				k.loops++
				if !callUnit(st) {
					k.stores++
				}
				d++
				k.iterSlots += d
			}
			k.bodies++
			k.count(st.Body, d)
		case *syntax.If:
			k.scopes++
			if len(st.Else) > 0 {
				k.scopes++
			}
			k.count(st.Then, depth)
			k.count(st.Else, depth)
		case *syntax.With:
			k.scopes++
			if call, ok := st.Ctx.(*syntax.Call); ok && call.FunName() == "CudaDeviceFunction" && !tasksAlone(st.Body) {
				k.scopes++ // walkUnchecked's
			}
			k.bodies++
			k.count(st.Body, depth)
		case *syntax.Alloc:
			k.vars++
		case *syntax.Assign:
			// A variable only for a window statement's form (assign:
			// `w = x[...]`, `w = x`): a bound, not every assignment
			// (stop 45: 10 for rmem_uniform's 6 variables).
			if _, ok := st.LHS.(*syntax.Name); ok && st.Op == "=" {
				if base, _ := splitIndex(st.RHS); base != nil {
					k.vars++
				}
			}
			k.accesses += 2
		case *syntax.CallStmt:
			k.accesses += len(st.Call.Args) + len(st.Call.Kwargs) + len(st.Barriers)
		case *syntax.Arrive:
			k.accesses += len(st.Barriers)
		case *syntax.Await:
			k.accesses++
		}
	}
}

func (c *checker) block(s *Scope, body []syntax.Stmt) {
	for _, st := range body {
		c.stmt(s, st)
	}
}

// where describes a scope's timeline for messages.
func where(s *Scope) string {
	switch {
	case s.Device == nil:
		return "CPU code"
	case s.TL == "cuda_in_order":
		return "in-order CUDA code"
	}
	return "a CudaAsync(" + s.TL + ") block"
}

func (c *checker) stmt(s *Scope, st syntax.Stmt) {
	c.record(st, s)
	switch st := st.(type) {
	case *syntax.Alloc:
		v := c.declare(s, st.Name, st.Type, false)
		if !v.Barrier {
			c.checkPerm(s, v, st.Name, 'c', false)
		}
	case *syntax.Assign:
		c.assign(s, st)
	case *syntax.For:
		c.forStmt(s, st)
	case *syntax.If:
		c.reads(s, st, st.Cond)
		c.block(c.child(s, st), st.Then)
		if len(st.Else) > 0 {
			// A scope of no statement is never recorded nor asked for
			// (an if without else: no scope made for it, stop 43).
			c.block(c.child(s, st), st.Else)
		}
	case *syntax.With:
		c.with(s, st)
	case *syntax.CallStmt:
		c.call(s, st)
		for _, b := range st.Barriers {
			c.barrier(s, st, b)
		}
	case *syntax.Arrive:
		for _, b := range st.Barriers {
			c.barrier(s, st, b)
		}
	case *syntax.Await:
		c.barrier(s, st, st.Bar)
	case *syntax.Assert:
		c.reads(s, st, st.Cond)
	}
}

// barrier records a barrier use (seed 002: all barrier indices are
// distributed indices).
func (c *checker) barrier(s *Scope, st syntax.Stmt, e syntax.Expr) {
	name, idx := splitIndex(e)
	if name == nil {
		return
	}
	v := s.Lookup(name.Name)
	if v == nil || !v.Barrier {
		return
	}
	a := Access{Var: v, Node: e, Indices: idx, Scope: s, Stmt: st}
	if cs, ok := st.(*syntax.CallStmt); ok {
		a.CompletionOf = c.instr(cs.Call.FunName())
	}
	c.access(a)
}

func splitIndex(e syntax.Expr) (*syntax.Name, []syntax.Expr) {
	switch e := e.(type) {
	case *syntax.Name:
		return e, nil
	case *syntax.Index:
		if n, ok := e.X.(*syntax.Name); ok {
			return n, e.Indices
		}
	}
	return nil, nil
}

func (c *checker) assign(s *Scope, st *syntax.Assign) {
	name, idx := splitIndex(st.LHS)
	var v *Var
	if name != nil {
		v = s.Lookup(name.Name)
	}
	if v == nil && name != nil && idx == nil && st.Op == "=" {
		// A window statement `w = x[...] @ Mem` (or an alias `w = x`).
		base, bidx := splitIndex(st.RHS)
		if base != nil {
			if bv := s.Lookup(base.Name); bv != nil {
				a := c.access(Access{Var: bv, Node: st.RHS, Indices: bidx, Scope: s, Stmt: st})
				c.indexReads(s, st, bidx)
				w := c.declare(s, name, bv.Type, false)
				w.Mem, w.Window = bv.Mem, a
				return
			}
		}
	}
	c.reads(s, st, st.RHS)
	c.indexReads(s, st, idx)
	if v == nil {
		return
	}
	c.access(Access{Var: v, Node: st.LHS, Indices: idx, Scope: s, Write: true, Read: st.Op == "+=", Stmt: st})
	c.checkPerm(s, v, st.LHS, 'w', false)
	if st.Op == "+=" {
		c.checkPerm(s, v, st.LHS, 'r', false)
	}
	// R13: scalar writes and reduces are made by single threads, or, to
	// a uniform memory (CudaRmemUniform(n)), by one whole collective of
	// its n threads (Exo's mutate unit): each thread writes its own copy,
	// so all copies of a value are written together.
	if s.Tiling != nil {
		what := "write"
		if st.Op == "+=" {
			what = "reduce"
		}
		if n, ok := c.uniformThreads(v); ok && n > 1 {
			if u, err := c.units.threads(n, s.Tiling.M); err != nil {
				c.errs.Errorf(st.Pos(), codeScalarWrite, "%s to %s (%s) must be executed by %d * cuda_thread: %v", what, v.Name, syntax.ExprString(v.Type.Mem), n, err)
			} else if merr := s.Tiling.Matches(u); merr != nil {
				c.errs.Errorf(st.Pos(), codeScalarWrite, "%s to %s (%s) must be executed by one %d * cuda_thread collective, each of whose threads holds a copy (current: %s; %s)",
					what, v.Name, syntax.ExprString(v.Type.Mem), n, s.Tiling.Describe(), c.iterNames(merr.Msg))
			}
		} else if s.Tiling.Threads() != 1 {
			c.errs.Errorf(st.Pos(), codeScalarWrite, "%s must be executed by one thread only (current: %s)", what, s.Tiling.Describe())
		}
	}
}

// uniformThreads is n of a variable in a uniform memory
// (CudaRmemUniform(n)).
//
// A memory that is not uniform answers no at UniformThreads's first
// test, made here without the call; a uniform one's answer is kept in
// v: it reads v's memory and type, the same at every access (memory),
// and the file's constants, which do not change after Check's start.
func (c *checker) uniformThreads(v *Var) (int64, bool) {
	if c.l == nil || v.Type == nil {
		return 0, false
	}
	m := c.memory(v)
	if m == nil || m.Uniform == "" {
		return 0, false
	}
	if v.uniDone {
		return int64(v.uniN), v.uniOK
	}
	n, ok := m.UniformThreads(v.Type.Mem, c.c.eval)
	if int64(int32(n)) == n {
		v.uniDone, v.uniOK, v.uniN = true, ok, int32(n)
	}
	return n, ok
}

// memory is c.l.Memories[v.Mem], looked up once per variable (Memory:
// c.l is the result's library). c.l is not nil.
func (c *checker) memory(v *Var) *lib.Memory { return c.res.Memory(v) }

// Memory is r.Lib.Memories[v.Mem] for a variable of r (r.Lib not nil):
// the one the check looked up at v's first access (memory; the same
// library, and v.Mem is set where v is declared), or looked up now (stop
// 43: the distributed memory analysis looked each up again).
func (r *Result) Memory(v *Var) *lib.Memory {
	if !v.memDone {
		v.mem, v.memDone = r.Lib.Memories[v.Mem], true
	}
	return v.mem
}

func (c *checker) indexReads(s *Scope, st syntax.Stmt, idx []syntax.Expr) {
	for _, i := range idx {
		c.reads(s, st, i)
	}
}

// reads records every data variable read in e. A literal reads none,
// and is most loops' bounds and scales (`0`, `t4 * 4`): it is told apart
// here, where reads inlines, not in a call per literal (issue 13, stop
// 47).
func (c *checker) reads(s *Scope, st syntax.Stmt, e syntax.Expr) {
	if _, ok := e.(*syntax.IntLit); ok {
		return
	}
	c.readsIn(s, st, e)
}

// readsIn is reads.
func (c *checker) readsIn(s *Scope, st syntax.Stmt, e syntax.Expr) {
	switch e := e.(type) {
	case *syntax.Name:
		if v := s.Lookup(e.Name); v != nil && !v.Barrier {
			c.access(Access{Var: v, Node: e, Scope: s, Read: true, Stmt: st})
			c.checkPerm(s, v, e, 'r', false)
		}
	case *syntax.Index:
		if n, ok := e.X.(*syntax.Name); ok {
			if v := s.Lookup(n.Name); v != nil && !v.Barrier {
				c.access(Access{Var: v, Node: e, Indices: e.Indices, Scope: s, Read: true, Stmt: st})
				c.checkPerm(s, v, e, 'r', false)
			}
		} else {
			c.reads(s, st, e.X)
		}
		c.indexReads(s, st, e.Indices)
	case *syntax.Slice:
		if e.Lo != nil {
			c.reads(s, st, e.Lo)
		}
		if e.Hi != nil {
			c.reads(s, st, e.Hi)
		}
	case *syntax.Binary:
		c.reads(s, st, e.X)
		c.reads(s, st, e.Y)
	case *syntax.Unary:
		c.reads(s, st, e.X)
	case *syntax.Call:
		if e.FunName() == "stride" {
			return // stride(x, d) reads x's layout, not its data
		}
		for _, a := range e.Args {
			c.reads(s, st, a)
		}
	}
}

// checkPerm checks the memory permission op ('r', 'w' or 'c') of v in s
// (seed 002 "Memory types": e.g. CudaGmemLinear is allocated on the CPU
// and accessed only in device code).
//
// at is an Expr, not a Node: every caller holds one, and an Expr (an
// argument, an assignment's left-hand side) passed as a Node had been a
// runtime.typeAssert (~90 instructions) at each call, for a position read
// only on the error path (issue 13, stop 44: 0.6 K instructions of an
// rmem_uniform check, 0.9 K of shfl_xor's).
func (c *checker) checkPerm(s *Scope, v *Var, at syntax.Expr, op byte, instr bool) {
	if c.l == nil || v.Barrier {
		return
	}
	m := c.memory(v)
	if m == nil {
		return
	}
	var p lib.Perm
	switch {
	case s.Device == nil && instr:
		// CPU instructions (cudaMemcpy-like copies between DRAM and GMEM)
		// have their own permissions: CPU code cannot read or write GMEM,
		// but the CUDA runtime can (seed 002 "Memory types": GMEM is
		// allocated by the CPU and accessed only in device code, and CPU
		// code moves data in and out with the runtime's copies).
		p = m.CPUInstr
	case s.Device == nil:
		p = m.CPU
	case s.TL == "cuda_in_order":
		p = m.CUDA
	case instr:
		p = m.AsyncInstr
	default:
		p = m.Async
	}
	if can(p, op) {
		return
	}
	w := where(s)
	if instr && (s.Device == nil || s.TL != "cuda_in_order") {
		w = "an instruction of " + w
	}
	switch op {
	case 'c':
		c.errs.Errorf(at.Pos(), codeAlloc, "%s (memory type %s) cannot be allocated in %s", v.Name, m.Name, w)
	case 'r':
		c.errs.Errorf(at.Pos(), codeRead, "%s (memory type %s) does not allow reads in %s", v.Name, m.Name, w)
	case 'w':
		c.errs.Errorf(at.Pos(), codeWrite, "%s (memory type %s) does not allow writes in %s", v.Name, m.Name, w)
	}
}

// can is p.Can(op), strings.IndexByte(p, op) >= 0, as a loop over p's
// few bytes ("rwc" at most) without the call: every access checks a
// permission (issue 13, stop 42: the calls were 0.4 K instructions of
// shfl_xor's check).
func can(p lib.Perm, op byte) bool {
	for i := 0; i < len(p); i++ {
		if p[i] == op {
			return true
		}
	}
	return false
}

// iterNames rewrites coll's iterator ids (`128*i0`) in a message with the
// iterators' names (`128*wg`).
func (c *checker) iterNames(msg string) string {
	if c.dev == nil {
		return msg
	}
	return iterRef.ReplaceAllStringFunc(msg, func(m string) string {
		sub := iterRef.FindStringSubmatch(m)
		id, err := strconv.Atoi(sub[2])
		if err != nil || id >= len(c.dev.Iters) {
			return m
		}
		return sub[1] + "*" + c.dev.Iters[id].Name
	})
}

var iterRef = regexp.MustCompile(`(\d+)\*i(\d+)\b`)

func (c *checker) constArg(e syntax.Expr, what string) (int, bool) {
	v, ok := c.c.eval(e)
	if !ok {
		c.errs.Errorf(StartPos(e), codeDeviceConst, "%s must be a compile-time constant, not %s", what, exprString(e))
		return 0, false
	}
	return int(v), true
}

func (c *checker) forStmt(s *Scope, st *syntax.For) {
	mode := st.Mode.Name
	c.reads(s, st, st.Lo)
	c.reads(s, st, st.Hi)
	switch {
	case mode == "cuda_tasks":
		// Legal cuda_tasks loops are handled by the device nest walk.
		c.errs.Errorf(st.Pos(), codeTasksWhere, "cuda_tasks loop must appear only in the top-level nest of a CudaDeviceFunction")
		c.loopBody(s, st, nil)
		return
	case s.Device == nil && mode == "par":
		// Exo's par loop (OpenMP) in CPU code; package check makes sure
		// its iterations write disjoint elements.
		c.loopBody(s, st, nil)
		return
	case s.Device == nil && mode != "seq":
		c.errs.Errorf(st.Mode.Pos(), codeLoopMode, "CPU code allows only seq and par loops, not %s", mode)
		c.loopBody(s, st, nil)
		return
	case s.Device != nil && mode != "seq" && mode != "cuda_threads":
		c.errs.Errorf(st.Mode.Pos(), codeLoopMode, "unexpected loop mode %s in a CudaDeviceFunction (seq and cuda_threads are allowed)", mode)
		c.loopBody(s, st, nil)
		return
	case mode == "seq":
		for _, k := range st.Kwargs {
			if k.Name.Name != "pragma_unroll" {
				c.errs.Errorf(k.Pos(), codeLoopMode, "seq loop has no option %s (pragma_unroll)", k.Name.Name)
			}
		}
		c.loopBody(s, st, nil)
		return
	}
	// cuda_threads (seed 002: lo = 0, constant hi, subdivides the scope).
	var unitExpr syntax.Expr
	for _, k := range st.Kwargs {
		if k.Name.Name == "unit" {
			unitExpr = k.Value
		} else {
			c.errs.Errorf(k.Pos(), codeLoopMode, "cuda_threads loop has no option %s (unit)", k.Name.Name)
		}
	}
	if unitExpr == nil {
		unitExpr = defaultUnit
	}
	if lo, ok := c.c.eval(st.Lo); !ok || lo != 0 {
		c.errs.Errorf(StartPos(st.Lo), codeThreadsBounds, "cuda_threads loop needs lo = 0, not %s", exprString(st.Lo))
		c.loopBody(s, st, nil)
		return
	}
	hi, ok := c.c.eval(st.Hi)
	if !ok {
		c.errs.Errorf(StartPos(st.Hi), codeThreadsBounds, "cuda_threads loop needs a compile-time constant hi, not %s (rewrite with simplify(...) if needed)", exprString(st.Hi))
		c.loopBody(s, st, nil)
		return
	}
	if hi < 1 || hi > 1<<20 {
		c.errs.Errorf(StartPos(st.Hi), codeThreadsBounds, "cuda_threads loop must have at least one iteration (hi = %d)", hi)
		c.loopBody(s, st, nil)
		return
	}
	if s.Tiling == nil {
		c.loopBody(s, st, nil)
		return
	}
	u, err := c.units.resolve(unitExpr, s.Tiling.M)
	if err != nil {
		c.errs.Errorf(StartPos(unitExpr), codeUnit, "%v", err)
		c.loopBody(s, st, nil)
		return
	}
	it := carve(&c.iters)
	it.Name, it.ID, it.Loop, it.Count, it.Unit, it.Parent = st.Var.Name, len(c.dev.Iters), st, int(hi), u, s.Tiling
	body, err := c.deriveThreads(s.Tiling, it.ID, int(hi), u)
	if err != nil {
		c.errs.Errorf(st.Pos(), codeThreadsFit, "%v", err)
		c.loopBody(s, st, nil)
		return
	}
	it.Body = body
	c.dev.Iters = append(c.dev.Iters, it)
	c.res.bodies.add(st, body)
	c.loopBody(s, st, it)
}

// defaultUnit is the unit of a cuda_threads loop without unit=, made
// once, not for every loop (it is only read).
var defaultUnit syntax.Expr = &syntax.Name{Name: "cuda_thread"}

func (c *checker) loopBody(s *Scope, st *syntax.For, it *Iter) {
	b := c.child(s, st)
	if it != nil {
		b.Tiling = it.Body
		b.Iters = c.withIter(b.Iters, it)
		b.setIter(st.Var.Name, it)
	} else {
		b.setIter(st.Var.Name, nil) // a control variable that is not a cuda_threads iterator
	}
	c.block(b, st.Body)
}

func (c *checker) with(s *Scope, st *syntax.With) {
	call, _ := st.Ctx.(*syntax.Call)
	name := ""
	if call != nil {
		name = call.FunName()
	} else if n, ok := st.Ctx.(*syntax.Name); ok {
		name = n.Name
	}
	switch name {
	case "CudaDeviceFunction":
		c.deviceFunction(s, st, call)
	case "CudaWarps":
		c.cudaWarps(s, st, call)
	case "CudaAsync":
		c.cudaAsync(s, st, call)
	default:
		c.errs.Errorf(st.Ctx.Pos(), codeWith, "unknown with-block %s (CudaDeviceFunction, CudaWarps, CudaAsync)", exprString(st.Ctx))
		c.block(c.child(s, st), st.Body)
	}
}

func (c *checker) cudaAsync(s *Scope, st *syntax.With, call *syntax.Call) {
	b := c.child(s, st)
	defer c.block(b, st.Body)
	if call == nil || len(call.Args) != 1 || len(call.Kwargs) != 0 {
		c.errs.Errorf(st.Ctx.Pos(), codeAsync, "CudaAsync takes one instruction timeline, e.g. CudaAsync(Sm80_cp_async)")
		return
	}
	if s.Device == nil || s.Tiling == nil {
		if s.Device == nil || s.Device.Top != nil {
			c.errs.Errorf(st.Ctx.Pos(), codeAsync, "CudaAsync can only appear within a CUDA device function's task body")
		} // else: the launch shape is invalid, already reported
		return
	}
	if s.TL != "cuda_in_order" {
		c.errs.Errorf(st.Ctx.Pos(), codeAsync, "CudaAsync must appear in in-order CUDA code, not in %s (async blocks do not nest)", where(s))
		return
	}
	n, _ := call.Args[0].(*syntax.Name)
	var tl *lib.SyncTL
	if n != nil && c.l != nil {
		tl = c.l.Timelines[n.Name]
	}
	if tl == nil || !tl.AsyncBlock {
		c.errs.Errorf(call.Args[0].Pos(), codeAsync, "%s is not an async instruction timeline (%s)", exprString(call.Args[0]), c.asyncTLs())
		return
	}
	b.TL = tl.Name
}

func (c *checker) asyncTLs() string {
	if c.l == nil {
		return ""
	}
	var names []string
	for _, name := range sortedKeys(c.l.Timelines) {
		if tl := c.l.Timelines[name]; tl.AsyncBlock && tl.Name == name {
			names = append(names, name)
		}
	}
	return strings.Join(names, ", ")
}

// implicitAsync reports whether an instruction of the asynchronous
// timeline tl may be called in scope s without a CudaAsync block: Exo's
// GPU branch (akeley98/endgame, timelines.py cuda_basic_device) lets
// in-order CUDA code call instructions of every CUDA instruction timeline,
// each running on its own timeline, as if wrapped in `with CudaAsync(tl):`
// (issue 19). Inside a CudaAsync block the block's timeline still rules.
func (c *checker) implicitAsync(s *Scope, tl string) bool {
	if s.Device == nil || s.TL != "cuda_in_order" || c.l == nil {
		return false
	}
	t := c.l.Timelines[tl]
	return t != nil && t.AsyncBlock
}

func (c *checker) canonTL(name string) string {
	if c.l != nil {
		if tl := c.l.Timelines[name]; tl != nil {
			return tl.Name
		}
	}
	return name
}

func (c *checker) call(s *Scope, st *syntax.CallStmt) {
	name := st.Call.FunName()
	in := c.instr(name)
	if in == nil {
		// Seed 000 §3.3: "calls to p : Proc only appear at CPU scope,
		// while calls to g : Instr appear at CPU or CUDA scope"; a proc's
		// body is CPU code (§3.4: code is CPU code by default), so device
		// code reaches hardware only through instructions.
		if s.Device != nil && c.isProc(name) {
			c.errs.Errorf(st.Pos(), codeProcCall, "%s is a proc, called here in device code: procs are called only from CPU code (their bodies are CPU code); device code calls instructions, or the proc's statements can be written in the kernel", name)
		}
		// A proc call: its arguments are reads as far as this analysis
		// is concerned.
		for _, a := range st.Call.Args {
			c.reads(s, st, a)
		}
		for _, k := range st.Call.Kwargs {
			c.reads(s, st, k.Value)
		}
		return
	}
	// R4: the instruction's timeline must be the scope's ("wrong instr-tl").
	want := c.canonTL(in.TL)
	if want != "" && want != s.TL && !c.implicitAsync(s, want) {
		c.errs.Errorf(st.Pos(), codeInstrTL, "wrong instr-tl: %s() requires instruction timeline %s; scope has %s (%s)", name, want, s.TL, where(s))
	}
	// Bind arguments to parameters.
	params := in.Proc.Params
	// Arguments bind as package check binds them (keywords by name,
	// positionals to the rest in order: Sm80_cp_async_f32(smem, gmem,
	// size=4); Exo's type bindings and template arguments bind nothing).
	args, probs := c.bindArgs(params, st.Call, in.Template)
	// R14: executed by exactly its collective unit (which may depend on
	// the call's constant size arguments, lib.Instr.UnitFor).
	if s.Tiling != nil && in.Unit != nil {
		unit := c.unitFor(in, func(p string) (int64, bool) {
			for i, prm := range params {
				if prm.Name.Name == p && args[i] != nil {
					return c.c.eval(args[i])
				}
			}
			return 0, false
		})
		u, err := c.units.resolve(unit, s.Tiling.M)
		if err != nil {
			c.errs.Errorf(st.Pos(), codeInstrUnit, "wrong collective unit for %s(): %v", name, err)
		} else if merr := s.Tiling.Matches(u); merr != nil {
			c.errs.Errorf(st.Pos(), codeInstrUnit, "wrong collective unit for %s(): it must be executed by one %s; %s", name, u, c.iterNames(merr.Msg))
		}
	}
	for i, a := range args {
		if a != nil {
			c.bindArg(s, st, in, name, params[i].Name.Name, a)
		}
	}
	for _, p := range probs {
		if p.Expr != nil {
			c.reads(s, st, p.Expr)
		}
	}
}

// bindArg binds the argument arg of parameter pname of instruction in
// (named name) in a call statement st: a method, not a closure made for
// every call (issue 13, stop 47).
func (c *checker) bindArg(s *Scope, st *syntax.CallStmt, in *lib.Instr, name, pname string, arg syntax.Expr) {
	acc := paramAccess(in, pname)
	if acc == nil {
		c.reads(s, st, arg)
		return
	}
	base, idx := splitIndex(arg)
	var v *Var
	if base != nil {
		v = s.Lookup(base.Name)
	}
	c.indexReads(s, st, idx)
	if v == nil {
		c.reads(s, st, arg)
		return
	}
	a := Access{Var: v, Node: arg, Indices: idx, Scope: s, Instr: in, Param: pname, Stmt: st, acc: acc}
	switch acc.Mode {
	case "w":
		a.Write = true
	case "rw":
		a.Read, a.Write = true, true
	default:
		a.Read = true
	}
	c.access(a)
	if len(acc.Units) > 0 {
		c.res.unitArgs++
	}
	if a.Read {
		c.checkPerm(s, v, arg, 'r', true)
	}
	if a.Write {
		c.checkPerm(s, v, arg, 'w', true)
	}
	if n, ok := c.uniformThreads(v); ok && n > 1 && s.Tiling != nil {
		// A uniform register (CudaRmemUniform(n)) reaches an
		// instruction only through a parameter without a memory
		// (scalar.weft's): in-order instructions only (the sync
		// check leaves these registers out, syncheck/convert.go
		// exempt), and a write by the whole n-thread collective, as
		// for a scalar write (R13), else one thread's copy differs.
		if in.TL != "cuda_in_order" {
			c.errs.Errorf(StartPos(arg), codeScalarWrite, "%s (%s) cannot be an argument of %s(), an instruction of timeline %s: only in-order code touches uniform registers",
				v.Name, syntax.ExprString(v.Type.Mem), name, in.TL)
		} else if a.Write {
			if u, err := c.units.threads(n, s.Tiling.M); err == nil {
				if merr := s.Tiling.Matches(u); merr != nil {
					c.errs.Errorf(StartPos(arg), codeScalarWrite, "write to %s (%s) by %s() must be executed by one %d * cuda_thread collective, each of whose threads holds a copy (current: %s; %s)",
						v.Name, syntax.ExprString(v.Type.Mem), name, n, s.Tiling.Describe(), c.iterNames(merr.Msg))
				}
			}
		}
	}
}
