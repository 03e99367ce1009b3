package sem

import (
	"reflect"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// The annotation language of kernel-only files (GPUVerify's and Faial's
// dialect, issue 16 §1), given a dynamic meaning over the run at hand:
//
//   - preconditions (__requires, __assume) that are false for a thread end
//     the run with C0620: the launch and inputs chosen are outside what the
//     kernel promises to handle, so the run says nothing (package verify
//     drops it and counts it as excluded);
//   - assertions, postconditions checked where written, and invariants
//     (__assert, __invariant, __global_invariant, __function_wide_invariant)
//     that are false end the run with C0621 at their position;
//   - __implies(a, b) is !a || b, __enabled() is 1 (the thread evaluating it
//     is enabled);
//   - the access predicates speak of the evaluating thread's accesses to
//     the object a pointer points into since its last barrier (GPUVerify
//     resets its access logs at barriers too): __read(p), __write(p),
//     __no_read(p), __no_write(p); __read_implies(p, e) and
//     __write_implies(p, e) hold when e holds for every such access, with
//     __read_offset_bytes(p) / __write_offset_bytes(p) in e its byte offset
//     (outside, the offset of the latest access); threads log their
//     accesses only in programs that use these predicates;
//   - __uniform_* and __distinct_* are evaluated over the threads the run
//     ran (pairs.go) where they occur positively in the annotation (under
//     &&, ||, &, | and the consequent of __implies): each yields 1 at once,
//     and when the kernel has finished the values one site got at the same
//     evaluation (the k-th of each thread) are compared; unequal (uniform)
//     or equal (distinct) values make the annotation false, reported with
//     both threads;
//   - an annotation whose condition mentions another group predicate
//     (__other_*, __all, __at_most_one, __exclusive, __same_group) or a
//     two-thread predicate elsewhere is judged over the pairs of threads
//     the run ran (others.go); one where a predicate sits under an index,
//     a call or an assignment is not evaluated: it holds (never a false
//     report; docs/cudac.md, "Kernel-only verification", says so);
//   - __requires_fresh_array(p) holds: every pointer parameter of a
//     kernel-only launch is a fresh buffer of its own;
//   - __ensures(e), written among the first statements of a function, is
//     checked at every return (and at the end of a void function), with
//     __return_val_*() the value returned; false is C0621;
//   - __requires(e) in a function other than a kernel is the callee's
//     contract: false is an error of the call (C0621), not an excluded run.
//
// Functions declared but never defined in a file without main return a value
// chosen like an input (__weft_nondet): Options.NondetSeed 0 gives 0,
// SmallNondetSeed small values, the same in every thread (each call site
// in the order they are first reached gives 1, 2, 3, ..., halved at each
// further call by the same thread: offsets that make two threads' accesses
// meet), another seed a value hashed from the seed, the call site, the
// thread and the machine's step count, so a loop on such a value ends (GPUVerify
// havocs the result of each call of a bodiless function). Bugle's
// uninterpreted functions, declared as __uninterpreted_function_NAME, are
// functions: one value per seed and argument list, whichever thread calls
// them and wherever (__weft_uninterp, also below 2^16).

const (
	annotTrue  = iota // evaluates its arguments and yields 1
	annotFirst        // yields its first argument
	annotZero         // yields 0
)

// annotPure are the annotations that are not checked (see above), with what
// they yield.
var annotPure map[string]int

// initAnnotPure builds annotPure (tables.go).
func initAnnotPure() {
	annotPure = map[string]int{
		"__all": annotTrue, "__at_most_one": annotTrue, "__exclusive": annotTrue, "__same_group": annotTrue,
		"__other_int": annotFirst, "__other_bool": annotFirst, "__other_unsigned": annotFirst,
		"__atomic_implies": annotTrue, "__ptr_base": annotZero,
		"__requires_fresh_array": annotTrue, "__ensures": annotTrue,
		"__return_val_int": annotZero, "__return_val_bool": annotZero, "__return_val_unsigned": annotZero,
		"__return_val_ptr": annotZero, "__return_val_float": annotZero, "__enabled": annotTrue,
		"__add_noovfl": annotTrue, "__add_noovfl_int": annotTrue, "__add_noovfl_unsigned": annotTrue,
	}
}

func initAnnot() {
	for name := range annotPure {
		builtinSigs[name] = sig(tInt, anySide).va()
	}
	builtinSigs["__ptr_base"] = sig(tVoidP, anySide).va()
	builtinSigs["__return_val_ptr"] = sig(tVoidP, anySide).va()
	for _, name := range []string{"__requires", "__assume", "__assert", "__invariant", "__global_invariant", "__function_wide_invariant"} {
		builtinSigs[name] = sig(tInt, anySide, tAny)
	}
	builtinSigs["__implies"] = sig(tInt, anySide, tAny, tAny)
	builtinSigs["__builtin_memcpy"] = builtinSigs["memcpy"]
	builtinSigs["__builtin_memset"] = builtinSigs["memset"]
	// runtime.go's init may run after this one: look the targets up when
	// called
	for alias, name := range map[string]string{"__builtin_memcpy": "memcpy", "__builtin_memset": "memset"} {
		defb(alias, func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			return builtinTable[builtinIndex[name]].fn(m, t, a, pos)
		})
	}

	for name, kind := range annotPure {
		switch kind {
		case annotTrue:
			defb(name, func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) { return ok(1) })
		case annotFirst:
			defb(name, func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
				if len(a) == 0 {
					return ok(0)
				}
				return ok(a[0])
			})
		default:
			defb(name, func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) { return ok(0) })
		}
	}
	for _, name := range []string{"__requires", "__assume"} {
		defb(name, func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			if a[0] == 0 {
				m.fault(t, pos, "C0620", "precondition false: this launch and these inputs are outside what the kernel requires")
				return 0, stFault
			}
			return ok(1)
		})
	}
	for _, name := range []string{"__assert", "__invariant", "__global_invariant", "__function_wide_invariant"} {
		defb(name, func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			if a[0] == 0 {
				m.fault(t, pos, "C0621", "%s violated", name)
				return 0, stFault
			}
			return ok(1)
		})
	}
	defb("__ensures_check", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[0] == 0 {
			m.fault(t, pos, "C0621", "__ensures violated")
			return 0, stFault
		}
		return ok(1)
	})
	defb("__requires_check", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[0] == 0 {
			m.fault(t, pos, "C0621", "__requires of the called function violated")
			return 0, stFault
		}
		return ok(1)
	})
	defb("__implies", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(b2u(a[0] == 0 || a[1] != 0))
	})
	defb("__weft_uninterp", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// a[:len(a)-1]: the arguments, a[len(a)-1]: the function's hash
		if m.opts.NondetSeed == 0 {
			return ok(0)
		}
		h := uint64(m.opts.NondetSeed) * 0x9e3779b97f4a7c15
		for _, v := range a {
			h = (h ^ v) * 0xbf58476d1ce4e5b9
			h ^= h >> 31
		}
		return ok(h & nondetMask)
	})
	defb("__weft_nondet", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// a chosen value is a change the thread sees: a loop on it is no
		// spin (spin.go assumes a thread's state determines its future)
		m.mver++
		switch m.opts.NondetSeed {
		case 0:
			return ok(0)
		case SmallNondetSeed:
			return ok(m.smallNondet(t, pos))
		}
		h := uint64(m.opts.NondetSeed)*0x9e3779b97f4a7c15 ^ uint64(pos)*0xbf58476d1ce4e5b9 ^ m.steps*0xff51afd7ed558ccd
		if t.block != nil {
			h ^= (uint64(t.block.id)<<32 | uint64(uint32(t.tid))) * 0x94d049bb133111eb
		}
		h ^= h >> 31
		h *= 0xd6e8feb46ca43fa5
		h ^= h >> 29
		return ok(h & nondetMask)
	})
}

