package amir

// Two-dimensional thread frames (issue 13, stop 33: cta33).
//
// per_cta_alloc (bench rows 5-8) writes a 16 x 16 tile by a nest of two
// cuda_threads loops: `for row in cuda_threads(0, 16, unit=16 *
// cuda_thread): for col in cuda_threads(0, 16, unit=cuda_thread):
// tile[row, col] = ...`. The inner loop is thread-symmetric (thsym.go), so
// each of the 16 row iterations entered it virtually: 16 frames, 16 maps,
// 16 representative runs and 16 records, which the CTA fence and the free
// check then visited one by one. Here the nest is entered once: thread
// r0 + i*s1 + j*s2 (outer iteration i, inner iteration j) owns the cell
// translated by i*coef2 in the outer loop's dimension and j*coef in the
// inner loop's. When s1 = n2*s2 (n2 inner iterations: the rows' threads
// follow each other) the nest's threads are the one-dimensional frame
// (r0, s2, n1*n2), thread k = i*n2 + j, so every user of a frame (taint,
// frameIn, keep, materializing a frame, pruning) is unchanged; only the
// map (thMap.n2 > 0: dim2, base2, coef2, width2) describes a second
// dimension, and only thsymCopyMap reads it (thsymCopyMap2).
//
// Why it is the full run's: as for a one-dimensional loop (thsym.go). The
// nest's iterations are the frame's threads, each running the inner body
// once with its own (row, col); the inner body reads col only where the
// inner loop's plan allows it (thPlan: the start, the owned windows'
// dimension dim, dead statements' windows) and row only in the start (its
// coefficient s1) and in the owned windows' dimension dim2 (planThreadSym2:
// any other read of row refuses the plan), so iteration (i, j) is the
// representative's translated by σ_k. The nest has no event, no
// per-thread queue, no private variable, no inner loop and no condition
// on the thread (a quiet loop of the stop-29 form, Program.thExt).
//
// Where the 2-D form is not handled, it falls back to the paths before:
// entry needs every owned variable with no record and no virtual slice
// (no adoption, no meet with other maps, no growth); a one-dimensional
// entry (thsymEnterAt, and so thsymClasses) refuses a variable holding a
// 2-D map (thVar.two), and its inner loop then runs in full, materializing
// the variable; lite tasks, grid symmetry and MaxMemOps runs never enter.
// Materialization copies the representative's cells to every thread's
// (thsymCopyMap2); thsymKeep reads only the map's frame.
//
// Checked by TestThreadSym2DMatches* (thsym2d_test.go): random nests and
// per_cta_alloc's programs against the 1-D path (thsymNo2D) and no
// symmetry.

// th2Plan is the static plan of the outer loop of a 2-D nest (Stmt.th2).
type th2Plan struct {
	inner *Stmt   // the loop's one statement: a thread loop with a plan
	pl    *thPlan // inner.thsym
	rstep int     // the outer iterator's coefficient in pl.start
	owned []th2Owned
	accs  []*Access // accesses with a window that reads the outer iterator
}

// th2PlanOne is a th2Plan with room for one owned entry and two
// accesses (issue 13, stop 46: the accesses' list had been a third
// allocation of a small kernel's 2-D plan; past two it grows on the
// heap, as it did).
type th2PlanOne struct {
	p     th2Plan
	owned [1]th2Owned
	accs  [2]*Access
}

// th2Owned is the outer dimension of pl.owned[k] (the same k): thread
// row i owns dim2 indices lo2(i) + [0, coef2).
type th2Owned struct {
	dim2  int
	lo2   *Affine
	coef2 int
}

