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
}

// take returns n zero elements (len n, cap n).
func (s *slab[T]) take(n, lo, hi int) []T {
	if cap(s.buf)-len(s.buf) < n {
		k := min(max(lo, 2*s.last), hi)
		s.last = k
		s.buf = make([]T, 0, max(k, n))
	}
	l := len(s.buf)
	s.buf = s.buf[:l+n]
	return s.buf[l : l+n : l+n]
}

// one returns a pointer to one zero element.
func (s *slab[T]) one(lo, hi int) *T { return &s.take(1, lo, hi)[0] }