// nondetMask bounds hashed chosen values: like the search's other inputs
// they are small and not negative, so that an index computed from one
// stays within a growing buffer (an access below a buffer's start is out
// of bounds).
const nondetMask = 1<<16 - 1

// SmallNondetSeed is the nondet seed whose values are small and uniform
// (__weft_nondet).
const SmallNondetSeed = 2

type nondetKey struct {
	t   *Thread
	pos int32
}

// smallNondet is the value of the call at pos by t under SmallNondetSeed.
func (m *Machine) smallNondet(t *Thread, pos int32) uint64 {
	if m.pairs.sites == nil {
		m.pairs.sites = map[int32]uint64{}
		m.pairs.calls = map[nondetKey]uint64{}
	}
	v, ok := m.pairs.sites[pos]
	if !ok {
		v = uint64(len(m.pairs.sites) + 1)
		m.pairs.sites[pos] = v
	}
	k := nondetKey{t, pos}
	n := m.pairs.calls[k]
	m.pairs.calls[k] = n + 1
	if n >= 64 {
		return 0
	}
	return v >> n
}

// annotState is the compiler's view of the function being compiled: the
// conditions of its __ensures and the slot that holds the returned value
// while they are evaluated.
type annotState struct {
	ensures   []*syntax.Call
	retSlot   int
	inEnsures bool
	encl      *pairEncl // the annotation being compiled, for its pair predicates (pairs.go)
	oth       *othInfo  // the annotation whose pairs are being judged (others.go)
}

