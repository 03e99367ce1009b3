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
// before. The pieces live as long as the Program, as the allocations
// they replace did.
//
// The sizes are a small kernel's (per_cta_alloc's): every byte of the
// room is zeroed and, in a loop of checks, collected, and a room sized
// for shfl_xor (11 KB) had made the empty kernel's check allocate 40%
// more bytes than before it (dataRoom).
type convRoom struct {
	prog amir.Program
	out  Program
	body amir.Stmt // the proc's block
	// task is the first cuda_tasks loop's KIncTaskID (forStmt).
	task amir.Stmt

	// Sized from the proc (sizeOf): used when the count fits, else the
	// slice is made as before.
	srcs     [roomSrcs]amir.Src
	srcStmts [roomSrcs]syntax.Stmt
	machines [roomSrcs]coll.Machine
	syncs    [roomSyncs]syntax.Stmt
	syncInfo [roomSyncs]amir.SyncInfo
	ctrl     [6]string
	iters    [4]loopSlot
	names    [roomNames]names

	// Grown by append past these.
	slots  [8]string
	shapes [3]coll.Collective
	stk    [16]*amir.Stmt
	allocs [4]allocSrc

	ptrs [16]*amir.Stmt // ptrSlab's first chunk

	// The qualifier and instruction names resolved (qual, instr).
	qnames [4]qualName
	instrs [4]instrName
}

// bareRoom is the room of a proc without data variables: its affine
// forms (its loops' bounds) take their first chunk from affs.
type bareRoom struct {
	convRoom
	affs [4]amir.Affine
}

// fullRoom is the room of a proc with data variables, one object: the
// two rooms had been two allocations of each such check (issue 13, stop
// 41). Its size class is 9472 bytes, six objects to a span: an object
// of the 8192-byte class, one to a span, refilled the allocator's cache
// from the heap at each check (per_cta_alloc's Convert took half a
// thousand instructions more), and the room up to 9472 holds the first
// groups' statements (dataRoom.stmts).
type fullRoom struct {
	convRoom
	dataRoom
}

// dataRoom is the part of the room only a proc with data variables
// needs (their accesses, windows and forms), made only for one: the
// empty kernel's check had allocated a third more bytes with it.
type dataRoom struct {
	// stmts are the first groups' statements (group): eight, an
	// assignment's write and its reads' checks and records (per_cta_
	// alloc's 5, then its free's 2, had made one group of its own).
	stmts [8]amir.Stmt

	// Sized from gpucheck's variables, as convRoom's.
	vars   [roomVars]amir.Var
	vinfo  [roomVars]varInfo
	vfacts [roomVars]varFacts

	// Grown by append past these. readB and argB: an assignment's reads
	// and a call's bound arguments, whose first appends had been one or
	// two allocations of each check (issue 13, stop 42).
	ixBuf  [2][2]idx
	slotB  [8]int
	linBuf [8]linTerm
	readB  [4]readAcc
	argB   [4]boundArg

	// The first chunks of the slabs, at each slab's lo (the size its
	// first take would have made), but affs and terms: per_cta_alloc's
	// forms are 9 with 23 terms, in the room of the convRoom's affs that
	// fullRoom leaves out (a chunk of each had been made past 8 and 16).
	ints    [16]int
	wins    [8]amir.Window
	accs    [4]amir.Access
	affs    [12]amir.Affine
	terms   [24]amir.Term
	exprs   [16]amir.IntExpr
	affPtrs [16]*amir.Affine
}

const (
	roomSrcs  = 10
	roomVars  = 6
	roomSyncs = 4
	roomNames = 8
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

// seedSlabs gives the converter's slab of bodies, its block allocation
// stack and its first KIncTaskID their room in r.
func (c *converter) seedSlabs(r *convRoom) {
	c.ptrSlab.seed(r.ptrs[:])
	c.allocStk = r.allocs[:0]
	c.taskStmt = &r.task
}

// seedData gives the converter's other slabs, its scratch buffers and
// its first groups their room in d.
func (c *converter) seedData(d *dataRoom) {
	c.intSlab.seed(d.ints[:])
	c.winSlab.seed(d.wins[:])
	c.accSlab.seed(d.accs[:])
	c.affSlab.seed(d.affs[:])
	c.termSlab.seed(d.terms[:])
	c.exprSlab.seed(d.exprs[:])
	c.affPtrSlab.seed(d.affPtrs[:])
	c.ixBuf[0], c.ixBuf[1] = d.ixBuf[0][:0], d.ixBuf[1][:0]
	c.slotBuf = d.slotB[:0]
	c.linBuf = d.linBuf[:0]
	c.readBuf, c.argBuf = d.readB[:0], d.argB[:0]
	c.stmtRoom = d.stmts[:]
}
