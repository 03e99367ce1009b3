package sem

// Graph memory nodes (CUDA Programming Guide, "Graph Memory Nodes"):
// cudaGraphAddMemAllocNode, cudaGraphAddMemFreeNode, stream-ordered
// allocation inside a stream capture, and the device's graph memory
// attributes. The address an allocation node returns is fixed when the
// node is added (CUDA reserves it for the graph's lifetime); the memory
// is live from the allocation node's run to the free node's (or a
// cudaFree/cudaFreeAsync), and each launch allocates it afresh:
// uninitialized again, so a read before the graph writes it is reported
// under weft check, and a use after the free node is a use after free
// (C0404). Until its first run the memory exists, as the model's
// stream-ordered allocations do from their call on.

const opAllocNode opKind = 101 // a devOp kind: a graph allocation node

var (
	tMemPoolProps = structOf("cudaMemPoolProps", "allocType", tInt, "handleTypes", tInt, "location", tMemLocation,
		"win32SecurityAttributes", tVoidP, "maxSize", tULong, "usage", tUShort, "reserved", arrayOf(tUChar, 54))
	tMemAccessDesc      = structOf("cudaMemAccessDesc", "location", tMemLocation, "flags", tInt)
	tMemAllocNodeParams = structOf("cudaMemAllocNodeParams", "poolProps", tMemPoolProps, "accessDescs", ptrTo(tMemAccessDesc),
		"accessDescCount", tULong, "bytesize", tULong, "dptr", tVoidP)
)

// graphMem is the device's graph memory accounting (in rtState).
type graphMem struct {
	objs []uint64 // the allocations of graph allocation nodes (pointers)
	high uint64
}

func (m *Machine) graphMemUsed() uint64 {
	r := m.rt()
	if r.gmem == nil {
		r.gmem = &graphMem{}
	}
	n := uint64(0)
	for _, p := range r.gmem.objs {
		if o := m.objs[p>>32]; !o.Freed {
			n += uint64(len(o.Data))
		}
	}
	if n > r.gmem.high {
		r.gmem.high = n
	}
	return n
}

// allocNodeOp makes the allocation of an allocation node: a device object
// of n bytes whose pointer the node keeps.
func (m *Machine) allocNodeOp(n uint64, pos int32) *devOp {
	o := m.newObject(int(n), SpaceDevice, "", pos)
	o.Heap = true
	p := ptrOf(o, 0)
	r := m.rt()
	if r.gmem == nil {
		r.gmem = &graphMem{}
	}
	r.gmem.objs = append(r.gmem.objs, p)
	m.graphMemUsed()
	return &devOp{kind: opAllocNode, dst: p, n: int(n), pos: pos}
}

// runAllocNode allocates the memory of an allocation node again when a
// free node (or a free) released it: a new object under the same id.
func (m *Machine) runAllocNode(op *devOp) {
	id := op.dst >> 32
	if !m.objs[id].Freed {
		return
	}
	fresh := m.newObject(op.n, SpaceDevice, "", op.pos)
	if m.failed {
		return
	}
	fresh.Heap = true
	m.objs = m.objs[:len(m.objs)-1]
	fresh.ID = uint32(id)
	m.objs[id] = fresh
	m.graphMemUsed()
}

