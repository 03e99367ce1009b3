package syntax

import (
	"fmt"
	"strings"
	"testing"

	"weft.dev/weft/diag"
)

// dumpExpr prints e fully parenthesized, each operator with its offset.
func dumpExpr(e Expr) string {
	switch e := e.(type) {
	case *Name:
		return e.Name
	case *IntLit:
		return e.Text
	case *FloatLit:
		return e.Text
	case *BoolLit:
		return fmt.Sprint(e.Value)
	case *StringLit:
		return fmt.Sprintf("%q", e.Value)
	case *Binary:
		return "(" + dumpExpr(e.X) + " " + e.Op + " " + dumpExpr(e.Y) + ")@" + fmt.Sprint(e.P.Offset)
	case *Unary:
		return "(" + e.Op + " " + dumpExpr(e.X) + ")@" + fmt.Sprint(e.P.Offset)
	case *Index:
		var s []string
		for _, i := range e.Indices {
			s = append(s, dumpExpr(i))
		}
		return dumpExpr(e.X) + "[" + strings.Join(s, ",") + "]"
	case *Slice:
		lo, hi := "", ""
		if e.Lo != nil {
			lo = dumpExpr(e.Lo)
		}
		if e.Hi != nil {
			hi = dumpExpr(e.Hi)
		}
		return lo + ":" + hi
	case *Call:
		var s []string
		for _, a := range e.Args {
			s = append(s, dumpExpr(a))
		}
		for _, k := range e.Kwargs {
			s = append(s, k.Name.Name+"="+dumpExpr(k.Value))
		}
		return dumpExpr(e.Fun) + "(" + strings.Join(s, ",") + ")"
	case *Attr:
		return dumpExpr(e.X) + "." + e.Name.Name
	case *Tuple:
		var s []string
		for _, a := range e.Elems {
			s = append(s, dumpExpr(a))
		}
		return "tuple(" + strings.Join(s, ",") + ")"
	case *List:
		var s []string
		for _, a := range e.Elems {
			s = append(s, dumpExpr(a))
		}
		return "[" + strings.Join(s, ",") + "]"
	case nil:
		return "nil"
	}
	return fmt.Sprintf("%T", e)
}

// TestPrecedence pins the trees of expressions that mix every level of
// the grammar (precedence climbing in parser.binary must build what the
// grammar's levels built: the expected trees are those of the parser
// before it), and the errors of incomplete ones.
func TestPrecedence(t *testing.T) {
	cases := []struct{ src, tree, errs string }{
		{"a or b and c", "(a or (b and c)@11)@6", ""},
		{"a and b or c", "((a and b)@6 or c)@12", ""},
		{"not a and b", "((not a)@4 and b)@10", ""},
		{"not a == b", "(not (a == b)@10)@4", ""},
		{"not not a", "(not (not a)@8)@4", ""},
		{"a == b == c", "((a == b)@6 == c)@11", ""},
		{"a < b <= c", "((a < b)@6 <= c)@10", ""},
		{"a - b - c", "((a - b)@6 - c)@10", ""},
		{"a * b + c * d", "((a * b)@6 + (c * d)@14)@10", ""},
		{"-a * b", "((- a)@4 * b)@7", ""},
		{"- - a", "(- (- a)@6)@4", ""},
		{"+a", "a", ""},
		{"~a + b", "((~ a)@4 + b)@7", ""},
		{"a // b % c", "((a // b)@6 % c)@11", ""},
		{"a / b * c", "((a / b)@6 * c)@10", ""},
		{"a < b or not c", "((a < b)@6 or (not c)@13)@10", ""},
		{"x[i] * 2 + f(y) - z.w", "(((x[i] * 2)@9 + f(y))@13 - z.w)@20", ""},
		{"(a + b) * c", "((a + b)@7 * c)@12", ""},
		{"a + (b, c)", "(a + tuple(b,c))@6", ""},
		{"not (a or b) and c", "((not (a or b)@11)@4 and c)@17", ""},
		{"a * -b", "(a * (- b)@8)@6", ""},
		{"a - -b + +c", "((a - (- b)@8)@6 + c)@11", ""},
		{"a == -b * c", "(a == ((- b)@9 * c)@12)@6", ""},
		{"a or b or c and d and e", "((a or b)@6 or ((c and d)@16 and e)@22)@11", ""},
		{"x[i + 1, j * 2 : k - 1]", "x[(i + 1)@8,(j * 2)@15:(k - 1)@23]", ""},
		{"f(a + b, c = d * e)", "f((a + b)@8,c=(d * e)@19)", ""},
		{"a and not b == c or d", "((a and (not (b == c)@16)@10)@6 or d)@21", ""},
		{"1 + 2.5 * 'x'", "(1 + (2.5 * \"x\")@12)@6", ""},
		{"[a + b, c]", "[(a + b)@7,c]", ""},
		{"a % b // c * d", "(((a % b)@6 // c)@10 * d)@15", ""},
		{"a != b and c >= d", "((a != b)@6 and (c >= d)@17)@11", ""},
		{"a if b", "", "t.weft:1:7 W0101 unexpected name if at end of statement"},
		{"a + ", "", "t.weft:1:9 W0101 unexpected newline, expected an expression"},
		{"not", "", "t.weft:1:8 W0101 unexpected newline, expected an expression"},
		{"a and", "", "t.weft:1:10 W0101 unexpected newline, expected an expression"},
		{"a == not b", "", "t.weft:1:10 W0101 unexpected keyword not in expression"},
	}
	for _, c := range cases {
		var errs diag.List
		f := Parse(diag.NewFile("t.weft", []byte("x = "+c.src+"\n")), &errs)
		tree := ""
		if len(f.Decls) == 1 {
			if g, ok := f.Decls[0].(*Global); ok {
				tree = dumpExpr(g.Values[0])
			}
		}
		var msgs []string
		for _, d := range errs.Diags {
			msgs = append(msgs, d.Pos.String()+" "+d.Code+" "+d.Message)
		}
		if tree != c.tree || strings.Join(msgs, "; ") != c.errs {
			t.Errorf("%q: tree %s, errors %q; want %s, %q", c.src, tree, strings.Join(msgs, "; "), c.tree, c.errs)
		}
	}
}
