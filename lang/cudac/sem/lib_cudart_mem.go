package sem

import (
	"math"

	"weft.dev/weft/lang/cudac/syntax"
)

// More of the CUDA runtime's memory API (CUDA Runtime API reference,
// "Memory Management", "Stream Ordered Memory Allocator", "Stream
// Management"), the calls CUDA's sample programs make:
//
//   - pitched and 3-D linear memory: cudaMallocPitch, cudaMemcpy2D(Async),
//     cudaMemset2D, cudaMalloc3D, cudaMemset3D, cudaMemcpy3D(Async) with
//     cudaMemcpy3DParms, and the structs cudaExtent, cudaPitchedPtr,
//     cudaPos with their make_ functions. A pitch is the row width rounded
//     up to 512 bytes (what current GPUs' cudaMallocPitch returns). A copy
//     is one stream copy per row (one in all when rows are contiguous), so
//     every row goes through the memory and race checker; a CUDA array
//     (srcArray/dstArray) is such rows too (lib_texobj.go).
//   - memory pools: cudaDeviceGetDefaultMemPool, cudaMemPoolSet/
//     GetAttribute and cudaMallocFromPoolAsync. The pool keeps its
//     attributes; cudaMemPoolAttrUsedMemCurrent/High count the bytes of its
//     live stream-ordered allocations, reserved memory is modeled as equal
//     to the used memory (the model gives freed memory back at once).
//   - hints with no effect on a program's meaning, argument-checked and
//     otherwise no-ops: cudaMemPrefetchAsync and cudaMemAdvise (both the
//     int-device and the cudaMemLocation signatures), stream attributes
//     (cudaStreamSetAttribute/GetAttribute with cudaStreamAttrValue, whose
//     accessPolicyWindow is validated against the device's
//     accessPolicyMaxWindowSize), cudaStreamAttachMemAsync and
//     cudaCtxResetPersistingL2Cache.

var (
	tExtent        = structOf("cudaExtent", "width", tULong, "height", tULong, "depth", tULong)
	tPos           = structOf("cudaPos", "x", tULong, "y", tULong, "z", tULong)
	tPitchedPtr    = structOf("cudaPitchedPtr", "ptr", tVoidP, "pitch", tULong, "xsize", tULong, "ysize", tULong)
	tMemcpy3DParms = structOf("cudaMemcpy3DParms", "srcArray", tVoidP, "srcPos", tPos, "srcPtr", tPitchedPtr,
		"dstArray", tVoidP, "dstPos", tPos, "dstPtr", tPitchedPtr, "extent", tExtent, "kind", tInt)
	tMemLocation    = structOf("cudaMemLocation", "type", tInt, "id", tInt)
	tAccessPolicyWd = structOf("cudaAccessPolicyWindow", "base_ptr", tVoidP, "num_bytes", tULong, "hitRatio", tFloat,
		"hitProp", tInt, "missProp", tInt)
)

// pitchAlign is the row alignment cudaMallocPitch and cudaMalloc3D give.
const pitchAlign = 512

// Memory pool attributes (driver_types.h, cudaMemPoolAttr).
const (
	poolReuseFollowEvents = 1
	poolReuseOpportunist  = 2
	poolReuseInternalDeps = 3
	poolReleaseThreshold  = 4
	poolReservedCurrent   = 5
	poolReservedHigh      = 6
	poolUsedCurrent       = 7
	poolUsedHigh          = 8
)

// memPool is a device's default memory pool.
type memPool struct {
	reuse     [3]int // the three reuse policies, each on (1) by default
	threshold uint64
	objs      []*Object // its stream-ordered allocations
	high      uint64
}

// rtState is the runtime model's state kept here (in libState).
type rtState struct {
	pools   map[uint64]*memPool
	streamA map[uint64][]byte // each stream's attribute value (64 bytes), by stream handle
	capture *captureState     // stream capture (graph_more.go)
	gmem    *graphMem         // graph memory nodes (graph_mem.go)
	// the next clock of each graph node's agent (graph_order.go)
	agentClock map[int32]int32
	cdp        *cdpState // device-side launches (cdp.go)
	tex        *texState // CUDA arrays, texture and surface objects (lib_texobj.go)
}