// planThreadSym2 returns loop s's plan as the outer loop of a 2-D nest, or
// nil (s.thsym, when set, is preferred: s is not planned).
func (p *Program) planThreadSym2(s *Stmt) *th2Plan {
	if s.Kind != KLoop || s.Tasks || s.thsym != nil || len(s.Body) != 1 {
		return nil
	}
	t := s.Body[0]
	if t.Kind != KLoop || t.Tasks || t.thsym == nil {
		return nil
	}
	pl := t.thsym
	if len(pl.pins) > 0 || len(pl.yconds) > 0 || len(pl.private) > 0 || len(pl.bars) > 0 || !pl.quiet || pl.inner || len(pl.owned) == 0 {
		return nil
	}
	r := s.Slot
	for _, c := range t.CtlSlots {
		if c == r {
			return nil // the inner bounds read the row
		}
	}
	var p2 *th2Plan
	if len(pl.owned) <= 1 {
		// The plan and its one owned entry in one object (a small
		// kernel's 2-D nest owns one tile: two allocations a plan;
		// issue 13, stop 41: amir).
		o := new(th2PlanOne)
		p2, o.p.owned, o.p.accs = &o.p, o.owned[:len(pl.owned)], o.accs[:0]
	} else {
		p2 = &th2Plan{owned: make([]th2Owned, len(pl.owned))}
	}
	p2.inner, p2.pl, p2.rstep = t, pl, coefOf(pl.start, r)
	if p2.rstep == 0 {
		return nil
	}
	for k := range p2.owned {
		p2.owned[k].dim2 = -1
	}
	ok := true
	var walk func(list []*Stmt)
	walk = func(list []*Stmt) {
		for _, b := range list {
			if !ok {
				return
			}
			for _, c := range b.CtlSlots {
				if c == r && b.Kind != KLoop {
					ok = false // a condition or extent reading the row
					return
				}
			}
			switch b.Kind {
			case KBlock, KIf:
				walk(b.Body)
				continue
			case KLoop, KAlloc, KFence, KArrive, KAwait, KIncTaskID, KCheckBarrier:
				ok = false // none in a quiet plan with no inner loop; not relied on
				return
			}
			if len(b.Bars) > 0 || b.Acc == nil {
				ok = false
				return
			}
			if b.Kind != KClearReads && b.Kind != KClearMutates && coefOf(b.Exec.StartAff, r) != p2.rstep {
				ok = false
				return
			}
			if !p2.scan(b.Acc, r, b.dead) {
				ok = false
				return
			}
		}
	}
	walk(t.Body)
	if !ok {
		return nil
	}
	for k := range p2.owned {
		o, o2 := &pl.owned[k], &p2.owned[k]
		if o2.dim2 < 0 || coefOf(o.lo, r) != 0 {
			return nil // every row on the same cells, or the rows along dim
		}
		for _, a := range o.accs {
			w := &a.Idx[o2.dim2]
			if w.LoAff == nil || !affEqual(w.LoAff, o2.lo2) {
				return nil
			}
		}
	}
	return p2
}

// scan records access a of the inner body (dead: a dead statement's, only
// bounds checked) and reports whether its windows read the row r in the
// 2-D form: affinely, only in the owned variable's one outer dimension
// (never its inner one), with a positive coefficient.
func (p2 *th2Plan) scan(a *Access, r int, dead bool) bool {
	k := -1
	for i := range p2.pl.owned {
		if p2.pl.owned[i].v == a.Var {
			k = i
		}
	}
	reads := false
	for i := range a.Idx {
		w := &a.Idx[i]
		rd, known := winReads(a, w, r)
		if !known {
			return false
		}
		if !rd {
			continue
		}
		if w.LoAff == nil || (w.Hi != nil && w.HiAff == nil) {
			return false
		}
		c := coefOf(w.LoAff, r)
		if w.Hi != nil && coefOf(w.HiAff, r) != c {
			return false
		}
		reads = true
		if dead {
			continue
		}
		if k < 0 || i == p2.pl.owned[k].dim || c <= 0 {
			return false
		}
		o2 := &p2.owned[k]
		if o2.dim2 < 0 {
			o2.dim2, o2.lo2, o2.coef2 = i, w.LoAff, c
		} else if o2.dim2 != i || !affEqual(o2.lo2, w.LoAff) {
			return false // two slices per row
		}
	}
	if !reads && !dead && k < 0 {
		return false // not owned: the inner plan owns every live access
	}
	if reads {
		for _, b := range p2.accs {
			if b == a {
				return true
			}
		}
		p2.accs = append(p2.accs, a)
	}
	return true
}

