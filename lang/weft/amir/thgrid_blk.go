package amir

// Block grids (issue 13, stop 30: shfl_xor).
//
// thgrid.go's points are single threads: every statement of the nest
// executes as th(p) = th(0) + Σ s_k·p_k. shfl_xor's nests are
// t4 x t2 x t1 over lanes 4·t4 + 2·t2 + t1, whose middle phase runs
// 2-thread collectives (the pairs along t1, then the strided pairs along
// t2), and whose three phases only agree on the outer loop t4: each t4
// owns a block of 4 lanes and a slab of every variable (rmemA[t4, ...],
// tmp[t4, ...], d_A[4·t4 .. 4·t4+3 + 64·s]). A nest that the one-thread
// form refuses is planned again with the loop's own iterator as the only
// axis and the points taken as thread blocks:
//
//   - every statement of the nest executes a thread set start + shape
//     whose start is affine, with the axis's coefficient s_1 the same in
//     every statement (any other term reads an enclosing loop of the
//     statement inside the nest, the block loops, or a slot fixed in the
//     nest); at entry, every statement's threads over the inner loops'
//     ranges at the first point lie in [b0, b0 + w) (b0 and w computed
//     from the ranges), and point p's in B_p = [b0 + s_1·p, + w), since
//     the axis only enters through s_1·p. The blocks must be disjoint;
//   - every variable the nest acts on is translated (thgrid.go: the axis
//     read in one dimension with one coefficient, the representative's
//     box inside its slab): shared read-only variables are refused, so
//     are group records (thgroup.go, thgrid_grp.go), deferred-slab events
//     that hold part of the frame (gridCommutes) and record runs
//     (gridRecordRun), whose arguments are made for one-thread points.
//
// τ_p generalizes from the representative's thread to its block: a thread
// set inside B_0 moves by s_1·p (so one that is inside B_0 maps to the
// same set of offsets inside B_p), a set that holds every thread of every
// block or none is left alone, and any other set has no image. Argument 1
// of thgrid.go holds as it does for one thread: the visibility tests
// read a record's components through contains, subset and intersects
// against the checking set, relations a common shift keeps between two
// sets inside B_0 and B_p, and that a set left alone answers alike for
// sets inside any block (it holds all of them or none). Thread p's block
// acts only on its slabs, which no other block touches, so the threads
// of the block interact with each other (the collectives) exactly as the
// representative's do. The representative runs its whole block first,
// as the full run runs point 0 first: the first occurrences of hazards
// are its own. With w = 1 this is thgrid.go's form (gridIn0 is its
// test), which keeps its own, wider, conditions.
//
// TestGridBlockMatchesFull (thgrid_blk_test.go) compares random block
// nests (collectives, host-written and lazy variables, faults, hazards)
// with and without grid symmetry.

// gridExec is one (start, shape) pair of a block grid's statements.
type gridExec struct {
	aff   *Affine
	shape int
}

// gridBlockSpan sets g.th0 and g.w for a block grid from the nest's
// ranges (b.rng, the axis at its full range): the smallest and largest
// thread any statement executes at the first point. It reports false
// when an inner loop is empty or a shape is.
func (m *Machine) gridBlockSpan(g *gridRT, b *liteBox) bool {
	pl := g.pl
	env := m.env
	loopOf := func(slot int) int {
		for i, l := range b.loops {
			if l.Slot == slot {
				return i
			}
		}
		return -1
	}
	for i := 1; i < len(b.loops); i++ {
		if b.rng[2*i] >= b.rng[2*i+1] {
			return false
		}
	}
	lo, hi := 0, -1
	for j, e := range pl.execs {
		ts := m.shapes[e.shape]
		if len(ts) == 0 {
			return false
		}
		l, h := e.aff.K, e.aff.K
		for _, tm := range e.aff.Terms {
			i := loopOf(tm.Slot)
			if i < 0 {
				v := tm.Coef * env[tm.Slot]
				l, h = l+v, h+v
				continue
			}
			a, z := tm.Coef*b.rng[2*i], tm.Coef*(b.rng[2*i+1]-1)
			if i == 0 {
				z = a // the first point
			}
			if a > z {
				a, z = z, a
			}
			l, h = l+a, h+z
		}
		l += int(ts[0])
		h += int(ts[len(ts)-1])
		if j == 0 || l < lo {
			lo = l
		}
		if j == 0 || h > hi {
			hi = h
		}
	}
	if hi < lo || lo < 0 || hi-lo >= maxBlock {
		return false
	}
	g.th0, g.w = int32(lo), int32(hi-lo+1)
	return true
}

// maxBlock bounds a block grid's points to parts of a warp (shfl_xor's
// lanes): the GEMMs' nests over the CTAs of a cluster (points of 256
// threads) were block grids whose slabs the next nest built again, at
// 1-4% more instructions a check on rows 28-39 (gridUniform walks every
// thread of every block, and the representative is a whole CTA).
const maxBlock = 32