func (m *Machine) rt() *rtState {
	l := m.libSt()
	if l.rt == nil {
		l.rt = &rtState{pools: map[uint64]*memPool{}, streamA: map[uint64][]byte{}}
	}
	return l.rt
}

// poolOf returns the pool of handle h (the default pool of device 0 is 1).
func (m *Machine) poolOf(h uint64) *memPool {
	if h != 1 {
		return nil
	}
	r := m.rt()
	p := r.pools[h]
	if p == nil {
		p = &memPool{reuse: [3]int{1, 1, 1}}
		r.pools[h] = p
	}
	return p
}

// used is the bytes of p's live allocations.
func (p *memPool) used() uint64 {
	n, live := uint64(0), p.objs[:0]
	for _, o := range p.objs {
		if !o.Freed {
			n += uint64(len(o.Data))
			live = append(live, o)
		}
	}
	p.objs = live
	return n
}

// cudartCall compiles the runtime calls whose form depends on an
// argument's type, and the make_ functions of the runtime's structs.
func (c *compiler) cudartCall(name string, e *syntax.Call) (*Type, bool) {
	switch name {
	case "make_cudaExtent":
		return c.makeVector(tExtent, e.Args, e.Pos), true
	case "make_cudaPos":
		return c.makeVector(tPos, e.Args, e.Pos), true
	case "make_cudaPitchedPtr":
		return c.makeVector(tPitchedPtr, e.Args, e.Pos), true
	case "cudaStreamGetCaptureInfo", "cudaStreamUpdateCaptureDependencies":
		// CUDA 13 added edge data: 7 (5) arguments; CUDA 12 has 6 (4)
		v := map[string]string{"cudaStreamGetCaptureInfo": "_v3", "cudaStreamUpdateCaptureDependencies": ""}[name]
		if name == "cudaStreamUpdateCaptureDependencies" && len(e.Args) == 4 {
			v = "_v1"
		} else if name == "cudaStreamGetCaptureInfo" && len(e.Args) != 7 {
			v = ""
		}
		if v == "" {
			return nil, false
		}
		ne := *e
		ne.Fun = &syntax.Name{Pos: e.Pos, Name: name + v}
		return c.builtinCall(name+v, &ne), true
	case "cudaMemPrefetchAsync", "cudaMemAdvise":
		// CUDA 12: (ptr, count, int device[, stream]); CUDA 13 and the
		// _v2 forms: (ptr, count, cudaMemLocation[, unsigned flags[, stream]])
		at := 2 // where the location is
		if name == "cudaMemAdvise" {
			at = 3
		}
		if len(e.Args) <= at {
			return nil, false
		}
		if lt := c.typeOf(e.Args[at], true); lt.Kind == Struct && lt.Name == "cudaMemLocation" {
			ne := *e
			ne.Fun = &syntax.Name{Pos: e.Pos, Name: name + "_loc"}
			return c.builtinCall(name+"_loc", &ne), true
		}
	}
	return nil, false
}

