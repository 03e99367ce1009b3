package sem

// The address-space predicates of the CUDA C++ Programming Guide
// ("Address Space Predicate Functions"): __isGlobal, __isShared,
// __isConstant and __isLocal of a generic pointer are 1 when it points
// into that state space. Global memory is what cudaMalloc, __device__
// variables and device malloc allocate, and the host memory a kernel can
// address (pinned and managed allocations are global-space addresses on
// the GPU). <cuda/pipeline>'s memcpy_async uses __isShared and __isGlobal
// to choose cp.async or a plain copy, as libcu++ does.

func initAddrspace() {
	space := func(m *Machine, p uint64) (Space, bool) {
		id := p >> 32
		if id == 0 || id >= uint64(len(m.objs)) || m.objs[id] == nil {
			return 0, false
		}
		return m.objs[id].Space, true
	}
	pred := func(match func(Space) bool) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			s, known := space(m, a[0])
			return ok(b2u(known && match(s)))
		}
	}
	defb("__isGlobal", pred(func(s Space) bool { return s == SpaceDevice || s == SpacePinned }))
	defb("__isShared", pred(func(s Space) bool { return s == SpaceShared }))
	defb("__isConstant", pred(func(s Space) bool { return s == SpaceConstant }))
	defb("__isLocal", pred(func(s Space) bool { return s == SpaceLocal }))
	for _, n := range []string{"__isGlobal", "__isShared", "__isConstant", "__isLocal"} {
		builtinSigs[n] = sig(tUInt, deviceSide, tAny)
	}
}

// programPosIdx is programPos as a position index: pos itself, or when it
// lies in a built-in header's code, the program's call that reached it
// (the innermost frame outside the headers). Effects that land later than
// the instruction that made them (a cp.async's writes) are recorded at it,
// so that a report names the program's line whatever the schedule.
func (m *Machine) programPosIdx(t *Thread, pos int32) int32 {
	if t == nil || !isLibPos(m.pos(pos)) {
		return pos
	}
	for k := len(t.frames) - 2; k >= 0; k-- {
		f := t.frames[k]
		if f.pc <= 0 || f.pc > len(f.fn.Code) {
			break
		}
		if p := f.fn.Code[f.pc-1].P; !isLibPos(m.pos(p)) {
			return p
		}
	}
	return pos
}

// markLibPositions sets m.libIdx: which position indices lie in a built-in
// header's code (none: nil, and raceCheck's test costs one comparison).
func (m *Machine) markLibPositions() {
	var idx []bool
	for i, p := range m.prog.Pos {
		if isLibPos(p) {
			if idx == nil {
				idx = make([]bool, len(m.prog.Pos))
			}
			idx[i] = true
		}
	}
	m.libIdx = idx
}
