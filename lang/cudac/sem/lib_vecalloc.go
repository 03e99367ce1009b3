package sem

import "fmt"

// std::vector's capacity and reallocation, as libstdc++ (GCC 12) does
// them (C++17 [vector.capacity], [vector.modifiers]: "if the new size is
// greater than the old capacity, reallocation happens; ... all the
// references, pointers, and iterators referring to the elements in the
// sequence are invalidated"). The header's third word is the modeled
// capacity; the buffer object stays exactly size() elements long, so an
// element past the end is still out of bounds for the checker. While the
// capacity suffices the object grows or shrinks in place (lib_growth.go:
// pointers into it stay valid, as in C++); when it does not, the elements
// move to a new object and the old one is freed, so a pointer, reference
// or iterator kept across the push_back is a use after free (C0404) whose
// message names the call that reallocated, instead of a silent read of
// storage libstdc++ has given back. Growth follows libstdc++'s
// _M_check_len: push_back on a full vector doubles the capacity (0 -> 1
// -> 2 -> 4 ...), resize(n) past the capacity takes max(n, 2*size()),
// reserve(n) and the constructors take exactly what they are asked for,
// shrink_to_fit() reallocates to size(). Strings keep the simpler model
// (capacity() == size()).

// vecObj returns the buffer object of the vector whose header is data,
// size: nil when it has none or it is not a plain std buffer ending with
// the size elements of es bytes (then the caller reallocates). A vector's
// elements start the object; a deque's may start later, after the room
// its pop_front and push_front use (lib_deque.go).
func (m *Machine) vecObj(data, size uint64, es int) *Object {
	if data == 0 || data>>32 >= uint64(len(m.objs)) {
		return nil
	}
	o := m.objs[data>>32]
	if !o.Heap || o.Freed || o.Space != SpaceHost || o.Name != "std buffer" || uint64(len(o.Data)) != uint64(uint32(data))+size*uint64(es) || len(o.asyncRd) != 0 || o.proxy != nil {
		return nil
	}
	return o
}

// vecMove gives the vector at p a new buffer holding buf (n elements)
// with capacity capy, and returns the old buffer, which the caller frees
// with vecFree once nothing reads it any more.
func (m *Machine) vecMove(t *Thread, p uint64, buf []byte, n, capy uint64, es int, pos int32) (old *Object, good bool) {
	data, size, _, good := m.stdHdr(t, p, pos)
	if !good {
		return nil, false
	}
	if n*uint64(es) >= 1<<31 || capy*uint64(es) >= 1<<31 {
		m.fault(t, pos, "C0403", "std::vector of %d elements exceeds the model's 2 GiB objects", max(n, capy))
		return nil, false
	}
	o := m.newObject(int(n)*es, SpaceHost, "std buffer", pos)
	if m.failed {
		return nil, false
	}
	o.Heap = true
	copy(o.Data, buf)
	o.init.setAll()
	if !m.stdSetHdr(t, p, ptrOf(o, 0), n, capy, pos) {
		return nil, false
	}
	return m.vecObj(data, size, es), true
}

// vecFree frees a vector's old buffer after a reallocation by call (at
// pos); the name the freed memory keeps says which call it was.
func (m *Machine) vecFree(old *Object, call string, pos int32) {
	if old == nil {
		return
	}
	p := m.pos(pos)
	old.Name = fmt.Sprintf("(a std::vector's storage, given back when the %s at line %d:%d reallocated)", call, p.Line(), p.Col())
	m.release(old)
}

