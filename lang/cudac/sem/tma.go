package sem

import (
	"fmt"
	"math"

	"weft.dev/weft/lang/cudac/ptx"
)

// TMA (ptx.md §5): cuTensorMapEncodeTiled, reached through
// cudaGetDriverEntryPointByVersion as on a GPU, checks its arguments as the
// driver does and stores a structured descriptor in the 128-byte
// CUtensorMap (the real encoding is undocumented); the tensor copies read
// it back. A tile load copies the box into shared memory when it is issued,
// written by the issuing thread, with the map's swizzle applied to the
// shared address and out-of-bound elements filled with zero (or the
// NaN of FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA), then completes its bytes on
// the mbarrier: the copy happens before the waits that observe the phase.
// Stores and reduce-adds write global memory at issue (reduce-adds as
// atomic accesses, so split-k CTAs adding into one tile do not race);
// bulk commit/wait groups then have nothing left to wait for.

const tmaMagic = 0x50414d5446455700 // "\0WEFTMAP"

type tensorMap struct {
	rank, dtype, elem int
	swizzle, oobNaN   int
	base              uint64
	dims              [5]uint64
	strides           [5]uint64 // bytes; strides[0] = elem
	box, estr         [5]int
}

var tmaElem = map[int]int{0: 1, 1: 2, 2: 4, 3: 4, 4: 8, 5: 8, 6: 2, 7: 4, 8: 8, 9: 2, 10: 4, 11: 4, 12: 4}

func init() {
	driverEntryPoints["cuTensorMapEncodeTiled"] = "cuTensorMapEncodeTiled"
	defb("cuTensorMapEncodeTiled", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		const invalid = 1 // CUDA_ERROR_INVALID_VALUE
		if len(a) != 12 {
			m.fault(t, pos, "C0607", "cuTensorMapEncodeTiled takes 12 arguments, not %d", len(a))
			return 0, stFault
		}
		tm := tensorMap{dtype: int(a[1]), rank: int(a[2]), base: a[3], swizzle: [4]int{0, 32, 64, 128}[a[9]&3], oobNaN: int(a[11])}
		e, known := tmaElem[tm.dtype]
		if !known || tm.rank < 1 || tm.rank > 5 || a[8] != 0 || a[9] > 3 {
			return invalid, stDone
		}
		tm.elem = e
		read := func(p uint64, n, size int) ([]uint64, bool) {
			out := make([]uint64, n)
			if n == 0 {
				return out, true
			}
			b, good := m.resolve(t, p, n*size, pos, false, false)
			if !good {
				return nil, false
			}
			for i := range out {
				out[i] = loadN(b[i*size:], size)
			}
			return out, true
		}
		dims, ok1 := read(a[4], tm.rank, 8)
		strides, ok2 := read(a[5], tm.rank-1, 8)
		box, ok3 := read(a[6], tm.rank, 4)
		estr, ok4 := read(a[7], tm.rank, 4)
		if !ok1 || !ok2 || !ok3 || !ok4 {
			return 0, stFault
		}
		// the driver's rules (ptx.md §5.2)
		if uint32(tm.base)%16 != 0 {
			return invalid, stDone
		}
		tm.strides[0] = uint64(e)
		for d := 0; d < tm.rank; d++ {
			if dims[d] < 1 || dims[d] > 1<<32 || box[d] < 1 || box[d] > 256 || estr[d] < 1 || estr[d] > 8 {
				return invalid, stDone
			}
			tm.dims[d], tm.box[d], tm.estr[d] = dims[d], int(box[d]), int(estr[d])
			if d > 0 {
				if s := strides[d-1]; s%16 != 0 || s >= 1<<40 {
					return invalid, stDone
				}
				tm.strides[d] = strides[d-1]
			}
		}
		if inner := tm.box[0] * e; inner%16 != 0 || tm.swizzle != 0 && inner > tm.swizzle {
			return invalid, stDone
		}
		b, good := m.resolveA(t, a[0], 128, pos, true, false, false)
		if !good {
			return 0, stFault
		}
		w := make([]uint64, 16)
		w[0] = tmaMagic
		w[1] = uint64(tm.rank) | uint64(tm.dtype)<<8 | uint64(e)<<16 | uint64(tm.swizzle)<<24 | uint64(tm.oobNaN)<<40
		w[2] = tm.base
		for d := 0; d < 5; d++ {
			w[3+d] = tm.dims[d]
			w[8+d] = tm.strides[d]
			w[13] |= uint64(tm.box[d]) << (12 * d)
			w[14] |= uint64(tm.estr[d]) << (4 * d)
		}
		for i, v := range w {
			storeN(b[8*i:], 8, v)
		}
		m.mver++
		return ok(0)
	})
	builtinSigs["cuTensorMapEncodeTiled"] = sig(tInt, hostSide, tAny, tInt, tUInt, tVoidP, tAny, tAny, tAny, tAny, tInt, tInt, tInt, tInt)
}

