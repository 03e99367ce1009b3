package cudagen

import (
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// walkBindMax is the number of parameters walkBind binds on the stack.
const walkBindMax = 8

// walkBind is check.BindArgs(params, call, lib.TemplateParams(p)...) for
// the walk where it can tell without BindArgs's slices: out[:len(params)]
// holds the arguments and ok is true only where BindArgs binds the same
// ones and reports no problem (issue 13, stop 38: BindArgs and its
// template list were a twentieth of the walk on shfl_xor). ok is false
// (instrCall then calls BindArgs) for any call it does not take: more
// parameters than walkBindMax, an unnamed parameter, a keyword that is a
// template keyword or could be a type binding (BindArgs skips those), a
// keyword matching no parameter or one bound twice (BindArgs's problems),
// too many or too few arguments.
func walkBind(p *syntax.Proc, call *syntax.Call, out *[walkBindMax]syntax.Expr) bool {
	params := p.Params
	if len(params) > walkBindMax {
		return false
	}
	for i, prm := range params {
		if prm == nil || prm.Name == nil {
			return false
		}
		out[i] = nil
	}
	if len(call.Kwargs) > 0 {
		template := templateList(p)
		for _, k := range call.Kwargs {
			if n, ok := k.Value.(*syntax.Name); ok && lib.IsDataType(n.Name) {
				return false // perhaps a type binding
			}
			if isTemplateParam(template, k.Name.Name) {
				return false
			}
			idx := -1
			for i, prm := range params {
				if prm.Name.Name == k.Name.Name {
					idx = i
				}
			}
			if idx < 0 || out[idx] != nil {
				return false
			}
			out[idx] = k.Value
		}
	}
	next := 0
	for _, a := range call.Args {
		for next < len(params) && out[next] != nil {
			next++
		}
		if next == len(params) {
			return false
		}
		out[next] = a
		next++
	}
	for i := range params {
		if out[i] == nil {
			return false
		}
	}
	return true
}

// walkArgs is instrCall's binding: walkBind's, or BindArgs's where
// walkBind does not take the call; ok is false where BindArgs reports a
// problem.
func walkArgs(p *syntax.Proc, call *syntax.Call, buf *[walkBindMax]syntax.Expr) ([]syntax.Expr, bool) {
	if walkBind(p, call, buf) {
		return buf[:len(p.Params)], true
	}
	args, probs := check.BindArgs(p.Params, call, lib.TemplateParams(p)...)
	return args, len(probs) == 0
}

// templateList is the list expression whose string literals
// lib.TemplateParams(p) collects (nil where it collects none): the
// template keyword of p's first @instr decorator call. walkBind tests a
// keyword against it in place (isTemplateParam) rather than against
// TemplateParams's slice, an allocation of every instruction call with a
// keyword argument (issue 13, stop 42: shfl_xor's laneMask=).
// TestTemplateParamsInPlace compares the two on the library.
func templateList(p *syntax.Proc) *syntax.List {
	for _, d := range p.Decorators {
		c, ok := d.(*syntax.Call)
		if !ok || c.FunName() != "instr" {
			// TemplateParams's decoName of a call is its FunName; a
			// decorator that is not a call is skipped either way.
			continue
		}
		k := c.Kwarg("template")
		if k == nil {
			return nil
		}
		lst, _ := k.Value.(*syntax.List)
		return lst
	}
	return nil
}

// isTemplateParam reports whether name is one of lib.TemplateParams's
// names, the string literals of the template list lst.
func isTemplateParam(lst *syntax.List, name string) bool {
	if lst == nil {
		return false
	}
	for _, e := range lst.Elems {
		if s, ok := e.(*syntax.StringLit); ok && s.Value == name {
			return true
		}
	}
	return false
}
