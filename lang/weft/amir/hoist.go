package amir

import "slices"

// Loop strength reduction of window evaluation. An access run directly in
// the body of a loop over slot y (a kRun child: the hot instruction calls
// of kernels sit in innermost loops) is rigid (rigid.go): its base block
// is affine in y. At loop entry the machine evaluates it once, checks the
// bounds at the first and the last iteration (each start is affine in y,
// so every iteration in between is in bounds too) and derives the base
// block's step per iteration; each iteration then fills the access's cells
// cache (and, for a dead run, its count cache) from base + step·(i - lo).
// The fill is for the iteration's generation only: anything that changes
// a slot or allocates before the access is executed bumps the generation
// and the access is evaluated the ordinary way. Accesses that are not
// rigid, whose block size does not divide their starts, that read y in a
// double-buffer or closure index, or that would leave the bounds in some
// iteration are never filled: evaluation (and its faults) is unchanged.

// hoistState is the loop-entry plan of one access of a run directly in
// a loop's body (Stmt.hoist).
type hoistState struct {
	a          *Access
	live, dead bool // a live run uses its cells, a dead one its count
	ok         bool
	// checkFixed: some loop inside the loop assigns a slot the access
	// reads (not lexical scoping: hand-built programs), so fixed must be
	// compared before each fill.
	checkFixed bool
	// static: checkFixed, fixed's slots and never are computed
	// (prepareStatic); never: the access can never be planned. (The
	// flags together: 168 -> 144 bytes; issue 13, stop 45.)
	static, never bool
	st            *varState
	epoch         uint64
	base          int
	delta         int
	lo            int
	pattern       []int32 // the rigid form's pattern
	// fixed are the other slots the access reads, with their values at
	// loop entry when checkFixed: a fill is only made while they still
	// hold them (in converted programs they are enclosing loops' slots and
	// always do).
	fixed []Term // {Slot, value}
	// cy and delta are the steps for rig at rigVersion (prepareSteps):
	// per varying dimension the start's coefficient of the loop slot, and
	// the base block's step.
	rig        *rigidForm
	rigVersion uint64
	cy         []int
}

// hoistTargets lists the accesses of the runs directly in loop s's body.
// The list is from r's room while it lasts (finRoom; r nil: none).
func hoistTargets(s *Stmt, r *finRoom) []hoistState {
	body := s.Body
	if s.fused != nil {
		body = s.fused
	}
	var out []hoistState
	if r != nil {
		out = r.hoist[:0]
	}
	for _, c := range body {
		if c.Kind != kRun || c.Acc == nil || len(c.Acc.Idx) == 0 {
			continue
		}
		k := 0
		for k < len(out) && out[k].a != c.Acc {
			k++
		}
		if k == len(out) {
			out = append(out, hoistState{a: c.Acc})
		}
		if c.dead {
			out[k].dead = true
		} else {
			out[k].live = true
		}
	}
	if len(out) == 0 {
		return nil
	}
	if r != nil && cap(out) == cap(r.hoist) {
		// Still in the room (an append past it moves out).
		r.hoist = r.hoist[len(out):]
		out = out[:len(out):len(out)]
	}
	return out
}

