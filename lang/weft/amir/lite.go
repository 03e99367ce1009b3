package amir

import "slices"

// Bounds checks in later tasks of a symmetric task loop (Program.Finish,
// task symmetry). A lite task skips the statements whose effect is the
// first task's, but a dead statement (a record no check inspects, a check
// that can only see empty lists: the reads of the GEMMs' A and B) on a
// shared variable still evaluates its windows there, since they read the
// task iterators: an out-of-bounds access in any task is a fault (seed 000
// §5: E#-Acc has no rule for an index outside the extent), so W0607.
//
// Evaluating those windows per iteration would cost a lite task about what
// the first task costs. A loop whose subtree has nothing else to run in a
// lite task (no event, no live shared access: !keepLite, checkLite) is
// instead checked once at entry over the box of its nest's iteration
// ranges (liteBox): every window is affine in the nest's slots (or a
// double-buffer index, whose values lie in a fixed range), every inner
// loop's bounds read no slot of the nest, so each window's least and
// greatest value over all iterations is a sum of per-term extremes. If
// every window stays in bounds over the box, no executed iteration can
// fault (Ifs only remove iterations) and the loop has nothing else to do;
// otherwise the loop runs as usual and its statements check their own
// windows, reporting exactly the fault a full run reports.

// liteBox is a loop's bounds plan (Stmt.box).
type liteBox struct {
	loops []*Stmt // the nest: the loop itself first, then the inner loops
	accs  []boxAcc
	// rng holds each nest loop's [lo, hi) during a check.
	rng []int
	// chain is walkChain's room for its chain (empty, of capacity 4).
	chain []int
}

// liteBoxMem is a box with room for a nest of up to 4 loops and
// walkChain's chain of up to 4, in one allocation (issue 13, stop 46:
// the list and the chain's growth had been 3 of a block plan's
// allocations; shfl_xor makes 3 plans a check).
type liteBoxMem struct {
	b     liteBox
	loops [4]*Stmt
	chain [4]int
}

// boxAcc is one access of a dead statement on a shared variable.
type boxAcc struct {
	a     *Access
	chain []int // indices into loops of the loops enclosing it
	dims  []boxDim
}

// boxDim is one window: lo (and hi, for a range) as sums of terms over
// the chain's loops (loop >= 0) or fixed slots (loop < 0).
type boxDim struct {
	lo, hi, diff boxAff
	rng          bool
	mod          *ModAffine
}

type boxAff struct {
	k     int
	terms []boxTerm
}

type boxTerm struct {
	slot, coef, loop int
}

// planBox builds the bounds plan of loop s, or nil when some window or
// inner loop bound is outside its reach.
func (p *Program) planBox(s *Stmt) *liteBox {
	mem := new(planBoxMem)
	b := mem.box.init(s)
	if b == nil {
		return nil // a triangular nest: not a box
	}
	ok := b.walkChain(s, func(t *Stmt, chain []int) bool {
		ok := true
		if t.dead && t.checkLite {
			add := func(a *Access) {
				if p.Vars[a.Var].TaskLocal {
					return
				}
				for _, o := range b.accs {
					if o.a == a && slices.Equal(o.chain, chain) {
						return // the statements of one access
					}
				}
				ba, good := p.boxAccess(a, b.loops, chain, nil) // (a bounds nest has one access or two: a chunk would cost more)
				if !good {
					ok = false
					return
				}
				if b.accs == nil {
					b.accs = mem.accs[:0]
				}
				b.accs = append(b.accs, ba)
			}
			for _, a := range t.Bars {
				add(a)
			}
			add(t.Acc)
		}
		return ok
	})
	if !ok {
		return nil
	}
	if n := 2 * len(b.loops); n <= len(mem.rng) {
		b.rng = mem.rng[:n:n]
	} else {
		b.rng = make([]int, n)
	}
	return b
}

// planBoxMem is a bounds plan's box with room for the ranges of a nest of
// up to 4 loops and for 2 accesses, in one allocation (issue 13, stop 46:
// the ranges and the accesses' list had been 2 of rmem_uniform's
// allocations a check); a longer list grows on the heap.
type planBoxMem struct {
	box  liteBoxMem
	rng  [8]int
	accs [2]boxAcc
}

// newLiteBox collects the loop nest of s (s first, then its inner loops
// in walk order); nil when an inner loop's bounds or conditions read a
// nest loop's slot (a triangular nest is not a box). The nest's slots are
// searched in b.loops (inNest): a nest has a few loops (stop 33: the map
// of their slots was a tenth of a block plan).
func newLiteBox(s *Stmt) *liteBox {
	return new(liteBoxMem).init(s)
}

// init is newLiteBox's box made in mem (a grid plan's: gridPlanMem).
func (mem *liteBoxMem) init(s *Stmt) *liteBox {
	b := &mem.b
	b.loops, b.chain = appendLoops(s, mem.loops[:0]), mem.chain[:0]
	for _, l := range b.loops[1:] {
		for _, sl := range l.CtlSlots {
			if b.inNest(sl) {
				return nil
			}
		}
	}
	return b
}

