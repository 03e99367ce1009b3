package syncheck

import (
	"fmt"
	"math/bits"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// Program is the AMIR of one proc plus what reports need.
type Program struct {
	AMIR *amir.Program
	Proc *syntax.Proc
	// SizeParams are the proc's control parameters, in AMIR param order.
	SizeParams []string
	// Syncs are the source synchronization statements, by amir Sync index.
	Syncs []syntax.Stmt
	// Devices maps each Src to the launch shape of its device function
	// (zero Machine in CPU code), for suggestions.
	Machines []coll.Machine
	Lib      *lib.Library
	// srcStmts are the statements of AMIR.Srcs, whose Text is filled
	// in on demand (fillText).
	srcStmts []syntax.Stmt
}

// fillText fills in the printed form and the position of AMIR.Srcs[i]
// (i < 0: none). Both are made only for the sources a report shows: the
// position is an interface (amir.Pos), and boxing one per statement was
// a twentieth of a small kernel's Convert objects (issue 13, stop 26).
func (p *Program) fillText(i int) {
	if i >= 0 && i < len(p.srcStmts) {
		if p.AMIR.Srcs[i].Text == "" {
			p.AMIR.Srcs[i].Text = printStmt(p.srcStmts[i])
		}
		p.fillPos(i)
	}
}

// fillQuals fills in AMIR.QualNames, the library's qualifiers in index
// order and, when there is room, the hidden mbarrier qualifier (MbarQual).
// Only a report prints them: made for each Convert, they had been an
// allocation of every check (issue 13, stop 29).
func (p *Program) fillQuals() {
	a := p.AMIR
	if a.QualNames != nil || p.Lib == nil {
		return
	}
	a.QualNames = make([]string, 0, len(p.Lib.QualOrder)+1)
	for _, q := range p.Lib.QualOrder {
		a.QualNames = append(a.QualNames, q.Name)
	}
	if len(a.QualNames) < 32 {
		a.QualNames = append(a.QualNames, "cuda_mbarrier_qual")
	}
}

// fillPos is fillText for the position alone: a hazard's own statement
// is reported at its position, only the earlier access's text is shown
// (printing both was 2% of a GEMM bug variant's check; issue 13, stop
// 27).
func (p *Program) fillPos(i int) {
	if i >= 0 && i < len(p.srcStmts) && p.AMIR.Srcs[i].Pos == nil {
		p.AMIR.Srcs[i].Pos = p.srcStmts[i].Pos()
	}
}

// converter implements T_s, T_e and T_arg (seed 000 Fig. 5, 17-20).
type converter struct {
	f    *syntax.File
	res  *gpucheck.Result
	lib  *lib.Library
	p    *amir.Program
	out  *Program
	errs *diag.List
	// ctrl: the names that are control variables somewhere, each once.
	// vars: the gpucheck variable of each AMIR variable (nil for a
	// hidden reverse twin). iters: the slot of each cuda_threads loop.
	// Slices searched in place: a small kernel has a few of each, and a
	// map each (and the srcs' below) had been a tenth of its Convert's
	// objects (issue 13, stop 29).
	ctrl   []string
	instrs map[string]*lib.Instr
	iters  []loopSlot
	// srcOf indexes the Srcs by statement once they are too many to
	// search (srcIndex).
	srcOf map[syntax.Stmt]int
	// srcSeen holds the addresses of the statements given a Src
	// (srcFilter).
	srcSeen srcFilter
	// vinfo is what the conversion keeps of each AMIR variable (varInfo),
	// by index.
	vinfo []varInfo
	// machine is the launch shape of the device function being converted.
	machine coll.Machine
	// qual indices (lib.KnownQuals)
	qCPU, qRmem, qRam, qSm80 amir.Qual
	// qnames and instrNames: the qualifier and instruction names
	// resolved (qual, instr), from convRoom.
	qnames     []qualName
	instrNames []instrName
	// bind maps the data parameters of an inlined proc to the caller's
	// argument, as a window (seed 000 §5.2: calls outside device
	// functions are inlined before conversion).
	bind   map[*gpucheck.Var]*gpucheck.Access
	depth  int
	hidden int
	// mbar is {Program.MbarQual}: the hidden timeline of hardware
	// mbarrier slot records, carried by every synchronization that
	// orders execution across its collective (amir/mbar.go).
	mbar amir.QualSet
	// rings collects, per CudaMbarrier variable (forward AMIR index), the
	// facts the code generator sizes its rings from (ring), in the order
	// first asked for; ringSlab backs them.
	rings    []*ringFacts
	ringSlab slab[ringFacts]
	// bigConsts are the compiled constants past constExprs (constExpr).
	bigConsts []bigConst
	// env0 is a zero environment of len(p.Slots) for evaluating
	// constant expressions (zeroEnv); never written.
	env0 []int
	// barSlab backs the barrier lists of Arrives (barList).
	barSlab slab[*amir.Access]
	// affMemo remembers the last affine forms computed within one access
	// (affineForm): the operands of a binary expression are compiled
	// (intExpr) and then asked for as forms (foldConst, modForm). A
	// window's ends take theirs from compile.
	affMemo [4]affMemo
	affNext int
	// affSlab and termSlab back the affine forms (newAffine).
	affSlab  slab[amir.Affine]
	termSlab slab[amir.Term]
	// constAff are the forms of the constants 0..len-1 (affineFormOf),
	// and slotAff the forms 1·slot of the slots 0..len-1: an index that
	// is a loop variable. The converter is Convert's stack frame, not an
	// allocation: 32 slots, where 8 had left a slot form per index of
	// shfl_xor's later loops (slots 8 to 12) to be made anew (issue 13,
	// stops 44 and 46).
	constAff [56]*amir.Affine
	slotAff  [32]*amir.Affine
	// bigAff are the forms of the first constants past constAff
	// (bigConstForm), nBigAff of them.
	bigAff  [8]*amir.Affine
	nBigAff int
	// linBuf backs the linear forms (linTerms), which are scratch: each
	// is read by the conversion step that made it, so the buffer is
	// rewound at each access (access).
	linBuf []linTerm
	// stk holds the statements of the blocks being converted, innermost
	// last: each statement's conversion pushes its AMIR statements, and a
	// block takes its own off as its body (popBody). ptrSlab and accSlab
	// back the bodies and the accesses (issue 13, stop 27: a result
	// slice per source statement and the growth of each block's slice
	// had been a third of Convert's objects).
	stk     []*amir.Stmt
	ptrSlab slab[*amir.Stmt]
	accSlab slab[amir.Access]
	// grp is the room for the statements put emits next; ctlSlab and
	// evSlab back the statements with side structs (stmts.go).
	grp []amir.Stmt
	// stmtRoom is what is left of convRoom's statements for group, and
	// taskStmt its KIncTaskID statement for the first cuda_tasks loop.
	stmtRoom []amir.Stmt
	taskStmt *amir.Stmt
	// stmtChunk is what is left of the chunk of the groups past the
	// room (groupChunk, made once: chunkMade); roomStmts the room's
	// statements, taken or not, and procStmts the proc's (sizeOf).
	stmtChunk []amir.Stmt
	chunkMade bool
	roomStmts int
	procStmts int
	ctlSlab   slab[ctlStmt]
	evSlab    slab[eventStmt]
	// allocStk: the allocations of the blocks being converted (pushBlock).
	// allocVar and allocVi: the variable the last alloc found (nil:
	// none) and its AMIR variable.
	allocStk []allocSrc
	allocVar *gpucheck.Var
	allocVi  int
	// allocs indexes allocation statements by variable (allocOf).
	allocs map[*gpucheck.Var]*syntax.Alloc
	// vfacts: the facts of each variable (facts), searched in place;
	// lastF: the facts found last (noFacts: none yet).
	vfacts []varFacts
	lastF  *varFacts
	// lastTiling and lastShape: the tiling exec last asked for and its
	// shape.
	lastTiling *coll.Tiling
	lastShape  int
	// lastTLName and lastTL: the sync timeline last found (syncTL).
	lastTLName string
	lastTL     *lib.SyncTL
	// lastSt and lastScope: the scope last looked up (scopeOf).
	lastSt    syntax.Stmt
	lastScope *gpucheck.Scope
	scopeCur  int // gpucheck's cursor (Result.ScopeAt): statements come in its walk order
	// readBuf and argBuf are reused by assign and call, ixBuf and
	// slotBuf by access.
	readBuf []readAcc
	argBuf  []boundArg
	ixBuf   [2][]idx
	slotBuf []int
	// intSlab and winSlab back accesses' slots and windows.
	intSlab slab[int]
	winSlab slab[amir.Window]
	// nameSlab backs the scopes (child); exprSlab and affPtrSlab the
	// variables' extents (varIndex).
	nameSlab   slab[names]
	exprSlab   slab[amir.IntExpr]
	affPtrSlab slab[*amir.Affine]
	// slotExprs are the compiled expressions env[slot], by slot, made at
	// their first use (affine): an index that is a loop variable is the
	// commonest expression, and one closure per slot serves them all.
	slotExprs []amir.IntExpr
}

// ints is a copy of s from the converter's slab (nil when s is empty, as
// the appends it replaces left an access without slots).
func (c *converter) ints(s []int) []int {
	n := len(s)
	if n == 0 {
		return nil
	}
	out := c.intSlab.take(n, 16, 256)
	copy(out, s)
	return out
}

// windows is an empty window slice with room for n, from the
// converter's slab.
func (c *converter) windows(n int) []amir.Window {
	return c.winSlab.take(n, 8, 128)[:0]
}

// newAccess is the access of the whole variable v, from the converter's
// slab (see stk).
// barList is an empty list with room for n barrier accesses (nil for
// none), from the converter's slab: an Arrive's list lives as long as
// the Program.
func (c *converter) barList(n int) []*amir.Access {
	if n == 0 {
		return nil
	}
	return c.barSlab.take(n, 8, 64)[:0]
}

// zeroEnv is an environment of len(p.Slots) zeros, to evaluate a
// constant expression (no slot is read): one buffer per conversion, in
// place of one per evaluation (stop 38). Expressions never write env.
func (c *converter) zeroEnv() []int {
	n := len(c.p.Slots)
	if len(c.env0) < n {
		c.env0 = make([]int, max(n, 2*len(c.env0)))
	}
	return c.env0[:n]
}

func (c *converter) newAccess(v int) *amir.Access {
	a := c.accSlab.one(4, 64)
	a.Var = v
	return a
}

// ringFacts: the largest skip count (lag) of the forward and reverse
// Awaits, whether reverse statements exist, and whether every lag was a
// constant (cudagen sync.go barrierAlloc: ring = fwd + rev skips with
// reverse statements, fwd skips + 1 without).
type ringFacts struct {
	v        int // the forward AMIR variable
	fwd, rev int
	hasRev   bool
	unknown  bool
	// tx and txSrc: the SMEM bytes of the TMA copies `>> z` converted
	// since the variable's last tma_to_smem_async Arrive, and the first
	// of them (-1 none): the expect_tx count the code generator gives
	// that Arrive (cudagen txBytes; amir/mbar.go rule 5).
	tx, txSrc int
}

// varInfo is what the conversion keeps of an AMIR variable: its gpucheck
// variable (nil for a hidden reverse twin), its extents as affine forms
// (nil where not affine: the HiAff of whole-extent windows), and the
// alignments of every access per dimension (granularity). One slice of
// them: three had been three allocations per Convert (issue 13, stop 29).
type varInfo struct {
	v      *gpucheck.Var
	dimAff []*amir.Affine
	gran   []int
}

// loopSlot is the slot of a cuda_threads loop's iterator.
type loopSlot struct {
	loop *syntax.For
	slot int
}

func (c *converter) isControlName(n string) bool {
	for _, x := range c.ctrl {
		if sameName(x, n) {
			return true
		}
	}
	return false
}

// setControl marks n a control name.
func (c *converter) setControl(n string) {
	if !c.isControlName(n) {
		c.ctrl = append(c.ctrl, n)
	}
}

// varOf is the AMIR variable of v, if made: at v's hint (ConvVar) when
// that entry holds v, else searched for. An entry with a variable holds
// one, which no other entry holds (varIndex makes one only when varOf
// misses; reverse twins hold none), so an entry that holds v is v's.
// The search had been ~45 instructions of each of rmem_uniform's eleven
// accesses a check (issue 13, stop 44).
func (c *converter) varOf(v *gpucheck.Var) (int, bool) {
	if i := uint(v.ConvVar); i < uint(len(c.vinfo)) && c.vinfo[i].v == v && !hintsOff {
		return int(i), true
	}
	for i := range c.vinfo {
		if c.vinfo[i].v == v {
			v.ConvVar = int32(i)
			return i, true
		}
	}
	return 0, false
}

// hintsOff makes varOf and facts search without the variables' hints
// (set by the test that compares the two ways).
var hintsOff bool

// srcLinear is the number of Srcs searched in place (srcIndex): a small
// kernel's, whose statements each ask for their Src once or a few times.
const srcLinear = 32

// srcIndex is the Src of statement st, if made.
func (c *converter) srcIndex(st syntax.Stmt) (int, bool) {
	ss := c.out.srcStmts
	if n := len(ss); n > 0 && ss[n-1] == st {
		return n - 1, true // the statement being converted, again
	}
	if a := stmtAddr(st); a != 0 && !srcFilterOff && !c.srcSeen.has(a) {
		return 0, false // never given a Src (srcSeen)
	}
	if len(ss) <= srcLinear {
		// Most searches miss (a statement's first Src): compared as its
		// concrete type, an element costs a few instructions, where an
		// interface comparison calls the runtime for each element of
		// the same type (shfl_xor: a hundred calls per check; issue 13,
		// stop 34: conv34).
		switch x := st.(type) {
		case *syntax.Assign:
			return lastIndexOf(ss, x)
		case *syntax.CallStmt:
			return lastIndexOf(ss, x)
		case *syntax.For:
			return lastIndexOf(ss, x)
		case *syntax.Alloc:
			return lastIndexOf(ss, x)
		}
		for i := len(ss) - 1; i >= 0; i-- {
			if ss[i] == st {
				return i, true
			}
		}
		return 0, false
	}
	if c.srcOf == nil {
		c.srcOf = make(map[syntax.Stmt]int, 2*len(ss))
		for i, x := range ss {
			if _, ok := c.srcOf[x]; !ok {
				c.srcOf[x] = i
			}
		}
	}
	i, ok := c.srcOf[st]
	return i, ok
}

// lastIndexOf is the last index of x in ss.
func lastIndexOf[T interface {
	comparable
	syntax.Stmt
}](ss []syntax.Stmt, x T) (int, bool) {
	for i := len(ss) - 1; i >= 0; i-- {
		if y, ok := ss[i].(T); ok && y == x {
			return i, true
		}
	}
	return 0, false
}

// constOf is the value of a constant of the file (gpucheck's), except
// the proc's own control parameters, which are given per run: read in
// place rather than copied per conversion (issue 13, stop 27).
func (c *converter) constOf(n string) (int64, bool) {
	for _, p := range c.out.SizeParams {
		if p == n {
			return 0, false
		}
	}
	v, ok := c.res.Consts[n]
	return v, ok
}

func (c *converter) qual(name string) (amir.Qual, bool) {
	for _, n := range c.qnames {
		if n.name == name {
			return n.q, n.ok
		}
	}
	q, ok := c.qualOf(name)
	if len(c.qnames) < maxQualNames {
		c.qnames = append(c.qnames, qualName{name, q, ok})
	}
	return q, ok
}

// qualOf is qual without the converter's list of names resolved. A name
// of lib.KnownQuals (an instruction argument's default T_init and T_ext,
// lib.Instr.ArgQuals) is its bit there: the library resolved it once
// (lib.Load) to 1<<Index of Library.Quals[name], or 0 when it has none,
// so the bit's index is the one read below (and one of 32 or more, or
// none, refused alike). A lookup by name had been ~140 instructions of
// each name's first ask (issue 13, stop 47).
func (c *converter) qualOf(name string) (amir.Qual, bool) {
	if bit, ok := c.lib.Known.Bit(name); ok && !knownBitOff {
		if i := bits.TrailingZeros64(uint64(bit)); bit != 0 && i < 32 {
			return amir.Qual(i), true
		}
		return 0, false
	}
	q := c.lib.Quals[name]
	if q == nil || q.Index >= 32 {
		return 0, false
	}
	return amir.Qual(q.Index), true
}

// knownBitOff makes qualOf look every name up (tests).
var knownBitOff bool

// qualName is a qualifier name qual resolved. The names an instruction
// argument asks for (its T_init, T_ext and atomic sets) are the
// library's strings, the same few for every argument of a kernel: a map
// lookup each had been a fiftieth of shfl_xor's Convert (issue 13, stop
// 35). A list searched in place (the same strings compare by pointer).
type qualName struct {
	name string
	q    amir.Qual
	ok   bool
}

// maxQualNames bounds the names qual remembers (a search in place).
const maxQualNames = 16

// knownQual is the qualifier of bit, a lib.KnownQuals field, as qual
// gives it (0 when the library has none or it is past the 32 an
// amir.QualSet holds).
func knownQual(bit lib.QualSet) amir.Qual {
	if bit == 0 {
		return 0
	}
	if i := bits.TrailingZeros64(uint64(bit)); i < 32 {
		return amir.Qual(i)
	}
	return 0
}

func (c *converter) quals(names []string) amir.QualSet {
	var s amir.QualSet
	for _, n := range names {
		if q, ok := c.qual(n); ok {
			s |= amir.Of(q)
		}
	}
	return s
}

// syncTL is the sync timeline e names (nil: none). The name last found
// is remembered: a Fence names one timeline twice (cuda_in_order,
// cuda_in_order), an Arrive and its Await one, and a lookup by name is
// ~140 instructions (issue 13, stop 47). The memo is the converter's,
// of one check, and keyed by the name looked up (an alias's name finds
// its own entry).
func (c *converter) syncTL(e syntax.Expr) *lib.SyncTL {
	n, ok := e.(*syntax.Name)
	if !ok {
		return nil
	}
	if c.lastTL != nil && c.lastTLName == n.Name {
		return c.lastTL
	}
	tl := c.lib.Timelines[n.Name]
	if tl != nil {
		c.lastTLName, c.lastTL = n.Name, tl
	}
	return tl
}

// Convert builds the AMIR of proc p. gpu is the collective analysis of the
// file (scopes, tilings, timelines of every statement).
func Convert(f *syntax.File, p *syntax.Proc, gpu *gpucheck.Result, l *lib.Library, errs *diag.List) *Program {
	// instrs (the file's own instructions), bind (inlined calls' data
	// parameters) and rings are made at their first entry: most programs
	// have none. The Program, its slices and the first chunks of the slabs are one
	// object (convRoom) while the proc is small, with the dataRoom of
	// a proc with variables (fullRoom), all sized down for a tiny proc
	// (tinyRoom).
	//
	// The proc's variables are at most the file's (gpucheck's), plus the
	// hidden reverse twins of its barriers (reverseVar, one at most per
	// barrier): room for them at once (their growth was a twentieth of a
	// small kernel's Convert). A bound of two twins whatever the barriers
	// had been past the room of the proc of a single three-ring chunk and
	// short of its twins (issue 13, stop 41).
	nv := len(gpu.Vars)
	for _, v := range gpu.Vars {
		if v.Barrier {
			nv++
		}
	}
	nv = min(nv, 34)
	// Sized from the proc's own statements (calls of other procs add
	// theirs by growing): the room's pieces first (tinyRoom), then most
	// source statements are a Src each, and the scopes, loops and
	// control names are counted by the same walk (stop 29).
	sz := sizeOf(p.Body)
	var rp roomParts
	switch {
	case len(gpu.Vars) == 0:
		new(bareRoom).parts(&rp)
	case tinyFits(sz, nv, len(p.Params)):
		new(tinyRoom).parts(&rp)
	default:
		fr := new(fullRoom)
		fr.convRoom.parts(&rp)
		fr.dataRoom.parts(&rp)
	}
	r := rp.core
	c := &converter{f: f, res: gpu, lib: l, errs: errs, stk: rp.stk[:0], lastF: &noFacts}
	c.p = &r.prog
	c.p.Name, c.p.Slots = p.Name.Name, rp.slots[:0]
	c.out = &r.out
	*c.out = Program{AMIR: c.p, Proc: p, Lib: l}
	c.seedSlabs(&rp)
	// The scopes are Convert's top one and one per loop (forStmt): blocks
	// convert in their enclosing scope (pushBlock), and calls of procs
	// (inline) grow the slab. Counted one per block and two per loop,
	// they had been twice as many, past the room of rmem_uniform's and
	// shfl_xor's (issue 13, stop 41).
	if n := sz.loops + 1; n <= len(rp.names) {
		c.nameSlab.seed(rp.names)
	} else {
		c.nameSlab.reserve(n)
	}
	// The statements with side structs: a tinyRoom's while they fit
	// (any of them: later ones take chunks of 4 past it), else a chunk
	// of the proc's count.
	if sz.ctls <= len(rp.ctls) {
		c.ctlSlab.seed(rp.ctls)
	} else {
		c.ctlSlab.reserve(sz.ctls)
	}
	if sz.events <= len(rp.evs) {
		c.evSlab.seed(rp.evs)
	} else {
		c.evSlab.reserve(sz.events)
	}
	if sz.syncs > 0 {
		c.out.Syncs = roomOr(rp.syncs, sz.syncs)
		c.p.Syncs = roomOr(rp.syncInfo, sz.syncs)
	}
	if sz.loops > 0 {
		// The room while the loops' names fit it: the control names are
		// distinct (setControl), and the parameters counted with them
		// are mostly data ones (rmem_uniform's two had made it past the
		// room: a slice of each check; issue 13, stop 46). Appends grow
		// it past the room (setControl) where names outgrow it.
		n := sz.loops + len(p.Params)
		if sz.loops <= len(rp.ctrl) {
			n = len(rp.ctrl)
		}
		c.ctrl = roomOr(rp.ctrl, n)
	}
	if sz.threads > 0 {
		c.iters = roomOr(rp.iters, sz.threads)
	}
	if n := sz.stmts; n > 0 {
		c.p.Srcs = roomOr(rp.srcs, n)
		c.out.srcStmts = roomOr(rp.srcStmts, n)
		c.out.Machines = roomOr(rp.machines, n)
	}
	if rp.data {
		c.procStmts = sz.stmts
		c.seedData(&rp)
		c.expectData(&rp, sz)
		c.p.Vars = roomOr(rp.vars, nv)
		c.vinfo = roomOr(rp.vinfo, nv)
		if nv <= len(rp.vfacts) {
			c.vfacts = rp.vfacts[:0:nv] // else made at the first facts
		}
	} else {
		// A proc without variables still makes the forms of its loops'
		// bounds (the constants'): their first chunk is the room's (a
		// slab's chunk had been a twentieth of the empty kernel's
		// Convert).
		c.affSlab.seed(rp.affs)
	}
	// The qualifiers' names are printed only in reports (fillQuals).
	if n := len(l.QualOrder); n < 32 {
		c.p.MbarQual = amir.Qual(n)
		c.mbar = amir.Of(c.p.MbarQual)
	}
	// Resolved by the library once (lib.KnownQuals); the CPU's timeline
	// at its first use (cpuQual): five lookups by name had been 7% of
	// the empty kernel's Convert (issue 13, stop 35).
	c.qRmem, c.qRam, c.qSm80 = knownQual(l.Known.InOrderRMEM), knownQual(l.Known.InOrderRAM), knownQual(l.Known.CpAsync)
	c.qCPU = knownQual(l.Known.CPUInOrder)
	c.qnames, c.instrNames = rp.qnames[:0], rp.instrs[:0]
	for _, d := range f.Decls {
		if q, ok := d.(*syntax.Proc); ok && lib.IsInstr(q) {
			var scratch diag.List
			if in := lib.ParseInstr(q, l, &scratch); in != nil {
				if c.instrs == nil {
					c.instrs = map[string]*lib.Instr{}
				}
				c.instrs[q.Name.Name] = in
			}
		}
	}
	// Room for the shapes at once (convRoom): one thread, the device
	// function's and one per distinct cuda_threads unit (AddShape; their
	// growth was two of a small kernel's allocations).
	c.p.Shapes = rp.shapes[:0]
	c.p.AddShape(coll.Collective{}) // shape 0: one thread
	top := c.child(nil)
	for _, prm := range p.Params {
		if prm.Type != nil && prm.Type.Elem != nil && prm.Type.Dims == nil && !prm.Type.Window && prm.Type.Mem == nil && !lib.IsDataType(prm.Type.Elem.Name) && prm.Type.Elem.Name != "barrier" {
			slot := c.slot(prm.Name.Name)
			c.bindControl(top, prm.Name.Name, slot)
			c.p.Params = append(c.p.Params, slot)
			c.out.SizeParams = append(c.out.SizeParams, prm.Name.Name) // given per run, not by --sizes (constOf)
		}
	}
	// Data parameters exist before the body runs (allocated at Run start);
	// create them now so their extents compile in the proc's own scope.
	if len(p.Body) > 0 {
		if sc0 := gpu.ScopeOf(p.Body[0]); sc0 != nil {
			for _, prm := range p.Params {
				if v := sc0.Lookup(prm.Name.Name); v != nil && v.Param && v.Window == nil {
					c.varIndex(top, v)
				}
			}
		}
	}
	body := c.block(top, p.Body)
	r.body = amir.Stmt{Kind: amir.KBlock, Body: body, Sync: -1}
	c.p.Body = &r.body
	c.finishGran()
	c.finishRings()
	c.p.Finish()
	return c.out
}

// expectData sizes the chunks of accesses and windows past the room's
// from gpucheck's accesses of the file (one access each, a window per
// index, one for a whole variable) and the proc's allocations (an
// access at the alloc and one at the free): chunks doubling from the
// room's 4 had been 8 and 16 for the 18 or 19 accesses of rmem_uniform,
// shfl_xor or three_rings (issue 13, stop 45). A walk of the proc's
// expressions for the same estimate had cost more instructions than the
// bytes it saved.
func (c *converter) expectData(rp *roomParts, sz procSize) {
	acc := c.res.Accesses
	wins := 0
	for _, a := range acc {
		wins += max(len(a.Indices), 1)
	}
	c.accSlab.expect(len(acc) + 2*sz.allocs - len(rp.accs))
	c.winSlab.expect(wins - len(rp.wins))
}

// scopeOf is gpucheck's scope of st. The conversion of one statement
// looks its scope up once per argument, and again for its threads, its
// memories and its barriers: the last one is remembered (issue 13, stop
// 27).
//
// Both the comparison with the last statement and the search are made
// as the statement's concrete type (sameStmt, scopeAt): compared as
// interfaces, each pair of the same type called the runtime
// (runtime.ifaceeq, ~50 calls a check of rmem_uniform; issue 13, stop
// 43).
func (c *converter) scopeOf(st syntax.Stmt) *gpucheck.Scope {
	if st == nil || !sameStmt(st, c.lastSt) {
		c.lastSt, c.lastScope = st, c.scopeAt(st)
	}
	return c.lastScope
}

// sameStmt is a == b, compared as a's concrete type where it is one of
// the statements the conversion asks about most: for a pointer type T,
// interfaces a and b are equal exactly when both hold a T and the same
// pointer, which a type assertion and a pointer comparison decide
// without the runtime call an interface comparison makes.
func sameStmt(a, b syntax.Stmt) bool {
	switch x := a.(type) {
	case *syntax.Assign:
		y, ok := b.(*syntax.Assign)
		return ok && x == y
	case *syntax.CallStmt:
		y, ok := b.(*syntax.CallStmt)
		return ok && x == y
	case *syntax.For:
		y, ok := b.(*syntax.For)
		return ok && x == y
	case *syntax.Alloc:
		y, ok := b.(*syntax.Alloc)
		return ok && x == y
	}
	return a == b
}

// scopeAt is gpucheck's Result.ScopeAt(st, &c.scopeCur) (the first
// occurrence of st in Result.Stmts from the cursor on, wrapping around;
// the cursor set after it, unchanged when st is not there), searched as
// st's concrete type (stmtFrom) for the statements most asked about.
func (c *converter) scopeAt(st syntax.Stmt) *gpucheck.Scope {
	i := -1
	switch x := st.(type) {
	case *syntax.Assign:
		i = stmtFrom(c.res.Stmts, x, c.scopeCur)
	case *syntax.CallStmt:
		i = stmtFrom(c.res.Stmts, x, c.scopeCur)
	case *syntax.For:
		i = stmtFrom(c.res.Stmts, x, c.scopeCur)
	case *syntax.Alloc:
		i = stmtFrom(c.res.Stmts, x, c.scopeCur)
	default:
		return c.res.ScopeAt(st, &c.scopeCur)
	}
	if i < 0 {
		return nil
	}
	c.scopeCur = i + 1
	return c.res.StmtScopes[i]
}

// stmtFrom is the index of the first x in list from cur on, wrapping
// around (-1: none), as ScopeAt searches.
func stmtFrom[T interface {
	comparable
	syntax.Stmt
}](list []syntax.Stmt, x T, cur int) int {
	n := len(list)
	i := cur
	for k := 0; k < n; k++ {
		if i >= n {
			i = 0
		}
		if y, ok := list[i].(T); ok && y == x {
			return i
		}
		i++
	}
	return -1
}

// procSize is what a proc's body holds (sizeOf): its statements, nested
// ones included, its loops and cuda_threads loops.
type procSize struct {
	stmts, loops, threads int
	// ctls and events: the statements with an amir.Ctl (loops, ifs,
	// allocations) and with an amir.Event (a device function's two
	// fences, fences, arrives, awaits); syncs: the synchronization
	// statements (newSync).
	ctls, events, syncs int
	// allocs: the allocations, whose alloc and free are each an access
	// past the statements' own (gpucheck's: expectData).
	allocs int
}

// sizeOf walks body once for the sizes of the converter's slices and
// slabs: grown by doubling, a small kernel's had been made two or three
// times (issue 13, stop 29).
func sizeOf(body []syntax.Stmt) procSize {
	var z procSize
	z.walk(body)
	return z
}

// walk adds the sizes of body to z (sizeOf), in place: a walk that
// returned each block's sizes by value, for its caller to add, had
// cost twice as much (issue 13, stop 41).
func (z *procSize) walk(body []syntax.Stmt) {
	z.stmts += len(body)
	for _, st := range body {
		switch st := st.(type) {
		case *syntax.For:
			z.loops++
			z.ctls++
			if st.Mode != nil && st.Mode.Name == "cuda_threads" {
				z.threads++
			}
			z.walk(st.Body)
		case *syntax.If:
			z.ctls++
			z.walk(st.Then)
			if len(st.Else) > 0 {
				z.ctls++
				z.walk(st.Else)
			}
		case *syntax.With:
			if call, _ := st.Ctx.(*syntax.Call); call != nil && call.FunName() == "CudaDeviceFunction" {
				z.events += 2 // its cuda_stream_sync fences (with)
			}
			z.walk(st.Body)
		case *syntax.Alloc:
			z.ctls++
			z.allocs++
		case *syntax.Fence, *syntax.Arrive, *syntax.Await:
			z.events++
			z.syncs++
		}
	}
}

func (c *converter) slot(name string) int {
	c.p.Slots = append(c.p.Slots, name)
	return len(c.p.Slots) - 1
}

// src returns the Src index of a source statement.
func (c *converter) src(st syntax.Stmt, timeline string) int {
	if i, ok := c.srcIndex(st); ok {
		return i
	}
	// Its Text is printed when a report needs it (Program.srcText):
	// printing every statement was a fifth of Convert (issue 13).
	// Its Pos is set with its Text, too (fillText).
	c.p.Srcs = append(c.p.Srcs, amir.Src{Timeline: timeline})
	c.out.srcStmts = append(c.out.srcStmts, st)
	c.srcSeen.add(stmtAddr(st))
	c.out.Machines = append(c.out.Machines, c.machine)
	if c.srcOf != nil {
		c.srcOf[st] = len(c.p.Srcs) - 1
	}
	return len(c.p.Srcs) - 1
}

// printStmt is the printed form of a statement that reports show.
// It is appended to one buffer, on the stack when it fits (appendStmt),
// and made a string once: the concatenations and the printer's
// builders of each part had been about ten allocations of each printed
// statement (issue 13, stop 42: 11 K instructions of a check of the
// three-ring bug variants).
func printStmt(st syntax.Stmt) string {
	var buf [128]byte
	return string(appendStmt(buf[:0], st))
}

// appendStmt appends the printed form of st: syntax.ExprString's text
// of its expressions (appendExpr).
func appendStmt(b []byte, st syntax.Stmt) []byte {
	switch st := st.(type) {
	case *syntax.Assign:
		b = appendExpr(b, st.LHS)
		b = append(b, ' ')
		b = append(b, st.Op...)
		b = append(b, ' ')
		return appendExpr(b, st.RHS)
	case *syntax.CallStmt:
		b = appendExpr(b, st.Call)
		return appendBarriers(b, st.Barriers)
	case *syntax.Fence:
		b = append(b, "Fence("...)
		b = appendExpr(b, st.First)
		b = append(b, ", "...)
		b = appendExpr(b, st.Second)
		return append(b, ')')
	case *syntax.Arrive:
		if st.Reverse {
			b = append(b, "ReverseArrive("...)
		} else {
			b = append(b, "Arrive("...)
		}
		b = appendExpr(b, st.TL)
		if st.N != nil {
			b = append(b, ", "...)
			b = appendExpr(b, st.N)
		}
		b = append(b, ')')
		return appendBarriers(b, st.Barriers)
	case *syntax.Await:
		if st.Reverse {
			b = append(b, "ReverseAwait("...)
		} else {
			b = append(b, "Await("...)
		}
		b = appendExpr(b, st.Bar)
		b = append(b, ", "...)
		b = appendExpr(b, st.TL)
		if st.N != nil {
			b = append(b, ", "...)
			b = appendExpr(b, st.N)
		}
		return append(b, ')')
	case *syntax.Free:
		b = append(b, "free "...)
		return append(b, st.Name.Name...)
	case *syntax.Alloc:
		b = append(b, st.Name.Name...)
		b = append(b, ": "...)
		return append(b, syntax.TypeString(st.Type)...)
	case *syntax.For:
		b = append(b, "for "...)
		b = append(b, st.Var.Name...)
		b = append(b, " in "...)
		b = append(b, st.Mode.Name...)
		return append(b, "(...)"...)
	}
	return fmt.Appendf(b, "%T", st)
}

// appendBarriers appends " >> b" for each barrier expression.
func appendBarriers(b []byte, bars []syntax.Expr) []byte {
	for _, e := range bars {
		b = append(b, " >> "...)
		b = appendExpr(b, e)
	}
	return b
}

// appendExpr appends syntax.ExprString(e). A name, an integer literal,
// a binary operation of two of them and an index of a name by such
// expressions (the barrier cells, timelines and counts of the sync
// statements) are written here, as the printer writes them: a name's
// Name, a literal's Text, "x op y" (a binary operation is parenthesized
// only below a context's precedence, and every operator binds tighter
// than the top level's 0; a name or literal operand never is) and
// "x[i, j]" (the indexed name at postfix precedence, each index at 0).
// Anything else is ExprString's. TestAppendExprMatchesPrinter compares
// both on each kind.
func appendExpr(b []byte, e syntax.Expr) []byte {
	if t, ok := exprAtom(e); ok {
		return append(b, t...)
	}
	switch e := e.(type) {
	case *syntax.Binary:
		x, ok1 := exprAtom(e.X)
		y, ok2 := exprAtom(e.Y)
		if ok1 && ok2 {
			b = append(b, x...)
			b = append(b, ' ')
			b = append(b, e.Op...)
			b = append(b, ' ')
			return append(b, y...)
		}
	case *syntax.Index:
		if x, ok := e.X.(*syntax.Name); ok && simpleIndices(e.Indices) {
			b = append(b, x.Name...)
			b = append(b, '[')
			for i, ix := range e.Indices {
				if i > 0 {
					b = append(b, ", "...)
				}
				b = appendExpr(b, ix)
			}
			return append(b, ']')
		}
	}
	return append(b, syntax.ExprString(e)...)
}

// exprAtom is the printed form of a name or an integer literal.
func exprAtom(e syntax.Expr) (string, bool) {
	switch e := e.(type) {
	case *syntax.Name:
		return e.Name, true
	case *syntax.IntLit:
		return e.Text, true
	}
	return "", false
}

// simpleIndices reports whether each index is a name, a literal or a
// binary operation of two of them (appendExpr).
func simpleIndices(ixs []syntax.Expr) bool {
	for _, ix := range ixs {
		if _, ok := exprAtom(ix); ok {
			continue
		}
		b, ok := ix.(*syntax.Binary)
		if !ok {
			return false
		}
		if _, ok := exprAtom(b.X); !ok {
			return false
		}
		if _, ok := exprAtom(b.Y); !ok {
			return false
		}
	}
	return true
}

// exec is g_s for a statement: its scope's thread collective (Definition 5.2).
func (c *converter) exec(st syntax.Stmt) amir.Exec {
	sc := c.scopeOf(st)
	if sc == nil || sc.Tiling == nil {
		return amir.Exec{All: true}
	}
	tl := sc.Tiling
	// The shape of the tiling last asked for is remembered: statements
	// in a row share their scope's tiling, and AddShape gives a tiling's
	// collective (its Start zeroed, the rest fixed when gpucheck built
	// the tiling) the index of the first equal shape, which stays its
	// index (Shapes are only appended to), so asking again answers
	// alike, where each ask compared the collective with every shape
	// (issue 13, stop 42).
	if tl != c.lastTiling {
		c.lastTiling, c.lastShape = tl, c.p.AddShape(tl.Collective(nil))
	}
	shape := c.lastShape
	base := tl.Base
	k := base.Const
	// The start is its affine form only, from the converter's slabs
	// (issue 13, stop 26): the machine evaluates StartAff (Machine.gs),
	// and a compiled Start beside it had been a closure per statement
	// (stop 31). The terms keep the order of base.Terms.
	af := c.newAffine(k, len(base.Terms))
	for _, t := range base.Terms {
		slot := -1
		for _, it := range sc.Iters {
			if it.ID == t.Iter {
				// The last of the loop's slots (an inlined proc's loop
				// has one per call), searched from the end: the loops
				// around st are the latest converted (a search of every
				// cuda_threads loop so far, each a candidate to
				// override the last, had been most of exec on
				// shfl_xor; issue 13, stop 41).
				for i := len(c.iters) - 1; i >= 0; i-- {
					if l := c.iters[i]; l.loop == it.Loop {
						slot = l.slot
						break
					}
				}
			}
		}
		if slot < 0 {
			continue
		}
		af.Terms = append(af.Terms, amir.Term{Slot: slot, Coef: t.Step})
	}
	return amir.Exec{Shape: shape, StartAff: af}
}

func (c *converter) cpu(st syntax.Stmt) bool {
	sc := c.scopeOf(st)
	return sc == nil || sc.Device == nil
}

// block converts a statement list; allocations of the block are freed at
// its end (SMEM free safety, seed 000 §4.2, and CheckBarrier at a
// barrier's deallocation).
func (c *converter) block(sc *names, body []syntax.Stmt) []*amir.Stmt {
	start := len(c.stk)
	c.pushBlock(sc, body)
	return c.popBody(start)
}

// pushBlock is block, its statements pushed on c.stk.
//
// The block runs in sc itself, not in a scope of its own: names are bound
// (names.set) only in the scopes that Convert (parameters), forStmt (the
// loop variable) and inline (a call's control parameters) make for that
// purpose, never in a scope given to them, so a block's own scope stayed
// empty and every lookup (sc.lookup) through it found what its parent
// finds. Without it, each lookup walks one scope less per enclosing block
// (a quarter of the lookups' cost on shfl_xor; issue 13, stop 40), and
// affineForm's memo, keyed by (sc, e), still keys the same form: the
// bindings visible from sc are those visible from the empty scope.
func (c *converter) pushBlock(sc *names, body []syntax.Stmt) {
	// The block's allocations, on c.allocStk above the enclosing
	// blocks' (a slice per block was a tenth of Convert's objects).
	a0 := len(c.allocStk)
	var freed map[string]bool // made at the block's first free (most have none)
	for _, st := range body {
		a, isAlloc := st.(*syntax.Alloc)
		if isAlloc {
			c.allocStk = append(c.allocStk, allocSrc{a: a, src: -1})
			c.allocVar = nil
		}
		if fr, ok := st.(*syntax.Free); ok {
			if freed == nil {
				freed = map[string]bool{}
			}
			freed[fr.Name.Name] = true
		}
		c.stmt(sc, st)
		if isAlloc {
			// The allocation's Src, when alloc made one: the last made
			// (its conversion pushes nothing on allocStk).
			e := &c.allocStk[len(c.allocStk)-1]
			if ss := c.out.srcStmts; len(ss) > 0 {
				if x, ok := ss[len(ss)-1].(*syntax.Alloc); ok && x == a {
					e.src = len(ss) - 1
				}
			}
			e.v, e.vi = c.allocVar, c.allocVi
		}
	}
	for i := len(c.allocStk) - 1; i >= a0; i-- {
		e := c.allocStk[i]
		switch {
		case freed[e.a.Name.Name]:
		case allocVarOff:
			c.free(sc, e.a, e.a.Name.Name, e.src)
		case e.v != nil:
			// free's variable is alloc's (allocSrc.v): free looks the
			// same name up in the scope of the same statement, and
			// gpucheck records each statement once (scopes.go; its
			// TestScopeAtMatchesMap fails on a statement recorded
			// twice), so ScopeAt finds the same scope from any cursor;
			// varOf finds the variable varIndex made. Its search, from
			// the block's end around to the allocation, and the lookup
			// had been ~1.5 K of rmem_uniform's Convert (issue 13, stop
			// 43). alloc found no variable: free finds none either.
			c.freeVar(e.a, e.v, e.vi, e.src)
		}
	}
	// Not cleared, as c.stk (popBody): the allocations are the file's.
	c.allocStk = c.allocStk[:a0]
}

// allocSrc is an allocation of a block being converted and its Src (-1
// unknown), and its variable and AMIR variable as alloc found them (v
// nil: none).
type allocSrc struct {
	a   *syntax.Alloc
	src int
	v   *gpucheck.Var
	vi  int
}

// allocVarOff makes pushBlock free a block's allocations by free's own
// lookups, not the variable alloc found (tests).
var allocVarOff bool

// push appends s to c.stk. Statements are allocated a source statement's
// worth at a time (stmts.go), not taken from a slab as the smaller
// objects are: at 456 bytes each (stop 27), a slab's unused tail cost
// more, in bytes zeroed, than the allocations it saved (a tiny kernel's
// Convert allocated 20% more bytes).
func (c *converter) push(s *amir.Stmt) { c.stk = append(c.stk, s) }

// popBody takes the statements pushed since start off c.stk, as a body
// from the converter's slab of pointers (nil when none, as an empty
// block's was). A body's capacity is its length: the machine's passes
// never append to one in place.
func (c *converter) popBody(start int) []*amir.Stmt {
	n := len(c.stk) - start
	if n == 0 {
		return nil
	}
	body := c.ptrSlab.take(n, 16, 512)
	// Element by element: a body is a few statements, and copy of
	// pointers is a call of the runtime's typedslicecopy (~45
	// instructions a block; issue 13, stop 47).
	for i, s := range c.stk[start:] {
		body[i] = s
	}
	// Not cleared: the statements the stack's tail still points to
	// are the Program's, as long-lived as the room that holds the
	// stack (convRoom.stk), and the next pushes overwrite them; a
	// clear per block had been a hundredth of per_cta_alloc's Convert
	// (issue 13, stop 41).
	c.stk = c.stk[:start]
	return body
}

func (c *converter) errorf(n syntax.Node, code, format string, args ...any) {
	c.errs.Errorf(n.Pos(), code, format, args...)
}

// stmt converts st, pushing its statements on c.stk.
func (c *converter) stmt(sc *names, st syntax.Stmt) {
	switch st := st.(type) {
	case *syntax.Alloc:
		c.alloc(sc, st)
	case *syntax.Assign:
		c.assign(sc, st)
	case *syntax.For:
		c.forStmt(sc, st)
	case *syntax.If:
		cond, ok := c.boolExpr(sc, st.Cond)
		if !ok {
			c.errorf(st.Cond, codeUnsupported, "the sync check cannot evaluate this condition: %s", syntax.ExprString(st.Cond))
			return
		}
		deps := c.slotsOf(sc, st.Cond)
		then := c.block(sc, st.Then)
		s, ctl := c.newCtl(amir.KIf, 0)
		s.Body, s.CtlSlots, ctl.Cond = then, deps, cond
		c.push(s)
		if len(st.Else) > 0 {
			not := func(env []int) bool { return !cond(env) }
			els := c.block(sc, st.Else)
			s, ctl := c.newCtl(amir.KIf, 0)
			s.Body, s.CtlSlots, ctl.Cond = els, deps, not
			c.push(s)
		}
	case *syntax.With:
		c.with(sc, st)
	case *syntax.CallStmt:
		c.call(sc, st)
	case *syntax.Fence:
		c.fence(sc, st)
	case *syntax.Arrive:
		c.arrive(sc, st)
	case *syntax.Await:
		c.await(sc, st)
	case *syntax.Free:
		if a := c.allocOf(st); a != nil {
			c.free(sc, a, st.Name.Name, -1)
		}
	}
}

// allocOf is the allocation statement of the variable a free names (nil
// when none).
func (c *converter) allocOf(fr *syntax.Free) *syntax.Alloc {
	sc := c.scopeOf(fr)
	if sc == nil {
		return nil
	}
	v := sc.Lookup(fr.Name.Name)
	if v == nil {
		return nil
	}
	if c.allocs == nil {
		// Each free had scanned every scoped statement of the file: one
		// pass, at the first free, indexes every allocation by the
		// variable its own scope resolves its name to (issue 13, stop 27).
		c.allocs = map[*gpucheck.Var]*syntax.Alloc{}
		for i, st := range c.res.Stmts {
			s2 := c.res.StmtScopes[i]
			if a, ok := st.(*syntax.Alloc); ok {
				if av := s2.Lookup(a.Name.Name); av != nil {
					c.allocs[av] = a
				}
			}
		}
	}
	if a := c.allocs[v]; a != nil && a.Name.Name == fr.Name.Name {
		return a
	}
	return nil
}

// with: CudaDeviceFunction is bracketed by cuda_stream_sync fences (Fig. 5);
// CudaWarps and CudaAsync are transparent.
func (c *converter) with(sc *names, st *syntax.With) {
	call, _ := st.Ctx.(*syntax.Call)
	name := ""
	if call != nil {
		name = call.FunName()
	}
	if name != "CudaDeviceFunction" {
		c.pushBlock(sc, st.Body)
		return
	}
	saved := c.machine
	for _, d := range c.res.Devices {
		if d.Stmt == st && d.Fn != nil {
			c.machine = d.Fn.Machine()
		}
	}
	// Qcs and Tcs: the full and temporal sets of cuda_stream_sync. The
	// seed's text of Fig. 16 prints one "full" cell in that row, in the
	// strm column; read as a merged cell over every device column (as the
	// library reads the single "temp." cell of cuda_temporal), it makes the
	// brackets do what §5.2 says they do: serialize the kernel with prior
	// and subsequent kernels. Read literally (strm only), no device record
	// could ever be witnessed by them (Definition B.3), and two kernels
	// writing the same buffer would always be reported.
	// Resolved by the library once (lib.StreamSyncSets): the two lookups
	// by name had been ~280 instructions of every check (issue 13, stop
	// 47). The conversion to amir.QualSet keeps the low 32 bits, of the
	// union as of each set.
	ss := &c.lib.StreamSync
	qcs, tcs := amir.QualSet(ss.Full)|c.mbar, amir.QualSet(ss.Temp)|c.mbar
	src := c.src(st, "cuda_stream_sync")
	c.push(c.streamFence(src, qcs|amir.Of(c.qCPU), qcs, tcs))
	c.pushBlock(sc, st.Body)
	c.push(c.streamFence(src, qcs, qcs, tcs))
	c.machine = saved
}

// streamFence is one of a device function's cuda_stream_sync fences
// (with), executed by every thread, convergent.
func (c *converter) streamFence(src int, pre, full, temp amir.QualSet) *amir.Stmt {
	s, ev := c.newEvent(amir.KFence, src, -1)
	s.Exec.All, s.Convergent = true, true
	ev.Pre, ev.Full, ev.Temp = pre, full, temp
	return s
}

func (c *converter) forStmt(sc *names, st *syntax.For) {
	lo, ok1 := c.intExpr(sc, st.Lo)
	hi, ok2 := c.intExpr(sc, st.Hi)
	if !ok1 || !ok2 {
		c.errorf(st, codeUnsupported, "the sync check cannot evaluate the bounds of this loop")
		return
	}
	inner := c.child(sc)
	slot := c.slot(st.Var.Name)
	c.bindControl(inner, st.Var.Name, slot)
	mode := ""
	if st.Mode != nil {
		mode = st.Mode.Name
	}
	if mode == "cuda_threads" {
		c.iters = append(c.iters, loopSlot{st, slot})
	}
	start := len(c.stk)
	if mode == "cuda_tasks" {
		t := c.taskStmt
		if c.taskStmt = nil; t == nil {
			t = new(amir.Stmt)
		}
		*t = amir.Stmt{Kind: amir.KIncTaskID, Sync: -1}
		c.push(t)
	}
	c.pushBlock(inner, st.Body)
	body := c.popBody(start)
	s, ctl := c.newCtl(amir.KLoop, c.src(st, ""))
	s.Body, s.CtlSlots = body, c.slotsOf(sc, st.Lo, st.Hi)
	ctl.Slot, ctl.Lo, ctl.Hi, ctl.Tasks = slot, lo, hi, mode == "cuda_tasks"
	c.push(s)
}

// --- variables and accesses ---

// varFacts are the facts of a variable the conversion asks for at each
// of its accesses, found once: each takes string-keyed lookups in the
// library and walks of its barrier memories' derivations (issue 13, stop
// 27).
//
// The pointer facts returns is read at once: a later call may move the
// facts (a slice searched in place; issue 13, stop 29).
type varFacts struct {
	v                             *gpucheck.Var
	mem                           *lib.Memory
	bar                           *lib.BarrierMemory
	exempt, commitGroup, mbarrier bool
}

func (c *converter) facts(v *gpucheck.Var) *varFacts {
	// The facts last found first: a statement asks for one variable's
	// several times in a row (exempt, qin, memOf, commitGroup), and a
	// search from the first had been a fiftieth of rmem_uniform's
	// Convert (issue 13, stop 41). Entries are never changed once
	// appended, so an index stays the variable's, and the entry found
	// last (lastF) is read where it is, in the slice's array of then
	// or a copy of it (the same, never changed). This test alone is
	// inlined into the askers (issue 13, stop 46: a call each).
	if f := c.lastF; f.v == v {
		return f
	}
	return c.factsOf(v)
}

// noFacts is lastF before any facts are found: no variable's (never
// written).
var noFacts varFacts

// factsOf is facts past the facts last found.
func (c *converter) factsOf(v *gpucheck.Var) *varFacts {
	// Then at v's hint (ConvFacts), as varOf's: each entry is one
	// variable's (stop 44).
	if i := uint(v.ConvFacts); i < uint(len(c.vfacts)) && c.vfacts[i].v == v && !hintsOff {
		c.lastF = &c.vfacts[i]
		return c.lastF
	}
	for i := range c.vfacts {
		if c.vfacts[i].v == v {
			v.ConvFacts = int32(i)
			c.lastF = &c.vfacts[i]
			return c.lastF
		}
	}
	// The variable's memory and barrier type are looked up once for
	// all its facts (issue 13, stop 35: five lookups by name per
	// variable).
	// A name is one of the two at most (the library defines each name
	// once: lib's loader, define), so the table a variable's kind
	// points to is asked first and the other only when that misses.
	var m *lib.Memory
	var b *lib.BarrierMemory
	if v.Barrier {
		if b = c.lib.Barriers[v.Mem]; b == nil {
			m = c.memory(v)
		}
	} else if m = c.memory(v); m == nil {
		b = c.lib.Barriers[v.Mem]
	}
	// Whether the barrier type derives from CudaCommitGroup, asked by
	// both exemptOf and commitGroupOf: a walk of its derivations by
	// name, once (issue 13, stop 41).
	cg := b != nil && b.DerivesFrom("CudaCommitGroup")
	f := varFacts{v: v, mem: m, bar: b, exempt: c.exemptOf(v, m, b, cg), commitGroup: commitGroupOf(v, cg), mbarrier: mbarrierOf(v, b)}
	if c.vfacts == nil {
		c.vfacts = make([]varFacts, 0, cap(c.vinfo))
	}
	c.vfacts = append(c.vfacts, f)
	i := len(c.vfacts) - 1
	v.ConvFacts = int32(i)
	c.lastF = &c.vfacts[i]
	return c.lastF
}

// memory is c.lib.Memories[v.Mem]: the memory type gpucheck looked up
// at v's first access (Result.Memory) when the check's library is this
// one, without a second hash of the name (issue 13, stop 44: six
// lookups of rmem_uniform's variables a check, ~140 instructions each).
// v.Mem is set where v is declared and never changed, and a library is
// not changed once loaded, so both give the same memory.
func (c *converter) memory(v *gpucheck.Var) *lib.Memory {
	if c.res.Lib == c.lib && !memoryOff {
		return c.res.Memory(v)
	}
	return c.lib.Memories[v.Mem]
}

// memoryOff makes memory look the name up itself (set by the test that
// compares the two ways).
var memoryOff bool

func (c *converter) memOf(v *gpucheck.Var) *lib.Memory { return c.facts(v).mem }

// barrierOf is the library's barrier type of barrier variable v (nil
// for a data variable, or a barrier type the library lacks), from its
// facts: alloc and free had looked it up by name again (issue 13, stop
// 41).
func (c *converter) barrierOf(v *gpucheck.Var) *lib.BarrierMemory {
	if !v.Barrier {
		return nil
	}
	return c.facts(v).bar
}

// exempt reports sync-exempt memories (seed 000 §5.2.2: CudaGridConstant,
// CudaClusterSync, CudaCommitGroup).
func (c *converter) exempt(v *gpucheck.Var) bool { return c.facts(v).exempt }

// exemptOf is exempt's answer; m and b are the library's memory and
// barrier type of v.Mem (nil: none), cg whether b derives from
// CudaCommitGroup.
func (c *converter) exemptOf(v *gpucheck.Var, m *lib.Memory, b *lib.BarrierMemory, cg bool) bool {
	switch v.Mem {
	case "CudaGridConstant", "CudaClusterSync", "CudaCommitGroup":
		return true
	}
	if m != nil && m.Space == "grid_constant" {
		return true
	}
	if m != nil && m.Uniform != "" && v.Type != nil {
		// CudaRmemUniform(n): each thread of an n-thread owner holds its
		// own register copy and touches only that copy (distmem: every
		// access lies within one owner; gpucheck R13: writes by the whole
		// owner, each thread to its copy), and only in-order scalar code
		// reaches it (no instruction parameter accepts the memory), so no
		// two threads share a location and each thread's accesses are in
		// program order: no hazard exists to check. The machine's single
		// cell per shard would instead pair one thread's read with another
		// thread's write of its own copy. n = 1 is CudaRmem, checked.
		if n, ok := m.UniformThreads(v.Type.Mem, c.res.Eval); ok && n > 1 {
			return true
		}
	}
	if b != nil && (cg || b.DerivesFrom("CudaClusterSync")) {
		return true
	}
	return false
}

// commitGroup reports CudaCommitGroup barriers: per-thread hardware queues
// (commit_group / wait_group count the executing thread's own groups), so
// the machine keeps one queue per executing collective (amir.Var.
// PerThreadQueue; docs/weft-sync.md).
func (c *converter) commitGroup(v *gpucheck.Var) bool { return c.facts(v).commitGroup }

// commitGroupOf is commitGroup's answer; cg is whether the library's
// barrier type of v.Mem derives from CudaCommitGroup (false: none).
func commitGroupOf(v *gpucheck.Var, cg bool) bool {
	if !v.Barrier {
		return false
	}
	return v.Mem == "CudaCommitGroup" || cg
}

// isSmem: shared memories and mbarriers (seed 000 §5.2.2).
func (c *converter) isSmem(v *gpucheck.Var) bool {
	if m := c.memOf(v); m != nil {
		return m.Space == "smem"
	}
	if b := c.facts(v).bar; b != nil {
		return b.DerivesFrom("CudaMbarrier")
	}
	return false
}

// qin is T_qin (Fig. 18).
func (c *converter) qin(st syntax.Stmt, v *gpucheck.Var) amir.Qual {
	if c.cpu(st) {
		return c.qCPU
	}
	if m := c.memOf(v); m != nil && m.Space == "rmem" {
		return c.qRmem
	}
	return c.qRam
}

// varIndex returns the AMIR variable of v (not a window), creating it.
func (c *converter) varIndex(sc *names, v *gpucheck.Var) int {
	if i, ok := c.varOf(v); ok {
		return i
	}
	var dims []amir.IntExpr
	var affs []*amir.Affine
	if v.Type != nil && len(v.Type.Dims) > 0 {
		// Sized once (issue 13, stop 26: Convert's allocation).
		// From slabs (stop 28): a variable's extents live as long as the
		// Program.
		dims = c.exprSlab.take(len(v.Type.Dims), 16, 256)[:0]
		affs = c.affPtrSlab.take(len(v.Type.Dims), 16, 256)[:0]
		for _, d := range v.Type.Dims {
			e, af, _, ok := c.compile(sc, d)
			if !ok {
				c.errs.Errorf(d.Pos(), codeUnsupported, "the sync check cannot evaluate this extent: %s", syntax.ExprString(d))
				e = func([]int) int { return 0 }
			}
			dims = append(dims, e)
			affs = append(affs, af)
		}
	}
	c.p.Vars = append(c.p.Vars, amir.Var{Name: v.Name, Barrier: v.Barrier, Dims: dims, Param: v.Param, PerThreadQueue: c.commitGroup(v)})
	c.vinfo = append(c.vinfo, varInfo{v: v, dimAff: affs, gran: c.intSlab.take(len(dims), 16, 256)})
	i := len(c.p.Vars) - 1
	v.ConvVar = int32(len(c.vinfo) - 1) // varOf's hint
	// Whole-variable accesses (x, x[:, :], frees) constrain nothing: a
	// window ending at the extent covers the last, possibly partial, block.
	return i
}

func (c *converter) noteGran(v, d, a int) {
	if g := c.vinfo[v].gran; d < len(g) {
		g[d] = gcd(g[d], a)
	}
}

func (c *converter) finishGran() {
	for i := range c.p.Vars {
		// In place: the alignments are not read after this.
		g := c.vinfo[i].gran
		for d, a := range g {
			// 0: only whole-extent windows
			if a < 0 {
				g[d] = 1
			}
		}
		c.p.Vars[i].Gran = g
	}
}

// sameAffine reports whether a and b (either may be nil: not affine) are
// the same affine form, hence equal in every slot environment.
func sameAffine(a, b *amir.Affine) bool {
	if a == nil || b == nil || a.K != b.K {
		return false
	}
	if a == b {
		return true
	}
	// Each slot's coefficients summed in a minus those in b: a form has a
	// few terms, so a scan per term replaces the map it was (issue 13,
	// stop 36: a map per slice window with an end).
	for _, ts := range [2][]amir.Term{a.Terms, b.Terms} {
		for _, t := range ts {
			if slotCoef(a.Terms, t.Slot) != slotCoef(b.Terms, t.Slot) {
				return false
			}
		}
	}
	return true
}

// slotCoef is the sum of the coefficients of slot s in ts.
func slotCoef(ts []amir.Term, s int) int {
	k := 0
	for _, t := range ts {
		if t.Slot == s {
			k += t.Coef
		}
	}
	return k
}

// idx is one index of an access before compilation: a point or a slice,
// with the forms used for granularity.
type idx struct {
	lo, hi syntax.Expr // hi nil for a point; lo nil means 0
	slice  bool
	offset []syntax.Expr // added to lo and hi (window composition)
	// openSet: hi is openHi in the viewed variable's coordinates (no
	// offset), from w[c:] of a window w = x[a:b]; nil openHi is x's extent.
	openSet bool
	openHi  syntax.Expr
}

// access builds e# for a use of a variable (Name or Index), composing
// window statements (inlined, seed 000 §5.2). It returns the base variable.
func (c *converter) access(sc *names, st syntax.Stmt, e syntax.Expr) (*amir.Access, *gpucheck.Var, bool) {
	var name *syntax.Name
	var use []syntax.Expr
	switch e := e.(type) {
	case *syntax.Name:
		name = e
	case *syntax.Index:
		n, ok := e.X.(*syntax.Name)
		if !ok {
			c.errorf(e, codeUnsupported, "the sync check does not support this access: %s", syntax.ExprString(e))
			return nil, nil, false
		}
		name, use = n, e.Indices
	default:
		return nil, nil, false
	}
	s := c.scopeOf(st)
	if s == nil {
		return nil, nil, false
	}
	v := s.Lookup(name.Name)
	if v == nil {
		return nil, nil, false
	}
	return c.accessVar(sc, e, v, use)
}

// accessVar is access once e's variable is found: v is what the scope
// of the statement resolves e's name to (non-nil), use e's indices (nil
// for a Name). reads and assign, which have looked v up already, call
// it directly: the same name looked up in the same scope again had been
// a second scope walk per read (issue 13, stop 43).
func (c *converter) accessVar(sc *names, e syntax.Expr, v *gpucheck.Var, use []syntax.Expr) (*amir.Access, *gpucheck.Var, bool) {
	c.affMemo = [len(c.affMemo)]affMemo{} // see affineForm
	// No linear form made before this access is read again (linTerms).
	c.linBuf = c.linBuf[:0]
	if v.Window == nil && (c.bind == nil || c.bind[v] == nil) && !directOff {
		return c.accessDirect(sc, e, v, use)
	}
	// Compose windows: each level maps the use's indices through the
	// window's slices onto the viewed variable.
	// The indices of each level are built in one of two scratch
	// buffers, the other holding the level before (a slice per level and
	// access had been a tenth of Convert's objects).
	// The buffers go back to c.ixBuf at each return, grown or not (a
	// deferred closure had cost ~50 instructions an access; issue 13,
	// stop 44).
	ixs, spare := c.ixBuf[0][:0], c.ixBuf[1][:0]
	for _, u := range use {
		if sl, ok := u.(*syntax.Slice); ok {
			ixs = append(ixs, idx{lo: sl.Lo, hi: sl.Hi, slice: true})
		} else {
			ixs = append(ixs, idx{lo: u})
		}
	}
	whole := len(use) == 0
	for {
		w := v.Window
		if w == nil {
			w = c.bind[v]
		}
		if w == nil {
			break
		}
		if len(w.Indices) == 0 {
			v = w.Var // the same indices, on the viewed variable
			continue
		}
		next := spare[:0]
		k := 0
		for _, b := range w.Indices {
			sl, isSlice := b.(*syntax.Slice)
			if !isSlice {
				next = append(next, idx{lo: b})
				continue
			}
			if whole || k >= len(ixs) {
				next = append(next, idx{lo: sl.Lo, hi: sl.Hi, slice: true})
				k++
				continue
			}
			u := ixs[k]
			k++
			off := append(append([]syntax.Expr{}, u.offset...), orZero(sl.Lo))
			if u.slice && u.hi == nil && !u.openSet {
				// w = x[a:b] used as w[c:]: x[a+c : b].
				next = append(next, composeOpenHi(u, sl))
				continue
			}
			next = append(next, idx{lo: u.lo, hi: u.hi, slice: u.slice, offset: off})
		}
		whole = false
		ixs, spare = next, ixs
		v = w.Var
	}
	vi := c.varIndex(sc, v)
	a := c.newAccess(vi)
	if whole {
		c.ixBuf[0], c.ixBuf[1] = ixs[:0], spare[:0]
		return a, v, true
	}
	nd := len(c.p.Vars[vi].Dims)
	if len(ixs) != nd {
		c.errorf(e, codeUnsupported, "%s has %d dimensions, accessed with %d indices", v.Name, nd, len(ixs))
		c.ixBuf[0], c.ixBuf[1] = ixs[:0], spare[:0]
		return nil, nil, false
	}
	slots := c.slotBuf[:0]
	for _, ix := range ixs {
		slots = c.appendSlots(slots, sc, ix.lo, ix.hi, ix.openHi)
		slots = c.appendSlots(slots, sc, ix.offset...)
	}
	c.slotBuf = slots
	a.Slots = c.ints(slots)
	a.Idx = c.windows(len(ixs))
	for d, ix := range ixs {
		w, ok := c.window(sc, vi, d, &ix)
		if !ok {
			c.errorf(e, codeUnsupported, "the sync check cannot evaluate the indices of %s", syntax.ExprString(e))
			c.ixBuf[0], c.ixBuf[1] = ixs[:0], spare[:0]
			return nil, nil, false
		}
		a.Idx = append(a.Idx, w)
	}
	c.ixBuf[0], c.ixBuf[1] = ixs[:0], spare[:0]
	return a, v, true
}

// accessDirect is accessVar for a variable that is neither a window nor
// an inlined call's bound parameter (the composition loop's first test
// ends it): its indices are use's own, without offsets, and its slots
// those of use in order (appendSlotsOf of a slice gives its lo's, then
// its hi's, as appendSlots of the idx's lo and hi did). The idx of each
// index built in the scratch buffers and copied twice more (88 bytes
// each) had been a sixth of accessVar on shfl_xor (issue 13, stop 46).
func (c *converter) accessDirect(sc *names, e syntax.Expr, v *gpucheck.Var, use []syntax.Expr) (*amir.Access, *gpucheck.Var, bool) {
	vi := c.varIndex(sc, v)
	a := c.newAccess(vi)
	if len(use) == 0 {
		return a, v, true
	}
	if nd := len(c.p.Vars[vi].Dims); len(use) != nd {
		c.errorf(e, codeUnsupported, "%s has %d dimensions, accessed with %d indices", v.Name, nd, len(use))
		return nil, nil, false
	}
	// The slots are appendSlots' of use, index by index: a name's
	// looked up once for them and for its window (slotIndex).
	slots := c.slotBuf[:0]
	a.Idx = c.windows(len(use))
	for d, u := range use {
		if n, ok := u.(*syntax.Name); ok {
			if b := sc.find(n.Name); b != nil {
				slots = append(slots, int(b.slot))
				if w, ok := c.slotIndex(vi, d, b); ok {
					a.Idx = append(a.Idx, w)
					continue
				}
			}
		} else {
			slots = appendSlotsOf(slots, sc, u)
		}
		ix := idx{lo: u}
		if sl, ok := u.(*syntax.Slice); ok {
			ix = idx{lo: sl.Lo, hi: sl.Hi, slice: true}
		}
		w, ok := c.window(sc, vi, d, &ix)
		if !ok {
			c.errorf(e, codeUnsupported, "the sync check cannot evaluate the indices of %s", syntax.ExprString(e))
			return nil, nil, false
		}
		a.Idx = append(a.Idx, w)
	}
	c.slotBuf = slots
	a.Slots = c.ints(slots)
	return a, v, true
}

// directOff makes accessVar compose every access (tests).
var directOff bool

// orZero is e, or the literal 0 for an omitted slice start.
func orZero(e syntax.Expr) syntax.Expr {
	if e == nil {
		return zeroLit
	}
	return e
}

// zeroLit is the omitted slice start, one node for every conversion: a
// constant that nothing changes (forms are keyed by the node within one
// access only), where a node per omitted start had been four of a
// shfl_xor check's Convert objects (issue 13, stop 38).
var zeroLit = &syntax.IntLit{Value: 0, Text: "0"}

// composeOpenHi handles w[c:] for w = x[a:b]: x[a+c : b].
func composeOpenHi(u idx, sl *syntax.Slice) idx {
	return idx{lo: u.lo, hi: nil, slice: true, offset: append(append([]syntax.Expr{}, u.offset...), orZero(sl.Lo)), openHi: sl.Hi, openSet: true}
}

func (c *converter) window(sc *names, v, d int, ix *idx) (amir.Window, bool) {
	sum := func(base syntax.Expr) syntax.Expr {
		e := orZero(base)
		for _, o := range ix.offset {
			if o != nil {
				e = &syntax.Binary{Op: "+", X: e, Y: o}
			}
		}
		return e
	}
	loE := sum(ix.lo)
	lo, loAff, l, ok := c.compile(sc, loE)
	if !ok {
		return amir.Window{}, false
	}
	if !ix.slice {
		c.noteGran(v, d, 1)
		var loMod *amir.ModAffine
		if loAff == nil {
			loMod = c.modForm(sc, loE)
		}
		return amir.Window{Lo: lo, LoAff: loAff, LoMod: loMod}, true
	}
	var hiE syntax.Expr
	switch {
	case ix.openSet && ix.openHi != nil:
		hiE = ix.openHi
	case ix.hi != nil:
		hiE = sum(ix.hi)
	}
	var hi amir.IntExpr
	var hiAff *amir.Affine
	if hiE == nil {
		dim := c.p.Vars[v].Dims[d]
		hi = dim
		if da := c.vinfo[v].dimAff; d < len(da) {
			hiAff = da[d]
		}
		c.noteGran(v, d, l.align())
	} else {
		var lh linear
		hi, hiAff, lh, ok = c.compile(sc, hiE)
		if !ok {
			return amir.Window{}, false
		}
		if da := c.vinfo[v].dimAff; d < len(da) && sameAffine(hiAff, da[d]) {
			// A window written to end at the extent (C[0:L, 0:M, 0:N],
			// a whole-array memset's argument) ends there for every
			// size, as an open one does: it constrains only its start
			// (issue 13: with gcd(lo, M) tk_split_gemm's C was tracked
			// element by element, 917 504 cells at M=1024 N=896, not
			// in the 128 x 32 blocks its TMA boxes are aligned to).
			c.noteGran(v, d, l.align())
		} else {
			c.noteGran(v, d, gcd(l.align(), lh.sub(l).align()))
		}
	}
	return amir.Window{Lo: lo, Hi: hi, LoAff: loAff, HiAff: hiAff}, true
}

// reads is T_e (Fig. 17) followed by T_ex: the non-exempt data accesses of
// an expression, deduplicated by printed form (sameRead; out holds the
// reads seen, exempt ones too: a right-hand side reads a few).
func (c *converter) reads(sc *names, st syntax.Stmt, e syntax.Expr, out *[]readAcc) {
	switch e := e.(type) {
	case *syntax.Name, *syntax.Index:
		s := c.scopeOf(st)
		var n *syntax.Name
		var use []syntax.Expr
		if ix, ok := e.(*syntax.Index); ok {
			n, _ = ix.X.(*syntax.Name)
			use = ix.Indices
		} else {
			n = e.(*syntax.Name)
		}
		if n == nil || s == nil {
			return
		}
		v := s.Lookup(n.Name)
		if v == nil || v.Barrier {
			return
		}
		for i := range *out {
			if sameRead(&(*out)[i], n, e) {
				return
			}
		}
		// access(sc, st, e), whose lookup of n in s finds v again.
		a, base, ok := c.accessVar(sc, e, v, use)
		*out = append(*out, readAcc{name: n.Name, e: e, a: a, v: base, ok: ok && !c.exempt(base)})
	case *syntax.Binary:
		c.reads(sc, st, e.X, out)
		c.reads(sc, st, e.Y, out)
	case *syntax.Unary:
		c.reads(sc, st, e.X, out)
	case *syntax.Call:
		for _, a := range e.Args {
			c.reads(sc, st, a, out)
		}
	}
}

// readAcc is a read of reads: its name and expression (its printed form
// is compared by sameRead), and its access where ok (a non-exempt data
// access).
type readAcc struct {
	name string
	e    syntax.Expr
	a    *amir.Access
	v    *gpucheck.Var
	ok   bool
}

func (c *converter) alloc(sc *names, st *syntax.Alloc) {
	s := c.scopeOf(st)
	if s == nil {
		return
	}
	v := s.Lookup(st.Name.Name)
	if v == nil {
		return
	}
	vi := c.varIndex(sc, v)
	c.allocVar, c.allocVi = v, vi
	if c.mbarrier(v) {
		c.ringBuffered(sc, vi, v)
	}
	var deps []int
	if st.Type != nil {
		deps = c.slotsOf(sc, st.Type.Dims...)
	}
	c.pushAlloc(vi, c.src(st, ""), deps)
	if b := c.barrierOf(v); b != nil && b.Reverse {
		// The hidden reverse barrier array of ReverseArrive/ReverseAwait.
		rv := c.reverseVar(vi)
		c.pushAlloc(rv, c.src(st, ""), deps)
	}
}

// pushAlloc pushes the KAlloc of AMIR variable v (its extents as Dims).
func (c *converter) pushAlloc(v, src int, deps []int) {
	s, ctl := c.newCtl(amir.KAlloc, src)
	s.Acc, s.CtlSlots, ctl.Dims = c.newAccess(v), deps, c.p.Vars[v].Dims
	c.push(s)
}

// free is the conversion of `free x` (Fig. 5): CheckBarrier for barriers,
// and for shared memory CheckReads/CheckMutates at temporally_ordered by the
// freeing threads. src is a's Src when known (pushBlock), else -1: a
// statement has one Src at most (src finds it again), so the one its
// allocation made is the one src(a) would find, by a search back over
// every Src made since (issue 13, stop 41).
func (c *converter) free(sc *names, a *syntax.Alloc, name string, src int) {
	s := c.scopeOf(a)
	if s == nil {
		return
	}
	v := s.Lookup(name)
	if v == nil {
		return
	}
	vi, ok := c.varOf(v)
	if !ok {
		return
	}
	c.freeVar(a, v, vi, src)
}

// freeVar is free once a's variable v and its AMIR variable vi are
// found.
func (c *converter) freeVar(a *syntax.Alloc, v *gpucheck.Var, vi, src int) {
	if src < 0 {
		src = c.src(a, "")
	}
	acc := c.newAccess(vi)
	if v.Barrier {
		// One group for the checks of the array and of its reverse
		// twin (a statement per object had been two of a three-ring
		// kernel's Convert objects; issue 13, stop 38).
		b := c.barrierOf(v)
		rev := b != nil && b.Reverse
		if rev {
			c.group(2)
		} else {
			c.group(1)
		}
		c.next(amir.KCheckBarrier, src, -1).Acc = acc
		if rev {
			ra := c.newAccess(c.reverseVar(vi))
			c.next(amir.KCheckBarrier, src, -1).Acc = ra
		}
	}
	if !v.Barrier && c.isSmem(v) && !c.exempt(v) {
		// mbarriers are not checked at their free (issue 13,
		// docs/weft-sync.md "Freeing mbarriers"): the lowering places
		// them at the base of SMEM once per kernel and never reuses
		// their storage; their reuse by the next task is the hardware
		// phase model's (amir/mbar.go).
		q := amir.Of(c.qin(a, v))
		ex := c.exec(a)
		c.group(2)
		c.check(amir.KCheckReads, acc, &ex, amir.TemporallyOrdered, q, amir.AccFree, src)
		c.check(amir.KCheckMutates, acc, &ex, amir.TemporallyOrdered, q, amir.AccFree, src)
	}
}

// assign converts x[c*] = e and x[c*] += e (Fig. 5). Reads of e need
// fully_ordered visibility of prior writes (as for read-only instruction
// arguments, Fig. 19); the write needs temporally_ordered visibility of
// prior reads and writes, fully_ordered of prior writes for +=.
func (c *converter) assign(sc *names, st *syntax.Assign) {
	s := c.scopeOf(st)
	if s == nil {
		return
	}
	// lhs: the variable a Name on the left resolves to (nil: none, or
	// an Index), for access's lookup of it (accessVar).
	var lhs *gpucheck.Var
	if n, ok := st.LHS.(*syntax.Name); ok {
		lhs = s.Lookup(n.Name)
		if lhs != nil && lhs.Window != nil && lhs.Pos == n.Pos() {
			return // window statement: inlined at its uses
		}
	}
	ex := c.exec(st)
	src := c.src(st, "")
	rs := c.readBuf[:0]
	c.reads(sc, st, st.RHS, &rs)
	c.readBuf = rs[:0]
	n := 0
	for _, r := range rs {
		if r.ok {
			n += 2
		}
	}
	c.group(n)
	for _, r := range rs {
		if !r.ok {
			continue
		}
		q := c.qin(st, r.v)
		c.check(amir.KCheckMutates, r.a, &ex, amir.FullyOrdered, amir.Of(q), amir.AccRead, src)
		c.record(amir.KRecordRead, r.a, &ex, amir.FullyOrdered, q, src, -1)
	}
	clear(rs)
	var a *amir.Access
	var v *gpucheck.Var
	var ok bool
	if lhs != nil {
		a, v, ok = c.accessVar(sc, st.LHS, lhs, nil)
	} else {
		a, v, ok = c.access(sc, st, st.LHS)
	}
	if !ok || c.exempt(v) {
		return
	}
	q := c.qin(st, v)
	pre := amir.TemporallyOrdered
	if st.Op == "+=" {
		pre = amir.FullyOrdered
	}
	c.group(5)
	c.check(amir.KCheckReads, a, &ex, amir.TemporallyOrdered, amir.Of(q), amir.AccWrite, src)
	c.check(amir.KCheckMutates, a, &ex, pre, amir.Of(q), amir.AccWrite, src)
	c.clearAcc(amir.KClearReads, a, src)
	c.clearAcc(amir.KClearMutates, a, src)
	c.record(amir.KRecordMutate, a, &ex, amir.FullyOrdered, q, src, -1)
}

// call converts an instruction call g(c*, e*) >> e_z (Fig. 5 and 19).
func (c *converter) call(sc *names, st *syntax.CallStmt) {
	name := st.Call.FunName()
	in, distinct := c.instr(name)
	if in == nil {
		c.inline(sc, st)
		return
	}
	src := c.src(st, in.TL)
	ex := c.exec(st)
	// e_z: the barriers the instruction is associated with.
	var bars []*amir.Access
	for _, b := range st.Barriers {
		if a, _, ok := c.access(sc, st, b); ok {
			bars = append(bars, a)
		}
	}
	args := c.argBuf[:0]
	// Bind as the static checks and the code generator do (check.BindArgs):
	// keyword type bindings (`dst=f32`, Exo's printed form of a generic
	// instruction) and template keywords are not arguments; binding them
	// by hand shifted the positional arguments past them, so the real
	// data accesses of such a call were dropped from the sync check.
	params := in.Proc.Params
	vals, _ := check.BindArgs(params, st.Call, in.Template...)
	args = boundAccesses(args, in, distinct, vals)
	// Stably by the parameter's access index: an insertion sort (a call
	// has a few arguments), which orders them as sort.SliceStable did,
	// without its allocations.
	for i := 1; i < len(args); i++ {
		for j := i; j > 0 && args[j].acc.Index < args[j-1].acc.Index; j-- {
			args[j], args[j-1] = args[j-1], args[j]
		}
	}
	c.argBuf = args
	// A copy completing on a counter-ring mbarrier counts the bytes of its
	// first written SMEM argument into the barrier's transaction count,
	// as the code generator's expect_tx does (cudagen txBytes).
	tx := len(bars) == 1 && len(st.Barriers) == 1 && c.p.Vars[bars[0].Var].RingDepth == 0
	if tx {
		if v := c.barVar(sc, st, st.Barriers[0]); v == nil || !c.mbarrier(v) {
			tx = false
		}
	}
	for _, b := range args {
		n0 := len(c.stk)
		c.arg(sc, st, src, ex, in, b.acc, b.arg, bars)
		if tx && b.acc.Mode != "r" && len(c.stk) > n0 {
			if n, ok := c.txBytes(sc, st, b.arg); ok {
				tx = false
				rec := c.stk[len(c.stk)-1]
				f := c.ring(bars[0].Var)
				if n < 0 || f.tx < 0 {
					f.tx, rec.TxBytes = -1, -1
				} else {
					f.tx += n
					rec.TxBytes = n
				}
				if f.txSrc < 0 {
					f.txSrc = src
				}
			}
		}
	}
	clear(args)
}

// boundArg is an instruction parameter's access and its argument (call).
type boundArg struct {
	acc *lib.Access
	arg syntax.Expr
}

// barVar is the variable a barrier expression names.
func (c *converter) barVar(sc *names, st syntax.Stmt, e syntax.Expr) *gpucheck.Var {
	if ix, ok := e.(*syntax.Index); ok {
		e = ix.X
	}
	n, ok := e.(*syntax.Name)
	if !ok || c.scopeOf(st) == nil {
		return nil
	}
	return c.scopeOf(st).Lookup(n.Name)
}

// txBytes is the SMEM byte count of window argument e (ok false when it
// is not in SMEM; n = -1 when its size is not constant).
func (c *converter) txBytes(sc *names, st syntax.Stmt, e syntax.Expr) (n int, ok bool) {
	a, v, ok := c.access(sc, st, e)
	if !ok || v.Barrier {
		return 0, false
	}
	if m := c.memOf(v); m == nil || m.Space != "smem" {
		return 0, false
	}
	n = 1
	for _, w := range a.Idx {
		k, ok := constExtent(&w)
		if !ok {
			return -1, true
		}
		n *= k
	}
	elem := ""
	if v.Type != nil && v.Type.Elem != nil {
		elem = v.Type.Elem.Name
	}
	switch elem {
	case "f16", "bf16", "ui16":
		n *= 2
	case "i8", "ui8":
	case "f64":
		n *= 8
	default:
		n *= 4
	}
	return n, true
}

// constExtent is a window coordinate's extent when it is the same for
// every slot environment.
func constExtent(w *amir.Window) (int, bool) {
	if w.Hi == nil {
		return 1, true
	}
	if w.LoAff == nil || w.HiAff == nil {
		return 0, false
	}
	d := map[int]int{}
	for _, t := range w.HiAff.Terms {
		d[t.Slot] += t.Coef
	}
	for _, t := range w.LoAff.Terms {
		d[t.Slot] -= t.Coef
	}
	for _, k := range d {
		if k != 0 {
			return 0, false
		}
	}
	return w.HiAff.K - w.LoAff.K, true
}

// arg is T_arg (Fig. 19).
func (c *converter) arg(sc *names, st syntax.Stmt, src int, ex amir.Exec, in *lib.Instr, acc *lib.Access, e syntax.Expr, bars []*amir.Access) {
	a, v, ok := c.access(sc, st, e)
	if !ok || c.exempt(v) || acc.Mode == "" {
		return
	}
	// T_init and T_ext of the parameter at this argument: a parameter with
	// no memory annotation takes them from the argument's own memory
	// (register vs RAM), as T_qin does for plain statements (Fig. 18).
	initName, extNames := in.ArgQuals(acc, c.memOf(v))
	init, ok := c.qual(initName)
	if !ok {
		init = c.qin(st, v)
	}
	ext := c.quals(extNames) | amir.Of(init)
	atom := c.quals(acc.Atomic)
	post := amir.FullyOrdered
	if acc.OutOfOrder {
		post = amir.Unordered
	}
	cvg := acc.Convergent
	check := func(k amir.Kind, lvl amir.Level, what amir.AccessKind) {
		c.check(k, a, &ex, lvl, ext, what, src).Convergent = cvg
	}
	record := func(k amir.Kind) *amir.Stmt {
		s := c.record(k, a, &ex, post, init, src, -1)
		s.Convergent, s.Bars = cvg, bars
		return s
	}
	switch {
	case atom != 0:
		c.group(4)
		check(amir.KCheckMutates, amir.AtomicOnly, amir.AccWrite)
		check(amir.KCheckReads, amir.TemporallyOrdered, amir.AccWrite)
		c.clearAcc(amir.KClearReads, a, src)
		record(amir.KRecordMutate).Quals = atom
	case acc.Mode == "r":
		c.group(2)
		check(amir.KCheckMutates, amir.FullyOrdered, amir.AccRead)
		record(amir.KRecordRead)
	default:
		pre := amir.FullyOrdered
		if acc.Mode == "w" {
			pre = amir.TemporallyOrdered
		}
		c.group(5)
		check(amir.KCheckMutates, pre, amir.AccWrite)
		check(amir.KCheckReads, amir.TemporallyOrdered, amir.AccWrite)
		c.clearAcc(amir.KClearReads, a, src)
		c.clearAcc(amir.KClearMutates, a, src)
		record(amir.KRecordMutate)
	}
}

func (c *converter) newSync(st syntax.Stmt) int {
	c.out.Syncs = append(c.out.Syncs, st)
	c.p.Syncs = append(c.p.Syncs, amir.SyncInfo{Src: c.src(st, "")})
	return len(c.p.Syncs) - 1
}

func (c *converter) fence(sc *names, st *syntax.Fence) {
	a, b := c.syncTL(st.First), c.syncTL(st.Second)
	if a == nil || b == nil {
		c.errorf(st, codeUnsupported, "Fence needs two sync timelines")
		return
	}
	src := c.src(st, a.Name)
	sync := c.newSync(st)
	var hw amir.QualSet
	if c.fenceOrdersThreads(a, b) {
		hw = c.mbar
	}
	ex := c.exec(st)
	s, ev := c.newEvent(amir.KFence, src, sync)
	s.Exec, s.Convergent = ex, a.Transitive
	ev.Pre, ev.Full, ev.Temp = amir.QualSet(a.FullSet)|hw, amir.QualSet(b.FullSet)|hw, amir.QualSet(b.TemporalSet)|hw
	c.push(s)
}

// qarr is T_qarr (Fig. 18).
func (c *converter) qarr(tl *lib.SyncTL) amir.Qual {
	if amir.QualSet(tl.FullSet).Has(c.qSm80) {
		return c.qSm80
	}
	return c.qRam
}

// barrierAccess returns the access of a barrier expression, redirected to
// the hidden reverse barrier array for ReverseArrive/ReverseAwait (seed 002).
func (c *converter) barrierAccess(sc *names, st syntax.Stmt, e syntax.Expr, reverse bool) (*amir.Access, *gpucheck.Var, bool) {
	a, v, ok := c.access(sc, st, e)
	if !ok || !v.Barrier {
		if ok {
			c.errorf(e, codeUnsupported, "%s is not a barrier", syntax.ExprString(e))
		}
		return nil, nil, false
	}
	if reverse {
		rv := c.reverseVar(a.Var)
		ra := c.newAccess(rv)
		ra.Idx, ra.Slots = a.Idx, a.Slots
		a = ra
	}
	return a, v, true
}

func (c *converter) reverseVar(v int) int {
	// Looked up without printing the twin's name: a string per lookup
	// had been six of a three-ring kernel's Convert objects (stop 38).
	base := c.p.Vars[v].Name
	for i := range c.p.Vars {
		if isReverseOf(c.p.Vars[i].Name, base) {
			return i
		}
	}
	nv := c.p.Vars[v]
	nv.Name = base + reverseSuffix
	// The hidden twin takes the ring facts (its hardware state is
	// checked alike) but not the one-shot arrive rule: it is arrived
	// only by ReverseArrive, which Exo's ring-buffered form never uses.
	nv.OneShotArrive = false
	c.p.Vars = append(c.p.Vars, nv)
	// No source variable of its own; its granularity a copy of v's.
	c.vinfo = append(c.vinfo, varInfo{dimAff: c.vinfo[v].dimAff, gran: c.ints(c.vinfo[v].gran)})
	return len(c.p.Vars) - 1
}

// reverseSuffix names the hidden reverse twin of a barrier array.
const reverseSuffix = ".reverse"

// isReverseOf reports whether name is base + reverseSuffix.
func isReverseOf(name, base string) bool {
	return len(name) == len(base)+len(reverseSuffix) && strings.HasSuffix(name, reverseSuffix) && strings.HasPrefix(name, base)
}

func (c *converter) arrive(sc *names, st *syntax.Arrive) {
	tl := c.syncTL(st.TL)
	if tl == nil {
		c.errorf(st, codeUnsupported, "Arrive needs a sync timeline")
		return
	}
	src := c.src(st, tl.Name)
	sync := c.newSync(st)
	ex := c.exec(st)
	start := len(c.stk)
	// The barrier accesses and their records from the converter's
	// slabs (stmts.go; stop 38: an Arrive's list and record had been
	// two objects each).
	bars := c.barList(len(st.Barriers))
	c.group(len(st.Barriers))
	perThread := false
	for _, b := range st.Barriers {
		a, v, ok := c.barrierAccess(sc, st, b, st.Reverse)
		if !ok {
			clear(c.stk[start:])
			c.stk = c.stk[:start]
			return
		}
		perThread = perThread || c.commitGroup(v)
		if c.mbarrier(v) && st.Reverse {
			c.ring(a.Var).hasRev = true
		}
		bars = append(bars, a)
		if !c.exempt(v) {
			c.record(amir.KRecordRead, a, &ex, amir.FullyOrdered, c.qarr(tl), src, sync)
		}
	}
	pre := amir.QualSet(tl.FullSet)
	if !perThread {
		pre |= c.mbar
	}
	arr, ev := c.newEvent(amir.KArrive, src, sync)
	arr.Exec, arr.Convergent, arr.Bars = ex, tl.Transitive, bars
	ev.Pre, ev.TxSrc = pre, -1
	if tl.Name == "tma_to_smem_async" && len(bars) == 1 && !st.Reverse {
		// Its lowering announces the bytes of the copies converted since
		// the variable's previous TMA Arrive (cudagen: b.tx).
		f := c.ring(bars[0].Var)
		if f.tx >= 0 {
			arr.TxCheck, arr.ExpectTx, arr.TxSrc = true, f.tx, f.txSrc
		}
		f.tx, f.txSrc = 0, -1
	}
	c.push(arr)
}

func (c *converter) await(sc *names, st *syntax.Await) {
	tl := c.syncTL(st.TL)
	if tl == nil {
		c.errorf(st, codeUnsupported, "Await needs a sync timeline")
		return
	}
	src := c.src(st, tl.Name)
	sync := c.newSync(st)
	ex := c.exec(st)
	a, v, ok := c.barrierAccess(sc, st, st.Bar, st.Reverse)
	if !ok {
		return
	}
	n := constExpr(0)
	if st.N != nil {
		var ok bool
		if n, ok = c.intExpr(sc, st.N); !ok {
			c.errorf(st.N, codeUnsupported, "the sync check cannot evaluate this count")
			return
		}
	}
	if c.mbarrier(v) {
		c.noteLag(sc, a.Var, st)
	}
	var hw amir.QualSet
	if !c.commitGroup(v) {
		hw = c.mbar
	}
	if !c.exempt(v) {
		c.group(1)
		c.record(amir.KRecordRead, a, &ex, amir.FullyOrdered, c.qin(st, v), src, sync)
	}
	s, ev := c.newEvent(amir.KAwait, src, sync)
	s.Exec, s.Acc, s.CtlSlots = ex, a, c.slotsOf(sc, st.N)
	ev.Full, ev.Temp, ev.N = amir.QualSet(tl.FullSet)|hw, amir.QualSet(tl.TemporalSet)|hw, n
	c.push(s)
}

// inline converts a call of a proc of the file by converting its body in
// place (seed 000 §5.2, preprocessing step (ii): calls outside device
// functions are inlined). Control arguments are bound to fresh slots by
// one-iteration loops; data arguments bind the callee's parameter as a
// window on the caller's argument, whose indices are also evaluated into
// fresh slots at the call, so no name of the callee can capture them.
func (c *converter) inline(sc *names, st *syntax.CallStmt) {
	name := st.Call.FunName()
	callee := c.procNamed(name)
	switch {
	case callee == nil:
		c.errorf(st, codeUnsupported, "the sync check cannot convert the call of %s(): not an instruction or a proc of this file", name)
		return
	case !c.cpu(st):
		c.errorf(st, codeUnsupported, "the sync check inlines proc calls only outside device functions (seed 000 §5.2); %s() is called in device code", name)
		return
	case c.depth >= 8:
		c.errorf(st, codeUnsupported, "the sync check inlines proc calls at most 8 deep; %s() is deeper", name)
		return
	case len(callee.Body) == 0:
		return
	}
	calleeScope := c.scopeOf(callee.Body[0])
	if calleeScope == nil {
		return
	}
	named := map[string]bool{}
	for _, k := range st.Call.Kwargs {
		named[k.Name.Name] = true
	}
	args := map[string]syntax.Expr{}
	next := 0
	for _, a := range st.Call.Args {
		for next < len(callee.Params) && named[callee.Params[next].Name.Name] {
			next++
		}
		if next < len(callee.Params) {
			args[callee.Params[next].Name.Name] = a
			next++
		}
	}
	for _, k := range st.Call.Kwargs {
		args[k.Name.Name] = k.Value
	}
	inner := c.child(sc)
	type wrap struct {
		slot   int
		lo, hi amir.IntExpr
	}
	var wraps []wrap
	bindSlot := func(e syntax.Expr, as string) (*syntax.Name, bool) {
		f, ok := c.intExpr(sc, e)
		if !ok {
			c.errorf(e, codeUnsupported, "the sync check cannot evaluate this argument: %s", syntax.ExprString(e))
			return nil, false
		}
		c.hidden++
		h := fmt.Sprintf("%s#%d", as, c.hidden)
		slot := c.slot(h)
		c.bindControl(inner, h, slot)
		wraps = append(wraps, wrap{slot, f, func(env []int) int { return f(env) + 1 }})
		return &syntax.Name{Name: h}, true
	}
	for _, prm := range callee.Params {
		pn := prm.Name.Name
		arg := args[pn]
		if arg == nil {
			c.errorf(st, codeUnsupported, "%s(): no argument for %s", name, pn)
			return
		}
		pv := calleeScope.Lookup(pn)
		if pv == nil {
			// A control parameter: bind its name to a fresh slot.
			n, ok := bindSlot(arg, pn)
			if !ok {
				return
			}
			inner.set(pn, inner.own(n.Name))
			continue
		}
		base, idxs := splitIndexExpr(arg)
		if base == nil {
			c.errorf(arg, codeUnsupported, "the sync check needs a variable or a window as the argument for %s", pn)
			return
		}
		bv := c.scopeOf(st).Lookup(base.Name)
		if bv == nil {
			c.errorf(arg, codeUnsupported, "the sync check cannot resolve %s", base.Name)
			return
		}
		var hidden []syntax.Expr
		for _, ix := range idxs {
			if sl, ok := ix.(*syntax.Slice); ok {
				ns := &syntax.Slice{}
				if sl.Lo != nil {
					n, ok := bindSlot(sl.Lo, pn)
					if !ok {
						return
					}
					ns.Lo = n
				}
				if sl.Hi != nil {
					n, ok := bindSlot(sl.Hi, pn)
					if !ok {
						return
					}
					ns.Hi = n
				}
				hidden = append(hidden, ns)
				continue
			}
			n, ok := bindSlot(ix, pn)
			if !ok {
				return
			}
			hidden = append(hidden, n)
		}
		if c.bind == nil {
			c.bind = map[*gpucheck.Var]*gpucheck.Access{}
		}
		c.bind[pv] = &gpucheck.Access{Var: bv, Node: arg, Indices: hidden}
	}
	c.depth++
	start := len(c.stk)
	c.pushBlock(inner, callee.Body)
	c.depth--
	for i := len(wraps) - 1; i >= 0; i-- {
		w := wraps[i]
		body := c.popBody(start)
		s, ctl := c.newCtl(amir.KLoop, c.src(st, ""))
		s.Body, ctl.Slot, ctl.Lo, ctl.Hi = body, w.slot, w.lo, w.hi
		c.push(s)
	}
}

// procNamed is the proc of the file named name that is not an instruction
// (fileProc).
func (c *converter) procNamed(name string) *syntax.Proc { return fileProc(c.f, name) }

// fileProc is the proc of f named name that is not an instruction (the
// last of that name, as a map filled in file order held), nil when none:
// looked up only by calls of procs, which most programs have none of
// (issue 13, stop 29; Check's map of them, stop 41).
func fileProc(f *syntax.File, name string) *syntax.Proc {
	var out *syntax.Proc
	for _, d := range f.Decls {
		if q, ok := d.(*syntax.Proc); ok && !lib.IsInstr(q) && q.Name.Name == name {
			out = q
		}
	}
	return out
}

func splitIndexExpr(e syntax.Expr) (*syntax.Name, []syntax.Expr) {
	switch e := e.(type) {
	case *syntax.Name:
		return e, nil
	case *syntax.Index:
		if n, ok := e.X.(*syntax.Name); ok {
			return n, e.Indices
		}
	}
	return nil, nil
}

// mbarrier reports CudaMbarrier barriers (and memories derived from it).
func (c *converter) mbarrier(v *gpucheck.Var) bool { return c.facts(v).mbarrier }

// mbarrierOf is mbarrier's answer; b is the library's barrier type of
// v.Mem (nil: none).
func mbarrierOf(v *gpucheck.Var, b *lib.BarrierMemory) bool {
	if !v.Barrier {
		return false
	}
	return v.Mem == "CudaMbarrier" || (b != nil && b.DerivesFrom("CudaMbarrier"))
}

// forward maps a hidden reverse array to its forward variable.
func (c *converter) forward(v int) int {
	name, ok := strings.CutSuffix(c.p.Vars[v].Name, reverseSuffix)
	if !ok {
		return v
	}
	for i, x := range c.p.Vars {
		if x.Name == name && x.Barrier {
			return i
		}
	}
	return v
}

func (c *converter) ring(v int) *ringFacts {
	v = c.forward(v)
	for _, f := range c.rings {
		if f.v == v {
			return f
		}
	}
	// A kernel has a few mbarrier arrays: a list searched in place, its
	// facts from a slab (their pointers stay valid as the list grows),
	// in place of a map and an object per array (stop 38).
	f := c.ringSlab.one(4, 16)
	*f = ringFacts{v: v, txSrc: -1}
	c.rings = append(c.rings, f)
	return f
}

// noteLag records the skip count of an mbarrier Await (N = ~lag; the code
// generator needs a constant).
func (c *converter) noteLag(sc *names, v int, st *syntax.Await) {
	f := c.ring(v)
	if st.Reverse {
		f.hasRev = true
	}
	if st.N == nil {
		return
	}
	n, ok := c.intExpr(sc, st.N)
	if !ok || len(c.slotsOf(sc, st.N)) > 0 {
		f.unknown = true
		return
	}
	lag := ^n(c.zeroEnv())
	if lag < 0 {
		return // N >= 0: not an mbarrier await (cudagen rejects it)
	}
	if st.Reverse {
		f.rev = max(f.rev, lag)
	} else {
		f.fwd = max(f.fwd, lag)
	}
}

// finishRings sets Var.Ring of every mbarrier variable and its reverse
// array as the code generator sizes them.
func (c *converter) finishRings() {
	for _, f := range c.rings {
		v := f.v
		if f.unknown || c.p.Vars[v].RingDepth > 0 {
			continue
		}
		r := f.fwd + 1
		if f.hasRev {
			r = max(1, f.fwd+f.rev)
		}
		c.p.Vars[v].Ring = r
		if f.hasRev {
			c.p.Vars[c.reverseVar(v)].Ring = r
		}
	}
}

// fenceOrdersThreads reports whether Fence(a, b) lowers to a thread
// barrier of its collective (cudagen fence): all but wgmma.fence and a
// warpgroup's wait for its own wgmma.
func (c *converter) fenceOrdersThreads(a, b *lib.SyncTL) bool {
	if a.Name == "wmma_fence_1" && b.Name == "wmma_fence_2" {
		return false
	}
	k := &c.lib.Known
	generic := hasKnown(a, k.InOrderRAM|k.InOrderRMEM)
	wgmma := hasKnown(a, k.WmmaRmemD|k.WmmaSmem)
	return generic || !wgmma
}

// hasKnown reports whether tl's full set holds one of the qualifiers of
// bits (lib.KnownQuals fields) that qual resolves: one below the 32 an
// amir.QualSet holds. It is qual's test of each name without the names:
// the library resolved each (lib.Load, after its aliases) to the bit of
// the index qual reads from Library.Quals, or to 0 when it has none, and
// qual refuses an index of 32 or more, which the mask drops. Three
// string-keyed lookups of every Fence had been 2% of per_cta_alloc's
// Convert (issue 13, stop 41).
func hasKnown(tl *lib.SyncTL, bits lib.QualSet) bool {
	return tl.FullSet&bits&(1<<32-1) != 0
}

// ringBuffered sets the ring facts of an mbarrier array with a
// ring-buffered dimension (`n @ ring_buffer_by(depth)`) and the pre-arrive
// count of CudaMbarrierPreArrive(d) (amir.Var.RingDepth; amir/mbar.go).
func (c *converter) ringBuffered(sc *names, vi int, v *gpucheck.Var) {
	t := v.Type
	if t == nil {
		return
	}
	konst := func(e syntax.Expr) (int, bool) {
		if e == nil || len(c.slotsOf(sc, e)) > 0 {
			return 0, false
		}
		f, ok := c.intExpr(sc, e)
		if !ok {
			return 0, false
		}
		return f(c.zeroEnv()), true
	}
	for k, ann := range t.DimAnns {
		call, ok := ann.(*syntax.Call)
		if !ok || call.FunName() != "ring_buffer_by" {
			continue
		}
		var arg syntax.Expr
		if len(call.Args) == 1 {
			arg = call.Args[0]
		} else if len(call.Kwargs) == 1 {
			arg = call.Kwargs[0].Value
		}
		d, ok := konst(arg)
		if !ok || d <= 0 {
			continue
		}
		pv := &c.p.Vars[vi]
		pv.RingDepth, pv.RingDim = d, k
		pv.OneShotArrive = true
		if call, ok := t.Mem.(*syntax.Call); ok && len(call.Args) == 1 {
			if n, ok := konst(call.Args[0]); ok && n > 0 {
				pv.PreArrive = n
			}
		}
		return
	}
}