// beginEnsures collects the __ensures statements at the top level of fd's
// body.
func (c *compiler) beginEnsures(fd *syntax.FuncDecl) {
	c.ann = annotState{}
	if fd.Body == nil {
		return
	}
	for _, st := range fd.Body.Stmts {
		es, ok := st.(*syntax.ExprStmt)
		if !ok {
			continue
		}
		call, ok := es.X.(*syntax.Call)
		if !ok || len(call.Args) != 1 {
			continue
		}
		if n, ok := call.Fun.(*syntax.Name); ok && n.Name == "__ensures" && (pairsOnly(call.Args[0], true) || groupAnnot(call.Args[0])) {
			c.ann.ensures = append(c.ann.ensures, call)
		}
	}
	if len(c.ann.ensures) > 0 {
		c.ann.retSlot = c.newSlot()
	}
}

// checkEnsures evaluates the function's __ensures with the value about to
// be returned on the stack (it stays there), or at the end of the body
// (value false: nothing is on the stack).
func (c *compiler) checkEnsures(pos diag.Pos, value bool) {
	if len(c.ann.ensures) == 0 || c.ann.inEnsures {
		return
	}
	if !value {
		c.emit(OpConst, 0, 0, pos)
		defer c.emit(OpPop, 0, 0, pos)
	}
	c.emit(OpSetLocal, int32(c.ann.retSlot), 0, pos)
	c.ann.inEnsures = true
	for _, e := range c.ann.ensures {
		encl := &pairEncl{name: "__ensures", code: "C0621", pos: c.pos(e.Pos), at: e.Pos}
		if pairsOnly(e.Args[0], true) {
			c.ann.encl = encl
			c.expr(e.Args[0])
			c.ann.encl = nil
		} else {
			c.othAnnot(encl, e.Args[0]) // others.go
		}
		c.emit(OpBuiltin, builtinIndex["__ensures_check"], 1, e.Pos)
		c.emit(OpPop, 0, 0, pos)
	}
	c.ann.inEnsures = false
}

// checkedAnnot are the annotations whose condition a run evaluates.
var checkedAnnot map[string]bool

// initCheckedAnnot builds checkedAnnot (tables.go).
func initCheckedAnnot() {
	checkedAnnot = map[string]bool{"__requires": true, "__assume": true, "__assert": true, "__invariant": true,
		"__global_invariant": true, "__function_wide_invariant": true}
}

