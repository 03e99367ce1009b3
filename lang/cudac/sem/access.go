package sem

import "bytes"

// Every load and store goes through resolve, the analogue of seed 004's
// cuda-read-check/cuda-write-check hooks (§2.4): the pointer must name a live
// object, stay inside it, and be in a memory space the accessing side may
// touch; under Check the access is also fed to the race detector and the
// uninitialized-read check.

func (m *Machine) resolve(t *Thread, p uint64, n int, pos int32, write, api bool) ([]byte, bool) {
	if write {
		// a write through the general path (sprintf, strcpy, the device
		// properties) counts as a change of memory for the spin detector
		// without comparing values (spin.go)
		m.mver++
	}
	return m.resolveA(t, p, n, pos, write, api, false)
}

func (m *Machine) resolveA(t *Thread, p uint64, n int, pos int32, write, api, atomic bool) ([]byte, bool) {
	id := p >> 32
	off := int(int32(uint32(p)))
	if id == 0 || id >= uint64(len(m.objs)) {
		if p == 0 {
			m.fault(t, pos, "C0405", "null pointer dereference")
		} else {
			m.fault(t, pos, "C0405", "invalid pointer 0x%x dereferenced", p)
		}
		return nil, false
	}
	o := m.objs[id]
	if o.Freed {
		m.fault(t, pos, "C0404", "use of %s after it was freed", o.describe())
		return nil, false
	}
	if n >= 0 && off+n > len(o.Data) && o.grow && off >= 0 {
		if off+n > maxGrowBytes {
			// no error of the kernel: the search's bound (kernelonly.go)
			m.fault(t, pos, "C0610", "%s of byte %d of %s, a buffer of unknown extent, past the %d MiB it may grow to: this configuration is cut short", rw(write), off, o.describe(), maxGrowBytes>>20)
			return nil, false
		}
		m.growObject(o, off+n) // kernel-only buffers of unknown extent (kernelonly.go)
	}
	// n < 0 is a size of 2^63 bytes or more (cudaMemset(p, 0, (size_t)-4)).
	if n < 0 || off < 0 || off > len(o.Data)-n {
		m.fault(t, pos, "C0403", "out-of-bounds %s of %d bytes at offset %d of %s (%d bytes)", rw(write), uint64(n), off, o.describe(), len(o.Data))
		return nil, false
	}
	if !api && !m.initializing {
		if !m.spaceOK(t, o, write, pos) {
			return nil, false
		}
	}
	if m.watch && (!write || atomic) && o.Space != SpaceLocal {
		// the spin detector names the location a spinning thread reads
		t.rdObj, t.rdOff, t.rdPos = o.ID, int32(off), pos
	}
	if write && o.asyncRd != nil && m.opts.Check {
		m.asyncWriteCheck(t, o, off, n, pos)
	}
	if t != nil && (t.cpPending != nil || len(t.cpGroups) != 0) && m.opts.Check && !m.cpCompleting {
		m.cpOwnCheck(t, o, off, n, write, pos) // asm.go
	}
	if write && m.prog.asyncProxy && o.Space == SpaceShared && m.opts.Check {
		m.proxyWrite(t, o, off, n, pos)
	}
	if m.prog.alog && !api && t != nil && !t.host {
		t.logAccess(o, off, write) // annot.go
	}
	if m.opts.Check && !m.initializing {
		m.raceCheck(t, o, off, n, write, atomic, pos)
		if o.init != nil {
			if write {
				o.init.setRange(off, n)
			} else if !api && !m.copySrc && !o.init.allSet(off, n) && !m.uninitSeen[pos] {
				m.uninitSeen[pos] = true
				m.diags.Warnf(m.pos(pos), "C0407", "read of uninitialized %s", o.describe())
			}
		}
	}
	return o.Data[off : off+n], true
}

func rw(write bool) string {
	if write {
		return "write"
	}
	return "read"
}

func (o *Object) describe() string {
	s := o.Space.String()
	if o.Space == SpaceHost || o.Space == SpaceLocal {
		s = o.Space.String()
	}
	if o.Name != "" {
		return s + " memory " + o.Name
	}
	return s + " memory"
}

// spaceOK enforces the host/device boundary (seed 004 §2.4 and its
// repository's errors 90500-90503).
func (m *Machine) spaceOK(t *Thread, o *Object, write bool, pos int32) bool {
	switch o.Space {
	case SpaceAny, SpacePinned:
		if write && o.Space == SpaceAny && o.Name == "string literal" {
			m.fault(t, pos, "C0405", "write to a string literal")
			return false
		}
		return true
	}
	if t.host {
		if o.Space != SpaceHost {
			m.fault(t, pos, "C0401", "illegal device memory access from the host: %s of %s", rw(write), o.describe())
			m.allocNote(o)
			return false
		}
		return true
	}
	switch o.Space {
	case SpaceHost:
		m.fault(t, pos, "C0402", "illegal host memory access from the device: %s of %s", rw(write), o.describe())
		m.allocNote(o)
		return false
	case SpaceConstant:
		if write {
			m.fault(t, pos, "C0408", "write to __constant__ memory %s from the device", o.Name)
			return false
		}
	case SpaceShared:
		// another CTA of the cluster: distributed shared memory (cluster.go)
		if t.block != nil && (o.Block != t.block.id && !t.block.sameCluster(o.Block) || o.Grid != int32(t.block.grid.id)) {
			m.fault(t, pos, "C0409", "shared memory of another block accessed")
			return false
		}
	}
	return true
}