func init() {
	for name, t := range map[string]*Type{"cudaMemPoolProps": tMemPoolProps, "cudaMemAccessDesc": tMemAccessDesc,
		"cudaMemAllocNodeParams": tMemAllocNodeParams, "cudaGraphMemAttributeType": tInt, "cudaMemAllocationType": tInt,
		"cudaMemAllocationHandleType": tInt, "cudaMemAccessFlags": tInt} {
		builtinTypedefs[name] = t
	}
	for name, v := range map[string]int64{"cudaGraphMemAttrUsedMemCurrent": 0, "cudaGraphMemAttrUsedMemHigh": 1,
		"cudaGraphMemAttrReservedMemCurrent": 2, "cudaGraphMemAttrReservedMemHigh": 3,
		"cudaMemAllocationTypeInvalid": 0, "cudaMemAllocationTypePinned": 1, "cudaMemHandleTypeNone": 0,
		"cudaMemAccessFlagsProtNone": 0, "cudaMemAccessFlagsProtRead": 1, "cudaMemAccessFlagsProtReadWrite": 3,
		"cudaGraphNodeTypeMemAlloc": 10, "cudaGraphNodeTypeMemFree": 11} {
		namedConsts[name] = v
	}
	for name, s := range map[string]*bsig{
		"cudaGraphAddMemAllocNode":       sig(tInt, hostSide, tAny, tLong, tAny, tULong, tAny),
		"cudaGraphAddMemFreeNode":        sig(tInt, hostSide, tAny, tLong, tAny, tULong, tVoidP),
		"cudaDeviceGetGraphMemAttribute": sig(tInt, hostSide, tInt, tInt, tVoidP),
		"cudaDeviceSetGraphMemAttribute": sig(tInt, hostSide, tInt, tInt, tVoidP),
		"cudaDeviceGraphMemTrim":         sig(tInt, hostSide, tInt),
	} {
		builtinSigs[name] = s
	}
	defb("cudaGraphAddMemAllocNode", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		g := m.graphOf(a[1])
		if g == nil {
			return m.apiError(400), stDone
		}
		b, good := m.resolve(t, a[4], int(tMemAllocNodeParams.size), pos, false, true)
		if !good {
			return 0, stFault
		}
		f := func(name string) int { return tMemAllocNodeParams.field(name).Offset }
		pp := f("poolProps")
		lo := pp + tMemPoolProps.field("location").Offset
		size := loadN(b[f("bytesize"):], 8)
		if int32(loadN(b[pp:], 4)) != 1 || int32(loadN(b[lo:], 4)) != 1 || int32(loadN(b[lo+4:], 4)) != 0 || size == 0 || size >= 1<<31 {
			// pinned device memory of device 0 is what the model has
			return m.apiError(1), stDone
		}
		op := m.allocNodeOp(size, pos)
		if m.failed {
			return 0, stFault
		}
		if !m.store(t, a[4]+uint64(f("dptr")), mU64, op.dst, pos) {
			return 0, stFault
		}
		return m.addNodeDeps(t, g, &graphNode{ops: []*devOp{op}, pos: pos}, a, pos)
	})
	defb("cudaGraphAddMemFreeNode", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		g := m.graphOf(a[1])
		if g == nil {
			return m.apiError(400), stDone
		}
		if a[4]>>32 >= uint64(len(m.objs)) || uint32(a[4]) != 0 || !m.objs[a[4]>>32].Heap || m.objs[a[4]>>32].Space != SpaceDevice {
			return m.apiError(1), stDone
		}
		return m.addNodeDeps(t, g, &graphNode{ops: []*devOp{{kind: opFree, dst: a[4], pos: pos}}, pos: pos}, a, pos)
	})
	defb("cudaDeviceGetGraphMemAttribute", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[0] != 0 {
			return m.apiError(101), stDone
		}
		used := m.graphMemUsed()
		var v uint64
		switch a[1] {
		case 0, 2:
			v = used // reserved == used: the model keeps no spare memory
		case 1, 3:
			v = m.rt().gmem.high
		default:
			return m.apiError(1), stDone
		}
		if !m.store(t, a[2], mU64, v, pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaDeviceSetGraphMemAttribute", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[0] != 0 {
			return m.apiError(101), stDone
		}
		v, good := m.load(t, a[2], mU64, pos)
		if !good {
			return 0, stFault
		}
		if a[1] != 1 && a[1] != 3 || v != 0 {
			return m.apiError(1), stDone // only the high-water marks, reset to 0
		}
		used := m.graphMemUsed()
		m.rt().gmem.high = used
		return ok(0)
	})
	defb("cudaDeviceGraphMemTrim", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[0] != 0 {
			return m.apiError(101), stDone
		}
		return ok(0) // nothing is kept beyond what is used
	})
}
