package amir

import "slices"

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
	// mod, when set, is fn as a ModAffine (evaluated instead of fn).
	mod *ModAffine
}

// rigidForm is the static part, built by compileRigid.
type rigidForm struct {
	dims []rigidDim
	// Per incarnation of the variable (valid while owner/epoch match):
	owner   *Machine
	epoch   uint64
	aligned bool    // starts are block aligned: the fast path applies
	pattern []int32 // block offsets from the base block, in row-major order
	// base is the base block's constant part: the dimensions whose start
	// is constant (bounds checked once, in prepareRigid); dyn are the
	// others.
	base int
	dyn  []dynDim
	// facts are the incarnation's dimensions the form was prepared for.
	facts []dimInfo
	// version counts the preparations (base, dyn and pattern change).
	version uint64
	// The backing arrays of dims, facts and dyn for up to rigidInline
	// dimensions, in the form's own allocation: compileRigid and the
	// first prepareRigid had made three more objects a form, and every
	// check compiles and prepares each access's form once (issue 13,
	// stop 32: 18 slice growths a check in rmem_uniform).
	dimsIn  [rigidInline]rigidDim
	factsIn [rigidInline]dimInfo
	dynIn   [rigidInline]dynDim
}

// rigidInline is the most dimensions a rigid form keeps inline.
const rigidInline = 4

// dynDim is a dimension with a varying start, with the incarnation's
// facts: the start must lie in [0, lim] (lim = extent - ext).
type dynDim struct {
	k, lim, gran, stride int
	s0, c0               int // the first term (c0 = 0: none)
	// rd is the form's dimension: its fn, mod and further terms
	// (rd.terms[1:]) are read through it, not copied (issue 13, stop 45:
	// 40 bytes a dimension, rigidForm 904 -> 744 bytes, a 768-byte size
	// class; every check allocates its forms).
	rd    *rigidDim
	shift int32
	// one: the start is k + c0·slot s0 with c0 != 0 and no further
	// term, and the granularity a power of two (shift >= 0): nearly
	// every varying dimension, evaluated by rigidBase with no test of
	// fn, mod or more (issue 13, stop 34: rigidBase was 7% of the
	// three-ring rows' check, some 600 calls a check).
	one bool
}

// more is d's further terms (after the first).
func (d *dynDim) more() []Term {
	if len(d.rd.terms) < 2 {
		return nil
	}
	return d.rd.terms[1:]
}

// compileRigid returns the rigid form of a, or nil.
//
// The form is the next of the machine's slab of forms (rigSlab), taken
// only when a has one: a form is about 1 KB, and one object had been
// made per access evaluated (issue 13, stop 42: shfl_xor's 12 a check).
// The slot is zeroed again when a has no form, so every form starts as
// &rigidForm{} did.
func (m *Machine) compileRigid(a *Access) *rigidForm {
	if len(a.Idx) == 0 {
		return nil
	}
	if len(m.rigSlab) == 0 {
		m.rigSlab = make([]rigidForm, m.rigChunk())
	}
	r := &m.rigSlab[0]
	if r = compileRigidInto(a, r); r != nil {
		m.rigSlab = m.rigSlab[1:]
	} else {
		m.rigSlab[0] = rigidForm{}
	}
	return r
}

// rigChunk sizes the next chunk of the slab of rigid forms: the first
// has room for the program's accesses with indices (Program.rigN, at
// most 16), then 4, then twice the last, at most 16. Every access a
// small kernel evaluates compiles its form and each compiles one at most
// (a form lives on its Access), so rigN is the forms a run compiles on
// every row measured (issue 13, stop 45: the first chunk of 4 had been
// 4 KB zeroed for per_cta_alloc's and a 6-line kernel's one form, a
// tenth of their check's allocation; 4 then 8 had been 12 KB for
// rmem_uniform's 8). A program that never evaluates some of them
// leaves part of the chunk unused; one that compiles more (a form of
// an access Finish did not walk) grows as before.
func (m *Machine) rigChunk() int {
	if m.rigNext == 0 && m.p.rigN > 0 {
		m.rigNext = int(min(m.p.rigN, 16))
		return m.rigNext
	}
	m.rigNext = min(max(2*m.rigNext, 4), 16)
	return m.rigNext
}