// appendLoops appends the loops of s's subtree, s included, in walk
// order.
func appendLoops(s *Stmt, loops []*Stmt) []*Stmt {
	if s.Kind == KLoop {
		loops = append(loops, s)
	}
	for _, b := range s.Body {
		loops = appendLoops(b, loops)
	}
	return loops
}

// inNest reports whether slot is the iterator of a loop of the nest.
func (b *liteBox) inNest(slot int) bool {
	return hasSlot(b.loops, slot)
}

// hasSlot reports whether slot is the iterator of one of loops.
func hasSlot(loops []*Stmt, slot int) bool {
	for _, l := range loops {
		if l.Slot == slot {
			return true
		}
	}
	return false
}

// walkChain visits the statements under s (s included) in walk order,
// each with chain: the indices in b.loops of the nest loops enclosing it
// (a loop's own index included). It stops at the first visit that
// returns false and reports whether none did. planBox and planGrid
// compile each access against exactly its enclosing loops.
func (b *liteBox) walkChain(s *Stmt, visit func(t *Stmt, chain []int) bool) bool {
	chain := b.chain[:0] // (the visits copy what they keep of it)
	var walk func(t *Stmt) bool
	walk = func(t *Stmt) bool {
		n := len(chain)
		if t.Kind == KLoop {
			for i, l := range b.loops {
				if l == t {
					chain = append(chain, i)
				}
			}
		}
		ok := visit(t, chain)
		for _, c := range t.Body {
			if !ok {
				break
			}
			ok = walk(c)
		}
		chain = chain[:n]
		return ok
	}
	return walk(s)
}

// boxAccess compiles access a enclosed by the nest loops chain.
func (p *Program) boxAccess(a *Access, loops []*Stmt, chain []int, ar *boxArena) (boxAcc, bool) {
	ba := boxAcc{a: a}
	if len(chain) > 0 {
		ba.chain = ar.takeInts(len(chain))
		copy(ba.chain, chain)
	}
	// The windows' forms are checked and their terms counted first, so
	// that the dimensions and all their terms are two arrays of their
	// final size (stop 33: their growth was two thirds of boxAccess).
	n := 0
	for i := range a.Idx {
		w := &a.Idx[i]
		switch {
		case w.Hi == nil && w.LoAff == nil && w.LoMod != nil:
		case w.LoAff == nil:
			return ba, false
		case w.Hi == nil:
			n += len(w.LoAff.Terms)
		default:
			if w.HiAff == nil {
				return ba, false
			}
			n += 2 * (len(w.LoAff.Terms) + len(w.HiAff.Terms))
		}
	}
	if len(a.Idx) == 0 {
		return ba, true
	}
	ba.dims = ar.takeDims(len(a.Idx))
	slab := make([]boxTerm, 0) // (no allocation: n == 0 has no terms to hold)
	if n > 0 {
		slab = ar.takeTerms(n)
	}
	// room gives out at most k terms from the slab.
	room := func(out *boxAff, k int) {
		out.terms, slab = slab[:0:k], slab[k:]
	}
	for i := range a.Idx {
		w := &a.Idx[i]
		d := &ba.dims[i]
		switch {
		case w.Hi == nil && w.LoAff == nil && w.LoMod != nil:
			d.mod = w.LoMod
		case w.Hi == nil:
			room(&d.lo, len(w.LoAff.Terms))
			if !boxConv(w.LoAff, 1, &d.lo, loops, chain) {
				return ba, false
			}
		default:
			d.rng = true
			room(&d.lo, len(w.LoAff.Terms))
			room(&d.hi, len(w.HiAff.Terms))
			room(&d.diff, len(w.LoAff.Terms)+len(w.HiAff.Terms))
			if !boxConv(w.LoAff, 1, &d.lo, loops, chain) || !boxConv(w.HiAff, 1, &d.hi, loops, chain) ||
				!boxConv(w.HiAff, 1, &d.diff, loops, chain) || !boxConv(w.LoAff, -1, &d.diff, loops, chain) {
				return ba, false
			}
		}
	}
	return ba, true
}

// boxArena hands out the arrays of one plan's box accesses (their
// chains, windows and terms; a grid plan's variables' dims and coefs)
// from shared chunks (issue 13, stop 40: boxAccess's three allocations
// an access were half its cost, 8 accesses a check on shfl_xor). Only
// where the arrays live changes: each is zeroed as make's is (a chunk is
// fresh and every piece is handed out once) and capped at its length, so
// an append to one copies rather than writing into the next. A chunk is
// made when the current one has too little left (the rest of it stays
// unused); the arena lives for one plan's making, never across checks.
// A nil arena makes each array on its own (the earlier way: planBox,
// whose nests have an access or two, and gridNoRoom, thgrid_mem_test.go,
// whose plans TestGridRoomMatchesPlain compares field for field).
type boxArena struct {
	ints  []int
	terms []boxTerm
	dims  []boxDim
	// The first chunks, in the arena's own allocation (issue 13, stop
	// 46: made apart, they had been three of a block plan's allocations,
	// nine of shfl_xor's check). primed: handed out (takeInts, ...).
	intsIn  [boxArenaInts]int
	termsIn [boxArenaTerms]boxTerm
	dimsIn  [boxArenaDims]boxDim
	primed  bool
}

