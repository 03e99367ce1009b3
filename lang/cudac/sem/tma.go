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

// tmaSpoilt marks a CUtensorMap that a failed cuTensorMapEncodeTiled
// wrote to. The driver does not leave the object as it was: on an H100
// (driver 580) a failed encode over a valid map changes its bytes, and a
// copy through it then never completes its mbarrier transaction, so the
// kernel hangs (bench/gpu/cudac.sh, stop 24). The semantics keeps the
// failed call's position in the map and reports the copy (C0315) instead
// of computing with the old descriptor.
const tmaSpoilt = 0x4c494f5053465700 // "\0WFSPOIL"

type tensorMap struct {
	rank, dtype, elem int
	swizzle, oobNaN   int
	base              uint64
	dims              [5]uint64
	strides           [5]uint64 // bytes; strides[0] = elem
	box, estr         [5]int
}

var tmaElem map[int]int

// initTmaElem builds tmaElem (tables.go).
func initTmaElem() {
	tmaElem = map[int]int{0: 1, 1: 2, 2: 4, 3: 4, 4: 8, 5: 8, 6: 2, 7: 4, 8: 8, 9: 2, 10: 4, 11: 4, 12: 4}
}

func initTma() {
	driverEntryPoints["cuTensorMapEncodeTiled"] = "cuTensorMapEncodeTiled"
	defb("cuTensorMapEncodeTiled", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if len(a) != 12 {
			m.fault(t, pos, "C0607", "cuTensorMapEncodeTiled takes 12 arguments, not %d", len(a))
			return 0, stFault
		}
		// invalid is CUDA_ERROR_INVALID_VALUE: the map is left spoilt.
		const invalid = 1
		fail := func() (uint64, status) {
			b, good := m.resolveA(t, a[0], 128, pos, true, false, false)
			if !good {
				return 0, stFault
			}
			clear(b[:128])
			storeN(b, 8, tmaSpoilt)
			storeN(b[8:], 8, uint64(uint32(pos)))
			m.mver++
			return invalid, stDone
		}
		tm := tensorMap{dtype: int(a[1]), rank: int(a[2]), base: a[3], swizzle: [4]int{0, 32, 64, 128}[a[9]&3], oobNaN: int(a[11])}
		e, known := tmaElem[tm.dtype]
		if !known || tm.rank < 1 || tm.rank > 5 || a[8] != 0 || a[9] > 3 {
			return fail()
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
			return fail()
		}
		tm.strides[0] = uint64(e)
		for d := 0; d < tm.rank; d++ {
			if dims[d] < 1 || dims[d] > 1<<32 || box[d] < 1 || box[d] > 256 || estr[d] < 1 || estr[d] > 8 {
				return fail()
			}
			tm.dims[d], tm.box[d], tm.estr[d] = dims[d], int(box[d]), int(estr[d])
			if d > 0 {
				if s := strides[d-1]; s%16 != 0 || s >= 1<<40 {
					return fail()
				}
				tm.strides[d] = strides[d-1]
			}
		}
		if inner := tm.box[0] * e; inner%16 != 0 || tm.swizzle != 0 && inner > tm.swizzle {
			return fail()
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
	if w[0] == tmaSpoilt {
		m.fault(t, pos, "C0315", "the tensor map at %s was spoilt by the failed cuTensorMapEncodeTiled at %s (it returned CUDA_ERROR_INVALID_VALUE): on a GPU this copy never completes", m.describePtr(p), m.pos(int32(w[1])))
		return nil, false
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
		// .multicast::cluster (ptx.md §5.1): the box lands at the same
		// offset in every CTA of the mask, and each one's mbarrier at the
		// same offset receives the bytes; without it, in t's CTA
		ranks := []uint64{0}
		if len(in.Args) == 4 {
			mask := uint16(st.read(t, in.Args[3]))
			ranks = ranks[:0]
			for r := uint64(0); r < 16; r++ {
				if mask&(1<<r) != 0 {
					if t.peer(r) == nil {
						m.fault(t, pos, "C0405", "%s: the CTA mask 0x%x names rank %d, which is not in the cluster of %d CTAs", in.Op, mask, r, t.clusterSize())
						return stFault
					}
					ranks = append(ranks, r+1)
				}
			}
		}
		if saddr>>clusterRankShift != 0 && len(in.Args) == 4 {
			saddr &= 1<<clusterRankShift - 1 // a multicast destination is an offset
		}
		for _, r := range ranks {
			if s := m.tmaLoadInto(t, st, in, tm, c, saddr|r<<clusterRankShift, pos); s != stDone {
				return s
			}
		}
		return stDone
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

// tmaLoadInto writes the box at coordinates c into the shared memory at
// window address saddr (a shared::cluster address for a multicast
// destination) and completes its bytes on the mbarrier at the same offset
// in that CTA (ptx.md §5.1).
func (m *Machine) tmaLoadInto(t *Thread, st *asmState, in *ptx.Inst, tm *tensorMap, c []int64, saddr uint64, pos int32) status {
	e := tm.elem
	sptr := func(i int) (uint64, bool) {
		r := saddr &^ (1<<clusterRankShift - 1)
		return m.sharedPtr32(t, r|ptx.Swizzle(saddr&(1<<clusterRankShift-1)+uint64(i*e), tm.swizzle), pos)
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
	bar := (st.read(t, *in.Args[2].Base) + uint64(in.Args[2].Imm)) & 0xffffffff
	if r := saddr >> clusterRankShift; r != 0 {
		bar = bar&(1<<clusterRankShift-1) | r<<clusterRankShift
	}
	if p, good := m.sharedPtr32(t, bar, pos); good {
		if mb := m.ownerOf(t, p).mbars[p]; mb != nil {
			m.mbarInitVisible(t, mb, pos)
		}
	}
	return m.mbarTxAt(t, bar, -tm.boxBytes(), pos)
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
	return m.mbarTxAt(t, (st.read(t, *o.Base)+uint64(o.Imm))&0xffffffff, tx, pos)
}

// mbarTxAt is mbarTx of the mbarrier at window address a, which may be a
// shared::cluster address of another CTA's mbarrier (multicast).
func (m *Machine) mbarTxAt(t *Thread, a uint64, tx int, pos int32) status {
	p, good := m.sharedPtr32(t, a, pos)
	if !good {
		return stFault
	}
	b := m.ownerOf(t, p)
	mb := b.mbars[p]
	if mb == nil {
		m.fault(t, pos, "C0315", "transaction bytes for an mbarrier that was not initialized")
		return stFault
	}
	mb.tx += tx
	if tx < 0 {
		mb.vc = m.hbRelease(t, mb.vc)
	}
	if mb.pending <= 0 && mb.tx == 0 {
		m.mbarComplete(b, p, mb)
	}
	return stDone
}

// clusterBar is the state of barrier.cluster (cluster.go): the phase, the
// arrivals in it, and the releases of the current and last phase.
type clusterBar struct {
	phase, arrived int
	vc, done       []int32
}

var _ = fmt.Sprintf
