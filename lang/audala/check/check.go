package check

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/audala/syntax"
)

// reserved are names of the generated CUDA (spec §2.4, AuDaLaC's validator).
var reserved = map[string]bool{}

func init() {
	for _, n := range []string{"fprintf", "printf", "stable", "ATOMIC", "STORE", "LOAD", "WLOAD",
		"ACQLOAD", "WSTORE", "RELSTORE", "SetParam", "WSetParam", "RelSetParam", "FP_SET",
		"FP_READ", "FP_RESET", "executeStep"} {
		reserved[n] = true
	}
}

type checker struct {
	file  *diag.File
	diags *diag.List
	prog  *Program
	// per step
	step   *Step
	scopes []map[string]int // name -> local slot
}

// Check validates prog and returns its checked form, or nil after reporting
// errors to diags.
func Check(file *diag.File, prog *syntax.Program, diags *diag.List) *Program {
	c := &checker{file: file, diags: diags, prog: &Program{File: file}}
	before := len(diags.Diags)
	for _, l := range prog.Cpp {
		c.prog.Cpp = append(c.prog.Cpp, &InlineCpp{Pos: c.at(l.Pos), Text: l.Text, Global: true})
	}
	c.declare(prog)
	for i, s := range prog.Structs {
		if i < len(c.prog.Structs) && c.prog.Structs[i] != nil {
			c.steps(c.prog.Structs[i], s)
		}
	}
	c.prog.Schedule = c.schedule(prog.Schedule, 0)
	if hasError(diags.Diags[before:]) {
		return nil
	}
	return c.prog
}

func hasError(ds []*diag.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == diag.Error {
			return true
		}
	}
	return false
}

func (c *checker) at(off int) diag.Pos { return c.file.At(off) }

func (c *checker) errorf(off int, code, format string, args ...any) {
	c.diags.Errorf(c.at(off), code, format, args...)
}

func (c *checker) checkReserved(off int, name, what string) {
	if reserved[name] {
		c.errorf(off, "E012", "%s name %s is reserved", what, name)
	}
}

// declare creates the structs and their parameters (two passes, so
// parameter types may name structs declared later).
func (c *checker) declare(prog *syntax.Program) {
	seen := map[string]bool{}
	for i, s := range prog.Structs {
		c.checkReserved(s.Pos, s.Name, "struct")
		st := &Struct{Name: s.Name, Index: i, Pos: c.at(s.Pos)}
		if seen[s.Name] {
			c.errorf(s.Pos, "E001", "struct %s is defined twice", s.Name)
			st.Name = "" // unreachable by name; still checked
		}
		seen[s.Name] = true
		c.prog.Structs = append(c.prog.Structs, st)
	}
	for i, s := range prog.Structs {
		st := c.prog.Structs[i]
		pseen := map[string]bool{}
		for j, p := range s.Params {
			c.checkReserved(p.Pos, p.Name, "parameter")
			if pseen[p.Name] {
				c.errorf(p.Pos, "E003", "parameter %s of struct %s is defined twice", p.Name, s.Name)
			}
			pseen[p.Name] = true
			st.Params = append(st.Params, &Param{Name: p.Name, Type: c.typeOf(p.Type), Index: j, Owner: st, Pos: c.at(p.Pos)})
		}
		sseen := map[string]bool{}
		for _, sp := range s.Steps {
			c.checkReserved(sp.Pos, sp.Name, "step")
			if sp.Name == "print" {
				c.errorf(sp.Pos, "E012", "step name print is reserved for the built-in %s.print", s.Name)
			}
			if sseen[sp.Name] {
				c.errorf(sp.Pos, "E002", "step %s of struct %s is defined twice", sp.Name, s.Name)
			}
			sseen[sp.Name] = true
		}
	}
}

func (c *checker) typeOf(t *syntax.TypeName) Type {
	switch t.Name {
	case "Bool":
		return Type{Kind: Bool}
	case "Nat":
		return Type{Kind: Nat}
	case "Int":
		return Type{Kind: Int}
	}
	if s := c.prog.StructByName(t.Name); s != nil {
		return Type{Kind: Ref, Struct: s}
	}
	c.errorf(t.Pos, "E005", "undefined type %s", t.Name)
	return Type{}
}

