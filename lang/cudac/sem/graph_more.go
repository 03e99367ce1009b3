package sem

// More of CUDA graphs (CUDA Programming Guide, "CUDA Graphs"; Runtime API
// "Graph Management", "Stream Management"): memcpy, memset, host and
// empty nodes added by hand, cudaGraphClone, cudaGraphGetNodes,
// cudaGraphAddDependencies, and stream capture. Such a node is the stream
// operations it stands for (a copy of a cudaMemcpy3DParms box is one
// stream copy per row, a memset of 2- or 4-byte elements copies the
// pattern), run when the graph is launched, as graph.go runs every node;
// a node is ordered after exactly the nodes it has a path from
// (graph_order.go).
//
// Stream capture (cudaStreamBeginCapture ... cudaStreamEndCapture):
// while a stream captures, what the program enqueues on it (kernel
// launches, copies, memsets, host functions) becomes nodes of the graph
// being captured instead of running; an event recorded in a capturing
// stream and waited on by another stream makes that stream capture into
// the same graph (a fork, joined back by the reverse wait), as CUDA does.
// Each capturing stream has a set of dependencies, the nodes its next
// node depends on (CUDA Runtime API, cudaStreamGetCaptureInfo: "the set of
// nodes the next node captured in the stream will depend on"): the node
// last captured in it, an event record takes the set along, and a wait
// for such an event adds the event's set. cudaStreamEndCapture returns
// the graph and ends the capture of every stream that joined it. The
// legacy default stream cannot be captured
// (cudaErrorStreamCaptureUnsupported).

var (
	tMemsetParams   = structOf("cudaMemsetParams", "dst", tVoidP, "pitch", tULong, "value", tUInt, "elementSize", tUInt, "width", tULong, "height", tULong)
	tHostNodeParams = structOf("cudaHostNodeParams", "fn", tVoidP, "userData", tVoidP)
)

// captureState is the stream capture in progress (in rtState).
type captureState struct {
	streams map[*stream]*cudaGraph
	events  map[*event]*cudaGraph // recorded in a capturing stream
	// the dependencies of the next node captured in a stream, and those
	// an event recorded in a capturing stream carries
	deps   map[*stream][]*graphNode
	evDeps map[*event][]*graphNode
}

func (m *Machine) captures() *captureState {
	r := m.rt()
	if r.capture == nil {
		r.capture = &captureState{streams: map[*stream]*cudaGraph{}, events: map[*event]*cudaGraph{},
			deps: map[*stream][]*graphNode{}, evDeps: map[*event][]*graphNode{}}
	}
	return r.capture
}

// captured reports whether op, being enqueued on s, went into a graph
// being captured instead (exec.go enqueue).
func (m *Machine) captured(s *stream, op *devOp) bool {
	if m.libst == nil || m.libst.rt == nil || m.libst.rt.capture == nil {
		return false
	}
	c := m.libst.rt.capture
	g := c.streams[s]
	if op.kind == opWait && op.ev != nil {
		if eg := c.events[op.ev]; eg != nil {
			// the stream joins the capture of the event's graph, or adds
			// the event's dependencies to its own (a join)
			if g != eg {
				c.deps[s] = nil
			}
			c.streams[s] = eg
			c.deps[s] = unionNodes(c.deps[s], c.evDeps[op.ev])
			return true
		}
	}
	if g == nil {
		return false
	}
	switch op.kind {
	case opRecord:
		c.events[op.ev] = g
		c.evDeps[op.ev] = append([]*graphNode(nil), c.deps[s]...)
		if op.ev.pending == op {
			op.ev.pending = nil
		}
		return true
	case opWait:
		return true // an event from outside the capture: no dependency inside it
	case opKernel:
		op.grid.agent = -1 // never run itself: each graph launch runs a copy
	}
	m.captureNode(s, &graphNode{ops: []*devOp{op}, pos: op.pos})
	return true
}