func (m *Machine) load(t *Thread, p uint64, code int, pos int32) (uint64, bool) {
	b, ok := m.resolve(t, p, mSize[code], pos, false, false)
	if !ok {
		return 0, false
	}
	return fromMem(code, loadN(b, mSize[code])), true
}

func (m *Machine) store(t *Thread, p uint64, code int, v uint64, pos int32) bool {
	size := mSize[code]
	nv := toMem(code, v)
	if size < 8 {
		nv &= 1<<(8*size) - 1
	}
	m.wval, m.wvalOK = nv, m.opts.BenignWrites // for benignWrite (kernelonly.go)
	b, ok := m.resolveA(t, p, size, pos, true, false, false)
	m.wvalOK = false
	if !ok {
		return false
	}
	if m.opts.Check && !m.volAcc {
		m.plainWrite(p)
	}
	if loadN(b, size) != nv {
		m.mver++ // only a store that changes memory is progress (spin.go)
		storeN(b, size, nv)
	}
	return true
}

// copyMem copies n bytes (memcpy, struct assignment, cudaMemcpy). api skips
// the space check: the runtime's copy engine may touch both sides.
func (m *Machine) copyMem(t *Thread, dst, src uint64, n int, pos int32, api bool) bool {
	if n == 0 {
		return true
	}
	m.copySrc = true
	s, ok := m.resolve(t, src, n, pos, false, api)
	m.copySrc = false
	if !ok {
		return false
	}
	// copy the init state too, so copying uninitialized bytes is no read;
	// a copy of up to 64 bytes (a struct value) keeps them in a word
	var srcInit bitset
	var srcWord uint64
	so := m.objs[src>>32]
	if so.init != nil {
		if n <= 64 {
			srcWord = so.init.word(int(uint32(src)), n)
		} else {
			srcInit = so.init.extract(int(uint32(src)), n)
		}
	}
	d, ok := m.resolveA(t, dst, n, pos, true, api, false)
	if !ok {
		return false
	}
	if !bytes.Equal(d, s) {
		m.mver++
	}
	copy(d, s)
	if do := m.objs[dst>>32]; do.init != nil && so.init != nil {
		if n <= 64 {
			do.init.setWord(int(uint32(dst)), n, srcWord)
		} else {
			do.init.assign(int(uint32(dst)), n, srcInit)
		}
	}
	return true
}

func (m *Machine) setMem(t *Thread, dst uint64, v byte, n int, pos int32, api bool) bool {
	if n == 0 {
		return true
	}
	d, ok := m.resolveA(t, dst, n, pos, true, api, false)
	if !ok {
		return false
	}
	// a count and a fill by doubling copies, not byte loops: memsets of
	// 64 MiB buffers (asyncAPI) spent a twentieth of the check in them
	if bytes.Count(d, []byte{v}) == len(d) {
		return true // no byte changes
	}
	m.mver++
	d[0] = v
	for k := 1; k < len(d); k *= 2 {
		copy(d[k:], d[:k])
	}
	return true
}

// cstrings reads the NUL-terminated strings at p and q (strcmp, strstr,
// sscanf and the other two-string functions).
func (m *Machine) cstrings(t *Thread, p, q uint64, pos int32) (string, string, bool) {
	x, good := m.cstring(t, p, pos)
	if !good {
		return "", "", false
	}
	y, good := m.cstring(t, q, pos)
	return x, y, good
}

// cstring reads a NUL-terminated string.
func (m *Machine) cstring(t *Thread, p uint64, pos int32) (string, bool) {
	id := p >> 32
	if id == 0 || id >= uint64(len(m.objs)) {
		m.fault(t, pos, "C0405", "invalid string pointer")
		return "", false
	}
	o := m.objs[id]
	if o.Freed {
		m.fault(t, pos, "C0404", "use of %s after it was freed", o.describe())
		return "", false
	}
	off := int(uint32(p))
	end := off
	for end < len(o.Data) && o.Data[end] != 0 {
		end++
	}
	if end >= len(o.Data) {
		m.fault(t, pos, "C0403", "string not NUL-terminated within %s", o.describe())
		return "", false
	}
	b, ok := m.resolve(t, p, end-off+1, pos, false, false)
	if !ok {
		return "", false
	}
	return string(b[:end-off]), true
}

// allocNote adds "allocated here" to the fault just reported.
func (m *Machine) allocNote(o *Object) {
	if o.AllocAt <= 0 || m.lastFault == nil {
		return
	}
	m.lastFault.Note(m.pos(o.AllocAt), "the %s was allocated here", o.describe())
}

// describePtr names the object a pointer value points into.
func (m *Machine) describePtr(p uint64) string {
	id := p >> 32
	switch {
	case id == 0:
		return "a null pointer"
	case id < uint64(len(m.objs)):
		return m.objs[id].describe()
	}
	return "an invalid pointer"
}
