package amir

// Rigid accesses: the fast path of window evaluation (E#-Acc, seed 000
// Fig. 6). Nearly every access of a kernel is x[c1, ..., a:a+k, ...] with
// affine starts and constant extents. For such an access whose starts are
// multiples of the variable's block size (every coefficient and constant
// divisible by it), the blocks it touches are a base block, affine in the
// slots, plus a fixed pattern of offsets that depends only on the
// variable's incarnation (its extents). The machine evaluates the starts
// once, checks bounds per dimension, and adds the pattern; anything else
// (a bounds fault included, for its message) goes through evalCells'
// general path, so results are identical.

// rigidDim is one window: start K + Σ terms, extent ext (1 for a point).
type rigidDim struct {
	k, ext int
	terms  []Term
	// fn, when set, is a non-affine point index (k and terms unused); it
	// is aligned only to a block size of 1.
	fn IntExpr
}

// rigidForm is the static part, built by compileRigid.
type rigidForm struct {
	dims []rigidDim
	// Per incarnation of the variable (valid while owner/epoch match):
	owner   *Machine
	epoch   uint64
	aligned bool    // starts are block aligned: the fast path applies
	pattern []int32 // block offsets from the base block, in row-major order
}

// compileRigid returns the rigid form of a, or nil.
func compileRigid(a *Access) *rigidForm {
	if len(a.Idx) == 0 {
		return nil
	}
	r := &rigidForm{}
	for i := range a.Idx {
		w := &a.Idx[i]
		if w.LoAff == nil {
			if w.Hi != nil || w.Lo == nil {
				return nil
			}
			r.dims = append(r.dims, rigidDim{fn: w.Lo, ext: 1})
			continue
		}
		d := rigidDim{k: w.LoAff.K, terms: w.LoAff.Terms, ext: 1}
		if w.Hi != nil {
			if w.HiAff == nil || !sameTerms(w.LoAff.Terms, w.HiAff.Terms) {
				return nil
			}
			d.ext = w.HiAff.K - w.LoAff.K
			if d.ext < 1 {
				return nil // empty or negative windows: the general path
			}
		}
		r.dims = append(r.dims, d)
	}
	return r
}

func sameTerms(a, b []Term) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// prepare validates r for the current incarnation of the variable.
func (m *Machine) prepareRigid(r *rigidForm, st *varState) {
	r.owner, r.epoch = m, st.epoch
	r.aligned = len(r.dims) == len(st.dim)
	if !r.aligned {
		return
	}
	for d := range r.dims {
		g := st.dim[d].gran
		rd := &r.dims[d]
		if rd.fn != nil && g != 1 {
			r.aligned = false
			return
		}
		if rd.k%g != 0 {
			r.aligned = false
			return
		}
		for _, t := range rd.terms {
			if t.Coef%g != 0 {
				r.aligned = false
				return
			}
		}
	}
	// The pattern: nb_d = ceil(ext_d / g_d) blocks per dimension.
	r.pattern = append(r.pattern[:0], 0)
	for d := range r.dims {
		x := &st.dim[d]
		nb := (r.dims[d].ext-1)/x.gran + 1
		if nb == 1 {
			continue
		}
		var next []int32
		for _, p := range r.pattern {
			for j := 0; j < nb; j++ {
				next = append(next, p+int32(j*x.stride))
			}
		}
		r.pattern = next
	}
}

// rigidCells evaluates a rigid access into buf; ok is false when the fast
// path does not apply (the caller then uses the general path).
func (m *Machine) rigidCells(r *rigidForm, st *varState, buf []int32) ([]int32, bool) {
	if r.owner != m || r.epoch != st.epoch {
		m.prepareRigid(r, st)
	}
	if !r.aligned {
		return buf, false
	}
	env := m.env
	base := 0
	for d := range r.dims {
		rd := &r.dims[d]
		x := &st.dim[d]
		var l int
		if rd.fn != nil {
			l = rd.fn(env)
		} else {
			l = rd.k
			for _, t := range rd.terms {
				l += t.Coef * env[t.Slot]
			}
		}
		if l < 0 || l+rd.ext > x.extent {
			return buf, false // out of bounds: the general path faults
		}
		if x.shift >= 0 {
			base += (l >> x.shift) * x.stride
		} else {
			base += l / x.gran * x.stride
		}
	}
	for _, p := range r.pattern {
		buf = append(buf, int32(base)+p)
	}
	return buf, true
}

// rigidCount is the number of blocks of a rigid access (a dead statement's
// memory operations), after the same bounds checks as rigidCells.
func (m *Machine) rigidCount(r *rigidForm, st *varState) (int64, bool) {
	if r == nil || !st.live {
		return 0, false
	}
	if r.owner != m || r.epoch != st.epoch {
		m.prepareRigid(r, st)
	}
	if !r.aligned {
		return 0, false
	}
	env := m.env
	for d := range r.dims {
		rd := &r.dims[d]
		var l int
		if rd.fn != nil {
			l = rd.fn(env)
		} else {
			l = rd.k
			for _, t := range rd.terms {
				l += t.Coef * env[t.Slot]
			}
		}
		if l < 0 || l+rd.ext > st.dim[d].extent {
			return 0, false
		}
	}
	return int64(len(r.pattern)), true
}
