package sem

import mbits "math/bits"

// The CUDA runtime API (seed 004 §2.5): memory management, copies, streams
// and events. Device work is queued on streams and runs when the host
// synchronizes (a blocking copy, a synchronize call, cudaFree or program
// exit), which is also when a GPU's printf output reaches the terminal.

func defineCudaAPI() {
	hostAlloc := func(sp Space) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			if a[1] >= 1<<31 { // offsets are signed 32-bit (OpPtrAdd)
				return ok(2)
			}
			o := m.newObject(int(a[1]), sp, "", pos)
			if m.failed { // over the memory limit
				return 0, stFault
			}
			o.Heap = true
			if !m.store(t, a[0], mU64, ptrOf(o, 0), pos) {
				return 0, stFault
			}
			return ok(0)
		}
	}
	defb("cudaMalloc", hostAlloc(SpaceDevice))
	defb("cudaMallocHost", hostAlloc(SpacePinned))
	builtinIndex["cudaHostAlloc"] = builtinIndex["cudaMallocHost"]
	builtinIndex["cudaMallocManaged"] = builtinIndex["cudaMallocHost"]
	defb("cudaFree", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// cudaFree synchronizes the device first
		if !m.syncAll() {
			return 0, stFault
		}
		if a[0] != 0 && a[0]>>32 < uint64(len(m.objs)) && m.objs[a[0]>>32].Space == SpacePinned {
			return m.free(t, a[0], SpacePinned, "cudaFree", pos)
		}
		return m.free(t, a[0], SpaceDevice, "cudaFree", pos)
	})
	defb("cudaFreeHost", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if !m.syncAll() {
			return 0, stFault
		}
		return m.free(t, a[0], SpacePinned, "cudaFreeHost", pos)
	})
	defb("cudaMemcpy", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return m.memcpyAPI(t, a[0], a[1], int(a[2]), int(a[3]), 0, true, pos)
	})
	defb("cudaMemcpyAsync", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return m.memcpyAPI(t, a[0], a[1], int(a[2]), int(a[3]), a[4], false, pos)
	})
	defb("cudaMemcpyToSymbol", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return m.memcpyAPI(t, a[0]+a[3], a[1], int(a[2]), int(a[4]), 0, true, pos)
	})
	defb("cudaMemcpyFromSymbol", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return m.memcpyAPI(t, a[0], a[1]+a[3], int(a[2]), int(a[4]), 0, true, pos)
	})
	memset := func(async bool) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			var h uint64
			if async {
				h = a[3]
			}
			s := m.streamOf(h)
			if s == nil {
				return m.apiError(400), stDone
			}
			if !m.checkDevicePtr(t, a[0], int(a[2]), pos) {
				return 0, stFault
			}
			m.enqueue(s, &devOp{kind: opSet, dst: a[0], val: byte(a[1]), n: int(a[2]), pos: pos})
			return ok(0)
		}
	}
	defb("cudaMemset", memset(false))
	defb("cudaMemsetAsync", memset(true))
	defb("cudaDeviceSynchronize", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if !m.syncAll() {
			return 0, stFault
		}
		return ok(0)
	})
	builtinIndex["cudaThreadSynchronize"] = builtinIndex["cudaDeviceSynchronize"]
	defb("cudaDeviceReset", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if !m.syncAll() {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaGetLastError", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		e := m.lastErr
		m.lastErr = 0
		return ok(uint64(e))
	})
	defb("cudaPeekAtLastError", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(uint64(m.lastErr))
	})
	errStr := func(table map[int]string) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			s, found := table[int(int32(a[0]))]
			if !found {
				s = "unrecognized error code"
			}
			return ok(m.runtimeString(s))
		}
	}
	defb("cudaGetErrorString", errStr(cudaErrorText))
	defb("cudaGetErrorName", errStr(cudaErrors))
	defb("cudaStreamCreate", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return m.createStream(t, a[0], 0, 0, pos) // lib_streams.go
	})
	defb("cudaStreamDestroy", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s := m.streamOf(a[0])
		if s == nil || s.id == 0 {
			return m.apiError(400), stDone
		}
		// pending work still completes
		m.drainStream(s)
		s.live = false
		if m.failed {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaStreamSynchronize", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s := m.streamOf(a[0])
		if s == nil {
			return m.apiError(400), stDone
		}
		m.drainStream(s)
		if m.failed {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaStreamQuery", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s := m.streamOf(a[0])
		if s == nil {
			return ok(400)
		}
		if len(s.queue) > 0 {
			// polling makes progress: one queued operation runs per query
			// (so a host loop that waits for the stream ends), and
			// completion observed is synchronization, as
			// cudaStreamSynchronize
			m.step()
			if m.failed {
				return 0, stFault
			}
			if len(s.queue) > 0 {
				return ok(600)
			}
			m.drainStream(s)
		}
		return ok(0)
	})
	defb("cudaStreamWaitEvent", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s := m.streamOf(a[0])
		ev := m.eventOf(a[1])
		if s == nil || ev == nil {
			return m.apiError(400), stDone
		}
		m.enqueue(s, &devOp{kind: opWait, ev: ev, waitOn: ev.pending, pos: pos})
		return ok(0)
	})
	eventCreate := func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		m.events = append(m.events, &event{})
		if !m.store(t, a[0], mU64, uint64(len(m.events)), pos) {
			return 0, stFault
		}
		return ok(0)
	}
	defb("cudaEventCreate", eventCreate)
	builtinIndex["cudaEventCreateWithFlags"] = builtinIndex["cudaEventCreate"]
	defb("cudaEventDestroy", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if m.eventOf(a[0]) == nil {
			return m.apiError(400), stDone
		}
		return ok(0)
	})
	defb("cudaEventRecord", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		ev := m.eventOf(a[0])
		s := m.streamOf(a[1])
		if ev == nil || s == nil {
			return m.apiError(400), stDone
		}
		op := &devOp{kind: opRecord, ev: ev, pos: pos}
		ev.pending = op
		m.enqueue(s, op)
		return ok(0)
	})
	defb("cudaEventSynchronize", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		ev := m.eventOf(a[0])
		if ev == nil {
			return m.apiError(400), stDone
		}
		if ev.pending != nil {
			m.drainUntil(ev.pending)
		}
		if m.failed {
			return 0, stFault
		}
		m.hostCtx.vc = vcJoin(m.hostCtx.vc, ev.vc)
		return ok(0)
	})
	defb("cudaEventQuery", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		ev := m.eventOf(a[0])
		if ev == nil {
			return ok(400)
		}
		if ev.pending != nil {
			// one queued operation runs per query (see cudaStreamQuery)
			m.step()
			if m.failed {
				return 0, stFault
			}
			if ev.pending != nil {
				return ok(600)
			}
		}
		if ev.recorded {
			m.hostCtx.vc = vcJoin(m.hostCtx.vc, ev.vc)
		}
		return ok(0)
	})
	defb("cudaEventElapsedTime", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		e1, e2 := m.eventOf(a[1]), m.eventOf(a[2])
		if e1 == nil || e2 == nil || !e1.recorded || !e2.recorded {
			return m.apiError(400), stDone
		}
		// modeled time: interpreted instructions between the two records,
		// at one instruction per nanosecond (deterministic, not a GPU time)
		ms := (e2.time - e1.time) / 1e6
		if !m.store(t, a[0], mF32, bits(ms), pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaGetDeviceCount", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if !m.store(t, a[0], mI32, 1, pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaGetDevice", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if !m.store(t, a[0], mI32, 0, pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaSetDevice", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[0] != 0 {
			return m.apiError(101), stDone
		}
		return ok(0)
	})
	defb("cudaGetDeviceProperties", getDeviceProperties) // lib_deviceprop.go
}