// annotCall compiles an annotation whose condition cannot be evaluated by
// one thread (see above): its arguments are evaluated and dropped and it
// yields 1. It returns nil for any other call.
func (c *compiler) annotCall(name string, e *syntax.Call) *Type {
	if t := c.accessCall(name, e); t != nil {
		return t
	}
	if t := c.othCall(name, e); t != nil {
		return t // others.go
	}
	if t := c.curandCall(name, e); t != nil {
		return t // curand.go
	}
	if t := c.texCall(name, e); t != nil {
		return t // texture.go
	}
	if strings.HasPrefix(name, "__return_val") && c.ann.inEnsures {
		c.emit(OpLocal, int32(c.ann.retSlot), 0, e.Pos)
		return c.fn.Type.Elem
	}
	if checkedAnnot[name] || name == "__ensures" {
		c.groupArity(e.Args) // others.go
	}
	if name == "__requires" && c.fn != nil && !c.fn.Global && len(e.Args) == 1 && !mentionsUnchecked(reflect.ValueOf(e.Args)) {
		c.expr(e.Args[0])
		c.emit(OpBuiltin, builtinIndex["__requires_check"], 1, e.Pos)
		return tInt
	}
	if t := c.pairCall(name, e); t != nil {
		return t // pairs.go
	}
	if checkedAnnot[name] && len(e.Args) == 1 && pairsOnly(e.Args[0], true) {
		// evaluated, its pair predicates checked when the kernel ends
		code := "C0621"
		if name == "__assume" || (name == "__requires" && c.fn != nil && c.fn.Global) {
			code = "C0620"
		}
		saved := c.ann.encl
		c.ann.encl = &pairEncl{name: name, code: code, pos: c.pos(e.Pos), at: e.Pos}
		defer func() { c.ann.encl = saved }()
		c.cond(e.Args[0])
		if name == "__requires" && c.fn != nil && !c.fn.Global {
			name = "__requires_check"
		}
		c.emit(OpBuiltin, builtinIndex[name], 1, e.Pos)
		return tInt
	}
	if checkedAnnot[name] && len(e.Args) == 1 && groupAnnot(e.Args[0]) {
		// judged over the pairs of threads the run ran (others.go)
		code := "C0621"
		if name == "__assume" || (name == "__requires" && c.fn != nil && c.fn.Global) {
			code = "C0620"
		}
		c.othAnnot(&pairEncl{name: name, code: code, pos: c.pos(e.Pos), at: e.Pos}, e.Args[0])
		if name == "__requires" && c.fn != nil && !c.fn.Global {
			name = "__requires_check"
		}
		c.emit(OpBuiltin, builtinIndex[name], 1, e.Pos)
		return tInt
	}
	if name == "__ensures" && hasGroupPred(reflect.ValueOf(e.Args)) {
		// checked at the returns (checkEnsures)
		c.emit(OpConst, 0, 1, e.Pos)
		return tInt
	}
	if !checkedAnnot[name] || !mentionsUnchecked(reflect.ValueOf(e.Args)) {
		return nil
	}
	// a group predicate where the pair evaluation cannot hold it (under
	// an index or a call): not evaluated, the annotation holds
	c.emit(OpConst, 0, 1, e.Pos)
	return tInt
}

// mentionsUnchecked reports whether the syntax tree v calls an annotation
// that is not evaluated (annotPure other than __enabled and the
// __return_val_* ones, which only __ensures uses).
func mentionsUnchecked(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return false
		}
		if n, ok := v.Interface().(*syntax.Name); ok && n.Name == "__same_group" {
			return true // others.go
		}
		if call, ok := v.Interface().(*syntax.Call); ok {
			if n, ok := call.Fun.(*syntax.Name); ok && pairPredicates[n.Name] {
				return true
			}
			if n, ok := call.Fun.(*syntax.Name); ok {
				if _, pure := annotPure[n.Name]; pure && n.Name != "__enabled" && n.Name != "__ensures" && !strings.HasPrefix(n.Name, "__return_val") {
					return true
				}
			}
		}
		return mentionsUnchecked(v.Elem())
	case reflect.Struct:
		if v.Type() == posType {
			return false
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && mentionsUnchecked(v.Field(i)) {
				return true
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			if mentionsUnchecked(v.Index(i)) {
				return true
			}
		}
	}
	return false
}

var posType = reflect.TypeOf(diag.Pos{})

// Access logs (the access predicates above).

// maxAlog bounds a thread's log between two barriers; older entries are
// dropped (a _implies then checks fewer accesses: never a false report).
const maxAlog = 4096

type alogRec struct {
	obj   uint32
	off   int32
	write bool
}

type alogState struct {
	recs  []alogRec
	epoch int32 // the block's barrier epoch the log belongs to
	// the _implies loop in progress: its object and kind, and the next
	// record to visit; cur is the record whose offset __*_offset_bytes
	// gives (-1: the latest access)
	iterObj   uint32
	iterWrite bool
	next      int
	cur       int
}

