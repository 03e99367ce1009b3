package syncheck

import (
	"math/rand"
	"testing"

	"weft.dev/weft/lang/weft/syntax"
)

// randIndexExpr is a small random index expression over few names and
// literals, so that equal and near-equal pairs are common; unsupported
// node kinds (calls, floats) make sameTree fall back to printing.
func randIndexExpr(r *rand.Rand, depth int) syntax.Expr {
	k := r.Intn(9)
	if depth <= 0 {
		k %= 3
	}
	switch k {
	case 0:
		return &syntax.Name{Name: []string{"i", "j", "k"}[r.Intn(3)]}
	case 1:
		v := r.Intn(3)
		return &syntax.IntLit{Value: int64(v), Text: []string{"0", "1", "2"}[v]}
	case 2:
		return &syntax.FloatLit{Text: "1.0"}
	case 3, 4:
		return &syntax.Binary{Op: []string{"+", "-", "*", "%"}[r.Intn(4)], X: randIndexExpr(r, depth-1), Y: randIndexExpr(r, depth-1)}
	case 5:
		return &syntax.Unary{Op: []string{"-", "not"}[r.Intn(2)], X: randIndexExpr(r, depth-1)}
	case 6:
		var lo, hi syntax.Expr
		if r.Intn(3) > 0 {
			lo = randIndexExpr(r, depth-1)
		}
		if r.Intn(3) > 0 {
			hi = randIndexExpr(r, depth-1)
		}
		return &syntax.Slice{Lo: lo, Hi: hi}
	case 7:
		return &syntax.Index{X: &syntax.Name{Name: "y"}, Indices: []syntax.Expr{randIndexExpr(r, depth-1)}}
	default:
		return &syntax.Call{Fun: &syntax.Name{Name: "f"}, Args: []syntax.Expr{randIndexExpr(r, depth-1)}}
	}
}

func randRead(r *rand.Rand) (*syntax.Name, syntax.Expr) {
	n := &syntax.Name{Name: []string{"x", "xy"}[r.Intn(2)]}
	if r.Intn(4) == 0 {
		return n, n
	}
	ix := &syntax.Index{X: n}
	for d := r.Intn(2) + 1; d > 0; d-- {
		ix.Indices = append(ix.Indices, randIndexExpr(r, 2))
	}
	return n, ix
}

// TestSameReadMatchesPrinted: reads' deduplication without printing
// (sameRead) answers as the printed forms' comparison it replaced, and
// sameTree never calls two differently printed trees the same.
func TestSameReadMatchesPrinted(t *testing.T) {
	r := rand.New(rand.NewSource(36))
	same, trees := 0, 0
	for it := 0; it < 200000; it++ {
		n1, e1 := randRead(r)
		n2, e2 := randRead(r)
		if it%3 == 0 {
			n2, e2 = n1, e1 // an equal pair, as a fresh tree
			if ix, ok := e1.(*syntax.Index); ok {
				e2 = &syntax.Index{X: n1, Indices: append([]syntax.Expr(nil), ix.Indices...)}
			}
		}
		if it%3 == 1 {
			e2 = perturbTree(r, e1) // a near pair, on its own name
			n2, _ = e2.(*syntax.Name)
			if ix, ok := e2.(*syntax.Index); ok {
				n2 = ix.X.(*syntax.Name)
			}
		}
		want := syntax.ExprString(e1) == syntax.ExprString(e2)
		ra := readAcc{name: n1.Name, e: e1}
		if got := sameRead(&ra, n2, e2); got != want {
			t.Fatalf("sameRead(%s, %s) = %v, printed forms say %v", syntax.ExprString(e1), syntax.ExprString(e2), got, want)
		}
		if want {
			same++
		}
		if sameTree(e1, e2) {
			trees++
			if !want {
				t.Fatalf("sameTree(%s, %s) but printed differently", syntax.ExprString(e1), syntax.ExprString(e2))
			}
		}
	}
	if same < 50000 || trees < 20000 {
		t.Fatalf("too few equal pairs: %d printed, %d trees", same, trees)
	}
}

// perturbTree copies x, changing at most one node at random (an operator,
// a literal's spelling, a name, a slice bound dropped), so that near
// pairs, which sameTree must tell apart, are common.
func perturbTree(r *rand.Rand, x syntax.Expr) syntax.Expr {
	change := r.Intn(3) == 0
	switch x := x.(type) {
	case *syntax.Name:
		if change {
			return &syntax.Name{Name: x.Name + "0"}
		}
		return &syntax.Name{Name: x.Name}
	case *syntax.IntLit:
		if change {
			return &syntax.IntLit{Value: x.Value, Text: x.Text + "_0"}
		}
		return &syntax.IntLit{Value: x.Value, Text: x.Text}
	case *syntax.Binary:
		op := x.Op
		if change {
			op = map[string]string{"+": "-", "-": "+", "*": "%", "%": "*"}[op]
		}
		return &syntax.Binary{Op: op, X: perturbTree(r, x.X), Y: perturbTree(r, x.Y)}
	case *syntax.Unary:
		op := x.Op
		if change {
			op = map[string]string{"-": "not", "not": "-"}[op]
		}
		return &syntax.Unary{Op: op, X: perturbTree(r, x.X)}
	case *syntax.Slice:
		s := &syntax.Slice{}
		if x.Lo != nil && !change {
			s.Lo = perturbTree(r, x.Lo)
		}
		if x.Hi != nil {
			s.Hi = perturbTree(r, x.Hi)
		}
		return s
	case *syntax.Index:
		ix := &syntax.Index{X: perturbTree(r, x.X)}
		for _, i := range x.Indices {
			ix.Indices = append(ix.Indices, perturbTree(r, i))
		}
		if change && len(ix.Indices) > 1 {
			ix.Indices = ix.Indices[1:]
		}
		return ix
	}
	return x
}