func (m *Machine) apiError(code int) uint64 {
	m.lastErr = code
	return uint64(code)
}

func (m *Machine) eventOf(h uint64) *event {
	if h == 0 || h > uint64(len(m.events)) {
		return nil
	}
	return m.events[h-1]
}

// runtimeString returns a pointer to a read-only string made by the runtime.
func (m *Machine) runtimeString(s string) uint64 {
	if m.rtStrings == nil {
		m.rtStrings = map[string]uint64{}
	}
	if p, found := m.rtStrings[s]; found {
		return p
	}
	o := m.newObject(len(s)+1, SpaceAny, "string literal", -1)
	copy(o.Data, s)
	p := ptrOf(o, 0)
	m.rtStrings[s] = p
	return p
}

// syncAll is cudaDeviceSynchronize: run all queued work, and order the
// host after it.
func (m *Machine) syncAll() bool {
	m.drainAll()
	return !m.failed
}

// checkDevicePtr validates that [p, p+n) lies in one live device object.
func (m *Machine) checkDevicePtr(t *Thread, p uint64, n int, pos int32) bool {
	id := p >> 32
	if id == 0 || id >= uint64(len(m.objs)) {
		m.fault(t, pos, "C0607", "invalid device pointer 0x%x passed to the CUDA runtime", p)
		return false
	}
	o := m.objs[id]
	if o.Space != SpaceDevice && o.Space != SpaceConstant && o.Space != SpacePinned {
		m.fault(t, pos, "C0607", "%s passed where device memory is expected", o.describe())
		return false
	}
	return m.inBounds(t, o, p, n, pos)
}

