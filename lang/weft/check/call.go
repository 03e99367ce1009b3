package check

import (
	"fmt"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// call checks a proc or instruction call: callee, arity, and each
// argument's kind, data type, memory and static shape (seed 000 §3.3).
func (c *checker) call(s *syntax.CallStmt) {
	call := s.Call
	if call == nil {
		return
	}
	name := call.FunName()
	if name == "" {
		c.errs.Errorf(call.Pos(), "W0212", "call target must be a proc or instruction name")
		return
	}
	callee := c.lookupProc(name)
	if callee == nil {
		if sym := c.lookupQuiet(name); sym != nil {
			c.errs.Errorf(call.Fun.Pos(), "W0212", "%s is %s, not a proc or instruction", name, sym.Kind.A())
		} else {
			c.errs.Errorf(call.Fun.Pos(), "W0212", "unknown proc or instruction %s%s", name, didYouMean(name, c.prog.names()))
		}
		for _, a := range call.Args {
			c.anyExpr(a)
		}
		for _, k := range call.Kwargs {
			if n, ok := k.Value.(*syntax.Name); ok && lib.IsDataType(n.Name) {
				continue // a type binding dst=f32 (Exo's instruction calls)
			}
			c.anyExpr(k.Value)
		}
		return
	}
	if !c.lean {
		if c.proc.Callees == nil {
			c.proc.Callees = map[*syntax.Call]*Proc{}
		}
		c.proc.Callees[call] = callee
	}
	params := callee.Decl.Params
	var template []string
	if callee.Instr != nil {
		template = callee.Instr.Template
	}
	bound, problems := bindArgs(c.exprSlab(len(params)), params, call, template)
	c.exoKwargs(call, params, template, bound)
	for _, pr := range problems {
		c.errs.Errorf(pr.Pos, "W0213", "%s", pr.Msg)
	}
	for _, a := range problems {
		if a.Expr != nil {
			c.anyExpr(a.Expr)
		}
	}
	if !c.lean {
		if c.proc.Args == nil {
			c.proc.Args = map[*syntax.Call][]syntax.Expr{}
		}
		c.proc.Args[call] = bound
	}
	// Control arguments, for evaluating the callee's dimensions.
	var env callEnv
	for i, psym := range callee.Params {
		if int(psym.Param) < len(bound) && bound[psym.Param] != nil && psym.Kind.Control() {
			env = append(env, envEntry{psym.Name, bound[i]})
		}
	}
	// A proc's modes by parameter position (stop 44: AccessModes' map
	// by name, made at every call).
	var modes []string
	if callee.Instr == nil {
		modes = lib.ParamModes(callee.Decl)
	}
	for k, psym := range callee.Params {
		if int(psym.Param) >= len(bound) || bound[psym.Param] == nil {
			continue
		}
		mode := ""
		if callee.modes != nil {
			mode = callee.modes[k] // libParamFacts
		} else if callee.Instr != nil {
			if a := callee.Instr.Access[psym.Name]; a != nil {
				mode = a.Mode
			}
		} else {
			mode = modes[psym.Param]
		}
		c.arg(name, callee, psym, bound[psym.Param], env, mode)
	}
	for _, b := range s.Barriers {
		if callee.Instr == nil {
			c.errs.Errorf(b.Pos(), "W0218", "only instruction calls complete on barriers (>> %s)", describe(b))
		}
		z := c.barrierUse(b, false)
		if z == nil || callee.Instr == nil || callee.Instr.Barrier == "" {
			continue
		}
		// The instruction's completion mechanism π_z (seed 000 Fig. 2).
		if m := c.lib.Barriers[z.Mem]; m != nil && !m.DerivesFrom(callee.Instr.Barrier) {
			c.errs.Errorf(b.Pos(), "W0215", "%s completes on %s barriers, %s is a %s", name, callee.Instr.Barrier, z.Name, m.Name)
		}
	}
	if callee.Instr != nil && callee.Instr.Barrier != "" && len(s.Barriers) == 0 {
		c.errs.Errorf(call.Pos(), "W0218", "%s completes on a %s barrier: write %s(...) >> z", name, callee.Instr.Barrier, name)
	}
}

// lookupProc is c.prog.Lookup(name) while the file's procs are few: a
// scan of Procs by name, not a lookup of ByName (stop 43: a map lookup,
// a miss, of every call of a library proc). check enters each proc in
// Procs and ByName together, under its name, and a name's first
// declaration only (the second is W0202 and in neither), so the two
// hold the same procs by the same names; the library's lookup follows
// as in Lookup.
func (c *checker) lookupProc(name string) *Proc {
	if len(c.prog.Procs) > 4 {
		return c.prog.Lookup(name)
	}
	for _, p := range c.prog.Procs {
		if p.Name == name {
			return p
		}
	}
	return c.prog.libProcs.get(name)
}

// anyExpr resolves names in an expression of unknown role, so undefined
// names are still reported.
func (c *checker) anyExpr(e syntax.Expr) {
	switch e := e.(type) {
	case *syntax.Name:
		if c.lookup(e) == nil {
			c.errs.Errorf(e.Pos(), "W0201", "undefined: %s", e.Name)
		}
	case *syntax.Index:
		c.anyExpr(e.X)
		for _, i := range e.Indices {
			c.anyExpr(i)
		}
	case *syntax.Slice:
		if e.Lo != nil {
			c.anyExpr(e.Lo)
		}
		if e.Hi != nil {
			c.anyExpr(e.Hi)
		}
	case *syntax.Binary:
		c.anyExpr(e.X)
		c.anyExpr(e.Y)
	case *syntax.Unary:
		c.anyExpr(e.X)
	}
}

func (c *checker) arg(callName string, callee *Proc, p *Symbol, a syntax.Expr, env callEnv, mode string) {
	switch p.Kind {
	case KindSize, KindIndex, KindStride:
		c.control(a)
		if v, ok := c.constValue(a); ok && v <= 0 && p.Kind == KindSize {
			c.errs.Errorf(a.Pos(), "W0214", "size %s of %s must be positive, got %d", p.Name, callName, v)
		}
	case KindBool:
		c.boolean(a)
	case KindBarrier:
		if z := c.barrierUse(a, false); z != nil && p.Mem != "" {
			if b := c.lib.Barriers[z.Mem]; b != nil && !b.DerivesFrom(p.Mem) {
				c.errs.Errorf(a.Pos(), "W0215", "%s of %s needs a %s barrier, %s is a %s", p.Name, callName, p.Mem, z.Name, z.Mem)
			}
		}
	case KindScalar:
		if _, isAccess := a.(*syntax.Name); !isAccess {
			if _, isIndex := a.(*syntax.Index); !isIndex {
				if mode == "r" || mode == "" {
					c.data(a)
					return
				}
				c.errs.Errorf(a.Pos(), "W0214", "%s of %s is written: its argument must be a data access, not %s", p.Name, callName, describe(a))
				c.data(a)
				return
			}
		}
		sym := c.access(a, false)
		if sym == nil {
			return
		}
		c.sameElem(callName, callee, p, sym, a)
		c.sameMem(callName, p, sym, a)
		c.argPerm(callee, sym, a, mode)
	case KindTensor, KindWindow:
		base, dims := c.extentsOf(a)
		if base == nil {
			if _, ok := a.(*syntax.Name); !ok {
				if _, ok := a.(*syntax.Index); !ok {
					c.errs.Errorf(a.Pos(), "W0214", "%s of %s is a tensor: pass a tensor or a window, not %s", p.Name, callName, describe(a))
					c.anyExpr(a)
				}
			}
			return
		}
		if !base.Kind.Data() {
			c.errs.Errorf(a.Pos(), "W0214", "%s of %s is a tensor, %s is %s", p.Name, callName, base.Name, base.Kind.A())
			return
		}
		c.sameElem(callName, callee, p, base, a)
		if len(dims) != len(p.Dims) {
			c.errs.Errorf(a.Pos(), "W0216", "%s of %s has %d dimensions, the argument %s has %d", p.Name, callName, len(p.Dims), describe(a), len(dims))
		} else {
			for i := range dims {
				want, ok1 := c.evalWith(p.Dims[i], env)
				got, ok2 := c.constValue(dims[i])
				if ok1 && ok2 && want != got {
					c.errs.Errorf(a.Pos(), "W0216", "dimension %d of %s of %s is %d, the argument's is %d", i, p.Name, callName, want, got)
				}
			}
		}
		c.sameMem(callName, p, base, a)
		c.argPerm(callee, base, a, mode)
	}
}

// extentsOf is window(a) for arg, which reads the extents' values only
// (len(dims) and constValue of each) and keeps neither the list nor its
// literals: slice takes them from c.ext (intLit), Text left empty, and
// the next argument takes the same slots. Text is read by no one here
// (constValue reads Value; the diagnostics print constValue's numbers and
// describe(a), the argument's own text), so the checks and their
// messages are window's.
func (c *checker) extentsOf(a syntax.Expr) (*Symbol, []syntax.Expr) {
	c.extents, c.nExt = true, 0
	base, dims := c.window(a)
	c.extents = false
	return base, dims
}

// callee is c.prog.Lookup(callName), which call resolved already (two more
// lookups by name per generic argument, stop 37).
func (c *checker) sameElem(callName string, callee *Proc, p, sym *Symbol, a syntax.Expr) {
	if p.Type != nil && p.Type.Elem != nil && p.Type.Elem.Name == lib.RealType && callee.Instr != nil {
		// An instruction's R parameter is generic, as in Exo's instr
		// classes: any data type, fixed per call by the argument (and a
		// type binding `p=T`, checked by exoKwargs).
		return
	}
	if p.Elem != "" && sym.Elem != "" && p.Elem != sym.Elem {
		c.errs.Errorf(a.Pos(), "W0214", "%s of %s is %s, the argument %s is %s", p.Name, callName, p.Elem, sym.Name, sym.Elem)
	}
}

// sameMem checks that the argument's memory derives from the parameter's
// (a parameter @ CudaDeviceVisibleLinear accepts CudaGmemLinear and
// CudaSmemLinear), and that special windows go to parameters of that type.
func (c *checker) sameMem(callName string, p, sym *Symbol, a syntax.Expr) {
	if p.Mem == "" {
		return
	}
	if sym.Special {
		if p.Mem != sym.Mem {
			c.errs.Errorf(a.Pos(), "W0215", "%s of %s is @ %s, the argument %s is a %s window", p.Name, callName, p.Mem, sym.Name, sym.Mem)
		}
		return
	}
	win := p.winMem == winMemYes // libParamFacts
	if p.winMem == winMemUnknown {
		win = c.lib.Windows[p.Mem] != nil
	}
	if win {
		c.errs.Errorf(a.Pos(), "W0215", "%s of %s needs a %s window (a window statement `x = y[...] @ %s(...)`)", p.Name, callName, p.Mem, p.Mem)
		return
	}
	m := sym.Memory(c.lib)
	if m == nil {
		return
	}
	if !m.DerivesFrom(p.Mem) {
		c.errs.Errorf(a.Pos(), "W0215", "%s of %s is @ %s, the argument %s is in %s", p.Name, callName, p.Mem, sym.Name, m.Name)
	}
}

// argPerm checks the memory permissions of an instruction's access (seed
// 002: instruction parameters in CudaAsync blocks use their own column).
func (c *checker) argPerm(callee *Proc, sym *Symbol, a syntax.Expr, mode string) {
	if callee.Instr == nil {
		return
	}
	if mode == "r" || mode == "rw" {
		c.permitAs(sym, 'r', a.Pos(), true)
	}
	if mode == "w" || mode == "rw" {
		c.permitAs(sym, 'w', a.Pos(), true)
	}
}

// callEnv binds a callee's control parameters to the caller's argument
// expressions: a call has a few, so a list searched from its end (the
// last binding of a name wins, as in the map it replaced) instead of a map
// made per call (stop 31).
type callEnv []envEntry

type envEntry struct {
	name string
	arg  syntax.Expr
}

func (env callEnv) lookup(name string) (syntax.Expr, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if env[i].name == name {
			return env[i].arg, true
		}
	}
	return nil, false
}

