package sem

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Iterators of std::vector and std::string have a type of their own
// (docs/cudac.md, "The C++ standard library"). The model keeps them as
// pointers to the elements (C++ [vector.overview]: contiguous iterators),
// so *it, it[i], it + n, it - it, comparisons, &*it, range for and the
// <algorithm> models work on them as on pointers; but a real library's
// iterator is a class, and nvcc rejects "int *p = v.begin();" ("no
// suitable conversion function from ... iterator to int * exists"). The
// iterator type is a pointer type marked iter, printed as the pointer
// (so that templates and overloads see T*), and the implicit conversions
// of the program's own code (an initializer, an assignment, an argument,
// a return value) refuse to turn one into a plain pointer.

// iterTo is the iterator type over elements of type et of the container
// named cont ("std::vector<int>", "std::string").
func iterTo(et *Type, cont string) *Type {
	p := ptrTo(et)
	p.iter = cont + "::iterator"
	return p
}

// checkIterConv reports C0302 when a value of type from, an iterator,
// would implicitly become a plain pointer of type to. Our own library
// text (the __std_ function templates of <algorithm>, syntax/stdalgo.go)
// takes pointer ranges by design and is exempt: callee names it.
func (c *compiler) checkIterConv(from, to *Type, callee string, pos diag.Pos) {
	if from == nil || to == nil || from.iter == "" || to.Kind != Ptr || to.Ref || to.iter != "" {
		return
	}
	if len(callee) >= 6 && callee[:6] == "__std_" {
		return
	}
	c.errorf(pos, "C0302", "no suitable conversion function from %s to %s exists", from.iter, to)
}

// exprStart is where expression e begins (v.begin() + 1 begins at v),
// where nvcc points a conversion error.
func exprStart(e syntax.Expr) diag.Pos {
	for {
		switch x := e.(type) {
		case *syntax.Index:
			e = x.X
		case *syntax.Member:
			e = x.X
		case *syntax.Call:
			if x.Fun == nil || len(x.Launch) > 0 {
				return syntax.PosOf(e)
			}
			e = x.Fun
		case *syntax.Binary:
			e = x.X
		case *syntax.Cond:
			e = x.C
		default:
			return syntax.PosOf(e)
		}
	}
}