func (m *Machine) inBounds(t *Thread, o *Object, p uint64, n int, pos int32) bool {
	if o.Freed {
		m.fault(t, pos, "C0404", "use of %s after it was freed", o.describe())
		return false
	}
	off := int(int32(uint32(p)))
	if off < 0 || off+n > len(o.Data) {
		m.fault(t, pos, "C0403", "out-of-bounds access of %d bytes at offset %d of %s (%d bytes)", n, off, o.describe(), len(o.Data))
		return false
	}
	return true
}

// memcpyAPI implements cudaMemcpy (sync) and cudaMemcpyAsync: the kind
// must match where the pointers point (cudaMemcpyDefault infers it).
func (m *Machine) memcpyAPI(t *Thread, dst, src uint64, n, kind int, stream uint64, sync bool, pos int32) (uint64, status) {
	s := m.streamOf(stream)
	if s == nil {
		return m.apiError(400), stDone
	}
	if n == 0 {
		return ok(0)
	}
	space := func(p uint64, what string) (Space, bool) {
		id := p >> 32
		if id == 0 || id >= uint64(len(m.objs)) {
			m.fault(t, pos, "C0607", "invalid %s pointer 0x%x passed to cudaMemcpy", what, p)
			return 0, false
		}
		o := m.objs[id]
		if !m.inBounds(t, o, p, n, pos) {
			return 0, false
		}
		return o.Space, true
	}
	ds, good := space(dst, "destination")
	if !good {
		return 0, stFault
	}
	ss, good := space(src, "source")
	if !good {
		return 0, stFault
	}
	isDev := func(sp Space) bool { return sp == SpaceDevice || sp == SpaceConstant }
	isHost := func(sp Space) bool { return sp == SpaceHost || sp == SpaceAny || sp == SpaceLocal }
	want := [5][2]func(Space) bool{
		{isHost, isHost}, {isDev, isHost}, {isHost, isDev}, {isDev, isDev}, {nil, nil},
	}
	if kind < 0 || kind > 4 {
		return m.apiError(21), stDone
	}
	kinds := [...]string{"cudaMemcpyHostToHost", "cudaMemcpyHostToDevice", "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice"}
	if w := want[kind]; w[0] != nil {
		if (ds != SpacePinned && !w[0](ds)) || (ss != SpacePinned && !w[1](ss)) {
			m.fault(t, pos, "C0607", "%s copies from %s memory to %s memory", kinds[kind], ss, ds)
			return 0, stFault
		}
	}
	op := &devOp{kind: opCopy, dst: dst, src: src, n: n, pos: pos}
	m.enqueue(s, op)
	if sync {
		// a blocking copy waits for all earlier work of the legacy
		// default stream and orders the host after the copy
		m.drainUntil(op)
		if m.failed {
			return 0, stFault
		}
		m.hostCtx.vc = vcJoin(m.hostCtx.vc, s.vc)
		if s.id != 0 {
			m.hostCtx.vc = vcJoin(m.hostCtx.vc, m.streams[0].vc)
		}
	}
	return ok(0)
}