// th2Enter decides whether the nest of loop s over [lo, hi) runs
// virtually and, if so, registers its frame and 2-D maps and returns the
// statistics before the representative (thsymEnterAt's counterpart).
func (m *Machine) th2Enter(s *Stmt, lo, hi int) *thRun {
	p2 := s.th2
	pl, t := p2.pl, p2.inner
	if m.lite || !m.p.thExt || m.thsymNo2D {
		return nil
	}
	for _, sh := range pl.shapes {
		if !m.single[sh] {
			return nil
		}
	}
	env := m.env
	r, y := s.Slot, t.Slot
	env[r] = lo // as the first iteration sets it (the inner bounds do not read it)
	tlo, thi := t.Lo(env), t.Hi(env)
	n2 := thi - tlo
	if n2 < 1 || p2.rstep != n2*pl.step || int64(hi-lo)*int64(n2) > 1<<30 {
		return nil // not one frame: the rows' threads are not consecutive
	}
	for k := range pl.owned {
		o, o2 := &pl.owned[k], &p2.owned[k]
		st := &m.vars[o.v]
		if m.thVars[o.v] != nil || st.hasRecs || !st.live || o2.dim2 >= len(st.dims) || o.dim >= len(st.dims) ||
			st.gran[o.dim] != 1 || st.gran[o2.dim2] != 1 {
			return nil
		}
	}
	// Bounds of every window that reads the row or the column over the
	// rectangle [lo, hi) x [tlo, thi) (each window is affine in both).
	if m.th2Corners {
		// The reference: each window at the four corners.
		for _, rv := range [2]int{lo, hi - 1} {
			for _, cv := range [2]int{tlo, thi - 1} {
				env[r], env[y] = rv, cv
				if !m.th2InBounds(pl.accs, r, y) || !m.th2InBounds(p2.accs, r, y) {
					return nil
				}
			}
		}
		env[r], env[y] = lo, tlo
	} else {
		env[r], env[y] = lo, tlo
		dr, dy := hi-1-lo, thi-1-tlo
		if !m.th2RectInBounds(pl.accs, r, y, dr, dy) || !m.th2RectInBounds(p2.accs, r, y, dr, dy) {
			return nil
		}
	}
	for k := range pl.owned {
		o, o2 := &pl.owned[k], &p2.owned[k]
		for _, a := range o.accs {
			if winWidth(&a.Idx[o.dim], env) > o.coef || winWidth(&a.Idx[o2.dim2], env) > o2.coef2 {
				return nil // neighbouring threads' windows overlap
			}
		}
	}
	frame := m.thsymFrame(thFrame{task: m.task, r0: int32(pl.start.Eval(env)), step: int32(pl.step), n: int32((hi - lo) * n2)})
	for k := range pl.owned {
		o, o2 := &pl.owned[k], &p2.owned[k]
		mp := thMap{frame: frame, dim: o.dim, base: o.lo.Eval(env), coef: o.coef, width: o.coef,
			n2: n2, dim2: o2.dim2, base2: o2.lo2.Eval(env), coef2: o2.coef2, width2: o2.coef2}
		// The variable's state and its one map in one object (two
		// allocations a tile a CTA; issue 13, stop 41: amir).
		one := &thVarOne{v: thVar{two: true}}
		vs := &one.v
		one.maps[0] = mp
		vs.maps = one.maps[:]
		vs.hullAdd(&vs.maps[0], true)
		m.thVars[o.v] = vs
	}
	m.th2Runs++
	m.th2Hi = thi
	return m.thsymStart(frame.n)
}

// th2InBounds reports whether every window of accs that reads slot r or
// y is in bounds at the current environment (thsymEnterAt's test).
func (m *Machine) th2InBounds(accs []*Access, r, y int) bool {
	env := m.env
	for _, a := range accs {
		st := &m.vars[a.Var]
		if !st.live || len(a.Idx) != len(st.dims) {
			return false
		}
		for d := range a.Idx {
			w := &a.Idx[d]
			if w.LoAff == nil || coefOf(w.LoAff, y) == 0 && coefOf(w.LoAff, r) == 0 &&
				(w.HiAff == nil || coefOf(w.HiAff, y) == 0 && coefOf(w.HiAff, r) == 0) {
				continue
			}
			l := w.LoAff.Eval(env)
			ext := st.dims[d]
			if w.Hi == nil {
				if l < 0 || l >= ext {
					return false
				}
				continue
			}
			if st.gran[d] != 1 || w.HiAff == nil {
				return false
			}
			h := w.HiAff.Eval(env)
			if l < 0 || h > ext || h < l {
				return false
			}
		}
	}
	return true
}

