package syncheck

import (
	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/syntax"
)

// convRoom is the room a small kernel's conversion needs, in one object:
// the Program and its slices and the first chunks of the converter's
// slabs and scratch buffers had been about 30 allocations of each Convert,
// most of a few dozen bytes, and an allocation costs ~300 instructions
// where zeroing the same bytes in one object costs a tenth of that (issue
// 13, stop 34: conv34). A program that outgrows a piece allocates as
// before (the sizes below hold rows e, 5-11 and 15 of
// bench/syncref). The pieces live as long as the Program, as the
// allocations they replace did.
type convRoom struct {
	prog amir.Program
	out  Program
	body amir.Stmt // the proc's block
	// task is the first cuda_tasks loop's KIncTaskID (forStmt), stmts
	// the first groups' statements (group).
	task  amir.Stmt
	stmts [8]amir.Stmt

	// Sized from the proc (sizeOf, gpucheck's variables): used when the
	// count fits, else the slice is made as before.
	srcs     [roomSrcs]amir.Src
	srcStmts [roomSrcs]syntax.Stmt
	machines [roomSrcs]coll.Machine
	vars     [roomVars]amir.Var
	vinfo    [roomVars]varInfo
	vfacts   [roomVars]varFacts
	syncs    [roomSyncs]syntax.Stmt
	syncInfo [roomSyncs]amir.SyncInfo
	ctrl     [8]string
	iters    [8]loopSlot
	names    [roomNames]names

	// Grown by append past these.
	slots  [16]string
	shapes [4]coll.Collective
	stk    [32]*amir.Stmt
	ixBuf  [2][4]idx
	slotB  [8]int
	allocs [4]*syntax.Alloc
	linBuf [8]linTerm

	// The first chunks of the slabs, at each slab's lo (the size its
	// first take would have made).
	ptrs    [16]*amir.Stmt
	ints    [16]int
	wins    [8]amir.Window
	accs    [4]amir.Access
	affs    [8]amir.Affine
	terms   [16]amir.Term
	exprs   [16]amir.IntExpr
	affPtrs [16]*amir.Affine
}

const (
	roomSrcs  = 24
	roomVars  = 8
	roomSyncs = 8
	roomNames = 16
)

// seed makes buf the slab's first chunk (an empty slab only), as take
// would have made it: later chunks double from its size.
func (s *slab[T]) seed(buf []T) {
	if s.buf == nil {
		s.buf = buf[:0]
		s.last = len(buf)
	}
}

// roomOr is buf[:0:n] when n fits in buf, else a new slice of capacity
// n: the same capacity either way, so appends past n move the slice as
// they did.
func roomOr[T any](buf []T, n int) []T {
	if n <= len(buf) {
		return buf[:0:n]
	}
	return make([]T, 0, n)
}

// seedSlabs gives the converter's slabs and scratch buffers their first
// chunks from r.
func (c *converter) seedSlabs(r *convRoom) {
	c.ptrSlab.seed(r.ptrs[:])
	c.intSlab.seed(r.ints[:])
	c.winSlab.seed(r.wins[:])
	c.accSlab.seed(r.accs[:])
	c.affSlab.seed(r.affs[:])
	c.termSlab.seed(r.terms[:])
	c.exprSlab.seed(r.exprs[:])
	c.affPtrSlab.seed(r.affPtrs[:])
	c.ixBuf[0], c.ixBuf[1] = r.ixBuf[0][:0], r.ixBuf[1][:0]
	c.slotBuf = r.slotB[:0]
	c.linBuf = r.linBuf[:0]
	c.allocStk = r.allocs[:0]
	c.stmtRoom = r.stmts[:]
	c.taskStmt = &r.task
}
