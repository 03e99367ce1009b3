package coll

import (
	"slices"
	"sync"
)

// memo holds what has been derived from one tiling: the tilings of the
// cuda_threads loops and CudaWarps blocks under it, and the units matched
// against it. Derivation and matching are pure functions of the tiling and
// their arguments, so asking again returns the first answer (the same
// *Tiling, the same error) instead of aligning the shapes again.
//
// Why: the checkers derive the same tilings repeatedly. The code generator
// lowers every device function twice (a fact-learning pass, then the
// output; cudagen.Generate) and, when it keeps the device tiling between
// the passes, its second pass derives nothing; the GPU checker and distmem
// match many instructions against the same scope (issue 13: coll was a
// tenth of a tiny kernel's whole `weft check`).
//
// A memo lives as long as its tiling: nothing is kept across tilings, so a
// program checked twice derives twice.
type memo struct {
	mu sync.Mutex
	// children are the tilings derived: each holds its derivation's
	// arguments (Kind, Iter, Count, Unit; Lo, Hi, WarpName), which are
	// its key (derivedBy). A pointer each rather than a copy of the
	// arguments: the memo's entries had been a tenth of the bytes of the
	// code generator's derivations (issue 13, stop 28).
	// They are a list through Tiling.sibling, newest first (the keys
	// are distinct): a slice had been an allocation, and its growth
	// more, per tiling with children (issue 13, stop 29).
	first *Tiling
	// failed are the derivations that failed, with their errors.
	failed  []derivation
	matched []match
	// warps is the tiling's alignment with warps (warps.go), once made.
	warps *warpAlign
}

// derivedBy reports whether c is the result of derivation d.
func (c *Tiling) derivedBy(d *derivation) bool {
	if c.Kind != d.kind {
		return false
	}
	if d.kind == KindThreads {
		return c.Iter == d.iter && c.Count == d.count && c.Unit.Same(&d.u)
	}
	return c.Lo == d.lo && c.Hi == d.hi && c.WarpName == d.name
}

// sameDerivation reports whether e and d are one derivation.
func sameDerivation(e, d *derivation) bool {
	return e.kind == d.kind && e.iter == d.iter && e.count == d.count && e.lo == d.lo && e.hi == d.hi &&
		e.name == d.name && (d.kind != KindThreads || e.u.Same(&d.u))
}

// lookup returns the memoized result of d; ok is false when there is none.
// m.mu is held.
func (m *memo) lookup(d *derivation) (body *Tiling, err error, ok bool) {
	for c := m.first; c != nil; c = c.sibling {
		if c.derivedBy(d) {
			return c, nil, true
		}
	}
	for i := range m.failed {
		if e := &m.failed[i]; sameDerivation(e, d) {
			return nil, e.err, true
		}
	}
	return nil, nil, false
}

// derivation is one CudaThreads, CudaWarps or NamedWarps call and its
// result.
type derivation struct {
	kind        Kind // KindThreads, KindWarps or KindNamedWarps
	iter, count int  // KindThreads
	u           Unit // KindThreads
	lo, hi      int  // KindWarps, KindNamedWarps
	name        string
	err         error // of a failed derivation (memo.failed)
}

type match struct {
	u   Unit
	err *Error
}

// SameOn reports whether units a and b have one name and scale and
// resolve on m to the same domain and box: a derivation (CudaThreads) and
// a match read a unit only through these, the name and scale in their
// messages. Symbolic coordinates (blockDim * 1) and the constants they
// resolve to (256) compare equal.
func SameOn(a, b *Unit, m Machine) bool {
	if a.Name != b.Name || a.Scale != b.Scale {
		return false
	}
	var ad, ab, bd, bb [maxDims]int
	d1, b1, err1 := a.resolveInto(m, ad[:], ab[:])
	d2, b2, err2 := b.resolveInto(m, bd[:], bb[:])
	return err1 == nil && err2 == nil && slices.Equal(d1, d2) && slices.Equal(b1, b2)
}

// Same reports whether u and b are the same unit: every field equal
// (units are values built from a name, a scale and symbolic coordinates).
// The code generator's diagnostics-only walk compares its own resolution
// of a loop's unit with the checker's by it.
func (u *Unit) Same(b *Unit) bool {
	if u.Name != b.Name || u.ScaledDim != b.ScaledDim || u.Scale != b.Scale ||
		len(u.Domain) != len(b.Domain) || len(u.Box) != len(b.Box) {
		return false
	}
	for i := range u.Domain {
		if u.Domain[i] != b.Domain[i] {
			return false
		}
	}
	for i := range u.Box {
		if u.Box[i] != b.Box[i] {
			return false
		}
	}
	return true
}

// derive returns the memoized result of the derivation d (its key fields
// set), computing it with f the first time.
func (t *Tiling) derive(d derivation, f func() (*Tiling, error)) (*Tiling, error) {
	m := &t.memo
	m.mu.Lock()
	if body, err, ok := m.lookup(&d); ok {
		m.mu.Unlock()
		return body, err
	}
	m.mu.Unlock()
	// Computed outside the lock: f derives from t (and may match units
	// against it). Two goroutines racing here both compute; the first
	// stored answer wins, so every caller sees one tiling per key.
	// A derivation that differs from an earlier one of t's origin only in
	// its iterator is that one's twin (twin.go).
	var body *Tiling
	var err error
	if c := t.twinOf(&d); c != nil {
		body = t.twinUnder(c, &d)
	} else {
		body, err = f()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if body, err, ok := m.lookup(&d); ok {
		return body, err
	}
	if err != nil {
		d.err = err
		d.u = keptUnit(d.u)
		m.failed = append(m.failed, d)
		return nil, err
	}
	// body is the key: its unit has coordinates of its own (cudaThreads).
	body.sibling, m.first = m.first, body
	return body, nil
}

// matchMemo returns the memoized result of matching u against t,
// computing it with f the first time.
func (t *Tiling) matchMemo(u *Unit, f func() *Error) *Error {
	m := &t.memo
	m.mu.Lock()
	for i := range m.matched {
		if m.matched[i].u.Same(u) {
			err := m.matched[i].err
			m.mu.Unlock()
			return err
		}
	}
	m.mu.Unlock()
	err := f()
	m.mu.Lock()
	m.matched = append(m.matched, match{u: keptUnit(*u), err: err})
	m.mu.Unlock()
	return err
}

// keptUnit copies u's coordinates for a memo key, so that a caller
// reusing its unit's slices cannot change the key.
func keptUnit(u Unit) Unit {
	if len(u.Domain)+len(u.Box) == 0 {
		return u
	}
	syms := make([]Sym, len(u.Domain)+len(u.Box))
	copy(syms, u.Domain)
	copy(syms[len(u.Domain):], u.Box)
	u.Domain = syms[:len(u.Domain):len(u.Domain)]
	u.Box = syms[len(u.Domain):]
	return u
}
