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
	roomCore

	// Sized from the proc (sizeOf): used when the count fits, else the
	// slice is made as before. The Srcs are bareRoom's and dataRoom's
	// (srcRoom), of two sizes.
	syncs    [roomSyncs]syntax.Stmt
	syncInfo [roomSyncs]amir.SyncInfo
	ctrl     [6]string
	iters    [4]loopSlot
	names    [roomNames]names // 7 of 64 bytes: 8 of 56 before the mask (stop 47)

	// Grown by append past these. stk: 24, the rest of fullRoom's
	// size class (rmem_uniform's had grown past 16; issue 13, stop 46).
	slots  [8]string
	shapes [3]coll.Collective
	stk    [24]*amir.Stmt
	allocs [4]allocSrc

	ptrs [16]*amir.Stmt // ptrSlab's first chunk

	// The qualifier and instruction names resolved (qual, instr).
	qnames [4]qualName
	instrs [4]instrName
}

// roomCore is what every room holds once, whatever its size: the
// Program, the proc's block and its first KIncTaskID.
type roomCore struct {
	prog amir.Program
	out  Program
	body amir.Stmt // the proc's block
	// task is the first cuda_tasks loop's KIncTaskID (forStmt).
	task amir.Stmt
}

// bareRoom is the room of a proc without data variables: its affine
// forms (its loops' bounds) take their first chunk from affs.
type bareRoom struct {
	convRoom
	srcRoom[[roomSrcs]amir.Src, [roomSrcs]syntax.Stmt, [roomSrcs]coll.Machine]
	affs [4]amir.Affine
}

// srcRoom is the room of the Srcs, their statements and machines
// (sizeOf's statements): S, T and M are arrays of one length.
type srcRoom[S, T, M any] struct {
	srcs     S
	srcStmts T
	machines M
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
	// The Srcs of a proc of up to fullSrcs statements: those of
	// rmem_uniform (15, 16) and shfl_xor (23), and the three-ring and
	// cp.async rows' (14-16), had each made the three slices past
	// convRoom's 10 (issue 13, stop 46).
	srcRoom[[fullSrcs]amir.Src, [fullSrcs]syntax.Stmt, [fullSrcs]coll.Machine]

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
	// two allocations of each check (issue 13, stop 42). ixBuf, the
	// composition's scratch, is made at the first access of a window
	// (accessDirect takes the others): its room went to the Srcs (stop
	// 46).
	slotB  [7]int
	linBuf [8]linTerm
	readB  [4]readAcc
	argB   [4]boundArg

	// The first chunks of the slabs, at each slab's lo (the size its
	// first take would have made), but affs and terms: per_cta_alloc's
	// forms are 9 with 23 terms, in the room of the convRoom's affs that
	// fullRoom leaves out (a chunk of each had been made past 8 and 16).
	// The accesses and windows take one chunk, of the size expectData
	// estimates, from the first: in the room, they had only moved 4
	// accesses and 8 windows of that chunk here, in a proc of more (issue
	// 13, stop 46: their room went to the Srcs).
	ints    [16]int
	affs    [12]amir.Affine
	terms   [24]amir.Term
	exprs   [16]amir.IntExpr
	affPtrs [16]*amir.Affine
}

const (
	roomSrcs  = 10
	fullSrcs  = 26
	roomVars  = 6
	roomSyncs = 4
	roomNames = 7
)

// tinyRoom is the room of a tiny proc with data variables (tinyFits):
// fullRoom's pieces sized to the few statements, loops and variables of
// a six-line kernel's or per_cta_alloc's conversion, one object of the
// 6784-byte size class in place of fullRoom's 9728 (the empty kernel's
// room had been three quarters empty: its one variable in room for six,
// its two forms' terms in room for 24; issue 13, stop 45). A proc that
// outgrows a piece allocates as it would past fullRoom's. The pieces are
// sized from the tiny procs of the repository's programs: a window and
// two forms more than the six-line kernel's, for the one-statement
// gmem kernel's, and less room for the reads, slots and allocations
// none of them filled. It holds the statements with side structs too
// (ctls, evs: per_cta_alloc's five loops and allocations, its three
// fences), which had been two allocations of each check past the room,
// in the 9472-byte class; without the composition's scratch (ixBuf),
// which accessDirect leaves to windows' accesses, it has room for them
// (issue 13, stop 46).
type tinyRoom struct {
	roomCore
	srcs     [tinySrcs]amir.Src
	srcStmts [tinySrcs]syntax.Stmt
	machines [tinySrcs]coll.Machine
	syncs    [tinySyncs]syntax.Stmt
	syncInfo [tinySyncs]amir.SyncInfo
	ctrl     [tinyCtrl]string
	iters    [tinyIters]loopSlot
	names    [tinyNames]names
	slots    [4]string
	shapes   [2]coll.Collective
	stk      [12]*amir.Stmt
	allocs   [1]allocSrc
	ptrs     [16]*amir.Stmt
	qnames   [2]qualName
	instrs   [2]instrName

	stmts   [8]amir.Stmt
	vars    [tinyVars]amir.Var
	vinfo   [tinyVars]varInfo
	vfacts  [tinyVars]varFacts
	slotB   [2]int
	linBuf  [4]linTerm
	readB   [1]readAcc
	argB    [2]boundArg
	ints    [8]int
	wins    [6]amir.Window
	accs    [4]amir.Access
	affs    [12]amir.Affine
	terms   [7]amir.Term
	exprs   [2]amir.IntExpr
	affPtrs [2]*amir.Affine
	ctls    [5]ctlStmt
	evs     [3]eventStmt
}

