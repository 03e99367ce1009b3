package sem

import (
	"weft.dev/weft/gpu"
)

// CUDA graphs with conditional nodes (CUDA Programming Guide, "CUDA Graphs",
// "Conditional Graph Nodes"): cudaGraphCreate, cudaGraphAddKernelNode (the
// arguments are copied when the node is added), cudaGraphAddNode with a
// conditional (IF or WHILE) node, whose body graph it returns through
// phGraph_out, cudaGraphConditionalHandleCreate, cudaGraphInstantiate,
// cudaGraphLaunch and device-side cudaGraphSetConditional.
//
// A launch is one stream operation: when the stream reaches it, every
// handle created with cudaGraphCondAssignDefault in the graph or its
// bodies takes its default value (CUDA applies the default when the graph
// is launched, not each time a nested conditional node is reached), then
// the nodes run, one after another in a topological order of the graph's
// edges (graph_order.go); a WHILE node runs its body while its handle is
// non-zero, an IF node once if it is.
//
// For the race detector the order of the run is only one schedule: a node
// is ordered after exactly the nodes it has a path from (CUDA Programming
// Guide, "CUDA Graphs", "Graph Structure": the edges are the dependencies,
// and nodes without a path between them may run concurrently), after the
// launching stream's earlier work and the launch's previous launches, and
// before the stream's later work (graph_order.go).

type graphNode struct {
	fn         *Function
	gdim, bdim gpu.Dim3
	shmem      int
	args       [][]byte // parameter bytes, copied when the node was added
	cond       *condHandle
	condType   int          // 0: IF, 1: WHILE
	body       *cudaGraph   // bodies[0]
	bodies     []*cudaGraph // IF: then[, else]; WHILE: the body; SWITCH: one per value
	pos        int32
	// ops: a node of another kind (graph_more.go): stream operations run
	// in order, each like the stream operation it stands for
	ops   []*devOp
	empty bool
	src   *graphNode // in an executable graph: the node it was copied from (graph_exec.go)
}

type cudaGraph struct {
	nodes []*graphNode
	// deps[i] are the indices in nodes of node i's dependencies (its
	// incoming edges), in the order they were added
	deps    [][]int
	handles []*condHandle
	// of an executable graph (graph_order.go): the vector clock at the end
	// of its last launch, and the race detector's agent of each node
	done   []int32
	agents map[*graphNode]int32
	tail   map[int32]*graphNode // the last node given each agent (agentOf)
	// at is the index of each node in nodes; of a clone, cloneOf maps
	// each node of the original to its copy (graph_more.go)
	at      map[*graphNode]int
	cloneOf map[*graphNode]*graphNode
	// of an executable graph (graph_flags.go): its instantiation flags,
	// whether cudaGraphLaunch has issued it, and how many launches ran
	flags    uint64
	launched bool
	runs     int
}

type condHandle struct {
	value, def uint32
	assignDef  bool
}

var (
	tKernelNodeParams = structOf("cudaKernelNodeParams", "func", tVoidP, "gridDim", tDim3, "blockDim", tDim3,
		"sharedMemBytes", tUInt, "kernelParams", tVoidPP, "extra", tVoidPP)
	tCondNodeParams = structOf("cudaConditionalNodeParams", "handle", tULLong, "type", tInt, "size", tUInt,
		"phGraph_out", ptrTo(tLong), "ctx", tLong)
	tGraphNodeParams = func() *Type {
		t := structOf("cudaGraphNodeParams", "type", tInt, "reserved0", arrayOf(tInt, 3),
			"conditional", tCondNodeParams, "reserved1", arrayOf(tLLong, 24), "reserved2", tLLong)
		// the node's parameters are a union: kernel shares conditional's
		// offset (graph_more.go adds kernel nodes through cudaGraphAddNode)
		t.Fields = append(t.Fields, &FieldInfo{Name: "kernel", Type: tKernelNodeParams, Offset: t.field("conditional").Offset})
		return t
	}()
)

const (
	graphNodeConditional        = 13
	condTypeIf                  = 0
	condTypeWhile               = 1
	condTypeSwitch              = 2
	opGraph              opKind = 100 // a devOp kind: a graph launch
)

