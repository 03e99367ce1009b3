package sched

import (
	"fmt"

	"go.starlark.net/starlark"
	stsyntax "go.starlark.net/syntax"
)

// Allocation guards of a schedule script (issue 14: `[0]*1000000000`,
// repeated doubling and big-integer squaring ran out of memory or for
// minutes inside the step limit). The heap watcher (watch) sees memory only
// after it is allocated, and Starlark cannot be interrupted inside one
// operation, so the operators that make one large value in a single step
// are checked before they run: the script's syntax tree is rewritten so
// that every `x * y` and `x + y` (and `x *= y`, `x += y`) calls a
// predeclared guard that estimates the result's size, and every argument
// of a call passes a guard that refuses a range too long to materialize
// (`list(range(1 << 30))`). A result over the limit stops the script with
// a W0950 error at the operator naming --script-memory. Other builtins
// (str.join, list.extend of an existing list) are bounded by the heap
// watcher and the step limit.

const (
	guardMul = "__weft_mul"
	guardAdd = "__weft_add"
	guardAug = "__weft_aug_" // + "mul" / "add": check, return the right operand
	guardArg = "__weft_arg"
)

// limitError is the message of a guarded operation over the limit.
func limitError(what string, bytes, limit uint64) error {
	return fmt.Errorf("%s would take about %d bytes, more than the script's memory limit of %d bytes (--script-memory raises it)", what, bytes, limit)
}

// valueBytes estimates the memory of a value made of n elements like v's:
// 16 bytes an element of a list or tuple (an interface value), 1 a byte of
// a string.
func elemBytes(v starlark.Value) uint64 {
	switch v.(type) {
	case starlark.String, starlark.Bytes:
		return 1
	}
	return 16
}

func seqLen(v starlark.Value) (int, bool) {
	switch v := v.(type) {
	case starlark.String:
		return len(v), true
	case starlark.Bytes:
		return len(v), true
	case *starlark.List:
		return v.Len(), true
	case starlark.Tuple:
		return v.Len(), true
	}
	return 0, false
}

// intBits is the size of an integer in bits.
func intBits(i starlark.Int) uint64 {
	if _, ok := i.Int64(); ok {
		return 64
	}
	return uint64(i.BigInt().BitLen())
}

// checkMul refuses x * y whose result would exceed limit bytes. An
// integer product is limited to limit/32 bits (8 Mbit, 1 MB, with the
// default limit): squaring such a number takes a fraction of a second, and
// the step and time limits stop a loop of them.
func checkMul(x, y starlark.Value, limit uint64) error {
	if xi, ok := x.(starlark.Int); ok {
		if yi, ok := y.(starlark.Int); ok {
			if bits, max := intBits(xi)+intBits(yi), limit/32; bits > max {
				return fmt.Errorf("an integer product of %d bits exceeds the script's limit of %d bits for one integer (1/32 of its memory limit; --script-memory raises it)", bits, max)
			}
			return nil
		}
		x, y = y, x
	}
	n, ok := seqLen(x)
	k, isInt := y.(starlark.Int)
	if !ok || !isInt {
		return nil
	}
	times, ok := k.Uint64()
	if !ok || n == 0 {
		return nil // negative or zero count: an empty result
	}
	total := uint64(n) * elemBytes(x)
	if times > limit || total*times > limit {
		return limitError(fmt.Sprintf("repeating a %s of %d elements %d times", x.Type(), n, times), satMul(total, times), limit)
	}
	return nil
}

func satMul(a, b uint64) uint64 {
	if b != 0 && a > ^uint64(0)/b {
		return ^uint64(0)
	}
	return a * b
}

// checkAdd refuses a concatenation x + y whose result would exceed limit.
func checkAdd(x, y starlark.Value, limit uint64) error {
	n, ok1 := seqLen(x)
	m, ok2 := seqLen(y)
	if !ok1 || !ok2 {
		return nil
	}
	if b := uint64(n+m) * elemBytes(x); b > limit {
		return limitError(fmt.Sprintf("concatenating two values of %d and %d elements", n, m), b, limit)
	}
	return nil
}

// guardBuiltins are the predeclared functions the rewritten script calls.
func guardBuiltins(limit uint64) starlark.StringDict {
	bin := func(name string, op stsyntax.Token, check func(x, y starlark.Value, limit uint64) error, aug bool) *starlark.Builtin {
		return starlark.NewBuiltin(name, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			x, y := args[0], args[1]
			if err := check(x, y, limit); err != nil {
				return nil, err
			}
			if aug {
				return y, nil
			}
			return starlark.Binary(op, x, y)
		})
	}
	universalInt := starlark.Universe["int"].(*starlark.Builtin)
	return starlark.StringDict{
		// int(s) of a long decimal string takes time quadratic in its
		// length inside one step (1M digits: seconds), so the string is
		// limited to limit/256 characters (1 Mi with the default limit).
		"int": starlark.NewBuiltin("int", func(th *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) > 0 {
				if s, ok := args[0].(starlark.String); ok && uint64(len(s)) > limit/256 {
					return nil, fmt.Errorf("int() of a string of %d characters exceeds the script's limit of %d characters (1/256 of its memory limit; --script-memory raises it)", len(s), limit/256)
				}
			}
			return starlark.Call(th, universalInt, args, kwargs)
		}),
		guardMul:         bin(guardMul, stsyntax.STAR, checkMul, false),
		guardAdd:         bin(guardAdd, stsyntax.PLUS, checkAdd, false),
		guardAug + "mul": bin(guardAug+"mul", stsyntax.STAR, checkMul, true),
		guardAug + "add": bin(guardAug+"add", stsyntax.PLUS, checkAdd, true),
		guardArg: starlark.NewBuiltin(guardArg, func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, _ []starlark.Tuple) (starlark.Value, error) {
			v := args[0]
			if v.Type() == "range" {
				if n := starlark.Len(v); n > 0 && uint64(n)*16 > limit {
					return nil, limitError(fmt.Sprintf("materializing a range of %d elements", n), uint64(n)*16, limit)
				}
			}
			return v, nil
		}),
	}
}