// captureNode adds n to the graph s captures into, after the stream's
// dependencies, and makes n the stream's dependency.
func (m *Machine) captureNode(s *stream, n *graphNode) {
	c := m.captures()
	g := c.streams[s]
	var deps []int
	for _, d := range c.deps[s] {
		if i := g.index(d); i >= 0 {
			deps = append(deps, i)
		}
	}
	g.add(n, deps)
	m.nodes = append(m.nodes, n)
	c.deps[s] = []*graphNode{n}
}

// unionNodes is a followed by the nodes of b not in a.
func unionNodes(a, b []*graphNode) []*graphNode {
	out := append([]*graphNode(nil), a...)
	for _, x := range b {
		found := false
		for _, y := range a {
			found = found || x == y
		}
		if !found {
			out = append(out, x)
		}
	}
	return out
}

// runNodeOps runs the stream operations of a node on s.
func (m *Machine) runNodeOps(s *stream, ops []*devOp) {
	for _, op := range ops {
		if m.failed || m.exited {
			return
		}
		ctx := &accessCtx{agent: s.agent, clock: vcGet(s.vc, s.agent), vc: s.vc}
		switch op.kind {
		case opKernel:
			o := op.grid
			gr := &gridRun{fn: o.fn, gdim: o.gdim, bdim: o.bdim, shmem: o.shmem, args: o.args, cluster: o.cluster, cooperative: o.cooperative}
			gr.id = len(m.grids) + 1
			m.grids = append(m.grids, gr)
			gr.agent, gr.clock = ctx.agent, ctx.clock
			m.runGrid(gr, ctx)
			m.runChildren(gr, s) // cdp.go
		case opCopy:
			m.copyMem(&Thread{ctx: ctx}, op.dst, op.src, op.n, op.pos, true)
		case opSet:
			m.setMem(&Thread{ctx: ctx}, op.dst, op.val, op.n, op.pos, true)
		case opHostFn:
			m.runHostFn(s, op, ctx)
		case opFree:
			m.free(&Thread{ctx: ctx}, op.dst, SpaceDevice, "a graph's free node", op.pos)
		case opAllocNode:
			m.runAllocNode(op) // graph_mem.go
		}
		s.vc[s.agent]++
	}
}