func initGraph() {
	for name, t := range map[string]*Type{"cudaGraph_t": tLong, "cudaGraphExec_t": tLong, "cudaGraphNode_t": tLong,
		"cudaGraphConditionalHandle": tULLong, "cudaKernelNodeParams": tKernelNodeParams,
		"cudaGraphNodeParams": tGraphNodeParams, "cudaConditionalNodeParams": tCondNodeParams,
		"cudaGraphNodeType": tInt, "cudaGraphConditionalNodeType": tInt} {
		builtinTypedefs[name] = t
	}
	for name, v := range map[string]int64{"cudaGraphNodeTypeKernel": 0, "cudaGraphNodeTypeEmpty": 5,
		"cudaGraphNodeTypeConditional": graphNodeConditional, "cudaGraphCondTypeIf": condTypeIf,
		"cudaGraphCondTypeWhile": condTypeWhile, "cudaGraphCondTypeSwitch": 2, "cudaGraphCondAssignDefault": 1,
		"cudaGraphInstantiateFlagAutoFreeOnLaunch": instAutoFree, "cudaGraphInstantiateFlagUpload": instUpload,
		"cudaGraphInstantiateFlagDeviceLaunch": instDeviceLaunch, "cudaGraphInstantiateFlagUseNodePriority": instNodePriority} {
		namedConsts[name] = v
	}
	for name, s := range map[string]*bsig{
		"cudaGraphCreate":                  sig(tInt, hostSide, tAny, tUInt),
		"cudaGraphDestroy":                 sig(tInt, hostSide, tLong),
		"cudaGraphAddKernelNode":           sig(tInt, hostSide, tAny, tLong, tAny, tULong, tAny),
		"cudaGraphAddNode":                 sig(tInt, hostSide, tAny, tLong, tAny, tAny, tAny).va(),
		"cudaGraphConditionalHandleCreate": sig(tInt, hostSide, tAny, tLong, tUInt, tUInt).def(0, 0),
		"cudaGraphInstantiate":             sig(tInt, hostSide, tAny, tLong, tAny, tAny, tULLong).def(0, 0, 0), // CUDA 12: (exec, graph, flags); 11: (exec, graph, errNode, logBuf, bufSize)
		"cudaGraphInstantiateWithFlags":    sig(tInt, hostSide, tAny, tLong, tULLong),
		"cudaGraphLaunch":                  sig(tInt, hostSide, tLong, tLong),
		"cudaGraphExecDestroy":             sig(tInt, hostSide, tLong),
		"cudaGraphSetConditional":          sig(tVoid, deviceSide, tULLong, tUInt),
	} {
		builtinSigs[name] = s
	}
	defb("cudaGraphCreate", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		m.graphs = append(m.graphs, &cudaGraph{})
		if !m.store(t, a[0], mU64, uint64(len(m.graphs)), pos) {
			return 0, stFault
		}
		return ok(0)
	})
	noop := func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if m.graphOf(a[0]) == nil {
			return m.apiError(400), stDone
		}
		return ok(0)
	}
	defb("cudaGraphDestroy", noop)
	defb("cudaGraphExecDestroy", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		g := m.graphOf(a[0])
		if g == nil {
			return m.apiError(400), stDone
		}
		m.releaseGraphMem(g) // graph_mem.go
		return ok(0)
	})
	defb("cudaGraphInstantiate", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// CUDA 12/13's third argument is the flags; CUDA 11's an error
		// node pointer (NULL or an object's address, never below 1<<32 in
		// the model), which takes no flags
		flags := uint64(0)
		if a[2] < 1<<32 && a[3] == 0 && a[4] == 0 {
			flags = a[2]
		}
		return m.instantiateFlags(t, a[0], a[1], flags, "cudaGraphInstantiate", pos) // graph_flags.go
	})
	defb("cudaGraphInstantiateWithFlags", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return m.instantiateFlags(t, a[0], a[1], a[2], "cudaGraphInstantiateWithFlags", pos)
	})
	defb("cudaGraphConditionalHandleCreate", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		g := m.graphOf(a[1])
		if g == nil || a[3] > 1 {
			return m.apiError(1), stDone
		}
		h := &condHandle{def: uint32(a[2]), assignDef: a[3] == 1}
		if h.assignDef {
			h.value = h.def
		}
		m.conds = append(m.conds, h)
		g.handles = append(g.handles, h)
		if !m.store(t, a[0], mU64, uint64(len(m.conds)), pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaGraphAddKernelNode", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		g := m.graphOf(a[1])
		if g == nil {
			return m.apiError(400), stDone
		}
		n, st := m.kernelNode(t, a[4], pos)
		if n == nil {
			return 0, st
		}
		return m.addNodeDeps(t, g, n, a[0], a[2], a[3], pos)
	})
}