// gridIn0 reports whether thread set x lies in the representative's
// block (for w = 1: is its one thread), the sets τ_p moves.
func (m *Machine) gridIn0(g *gridRT, x threads) bool {
	if x.task != g.task {
		return false
	}
	if g.w <= 1 {
		return x.start == g.th0 && m.single[x.shape]
	}
	ts := m.shapes[x.shape]
	return len(ts) > 0 && x.start+ts[0] >= g.th0 && x.start+ts[len(ts)-1] < g.th0+g.w
}

// Regions. A variable had one set of deferred slabs (gridVirt) and a grid
// nest on other slabs of it built them first: shfl_xor's d_A is read (and
// later written) by four entries of its nests, one per `s`, on 64
// disjoint cells each, and each entry built the previous entry's slabs,
// copying every record, only for the host's copy at the end to read them.
// A block grid's deferred slabs are therefore kept as regions (gridVirt
// .next), each deferred by its own nest, whose cells (span, every slab)
// meet no other region's: a nest on one region acts on nothing of the
// others, and every hook that reaches the variable otherwise (effect,
// execRun, events that tell a region's frame apart, an Alloc) builds or
// drops them all, as it did the one. A region of a one-thread grid is
// always alone (gridTry builds every region first), so its arguments
// (gridCommutes, gridRecordRun, thgrid_grp.go) see one. Two hooks keep
// several (stop 31, shfl31: shfl_xor's host copy out of d_A): a check by
// a set uniform on every region's frame (gridCheckRun, region by
// region), and a lazy record by such a set (lazyOverRegions,
// lazycells.go).

// maxRegions bounds a variable's regions (a nest adding one more builds
// the older ones).
const maxRegions = 16

// regions counts d's chain.
func (d *gridVirt) regions() int {
	n := 0
	for ; d != nil; d = d.next {
		n++
	}
	return n
}

// regionSpan is the flat-cell range [lo, hi] of every slab of a region:
// the box [blo, bhi) of slab 0 moved by each offset.
func regionSpan(st *varState, blo, bhi []int, offs []int32) [2]int32 {
	first, last := 0, 0
	for d := range blo {
		first += blo[d] * st.strides[d]
		last += (bhi[d] - 1) * st.strides[d]
	}
	mn, mx := offs[0], offs[0]
	for _, o := range offs {
		mn, mx = min(mn, o), max(mx, o)
	}
	return [2]int32{int32(first) + mn, int32(last) + mx}
}

// gridMaterializeOver builds the regions of vr's variable that block grid
// g's new region (vr's slabs) meets, and every region of a one-thread
// grid; the others stay deferred.
func (m *Machine) gridMaterializeOver(g *gridRT, vr *gridVarRT) {
	v := vr.gv.v
	h := m.gv[v]
	if h == nil {
		return
	}
	sp := regionSpan(vr.st, vr.lo, vr.hi, vr.offs)
	var keep, drop *gridVirt
	for d := h; d != nil; {
		next := d.next
		if d.g.w > 1 && !d.mixed && !d.grpRep && d.span[1] < sp[0] || d.g.w > 1 && !d.mixed && !d.grpRep && sp[1] < d.span[0] {
			d.next, keep = keep, d
		} else {
			d.next, drop = drop, d
		}
		d = next
	}
	if drop == nil {
		// Every region stays (their order is restored).
		m.gv[v] = reverseRegions(keep)
		return
	}
	m.gv[v] = drop
	m.gridMaterialize(v)
	if keep != nil {
		m.gv[v] = reverseRegions(keep)
		m.gvAny = true
	}
}

// reverseRegions reverses a chain of regions.
func reverseRegions(d *gridVirt) *gridVirt {
	var r *gridVirt
	for d != nil {
		next := d.next
		d.next, r = r, d
		d = next
	}
	return r
}

// blkLeaveToThSym reports whether a loop inside block nest s has a
// thread-symmetry plan and more than two iterations at entry: the block
// grid's representative runs its block in full (thread symmetry is off
// inside it), where thread symmetry runs one iteration of each entry of
// that loop (per_cta_alloc's rows of 16 threads, thkeep.go). shfl_xor's
// lane pairs have two, where thread symmetry saves at most one iteration
// an entry (and refuses their host-written d_A). Tested before the plan
// is made (gridEnter): per_cta_alloc enters its nest once. The loops it
// looks at (a thread plan, no condition or bound read inside: both fixed
// by Finish) are listed at the nest's first entry (nest.thLoops, stop 37:
// the walk of the body was made at each of shfl_xor's 12 entries). A
// pending plan (plan_lazy.go) is listed too and asked for only when its
// loop has more than two iterations (shfl_xor's lane pairs are never
// planned): the answer is the same.
func (m *Machine) blkLeaveToThSym(s *Stmt, nest *gridNest) bool {
	if !nest.thListed {
		nest.thListed = true
		nest.thLoops = nest.thIn[:0]
		for _, t := range s.Body {
			Walk(t, func(u *Stmt) {
				if u.Kind == KLoop && u.thsym != nil && len(u.CtlSlots) == 0 {
					nest.thLoops = append(nest.thLoops, u)
				}
			})
		}
	}
	for _, u := range nest.thLoops {
		if u.Hi(m.env)-u.Lo(m.env) > 2 && m.p.thPlanOf(u) != nil {
			return true
		}
	}
	return false
}