// planHoist computes a's plan for the loop s over [lo, hi) (hi > lo), with
// env[y] = lo.
func (m *Machine) planHoist(s *Stmt, h *hoistState, lo, hi int) {
	a := h.a
	h.ok = false
	if !h.static {
		h.prepareStatic(s)
	}
	if h.never {
		return
	}
	st := &m.vars[a.Var]
	if !st.live || len(a.Idx) != len(st.dim) {
		return
	}
	if a.rig == nil && !a.notRigid {
		a.rig = m.compileRigid(a)
		a.notRigid = a.rig == nil
	}
	r := a.rig
	if r == nil {
		return
	}
	if r.owner != m || r.epoch != st.epoch {
		m.prepareRigid(r, st)
	}
	if !r.aligned {
		return
	}
	if h.rig != r || h.rigVersion != r.version {
		h.prepareSteps(s.Slot, r)
	}
	env := m.env
	base, n1 := r.base, hi-1-lo
	for i := range r.dyn {
		d := &r.dyn[i]
		var l int
		if d.rd.mod != nil {
			l = d.rd.mod.Eval(env)
		} else {
			l = d.k
			if d.c0 != 0 {
				l += d.c0 * env[d.s0]
			}
			for _, t := range d.more() {
				l += t.Coef * env[t.Slot]
			}
		}
		last := l + h.cy[i]*n1
		if uint(l) > uint(d.lim) || uint(last) > uint(d.lim) {
			return // some iteration may fault: evaluate each one
		}
		if d.shift >= 0 {
			base += (l >> d.shift) * d.stride
		} else {
			base += l / d.gran * d.stride
		}
	}
	if h.checkFixed {
		for k := range h.fixed {
			h.fixed[k].Coef = env[h.fixed[k].Slot]
		}
	}
	h.epoch, h.base, h.lo, h.ok = st.epoch, base, lo, true
	h.st, h.pattern = st, r.pattern
}

// prepareStatic computes the facts of h that depend only on the program:
// the other slots its windows read, whether a loop inside s assigns one
// (checkFixed), and whether it can never be planned (never: a double-buffer
// index of y, or a window with no affine form).
func (h *hoistState) prepareStatic(s *Stmt) {
	h.static, h.never, h.checkFixed = true, false, false
	h.fixed = h.fixed[:0]
	y := s.Slot
	add := func(af *Affine) {
		for _, t := range af.Terms {
			h.fix(t.Slot, y, nil)
		}
	}
	for i := range h.a.Idx {
		w := &h.a.Idx[i]
		switch {
		case w.LoAff != nil:
			add(w.LoAff)
			if w.HiAff != nil {
				add(w.HiAff)
			}
		case w.LoMod != nil && w.Hi == nil:
			for _, t := range w.LoMod.Aff.Terms {
				if t.Slot == y {
					h.never = true
				}
			}
			add(&w.LoMod.Aff)
		default:
			h.never = true // a closure: its slots are unknown
		}
	}
	for _, f := range h.fixed {
		h.checkFixed = h.checkFixed || slices.Contains(s.innerSlots, f.Slot)
	}
}

// prepareSteps computes the per-iteration steps of r's varying dimensions
// for the loop slot y (r's current preparation).
func (h *hoistState) prepareSteps(y int, r *rigidForm) {
	h.rig, h.rigVersion = r, r.version
	h.cy = h.cy[:0]
	h.delta = 0
	for i := range r.dyn {
		d := &r.dyn[i]
		cy := 0
		if d.rd.mod == nil {
			if d.c0 != 0 && d.s0 == y {
				cy += d.c0
			}
			for _, t := range d.more() {
				if t.Slot == y {
					cy += t.Coef
				}
			}
		}
		h.cy = append(h.cy, cy)
		if d.shift >= 0 {
			h.delta += (cy >> d.shift) * d.stride
		} else {
			h.delta += cy / d.gran * d.stride
		}
	}
}

// fillHoisted fills the caches of loop s's planned accesses for iteration
// i (m.gen is the iteration's generation).
func (m *Machine) fillHoisted(s *Stmt, i int) {
	for k := range s.hoist {
		h := &s.hoist[k]
		if !h.ok || h.st.epoch != h.epoch {
			continue
		}
		if h.checkFixed {
			stale := false
			for _, f := range h.fixed {
				stale = stale || m.env[f.Slot] != f.Coef
			}
			if stale {
				continue
			}
		}
		a := h.a
		base := int32(h.base + h.delta*(i-h.lo))
		if h.live {
			// Written when the iteration evaluates the access
			// (hoistCells): a task-local access in a task that task
			// symmetry skips never is (issue 13 stop 32: the TMA
			// tester's 1 984-cell tiles, 6% of its instructions).
			a.cachePat, a.cacheBase, a.cacheOwner, a.cacheGen = h.pattern, base, m, m.gen
		}
		if h.dead {
			a.countOwner, a.countGen, a.count = m, m.gen, int64(len(h.pattern))
		}
	}
}