func initLibCudartMem() {
	for name, t := range map[string]*Type{
		"cudaExtent": tExtent, "cudaPos": tPos, "cudaPitchedPtr": tPitchedPtr, "cudaMemcpy3DParms": tMemcpy3DParms,
		"cudaMemLocation": tMemLocation, "cudaMemLocationType": tInt, "cudaMemoryAdvise": tInt,
		"cudaAccessPolicyWindow": tAccessPolicyWd, "cudaAccessProperty": tInt, "cudaStreamAttrValue": tLaunchAttrVal,
		"cudaStreamAttrID": tInt, "cudaMemPoolAttr": tInt,
	} {
		builtinTypedefs[name] = t
	}
	for name, v := range map[string]int64{
		"cudaMemLocationTypeInvalid": 0, "cudaMemLocationTypeDevice": 1, "cudaMemLocationTypeHost": 2,
		"cudaMemLocationTypeHostNuma": 3, "cudaMemLocationTypeHostNumaCurrent": 4, "cudaCpuDeviceId": -1,
		"cudaInvalidDeviceId": -2, "cudaMemAdviseSetReadMostly": 1, "cudaMemAdviseUnsetReadMostly": 2,
		"cudaMemAdviseSetPreferredLocation": 3, "cudaMemAdviseUnsetPreferredLocation": 4,
		"cudaMemAdviseSetAccessedBy": 5, "cudaMemAdviseUnsetAccessedBy": 6,
		"cudaAccessPropertyNormal": 0, "cudaAccessPropertyStreaming": 1, "cudaAccessPropertyPersisting": 2,
		"cudaStreamAttributeAccessPolicyWindow": 1, "cudaStreamAttributeSynchronizationPolicy": 3,
		"cudaStreamAttributePriority": 8, "cudaMemAttachHost": 2, "cudaMemAttachSingle": 4,
		"cudaMemPoolReuseFollowEventDependencies": poolReuseFollowEvents, "cudaMemPoolReuseAllowOpportunistic": poolReuseOpportunist,
		"cudaMemPoolReuseAllowInternalDependencies": poolReuseInternalDeps, "cudaMemPoolAttrReleaseThreshold": poolReleaseThreshold,
		"cudaMemPoolAttrReservedMemCurrent": poolReservedCurrent, "cudaMemPoolAttrReservedMemHigh": poolReservedHigh,
		"cudaMemPoolAttrUsedMemCurrent": poolUsedCurrent, "cudaMemPoolAttrUsedMemHigh": poolUsedHigh,
	} {
		namedConsts[name] = v
	}
	for name, s := range map[string]*bsig{
		"cudaMallocPitch":               sig(tInt, hostSide, tVoidPP, ptrTo(tULong), tULong, tULong),
		"cudaMemcpy2D":                  sig(tInt, hostSide, tVoidP, tULong, tVoidP, tULong, tULong, tULong, tInt),
		"cudaMemcpy2DAsync":             sig(tInt, hostSide, tVoidP, tULong, tVoidP, tULong, tULong, tULong, tInt, tLong).def(0),
		"cudaMemset2D":                  sig(tInt, hostSide, tVoidP, tULong, tInt, tULong, tULong),
		"cudaMalloc3D":                  sig(tInt, hostSide, ptrTo(tPitchedPtr), tExtent),
		"cudaMemset3D":                  sig(tInt, hostSide, tPitchedPtr, tInt, tExtent),
		"cudaMemcpy3D":                  sig(tInt, hostSide, ptrTo(tMemcpy3DParms)),
		"cudaMemcpy3DAsync":             sig(tInt, hostSide, ptrTo(tMemcpy3DParms), tLong).def(0),
		"cudaDeviceGetDefaultMemPool":   sig(tInt, hostSide, ptrTo(tLong), tInt),
		"cudaDeviceGetMemPool":          sig(tInt, hostSide, ptrTo(tLong), tInt),
		"cudaMemPoolSetAttribute":       sig(tInt, hostSide, tLong, tInt, tVoidP),
		"cudaMemPoolGetAttribute":       sig(tInt, hostSide, tLong, tInt, tVoidP),
		"cudaMemPoolTrimTo":             sig(tInt, hostSide, tLong, tULong),
		"cudaMallocFromPoolAsync":       sig(tInt, hostSide, tVoidPP, tULong, tLong, tLong),
		"cudaMemPrefetchAsync":          sig(tInt, hostSide, tVoidP, tULong, tInt, tLong).def(0),
		"cudaMemPrefetchAsync_loc":      sig(tInt, hostSide, tVoidP, tULong, tMemLocation, tUInt, tLong).def(0),
		"cudaMemAdvise":                 sig(tInt, hostSide, tVoidP, tULong, tInt, tInt),
		"cudaMemAdvise_loc":             sig(tInt, hostSide, tVoidP, tULong, tInt, tMemLocation),
		"cudaStreamSetAttribute":        sig(tInt, hostSide, tLong, tInt, ptrTo(tLaunchAttrVal)),
		"cudaStreamGetAttribute":        sig(tInt, hostSide, tLong, tInt, ptrTo(tLaunchAttrVal)),
		"cudaCtxResetPersistingL2Cache": sig(tInt, hostSide),
		"cudaStreamAttachMemAsync":      sig(tInt, hostSide, tLong, tVoidP, tULong, tUInt).def(0, 4),
	} {
		builtinSigs[name] = s
	}
	const errInvalidValue = 1
	// rows enqueues height*depth copies of width bytes (one when the rows
	// are contiguous on both sides) on stream h; sync: a blocking copy
	rows := func(m *Machine, t *Thread, dst, dpitch, dy, src, spitch, sy, width, height, depth uint64, kind int, h uint64, sync bool, pos int32) (uint64, status) {
		if width == 0 || height == 0 || depth == 0 {
			return ok(0)
		}
		if width > dpitch || width > spitch || width >= 1<<31 {
			return m.apiError(errInvalidValue), stDone
		}
		if dpitch == width && spitch == width && dy == height && sy == height {
			if width*height*depth >= 1<<31 {
				return m.apiError(errInvalidValue), stDone
			}
			return m.memcpyAPI(t, dst, src, int(width*height*depth), kind, h, sync, pos)
		}
		for z := uint64(0); z < depth; z++ {
			for y := uint64(0); y < height; y++ {
				last := z == depth-1 && y == height-1
				r, st := m.memcpyAPI(t, dst+(z*dy+y)*dpitch, src+(z*sy+y)*spitch, int(width), kind, h, sync && last, pos)
				if st != stDone || r != 0 {
					return r, st
				}
			}
		}
		return ok(0)
	}
	copyRows = rows // lib_texobj.go
	defb("cudaMemcpy2D", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return rows(m, t, a[0], a[1], a[5], a[2], a[3], a[5], a[4], a[5], 1, int(a[6]), 0, true, pos)
	})
	defb("cudaMemcpy2DAsync", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return rows(m, t, a[0], a[1], a[5], a[2], a[3], a[5], a[4], a[5], 1, int(a[6]), a[7], false, pos)
	})
	alloc := func(m *Machine, t *Thread, n uint64, pos int32) (uint64, bool) {
		if n >= 1<<31 {
			return 0, false
		}
		o := m.newObject(int(n), SpaceDevice, "", pos)
		o.Heap = true
		return ptrOf(o, 0), !m.failed
	}
	pitchOf := func(w uint64) uint64 { return (w + pitchAlign - 1) / pitchAlign * pitchAlign }
	defb("cudaMallocPitch", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		pitch := pitchOf(a[2])
		if a[3] != 0 && pitch > (1<<31)/a[3] {
			return m.apiError(2), stDone
		}
		p, good := alloc(m, t, pitch*a[3], pos)
		if !good {
			return m.apiError(2), stDone
		}
		if !m.store(t, a[0], mU64, p, pos) || !m.store(t, a[1], mU64, pitch, pos) {
			return 0, stFault
		}
		return ok(0)
	})
	// memset rows of width bytes
	setRows := func(m *Machine, t *Thread, p, pitch, ysize, val, w, hgt, d uint64, pos int32) (uint64, status) {
		if w > pitch {
			return m.apiError(errInvalidValue), stDone
		}
		s := m.streamOf(0)
		for z := uint64(0); z < d; z++ {
			for y := uint64(0); y < hgt; y++ {
				q := p + (z*ysize+y)*pitch
				if !m.checkDevicePtr(t, q, int(w), pos) {
					return 0, stFault
				}
				m.enqueue(s, &devOp{kind: opSet, dst: q, val: byte(val), n: int(w), pos: pos})
			}
		}
		return ok(0)
	}
	defb("cudaMemset2D", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return setRows(m, t, a[0], a[1], a[4], a[2], a[3], a[4], 1, pos)
	})
	u64 := func(b []byte, off int) uint64 { return loadN(b[off:], 8) }
	defb("cudaMalloc3D", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		ext, good := m.resolve(t, a[1], 24, pos, false, false)
		if !good {
			return 0, stFault
		}
		w, h, d := u64(ext, 0), u64(ext, 8), u64(ext, 16)
		pitch := pitchOf(w)
		if h != 0 && d != 0 && pitch > (1<<31)/h/d {
			return m.apiError(2), stDone
		}
		p, good := alloc(m, t, pitch*h*d, pos)
		if !good {
			return m.apiError(2), stDone
		}
		for i, v := range []uint64{p, pitch, w, h} {
			if !m.store(t, a[0]+uint64(8*i), mU64, v, pos) {
				return 0, stFault
			}
		}
		return ok(0)
	})
	defb("cudaMemset3D", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		pp, good := m.resolve(t, a[0], 32, pos, false, false)
		if !good {
			return 0, stFault
		}
		pp = append([]byte(nil), pp...)
		ext, good := m.resolve(t, a[2], 24, pos, false, false)
		if !good {
			return 0, stFault
		}
		return setRows(m, t, u64(pp, 0), u64(pp, 8), u64(pp, 24), a[1], u64(ext, 0), u64(ext, 8), u64(ext, 16), pos)
	})
	memcpy3D := func(m *Machine, t *Thread, p, h uint64, sync bool, pos int32) (uint64, status) {
		b, good := m.resolve(t, p, int(tMemcpy3DParms.size), pos, false, false)
		if !good {
			return 0, stFault
		}
		b = append([]byte(nil), b...)
		f := func(name string) int { return tMemcpy3DParms.field(name).Offset }
		sp, dp, sq, dq, ex := f("srcPos"), f("dstPos"), f("srcPtr"), f("dstPtr"), f("extent")
		if sa, da := u64(b, f("srcArray")), u64(b, f("dstArray")); sa != 0 || da != 0 {
			// a CUDA array on either side (lib_texobj.go)
			kind := int(int32(loadN(b[f("kind"):], 4)))
			w, hgt, d := u64(b, ex), u64(b, ex+8), u64(b, ex+16)
			return m.memcpy3DArray(t, [2]uint64{sa, da}, [2][]byte{b[sp : sp+24], b[dp : dp+24]}, [2][]byte{b[sq : sq+32], b[dq : dq+32]}, w, hgt, d, kind, h, sync, pos)
		}
		w, hgt, d := u64(b, ex), u64(b, ex+8), u64(b, ex+16)
		src, spitch, sy := u64(b, sq), u64(b, sq+8), u64(b, sq+24)
		dst, dpitch, dy := u64(b, dq), u64(b, dq+8), u64(b, dq+24)
		if spitch == 0 || dpitch == 0 || sy == 0 || dy == 0 {
			return m.apiError(errInvalidValue), stDone
		}
		src += (u64(b, sp+16)*sy+u64(b, sp+8))*spitch + u64(b, sp)
		dst += (u64(b, dp+16)*dy+u64(b, dp+8))*dpitch + u64(b, dp)
		return rows(m, t, dst, dpitch, dy, src, spitch, sy, w, hgt, d, int(int32(loadN(b[f("kind"):], 4))), h, sync, pos)
	}
	defb("cudaMemcpy3D", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return memcpy3D(m, t, a[0], 0, true, pos)
	})
	defb("cudaMemcpy3DAsync", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return memcpy3D(m, t, a[0], a[1], false, pos)
	})

	// memory pools
	getPool := func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[1] != 0 {
			return m.apiError(101), stDone
		}
		m.poolOf(1)
		if !m.store(t, a[0], mU64, 1, pos) {
			return 0, stFault
		}
		return ok(0)
	}
	defb("cudaDeviceGetDefaultMemPool", getPool)
	defb("cudaDeviceGetMemPool", getPool)
	defb("cudaMemPoolSetAttribute", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		p := m.poolOf(a[0])
		if p == nil {
			return m.apiError(errInvalidValue), stDone
		}
		switch a := int64(a[1]); {
		case a >= poolReuseFollowEvents && a <= poolReuseInternalDeps:
		case a == poolReleaseThreshold, a == poolReservedHigh, a == poolUsedHigh:
		default:
			// the current amounts are read-only
			return m.apiError(errInvalidValue), stDone
		}
		attr := int64(a[1])
		if attr <= poolReuseInternalDeps {
			v, good := m.load(t, a[2], mI32, pos)
			if !good {
				return 0, stFault
			}
			p.reuse[attr-1] = map[bool]int{true: 1, false: 0}[int32(v) != 0]
			return ok(0)
		}
		v, good := m.load(t, a[2], mU64, pos)
		if !good {
			return 0, stFault
		}
		switch attr {
		case poolReleaseThreshold:
			p.threshold = v
		case poolReservedHigh, poolUsedHigh:
			// only a reset to zero is allowed; it sets the high-water
			// mark to the current amount
			if v != 0 {
				return m.apiError(errInvalidValue), stDone
			}
			p.high = p.used()
		}
		return ok(0)
	})
	defb("cudaMemPoolGetAttribute", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		p := m.poolOf(a[0])
		if p == nil {
			return m.apiError(errInvalidValue), stDone
		}
		attr := int64(a[1])
		var v uint64
		switch {
		case attr >= poolReuseFollowEvents && attr <= poolReuseInternalDeps:
			if !m.store(t, a[2], mI32, uint64(p.reuse[attr-1]), pos) {
				return 0, stFault
			}
			return ok(0)
		case attr == poolReleaseThreshold:
			v = p.threshold
		case attr == poolReservedCurrent || attr == poolUsedCurrent:
			v = p.used()
		case attr == poolReservedHigh || attr == poolUsedHigh:
			v = max(p.high, p.used())
		default:
			return m.apiError(errInvalidValue), stDone
		}
		if !m.store(t, a[2], mU64, v, pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaMemPoolTrimTo", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if m.poolOf(a[0]) == nil {
			return m.apiError(errInvalidValue), stDone
		}
		return ok(0) // freed memory is already given back (reserved == used)
	})
	defb("cudaMallocFromPoolAsync", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		p := m.poolOf(a[2])
		if p == nil {
			return m.apiError(errInvalidValue), stDone
		}
		return m.poolAlloc(t, p, a[0], a[1], a[3], pos)
	})

	// hints
	checkRange := func(m *Machine, t *Thread, p, n uint64, pos int32) bool {
		id := p >> 32
		if id == 0 || id >= uint64(len(m.objs)) || m.objs[id].Freed {
			return false
		}
		off := uint64(uint32(p))
		return n <= uint64(len(m.objs[id].Data)) && off <= uint64(len(m.objs[id].Data))-n
	}
	devOK := func(d int64) bool { return d == 0 || d == -1 }
	locOK := func(m *Machine, t *Thread, p uint64, pos int32) (bool, bool) {
		b, good := m.resolve(t, p, 4, pos, false, false)
		if !good {
			return false, false
		}
		switch int32(loadN(b, 4)) {
		case 2, 4:
			return true, true // the host: id is not read
		case 1, 3:
			// a device ordinal, a NUMA node: the model has one of each
			b, good := m.resolve(t, p+4, 4, pos, false, false)
			if !good {
				return false, false
			}
			return int32(loadN(b, 4)) == 0, true
		}
		return false, true
	}
	defb("cudaMemPrefetchAsync", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if m.streamOf(a[3]) == nil {
			return m.apiError(400), stDone
		}
		if !checkRange(m, t, a[0], a[1], pos) || !devOK(int64(int32(a[2]))) {
			return m.apiError(errInvalidValue), stDone
		}
		return ok(0)
	})
	defb("cudaMemPrefetchAsync_loc", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if m.streamOf(a[4]) == nil {
			return m.apiError(400), stDone
		}
		good, fine := locOK(m, t, a[2], pos)
		if !fine {
			return 0, stFault
		}
		if !checkRange(m, t, a[0], a[1], pos) || a[3] != 0 {
			return m.apiError(errInvalidValue), stDone
		}
		if !good {
			// A device location whose ordinal does not exist is
			// cudaErrorInvalidDevice: an H100 answered 101 (stop 31,
			// cudart_mem_05), where the Runtime API lists only
			// cudaErrorInvalidValue; other bad locations stay 1.
			if b, got := m.resolve(t, a[2], 8, pos, false, false); got && int32(loadN(b, 4)) == 1 {
				return m.apiError(101), stDone
			}
			return m.apiError(errInvalidValue), stDone
		}
		return ok(0)
	})
	defb("cudaMemAdvise", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if !checkRange(m, t, a[0], a[1], pos) || a[2] < 1 || a[2] > 6 || !devOK(int64(int32(a[3]))) {
			return m.apiError(errInvalidValue), stDone
		}
		return ok(0)
	})
	defb("cudaMemAdvise_loc", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		good, fine := locOK(m, t, a[3], pos)
		if !fine {
			return 0, stFault
		}
		if !checkRange(m, t, a[0], a[1], pos) || a[2] < 1 || a[2] > 6 || !good {
			return m.apiError(errInvalidValue), stDone
		}
		return ok(0)
	})
	defb("cudaStreamSetAttribute", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if m.streamOf(a[0]) == nil {
			return m.apiError(400), stDone
		}
		v, good := m.resolve(t, a[2], int(tLaunchAttrVal.size), pos, false, false)
		if !good {
			return 0, stFault
		}
		v = append([]byte(nil), v...)
		switch a[1] {
		case 1:
			// the window must fit the device's accessPolicyMaxWindowSize
			// and hitRatio lie in [0, 1]
			ratio := math.Float32frombits(uint32(loadN(v[16:], 4)))
			maxWin, _ := m.opts.Device.Attribute(109) // cudaDevAttrMaxAccessPolicyWindowSize
			if loadN(v[8:], 8) > uint64(maxWin) || !(ratio >= 0 && ratio <= 1) ||
				int32(loadN(v[20:], 4)) > 2 || int32(loadN(v[24:], 4)) > 2 {
				return m.apiError(errInvalidValue), stDone
			}
		case 3, 8:
		default:
			return m.apiError(errInvalidValue), stDone
		}
		r := m.rt()
		cur := r.streamA[a[0]]
		if cur == nil {
			cur = make([]byte, len(v))
		}
		// one value per stream holds every attribute: the window at its
		// offset 0, the policy and priority at theirs
		switch a[1] {
		case 1:
			copy(cur[:28], v[:28])
		case 3, 8:
			off := tLaunchAttrVal.field(map[uint64]string{3: "syncPolicy", 8: "priority"}[a[1]]).Offset
			copy(cur[off:off+4], v[off:off+4])
		}
		r.streamA[a[0]] = cur
		return ok(0)
	})
	defb("cudaStreamGetAttribute", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if m.streamOf(a[0]) == nil {
			return m.apiError(400), stDone
		}
		if a[1] != 1 && a[1] != 3 && a[1] != 8 {
			return m.apiError(errInvalidValue), stDone
		}
		b, good := m.resolve(t, a[2], int(tLaunchAttrVal.size), pos, true, false)
		if !good {
			return 0, stFault
		}
		cur := m.rt().streamA[a[0]]
		if cur == nil {
			cur = make([]byte, len(b))
		}
		switch a[1] {
		case 1:
			copy(b[:28], cur[:28])
		default:
			off := tLaunchAttrVal.field(map[uint64]string{3: "syncPolicy", 8: "priority"}[a[1]]).Offset
			copy(b[off:off+4], cur[off:off+4])
		}
		return ok(0)
	})
	defb("cudaStreamAttachMemAsync", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// length 0: the whole allocation, which ptr must start; flags one of
		// cudaMemAttachGlobal, Host, Single
		if m.streamOf(a[0]) == nil {
			return m.apiError(400), stDone
		}
		if a[3] != 1 && a[3] != 2 && a[3] != 4 || a[2] == 0 && uint32(a[1]) != 0 || !checkRange(m, t, a[1], a[2], pos) {
			return m.apiError(errInvalidValue), stDone
		}
		return ok(0)
	})
	defb("cudaCtxResetPersistingL2Cache", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(0) // the model has no cache: nothing persists
	})
}

