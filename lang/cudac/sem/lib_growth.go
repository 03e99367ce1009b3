package sem

// Amortized growth of std::vector's buffer. A vector's buffer is a heap
// object of exactly size elements (so an access past the end is out of
// bounds for the checker); push_back used to replace it with a new object
// one element longer, which made n push_backs cost O(n^2) time and
// memory (100000 ints exceeded the 2 GiB limit). Growing the object in
// place keeps its identity (pointers are object ids and offsets, so they
// stay valid, as they do in C++ while the capacity suffices) and its
// exact bounds, and Go's append gives the bytes amortized O(1) growth.

// growHeapObject extends heap object o by n bytes (kernelonly.go's
// growObject doubles an input buffer; this adds exactly n bytes), initialized (when
// checking) and without race history; false when the memory limit says
// no (then reported) or o cannot grow.
func (m *Machine) growHeapObject(o *Object, n int, pos int32) bool {
	if n <= 0 || o.Freed || len(o.asyncRd) != 0 || o.proxy != nil {
		return n == 0
	}
	if len(o.Data)+n >= 1<<31 || m.overLimit(n, pos) {
		return false
	}
	m.live += int64(n)
	m.mver++
	old := len(o.Data)
	o.Data = append(o.Data, make([]byte, n)...)
	if o.init != nil {
		need := (len(o.Data) + 63) / 64
		for len(o.init) < need {
			o.init = append(o.init, 0)
		}
		o.init.setRange(old, n)
	}
	if o.shadow != nil {
		need := (len(o.Data) + 1<<o.gshift - 1) >> o.gshift
		for len(o.shadow) < need {
			o.shadow = append(o.shadow, cell{})
		}
	}
	return true
}

// strAppendInPlace appends more to the std::string at p by growing its
// buffer object (the characters and the terminator); it reports whether
// it did. A string built by += in a loop is then linear, not quadratic.
func (m *Machine) strAppendInPlace(t *Thread, p uint64, more []byte, pos int32) (done, good bool) {
	data, size, _, good := m.stdHdr(t, p, pos)
	if !good || data == 0 || uint32(data) != 0 || data>>32 >= uint64(len(m.objs)) || len(more) == 0 {
		return false, good
	}
	o := m.objs[data>>32]
	if !o.Heap || o.Freed || o.Space != SpaceHost || o.Name != "std buffer" || uint64(len(o.Data)) != size+1 {
		return false, true
	}
	if !m.growHeapObject(o, len(more), pos) {
		return false, true
	}
	copy(o.Data[size:], more)
	o.Data[size+uint64(len(more))] = 0
	n := size + uint64(len(more))
	return true, m.stdSetHdr(t, p, data, n, n, pos)
}
