package sem

import (
	"fmt"
	"reflect"

	"weft.dev/weft/lang/cudac/syntax"
)

// Variadic function templates (C++ [temp.variadic]): template <typename...
// Args> R f(P, Args... args). A call with n arguments for the pack is the
// instance of a template without one: the pack's type parameter becomes n
// parameters (__weft_Args_0 ...), the function parameter pack n
// parameters (__weft_args_0 ...) of the pattern's type with the element's
// name, and every expansion pattern... in the body's argument lists n
// copies of the pattern, element by element; sizeof...(args) is n. That
// decl is then instantiated as any template is (deduction, instances,
// overloads), so a pack forwards to printf, a kernel launch, a
// constructor, or recurses (print(rest...) down to a non-template base
// case).
//
// Perfect forwarding: std::forward<Args>(args)... forwards each element
// as its argument was passed (rvalue.go, forwardingLvalues), so an
// rvalue passed through a pack is moved.

type packKey struct {
	td *syntax.FuncDecl
	n  int
}

// packParam is the index of td's function parameter pack, -1 for none.
func packParam(td *syntax.FuncDecl) int {
	if td.TPack == "" || td.Type == nil {
		return -1
	}
	for i, p := range td.Type.Params {
		if p.Type != nil && p.Type.Pack {
			return i
		}
	}
	return -1
}

// variadicFits reports whether variadic template td can take nargs
// arguments.
func variadicFits(td *syntax.FuncDecl, nargs int) bool {
	pi := packParam(td)
	return pi >= 0 && nargs >= pi
}

// variadicInstance is td expanded for the call e (td itself when it has
// no pack), nil after a diagnostic.
func (c *compiler) variadicInstance(td *syntax.FuncDecl, e *syntax.Call) *syntax.FuncDecl {
	if td.TPack == "" {
		return td
	}
	params := td.Type.Params
	pi := packParam(td)
	if pi != len(params)-1 {
		c.errorf(e.Pos, "C0313", "%s: the function parameter pack must be the last parameter (a pack deduced only from explicit template arguments is not supported)", td.Name)
		return nil
	}
	n := len(e.Args) - pi
	if n < 0 {
		n = 0 // too few arguments: reported by the call
	}
	k := packKey{td, n}
	if d := c.packInsts[k]; d != nil {
		return d
	}
	pname, tname := params[pi].Name, td.TPack
	nd := *td
	nd.TPack = ""
	nd.TParams, nd.TValue, nd.DefaultTypes, nd.DefaultExprs = nil, nil, nil, nil
	for i, name := range td.TParams {
		if name == tname {
			for j := 0; j < n; j++ {
				nd.TParams = append(nd.TParams, elemName(tname, j))
				nd.TValue = append(nd.TValue, false)
				nd.DefaultTypes = append(nd.DefaultTypes, nil)
				nd.DefaultExprs = append(nd.DefaultExprs, nil)
			}
			continue
		}
		nd.TParams = append(nd.TParams, name)
		nd.TValue = append(nd.TValue, i < len(td.TValue) && td.TValue[i])
		nd.DefaultTypes = append(nd.DefaultTypes, at(td.DefaultTypes, i))
		nd.DefaultExprs = append(nd.DefaultExprs, atE(td.DefaultExprs, i))
	}
	ft := *td.Type
	ft.Params = append([]*syntax.Param(nil), params[:pi]...)
	for j := 0; j < n; j++ {
		x := &packExpander{pname: pname, tname: tname, n: n, elem: j}
		pt := x.copy(reflect.ValueOf(params[pi].Type)).Interface().(*syntax.TypeExpr)
		pt.Pack = false
		name := ""
		if pname != "" {
			name = elemName(pname, j)
		}
		ft.Params = append(ft.Params, &syntax.Param{Name: name, Pos: params[pi].Pos, Type: pt})
	}
	nd.Type = &ft
	if td.Body != nil {
		x := &packExpander{pname: pname, tname: tname, n: n, elem: -1}
		nd.Body = x.copy(reflect.ValueOf(td.Body)).Interface().(*syntax.Block)
	}
	if c.packInsts == nil {
		c.packInsts = map[packKey]*syntax.FuncDecl{}
	}
	c.packInsts[k] = &nd
	return &nd
}