func initGraphMore() {
	for name, t := range map[string]*Type{"cudaMemsetParams": tMemsetParams, "cudaHostNodeParams": tHostNodeParams,
		"cudaStreamCaptureStatus": tInt, "cudaStreamCaptureMode": tInt} {
		builtinTypedefs[name] = t
	}
	for name, v := range map[string]int64{"cudaStreamCaptureStatusNone": 0, "cudaStreamCaptureStatusActive": 1,
		"cudaStreamCaptureStatusInvalidated": 2, "cudaStreamCaptureModeGlobal": 0, "cudaStreamCaptureModeThreadLocal": 1,
		"cudaStreamCaptureModeRelaxed": 2, "cudaGraphNodeTypeMemcpy": 1, "cudaGraphNodeTypeMemset": 2, "cudaGraphNodeTypeHost": 3,
		"cudaErrorStreamCaptureUnsupported": 900, "cudaStreamAddCaptureDependencies": 0, "cudaStreamSetCaptureDependencies": 1, "cudaErrorStreamCaptureInvalidated": 901, "cudaErrorIllegalState": 401} {
		namedConsts[name] = v
	}
	cudaErrors[900], cudaErrorText[900] = "cudaErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing"
	cudaErrors[401], cudaErrorText[401] = "cudaErrorIllegalState", "the operation cannot be performed in the present state"
	for name, s := range map[string]*bsig{
		"cudaGraphAddMemcpyNode":                 sig(tInt, hostSide, tAny, tLong, tAny, tULong, tAny),
		"cudaGraphAddMemsetNode":                 sig(tInt, hostSide, tAny, tLong, tAny, tULong, tAny),
		"cudaGraphAddHostNode":                   sig(tInt, hostSide, tAny, tLong, tAny, tULong, tAny),
		"cudaGraphAddEmptyNode":                  sig(tInt, hostSide, tAny, tLong, tAny, tULong),
		"cudaGraphAddMemcpyNode1D":               sig(tInt, hostSide, tAny, tLong, tAny, tULong, tVoidP, tVoidP, tULong, tInt),
		"cudaGraphAddDependencies":               sig(tInt, hostSide, tLong, tAny, tAny, tAny).va(), // CUDA 13 adds edgeData before the count
		"cudaGraphClone":                         sig(tInt, hostSide, tAny, tLong),
		"cudaGraphNodeFindInClone":               sig(tInt, hostSide, tAny, tLong, tLong),
		"cudaGraphUpload":                        sig(tInt, hostSide, tLong, tLong),
		"cudaGraphGetNodes":                      sig(tInt, hostSide, tLong, tAny, tAny),
		"cudaStreamBeginCapture":                 sig(tInt, hostSide, tLong, tInt).def(0),
		"cudaStreamEndCapture":                   sig(tInt, hostSide, tLong, tAny),
		"cudaStreamIsCapturing":                  sig(tInt, hostSide, tLong, tAny),
		"cudaStreamBeginCaptureToGraph":          sig(tInt, hostSide, tLong, tLong, tAny, tAny, tULong, tInt),
		"cudaStreamGetCaptureInfo":               sig(tInt, hostSide, tLong, tAny, tAny, tAny, tAny, tAny).def(0, 0, 0, 0),
		"cudaStreamGetCaptureInfo_v3":            sig(tInt, hostSide, tLong, tAny, tAny, tAny, tAny, tAny, tAny),
		"cudaStreamUpdateCaptureDependencies":    sig(tInt, hostSide, tLong, tAny, tAny, tULong, tUInt),
		"cudaStreamUpdateCaptureDependencies_v1": sig(tInt, hostSide, tLong, tAny, tULong, tUInt),
	} {
		builtinSigs[name] = s
	}
	add := func(m *Machine, t *Thread, a []uint64, n *graphNode, pos int32) (uint64, status) {
		g := m.graphOf(a[1])
		if g == nil {
			return m.apiError(400), stDone
		}
		return m.addNodeDeps(t, g, n, a[0], a[2], a[3], pos)
	}
	defb("cudaGraphAddEmptyNode", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return add(m, t, a, &graphNode{empty: true, pos: pos}, pos)
	})
	defb("cudaGraphAddMemcpyNode", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		b, good := m.resolve(t, a[4], int(tMemcpy3DParms.size), pos, false, true)
		if !good {
			return 0, stFault
		}
		b = append([]byte(nil), b...)
		f := func(name string) int { return tMemcpy3DParms.field(name).Offset }
		if loadN(b[f("srcArray"):], 8) != 0 || loadN(b[f("dstArray"):], 8) != 0 {
			m.fault(t, pos, "C0309", "cudaGraphAddMemcpyNode with a CUDA array (srcArray/dstArray) is not modeled: only linear memory (srcPtr/dstPtr)")
			return 0, stFault
		}
		u := func(off int) uint64 { return loadN(b[off:], 8) }
		sp, dp, sq, dq, ex := f("srcPos"), f("dstPos"), f("srcPtr"), f("dstPtr"), f("extent")
		w, hgt, d := u(ex), u(ex+8), u(ex+16)
		src, spitch, sy := u(sq), u(sq+8), u(sq+24)
		dst, dpitch, dy := u(dq), u(dq+8), u(dq+24)
		if spitch == 0 || dpitch == 0 || sy == 0 || dy == 0 || w > spitch || w > dpitch || w*hgt*d >= 1<<31 {
			return m.apiError(1), stDone
		}
		src += (u(sp+16)*sy+u(sp+8))*spitch + u(sp)
		dst += (u(dp+16)*dy+u(dp+8))*dpitch + u(dp)
		n := &graphNode{pos: pos, empty: true}
		for z := uint64(0); z < d; z++ {
			for y := uint64(0); y < hgt; y++ {
				n.ops = append(n.ops, &devOp{kind: opCopy, dst: dst + (z*dy+y)*dpitch, src: src + (z*sy+y)*spitch, n: int(w), pos: pos})
			}
		}
		return add(m, t, a, n, pos)
	})
	defb("cudaGraphAddMemcpyNode1D", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// (node, graph, deps, numDeps, dst, src, count, kind): bounds and
		// spaces are checked when the node runs, as for a stream copy
		if a[6] >= 1<<31 || int64(a[7]) < 0 || a[7] > 4 {
			return m.apiError(1), stDone
		}
		return add(m, t, a, &graphNode{ops: []*devOp{{kind: opCopy, dst: a[4], src: a[5], n: int(a[6]), pos: pos}}, pos: pos}, pos)
	})
	defb("cudaGraphAddMemsetNode", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		b, good := m.resolve(t, a[4], int(tMemsetParams.size), pos, false, true)
		if !good {
			return 0, stFault
		}
		f := func(name string, size int) uint64 { return loadN(b[tMemsetParams.field(name).Offset:], size) }
		dst, pitch, val, es, w, hgt := f("dst", 8), f("pitch", 8), f("value", 4), f("elementSize", 4), f("width", 8), f("height", 8)
		if es != 1 && es != 2 && es != 4 || hgt > 1 && pitch < w*es || w*es*hgt >= 1<<31 {
			return m.apiError(1), stDone
		}
		n := &graphNode{pos: pos, empty: true}
		var pat uint64
		if es > 1 && val != 0 {
			// the rows are copies of one row of the pattern
			o := m.newObject(int(w*es), SpaceAny, "memset node pattern", pos)
			for i := uint64(0); i < w; i++ {
				storeN(o.Data[i*es:], int(es), val)
			}
			if o.init != nil {
				o.init.setAll()
			}
			pat = ptrOf(o, 0)
		}
		for y := uint64(0); y < hgt; y++ {
			if pat != 0 {
				n.ops = append(n.ops, &devOp{kind: opCopy, dst: dst + y*pitch, src: pat, n: int(w * es), pos: pos})
			} else {
				n.ops = append(n.ops, &devOp{kind: opSet, dst: dst + y*pitch, val: byte(val), n: int(w * es), pos: pos})
			}
		}
		return add(m, t, a, n, pos)
	})
	defb("cudaGraphAddHostNode", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		b, good := m.resolve(t, a[4], int(tHostNodeParams.size), pos, false, true)
		if !good {
			return 0, stFault
		}
		fp, ud := loadN(b, 8), loadN(b[8:], 8)
		fn, _, isFn := m.funcOfPtr(fp)
		if !isFn || fn == nil || !fn.Host {
			m.fault(t, pos, "C0607", "cudaGraphAddHostNode: hostNodeParams.fn is not a host function of the program")
			return 0, stFault
		}
		return add(m, t, a, &graphNode{ops: []*devOp{{kind: opHostFn, dst: fp, src: ud, pos: pos}}, pos: pos}, pos)
	})
	defb("cudaGraphAddDependencies", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// (graph, from, to, [edgeData,] num): from[i] -> to[i]. An edge
		// that would close a cycle is cudaErrorInvalidValue: a graph is
		// acyclic (Programming Guide, "Graph Structure")
		g := m.graphOf(a[0])
		if g == nil {
			return m.apiError(400), stDone
		}
		num := a[3]
		if len(a) >= 5 {
			num = a[4] // CUDA 13: edge data (default edges) before the count
		}
		from, code, st := m.readNodes(t, g, a[1], num, false, pos)
		if st != stDone || code != 0 {
			return code, st
		}
		to, code, st := m.readNodes(t, g, a[2], num, false, pos)
		if st != stDone || code != 0 {
			return code, st
		}
		for i := range from {
			if from[i] == to[i] || g.reaches(to[i], from[i]) {
				return m.apiError(1), stDone
			}
		}
		for i := range from {
			dup := false
			for _, d := range g.deps[to[i]] {
				dup = dup || d == from[i]
			}
			if dup {
				return m.apiError(1), stDone // the edge exists already
			}
			g.deps[to[i]] = append(g.deps[to[i]], from[i])
		}
		return ok(0)
	})
	defb("cudaGraphClone", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		g := m.graphOf(a[1])
		if g == nil {
			return m.apiError(400), stDone
		}
		// The clone's nodes are new nodes (CUDA Runtime API,
		// cudaGraphClone: "The original graph may be modified after this
		// call without affecting the clone"; cudaGraphNodeFindInClone maps
		// a node to its copy), so a node of the original is no dependency
		// in the clone. Graphs with memory allocation, free or conditional
		// nodes cannot be cloned ("Cloning is not supported for graphs
		// which contain memory allocation nodes, memory free nodes, or
		// conditional nodes").
		c := &cudaGraph{handles: g.handles}
		for i, n := range g.nodes {
			if n.body != nil || len(n.ops) > 0 && (n.ops[0].kind == opAllocNode || n.ops[0].kind == opFree) {
				return m.apiError(801), stDone
			}
			cp := *n
			cp.src = nil
			c.add(&cp, append([]int(nil), g.depsOf(i)...))
			m.nodes = append(m.nodes, &cp)
			if c.cloneOf == nil {
				c.cloneOf = map[*graphNode]*graphNode{}
			}
			c.cloneOf[n] = &cp
		}
		m.graphs = append(m.graphs, c)
		if !m.store(t, a[0], mU64, uint64(len(m.graphs)), pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaGraphNodeFindInClone", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// (pNode, originalNode, clonedGraph): the copy of originalNode
		// that cudaGraphClone made in clonedGraph
		c := m.graphOf(a[2])
		if c == nil || a[1] < 1 || a[1] > uint64(len(m.nodes)) || c.cloneOf[m.nodes[a[1]-1]] == nil {
			return m.apiError(1), stDone
		}
		if !m.store(t, a[0], mU64, uint64(m.nodeHandle(c.cloneOf[m.nodes[a[1]-1]])), pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaGraphUpload", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// uploads the executable graph without running it: its
		// allocations are backed from now on (graph_mem.go), nothing runs
		g, s := m.graphOf(a[0]), m.streamOf(a[1])
		if g == nil || s == nil {
			return m.apiError(400), stDone
		}
		m.backGraphMem(g)
		return ok(0)
	})
	defb("cudaGraphGetNodes", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		g := m.graphOf(a[0])
		if g == nil {
			return m.apiError(400), stDone
		}
		if a[1] != 0 {
			// at most *numNodes handles; *numNodes is then how many there are
			cnt, good := m.load(t, a[2], mU64, pos)
			if !good {
				return 0, stFault
			}
			for i, n := range g.nodes {
				if uint64(i) >= cnt {
					break
				}
				if !m.store(t, a[1]+8*uint64(i), mU64, uint64(m.nodeHandle(n)), pos) {
					return 0, stFault
				}
			}
		}
		if !m.store(t, a[2], mU64, uint64(len(g.nodes)), pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaStreamBeginCapture", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s := m.streamOf(a[0])
		if s == nil {
			return m.apiError(400), stDone
		}
		if s.id == 0 || a[1] > 2 {
			return m.apiError(map[bool]int{true: 900, false: 1}[s.id == 0]), stDone
		}
		c := m.captures()
		if c.streams[s] != nil {
			return m.apiError(401), stDone
		}
		// the work queued before the capture runs first
		if len(s.queue) > 0 {
			m.drainUntil(s.queue[len(s.queue)-1])
		}
		m.graphs = append(m.graphs, &cudaGraph{})
		c.streams[s] = m.graphs[len(m.graphs)-1]
		c.deps[s] = nil
		return ok(0)
	})
	defb("cudaStreamBeginCaptureToGraph", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// (stream, graph, deps, edgeData, numDeps, mode): capture appends
		// to an existing graph, after the given nodes of it
		s, g := m.streamOf(a[0]), m.graphOf(a[1])
		if s == nil || g == nil {
			return m.apiError(400), stDone
		}
		if s.id == 0 || a[5] > 2 {
			return m.apiError(map[bool]int{true: 900, false: 1}[s.id == 0]), stDone
		}
		idx, code, st := m.nodeList(t, g, a[2], a[4], pos)
		if st != stDone || code != 0 {
			return code, st
		}
		c := m.captures()
		if c.streams[s] != nil {
			return m.apiError(401), stDone
		}
		if len(s.queue) > 0 {
			m.drainUntil(s.queue[len(s.queue)-1])
		}
		c.streams[s] = g
		c.deps[s] = nil
		for _, k := range idx {
			c.deps[s] = append(c.deps[s], g.nodes[k])
		}
		return ok(0)
	})
	// cudaStreamGetCaptureInfo(stream, status*, id*, graph*, deps**,
	// [edgeData**,] numDeps*): the capture's graph, an id (the graph's
	// handle) and the stream's dependencies, in storage the runtime owns
	info := func(edge bool) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			s := m.streamOf(a[0])
			if s == nil {
				return m.apiError(400), stDone
			}
			g := m.captures().streams[s]
			st, h := uint64(0), uint64(0)
			if g != nil {
				st, h = 1, m.graphHandle(g)
			}
			var deps, nd uint64
			if ds := m.captures().deps[s]; g != nil && len(ds) > 0 {
				o := m.newObject(8*len(ds), SpaceHost, "capture dependencies", pos)
				for i, d := range ds {
					storeN(o.Data[8*i:], 8, uint64(m.nodeHandle(d)))
				}
				if o.init != nil {
					o.init.setAll()
				}
				deps, nd = ptrOf(o, 0), uint64(len(ds))
			}
			numAt := a[5]
			if edge {
				if a[5] != 0 && !m.store(t, a[5], mU64, 0, pos) { // no edge data: default edges
					return 0, stFault
				}
				numAt = a[6]
			}
			for _, w := range []struct {
				p, v uint64
				c    int
			}{{a[1], st, mI32}, {a[2], h, mU64}, {a[3], h, mU64}, {a[4], deps, mU64}, {numAt, nd, mU64}} {
				if w.p != 0 && !m.store(t, w.p, w.c, w.v, pos) {
					return 0, stFault
				}
			}
			return ok(0)
		}
	}
	defb("cudaStreamGetCaptureInfo", info(false))
	defb("cudaStreamGetCaptureInfo_v3", info(true))
	updateDeps := func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// (stream, deps, [edgeData,] num, flags): flags
		// cudaStreamAddCaptureDependencies (0) adds the nodes to the
		// stream's dependencies, cudaStreamSetCaptureDependencies (1)
		// replaces them
		s := m.streamOf(a[0])
		if s == nil {
			return m.apiError(400), stDone
		}
		c := m.captures()
		g := c.streams[s]
		if g == nil {
			return m.apiError(401), stDone
		}
		flags := a[len(a)-1]
		if flags > 1 {
			return m.apiError(1), stDone
		}
		idx, code, st := m.nodeList(t, g, a[1], a[len(a)-2], pos)
		if st != stDone || code != 0 {
			return code, st
		}
		var ns []*graphNode
		for _, k := range idx {
			ns = append(ns, g.nodes[k])
		}
		if flags == 1 {
			c.deps[s] = ns
		} else {
			c.deps[s] = unionNodes(c.deps[s], ns)
		}
		return ok(0)
	}
	defb("cudaStreamUpdateCaptureDependencies", updateDeps)
	defb("cudaStreamUpdateCaptureDependencies_v1", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return updateDeps(m, t, []uint64{a[0], a[1], 0, a[2], a[3]}, pos)
	})
	defb("cudaStreamEndCapture", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s := m.streamOf(a[0])
		if s == nil {
			return m.apiError(400), stDone
		}
		c := m.captures()
		g := c.streams[s]
		if g == nil {
			return m.apiError(401), stDone
		}
		for o, og := range c.streams {
			if og == g {
				delete(c.streams, o)
				delete(c.deps, o)
			}
		}
		for e, eg := range c.events {
			if eg == g {
				delete(c.events, e)
				delete(c.evDeps, e)
			}
		}
		if a[1] != 0 && !m.store(t, a[1], mU64, m.graphHandle(g), pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaStreamIsCapturing", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s := m.streamOf(a[0])
		if s == nil {
			return m.apiError(400), stDone
		}
		st := uint64(0)
		if m.captures().streams[s] != nil {
			st = 1
		}
		if !m.store(t, a[1], mI32, st, pos) {
			return 0, stFault
		}
		return ok(0)
	})
}