// poolAlloc is a stream-ordered allocation of n bytes from pool p on
// stream h, stored at dst.
func (m *Machine) poolAlloc(t *Thread, p *memPool, dst, n, h uint64, pos int32) (uint64, status) {
	// the memory exists from the call on, which is at least as early as
	// the stream needs it
	if m.streamOf(h) == nil {
		return m.apiError(400), stDone
	}
	if n >= 1<<31 {
		return m.apiError(2), stDone
	}
	if c := m.rt().capture; c != nil && c.streams[m.streamOf(h)] != nil {
		// captured: a graph allocation node (graph_mem.go)
		op := m.allocNodeOp(n, pos)
		if m.failed {
			return 0, stFault
		}
		m.captureNode(m.streamOf(h), &graphNode{ops: []*devOp{op}, pos: pos})
		if !m.store(t, dst, mU64, op.dst, pos) {
			return 0, stFault
		}
		return ok(0)
	}
	o := m.newObject(int(n), SpaceDevice, "", pos)
	o.Heap = true
	if m.failed {
		return 0, stFault
	}
	p.objs = append(p.objs, o)
	if u := p.used(); u > p.high {
		p.high = u
	}
	if !m.store(t, dst, mU64, ptrOf(o, 0), pos) {
		return 0, stFault
	}
	return ok(0)
}