// evalWith folds e where names bound in env stand for the caller's
// argument expressions.
func (c *checker) evalWith(e syntax.Expr, env callEnv) (int64, bool) {
	switch e := e.(type) {
	case *syntax.Name:
		if a, ok := env.lookup(e.Name); ok {
			return c.constValue(a)
		}
		if g := c.globals.get(e.Name); g != nil && g.Kind == KindConst {
			return g.Value, true
		}
		return 0, false
	case *syntax.IntLit:
		return e.Value, true
	case *syntax.Unary:
		if v, ok := c.evalWith(e.X, env); ok && e.Op == "-" {
			return -v, true
		}
	case *syntax.Binary:
		x, ok1 := c.evalWith(e.X, env)
		y, ok2 := c.evalWith(e.Y, env)
		if ok1 && ok2 {
			return arith(e.Op, x, y)
		}
	}
	return 0, false
}

// BindProblem is an argument that BindArgs could not bind.
type BindProblem struct {
	Pos  diag.Pos
	Msg  string
	Expr syntax.Expr // the unbound argument, if any
}

// BindArgs binds a call's arguments to params: keyword arguments by name,
// then positional arguments to the parameters not given by keyword, in
// order. This is how the seeds call instructions whose size parameter comes
// first: Sm80_cp_async_f32(smem[4:8], gmem[4:8], size=4) for
// Sm80_cp_async_f32(size, smem, gmem) (seed 002 "Async blocks"). The result
// has one entry per parameter (nil where an argument is missing).
//
// Two kinds of keyword arguments of Exo's printed instruction calls bind no
// parameter and are skipped (package check validates them): a keyword
// naming one of template (the callee's template parameters, e.g.
// smem_box=(248, 32), swizzle=128), and a type binding `p=T` where p is a
// data parameter and T a data type (`dst=f32`: the element type of Exo's
// generic R parameter p).
func BindArgs(params []*syntax.Param, call *syntax.Call, template ...string) ([]syntax.Expr, []BindProblem) {
	return bindArgs(make([]syntax.Expr, len(params)), params, call, template)
}