// guardFile rewrites f's operators and call arguments to call the guards.
func guardFile(f *stsyntax.File) {
	g := guarder{}
	g.stmts(f.Stmts)
}

type guarder struct{}

func call(name string, pos stsyntax.Position, args ...stsyntax.Expr) *stsyntax.CallExpr {
	return &stsyntax.CallExpr{Fn: &stsyntax.Ident{NamePos: pos, Name: name}, Lparen: pos, Args: args, Rparen: pos}
}

func (g guarder) stmts(ss []stsyntax.Stmt) {
	for _, s := range ss {
		g.stmt(s)
	}
}

func (g guarder) stmt(s stsyntax.Stmt) {
	switch s := s.(type) {
	case *stsyntax.AssignStmt:
		s.LHS = g.expr(s.LHS)
		s.RHS = g.expr(s.RHS)
		if id, ok := s.LHS.(*stsyntax.Ident); ok && (s.Op == stsyntax.STAR_EQ || s.Op == stsyntax.PLUS_EQ) {
			name := guardAug + "mul"
			if s.Op == stsyntax.PLUS_EQ {
				name = guardAug + "add"
			}
			s.RHS = call(name, s.OpPos, &stsyntax.Ident{NamePos: id.NamePos, Name: id.Name}, s.RHS)
		}
	case *stsyntax.DefStmt:
		for _, p := range s.Params {
			if b, ok := p.(*stsyntax.BinaryExpr); ok && b.Op == stsyntax.EQ {
				b.Y = g.expr(b.Y)
			}
		}
		g.stmts(s.Body)
	case *stsyntax.ExprStmt:
		s.X = g.expr(s.X)
	case *stsyntax.IfStmt:
		s.Cond = g.expr(s.Cond)
		g.stmts(s.True)
		g.stmts(s.False)
	case *stsyntax.ForStmt:
		s.X = g.expr(s.X)
		g.stmts(s.Body)
	case *stsyntax.WhileStmt:
		s.Cond = g.expr(s.Cond)
		g.stmts(s.Body)
	case *stsyntax.ReturnStmt:
		if s.Result != nil {
			s.Result = g.expr(s.Result)
		}
	}
}

func (g guarder) exprs(es []stsyntax.Expr) {
	for i, e := range es {
		es[i] = g.expr(e)
	}
}

func (g guarder) expr(e stsyntax.Expr) stsyntax.Expr {
	switch e := e.(type) {
	case *stsyntax.BinaryExpr:
		e.X, e.Y = g.expr(e.X), g.expr(e.Y)
		switch e.Op {
		case stsyntax.STAR:
			return call(guardMul, e.OpPos, e.X, e.Y)
		case stsyntax.PLUS:
			return call(guardAdd, e.OpPos, e.X, e.Y)
		}
	case *stsyntax.CallExpr:
		e.Fn = g.expr(e.Fn)
		for i, a := range e.Args {
			switch a := a.(type) {
			case *stsyntax.BinaryExpr:
				if a.Op == stsyntax.EQ { // name=value
					a.Y = g.arg(g.expr(a.Y))
					continue
				}
			case *stsyntax.UnaryExpr:
				if a.Op == stsyntax.STAR || a.Op == stsyntax.STARSTAR {
					if a.X != nil {
						a.X = g.expr(a.X)
					}
					continue
				}
			}
			e.Args[i] = g.arg(g.expr(a))
		}
	case *stsyntax.UnaryExpr:
		if e.X != nil {
			e.X = g.expr(e.X)
		}
	case *stsyntax.ParenExpr:
		e.X = g.expr(e.X)
	case *stsyntax.DotExpr:
		e.X = g.expr(e.X)
	case *stsyntax.IndexExpr:
		e.X, e.Y = g.expr(e.X), g.expr(e.Y)
	case *stsyntax.SliceExpr:
		e.X = g.expr(e.X)
		for _, p := range []*stsyntax.Expr{&e.Lo, &e.Hi, &e.Step} {
			if *p != nil {
				*p = g.expr(*p)
			}
		}
	case *stsyntax.ListExpr:
		g.exprs(e.List)
	case *stsyntax.TupleExpr:
		g.exprs(e.List)
	case *stsyntax.DictExpr:
		for _, d := range e.List {
			if d, ok := d.(*stsyntax.DictEntry); ok {
				d.Key, d.Value = g.expr(d.Key), g.expr(d.Value)
			}
		}
	case *stsyntax.CondExpr:
		e.Cond, e.True, e.False = g.expr(e.Cond), g.expr(e.True), g.expr(e.False)
	case *stsyntax.LambdaExpr:
		e.Body = g.expr(e.Body)
	case *stsyntax.Comprehension:
		e.Body = g.expr(e.Body)
		for _, c := range e.Clauses {
			switch c := c.(type) {
			case *stsyntax.ForClause:
				c.X = g.expr(c.X)
			case *stsyntax.IfClause:
				c.Cond = g.expr(c.Cond)
			}
		}
	}
	return e
}

// arg wraps a call argument in the range guard.
func (g guarder) arg(e stsyntax.Expr) stsyntax.Expr {
	if _, ok := e.(*stsyntax.Literal); ok {
		return e
	}
	start, _ := e.Span()
	return call(guardArg, start, e)
}
