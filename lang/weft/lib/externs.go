package lib

import (
	"math"
	"sort"
	"strings"
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
// Exo's: select(x, v, y, z) is y if x < v else z; relu(x) is x if x > 0
// else 0; sigmoid(x) is 1 / (1 + exp(-x)).
var Externs = map[string]*Extern{
	"sin":     {Name: "sin", Arity: 1, Eval: func(a []float64) float64 { return math.Sin(a[0]) }, CUDA: "sin({0})"},
	"sqrt":    {Name: "sqrt", Arity: 1, Eval: func(a []float64) float64 { return math.Sqrt(a[0]) }, CUDA: "sqrt({0})"},
	"expf":    {Name: "expf", Arity: 1, Eval: func(a []float64) float64 { return math.Exp(a[0]) }, CUDA: "expf({0})"},
	"fmaxf":   {Name: "fmaxf", Arity: 2, Eval: func(a []float64) float64 { return math.Max(a[0], a[1]) }, CUDA: "fmaxf({0}, {1})"},
	"sigmoid": {Name: "sigmoid", Arity: 1, Eval: func(a []float64) float64 { return 1 / (1 + math.Exp(-a[0])) }, CUDA: "(1.0f / (1.0f + expf(-({0}))))"},
	"relu": {Name: "relu", Arity: 1, Eval: func(a []float64) float64 {
		if a[0] > 0 {
			return a[0]
		}
		return 0
	}, CUDA: "(({0}) > 0 ? ({0}) : 0)"},
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
