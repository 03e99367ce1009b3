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
	for i, n := range g.nodes {
		c := *n
		c.src = n
		e.add(&c, append([]int(nil), g.depsOf(i)...))
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

func initGraphExec() {
	for name, v := range map[string]int64{"cudaGraphExecUpdateSuccess": 0, "cudaGraphExecUpdateError": 1,
		"cudaGraphExecUpdateErrorTopologyChanged": 2, "cudaGraphExecUpdateErrorNodeTypeChanged": 3,
		"cudaErrorGraphExecUpdateFailure": 910} {
		namedConsts[name] = v
	}
	builtinTypedefs["cudaGraphExecUpdateResult"] = tInt
	builtinTypedefs["cudaGraphExecUpdateResultInfo"] = tGraphExecUpdateResultInfo
	cudaErrors[910], cudaErrorText[910] = "cudaErrorGraphExecUpdateFailure", "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update"
	for name, s := range map[string]*bsig{
		"cudaGraphExecKernelNodeSetParams": sig(tInt, hostSide, tLong, tLong, tAny),
		// CUDA 12 and 13: (exec, graph, cudaGraphExecUpdateResultInfo*);
		// CUDA 11's (exec, graph, errorNode*, result*) is an inline
		// wrapper of it in CUDA 13's cuda_runtime.h
		"cudaGraphExecUpdate": sig(tInt, hostSide, tLong, tLong, tAny).va(),
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
		// CUDA Runtime API, cudaGraphExecUpdate: the result is
		// cudaGraphExecUpdateErrorTopologyChanged when "the count of nodes
		// directly in hGraphExec and hGraph differ" (errorNode NULL) or a
		// node's dependencies differ from its pair's (errorNode: the node
		// of hGraph), cudaGraphExecUpdateErrorNodeTypeChanged when a
		// node's type changed (errorNode: the node of hGraph). The nodes
		// are paired in the order they were added. (An H100 printed
		// another result for this test's earlier form, which read the
		// result in the same call's argument list as the update: g++
		// evaluates those right to left, so it printed the previous
		// value; testdata/graph_more.cu now reads it after the call.)
		e, g := m.graphOf(a[0]), m.graphOf(a[1])
		if e == nil || g == nil {
			return m.apiError(400), stDone
		}
		res, errNode, errFrom := uint64(0), uint64(0), uint64(0)
		if len(e.nodes) != len(g.nodes) {
			res = 2
		} else {
			for i := range g.nodes {
				if !sameShape(e.nodes[i], g.nodes[i]) {
					res, errNode = 3, uint64(m.nodeHandle(g.nodes[i]))
					break
				}
			}
			if res == 0 {
				for i := range g.nodes {
					x, y := e.depsOf(i), g.depsOf(i)
					if len(x) != len(y) {
						res, errNode = 2, uint64(m.nodeHandle(g.nodes[i]))
						break
					}
					for k := range x {
						if x[k] != y[k] {
							res, errNode, errFrom = 2, uint64(m.nodeHandle(g.nodes[i])), uint64(m.nodeHandle(g.nodes[y[k]]))
							break
						}
					}
					if res != 0 {
						break
					}
				}
			}
		}
		if len(a) >= 4 {
			// the CUDA 11 form: errorNode*, result*
			if a[3] != 0 && !m.store(t, a[3], mI32, res, pos) {
				return 0, stFault
			}
			if a[2] != 0 && !m.store(t, a[2], mU64, errNode, pos) {
				return 0, stFault
			}
		} else if a[2] != 0 {
			f := func(name string) uint64 { return a[2] + uint64(tGraphExecUpdateResultInfo.field(name).Offset) }
			if !m.store(t, f("result"), mI32, res, pos) || !m.store(t, f("errorNode"), mU64, errNode, pos) ||
				!m.store(t, f("errorFromNode"), mU64, errFrom, pos) {
				return 0, stFault
			}
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

var tGraphExecUpdateResultInfo *Type

// initTGraphExecUpdateResultInfo builds tGraphExecUpdateResultInfo (tables.go).
func initTGraphExecUpdateResultInfo() {
	tGraphExecUpdateResultInfo = structOf("cudaGraphExecUpdateResultInfo", "result", tInt, "errorNode", tLong, "errorFromNode", tLong)
}
