package sched

import (
	"reflect"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/syntax"
)

// Tree utilities: deep copies (each rewrite works on a copy of the proc and
// commits it only when every precondition held), substitution of control
// variables, and walks.

var diagFileType = reflect.TypeOf((*diag.File)(nil))

// deepCopy copies a syntax tree. Positions (and the *diag.File they point
// to) are shared: a copied statement still points at its source line, so
// notes can show it.
func deepCopy(v reflect.Value) reflect.Value { return deepCopyRec(v, nil) }

var stmtType = reflect.TypeOf((*syntax.Stmt)(nil)).Elem()

// deepCopyRec is deepCopy that records, when rec is non-nil, the copy of
// every statement (rec[original] = copy): cursors are forwarded through
// these maps (cursor.go).
func deepCopyRec(v reflect.Value, rec map[syntax.Stmt]syntax.Stmt) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type() == diagFileType {
			return v
		}
		n := reflect.New(v.Type().Elem())
		n.Elem().Set(deepCopyRec(v.Elem(), rec))
		if rec != nil && v.Type().Implements(stmtType) {
			rec[v.Interface().(syntax.Stmt)] = n.Interface().(syntax.Stmt)
		}
		return n
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		c := deepCopyRec(v.Elem(), rec)
		n := reflect.New(v.Type()).Elem()
		n.Set(c)
		return n
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			n.Index(i).Set(deepCopyRec(v.Index(i), rec))
		}
		return n
	case reflect.Struct:
		n := reflect.New(v.Type()).Elem()
		n.Set(v) // unexported fields (positions) by value
		for i := 0; i < v.NumField(); i++ {
			if n.Field(i).CanSet() {
				n.Field(i).Set(deepCopyRec(v.Field(i), rec))
			}
		}
		return n
	}
	return v
}

func cloneExpr(e syntax.Expr) syntax.Expr {
	if e == nil {
		return nil
	}
	return deepCopy(reflect.ValueOf(&e).Elem()).Interface().(syntax.Expr)
}

func cloneStmt(s syntax.Stmt) syntax.Stmt {
	return deepCopy(reflect.ValueOf(&s).Elem()).Interface().(syntax.Stmt)
}

func cloneStmts(ss []syntax.Stmt) []syntax.Stmt {
	out := make([]syntax.Stmt, len(ss))
	for i, s := range ss {
		out[i] = cloneStmt(s)
	}
	return out
}

func cloneProc(p *syntax.Proc) *syntax.Proc {
	return deepCopy(reflect.ValueOf(p)).Interface().(*syntax.Proc)
}

// cloneProcRec is cloneProc recording every statement's copy.
func cloneProcRec(p *syntax.Proc, rec map[syntax.Stmt]syntax.Stmt) *syntax.Proc {
	return deepCopyRec(reflect.ValueOf(p), rec).Interface().(*syntax.Proc)
}

// cloneStmtsRec is cloneStmts recording every statement's copy.
func cloneStmtsRec(ss []syntax.Stmt, rec map[syntax.Stmt]syntax.Stmt) []syntax.Stmt {
	out := make([]syntax.Stmt, len(ss))
	for i, s := range ss {
		out[i] = deepCopyRec(reflect.ValueOf(&s).Elem(), rec).Interface().(syntax.Stmt)
	}
	return out
}

// substExpr returns e with every use of the control variable name replaced
// by r (a fresh copy per use). Normalizing is left to the caller.
func substExpr(e syntax.Expr, name string, r syntax.Expr) syntax.Expr {
	switch x := e.(type) {
	case nil:
		return nil
	case *syntax.Name:
		if x.Name == name {
			return cloneExpr(r)
		}
		return x
	case *syntax.Binary:
		x.X = substExpr(x.X, name, r)
		x.Y = substExpr(x.Y, name, r)
	case *syntax.Unary:
		x.X = substExpr(x.X, name, r)
	case *syntax.Index:
		x.X = substExpr(x.X, name, r)
		for i := range x.Indices {
			x.Indices[i] = substExpr(x.Indices[i], name, r)
		}
	case *syntax.Slice:
		x.Lo = substExpr(x.Lo, name, r)
		x.Hi = substExpr(x.Hi, name, r)
	case *syntax.Call:
		for i := range x.Args {
			x.Args[i] = substExpr(x.Args[i], name, r)
		}
		for _, k := range x.Kwargs {
			k.Value = substExpr(k.Value, name, r)
		}
	case *syntax.List:
		for i := range x.Elems {
			x.Elems[i] = substExpr(x.Elems[i], name, r)
		}
	case *syntax.Tuple:
		for i := range x.Elems {
			x.Elems[i] = substExpr(x.Elems[i], name, r)
		}
	}
	return e
}

// substStmts replaces the control variable name by r in a statement list,
// stopping below a loop that rebinds name.
func substStmts(ss []syntax.Stmt, name string, r syntax.Expr) {
	for _, s := range ss {
		substStmt(s, name, r)
	}
}