// readMap decodes the CUtensorMap at p (a generic address: a __grid_constant__
// parameter, or global memory).
func (m *Machine) readMap(t *Thread, p uint64, pos int32) (*tensorMap, bool) {
	b, good := m.resolve(t, p, 128, pos, false, false)
	if !good {
		return nil, false
	}
	w := make([]uint64, 16)
	for i := range w {
		w[i] = loadN(b[8*i:], 8)
	}
	if w[0] != tmaMagic {
		m.fault(t, pos, "C0315", "the tensor map at %s was not made by cuTensorMapEncodeTiled", m.describePtr(p))
		return nil, false
	}
	tm := &tensorMap{rank: int(w[1] & 0xff), dtype: int(w[1] >> 8 & 0xff), elem: int(w[1] >> 16 & 0xff), swizzle: int(w[1] >> 24 & 0xff), oobNaN: int(w[1] >> 40 & 0xff), base: w[2]}
	for d := 0; d < 5; d++ {
		tm.dims[d], tm.strides[d] = w[3+d], w[8+d]
		tm.box[d], tm.estr[d] = int(w[13]>>(12*d)&0xfff), int(w[14]>>(4*d)&0xf)
	}
	return tm, true
}

// boxElems visits the box at coordinates c: each element's index in the
// dense shared box, its global byte offset from the base, and whether it is
// inside the tensor.
func (tm *tensorMap) boxElems(c []int64, visit func(i int, goff uint64, in bool) bool) bool {
	var n [5]int
	total := 1
	for d := 0; d < tm.rank; d++ {
		n[d] = (tm.box[d] + tm.estr[d] - 1) / tm.estr[d]
		total *= n[d]
	}
	for i := 0; i < total; i++ {
		rem, in := i, true
		var off uint64
		for d := 0; d < tm.rank; d++ {
			id := rem % n[d]
			rem /= n[d]
			x := c[d] + int64(id*tm.estr[d])
			if x < 0 || uint64(x) >= tm.dims[d] {
				in = false
				continue
			}
			off += uint64(x) * tm.strides[d]
		}
		if !visit(i, off, in) {
			return false
		}
	}
	return true
}

func (tm *tensorMap) boxBytes() int {
	n := tm.elem
	for d := 0; d < tm.rank; d++ {
		n *= (tm.box[d] + tm.estr[d] - 1) / tm.estr[d]
	}
	return n
}

func (m *Machine) tma(t *Thread, st *asmState, in *ptx.Inst, pos int32) status {
	mapOp := in.Args[0]
	smemOp := in.Args[1]
	if in.Kind == ptx.KTmaLoad {
		mapOp, smemOp = in.Args[1], in.Args[0]
	}
	tm, good := m.readMap(t, st.read(t, *mapOp.Base), pos)
	if !good {
		return stFault
	}
	c := make([]int64, len(mapOp.Elems))
	for i, o := range mapOp.Elems {
		c[i] = int64(int32(st.read(t, o)))
	}
	if len(c) != tm.rank {
		m.fault(t, pos, "C0315", "%s: a %d-d copy with a rank-%d tensor map", in.Op, len(c), tm.rank)
		return stFault
	}
	saddr := (st.read(t, *smemOp.Base) + uint64(smemOp.Imm)) & 0xffffffff
	if saddr%128 != 0 {
		m.fault(t, pos, "C0403", "%s: the shared-memory box must be 128-byte aligned", in.Op)
		return stFault
	}
	e := tm.elem
	sptr := func(i int) (uint64, bool) {
		return m.sharedPtr32(t, ptx.Swizzle(saddr+uint64(i*e), tm.swizzle), pos)
	}
	switch in.Kind {
	case ptx.KTmaLoad:
		if len(in.Args) == 4 && uint16(st.read(t, in.Args[3]))&^(1<<t.specialReg("%cluster_ctarank")) != 0 {
			m.fault(t, pos, "C0609", "%s: multicast to CTAs other than rank 0: clusters of more than one CTA are not modeled", in.Op)
			return stFault
		}
		fill := uint64(0)
		if tm.oobNaN != 0 && (tm.dtype == 7 || tm.dtype == 10 || tm.dtype == 11 || tm.dtype == 12) {
			fill = 0x7fffffff
		}
		ok := tm.boxElems(c, func(i int, goff uint64, inb bool) bool {
			v := fill
			if inb {
				b, good := m.resolve(t, tm.base+goff, e, pos, false, false)
				if !good {
					return false
				}
				v = loadN(b, e)
			}
			p, good := sptr(i)
			if !good {
				return false
			}
			m.asyncWriting = true
			d, good := m.resolveA(t, p, e, pos, true, false, false)
			m.asyncWriting = false
			if !good {
				return false
			}
			if loadN(d, e) != v {
				storeN(d, e, v)
				m.mver++
			}
			return true
		})
		if !ok {
			return stFault
		}
		if p, good := m.addr(t, st, in.Args[2], true, pos); good && t.block.mbars[p] != nil {
			m.mbarInitVisible(t, t.block.mbars[p], pos)
		}
		return m.mbarTx(t, st, in.Args[2], -tm.boxBytes(), pos)
	default:
		reduce := in.Kind == ptx.KTmaReduce
		ok := tm.boxElems(c, func(i int, goff uint64, inb bool) bool {
			if !inb {
				return true // out-of-bound elements are not written
			}
			p, good := sptr(i)
			if !good {
				return false
			}
			s, good := m.resolve(t, p, e, pos, false, false)
			if !good {
				return false
			}
			m.proxyRead(t, p, e, pos, in.Mods[0]+"."+in.Mods[1]+"."+in.Mods[2])
			v := loadN(s, e)
			d, good := m.resolveA(t, tm.base+goff, e, pos, true, false, reduce)
			if !good {
				return false
			}
			if reduce {
				v = tmaAdd(tm.dtype, loadN(d, e), v)
			}
			if loadN(d, e) != v {
				storeN(d, e, v)
				m.mver++
			}
			return true
		})
		if !ok {
			return stFault
		}
	}
	return stDone
}