// kernelNode makes a kernel node from the cudaKernelNodeParams at p (the
// arguments copied now, as CUDA does); nil and the status on a fault.
func (m *Machine) kernelNode(t *Thread, p uint64, pos int32) (*graphNode, status) {
	{
		b, good := m.resolve(t, p, tKernelNodeParams.size, pos, false, true)
		if !good {
			return nil, stFault
		}
		field := func(name string, size int) uint64 { return loadN(b[tKernelNodeParams.field(name).Offset:], size) }
		fn, _, isFn := m.funcOfPtr(field("func", 8))
		if !isFn || fn == nil || !fn.Global {
			m.fault(t, pos, "C0607", "cudaGraphAddKernelNode: kernelNodeParams.func is not a __global__ function")
			return nil, stFault
		}
		dim := func(name string) gpu.Dim3 {
			o := tKernelNodeParams.field(name).Offset
			return gpu.Dim3{X: int(loadN(b[o:], 4)), Y: int(loadN(b[o+4:], 4)), Z: int(loadN(b[o+8:], 4))}
		}
		n := &graphNode{fn: fn, gdim: dim("gridDim"), bdim: dim("blockDim"), shmem: int(field("sharedMemBytes", 4)), pos: pos}
		params := field("kernelParams", 8)
		for k, pt := range fn.Type.Params {
			pp, good := m.resolve(t, params+uint64(8*k), 8, pos, false, true)
			if !good {
				return nil, stFault
			}
			v, good := m.resolve(t, loadN(pp, 8), pt.size, pos, false, true)
			if !good {
				return nil, stFault
			}
			n.args = append(n.args, append([]byte(nil), v...))
		}
		return n, stDone
	}
}

func initGraph2() {
	defb("cudaGraphAddNode", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// CUDA 13 has (node, graph, deps, edgeData, numDeps, params), 12
		// (node, graph, deps, numDeps, params): the params are last
		g := m.graphOf(a[1])
		if g == nil {
			return m.apiError(400), stDone
		}
		pp := a[len(a)-1]
		deps, nd := a[2], a[3] // CUDA 12
		if len(a) >= 6 {
			nd = a[4] // CUDA 13: edgeData (only default edges are modeled) before numDeps
		}
		b, good := m.resolve(t, pp, tGraphNodeParams.size, pos, false, true)
		if !good {
			return 0, stFault
		}
		if typ := int32(loadN(b, 4)); typ == 0 {
			// a kernel node (cudaGraphNodeTypeKernel)
			n, st := m.kernelNode(t, pp+uint64(tGraphNodeParams.field("kernel").Offset), pos)
			if n == nil {
				return 0, st
			}
			return m.addNodeDeps(t, g, n, a[0], deps, nd, pos)
		} else if typ != graphNodeConditional {
			m.fault(t, pos, "C0609", "cudaGraphAddNode of node type %d: only kernel and conditional nodes are modeled", typ)
			return 0, stFault
		}
		co := tGraphNodeParams.field("conditional").Offset
		field := func(name string, size int) uint64 {
			return loadN(b[co+tCondNodeParams.field(name).Offset:], size)
		}
		h := int(field("handle", 8))
		ct := int(int32(field("type", 4)))
		// IF has one body (then) or two (then, else), WHILE one, SWITCH
		// size bodies: the one the handle's value indexes runs
		size := int(field("size", 4))
		if h < 1 || h > len(m.conds) || ct < condTypeIf || ct > condTypeSwitch || size < 1 ||
			ct == condTypeWhile && size != 1 || ct == condTypeIf && size > 2 || size > 1<<16 {
			return m.apiError(1), stDone
		}
		n := &graphNode{cond: m.conds[h-1], condType: ct, pos: pos}
		// phGraph_out points at CUDA-owned storage holding the body graphs
		out := m.newObject(8*size, SpaceHost, "phGraph_out", pos)
		for i := 0; i < size; i++ {
			m.graphs = append(m.graphs, &cudaGraph{})
			n.bodies = append(n.bodies, m.graphs[len(m.graphs)-1])
			storeN(out.Data[8*i:], 8, uint64(len(m.graphs)))
		}
		n.body = n.bodies[0]
		if out.init != nil {
			out.init.setAll()
		}
		if !m.store(t, pp+uint64(co+tCondNodeParams.field("phGraph_out").Offset), mU64, ptrOf(out, 0), pos) {
			return 0, stFault
		}
		return m.addNodeDeps(t, g, n, a[0], deps, nd, pos)
	})
	defb("cudaGraphLaunch", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		g := m.graphOf(a[0])
		s := m.streamOf(a[1])
		if g == nil || s == nil {
			return m.apiError(400), stDone
		}
		if m.unfreedAllocs(g) && g.flags&instAutoFree == 0 { // graph_flags.go
			return m.apiError(1), stDone
		}
		g.launched = true
		m.enqueue(s, &devOp{kind: opGraph, graph: g, pos: pos})
		return ok(0)
	})
	defb("cudaGraphSetConditional", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[0] < 1 || a[0] > uint64(len(m.conds)) {
			m.fault(t, pos, "C0607", "cudaGraphSetConditional on an invalid handle %d", a[0])
			return 0, stFault
		}
		m.conds[a[0]-1].value = uint32(a[1])
		return ok(0)
	})
}