// th2RectInBounds is th2InBounds at the four corners (r, y) + {0, dr} x
// {0, dy} of the environment's (r, y), dr, dy >= 0, from one evaluation
// of each window (issue 13, stop 36: four evaluations of every window
// and four coefficient searches each had cost per_cta_alloc ~2 K
// instructions a check). An affine form over a rectangle takes its
// least and greatest values at corners: at the (r, y) corner plus the
// negative (positive) parts of its steps along the two sides. So the
// corner tests "lo >= 0, lo < ext" (an index) and "lo >= 0, hi <= ext,
// hi >= lo" (a range) hold at all four corners exactly when they hold
// for the extremes of lo, of hi and of hi - lo (itself affine).
func (m *Machine) th2RectInBounds(accs []*Access, r, y, dr, dy int) bool {
	env := m.env
	for _, a := range accs {
		st := &m.vars[a.Var]
		if !st.live || len(a.Idx) != len(st.dims) {
			return false
		}
		for d := range a.Idx {
			w := &a.Idx[d]
			if w.LoAff == nil {
				continue
			}
			lr, ly := coefOf(w.LoAff, r), coefOf(w.LoAff, y)
			var hr, hy int
			if w.HiAff != nil {
				hr, hy = coefOf(w.HiAff, r), coefOf(w.HiAff, y)
			}
			if lr == 0 && ly == 0 && hr == 0 && hy == 0 {
				continue
			}
			l := w.LoAff.Eval(env)
			lmin, lmax := rectRange(l, lr*dr, ly*dy)
			ext := st.dims[d]
			if w.Hi == nil {
				if lmin < 0 || lmax >= ext {
					return false
				}
				continue
			}
			if st.gran[d] != 1 || w.HiAff == nil {
				return false
			}
			h := w.HiAff.Eval(env)
			_, hmax := rectRange(h, hr*dr, hy*dy)
			wmin, _ := rectRange(h-l, (hr-lr)*dr, (hy-ly)*dy)
			if lmin < 0 || hmax > ext || wmin < 0 {
				return false
			}
		}
	}
	return true
}

// rectRange is the least and greatest of v + {0, a} + {0, b}.
func rectRange(v, a, b int) (lo, hi int) {
	lo, hi = v, v
	if a < 0 {
		lo += a
	} else {
		hi += a
	}
	if b < 0 {
		lo += b
	} else {
		hi += b
	}
	return lo, hi
}

// winWidth is the extent of window w (1 for an index).
func winWidth(w *Window, env []int) int {
	if w.Hi == nil {
		return 1
	}
	return w.HiAff.Eval(env) - w.LoAff.Eval(env)
}

// thsymCopyMap2 is thsymCopyMap for a 2-D map: the representative's cells
// (dim indices [base, base+width), dim2 indices [base2, base2+width2),
// every index of the other dimensions) are copied to thread k = i*n2 + j's,
// j*coef and i*coef2 further.
func (m *Machine) thsymCopyMap2(st *varState, mp thMap) {
	f := mp.frame
	s1, b1 := st.strides[mp.dim], st.blocks[mp.dim]
	s2, b2 := st.strides[mp.dim2], st.blocks[mp.dim2]
	n2 := int32(mp.n2)
	now := int32(len(m.log))
	for c := 0; c < st.total; c++ {
		j1, j2 := c/s1%b1, c/s2%b2
		if j1 < mp.base || j1 >= mp.base+mp.width || j2 < mp.base2 || j2 >= mp.base2+mp.width2 {
			continue
		}
		for _, reads := range [2]bool{true, false} {
			head := st.cells[c].muts
			if reads {
				head = st.cells[c].reads
			}
			for h := head; h >= 0; h = m.rec(h).next {
				if m.rec(h).stamp != now {
					m.replay(m.rec(h))
				}
			}
			for k := int32(1); k < f.n; k++ {
				i, j := int(k/n2), int(k%n2)
				if j1+j*mp.coef >= b1 || j2+i*mp.coef2 >= b2 {
					continue // past the variable: no thread's window is there
				}
				tc := c + j*mp.coef*s1 + i*mp.coef2*s2
				st.listAt(int32(tc))
				cl := &st.cells[tc]
				lp := &cl.muts
				if reads {
					lp = &cl.reads
				}
				if head < 0 {
					// The translation of the empty list (a kept
					// whole-variable record may be there: thsymCopyMap).
					if *lp >= 0 {
						m.freeList(*lp)
						*lp = -1
						m.vers++
						cl.ver = m.vers
					}
					continue
				}
				tail := int32(-1)
				for h := head; h >= 0; h = m.rec(h).next {
					nr := m.thsymCopy(h, f, k, now)
					if tail < 0 {
						m.freeList(*lp)
						*lp = nr
					} else {
						m.rec(tail).next = nr
					}
					tail = nr
				}
				m.vers++
				cl.ver = m.vers
			}
		}
	}
}