func (c *checker) steps(st *Struct, s *syntax.Struct) {
	for _, sp := range s.Steps {
		step := &Step{Name: sp.Name, Owner: st, Pos: c.at(sp.Pos), Creates: map[*Struct]int{}}
		c.step = step
		params := map[string]int{}
		for _, p := range st.Params {
			params[p.Name] = -1
		}
		c.scopes = []map[string]int{params, {}}
		step.Body = c.stmts(sp.Body)
		c.scopes = nil
		if st.Step(sp.Name) == nil {
			st.Steps = append(st.Steps, step)
		}
	}
}

func (c *checker) stmts(list []syntax.Stmt) []Stmt {
	var out []Stmt
	for _, s := range list {
		if r := c.stmtOf(s); r != nil {
			out = append(out, r)
		}
	}
	return out
}

func (c *checker) lookup(name string) (slot int, ok bool) {
	for i := len(c.scopes) - 1; i >= 0; i-- {
		if s, ok := c.scopes[i][name]; ok {
			return s, true
		}
	}
	return 0, false
}

func (c *checker) stmtOf(s syntax.Stmt) Stmt {
	switch s := s.(type) {
	case *syntax.InlineCpp:
		// AuDaLaC accepts `$$` lines as statements and checks nothing in
		// them (its validator skips InlineCpp).
		l := &InlineCpp{Pos: c.at(s.Pos), Text: s.Text}
		c.prog.Cpp = append(c.prog.Cpp, l)
		return l
	case *syntax.If:
		cond := c.expr(s.Cond)
		if t := cond.Type(); t.Kind != Invalid && t.Kind != Bool {
			c.errorf(syntax.ExprPos(s.Cond), "E010", "if condition has type %s, want Bool", t)
		}
		c.scopes = append(c.scopes, map[string]int{})
		body := c.stmts(s.Body)
		c.scopes = c.scopes[:len(c.scopes)-1]
		return &If{Cond: cond, Body: body}
	case *syntax.Decl:
		c.checkReserved(s.Pos, s.Name, "variable")
		t := c.typeOf(s.Type)
		v := c.coerce(c.expr(s.Value), t, syntax.ExprPos(s.Value))
		if _, ok := c.lookup(s.Name); ok {
			c.errorf(s.Pos, "E004", "variable %s is already declared (AuDaLa has no shadowing)", s.Name)
		}
		slot := c.step.NumLocals
		c.step.NumLocals++
		c.step.Locals = append(c.step.Locals, t)
		c.scopes[len(c.scopes)-1][s.Name] = slot
		return &SetLocal{Slot: slot, Value: v}
	case *syntax.Assign:
		path := s.Target
		if len(path.Parts) == 1 {
			slot, ok := c.lookup(path.Parts[0])
			if ok && slot >= 0 {
				v := c.coerce(c.expr(s.Value), c.step.Locals[slot], syntax.ExprPos(s.Value))
				return &SetLocal{Slot: slot, Value: v}
			}
		}
		base, p := c.path(path, true)
		if p == nil {
			c.expr(s.Value)
			return nil
		}
		v := c.coerce(c.expr(s.Value), p.Type, syntax.ExprPos(s.Value))
		c.step.Written = appendParam(c.step.Written, p)
		if base != nil {
			c.step.ViaRef = appendParam(c.step.ViaRef, p)
		}
		return &SetParam{Base: base, Param: p, Value: v, Pos: c.at(path.Poss[len(path.Poss)-1])}
	}
	return nil
}

func appendParam(list []*Param, p *Param) []*Param {
	for _, q := range list {
		if q == p {
			return list
		}
	}
	return append(list, p)
}

