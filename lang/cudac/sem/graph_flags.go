package sem

// Instantiation flags (Runtime API, cudaGraphInstantiateWithFlags and
// cudaGraphLaunch). cudaGraphInstantiateFlagAutoFreeOnLaunch makes a
// launch free the memory of the graph's allocation nodes that an earlier
// launch allocated and nothing freed since; without it such a launch
// "will fail with cudaErrorInvalidValue" (cudaGraphLaunch).
// cudaGraphInstantiateFlagUseNodePriority runs the nodes with their own
// priorities instead of the stream's, which changes no result here: the
// model runs a graph's nodes in one topological order whatever their
// priorities. cudaGraphInstantiateFlagDeviceLaunch (a graph launched from
// a kernel) is not modeled (C0309); it "cannot be used in conjunction
// with" AutoFreeOnLaunch, and cudaGraphInstantiateFlagUpload is "only
// supported by" cudaGraphInstantiateWithParams: both cudaErrorInvalidValue,
// as is any other bit.

const (
	instAutoFree     = 1
	instUpload       = 2
	instDeviceLaunch = 4
	instNodePriority = 8
)

// instantiateFlags is cudaGraphInstantiate's and
// cudaGraphInstantiateWithFlags': it stores in *pExec an executable copy
// of graph (graph_exec.go) that keeps flags.
func (m *Machine) instantiateFlags(t *Thread, pExec, graph, flags uint64, fn string, pos int32) (uint64, status) {
	g := m.graphOf(graph)
	if g == nil {
		return m.apiError(400), stDone
	}
	if flags&^(instAutoFree|instDeviceLaunch|instNodePriority) != 0 || flags&instAutoFree != 0 && flags&instDeviceLaunch != 0 {
		return m.apiError(1), stDone
	}
	if flags&instDeviceLaunch != 0 {
		m.fault(t, pos, "C0309", "%s with cudaGraphInstantiateFlagDeviceLaunch is not modeled: graphs are launched from the host only", fn)
		return 0, stFault
	}
	h := m.instantiate(g)
	m.graphs[h-1].flags = flags
	if !m.store(t, pExec, mU64, h, pos) {
		return 0, stFault
	}
	return ok(0)
}

// graphAllocFree lists the objects of g's allocation nodes (its
// conditional bodies' included) and the pointers its free nodes free.
func graphAllocFree(g *cudaGraph, allocs []*devOp, frees map[uint64]bool) []*devOp {
	for _, n := range g.nodes {
		for _, op := range n.ops {
			switch op.kind {
			case opAllocNode:
				allocs = append(allocs, op)
			case opFree:
				frees[op.dst>>32] = true
			}
		}
		for _, b := range n.bodies {
			allocs = graphAllocFree(b, allocs, frees)
		}
	}
	return allocs
}

// kept lists the allocation nodes of g whose memory g does not free.
func kept(g *cudaGraph) []*devOp {
	frees := map[uint64]bool{}
	var out []*devOp
	for _, op := range graphAllocFree(g, nil, frees) {
		if !frees[op.dst>>32] {
			out = append(out, op)
		}
	}
	return out
}

// unfreedAllocs reports whether memory that an issued launch of g
// allocates stays allocated once the work issued so far has run: the last
// operation issued on it, queued or done, decides (a launch of g
// allocates it; a cudaFreeAsync or a launched graph's free node frees it;
// with none queued, whether it is freed now).
func (m *Machine) unfreedAllocs(g *cudaGraph) bool {
	if !g.launched {
		return false
	}
	for _, a := range kept(g) {
		id := a.dst >> 32
		live, last := !m.objs[id].Freed, uint64(0)
		for _, s := range m.streams {
			for _, op := range s.queue {
				if uint64(op.seq) < last {
					continue
				}
				switch {
				case op.kind == opFree && op.dst>>32 == id:
					live, last = false, uint64(op.seq)
				case op.kind == opGraph && op.graph == g:
					live, last = true, uint64(op.seq)
				case op.kind == opGraph:
					frees := map[uint64]bool{}
					graphAllocFree(op.graph, nil, frees)
					if frees[id] {
						live, last = false, uint64(op.seq)
					}
				}
			}
		}
		if live {
			return true
		}
	}
	return false
}

// autoFree frees, when g was instantiated with
// cudaGraphInstantiateFlagAutoFreeOnLaunch and has run before, the memory
// of its allocation nodes still allocated, so that the allocation nodes
// of this launch allocate it afresh (runAllocNode, graph_mem.go).
func (m *Machine) autoFree(g *cudaGraph) {
	if g.flags&instAutoFree == 0 || g.runs == 0 {
		return
	}
	for _, a := range kept(g) {
		if o := m.objs[a.dst>>32]; !o.Freed {
			m.release(o)
		}
	}
}