// sync drops the log of an earlier barrier interval.
func (t *Thread) alogSync() {
	if t.block != nil && t.block.epoch != t.alog.epoch {
		t.alog.recs = t.alog.recs[:0]
		t.alog.epoch = t.block.epoch
		t.alog.cur = -1
	}
}

func (t *Thread) logAccess(o *Object, off int, write bool) {
	if o.Space == SpaceLocal {
		return
	}
	t.alogSync()
	if len(t.alog.recs) >= maxAlog {
		t.alog.recs = append(t.alog.recs[:0], t.alog.recs[maxAlog/2:]...)
		t.alog.cur = -1
	}
	t.alog.recs = append(t.alog.recs, alogRec{uint32(o.ID), int32(off), write})
}

// alogFind returns the index of the latest access of the kind to p's
// object, or -1.
func (t *Thread) alogFind(p uint64, write bool) int {
	t.alogSync()
	for i := len(t.alog.recs) - 1; i >= 0; i-- {
		r := t.alog.recs[i]
		if r.obj == uint32(p>>32) && r.write == write {
			return i
		}
	}
	return -1
}

// alogOffset is __read_offset_bytes / __write_offset_bytes: the offset of
// the record an _implies loop visits, or of the latest access.
func (t *Thread) alogOffset(p uint64, write bool) uint64 {
	i := t.alog.cur
	if i < 0 || i >= len(t.alog.recs) || t.alog.iterObj != uint32(p>>32) || t.alog.iterWrite != write {
		i = t.alogFind(p, write)
	}
	if i < 0 {
		return 0
	}
	return uint64(int64(t.alog.recs[i].off))
}

// accessPredicates are compiled by accessCall.
var accessPredicates map[string]bool

// initAccessPredicates builds accessPredicates (tables.go).
func initAccessPredicates() {
	accessPredicates = map[string]bool{"__read": true, "__write": true, "__no_read": true, "__no_write": true,
		"__read_implies": true, "__write_implies": true, "__read_offset_bytes": true, "__write_offset_bytes": true,
		"__read_offset": true, "__write_offset": true, "__ptr_offset_bytes": true}
}

func initAnnot2() {
	for _, name := range []string{"__alog_has", "__alog_start", "__alog_next", "__alog_offset"} {
		builtinSigs[name] = sig(tLong, deviceSide, tAny, tAny)
	}
	// a[0]: the pointer, a[1]: 1 for writes
	defb("__alog_has", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(b2u(t.alogFind(a[0], a[1] != 0) >= 0))
	})
	defb("__alog_offset", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(t.alogOffset(a[0], a[1] != 0))
	})
	defb("__alog_start", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		t.alogSync()
		t.alog.iterObj, t.alog.iterWrite, t.alog.next, t.alog.cur = uint32(a[0]>>32), a[1] != 0, 0, -1
		return ok(0)
	})
	// yields 1 and selects the next record of the loop's kind, or 0 at the end
	defb("__alog_next", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		for i := t.alog.next; i < len(t.alog.recs); i++ {
			r := t.alog.recs[i]
			if r.obj == t.alog.iterObj && r.write == t.alog.iterWrite {
				t.alog.cur, t.alog.next = i, i+1
				// the loop over the log jumps back with the same stack:
				// no spin (spin.go compares stacks, not this cursor)
				m.mver++
				return ok(1)
			}
		}
		t.alog.cur, t.alog.next = -1, len(t.alog.recs)
		return ok(0)
	})
}

