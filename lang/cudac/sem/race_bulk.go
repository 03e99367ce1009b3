package sem

// Uniform shadow (issue 15 item 7). A copy or memset covers a whole buffer
// (cudaMemset(d, 0, n), cudaMemcpy(d, h, n, ...)), and every granule it
// covers ends with the same history. Until an access needs cells, an
// object whose granules [lo, hi) all have one history c, and all others
// none, is kept as that one cell: a bulk access covering the range is
// checked once instead of cell by cell, and the cells are made (at the
// granule the next access needs, so no split follows) only when an access
// covers part of the range or the histories would differ. asyncAPI's
// memsets and copies of a 64 MiB buffer, and the split of its cells from
// 8 to 4 bytes at the kernel's first access, were a fifth of its check.
//
// The verdicts are those of the cell-by-cell walk: every granule in the
// range has the same history, so each check has the same outcome for all,
// and the first conflicting granule, the byte a report names, is the first
// one of the range (reportRace reports one race per pair of positions).

// uniShadow is the history c of the granules [lo, hi) of 2^g bytes of an
// object whose shadow is nil; c has no further reads (more == 0).
type uniShadow struct {
	g      uint8
	lo, hi int
	c      cell
}

// uniMin is the number of granules from which an access on an object
// without cells is checked as a bulk access.
const uniMin = 64

// uniAccess checks an access on an object without cells (o.shadow is
// nil). It reports whether the access was recorded in the object's uniform
// history; if not, the object has cells now, and raceCheck checks the
// access cell by cell.
func (m *Machine) uniAccess(o *Object, off, n int, write, atomic bool, b stamp, ordered func(stamp) bool) bool {
	u := m.uni[o]
	ga := granuleOf(off, n)
	// kernel-only runs keep co-writer sets per granule (kernelonly.go);
	// strong accesses may warn per cell (volWarp)
	if !atomic && m.cowriters == nil && n>>ga >= uniMin {
		if u == nil {
			u = &uniShadow{g: ga, lo: off >> ga, hi: (off + n) >> ga}
			if write {
				u.c.w = b
			} else {
				u.c.r = b
			}
			if m.uni == nil {
				m.uni = map[*Object]*uniShadow{}
			}
			m.uni[o] = u
			return true
		}
		g := min(u.g, ga)
		lo, hi := u.lo<<(u.g-g), u.hi<<(u.g-g)
		alo, ahi := off>>g, (off+n)>>g
		c := &u.c
		// a write leaves every granule it covers with the history {b};
		// a read leaves {c.w, b} inside the range and {-, b} outside it,
		// the same only if the range is the access's or c has no write; a
		// read unordered with c's read needs a list of reads
		if alo <= lo && hi <= ahi && (write || (alo == lo && ahi == hi || !c.w.valid()) && (!c.r.valid() || ordered(c.r))) {
			at := lo << g
			if c.w.valid() && !ordered(c.w) {
				m.reportRace(o, at, c.w, b)
			}
			if write {
				if c.r.valid() && !ordered(c.r) {
					m.reportRace(o, at, c.r, b)
				}
				c.w, c.r = b, stamp{}
			} else {
				c.r = b
			}
			u.g, u.lo, u.hi = g, alo, ahi
			return true
		}
	}
	if u == nil {
		o.gshift = ga
		o.shadow = make([]cell, (len(o.Data)+1<<ga-1)>>ga)
		return false
	}
	// make the cells, at the granule this access needs
	g := min(u.g, ga)
	o.gshift = g
	o.shadow = make([]cell, (len(o.Data)+1<<g-1)>>g)
	lo, hi := u.lo<<(u.g-g), u.hi<<(u.g-g)
	delete(m.uni, o)
	if hi-lo >= m.lazyMin {
		// the cells of the range get u's history at their first access
		u.g, u.lo, u.hi = g, lo, hi
		if m.lazy == nil {
			m.lazy = map[*Object]*uniShadow{}
		}
		m.lazy[o] = u
		o.lazy = true
		return false
	}
	part := o.shadow[lo:hi]
	for i := range part {
		part[i] = u.c
	}
	return false
}

// Lazy cells. When a uniform history becomes cells (uniAccess), the cells
// of its range are not filled with it: they stay zero, and an access that
// meets a zero cell in the range gives it the history first (lazyCell). A
// cell is zero only before its first access (every access leaves a valid
// write or read in it), so a zero cell in the range is one the history
// still stands for. Filling the cells of a 64 MiB buffer at a kernel's
// first access wrote 320 MB of fresh memory, its page faults included,
// before the kernel touched it again, a cell at a time (asyncAPI,
// simpleStreams: issue 15 item 7, third pass). The collector walks the
// history of m.lazy as one more cell (gcSegs), split scales its range,
// and dropShadow forgets it.

// lazyMin is the number of granules from which the cells of a uniform
// range are given its history at their first access.
const lazyMin = 4096

// lazyCell gives c, cell ci of o, zero, the history it stands for, if any.
func (m *Machine) lazyCell(o *Object, ci int, c *cell) {
	u := m.lazyU
	if m.lazyO != o {
		u = m.lazy[o]
		m.lazyO, m.lazyU = o, u
	}
	if ci >= u.lo && ci < u.hi {
		*c = u.c
	}
}

// dropLazy forgets o's lazy history.
func (m *Machine) dropLazy(o *Object) {
	delete(m.lazy, o)
	o.lazy = false
	m.lazyO, m.lazyU = nil, nil
}