// tmaAdd is the element-wise .add of cp.reduce.async.bulk.tensor.
func tmaAdd(dtype int, a, b uint64) uint64 {
	switch dtype {
	case 7, 10, 11, 12:
		return uint64(math.Float32bits(math.Float32frombits(uint32(a)) + math.Float32frombits(uint32(b))))
	case 8:
		return math.Float64bits(math.Float64frombits(a) + math.Float64frombits(b))
	case 6:
		return uint64(halfBits(halfFromBits(uint16(a)) + halfFromBits(uint16(b))))
	case 9:
		return uint64(bf16Bits(bf16FromBits(uint16(a)) + bf16FromBits(uint16(b))))
	}
	return a + b
}

// mbarTx adds tx (negative: completes bytes) to the transaction count of
// the mbarrier at the shared address in o; the completing side releases.
func (m *Machine) mbarTx(t *Thread, st *asmState, o ptx.Operand, tx int, pos int32) status {
	p, good := m.addr(t, st, o, true, pos)
	if !good {
		return stFault
	}
	mb := t.block.mbars[p]
	if mb == nil {
		m.fault(t, pos, "C0315", "transaction bytes for an mbarrier that was not initialized")
		return stFault
	}
	mb.tx += tx
	if tx < 0 {
		mb.vc = m.hbRelease(t, mb.vc)
	}
	if mb.pending <= 0 && mb.tx == 0 {
		m.mbarComplete(t.block, p, mb)
	}
	return stDone
}

// barrier.cluster.arrive / wait for a cluster of one CTA (ptx.md §7): a
// split barrier of every thread of the block; each thread arrives once per
// phase and its wait returns once every thread that has not exited arrived.
// The arrivals release, the wait acquires.
type clusterBar struct {
	phase, arrived int
	vc, done       []int32
}

func (m *Machine) clusterBarrier(t *Thread, in *ptx.Inst, pos int32) status {
	b := t.block
	if n := t.clusterSize(); n > 1 {
		m.fault(t, pos, "C0609", "%s in a cluster of %d CTAs: clusters of more than one CTA are not modeled", in.Op, n)
		return stFault
	}
	if b.clBar == nil {
		b.clBar = &clusterBar{}
	}
	cb := b.clBar
	t.syncs++
	if in.Kind == ptx.KClusterArrive {
		if t.clPhase > cb.phase {
			m.fault(t, pos, "C0315", "%s: a thread arrives twice in one phase of the cluster barrier", in.Op)
			return stFault
		}
		t.clPhase = cb.phase + 1
		if len(in.Mods) < 4 || in.Mods[3] != "relaxed" {
			cb.vc = m.hbRelease(t, cb.vc)
		}
		cb.arrived++
		live := 0
		for _, u := range b.threads {
			if u.state != tsDone {
				live++
			}
		}
		if cb.arrived >= live {
			cb.phase++
			cb.arrived = 0
			cb.done, cb.vc = cb.vc, nil
			for _, u := range b.threads {
				if u.state == tsCluster {
					m.hbAcquire(u, cb.done)
					u.stack = append(u.stack, 0)
					u.state = tsRunning
					b.wakeups = true
				}
			}
		}
		return stDone
	}
	if t.clPhase == 0 || t.clPhase > cb.phase+1 {
		m.fault(t, pos, "C0315", "%s without a matching barrier.cluster.arrive", in.Op)
		return stFault
	}
	if t.clPhase <= cb.phase {
		m.hbAcquire(t, cb.done)
		return stDone
	}
	t.state, t.waitPos = tsCluster, pos
	return stBlocked
}

var _ = fmt.Sprintf
