package syncheck

import "weft.dev/weft/lang/weft/syntax"

// sameRead reports whether reads r and e (a Name or an Index on name n)
// have the same printed form, the key reads deduplicates by (T_ex: one
// check and record per distinct access of a right-hand side). It prints
// nothing in the common cases: a plain name's printed form is the name,
// an index's is the name followed by '[' (no identifier holds one), so
// different names or a name against an index differ; two indices on the
// same name whose trees are identical (sameTree) print the same. Only
// two indices on one name whose trees differ are printed and compared,
// as before: the printer's parentheses and literal spellings are its
// own (issue 13, stop 36: printing the indexed reads was 3% of
// shfl_xor's Convert, 2 900 instructions an assignment).
func sameRead(r *readAcc, n *syntax.Name, e syntax.Expr) bool {
	if r.name != n.Name {
		return false
	}
	ri, rIdx := r.e.(*syntax.Index)
	ei, eIdx := e.(*syntax.Index)
	if !rIdx || !eIdx {
		return rIdx == eIdx // both plain names: the same name
	}
	if sameTree(ri, ei) {
		return true
	}
	return syntax.ExprString(ri) == syntax.ExprString(ei)
}

// sameTree reports whether x and y are identical trees of the node types
// indices are made of (names, integer literals as written, operators,
// indices, slices). It is conservative: false for any other node, and
// sameRead then compares printed forms.
func sameTree(x, y syntax.Expr) bool {
	switch x := x.(type) {
	case *syntax.Name:
		y, ok := y.(*syntax.Name)
		return ok && x.Name == y.Name
	case *syntax.IntLit:
		y, ok := y.(*syntax.IntLit)
		return ok && x.Text == y.Text
	case *syntax.Binary:
		y, ok := y.(*syntax.Binary)
		return ok && x.Op == y.Op && sameTree(x.X, y.X) && sameTree(x.Y, y.Y)
	case *syntax.Unary:
		y, ok := y.(*syntax.Unary)
		return ok && x.Op == y.Op && sameTree(x.X, y.X)
	case *syntax.Index:
		y, ok := y.(*syntax.Index)
		if !ok || len(x.Indices) != len(y.Indices) || !sameTree(x.X, y.X) {
			return false
		}
		for i := range x.Indices {
			if !sameTree(x.Indices[i], y.Indices[i]) {
				return false
			}
		}
		return true
	case *syntax.Slice:
		y, ok := y.(*syntax.Slice)
		return ok && sameOpt(x.Lo, y.Lo) && sameOpt(x.Hi, y.Hi)
	}
	return false
}

// sameOpt is sameTree for a slice bound that may be absent.
func sameOpt(x, y syntax.Expr) bool {
	if x == nil || y == nil {
		return x == nil && y == nil
	}
	return sameTree(x, y)
}