// path resolves a.b.c. For a write target it returns the base instance
// expression (nil = this) and the final parameter; for a read the caller
// wraps it. A path of one local variable returns (Local, nil).
func (c *checker) path(path *syntax.Path, write bool) (base Expr, last *Param) {
	first := path.Parts[0]
	var cur Expr
	var curParam *Param
	slot, ok := c.lookup(first)
	switch {
	case !ok && first == "this" && len(path.Parts) > 1:
		// AuDaLaC's grammar has no this.p: a path starts with a variable
		// or an own parameter (spec §2.3), which is named alone.
		c.errorf(path.Poss[0], "E008", "undefined variable this: an own parameter is named alone (%s, not this.%s)", path.Parts[1], path.Parts[1])
		return nil, nil
	case !ok:
		c.errorf(path.Poss[0], "E008", "undefined variable %s", first)
		return nil, nil
	case slot >= 0:
		cur = &Local{Slot: slot, T: c.step.Locals[slot]}
	default:
		for _, p := range c.step.Owner.Params {
			if p.Name == first {
				curParam = p
			}
		}
	}
	for i := 1; i < len(path.Parts); i++ {
		// Materialise the previous part as the base of this one.
		var prev Expr = cur
		if curParam != nil {
			prev = &ReadParam{Base: cur, Param: curParam}
			if cur != nil {
				c.step.ViaRef = appendParam(c.step.ViaRef, curParam)
			}
		}
		t := prev.Type()
		if t.Kind == Invalid {
			return nil, nil
		}
		if t.Kind != Ref {
			c.errorf(path.Poss[i], "E006", "cannot access parameter %s: %s has type %s, not a struct reference", path.Parts[i], path.Parts[i-1], t)
			return nil, nil
		}
		var found *Param
		for _, p := range t.Struct.Params {
			if p.Name == path.Parts[i] {
				found = p
			}
		}
		if found == nil {
			c.errorf(path.Poss[i], "E006", "undefined parameter %s of struct %s", path.Parts[i], t.Struct.Name)
			return nil, nil
		}
		cur, curParam = prev, found
	}
	if curParam == nil {
		return cur, nil
	}
	return cur, curParam
}

func (c *checker) coerce(e Expr, to Type, off int) Expr {
	from := e.Type()
	if from.Kind == Invalid || to.Kind == Invalid {
		return e
	}
	switch {
	case from.Kind == to.Kind && (from.Kind != Ref || from.Struct == to.Struct):
		return e
	case from.Kind == Nat && to.Kind == Int:
		return &ToInt{X: e, Pos: c.at(off)}
	case from.Kind == Null && to.Kind == Ref:
		return &Const{T: to}
	}
	c.errorf(off, "E010", "type mismatch: cannot use %s value as %s", from, to)
	return e
}

var binOps = map[string]Op{"||": OpOr, "&&": OpAnd, "==": OpEq, "!=": OpNe, "<": OpLt, "<=": OpLe,
	">": OpGt, ">=": OpGe, "+": OpAdd, "-": OpSub, "*": OpMul, "/": OpDiv, "%": OpMod}

var invalid = &Const{T: Type{}}

func (c *checker) expr(e syntax.Expr) Expr {
	switch e := e.(type) {
	case *syntax.Paren:
		return c.expr(e.X)
	case *syntax.Lit:
		switch e.Kind {
		case syntax.NatLit:
			return &Const{T: Type{Kind: Nat}, Value: e.Value}
		case syntax.IntLit:
			return &Const{T: Type{Kind: Int}, Value: e.Value}
		}
		return &Const{T: Type{Kind: Bool}, Value: e.Value}
	case *syntax.Null:
		return &Const{T: Type{Kind: Null}}
	case *syntax.This:
		return &This{T: Type{Kind: Ref, Struct: c.step.Owner}}
	case *syntax.Not:
		x := c.expr(e.X)
		if t := x.Type(); t.Kind != Invalid && t.Kind != Bool {
			c.errorf(e.Pos, "E011", "invalid operand type %s for !", t)
			return invalid
		}
		return &Not{X: x}
	case *syntax.Path:
		base, p := c.path(e, false)
		if p == nil {
			if base == nil {
				return invalid
			}
			return base // a local variable
		}
		if base != nil {
			c.step.ViaRef = appendParam(c.step.ViaRef, p)
		}
		return &ReadParam{Base: base, Param: p}
	case *syntax.Cons:
		s := c.prog.StructByName(e.Struct)
		args := make([]Expr, len(e.Args))
		for i, a := range e.Args {
			args[i] = c.expr(a)
		}
		if s == nil {
			c.errorf(e.Pos, "E005", "undefined type %s in constructor", e.Struct)
			return invalid
		}
		if len(args) != len(s.Params) {
			c.errorf(e.Pos, "E009", "struct %s has %d parameters, constructed with %d arguments", s.Name, len(s.Params), len(args))
			return &Construct{Struct: s, Pos: c.at(e.Pos)}
		}
		for i, a := range args {
			args[i] = c.coerce(a, s.Params[i].Type, syntax.ExprPos(e.Args[i]))
		}
		s.Constructed = true
		c.step.Creates[s]++
		return &Construct{Struct: s, Args: args, Pos: c.at(e.Pos)}
	case *syntax.Binary:
		return c.binary(e)
	}
	return invalid
}