func (m *Machine) graphOf(h uint64) *cudaGraph {
	if h < 1 || h > uint64(len(m.graphs)) {
		return nil
	}
	return m.graphs[h-1]
}

// addNode adds n to g after the nodes of g at indices deps and stores its
// handle at out.
func (m *Machine) addNode(t *Thread, g *cudaGraph, n *graphNode, deps []int, out uint64, pos int32) (uint64, status) {
	g.add(n, deps)
	m.nodes = append(m.nodes, n)
	if !m.store(t, out, mU64, uint64(len(m.nodes)), pos) {
		return 0, stFault
	}
	return ok(0)
}

// applyDefaults sets every handle of g and its bodies to its default.
func applyDefaults(g *cudaGraph) {
	for _, h := range g.handles {
		if h.assignDef {
			h.value = h.def
		}
	}
	for _, n := range g.nodes {
		for _, b := range n.bodies {
			applyDefaults(b)
		}
	}
}

// cudaLaunchCooperativeKernel(func, gridDim, blockDim, args, sharedMem,
// stream): a launch whose blocks may synchronize with grid.sync()
// (gridsync.go); the arguments are read through the void* array as for a
// graph's kernel node.
func initGraph3() {
	builtinSigs["cudaLaunchCooperativeKernel"] = sig(tInt, hostSide, tAny, tDim3, tDim3, tAny, tULong, tLong).def(0, 0)
	defb("cudaLaunchCooperativeKernel", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		fn, _, isFn := m.funcOfPtr(a[0])
		if !isFn || fn == nil || !fn.Global {
			return m.apiError(98), stDone // cudaErrorInvalidDeviceFunction
		}
		args := make([]uint64, 0, 8+len(fn.Type.Params))
		for _, d := range a[1:3] {
			b, good := m.resolve(t, d, 12, pos, false, true)
			if !good {
				return 0, stFault
			}
			args = append(args, loadN(b, 4), loadN(b[4:], 4), loadN(b[8:], 4))
		}
		args = append(args, a[4], a[5])
		for k, pt := range fn.Type.Params {
			pp, good := m.resolve(t, a[3]+uint64(8*k), 8, pos, false, true)
			if !good {
				return 0, stFault
			}
			p := loadN(pp, 8)
			if pt.Kind == Struct {
				args = append(args, p) // launch copies the bytes
				continue
			}
			v, good := m.resolve(t, p, pt.size, pos, false, true)
			if !good {
				return 0, stFault
			}
			args = append(args, fromMem(memCode(pt), loadN(v, pt.size)))
		}
		m.nextLaunch = launchExtra{set: true, cooperative: true}
		if !m.launch(t, fn, args, pos) {
			return 0, stFault
		}
		e := m.launchErr
		m.launchErr = 0
		return ok(uint64(e))
	})
}
