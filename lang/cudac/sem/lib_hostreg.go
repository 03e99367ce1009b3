package sem

// Page-locking memory the program allocated itself, and the occupancy
// calculator's block-size search (CUDA Runtime API, "Memory Management":
// cudaHostRegister, cudaHostUnregister; "Occupancy":
// cudaOccupancyMaxPotentialBlockSize).
//
// cudaHostRegister turns a range of ordinary host memory (malloc, new, a
// global or a local array) into pinned, mapped memory: afterwards device
// code may access it through the pointer cudaHostGetDevicePointer returns,
// which is the host pointer itself on a system with unified addressing (as
// for cudaHostAlloc'd memory here), for a pointer inside the registered
// range only (an H100 answers cudaErrorInvalidValue for the bytes before
// it). The semantics pins the whole object the range starts in (the
// driver pins whole pages, so neighbouring bytes of the same page become
// device-accessible on a GPU too). Until cudaHostUnregister, the object is pinned:
// kernels may access it and the race checker orders those accesses with
// the host's like any pinned memory. free of a still-registered object is
// allowed, as on a GPU, and ends the registration.

const (
	cudaErrorInvalidValue                      = 1
	cudaErrorHostMemoryAlreadyRegistered       = 712
	cudaErrorHostMemoryNotRegistered           = 713
	cudaErrorInvalidDeviceFunction             = 98
	cudaHostRegisterFlagsKnown           int64 = 0x1 | 0x2 | 0x4 | 0x8 // Portable, Mapped, IoMemory, ReadOnly
)

func initLibHostreg() {
	for name, v := range map[string]int64{"cudaHostRegisterPortable": 1, "cudaHostRegisterIoMemory": 4,
		"cudaHostRegisterReadOnly": 8, "cudaErrorHostMemoryAlreadyRegistered": cudaErrorHostMemoryAlreadyRegistered,
		"cudaErrorHostMemoryNotRegistered": cudaErrorHostMemoryNotRegistered} {
		namedConsts[name] = v
	}
	builtinSigs["cudaHostRegister"] = sig(tInt, hostSide, tVoidP, tULong, tUInt)
	builtinSigs["cudaHostUnregister"] = sig(tInt, hostSide, tVoidP)
	// template <class T> cudaError_t cudaOccupancyMaxPotentialBlockSize(int
	// *minGridSize, int *blockSize, T func, size_t dynamicSMemSize = 0, int
	// blockSizeLimit = 0)
	builtinSigs["cudaOccupancyMaxPotentialBlockSize"] = sig(tInt, hostSide, tIntP, tIntP, tAny, tULong, tInt).def(0, 0)

	defb("cudaHostRegister", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		id, off, size := a[0]>>32, int64(int32(uint32(a[0]))), int64(a[1])
		if id == 0 || id >= uint64(len(m.objs)) || int64(a[2])&^cudaHostRegisterFlagsKnown != 0 || size <= 0 {
			return ok(cudaErrorInvalidValue)
		}
		o := m.objs[id]
		// a range past the object's end is accepted: the driver pins
		// whole pages and does not know where malloc's blocks end
		// (checked on an H100); its bytes beyond the object are still
		// out of bounds for every access
		if o.Freed || off < 0 || off >= int64(len(o.Data)) {
			return ok(cudaErrorInvalidValue)
		}
		switch o.Space {
		case SpacePinned:
			return ok(cudaErrorHostMemoryAlreadyRegistered)
		case SpaceHost:
		default: // device, shared, constant or literal memory cannot be registered
			return ok(cudaErrorInvalidValue)
		}
		o.Space, o.registered, o.regOff, o.regEnd = SpacePinned, true, int32(off), int32(min(off+size, int64(len(o.Data))))
		m.mver++
		return ok(0)
	})
	defb("cudaHostUnregister", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		id := a[0] >> 32
		if id == 0 || id >= uint64(len(m.objs)) || !m.objs[id].registered || m.objs[id].Freed || int32(uint32(a[0])) != m.objs[id].regOff {
			// not the address a cudaHostRegister was given
			return ok(cudaErrorHostMemoryNotRegistered)
		}
		o := m.objs[id]
		o.Space, o.registered = SpaceHost, false
		m.mver++
		return ok(0)
	})
	defb("cudaOccupancyMaxPotentialBlockSize", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		fn, _, good := m.funcOfPtr(a[2])
		if !good || fn == nil || !fn.Global {
			return ok(cudaErrorInvalidDeviceFunction)
		}
		d := m.opts.Device
		limit := 1024
		if l := int(int32(a[4])); l > 0 && l < limit {
			limit = l
		}
		// The runtime's search: every block size that is a multiple of the
		// warp size up to the limit, the one that keeps the most threads
		// resident per SM; ties go to the larger block.
		best, bestBlocks, bestSize := -1, 0, 0
		for bs := limit / 32 * 32; bs >= 32; bs -= 32 {
			n := d.ActiveBlocksPerSM(bs, int(a[3])+m.staticShared())
			if n*bs > best {
				best, bestBlocks, bestSize = n*bs, n, bs
			}
		}
		if limit < 32 { // a limit below a warp: that many threads
			bestSize, bestBlocks = limit, d.ActiveBlocksPerSM(limit, int(a[3])+m.staticShared())
		}
		if !m.store(t, a[0], mI32, uint64(int64(bestBlocks*d.SMs)), pos) || !m.store(t, a[1], mI32, uint64(int64(bestSize)), pos) {
			return 0, stFault
		}
		return ok(0)
	})
}
