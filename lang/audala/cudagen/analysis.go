package cudagen

import "weft.dev/weft/lang/audala/check"

// access is how one step accesses one parameter.
type access int

const (
	weak   access = iota // plain loads and stores (ONRP, spec §5.9)
	atomic               // cuda::atomic_ref with the chosen memory order
	relacq               // atomic; release stores, acquire loads (fresh labels, §5.8)
)

// racing returns the parameters racing during st (spec §5.9): written by an
// assignment or by a constructor (which writes every parameter of the
// struct it creates) and accessed through a reference.
func racing(st *check.Step) map[*check.Param]bool {
	written := map[*check.Param]bool{}
	for _, p := range st.Written {
		written[p] = true
	}
	for s := range st.Creates {
		for _, p := range s.Params {
			written[p] = true
		}
	}
	out := map[*check.Param]bool{}
	for _, p := range st.ViaRef {
		if written[p] {
			out[p] = true
		}
	}
	return out
}

// freshCarrying returns the parameters that may hold a label created in
// the current step by another instance (spec §5.8's data-flow analysis of
// fresh labels): those assigned (or passed to a constructor) a value that
// is a constructor result, a local holding one, or a read of such a
// parameter. It is a flow-insensitive fixpoint over the whole program.
func freshCarrying(prog *check.Program) map[*check.Param]bool {
	fresh := map[*check.Param]bool{}
	for changed := true; changed; {
		changed = false
		for _, s := range prog.Structs {
			for _, st := range s.Steps {
				locals := map[int]bool{}
				// Locals first (to a fixpoint within the step), then params.
				for again := true; again; {
					again = false
					walkStmts(st.Body, func(stmt check.Stmt) {
						if sl, ok := stmt.(*check.SetLocal); ok && !locals[sl.Slot] && mayBeFresh(sl.Value, locals, fresh) {
							locals[sl.Slot], again = true, true
						}
					})
				}
				mark := func(p *check.Param, e check.Expr) {
					if !fresh[p] && mayBeFresh(e, locals, fresh) {
						fresh[p], changed = true, true
					}
				}
				walkStmts(st.Body, func(stmt check.Stmt) {
					switch stmt := stmt.(type) {
					case *check.SetParam:
						mark(stmt.Param, stmt.Value)
						walkExpr(stmt.Value, func(e check.Expr) { markCons(e, mark) })
						if stmt.Base != nil {
							walkExpr(stmt.Base, func(e check.Expr) { markCons(e, mark) })
						}
					case *check.SetLocal:
						walkExpr(stmt.Value, func(e check.Expr) { markCons(e, mark) })
					case *check.If:
						walkExpr(stmt.Cond, func(e check.Expr) { markCons(e, mark) })
					}
				})
			}
		}
	}
	return fresh
}

func markCons(e check.Expr, mark func(*check.Param, check.Expr)) {
	if c, ok := e.(*check.Construct); ok {
		for i, a := range c.Args {
			mark(c.Struct.Params[i], a)
		}
	}
}

func mayBeFresh(e check.Expr, locals map[int]bool, fresh map[*check.Param]bool) bool {
	switch e := e.(type) {
	case *check.Construct:
		return true
	case *check.Local:
		return locals[e.Slot]
	case *check.ReadParam:
		return fresh[e.Param]
	}
	return false
}

func walkStmts(list []check.Stmt, f func(check.Stmt)) {
	for _, s := range list {
		f(s)
		if i, ok := s.(*check.If); ok {
			walkStmts(i.Body, f)
		}
	}
}

func walkExpr(e check.Expr, f func(check.Expr)) {
	f(e)
	switch e := e.(type) {
	case *check.Not:
		walkExpr(e.X, f)
	case *check.ToInt:
		walkExpr(e.X, f)
	case *check.Binary:
		walkExpr(e.X, f)
		walkExpr(e.Y, f)
	case *check.ReadParam:
		if e.Base != nil {
			walkExpr(e.Base, f)
		}
	case *check.Construct:
		for _, a := range e.Args {
			walkExpr(a, f)
		}
	}
}
