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
//
// The device's graph memory attributes count physical memory, which a
// node's creation does not take: "CUDA assigns virtual addresses for the
// graph allocation at node creation time" (Programming Guide, "Graph
// Memory Nodes"), and an upload or launch of the executable graph "uses
// memory cached by stream to back the allocations owned by graphExec"
// (Runtime API, cudaGraphUpload; cudaGraphLaunch). The used memory is the
// backing of the executable graphs launched or uploaded so far (it stays
// with the graph between launches), the reserved memory what the
// allocator holds: the used memory, and what it held before until
// cudaDeviceGraphMemTrim ("Blocks which are not in use by a graph that is
// either currently executing or scheduled to execute are freed back to
// the operating system").
//
// Two rules the documentation does not give come from an H100 (CUDA 13.0,
// driver 580; bench/gpu/cudac.sh, stop 31's GPU run, cases graph_more_03
// and graph_race_07):
//   - the backing is physical memory mapped in units of graphMemUnit,
//     32 MiB: one allocation node of 128 or of 256 bytes made both
//     attributes 33554432, so a graph's backing is its allocation nodes'
//     bytes rounded up to that unit;
//   - cudaGraphExecDestroy does not unmap the backing: the H100 still
//     reported it used (and reserved) after the destroy, and reserved 0
//     after cudaDeviceGraphMemTrim. The model keeps a destroyed graph's
//     backing used until a trim, or until a graph backed later takes it
//     over (the allocator's cache, which is what it is for).
// An H100 reported 0 bytes used after the nodes were created and before
// an upload or launch, as the model does (bench/gpu/README.md).

// graphMemUnit is the granularity of the physical memory backing graph
// allocations, as an H100 showed it (above).
const graphMemUnit = 32 << 20

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
	backed   map[*cudaGraph]uint64 // executable graph -> the bytes backing its allocations
	orphan   uint64                // the backing of destroyed graphs, still mapped until a trim
	reserved uint64
	high     uint64 // high-water mark of the used memory
	resHigh  uint64 // of the reserved memory
}

func (m *Machine) gmemState() *graphMem {
	r := m.rt()
	if r.gmem == nil {
		r.gmem = &graphMem{backed: map[*cudaGraph]uint64{}}
	}
	return r.gmem
}

// graphMemUsed is the memory backing the allocations of launched
// executable graphs; it updates the reserved amount and the marks.
func (m *Machine) graphMemUsed() uint64 {
	gm := m.gmemState()
	n := gm.orphan
	for _, b := range gm.backed {
		n += b
	}
	gm.reserved = max(gm.reserved, n)
	gm.high = max(gm.high, n)
	gm.resHigh = max(gm.resHigh, gm.reserved)
	return n
}

// allocBytes is the size of g's allocation nodes, its bodies' included.
func allocBytes(g *cudaGraph) uint64 {
	n := uint64(0)
	for _, nd := range g.nodes {
		for _, op := range nd.ops {
			if op.kind == opAllocNode {
				n += uint64(op.n)
			}
		}
		for _, b := range nd.bodies {
			n += allocBytes(b)
		}
	}
	return n
}

// backGraphMem backs the allocations of executable graph g at its first
// launch.
func (m *Machine) backGraphMem(g *cudaGraph) {
	gm := m.gmemState()
	if _, ok := gm.backed[g]; ok {
		return
	}
	if b := allocBytes(g); b > 0 {
		b = (b + graphMemUnit - 1) / graphMemUnit * graphMemUnit
		take := min(b, gm.orphan) // what destroyed graphs left mapped
		gm.orphan -= take
		gm.backed[g] = b
		m.graphMemUsed()
	}
}

// releaseGraphMem is cudaGraphExecDestroy's: the backing stays mapped,
// used, until a trim or a later graph takes it.
func (m *Machine) releaseGraphMem(g *cudaGraph) {
	if gm := m.rt().gmem; gm != nil {
		gm.orphan += gm.backed[g]
		delete(gm.backed, g)
	}
}

// allocNodeOp makes the allocation of an allocation node: a device object
// of n bytes whose pointer the node keeps.
func (m *Machine) allocNodeOp(n uint64, pos int32) *devOp {
	o := m.newObject(int(n), SpaceDevice, "", pos)
	o.Heap = true
	p := ptrOf(o, 0)
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
}

func initGraphMem() {
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
		return m.addNodeDeps(t, g, &graphNode{ops: []*devOp{op}, pos: pos}, a[0], a[2], a[3], pos)
	})
	defb("cudaGraphAddMemFreeNode", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		g := m.graphOf(a[1])
		if g == nil {
			return m.apiError(400), stDone
		}
		if a[4]>>32 >= uint64(len(m.objs)) || uint32(a[4]) != 0 || !m.objs[a[4]>>32].Heap || m.objs[a[4]>>32].Space != SpaceDevice {
			return m.apiError(1), stDone
		}
		return m.addNodeDeps(t, g, &graphNode{ops: []*devOp{{kind: opFree, dst: a[4], pos: pos}}, pos: pos}, a[0], a[2], a[3], pos)
	})
	defb("cudaDeviceGetGraphMemAttribute", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[0] != 0 {
			return m.apiError(101), stDone
		}
		used := m.graphMemUsed()
		gm := m.gmemState()
		var v uint64
		switch a[1] {
		case 0:
			v = used
		case 1:
			v = gm.high
		case 2:
			v = gm.reserved
		case 3:
			v = gm.resHigh
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
		gm := m.gmemState()
		if a[1] == 1 {
			gm.high = used
		} else {
			gm.resHigh = gm.reserved
		}
		return ok(0)
	})
	defb("cudaDeviceGraphMemTrim", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[0] != 0 {
			return m.apiError(101), stDone
		}
		gm := m.gmemState()
		gm.orphan = 0
		gm.reserved = m.graphMemUsed() // what no executable graph uses
		return ok(0)
	})
}