// accessCall compiles an access predicate; nil if name is none.
func (c *compiler) accessCall(name string, e *syntax.Call) *Type {
	if !accessPredicates[name] {
		return nil
	}
	c.prog.alog = true
	pos := e.Pos
	write := int64(0)
	if strings.HasPrefix(name, "__write") || strings.HasPrefix(name, "__no_write") {
		write = 1
	}
	want := 1
	if strings.HasSuffix(name, "_implies") {
		want = 2
	}
	if len(e.Args) != want {
		c.errorf(pos, "C0304", "%s takes %d argument(s), %d given", name, want, len(e.Args))
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	ptr := func() {
		if t := c.expr(e.Args[0]); t.Kind != Ptr && t.Kind != Array {
			c.errorf(syntax.PosOf(e.Args[0]), "C0302", "%s takes a pointer, not %s", name, t)
		}
		c.emit(OpConst, 0, write, pos)
	}
	switch name {
	case "__ptr_offset_bytes":
		// the byte offset of the pointer in its object
		c.expr(e.Args[0])
		c.emit(OpConst, 0, 0xffffffff, pos)
		c.emit(OpAnd, 0, 0, pos)
		return tLong
	case "__read", "__write":
		ptr()
		c.emit(OpBuiltin, builtinIndex["__alog_has"], 2, pos)
		return tInt
	case "__no_read", "__no_write":
		ptr()
		c.emit(OpBuiltin, builtinIndex["__alog_has"], 2, pos)
		c.emit(OpLNot, 0, 0, pos)
		return tInt
	case "__read_offset_bytes", "__write_offset_bytes", "__read_offset", "__write_offset":
		ptr()
		c.emit(OpBuiltin, builtinIndex["__alog_offset"], 2, pos)
		return tLong
	}
	// __read_implies / __write_implies: e must hold for every access
	ptr()
	c.emit(OpBuiltin, builtinIndex["__alog_start"], 2, pos)
	c.emit(OpPop, 0, 0, pos)
	top := c.here()
	c.emit(OpConst, 0, 0, pos)
	c.emit(OpConst, 0, 0, pos)
	c.emit(OpBuiltin, builtinIndex["__alog_next"], 2, pos)
	toTrue := c.emit(OpJz, 0, 0, pos)
	c.cond(e.Args[1])
	toFalse := c.emit(OpJz, 0, 0, pos)
	c.emit(OpJmp, int32(top), 0, pos)
	c.patch(toFalse)
	c.emit(OpConst, 0, 0, pos)
	done := c.emit(OpJmp, 0, 0, pos)
	c.patch(toTrue)
	c.emit(OpConst, 0, 1, pos)
	c.patch(done)
	return tInt
}

// nondetCall compiles a call of a function declared but never defined in a
// file without main: its arguments are evaluated and dropped, and the call
// yields a value chosen like an input, of the declared return type.
func (c *compiler) nondetCall(d *syntax.Decl, e *syntax.Call) *Type {
	ft := c.resolve(d.Type)
	c.prog.bodiless = true
	ret := ft.Elem
	if strings.HasPrefix(d.Name, "__uninterpreted_function_") && ret != nil && ret.isArith() {
		// bugle's uninterpreted functions: one value per argument
		// list, in every thread and at every call site
		for _, a := range e.Args {
			c.expr(a)
		}
		h := uint64(14695981039346656037)
		for i := 0; i < len(d.Name); i++ {
			h = (h ^ uint64(d.Name[i])) * 1099511628211
		}
		c.emit(OpConst, 0, int64(h), e.Pos)
		c.emit(OpBuiltin, builtinIndex["__weft_uninterp"], int64(len(e.Args)+1), e.Pos)
		c.convert(tULong, ret, e.Pos)
		return ret
	}
	for _, a := range e.Args {
		c.expr(a)
		c.emit(OpPop, 0, 0, syntax.PosOf(a))
	}
	if ret == nil || ret.Kind == Void {
		c.emit(OpConst, 0, 0, e.Pos)
		return tVoid
	}
	if ret.Kind == Ptr || ret.Kind == Struct {
		// no object to point at: a null pointer, a zero struct is not
		// representable as a value here
		c.emit(OpConst, 0, 0, e.Pos)
		if ret.Kind == Struct {
			c.errorf(e.Pos, "C0309", "function %s returning a struct is declared but never defined", d.Name)
		}
		return ret
	}
	c.emit(OpBuiltin, builtinIndex["__weft_nondet"], 0, e.Pos)
	c.convert(tULong, ret, e.Pos)
	return ret
}

// isKernelOnly reports whether the translation unit has no main: bodiless
// functions then return chosen values instead of being an error.
func (c *compiler) isKernelOnly() bool { return c.funcs["main"] == nil }