// compileRigidInto fills r, a zero form, as a's rigid form; nil when a
// has none (r is then left partly filled).
func compileRigidInto(a *Access, r *rigidForm) *rigidForm {
	// Sized once (issue 13, stop 26: the growth was a tenth of a small
	// kernel's machine allocation).
	if len(a.Idx) <= rigidInline {
		r.dims, r.facts, r.dyn = r.dimsIn[:0], r.factsIn[:0], r.dynIn[:0]
	} else {
		r.dims = make([]rigidDim, 0, len(a.Idx))
	}
	for i := range a.Idx {
		w := &a.Idx[i]
		if w.LoAff == nil {
			if w.Hi != nil || w.Lo == nil {
				return nil
			}
			r.dims = append(r.dims, rigidDim{fn: w.Lo, mod: w.LoMod, ext: 1})
			continue
		}
		d := rigidDim{k: w.LoAff.K, terms: w.LoAff.Terms, ext: 1}
		if w.Hi != nil {
			if w.HiAff == nil || !slices.Equal(w.LoAff.Terms, w.HiAff.Terms) {
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

// prepare validates r for the current incarnation of the variable.
func (m *Machine) prepareRigid(r *rigidForm, st *varState) {
	if r.owner == m && slices.Equal(r.facts, st.dim) {
		// A new incarnation with the same extents (a register tile
		// allocated in a loop): the same form.
		r.epoch = st.epoch
		return
	}
	r.owner, r.epoch = m, st.epoch
	r.version++
	r.facts = append(r.facts[:0], st.dim...)
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
	r.base, r.dyn = 0, r.dyn[:0]
	for d := range r.dims {
		rd, x := &r.dims[d], &st.dim[d]
		if rd.fn == nil && len(rd.terms) == 0 {
			if rd.k < 0 || rd.k+rd.ext > x.extent {
				r.aligned = false // out of bounds: the general path faults
				return
			}
			r.base += rd.k / x.gran * x.stride
			continue
		}
		if x.extent < rd.ext {
			r.aligned = false // never in bounds: the general path faults
			return
		}
		dd := dynDim{k: rd.k, lim: x.extent - rd.ext, shift: int32(x.shift), gran: x.gran, stride: x.stride, rd: rd}
		if len(rd.terms) > 0 {
			dd.s0, dd.c0 = rd.terms[0].Slot, rd.terms[0].Coef
		}
		dd.one = rd.fn == nil && len(rd.terms) == 1 && dd.c0 != 0 && dd.shift >= 0
		r.dyn = append(r.dyn, dd)
	}
	// The pattern: nb_d = ceil(ext_d / g_d) blocks per dimension, in
	// row-major order. It is made in one array of its final size, each
	// dimension spreading the pattern so far in place from the back
	// (entry i becomes entries i*nb .. i*nb+nb-1, all at or after i):
	// appending block by block had grown it eight times for a 256-block
	// whole-variable access (issue 13, stop 32: rmem_uniform's host
	// copies, 30 growths a check). Consecutive blocks (a whole variable,
	// say) are a prefix of the machine's ascending list. A pattern is
	// never written once made: a hoisted plan (hoist.go) may still hold
	// it after the next preparation.
	total, run := 1, true
	for d := range r.dims {
		nb := (r.dims[d].ext-1)/st.dim[d].gran + 1
		// run: the blocks are consecutive in flat order (after the
		// first dimension of more than one block, every dimension's
		// window spans all its blocks).
		run = run && (total == 1 || nb == (st.dim[d].extent+st.dim[d].gran-1)/st.dim[d].gran)
		total *= nb
	}
	if run || total == 1 {
		// 0, 1, ..., total-1: a prefix of the machine's shared
		// ascending list (read only; whole-variable accesses of one
		// size shared one pattern each had built).
		r.pattern = m.ascending(total)
		return
	}
	pat := make([]int32, 1, total)
	for d := range r.dims {
		x := &st.dim[d]
		nb := (r.dims[d].ext-1)/x.gran + 1
		if nb == 1 {
			continue
		}
		n := len(pat)
		pat = pat[:n*nb]
		for i := n - 1; i >= 0; i-- {
			p := pat[i]
			for j := nb - 1; j >= 0; j-- {
				pat[i*nb+j] = p + int32(j*x.stride)
			}
		}
	}
	r.pattern = pat
}

// ascending returns 0, 1, ..., n-1, a prefix of m.asc (never written
// after it is made: a longer list is a new one, and the forms holding a
// prefix of the old keep it).
func (m *Machine) ascending(n int) []int32 {
	if t := ascPrefix(n); t != nil {
		return t // the package's table (asctable.go)
	}
	if len(m.asc) < n {
		m.asc = make([]int32, max(n, 256))
		for i := range m.asc {
			m.asc[i] = int32(i)
		}
	}
	return m.asc[:n:n]
}

// rigidCells evaluates a rigid access into buf; ok is false when the fast
// path does not apply (the caller then uses the general path).
func (m *Machine) rigidCells(r *rigidForm, st *varState, buf []int32) ([]int32, bool) {
	base, ok := m.rigidBase(r, st)
	if !ok {
		return buf, false
	}
	buf = addPattern(buf, r.pattern, int32(base))
	return buf, true
}

// addPattern appends base+p for each p of pat to buf. The list is sized
// once and written by index, a copy where base is 0: an append a cell
// had been nine instructions (issue 13, stop 44: rmem_uniform's 256-cell
// accesses, ~4.7 K instructions a check).
func addPattern(buf, pat []int32, base int32) []int32 {
	if len(pat) == 1 && len(buf) < cap(buf) {
		// One block, room for it: most accesses of a thread (issue 13,
		// stop 46: slices.Grow and the loop had been ~85 instructions
		// of shfl_xor's 100 evaluations a check).
		return append(buf, base+pat[0])
	}
	n := len(buf)
	buf = slices.Grow(buf, len(pat))[:n+len(pat)]
	dst := buf[n:]
	if base == 0 {
		copy(dst, pat)
		return buf
	}
	dst = dst[:len(pat)]
	for i, p := range pat {
		dst[i] = base + p
	}
	return buf
}

// rigidBase is the flat index of a rigid access's base block, after the
// bounds checks of its varying dimensions; false when the fast path does
// not apply.
func (m *Machine) rigidBase(r *rigidForm, st *varState) (int, bool) {
	if r.owner != m || r.epoch != st.epoch {
		m.prepareRigid(r, st)
	}
	if !r.aligned {
		return 0, false
	}
	env := m.env
	base := r.base
	// dyn in a local: the loop then neither reloads the slice nor tests
	// the index at each dimension; a shift masked to 63 (one means 0 <=
	// shift < 63) needs no range test (issue 13, stop 36: ~10 of the ~33
	// instructions a dimension).
	dyn := r.dyn
	for i := range dyn {
		d := &dyn[i]
		if d.one {
			l := d.k + d.c0*env[d.s0]
			if uint(l) > uint(d.lim) {
				return 0, false // out of bounds (or lim < 0): the general path faults
			}
			base += (l >> (uint(d.shift) & 63)) * d.stride
			continue
		}
		var l int
		if rd := d.rd; rd.mod != nil {
			l = rd.mod.Eval(env)
		} else if rd.fn != nil {
			l = rd.fn(env)
		} else {
			l = d.k
			if d.c0 != 0 {
				l += d.c0 * env[d.s0]
			}
			for _, t := range d.more() {
				l += t.Coef * env[t.Slot]
			}
		}
		if uint(l) > uint(d.lim) {
			return 0, false // out of bounds (or lim < 0): the general path faults
		}
		if d.shift >= 0 {
			base += (l >> d.shift) * d.stride
		} else {
			base += l / d.gran * d.stride
		}
	}
	return base, true
}

// rigidCount is the number of blocks of a rigid access (a dead statement's
// memory operations), after the same bounds checks as rigidCells. The
// cells it found are left in a's cell cache as base + pattern, unwritten
// (Access.cachePat, as a hoisted plan leaves them; hoistCells writes them
// when read): a dead statement is the record half of an instruction
// argument whose live half often evaluates the same Access next, in the
// same generation (the three-ring pipeline's Awaits: the barrier's dead
// RecordRead, then its Await, 150 pairs a check, each Await had evaluated
// the base again; issue 13, stop 36, ring36). The cache is exactly what
// cellsOnly would compute now: evalCells takes rigidCells, base + pattern,
// for an aligned form, and a cache is valid only while m.gen is unchanged
// (the environment and the variable's incarnation are those read here).
func (m *Machine) rigidCount(a *Access, st *varState) (int64, bool) {
	r := a.rig
	if r == nil || !st.live {
		return 0, false
	}
	base, ok := m.rigidBase(r, st)
	if !ok {
		return 0, false
	}
	if !rigidNoCountCache {
		a.cachePat, a.cacheBase, a.cacheOwner, a.cacheGen = r.pattern, int32(base), m, m.gen
		if rigidCountSets != nil {
			*rigidCountSets++
		}
	}
	return int64(len(r.pattern)), true
}

// rigidNoCountCache, set only by tests, leaves the cell cache alone in
// rigidCount (the plain path, for the differential tests);
// rigidCountSets, set only by tests, counts the caches rigidCount left.
var (
	rigidNoCountCache bool
	rigidCountSets    *int64
)