func elemName(pack string, j int) string { return fmt.Sprintf("__weft_%s_%d", pack, j) }

func at(ts []*syntax.TypeExpr, i int) *syntax.TypeExpr {
	if i < len(ts) {
		return ts[i]
	}
	return nil
}

func atE(es []syntax.Expr, i int) syntax.Expr {
	if i < len(es) {
		return es[i]
	}
	return nil
}

// packExpander copies a syntax tree, expanding the packs pname (function
// parameters) and tname (types): outside an expansion (elem < 0) the
// argument lists' pattern... become n copies, inside one (elem j) the
// names become element j's.
type packExpander struct {
	pname, tname string
	n, elem      int
}

var (
	syntaxPkg = reflect.TypeOf(syntax.Name{}).PkgPath()
	exprSlice = reflect.TypeOf([]syntax.Expr(nil))
)

func (x *packExpander) copy(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || v.Type().Elem().PkgPath() != syntaxPkg {
			return v // positions' files and other shared data
		}
		switch n := v.Interface().(type) {
		case *syntax.Name:
			if x.elem >= 0 && n.Name == x.pname && x.pname != "" {
				return reflect.ValueOf(&syntax.Name{Pos: n.Pos, Name: elemName(x.pname, x.elem)})
			}
		case *syntax.SizeofPack:
			if n.Name == x.pname || n.Name == x.tname {
				return reflect.ValueOf(&syntax.IntLitExpr{Pos: n.Pos, Value: uint64(x.n), Type: "unsigned long"})
			}
		}
		out := reflect.New(v.Type().Elem())
		out.Elem().Set(x.copy(v.Elem()))
		if te, ok := out.Interface().(*syntax.TypeExpr); ok && x.elem >= 0 && te.Name == x.tname && te.Kind == syntax.TNamed {
			te.Name = elemName(x.tname, x.elem)
		}
		return out
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(x.copy(v.Elem()))
		return out
	case reflect.Struct:
		if v.Type().PkgPath() != syntaxPkg {
			return v
		}
		out := reflect.New(v.Type()).Elem()
		for i := 0; i < v.NumField(); i++ {
			if out.Field(i).CanSet() {
				out.Field(i).Set(x.copy(v.Field(i)))
			}
		}
		return out
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		out := reflect.MakeSlice(v.Type(), 0, v.Len())
		for i := 0; i < v.Len(); i++ {
			el := v.Index(i)
			if v.Type() == exprSlice && x.elem < 0 {
				if pe, ok := el.Interface().(*syntax.PackExpand); ok {
					// pattern...: one copy per element of the pack
					for j := 0; j < x.n; j++ {
						y := *x
						y.elem = j
						out = reflect.Append(out, y.copy(reflect.ValueOf(&pe.X).Elem()))
					}
					continue
				}
			}
			out = reflect.Append(out, x.copy(el))
		}
		return out
	}
	return v
}

// nonTemplateFits reports whether a non-template function of the name
// takes nargs arguments: a call it cannot take is the template's (a
// variadic template's recursion stops at a non-template base case of
// fewer parameters, and calls with more arguments are the template's).
func (c *compiler) nonTemplateFits(name string, nargs int) bool {
	ovs := c.overloads[name]
	if len(ovs) == 0 {
		ovs = []*Function{c.funcs[name]}
	}
	for _, f := range ovs {
		if f == nil || f.Type == nil {
			return true // not typed yet: the function, as before
		}
		np := len(f.Type.Params)
		min := np
		for i, d := range c.defaultsOf(f) {
			if d != nil && i < min {
				min = i
			}
		}
		if nargs >= min && nargs <= np || f.Type.Variadic && nargs >= np {
			return true
		}
	}
	return false
}