// hoistCells writes the cells fillHoisted planned for access a.
func hoistCells(a *Access) {
	cs := a.cacheCells[:0]
	for _, p := range a.cachePat {
		cs = append(cs, a.cacheBase+p)
	}
	a.cacheCells, a.cachePat = cs, nil
}

// fix records slot's value at loop entry (slots other than the loop's).
func (h *hoistState) fix(slot, y int, env []int) {
	if slot == y {
		return
	}
	for _, f := range h.fixed {
		if f.Slot == slot {
			return
		}
	}
	v := 0
	if env != nil {
		v = env[slot]
	}
	h.fixed = append(h.fixed, Term{Slot: slot, Coef: v})
}

// gsPlan is the loop-entry plan of a run's g_s (its start thread is
// affine in the slots, Exec.StartAff): start(i) = start + step·(i - lo).
type gsPlan struct {
	c           *gsCache
	aff         *Affine
	start, step int
	lo          int
	fixed       []Term
	shape       int32
	ok          bool
	checkFixed  bool
	static      bool // step, fixed's slots and checkFixed are computed
	// (The 4-byte and 1-byte fields together: 88 -> 72 bytes; issue 13,
	// stop 45.)
}

// hoistGSTargets lists the g_s plans of the runs directly in loop s's body.
// The list and its plans are from r's room while it lasts (finRoom; r
// nil: none).
func hoistGSTargets(s *Stmt, r *finRoom) []*gsPlan {
	body := s.Body
	if s.fused != nil {
		body = s.fused
	}
	var out []*gsPlan
	if r != nil {
		out = r.gsPtrs[:0]
	}
	for _, c := range body {
		if c.Kind != kRun || c.gsc == nil || c.Exec.All || c.Exec.StartAff == nil {
			continue
		}
		dup := false
		for _, p := range out {
			dup = dup || p.c == c.gsc
		}
		if !dup {
			var g *gsPlan
			if r != nil && len(r.gsPlans) > 0 {
				g, r.gsPlans = &r.gsPlans[0], r.gsPlans[1:]
			} else {
				g = new(gsPlan)
			}
			*g = gsPlan{c: c.gsc, aff: c.Exec.StartAff, shape: int32(c.Exec.Shape)}
			out = append(out, g)
		}
	}
	if len(out) == 0 {
		return nil
	}
	if r != nil && cap(out) == cap(r.gsPtrs) {
		r.gsPtrs = r.gsPtrs[len(out):]
		out = out[:len(out):len(out)]
	}
	return out
}

func (m *Machine) planGS(s *Stmt, p *gsPlan, lo int) {
	env := m.env
	if !p.static {
		// The step and the other slots read depend only on the program.
		p.static = true
		y := s.Slot
		h := hoistState{fixed: p.fixed[:0]}
		p.step = 0
		for _, t := range p.aff.Terms {
			if t.Slot == y {
				p.step += t.Coef
			}
			h.fix(t.Slot, y, nil)
		}
		p.fixed = h.fixed
		p.checkFixed = false
		for _, f := range p.fixed {
			p.checkFixed = p.checkFixed || slices.Contains(s.innerSlots, f.Slot)
		}
	}
	p.start, p.lo, p.ok = p.aff.Eval(env), lo, true
	if p.checkFixed {
		for k := range p.fixed {
			p.fixed[k].Coef = env[p.fixed[k].Slot]
		}
	}
}

// fillGS fills the g_s caches of loop s's runs for iteration i.
func (m *Machine) fillGS(s *Stmt, i int) {
	for _, p := range s.hoistGS {
		if !p.ok {
			continue
		}
		if p.checkFixed {
			stale := false
			for _, f := range p.fixed {
				stale = stale || m.env[f.Slot] != f.Coef
			}
			if stale {
				continue
			}
		}
		c := p.c
		c.owner, c.gen = m, m.gen
		c.val = threads{task: m.task, start: int32(p.start + p.step*(i-p.lo)), shape: p.shape}
	}
}

// hoistMinTrips is the fewest iterations a loop plans its windows for (a
// variable for the tests).
var hoistMinTrips = 3
