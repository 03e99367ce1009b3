package cudagen

// smap is a map for the few entries a small kernel gives each of the
// generator's tables (the facts of its allocations, loops and device
// functions, the file's constants, a kernel's captured names): up to
// smapInline entries are held in place and searched, past them a map
// indexes them. A map per table had been two allocations each, a quarter
// of the generator's objects on a small kernel under weft check (issue
// 13, stop 29). Nothing iterates one: only get, at and put.
//
// Past the inline entries, up to smapList entries in all are still
// searched in place, in a slice (more): the tables that outgrow the
// inline entries on a small kernel (each loop's and declaration's read
// facts on shfl_xor: about ten) had each made a map of two objects and
// hashed every put (issue 13, stop 31).
type smap[K comparable, V any] struct {
	n    int
	inl  [smapInline]smapEntry[K, V]
	more []smapEntry[K, V]
	m    map[K]V
}

type smapEntry[K comparable, V any] struct {
	k K
	v V
}

const smapInline = 4

// smapList is the number of entries past which an smap indexes them in a
// map.
const smapList = 32

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
	for i := range s.more {
		if s.more[i].k == k {
			return s.more[i].v, true
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
	for i := range s.more {
		if s.more[i].k == k {
			s.more[i].v = v
			return
		}
	}
	if s.n < smapInline {
		s.inl[s.n] = smapEntry[K, V]{k, v}
		s.n++
		return
	}
	if s.n+len(s.more) < smapList {
		if s.more == nil {
			s.more = make([]smapEntry[K, V], 0, 3*smapInline)
		}
		s.more = append(s.more, smapEntry[K, V]{k, v})
		return
	}
	s.m = make(map[K]V, 2*smapList)
	for i := 0; i < s.n; i++ {
		s.m[s.inl[i].k] = s.inl[i].v
	}
	for _, e := range s.more {
		s.m[e.k] = e.v
	}
	s.more = nil
	s.m[k] = v
}