// The arena's chunk sizes: a small nest's accesses in one chunk each.
const (
	boxArenaInts  = 16
	boxArenaTerms = 24
	boxArenaDims  = 8
)

// takeInts, takeTerms and takeDims return n zeroed elements from the
// arena's chunk of their kind (make's, with ar nil).
func (ar *boxArena) takeInts(n int) []int {
	if ar == nil {
		return make([]int, n)
	}
	ar.prime()
	return arenaTake(&ar.ints, n, boxArenaInts)
}

func (ar *boxArena) takeTerms(n int) []boxTerm {
	if ar == nil {
		return make([]boxTerm, n)
	}
	ar.prime()
	return arenaTake(&ar.terms, n, boxArenaTerms)
}

func (ar *boxArena) takeDims(n int) []boxDim {
	if ar == nil {
		return make([]boxDim, n)
	}
	ar.prime()
	return arenaTake(&ar.dims, n, boxArenaDims)
}

// prime makes the arena's own arrays its first chunks (zero, as a new
// chunk's).
func (ar *boxArena) prime() {
	if !ar.primed {
		ar.primed = true
		ar.ints, ar.terms, ar.dims = ar.intsIn[:], ar.termsIn[:], ar.dimsIn[:]
	}
}

// arenaTake returns n elements from *chunk, capped at n, making a chunk
// of max(n, size) when it has too few.
func arenaTake[T any](chunk *[]T, n, size int) []T {
	if len(*chunk) < n {
		*chunk = make([]T, max(n, size))
	}
	s := (*chunk)[:n:n]
	*chunk = (*chunk)[n:]
	return s
}

// boxConv adds sign times af to out, each term over the innermost loop
// of chain (indices into loops) that has its slot, or fixed; false when
// af reads a nest slot outside its loop.
func boxConv(af *Affine, sign int, out *boxAff, loops []*Stmt, chain []int) bool {
	out.k += sign * af.K
	for _, t := range af.Terms {
		loop := -1
		for _, i := range chain {
			if loops[i].Slot == t.Slot {
				loop = i // the innermost enclosing loop of the slot
			}
		}
		if loop < 0 && hasSlot(loops, t.Slot) {
			return false // a nest slot read outside its loop
		}
		merged := false
		for j := range out.terms {
			if out.terms[j].slot == t.Slot {
				out.terms[j].coef += sign * t.Coef
				merged = true
			}
		}
		if !merged {
			out.terms = append(out.terms, boxTerm{slot: t.Slot, coef: sign * t.Coef, loop: loop})
		}
	}
	return true
}

// span is the least and greatest value of f over the box.
func (b *liteBox) span(f *boxAff, env []int) (lo, hi int) {
	lo, hi = f.k, f.k
	for _, t := range f.terms {
		if t.loop < 0 {
			v := t.coef * env[t.slot]
			lo += v
			hi += v
			continue
		}
		a, z := t.coef*b.rng[2*t.loop], t.coef*(b.rng[2*t.loop+1]-1)
		if a > z {
			a, z = z, a
		}
		lo += a
		hi += z
	}
	return lo, hi
}

// boxInBounds reports whether every window of s's plan stays in bounds in
// every iteration of s over [lo, hi) (hi > lo) and its inner loops; false
// means "not known", and the loop is run.
func (m *Machine) boxInBounds(s *Stmt, lo, hi int) bool {
	b := s.box
	b.rng[0], b.rng[1] = lo, hi
	for i, l := range b.loops[1:] {
		b.rng[2*i+2], b.rng[2*i+3] = l.Lo(m.env), l.Hi(m.env)
	}
	return m.boxOK(b)
}

// boxOK is boxInBounds over b's current ranges (b.rng); grid nests
// (thgrid.go) use it too.
func (m *Machine) boxOK(b *liteBox) bool {
	env := m.env
outer:
	for k := range b.accs {
		ba := &b.accs[k]
		for _, i := range ba.chain {
			if b.rng[2*i] >= b.rng[2*i+1] {
				continue outer // never executed
			}
		}
		st := &m.vars[ba.a.Var]
		if !st.live {
			return false
		}
		if len(ba.dims) == 0 {
			continue
		}
		if len(ba.dims) != len(st.dims) {
			return false
		}
		for d := range ba.dims {
			bd := &ba.dims[d]
			ext := st.dims[d]
			if bd.mod != nil {
				f := bd.mod
				v0, v1 := f.Add, f.Add+f.Sign*(f.M-1)
				if v0 > v1 {
					v0, v1 = v1, v0
				}
				if v0 < 0 || v1 >= ext {
					return false
				}
				continue
			}
			l0, l1 := b.span(&bd.lo, env)
			if !bd.rng {
				if l0 < 0 || l1 >= ext {
					return false
				}
				continue
			}
			_, h1 := b.span(&bd.hi, env)
			d0, _ := b.span(&bd.diff, env)
			if l0 < 0 || h1 > ext || d0 < 0 {
				return false
			}
		}
	}
	return true
}
