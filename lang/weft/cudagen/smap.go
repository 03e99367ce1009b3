package cudagen

// smap is a map for the few entries a small kernel gives each of the
// generator's tables (the facts of its allocations, loops and device
// functions, the file's constants, a kernel's captured names): up to
// smapInline entries are held in place and searched, past them a map
// indexes them. A map per table had been two allocations each, a quarter
// of the generator's objects on a small kernel under weft check (issue
// 13, stop 29). Nothing iterates one: only get, at and put.
type smap[K comparable, V any] struct {
	n   int
	inl [smapInline]smapEntry[K, V]
	m   map[K]V
}

type smapEntry[K comparable, V any] struct {
	k K
	v V
}

const smapInline = 4

// get is the value of k and whether k has one.
func (s *smap[K, V]) get(k K) (V, bool) {
	if s.m != nil {
		v, ok := s.m[k]
		return v, ok
	}
	for i := 0; i < s.n; i++ {
		if s.inl[i].k == k {
			return s.inl[i].v, true
		}
	}
	var zero V
	return zero, false
}

// at is the value of k (the zero value when none).
func (s *smap[K, V]) at(k K) V {
	v, _ := s.get(k)
	return v
}

// put sets the value of k.
func (s *smap[K, V]) put(k K, v V) {
	if s.m != nil {
		s.m[k] = v
		return
	}
	for i := 0; i < s.n; i++ {
		if s.inl[i].k == k {
			s.inl[i].v = v
			return
		}
	}
	if s.n < smapInline {
		s.inl[s.n] = smapEntry[K, V]{k, v}
		s.n++
		return
	}
	s.m = make(map[K]V, 4*smapInline)
	for i := 0; i < s.n; i++ {
		s.m[s.inl[i].k] = s.inl[i].v
	}
	s.m[k] = v
}
