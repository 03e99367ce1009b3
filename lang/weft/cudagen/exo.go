package cudagen

import (
	"sort"
	"strconv"
	"strings"

	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// Exo's configs, stride() and extern functions in host C (issue 19; their
// meaning is in package check, file exo.go, and the interpreter).

// configs includes math.h for the extern functions the file calls, and
// emits one static C struct per config of the file: the fields'
// types come from package check (declared, or inferred from their uses).
// Configs are CPU state: check rejects them in device code.
func (g *gen) configs() {
	prog := g.prog
	if len(prog.Externs) > 0 {
		g.c.Line("#include <math.h>")
	}
	var names []string
	for n := range prog.Configs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		cfg := prog.Configs[n]
		var fields []string
		for _, f := range cfg.Order {
			t := "int_fast32_t"
			switch {
			case f.Kind == check.KindBool:
				t = "bool"
			case f.Kind == check.KindScalar:
				t = hostCType(f.Elem)
			}
			fields = append(fields, t+" "+f.Name+";")
		}
		g.c.Line("static struct { %s } %s __attribute__((unused));", strings.Join(fields, " "), n)
	}
}

// configRef prints Config.field.
func (x *exprCtx) configRef(a *syntax.Attr) string {
	n, ok := a.X.(*syntax.Name)
	if !ok || x.device {
		x.g.errorf(a, codeUnsupported, "cannot lower %s to C", syntax.ExprString(a))
		return "0"
	}
	return n.Name + "." + a.Name.Name
}

// call prints a call in an expression: stride(x, d) or an extern function.
func (x *exprCtx) call(e *syntax.Call) string {
	name := e.FunName()
	if name == "stride" && len(e.Args) == 2 {
		n, ok := e.Args[0].(*syntax.Name)
		d, okD := e.Args[1].(*syntax.IntLit)
		if ok && okD {
			if v := x.sc.lookup(n.Name); v != nil && v.aliasOf == nil && v.kind == kTensor && int(d.Value) < len(v.dims) {
				// Tensors are dense and row-major: the stride of dimension
				// d is the product of the later extents.
				return "(" + x.size(v.dims[d.Value+1:]) + ")"
			}
		}
		x.g.errorf(e, codeUnsupported, "cannot lower %s to C (stride of a tensor parameter or allocation only)", syntax.ExprString(e))
		return "0"
	}
	ext := lib.Externs[name]
	if ext == nil || len(e.Args) != ext.Arity {
		x.g.errorf(e, codeUnsupported, "cannot lower expression %s to C", syntax.ExprString(e))
		return "0"
	}
	s := ext.CUDA
	for i, a := range e.Args {
		s = strings.ReplaceAll(s, "{"+strconv.Itoa(i)+"}", x.expr(a))
	}
	return "(" + s + ")"
}

// barrierKind maps a barrier memory to the mechanism the code generator
// lowers: the library's barrier memories derived from CudaCommitGroup
// (Exo's Sm80_CommitGroup, Sm90_TmaCommitGroup, Sm90_WgmmaCommitGroup) are
// commit groups; CudaMbarrierPreArrive(pre) is a ring-buffered CudaMbarrier
// array (ring.go).
func (g *gen) barrierKind(mem string, a *syntax.Alloc) string {
	b := g.lib.Barriers[mem]
	switch {
	case b == nil:
		return mem
	case mem == "CudaMbarrierPreArrive":
		// A ring of mbarriers whose first pre logical barriers start
		// complete (ring.go).
		return "CudaMbarrier"
	case b.DerivesFrom("CudaCommitGroup"):
		return "CudaCommitGroup"
	}
	return mem
}

// argElem is the element type of the tensor or scalar an argument names.
func argElem(x *exprCtx, a syntax.Expr) string {
	var n *syntax.Name
	switch a := a.(type) {
	case *syntax.Name:
		n = a
	case *syntax.Index:
		n, _ = a.X.(*syntax.Name)
	}
	if n == nil {
		return ""
	}
	if v := x.sc.lookup(n.Name); v != nil {
		return v.elem
	}
	return ""
}