// releaseWarps completes the warp collectives whose participating lanes
// (the mask, restricted to lanes that exist) have all arrived: shuffles and
// votes execute in lock-step for the whole group at once.
func (m *Machine) releaseWarps(b *blockRun) bool {
	released := false
	nt := len(b.threads)
	for w := 0; w*32 < nt; w++ {
		lanes := b.threads[w*32 : min(w*32+32, nt)]
		exist := uint32(1<<len(lanes) - 1)
		if len(lanes) == 32 {
			exist = 0xffffffff
		}
		if releaseCoalesce(lanes) { // cgcoal.go
			released = true
		}
		var handled uint32
		for l, t := range lanes {
			if t.state != tsWarp || t.warpOp == wCoalesce || handled&(1<<l) != 0 {
				continue
			}
			mask := uint32(t.wargs[0]) & exist
			mask |= 1 << l
			all := true
			// a group reduction, scan or match (cgcoal.go) completes when
			// every lane of its group waits at the same call: a lane of the
			// mask waiting at another collective has not arrived yet
			group := t.warpOp == wMatch || t.warpOp == wGroupOp
			for k := 0; k < len(lanes); k++ {
				if mask&(1<<k) != 0 && (lanes[k].state != tsWarp || lanes[k].warpOp == wCoalesce ||
					group && (lanes[k].warpOp != t.warpOp || lanes[k].waitPos != t.waitPos)) {
					all = false
					break
				}
			}
			if !all {
				continue
			}
			// an mma.sync or ldmatrix completes only when every lane of
			// the mask executes it (asm.go); mixed with another
			// collective, neither completes (a deadlock)
			mixed := false
			for k := 0; k < len(lanes); k++ {
				if mask&(1<<k) != 0 && (lanes[k].warpOp == wMma) != (t.warpOp == wMma) {
					mixed = true
				}
			}
			if mixed {
				continue
			}
			handled |= mask
			released = true
			if t.warpOp == wMma {
				if len(lanes) < 32 || mmaMismatch(lanes) != "" {
					continue // a partial warp or mixed forms never complete: a deadlock
				}
				m.releaseMma(lanes)
				continue
			}
			var ballot uint64
			for k := 0; k < len(lanes); k++ {
				if mask&(1<<k) != 0 && lanes[k].wargs[1] != 0 {
					ballot |= 1 << k
				}
			}
			sync := false
			for k := 0; k < len(lanes); k++ {
				if mask&(1<<k) == 0 {
					continue
				}
				u := lanes[k]
				var v uint64
				// undefined behaviour is reported, never given a value
				// (CUDA C++ Programming Guide, "Warp Shuffle Functions"
				// and "Synchronization Functions")
				if uint32(u.wargs[0])&(1<<k) == 0 {
					m.fault(u, u.waitPos, "C0630", "%s with mask 0x%08x, which does not include the calling lane %d (undefined)", warpOpNames[u.warpOp], uint32(u.wargs[0]), k)
					m.warpUB = true
					return true
				}
				width := int(int32(u.wargs[3]))
				isShfl := u.warpOp <= wShflXor
				if isShfl && (width <= 0 || width > 32 || width&(width-1) != 0) {
					m.fault(u, u.waitPos, "C0630", "%s with width %d: the width must be a power of two from 1 to 32 (undefined)", warpOpNames[u.warpOp], width)
					m.warpUB = true
					return true
				}
				if width <= 0 || width > 32 {
					width = 32
				}
				segStart := k / width * width
				src := -1
				switch u.warpOp {
				case wShfl:
					src = segStart + int(int32(u.wargs[2]))%width
					if int32(u.wargs[2]) < 0 {
						src = segStart + (int(int32(u.wargs[2]))%width+width)%width
					}
				case wShflUp:
					src = k - int(int32(u.wargs[2]))
					if src < segStart {
						src = k
					}
				case wShflDown:
					src = k + int(int32(u.wargs[2]))
					if src >= segStart+width {
						src = k
					}
				case wShflXor:
					src = k ^ int(int32(u.wargs[2]))
					if src >= segStart+width || src < 0 {
						src = k
					}
				case wBallot:
					v = ballot & uint64(mask)
				case wAny:
					v = b2u(ballot&uint64(mask) != 0)
				case wAll:
					v = b2u(mbits.OnesCount64(ballot&uint64(mask)) == mbits.OnesCount32(mask))
				case wSyncwarp:
					sync = true
				case wMatch, wGroupOp:
					v = groupOpValue(lanes, mask, k) // cgcoal.go
				}
				if src >= 0 {
					if src < len(lanes) && mask&(1<<src) != 0 {
						v = lanes[src].wargs[1]
					} else {
						// the source lane is not in the mask (or does not
						// exist): the value read is undefined
						why := "which is not in the mask"
						if src >= len(lanes) {
							why = "which does not exist (the block ends before it)"
						}
						m.fault(u, u.waitPos, "C0630", "%s: lane %d reads lane %d, %s 0x%08x (undefined)", warpOpNames[u.warpOp], k, src, why, mask)
						m.warpUB = true
						return true
					}
				}
				u.stack = append(u.stack, v)
				u.state = tsRunning
			}
			if sync {
				if mask == exist {
					b.wepoch[w]++ // the whole warp: one epoch orders every lane
				} else {
					// __syncwarp(mask) orders only the lanes of its mask
					// (CUDA C++ Programming Guide, "Synchronization
					// Functions": "guarantees memory ordering among threads
					// participating in the barrier"), so a tile of 16 or
					// fewer threads (t.sync(), cg.go) or a coalesced group
					// synchronizes as a barrier of its lanes only: each
					// lane releases and acquires the others'
					// split-synchronization clocks (asm.go)
					var rel []int32
					for k := 0; k < len(lanes); k++ {
						if mask&(1<<k) != 0 {
							rel = m.hbRelease(lanes[k], rel)
						}
					}
					for k := 0; k < len(lanes); k++ {
						if mask&(1<<k) != 0 {
							m.hbAcquire(lanes[k], rel)
						}
					}
				}
			}
		}
	}
	return released
}