// addNodeDeps adds n to g after the numDeps handles at deps, which must
// name distinct nodes of g (else cudaErrorInvalidValue, as CUDA answers
// for a dependency from another graph, such as the original of a clone);
// the node's handle goes to out.
func (m *Machine) addNodeDeps(t *Thread, g *cudaGraph, n *graphNode, out, deps, numDeps uint64, pos int32) (uint64, status) {
	idx, code, st := m.nodeList(t, g, deps, numDeps, pos)
	if st != stDone || code != 0 {
		return code, st
	}
	return m.addNode(t, g, n, idx, out, pos)
}

// nodeList reads num node handles at p, which must name distinct nodes of
// g, and returns their indices in g (or an API error, or a fault).
func (m *Machine) nodeList(t *Thread, g *cudaGraph, p, num uint64, pos int32) ([]int, uint64, status) {
	return m.readNodes(t, g, p, num, true, pos)
}

// readNodes reads num node handles of g at p; distinct: no node twice.
func (m *Machine) readNodes(t *Thread, g *cudaGraph, p, num uint64, distinct bool, pos int32) ([]int, uint64, status) {
	if num > 1<<20 {
		return nil, m.apiError(1), stDone
	}
	var idx []int
	var seen map[int]bool
	for i := uint64(0); i < num; i++ {
		h, good := m.load(t, p+8*i, mU64, pos)
		if !good {
			return nil, 0, stFault
		}
		if h < 1 || h > uint64(len(m.nodes)) {
			return nil, m.apiError(1), stDone
		}
		k := g.index(m.nodes[h-1])
		if k < 0 {
			return nil, m.apiError(1), stDone
		}
		if distinct {
			// a set, not a scan of idx: a wide graph's edges are added
			// by one call (issue 15 item 6)
			if seen == nil {
				seen = map[int]bool{}
			}
			if seen[k] {
				return nil, m.apiError(1), stDone // "may not have any duplicate entries"
			}
			seen[k] = true
		}
		idx = append(idx, k)
	}
	return idx, 0, stDone
}

func (g *cudaGraph) index(n *graphNode) int {
	if i, ok := g.at[n]; ok {
		return i
	}
	return -1
}

// graphHandle is the handle of g (its index in m.graphs + 1; 0 for none).
// The last match wins, as both callers' loops had it.
func (m *Machine) graphHandle(g *cudaGraph) uint64 {
	h := uint64(0)
	for i, x := range m.graphs {
		if x == g {
			h = uint64(i + 1)
		}
	}
	return h
}

// nodeHandle is the handle of n (its index in m.nodes + 1).
func (m *Machine) nodeHandle(n *graphNode) int {
	for i, x := range m.nodes {
		if x == n {
			return i + 1
		}
	}
	return 0
}
