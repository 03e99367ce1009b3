package sem

// Executable graphs (CUDA Runtime API, "Graph Management"):
// cudaGraphInstantiate copies the graph's nodes, so that
// cudaGraphExecKernelNodeSetParams can give one kernel node of the
// executable graph new parameters and cudaGraphExecUpdate can replace
// them all by those of a graph of the same topology, without touching the
// graph they came from (nor other executable graphs of it). Each copy
// remembers its node in the source graph, which is how these calls name
// it.

// instantiate makes an executable copy of g and returns its handle.
func (m *Machine) instantiate(g *cudaGraph) uint64 {
	e := &cudaGraph{handles: g.handles}
	for _, n := range g.nodes {
		c := *n
		c.src = n
		e.nodes = append(e.nodes, &c)
	}
	m.graphs = append(m.graphs, e)
	return uint64(len(m.graphs))
}

// sameShape reports whether two nodes are of one kind (kernel, operations
// of the same kinds, conditional, empty), which cudaGraphExecUpdate needs.
func sameShape(x, y *graphNode) bool {
	if (x.fn == nil) != (y.fn == nil) || (x.body == nil) != (y.body == nil) || x.empty != y.empty || len(x.ops) != len(y.ops) {
		return false
	}
	for i := range x.ops {
		if x.ops[i].kind != y.ops[i].kind {
			return false
		}
	}
	return x.body == nil || x.condType == y.condType
}

func init() {
	for name, v := range map[string]int64{"cudaGraphExecUpdateSuccess": 0, "cudaGraphExecUpdateError": 1,
		"cudaGraphExecUpdateErrorTopologyChanged": 2, "cudaGraphExecUpdateErrorNodeTypeChanged": 3,
		"cudaErrorGraphExecUpdateFailure": 910} {
		namedConsts[name] = v
	}
	builtinTypedefs["cudaGraphExecUpdateResult"] = tInt
	cudaErrors[910], cudaErrorText[910] = "cudaErrorGraphExecUpdateFailure", "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update"
	for name, s := range map[string]*bsig{
		"cudaGraphExecKernelNodeSetParams": sig(tInt, hostSide, tLong, tLong, tAny),
		// CUDA 11/12.0: (exec, graph, errorNode*, result*); CUDA 12.x
		// also has (exec, graph, cudaGraphExecUpdateResultInfo*), not modeled
		"cudaGraphExecUpdate": sig(tInt, hostSide, tLong, tLong, tAny, tAny),
	} {
		builtinSigs[name] = s
	}
	defb("cudaGraphExecKernelNodeSetParams", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		e := m.graphOf(a[0])
		if e == nil || a[1] < 1 || a[1] > uint64(len(m.nodes)) {
			return m.apiError(400), stDone
		}
		src := m.nodes[a[1]-1]
		for _, n := range e.nodes {
			if n.src == src && n.fn != nil {
				k, st := m.kernelNode(t, a[2], pos)
				if k == nil {
					return 0, st
				}
				k.src = src
				*n = *k
				return ok(0)
			}
		}
		return m.apiError(1), stDone // not a kernel node of this executable graph
	})
	defb("cudaGraphExecUpdate", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		e, g := m.graphOf(a[0]), m.graphOf(a[1])
		if e == nil || g == nil {
			return m.apiError(400), stDone
		}
		res := uint64(0)
		if len(e.nodes) != len(g.nodes) {
			res = 2
		} else {
			for i := range g.nodes {
				if !sameShape(e.nodes[i], g.nodes[i]) {
					res = 3
					break
				}
			}
		}
		if a[3] != 0 && !m.store(t, a[3], mI32, res, pos) {
			return 0, stFault
		}
		if a[2] != 0 && !m.store(t, a[2], mU64, 0, pos) {
			return 0, stFault
		}
		if res != 0 {
			return m.apiError(910), stDone
		}
		for i, n := range g.nodes {
			c := *n
			c.src = n
			*e.nodes[i] = c
		}
		e.handles = g.handles
		return ok(0)
	})
}