// vecPush appends the element at src to the vector at p (push_back,
// emplace_back).
func (m *Machine) vecPush(t *Thread, p, src uint64, es, layout int, pos int32) bool {
	data, size, capy, good := m.stdHdr(t, p, pos)
	if !good {
		return false
	}
	// the value first: src may be an element of this vector, which
	// libstdc++ copies before it moves the elements
	m.copySrc = true // the element's padding is copied, not read (access.go)
	v, good := m.resolve(t, src, es, pos, false, false)
	m.copySrc = false
	if !good {
		return false
	}
	v = append([]byte(nil), v...)
	var old *Object
	o := m.vecObj(data, size, es)
	if o == nil || size >= capy || !m.growHeapObject(o, es, pos) {
		if m.failed {
			return false
		}
		newCap := 2 * size
		switch {
		case size == 0 && capy > 0:
			newCap = capy // reserve()d before anything was stored
		case size == 0:
			newCap = 1
		case size < capy:
			newCap = capy // a buffer that cannot grow in place moves at the same capacity
		}
		var cur []byte
		if o != nil {
			cur = o.Data[uint32(data):]
		} else if size > 0 {
			if cur, good = m.resolve(t, data, int(size)*es, pos, false, false); !good {
				return false
			}
		}
		if old, good = m.vecMove(t, p, cur, size, newCap, es, pos); !good {
			return false
		}
		if data, _, _, good = m.stdHdr(t, p, pos); !good {
			return false
		}
		o = m.objs[data>>32]
		// the new object holds size elements; the pushed one is added below
		if !m.growHeapObject(o, es, pos) {
			return false
		}
		capy = newCap
	}
	copy(o.Data[uint64(uint32(data))+size*uint64(es):], v)
	if !m.stdSetHdr(t, p, data, size+1, capy, pos) {
		return false
	}
	if layout >= 0 && !m.copyDeep(t, data+size*uint64(es), src, layout, pos) {
		return false
	}
	m.vecFree(old, "push_back", pos)
	return true
}

// vecResize makes the vector at p hold the n elements of buf (resize,
// clear, assign, pop_back): in place while n fits the capacity, else in a
// new buffer of capacity max(n, 2*size()). The old buffer is returned for
// vecFree (nil when there was none or it stayed).
func (m *Machine) vecResize(t *Thread, p uint64, buf []byte, n uint64, es int, pos int32) (*Object, bool) {
	data, size, capy, good := m.stdHdr(t, p, pos)
	if !good {
		return nil, false
	}
	if o := m.vecObj(data, size, es); o != nil && n <= capy {
		off := int(uint32(data))
		want := off + int(n)*es
		if want > len(o.Data) {
			if !m.growHeapObject(o, want-len(o.Data), pos) {
				if m.failed {
					return nil, false
				}
				goto move
			}
		} else if want < len(o.Data) {
			m.mver++
			m.live -= int64(len(o.Data) - want)
			o.Data = o.Data[:want]
		}
		if len(buf) > 0 && &buf[0] != &o.Data[off] {
			// (pop_back passes the elements themselves: nothing to copy,
			// so it is O(1))
			copy(o.Data[off:], buf)
		}
		return nil, m.stdSetHdr(t, p, data, n, capy, pos)
	}
move:
	newCap := max(n, 2*size)
	if n <= capy {
		newCap = capy
	}
	return m.vecMove(t, p, buf, n, newCap, es, pos)
}

// vecReserve is reserve(n) (true) or shrink_to_fit() (false).
func (m *Machine) vecReserve(t *Thread, p, n uint64, es int, reserve bool, pos int32) bool {
	data, size, capy, good := m.stdHdr(t, p, pos)
	if !good {
		return false
	}
	if reserve && n <= capy || !reserve && capy == size {
		return true
	}
	if !reserve {
		n = size
	}
	if n*uint64(es) >= 1<<31 {
		// libstdc++ throws std::length_error past max_size(); the
		// model's objects stop at 2 GiB
		m.fault(t, pos, "C0403", "reserve(%d) exceeds the model's 2 GiB objects", n)
		return false
	}
	var cur []byte
	if size > 0 {
		if cur, good = m.resolve(t, data, int(size)*es, pos, false, false); !good {
			return false
		}
	}
	if size == 0 && n == 0 {
		old := m.vecObj(data, size, es)
		if !m.stdSetHdr(t, p, 0, 0, 0, pos) {
			return false
		}
		m.vecFree(old, "shrink_to_fit", pos)
		return true
	}
	old, good := m.vecMove(t, p, cur, size, n, es, pos)
	if !good {
		return false
	}
	m.vecFree(old, map[bool]string{true: "reserve", false: "shrink_to_fit"}[reserve], pos)
	return true
}

func initLibVecalloc() {
	builtinSigs["__vec_reserve"] = sig(tVoid, hostSide, tAny, tAny, tAny, tAny)
	// __vec_reserve(v, n, elemsize, reserve?)
	defb("__vec_reserve", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if !m.vecReserve(t, a[0], a[1], int(a[2]), a[3] != 0, pos) {
			return 0, stFault
		}
		return ok(0)
	})
}