func substStmt(s syntax.Stmt, name string, r syntax.Expr) {
	switch s := s.(type) {
	case *syntax.Alloc:
		for i := range s.Type.Dims {
			s.Type.Dims[i] = substExpr(s.Type.Dims[i], name, r)
		}
	case *syntax.Assign:
		s.LHS = substExpr(s.LHS, name, r)
		s.RHS = substExpr(s.RHS, name, r)
	case *syntax.For:
		s.Lo = substExpr(s.Lo, name, r)
		s.Hi = substExpr(s.Hi, name, r)
		if s.Var.Name != name {
			substStmts(s.Body, name, r)
		}
	case *syntax.If:
		s.Cond = substExpr(s.Cond, name, r)
		substStmts(s.Then, name, r)
		substStmts(s.Else, name, r)
	case *syntax.With:
		s.Ctx = substExpr(s.Ctx, name, r)
		substStmts(s.Body, name, r)
	case *syntax.CallStmt:
		substExpr(s.Call, name, r)
		for i := range s.Barriers {
			s.Barriers[i] = substExpr(s.Barriers[i], name, r)
		}
	case *syntax.Fence:
	case *syntax.Arrive:
		s.N = substExpr(s.N, name, r)
		for i := range s.Barriers {
			s.Barriers[i] = substExpr(s.Barriers[i], name, r)
		}
	case *syntax.Await:
		s.Bar = substExpr(s.Bar, name, r)
		s.N = substExpr(s.N, name, r)
	case *syntax.Assert:
		s.Cond = substExpr(s.Cond, name, r)
	}
}

// children returns the statement lists directly inside s.
func children(s syntax.Stmt) [][]syntax.Stmt {
	switch s := s.(type) {
	case *syntax.For:
		return [][]syntax.Stmt{s.Body}
	case *syntax.If:
		return [][]syntax.Stmt{s.Then, s.Else}
	case *syntax.With:
		return [][]syntax.Stmt{s.Body}
	}
	return nil
}

// walkStmts calls f on every statement of ss, depth first, in source order.
func walkStmts(ss []syntax.Stmt, f func(syntax.Stmt)) {
	for _, s := range ss {
		f(s)
		for _, c := range children(s) {
			walkStmts(c, f)
		}
	}
}

// walkExpr calls f on every expression node of e.
func walkExpr(e syntax.Expr, f func(syntax.Expr)) {
	if e == nil {
		return
	}
	f(e)
	switch x := e.(type) {
	case *syntax.Binary:
		walkExpr(x.X, f)
		walkExpr(x.Y, f)
	case *syntax.Unary:
		walkExpr(x.X, f)
	case *syntax.Index:
		walkExpr(x.X, f)
		for _, i := range x.Indices {
			walkExpr(i, f)
		}
	case *syntax.Slice:
		walkExpr(x.Lo, f)
		walkExpr(x.Hi, f)
	case *syntax.Call:
		walkExpr(x.Fun, f)
		for _, a := range x.Args {
			walkExpr(a, f)
		}
		for _, k := range x.Kwargs {
			walkExpr(k.Value, f)
		}
	case *syntax.List:
		for _, a := range x.Elems {
			walkExpr(a, f)
		}
	case *syntax.Tuple:
		for _, a := range x.Elems {
			walkExpr(a, f)
		}
	case *syntax.Kwarg:
		walkExpr(x.Value, f)
	case *syntax.Attr:
		walkExpr(x.X, f)
	}
}

// stmtExprs returns the expressions a statement holds directly (not those
// of nested statements).
func stmtExprs(s syntax.Stmt) []syntax.Expr {
	switch s := s.(type) {
	case *syntax.Alloc:
		out := append([]syntax.Expr{}, s.Type.Dims...)
		return append(out, s.Name)
	case *syntax.Assign:
		return []syntax.Expr{s.LHS, s.RHS}
	case *syntax.For:
		out := []syntax.Expr{s.Lo, s.Hi}
		for _, k := range s.Kwargs {
			out = append(out, k.Value)
		}
		return out
	case *syntax.If:
		return []syntax.Expr{s.Cond}
	case *syntax.With:
		return []syntax.Expr{s.Ctx}
	case *syntax.CallStmt:
		return append([]syntax.Expr{s.Call}, s.Barriers...)
	case *syntax.Fence:
		return []syntax.Expr{s.First, s.Second}
	case *syntax.Arrive:
		return append([]syntax.Expr{s.TL, s.N}, s.Barriers...)
	case *syntax.Await:
		return []syntax.Expr{s.Bar, s.TL, s.N}
	case *syntax.Assert:
		return []syntax.Expr{s.Cond}
	case *syntax.Free:
		return []syntax.Expr{s.Name}
	}
	return nil
}

// namesUsed collects every identifier in the statements (uses and
// declarations), for fresh-name checks.
func namesUsed(ss []syntax.Stmt, into map[string]bool) {
	walkStmts(ss, func(s syntax.Stmt) {
		switch s := s.(type) {
		case *syntax.For:
			into[s.Var.Name] = true
		case *syntax.Alloc:
			into[s.Name.Name] = true
		}
		for _, e := range stmtExprs(s) {
			walkExpr(e, func(x syntax.Expr) {
				if n, ok := x.(*syntax.Name); ok {
					into[n.Name] = true
				}
			})
		}
	})
}

// mentions reports whether e uses the name.
func mentions(e syntax.Expr, name string) bool {
	found := false
	walkExpr(e, func(x syntax.Expr) {
		if n, ok := x.(*syntax.Name); ok && n.Name == name {
			found = true
		}
	})
	return found
}

// stmtsMention reports whether any statement in ss uses name.
func stmtsMention(ss []syntax.Stmt, name string) bool {
	m := map[string]bool{}
	namesUsed(ss, m)
	return m[name]
}