func (c *checker) binary(e *syntax.Binary) Expr {
	x, y := c.expr(e.X), c.expr(e.Y)
	op := binOps[e.Op]
	tx, ty := x.Type(), y.Type()
	if tx.Kind == Invalid || ty.Kind == Invalid {
		return invalid
	}
	bad := func() Expr {
		c.errorf(e.OpPos, "E011", "invalid operand types %s and %s for %s", tx, ty, e.Op)
		return invalid
	}
	b := &Binary{Op: op, X: x, Y: y, Pos: c.at(e.OpPos), T: Type{Kind: Bool}}
	refs := func() bool {
		// References compare by label (creation order); null coerces.
		switch {
		case tx.Kind == Ref && ty.Kind == Ref:
			return tx.Struct == ty.Struct
		case tx.Kind == Ref && ty.Kind == Null, tx.Kind == Null && ty.Kind == Ref, tx.Kind == Null && ty.Kind == Null:
			return true
		}
		return false
	}
	if tx.Kind == Ref && ty.Kind == Ref && tx.Struct != ty.Struct {
		// Settled for issue 17 (docs/audala.md, "Typing"): seed 003 gives
		// every instance its own label and every struct its own null label
		// (§3.1, Definitions 5-7), so a label of one struct never equals
		// one of another, whatever the instances: == and != would be
		// constants, and AuDaLaC's comparison of the array indices (A 1 ==
		// B 1) would contradict the seed. Rejected, as AuDaLaC's ordering
		// of references only makes sense within one struct.
		c.errorf(e.OpPos, "E011", "invalid operand types %s and %s for %s: references to different structs are never equal (every instance has its own label, seed 003 §3.1), so the comparison would be a constant", tx, ty, e.Op)
		return invalid
	}
	switch op {
	case OpOr, OpAnd:
		if tx.Kind != Bool || ty.Kind != Bool {
			return bad()
		}
	case OpEq, OpNe:
		if !(tx.IsNumber() && ty.IsNumber()) && !(tx.Kind == Bool && ty.Kind == Bool) && !refs() {
			return bad()
		}
	case OpLt, OpLe, OpGt, OpGe:
		if !(tx.IsNumber() && ty.IsNumber()) && !refs() {
			return bad()
		}
	default:
		if !tx.IsNumber() || !ty.IsNumber() {
			return bad()
		}
		b.T = Type{Kind: Nat}
		if tx.Kind == Int || ty.Kind == Int {
			b.T = Type{Kind: Int}
		}
	}
	return b
}

func (c *checker) schedule(s syntax.Sched, level int) []Sched {
	if level > c.prog.MaxFixDepth {
		c.prog.MaxFixDepth = level
	}
	switch s := s.(type) {
	case *syntax.Seq:
		var out []Sched
		for _, it := range s.Items {
			out = append(out, c.schedule(it, level)...)
		}
		return out
	case *syntax.Fix:
		return []Sched{&Fix{Body: c.schedule(s.Body, level+1), Level: level, Pos: c.at(s.Pos)}}
	case *syntax.Call:
		if s.Struct != "" {
			st := c.prog.StructByName(s.Struct)
			if st == nil {
				c.errorf(s.Pos, "E005", "undefined type %s in step call", s.Struct)
				return nil
			}
			if s.Step == "print" {
				return []Sched{&Print{Struct: st}}
			}
			if step := st.Step(s.Step); step != nil {
				return []Sched{&Call{Step: step}}
			}
			c.errorf(s.StepPos, "E007", "undefined step %s.%s", s.Struct, s.Step)
			return nil
		}
		// An untyped call runs the step of every struct defining it, one
		// step after another, in reverse declaration order as AuDaLaC does
		// (spec §2.6; the thesis is silent).
		var out []Sched
		for i := len(c.prog.Structs) - 1; i >= 0; i-- {
			if step := c.prog.Structs[i].Step(s.Step); step != nil {
				out = append(out, &Call{Step: step})
			}
		}
		if len(out) == 0 {
			if s.Step == "print" {
				c.errorf(s.Pos, "E007", "print must be called on a struct, as Struct.print")
			} else {
				c.errorf(s.Pos, "E007", "undefined step %s", s.Step)
			}
		}
		return out
	}
	return nil
}
