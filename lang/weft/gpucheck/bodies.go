package gpucheck

import (
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/syntax"
)

// The tiling each cuda_threads loop and CudaWarps block derives for its
// body is kept in a list in walk order, not a map keyed by the statement
// (issue 13, stop 32): a map per check and an interface-keyed insert per
// loop had been a twentieth of the GPU checker on small kernels, and its
// readers (the code generator's CheckOnly pass, shared.go; the thread
// reports) ask for the loops in about the order the check walked them,
// which a cursor turns into one comparison each.

// stmtBody is one statement's body tiling.
type stmtBody struct {
	st   syntax.Stmt
	body *coll.Tiling
}

// bodyList is the body tilings of a check's statements, in walk order.
type bodyList struct{ list []stmtBody }

// add records st's body tiling t (st is recorded once: each statement is
// walked once).
func (b *bodyList) add(st syntax.Stmt, t *coll.Tiling) {
	b.list = append(b.list, stmtBody{st, t})
}

// Body is the tiling the cuda_threads loop or CudaWarps block st derives
// for its body, or nil (st not a derived loop or block, or its derivation
// failed).
func (r *Result) Body(st syntax.Stmt) *coll.Tiling {
	var cur int
	return r.BodyAt(st, &cur)
}

// BodyAt is Body searching from *cur, wrapping around, and setting *cur
// after the statement found: a caller asking for the loops in walk order
// (the code generator) keeps one cursor and compares once per loop.
func (r *Result) BodyAt(st syntax.Stmt, cur *int) *coll.Tiling {
	list := r.bodies.list
	n := len(list)
	i := *cur
	for k := 0; k < n; k++ {
		if i >= n {
			i = 0
		}
		if list[i].st == st {
			*cur = i + 1
			return list[i].body
		}
		i++
	}
	return nil
}
