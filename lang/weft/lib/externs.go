package lib

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/syntax"
)

// Extern is one of Exo's extern functions (exo.libs.externs): a scalar
// function of scalar data that Exo compiles to a C call. Weft gives each
// the same meaning: Eval is its value (computed in float64 and rounded to
// the destination type by the caller), CUDA its C expression, with {0},
// {1}, ... standing for the arguments.
type Extern struct {
	Name  string
	Arity int
	Eval  func(args []float64) float64
	CUDA  string
}

// Externs are the extern functions by name. Their definitions follow
// Exo's: select(x, v, y, z) is y if x < v else z. The primitive ones (C
// math functions and select's data-dependent choice, which no Weft
// statement says) are this table; the others (relu, sigmoid) are library
// procs with behaviour bodies in externs.weft, which Load adds here
// (ParseExtern).
var Externs = map[string]*Extern{
	"sin":   {Name: "sin", Arity: 1, Eval: func(a []float64) float64 { return math.Sin(a[0]) }, CUDA: "sin({0})"},
	"sqrt":  {Name: "sqrt", Arity: 1, Eval: func(a []float64) float64 { return math.Sqrt(a[0]) }, CUDA: "sqrt({0})"},
	"expf":  {Name: "expf", Arity: 1, Eval: func(a []float64) float64 { return math.Exp(a[0]) }, CUDA: "expf({0})"},
	"fmaxf": {Name: "fmaxf", Arity: 2, Eval: func(a []float64) float64 { return math.Max(a[0], a[1]) }, CUDA: "fmaxf({0}, {1})"},
	"select": {Name: "select", Arity: 4, Eval: func(a []float64) float64 {
		if a[0] < a[1] {
			return a[2]
		}
		return a[3]
	}, CUDA: "(({0}) < ({1}) ? ({2}) : ({3}))"},
}

// ExternNames lists the extern functions, sorted, for messages.
func ExternNames() string {
	var ns []string
	for n := range Externs {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return strings.Join(ns, ", ")
}

// externsMu guards Externs while a library adds its extern procs.
var externsMu sync.Mutex

// IsExtern reports whether p is declared `@extern`.
func IsExtern(p *syntax.Proc) bool {
	for _, d := range p.Decorators {
		if decoName(d) == "extern" {
			return true
		}
	}
	return false
}

// ParseExtern reads an extern function declared as a library proc with a
// behaviour body (Exo's externs that compose the primitive ones):
//
//	@extern
//	def relu(x: R, result: R):
//	    result = select(0.0, x, x, 0.0)
//
// Every parameter is a scalar of data type; the last receives the value,
// which the body assigns once, from the other parameters, number literals,
// + - * /, unary minus and calls of extern functions. A call relu(e) in a
// data expression means the body's expression with e for x: its value
// (computed in float64, like the primitives) and its C expression.
func ParseExtern(p *syntax.Proc, errs *diag.List) *Extern {
	bad := func(at syntax.Node, format string, args ...any) *Extern {
		errs.Errorf(at.Pos(), "W0245", "@extern %s: "+format, append([]any{p.Name.Name}, args...)...)
		return nil
	}
	if len(p.Params) < 2 {
		return bad(p.Name, "needs its arguments and a last parameter for the value")
	}
	idx := map[string]int{}
	for i, prm := range p.Params {
		t := prm.Type
		if t == nil || t.Elem == nil || !IsDataType(t.Elem.Name) || t.Dims != nil || t.Window {
			return bad(prm, "parameter %s must be a scalar of a data type (R, f32, ...)", prm.Name.Name)
		}
		idx[prm.Name.Name] = i
	}
	result := p.Params[len(p.Params)-1].Name.Name
	delete(idx, result)
	if len(p.Body) != 1 {
		return bad(p.Name, "the body is one assignment of %s", result)
	}
	as, ok := p.Body[0].(*syntax.Assign)
	if !ok || as.Op != "=" {
		return bad(p.Body[0], "the body is one assignment of %s", result)
	}
	if n, ok := as.LHS.(*syntax.Name); !ok || n.Name != result {
		return bad(as, "the body assigns the last parameter, %s", result)
	}
	eval, c, err := externExpr(as.RHS, idx)
	if err != nil {
		return bad(as.RHS, "%v", err)
	}
	return &Extern{Name: p.Name.Name, Arity: len(p.Params) - 1, Eval: eval, CUDA: c}
}

// externExpr compiles an extern body expression to its value and its C
// template ({i} for argument i).
func externExpr(e syntax.Expr, idx map[string]int) (func([]float64) float64, string, error) {
	switch e := e.(type) {
	case *syntax.Name:
		i, ok := idx[e.Name]
		if !ok {
			return nil, "", fmt.Errorf("%s is not a parameter", e.Name)
		}
		return func(a []float64) float64 { return a[i] }, "({" + strconv.Itoa(i) + "})", nil
	case *syntax.IntLit:
		v := float64(e.Value)
		return func([]float64) float64 { return v }, e.Text + ".0f", nil
	case *syntax.FloatLit:
		v := e.Value
		text := e.Text
		if !strings.ContainsAny(text, "fF") {
			text += "f"
		}
		return func([]float64) float64 { return v }, text, nil
	case *syntax.Unary:
		if e.Op != "-" {
			break
		}
		f, c, err := externExpr(e.X, idx)
		if err != nil {
			return nil, "", err
		}
		return func(a []float64) float64 { return -f(a) }, "(-" + c + ")", nil
	case *syntax.Binary:
		f, cf, err := externExpr(e.X, idx)
		if err != nil {
			return nil, "", err
		}
		g, cg, err := externExpr(e.Y, idx)
		if err != nil {
			return nil, "", err
		}
		c := "(" + cf + " " + e.Op + " " + cg + ")"
		switch e.Op {
		case "+":
			return func(a []float64) float64 { return f(a) + g(a) }, c, nil
		case "-":
			return func(a []float64) float64 { return f(a) - g(a) }, c, nil
		case "*":
			return func(a []float64) float64 { return f(a) * g(a) }, c, nil
		case "/":
			return func(a []float64) float64 { return f(a) / g(a) }, c, nil
		}
	case *syntax.Call:
		externsMu.Lock()
		ext := Externs[e.FunName()]
		externsMu.Unlock()
		if ext == nil || len(e.Args) != ext.Arity || len(e.Kwargs) > 0 {
			return nil, "", fmt.Errorf("%s is not an extern function of %d arguments (%s)", e.FunName(), len(e.Args), ExternNames())
		}
		fs := make([]func([]float64) float64, len(e.Args))
		c := ext.CUDA
		for i, arg := range e.Args {
			f, ca, err := externExpr(arg, idx)
			if err != nil {
				return nil, "", err
			}
			fs[i] = f
			c = strings.ReplaceAll(c, "{"+strconv.Itoa(i)+"}", ca)
		}
		return func(a []float64) float64 {
			vs := make([]float64, len(fs))
			for i, f := range fs {
				vs[i] = f(a)
			}
			return ext.Eval(vs)
		}, c, nil
	}
	return nil, "", fmt.Errorf("%s cannot appear in an extern's body (parameters, numbers, + - * /, extern calls)", syntax.ExprString(e))
}

// addExtern makes a library's extern proc callable.
func addExtern(x *Extern) {
	externsMu.Lock()
	Externs[x.Name] = x
	externsMu.Unlock()
}
