package syncheck

// slab hands out the converter's many small objects (statements,
// accesses, windows, affine forms and their terms) from shared chunks:
// they all live as long as the Program. The chunks double from lo to hi
// elements, so that a tiny kernel, whose whole Convert makes a few dozen
// statements, does not zero (and waste) a chunk sized for a GEMM: bytes
// allocated, not objects, were most of Convert's cost (issue 13, stop 27).
type slab[T any] struct {
	buf  []T
	last int // the size of the last chunk
	next int // the size of the next chunk, if larger (expect)
}

// take returns n zero elements (len n, cap n).
func (s *slab[T]) take(n, lo, hi int) []T {
	if cap(s.buf)-len(s.buf) < n {
		k := min(max(lo, 2*s.last), hi)
		s.last = k
		s.buf = make([]T, 0, max(k, n, s.next))
		s.next = 0
	}
	l := len(s.buf)
	s.buf = s.buf[:l+n]
	return s.buf[l : l+n : l+n]
}

// one returns a pointer to one zero element.
func (s *slab[T]) one(lo, hi int) *T { return &s.take(1, lo, hi)[0] }

// reserve makes the first chunk hold n elements, when the slab has none
// yet: its owner counted what it needs (sizeOf), and a chunk sized for a
// larger program, or two chunks for this one, cost more (issue 13, stop
// 29). Later chunks double from n.
func (s *slab[T]) reserve(n int) {
	if s.buf == nil && n > 0 {
		s.buf = make([]T, 0, n)
		s.last = n
	}
}

// expect makes the slab's next chunk n elements (n > 0; lo at least),
// its owner's estimate of what it takes past its first chunk: the chunks
// after it double from lo, as take makes them. (A size taken in place of
// take's, in a branch, had put take and one past the inlining budget.)
func (s *slab[T]) expect(n int) {
	if n > 0 {
		s.next, s.last = n, 0
	}
}
