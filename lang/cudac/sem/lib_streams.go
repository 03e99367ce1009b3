package sem

// Stream flags and priorities (CUDA Runtime API, "Stream Management"):
// cudaStreamCreateWithFlags, cudaStreamCreateWithPriority,
// cudaStreamGetFlags, cudaStreamGetPriority and
// cudaDeviceGetStreamPriorityRange.
//
// cudaStreamNonBlocking matters to the semantics: such a stream does not
// synchronize with the legacy default stream (stream 0), so its work and
// the default stream's are unordered unless the program orders them (an
// event, a synchronize) and a conflict between them is a race (exec.go,
// legacySync). A priority only steers the GPU's block scheduler, which
// does not change what a race-free program computes; the semantics keeps
// it for cudaStreamGetPriority. The range is the Hopper's and Ampere's,
// [0, -5] (least, greatest), and a priority outside it is clamped to it,
// as the runtime does.

const (
	streamPrioLeast    = 0
	streamPrioGreatest = -5
)

func initLibStreams() {
	for name, s := range map[string]*bsig{
		"cudaStreamCreateWithPriority":     sig(tInt, hostSide, tStreamP, tUInt, tInt),
		"cudaStreamGetPriority":            sig(tInt, hostSide, tLong, tIntP),
		"cudaStreamGetFlags":               sig(tInt, hostSide, tLong, ptrTo(tUInt)),
		"cudaDeviceGetStreamPriorityRange": sig(tInt, hostSide, tIntP, tIntP),
	} {
		builtinSigs[name] = s
	}
	defb("cudaStreamCreateWithFlags", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return m.createStream(t, a[0], a[1], 0, pos)
	})
	defb("cudaStreamCreateWithPriority", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return m.createStream(t, a[0], a[1], int(int32(a[2])), pos)
	})
	defb("cudaStreamGetPriority", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s := m.streamOf(a[0])
		if s == nil {
			return m.apiError(400), stDone
		}
		if !m.store(t, a[1], mI32, uint64(int64(s.prio)), pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaStreamGetFlags", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s := m.streamOf(a[0])
		if s == nil {
			return m.apiError(400), stDone
		}
		f := uint64(0)
		if s.nonBlocking {
			f = 1
		}
		if !m.store(t, a[1], mU32, f, pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaDeviceGetStreamPriorityRange", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		least, greatest := int64(streamPrioLeast), int64(streamPrioGreatest)
		if a[0] != 0 && !m.store(t, a[0], mI32, uint64(least), pos) {
			return 0, stFault
		}
		if a[1] != 0 && !m.store(t, a[1], mI32, uint64(greatest), pos) {
			return 0, stFault
		}
		return ok(0)
	})
}

// createStream makes a stream with the given flags (cudaStreamNonBlocking
// or cudaStreamDefault) and priority (clamped to the device's range) and
// stores its handle at out; every cudaStreamCreate* call is this.
func (m *Machine) createStream(t *Thread, out, flags uint64, prio int, pos int32) (uint64, status) {
	if flags&^1 != 0 {
		return ok(cudaErrorInvalidValue)
	}
	prio = min(max(prio, streamPrioGreatest), streamPrioLeast)
	s := &stream{id: len(m.streams), agent: int32(len(m.streams) + 1), live: true, nonBlocking: flags&1 != 0, prio: prio}
	s.vc = make([]int32, s.agent+1)
	s.vc[s.agent] = 1
	m.streams = append(m.streams, s)
	if !m.store(t, out, mU64, uint64(s.id), pos) {
		return 0, stFault
	}
	return ok(0)
}