// BindArgsInto is BindArgs binding into buf when it holds len(params)
// entries (a new list otherwise): the result is buf's, valid until the
// caller's next use of buf. gpucheck binds every instruction call so,
// without a list of its own per call (issue 13, stop 46).
func BindArgsInto(buf []syntax.Expr, params []*syntax.Param, call *syntax.Call, template ...string) ([]syntax.Expr, []BindProblem) {
	if len(params) > len(buf) {
		return BindArgs(params, call, template...)
	}
	bound := buf[:len(params)]
	clear(bound)
	return bindArgs(bound, params, call, template)
}

// bindArgs is BindArgs binding into bound (len(params) nil entries): the
// checker carves it from its slab (exprSlab), not a slice of its own per
// call (stop 41).
func bindArgs(bound []syntax.Expr, params []*syntax.Param, call *syntax.Call, template []string) ([]syntax.Expr, []BindProblem) {
	var probs []BindProblem
	name := call.FunName()
	for _, k := range call.Kwargs {
		if isTemplateKwarg(k, template) || isTypeBinding(k, params) {
			continue
		}
		idx := -1
		for i, p := range params {
			if p != nil && p.Name != nil && p.Name.Name == k.Name.Name {
				idx = i
			}
		}
		switch {
		case idx < 0:
			probs = append(probs, BindProblem{k.Pos(), fmt.Sprintf("%s has no parameter %s", name, k.Name.Name), k.Value})
		case bound[idx] != nil:
			probs = append(probs, BindProblem{k.Pos(), fmt.Sprintf("argument %s given twice", k.Name.Name), nil})
		default:
			bound[idx] = k.Value
		}
	}
	next := 0
	for _, a := range call.Args {
		for next < len(bound) && bound[next] != nil {
			next++
		}
		if next == len(bound) {
			probs = append(probs, BindProblem{a.Pos(), fmt.Sprintf("%s takes %d arguments, got %d", name, len(params), len(call.Args)+valueKwargs(call, params, template)), a})
			continue
		}
		bound[next] = a
		next++
	}
	for i, p := range params {
		if bound[i] == nil && p != nil && p.Name != nil {
			probs = append(probs, BindProblem{call.Pos(), fmt.Sprintf("missing argument %s of %s", p.Name.Name, name), nil})
		}
	}
	return bound, probs
}

func isTemplateKwarg(k *syntax.Kwarg, template []string) bool {
	for _, t := range template {
		if k.Name.Name == t {
			return true
		}
	}
	return false
}

// isTypeBinding reports whether k is `p=T` with p a data parameter of
// params and T a data type name.
func isTypeBinding(k *syntax.Kwarg, params []*syntax.Param) bool {
	n, ok := k.Value.(*syntax.Name)
	if !ok || !lib.IsDataType(n.Name) {
		return false
	}
	for _, p := range params {
		if p != nil && p.Name != nil && p.Name.Name == k.Name.Name && p.Type != nil && p.Type.Elem != nil && lib.IsDataType(p.Type.Elem.Name) {
			return true
		}
	}
	return false
}

func valueKwargs(call *syntax.Call, params []*syntax.Param, template []string) int {
	n := 0
	for _, k := range call.Kwargs {
		if !isTemplateKwarg(k, template) && !isTypeBinding(k, params) {
			n++
		}
	}
	return n
}
