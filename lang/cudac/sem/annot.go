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
//   - an annotation whose condition mentions a two-thread or group
//     predicate (__uniform_*, __distinct_*, __same_group, __other_*,
//     __at_most_one, __all) or an access predicate (__read, __write,
//     __no_read, __no_write and their _implies/_offset forms) is not
//     evaluated: one thread cannot see the other thread's value nor the
//     access history as GPUVerify's two-thread abstraction does, so it holds
//     (no run is excluded, no assertion fails: never a false report;
//     docs/cudac.md, "Kernel-only verification", lists this as not
//     checked);
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
// another seed a value hashed from the seed, the call site, the thread and
// the machine's step count, so a loop on such a value ends.

const (
	annotTrue  = iota // evaluates its arguments and yields 1
	annotFirst        // yields its first argument
	annotZero         // yields 0
)

// annotPure are the annotations that are not checked (see above), with what
// they yield.
var annotPure = map[string]int{
	"__uniform_int": annotTrue, "__uniform_bool": annotTrue, "__uniform_unsigned": annotTrue,
	"__distinct_int": annotTrue, "__distinct_bool": annotTrue, "__distinct_unsigned": annotTrue,
	"__all": annotTrue, "__at_most_one": annotTrue, "__same_group": annotTrue,
	"__other_int": annotFirst, "__other_bool": annotFirst, "__other_unsigned": annotFirst,
	"__read": annotTrue, "__write": annotTrue, "__no_read": annotTrue, "__no_write": annotTrue,
	"__read_implies": annotTrue, "__write_implies": annotTrue, "__atomic_implies": annotTrue,
	"__read_offset_bytes": annotZero, "__write_offset_bytes": annotZero, "__ptr_offset_bytes": annotZero,
	"__read_offset": annotZero, "__write_offset": annotZero, "__ptr_base": annotZero,
	"__requires_fresh_array": annotTrue, "__ensures": annotTrue,
	"__return_val_int": annotZero, "__return_val_bool": annotZero, "__return_val_unsigned": annotZero,
	"__return_val_ptr": annotZero, "__return_val_float": annotZero, "__enabled": annotTrue,
	"__add_noovfl": annotTrue, "__add_noovfl_int": annotTrue, "__add_noovfl_unsigned": annotTrue,
}

func init() {
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
	builtinIndex["__builtin_memcpy"] = builtinIndex["memcpy"]
	builtinIndex["__builtin_memset"] = builtinIndex["memset"]

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
	defb("__weft_nondet", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// a chosen value is a change the thread sees: a loop on it is no
		// spin (spin.go assumes a thread's state determines its future)
		m.mver++
		if m.opts.NondetSeed == 0 {
			return ok(0)
		}
		h := uint64(m.opts.NondetSeed)*0x9e3779b97f4a7c15 ^ uint64(pos)*0xbf58476d1ce4e5b9 ^ m.steps*0xff51afd7ed558ccd
		if t.block != nil {
			h ^= (uint64(t.block.id)<<32 | uint64(uint32(t.tid))) * 0x94d049bb133111eb
		}
		h ^= h >> 31
		h *= 0xd6e8feb46ca43fa5
		h ^= h >> 29
		return ok(h)
	})
}

// annotState is the compiler's view of the function being compiled: the
// conditions of its __ensures and the slot that holds the returned value
// while they are evaluated.
type annotState struct {
	ensures   []*syntax.Call
	retSlot   int
	inEnsures bool
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
		if n, ok := call.Fun.(*syntax.Name); ok && n.Name == "__ensures" && !mentionsUnchecked(reflect.ValueOf(call.Args)) {
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
		c.expr(e.Args[0])
		c.emit(OpBuiltin, builtinIndex["__ensures_check"], 1, e.Pos)
		c.emit(OpPop, 0, 0, pos)
	}
	c.ann.inEnsures = false
}

// checkedAnnot are the annotations whose condition a run evaluates.
var checkedAnnot = map[string]bool{"__requires": true, "__assume": true, "__assert": true, "__invariant": true,
	"__global_invariant": true, "__function_wide_invariant": true}

// annotCall compiles an annotation whose condition cannot be evaluated by
// one thread (see above): its arguments are evaluated and dropped and it
// yields 1. It returns nil for any other call.
func (c *compiler) annotCall(name string, e *syntax.Call) *Type {
	if strings.HasPrefix(name, "__return_val") && c.ann.inEnsures {
		c.emit(OpLocal, int32(c.ann.retSlot), 0, e.Pos)
		return c.fn.Type.Elem
	}
	if name == "__requires" && c.fn != nil && !c.fn.Global && len(e.Args) == 1 && !mentionsUnchecked(reflect.ValueOf(e.Args)) {
		c.expr(e.Args[0])
		c.emit(OpBuiltin, builtinIndex["__requires_check"], 1, e.Pos)
		return tInt
	}
	if !checkedAnnot[name] || !mentionsUnchecked(reflect.ValueOf(e.Args)) {
		return nil
	}
	for _, a := range e.Args {
		c.expr(a)
		c.emit(OpPop, 0, 0, syntax.PosOf(a))
	}
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
		if call, ok := v.Interface().(*syntax.Call); ok {
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

// nondetCall compiles a call of a function declared but never defined in a
// file without main: its arguments are evaluated and dropped, and the call
// yields a value chosen like an input, of the declared return type.
func (c *compiler) nondetCall(d *syntax.Decl, e *syntax.Call) *Type {
	ft := c.resolve(d.Type)
	c.prog.bodiless = true
	for _, a := range e.Args {
		c.expr(a)
		c.emit(OpPop, 0, 0, syntax.PosOf(a))
	}
	ret := ft.Elem
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