const (
	tinySrcs  = 8
	tinySyncs = 2
	tinyCtrl  = 4
	tinyIters = 3
	tinyNames = 5
	tinyVars  = 2
)

// tinyFits reports whether a proc of sz with nv variables and np
// parameters fits tinyRoom's sized pieces (any proc converts in any room:
// a piece that does not fit is made, as past fullRoom's).
func tinyFits(sz procSize, nv, np int) bool {
	return tinyForce || sz.stmts <= tinySrcs && nv <= tinyVars && sz.loops+1 <= tinyNames &&
		sz.syncs <= tinySyncs && sz.threads <= tinyIters && sz.loops+np <= tinyCtrl
}

// tinyForce puts every proc with variables in a tinyRoom (a test's, to
// run the growth past its pieces).
var tinyForce bool

// roomParts are a room's pieces as slices, whichever room holds them
// (fullRoom, tinyRoom, bareRoom: data is false for a bareRoom, whose
// affs are the only data piece), for seedRoom.
type roomParts struct {
	core     *roomCore
	srcs     []amir.Src
	srcStmts []syntax.Stmt
	machines []coll.Machine
	syncs    []syntax.Stmt
	syncInfo []amir.SyncInfo
	ctrl     []string
	iters    []loopSlot
	names    []names
	slots    []string
	shapes   []coll.Collective
	stk      []*amir.Stmt
	allocs   []allocSrc
	ptrs     []*amir.Stmt
	qnames   []qualName
	instrs   []instrName

	data    bool
	stmts   []amir.Stmt
	vars    []amir.Var
	vinfo   []varInfo
	vfacts  []varFacts
	slotB   []int
	linBuf  []linTerm
	readB   []readAcc
	argB    []boundArg
	ints    []int
	wins    []amir.Window
	accs    []amir.Access
	affs    []amir.Affine
	terms   []amir.Term
	exprs   []amir.IntExpr
	affPtrs []*amir.Affine
	ctls    []ctlStmt
	evs     []eventStmt
}

func (r *convRoom) parts(p *roomParts) {
	p.core = &r.roomCore
	p.syncs, p.syncInfo, p.ctrl, p.iters, p.names = r.syncs[:], r.syncInfo[:], r.ctrl[:], r.iters[:], r.names[:]
	p.slots, p.shapes, p.stk, p.allocs, p.ptrs = r.slots[:], r.shapes[:], r.stk[:], r.allocs[:], r.ptrs[:]
	p.qnames, p.instrs = r.qnames[:], r.instrs[:]
}

func (d *dataRoom) parts(p *roomParts) {
	p.data = true
	p.srcs, p.srcStmts, p.machines = d.srcs[:], d.srcStmts[:], d.machines[:]
	p.stmts, p.vars, p.vinfo, p.vfacts = d.stmts[:], d.vars[:], d.vinfo[:], d.vfacts[:]
	p.slotB, p.linBuf, p.readB, p.argB = d.slotB[:], d.linBuf[:], d.readB[:], d.argB[:]
	p.ints, p.affs, p.terms = d.ints[:], d.affs[:], d.terms[:]
	p.exprs, p.affPtrs = d.exprs[:], d.affPtrs[:]
}

func (r *bareRoom) parts(p *roomParts) {
	r.convRoom.parts(p)
	p.srcs, p.srcStmts, p.machines = r.srcs[:], r.srcStmts[:], r.machines[:]
	p.affs = r.affs[:]
}

func (r *tinyRoom) parts(p *roomParts) {
	p.core = &r.roomCore
	p.srcs, p.srcStmts, p.machines = r.srcs[:], r.srcStmts[:], r.machines[:]
	p.syncs, p.syncInfo, p.ctrl, p.iters, p.names = r.syncs[:], r.syncInfo[:], r.ctrl[:], r.iters[:], r.names[:]
	p.slots, p.shapes, p.stk, p.allocs, p.ptrs = r.slots[:], r.shapes[:], r.stk[:], r.allocs[:], r.ptrs[:]
	p.qnames, p.instrs = r.qnames[:], r.instrs[:]
	p.data = true
	p.stmts, p.vars, p.vinfo, p.vfacts = r.stmts[:], r.vars[:], r.vinfo[:], r.vfacts[:]
	p.slotB, p.linBuf, p.readB, p.argB = r.slotB[:], r.linBuf[:], r.readB[:], r.argB[:]
	p.ints, p.wins, p.accs, p.affs, p.terms = r.ints[:], r.wins[:], r.accs[:], r.affs[:], r.terms[:]
	p.exprs, p.affPtrs = r.exprs[:], r.affPtrs[:]
	p.ctls, p.evs = r.ctls[:], r.evs[:]
}

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
// stack and its first KIncTaskID their room in p.
func (c *converter) seedSlabs(p *roomParts) {
	c.ptrSlab.seed(p.ptrs)
	c.allocStk = p.allocs[:0]
	c.taskStmt = &p.core.task
}

// seedData gives the converter's other slabs, its scratch buffers and
// its first groups their room in p.
func (c *converter) seedData(p *roomParts) {
	c.intSlab.seed(p.ints)
	c.winSlab.seed(p.wins)
	c.accSlab.seed(p.accs)
	c.affSlab.seed(p.affs)
	c.termSlab.seed(p.terms)
	c.exprSlab.seed(p.exprs)
	c.affPtrSlab.seed(p.affPtrs)
	c.slotBuf = p.slotB[:0]
	c.linBuf = p.linBuf[:0]
	c.readBuf, c.argBuf = p.readB[:0], p.argB[:0]
	c.stmtRoom, c.roomStmts = p.stmts, len(p.stmts)
}
