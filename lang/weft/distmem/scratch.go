package distmem

import (
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/gpucheck"
)

// scratch is what one Check carves its triples from (issue 13, stop 38:
// docs/weft-sync.md "Stop 38: static38"), sized from the GPU check's
// accesses: each use's Triple (which holds its list of iterators and
// its pitches for up to inlineIndices indices: at most one iterator per
// index of the use, a distributed index, a slice a desugared loop takes,
// or a multicast slice), and the desugared loops' iterators and lists.
// A use had made three or four objects and each desugared loop two more
// (a 1.3 KB derivation store among them).
//
// A nil *scratch is the general way (every object new, every derivation
// the general one, every owner matched, every name made), which the
// tests compare Check with (TestScratchMatchesGeneral).
type scratch struct {
	triples []Triple
	iters   []*gpucheck.Iter // the desugared loops of each use
	synth   []gpucheck.Iter  // desugared loops' iterators
	// last is derive's last one-pass derivation: its start, arguments
	// and tiling (nil: none).
	last struct {
		start, body *coll.Tiling
		iter, count int
		u           coll.Unit
	}
}

// carve returns the next element of the pre-sized *pool, or a new one
// once the estimate falls short.
func carve[T any](pool *[]T) *T {
	if len(*pool) < cap(*pool) {
		*pool = (*pool)[:len(*pool)+1]
		return &(*pool)[len(*pool)-1]
	}
	return new(T)
}

// carveList returns an empty list with room for n elements from *pool
// (its capacity exactly n, so an append past it copies rather than
// writing over the next list), or a new one.
func carveList[T any](pool *[]T, n int) []T {
	if cap(*pool)-len(*pool) < n {
		return make([]T, 0, n)
	}
	l := len(*pool)
	*pool = (*pool)[:l+n]
	return (*pool)[l : l : l+n]
}

func (s *scratch) triple() *Triple {
	if s == nil {
		return new(Triple)
	}
	return carve(&s.triples)
}

func (s *scratch) iterList(n int) []*gpucheck.Iter {
	if s == nil {
		return make([]*gpucheck.Iter, 0, n)
	}
	return carveList(&s.iters, n)
}

// iterList is an empty list of iterators with room for n, t's own
// array when n fits it (capacity n: an append past it copies).
func (t *Triple) iterList(n int) []*gpucheck.Iter {
	if n <= len(t.iterBuf) {
		return t.iterBuf[:0:n]
	}
	return make([]*gpucheck.Iter, 0, n)
}

// pitchList is iterList for the pitches.
func (t *Triple) pitchList(n int) []int {
	if n <= len(t.pitchBuf) {
		return t.pitchBuf[:0:n]
	}
	return make([]int, 0, n)
}

func (s *scratch) iter() *gpucheck.Iter {
	if s == nil {
		return new(gpucheck.Iter)
	}
	return carve(&s.synth)
}

// derive is start.CudaThreads(iter, count, u) for a desugared loop. With
// a scratch, a start of one or two dimensions (a loop of a CTA without
// clusters; the body of shfl_xor's strided loop, stop 46) with a unit of
// one or two levels derives in one pass where coll.CudaThreadsIn can (in
// a store of its own: the general derivation allocates a larger one);
// its memo is not consulted (TestTwinMatchesFresh,
// TestThreads1DMatchesGeneral and TestThreads2DMatchesGeneral).
//
// The arguments of one call desugar from the same start with the same
// unit (a shuffle's dst and src): a derivation that repeats the last
// one takes its tiling, as the general derivation's memo would (it is
// a pure function of the start and its arguments, the unit compared as
// the memo compares it, coll's Unit.Same), not a new store and a
// derivation again (issue 13, stop 46: shfl_xor's 896 bytes a check).
func (s *scratch) derive(start *coll.Tiling, iter, count int, u coll.Unit) (*coll.Tiling, error) {
	if s == nil || len(start.Dims) > 2 || len(u.Domain) > 2 {
		return start.CudaThreads(iter, count, u)
	}
	l := &s.last
	if l.body != nil && l.start == start && l.iter == iter && l.count == count && l.u.Same(&u) {
		return l.body, nil
	}
	// A unit of two levels takes a store of its own (coll/threads2d.go).
	var st *coll.ThreadsStore
	if len(u.Domain) == 1 {
		st = new(coll.ThreadsStore)
	}
	body, err := start.CudaThreadsIn(iter, count, u, st)
	if err == nil {
		l.start, l.body, l.iter, l.count, l.u = start, body, iter, count, u
	}
	return body, err
}
