package sem

import "strconv"

// The order of a graph's nodes for the race detector (issue 15 item 4,
// "no silent wrong answers"). CUDA orders the nodes of a graph by its
// edges only: "the edges of the graph are the dependencies ... a node
// runs when its dependencies are complete", and nodes with no path
// between them may run concurrently (CUDA Programming Guide, "CUDA
// Graphs", "Graph Structure"); a launch is ordered behind the stream's
// earlier work and behind the previous launches of the same executable
// graph, and the stream's later work after the whole graph (CUDA Runtime
// API, cudaGraphLaunch: "Each launch is ordered behind both any previous
// work in stream and any previous launches of graphExec").
//
// The interpreter still runs the nodes one at a time, in a topological
// order (Kahn's, the earliest added node first), which is one schedule
// CUDA allows. What is ordered is decided by vector clocks (race.go): each
// node of an executable graph is an agent of its own (a stream slot that
// no stream uses, as pthread.go does for host threads), and it starts with
// the join of the launch's clock and its dependencies' clocks at their
// end. So two nodes without a path between them that touch the same bytes
// are a race (C0501) whichever the interpreter ran first, for kernel,
// memcpy, memset, host, memory and conditional nodes (a conditional node's
// bodies run after its dependencies and before its dependents), for graphs
// built by the API, by stream capture (graph_more.go records the capture's
// dependencies) and after cudaGraphExecUpdate.

// add appends n to g with dependencies deps (indices of g's nodes).
func (g *cudaGraph) add(n *graphNode, deps []int) {
	if g.at == nil {
		g.at = map[*graphNode]int{}
	}
	g.at[n] = len(g.nodes)
	g.nodes = append(g.nodes, n)
	g.deps = append(g.deps, deps)
}

// depsOf returns the dependencies of node i (nil past the recorded ones).
func (g *cudaGraph) depsOf(i int) []int {
	if i < len(g.deps) {
		return g.deps[i]
	}
	return nil
}

// reaches reports whether there is a path from node a to node b in g.
func (g *cudaGraph) reaches(a, b int) bool {
	seen := make([]bool, len(g.nodes))
	stack := []int{b}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if x == a {
			return true
		}
		for _, d := range g.depsOf(x) {
			if !seen[d] {
				seen[d] = true
				stack = append(stack, d)
			}
		}
	}
	return false
}

// topo is a topological order of g's nodes: of the nodes whose
// dependencies have all run, the one added first runs next. Kahn's
// algorithm with the ready nodes in a min-heap of their indices: O((n+e)
// log n) for n nodes and e edges (a scan for the next ready node made a
// launch quadratic in the node count).
func (g *cudaGraph) topo() []int {
	n := len(g.nodes)
	ordered := true // every edge from an earlier node: the order of addition
	for i := 0; i < n && ordered; i++ {
		for _, d := range g.depsOf(i) {
			ordered = ordered && d < i
		}
	}
	if ordered {
		order := make([]int, n)
		for i := range order {
			order[i] = i
		}
		return order
	}
	indeg := make([]int, n)
	out := make([][]int, n)
	for i := 0; i < n; i++ {
		for _, d := range g.depsOf(i) {
			indeg[i]++
			out[d] = append(out[d], i)
		}
	}
	var ready intHeap
	for i := 0; i < n; i++ {
		if indeg[i] == 0 {
			ready.push(i)
		}
	}
	order := make([]int, 0, n)
	for len(ready) > 0 {
		next := ready.pop()
		order = append(order, next)
		for _, j := range out[next] {
			if indeg[j]--; indeg[j] == 0 {
				ready.push(j)
			}
		}
	}
	// a cycle leaves nodes out: cudaGraphAddDependencies refuses one, so never
	return order
}

// intHeap is a binary min-heap of ints.
type intHeap []int

func (h *intHeap) push(x int) {
	*h = append(*h, x)
	a := *h
	for i := len(a) - 1; i > 0; {
		p := (i - 1) / 2
		if a[p] <= a[i] {
			break
		}
		a[p], a[i] = a[i], a[p]
		i = p
	}
}

func (h *intHeap) pop() int {
	a := *h
	top := a[0]
	last := len(a) - 1
	a[0] = a[last]
	a = a[:last]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < len(a) && a[l] < a[m] {
			m = l
		}
		if l+1 < len(a) && a[l+1] < a[m] {
			m = l + 1
		}
		if m == i {
			break
		}
		a[i], a[m] = a[m], a[i]
		i = m
	}
	*h = a
	return top
}

// agentOf is the race detector's agent of node i of g (root's, or a body
// of one of its conditional nodes). The agents of an executable graph
// cover its nodes by chains: a node takes the agent of a dependency that
// is the last node given that agent so far, and a new agent otherwise.
// The nodes of one agent then lie on one path of the graph, in the order
// of their clocks, so "my clock of agent a is past x's" still means "x is
// one of my ancestors" (a node after a later node of x's chain is after
// x), which is what the race detector asks of a clock, while a chain of
// nodes needs one agent instead of one each: every node's vector clock
// has a component per agent, so one agent per node made a launch
// quadratic in the node count. Assigned at a node's first run; the edges
// of an executable graph never change (cudaGraphExecUpdate keeps the
// topology), so the chains stay paths in every later launch.
func (m *Machine) agentOf(root, g *cudaGraph, i int) int32 {
	n := g.nodes[i]
	if a, ok := root.agents[n]; ok {
		return a
	}
	if root.tail == nil {
		root.tail = map[int32]*graphNode{}
	}
	for _, d := range g.depsOf(i) {
		dn := g.nodes[d]
		if a, ok := root.agents[dn]; ok && root.tail[a] == dn {
			root.agents[n] = a
			root.tail[a] = n
			return a
		}
	}
	a := m.nodeAgent(root, n)
	root.tail[a] = n
	return a
}

// nodeAgent is the race detector's agent of node n in launches of the
// executable graph root (made at its first run). Launches of one
// executable graph are ordered one after the other, so an agent's clock
// only grows along one chain of runs.
func (m *Machine) nodeAgent(root *cudaGraph, n *graphNode) int32 {
	if a, ok := root.agents[n]; ok {
		return a
	}
	if root.agents == nil {
		root.agents = map[*graphNode]int32{}
	}
	a := int32(len(m.streams) + 1)
	// a slot no stream uses; non-blocking, so that the legacy default
	// stream's implicit synchronization never reads it
	m.streams = append(m.streams, &stream{id: len(m.streams), agent: a, nonBlocking: true})
	root.agents[n] = a
	r := m.rt()
	if r.agentClock == nil {
		r.agentClock = map[int32]int32{}
	}
	r.agentClock[a] = 1
	return a
}

// hostFnName names the host function that agent a ran, for race reports
// (race.go): a graph's host node runs on the node's agent, a stream's
// host function on the stream's.
func (m *Machine) hostFnName(a int32) string {
	if r := m.libst; r != nil && r.rt != nil {
		if _, ok := r.rt.agentClock[a]; ok {
			return "the host function of a graph's host node"
		}
	}
	return "the host function run by stream " + strconv.Itoa(int(a-1))
}

// runGraph runs the executable graph g as an operation of stream s.
func (m *Machine) runGraph(s *stream, g *cudaGraph) {
	m.backGraphMem(g) // graph_mem.go
	m.autoFree(g)     // graph_flags.go
	g.runs++
	base := vcJoin(append([]int32(nil), s.vc...), g.done)
	out := m.runGraphIn(s, g, g, base)
	s.vc = vcJoin(s.vc, out)
	g.done = append([]int32(nil), out...)
}

// runGraphIn runs the nodes of g (root's, or a body of one of its
// conditional nodes) after base and returns the join of base and every
// node's clock at its end.
//
// A node's clock is a nodeClock: a dense vector shared with the nodes it
// came from, never written, and a few entries of its own. Each node has
// an agent of its own, so a dense copy per node made a launch of a wide
// graph cost O(nodes × agents), quadratic in its width (issue 15 item 6):
// a fan of 16,000 kernels took 1.9 s. Now a kernel node runs with its
// dependency's vector and its own entry (accessCtx.ext), and joining the
// clocks of nodes that share a vector joins only their entries; a node
// with other operations (copies, events, host functions, conditional
// bodies) still runs on a dense copy, as the stream code expects.
func (m *Machine) runGraphIn(s *stream, root, g *cudaGraph, base []int32) []int32 {
	vcs := make([]nodeClock, len(g.nodes))
	held := make([]bool, len(g.nodes))
	// left[d]: the dependents of node d still to run; at 0 its clock is
	// dropped, so that only the frontier's clocks are held
	left := make([]int32, len(g.nodes))
	for i := range g.nodes {
		for _, d := range g.depsOf(i) {
			left[d]++
		}
	}
	out := append([]int32(nil), base...)
	// joinOut joins a clock into out; the shared vectors out already holds
	// (it only grows) are joined once, so that a fan's sinks cost their
	// entries only
	joined := [][]int32{base}
	joinOut := func(nc nodeClock) {
		for _, j := range joined {
			if sameVec(j, nc.base) {
				out = nodeClock{ents: nc.ents}.joinInto(out)
				return
			}
		}
		out = nc.joinInto(out)
		if len(joined) < 8 {
			joined = append(joined, nc.base)
		}
	}
	for _, i := range g.topo() {
		if m.failed || m.exited {
			break
		}
		n := g.nodes[i]
		// a dependency's clock already holds base (clocks only grow), so a
		// node with dependencies starts from the first one's
		var nc nodeClock
		deps := g.depsOf(i)
		for k, d := range deps {
			if k == 0 {
				nc = vcs[d].clone()
			} else {
				nc = nc.join(vcs[d])
			}
			if left[d]--; left[d] == 0 {
				vcs[d], held[d] = nodeClock{}, false
			}
		}
		if len(deps) == 0 {
			nc = nodeClock{base: base}
		}
		a := m.agentOf(root, g, i)
		r := m.rt()
		c := max(nc.get(a), r.agentClock[a])
		if n.fn != nil && n.ops == nil && !n.empty && n.body == nil {
			// a kernel node reads its clock only (runKernelNode)
			nc = nc.set(a, c)
			nc = m.runKernelNode(s, n, a, c, nc)
		} else {
			// the node's operations run as a stream of their own: the
			// stream's id (a host function's argument) with the node's
			// agent
			vc := vcSet(nc.dense(), a, c)
			ns := &stream{id: s.id, agent: a, vc: vc, live: true, nonBlocking: s.nonBlocking}
			m.runNode(ns, root, n)
			ns.vc[a]++
			nc = nodeClock{base: ns.vc}
		}
		r.agentClock[a] = nc.get(a)
		if left[i] == 0 {
			joinOut(nc) // a sink: no dependent holds its clock
		} else {
			vcs[i], held[i] = nc, true
		}
	}
	// the join of every node's clock is that of the sinks' and of the
	// clocks still held (a node's clock is below its dependents'); the
	// held ones are those whose dependents did not all run (a failure)
	for i, nc := range vcs {
		if held[i] {
			joinOut(nc)
		}
	}
	return out
}

// runKernelNode runs kernel node n on agent a at clock c, with clock nc
// (which holds c for a), and returns the node's clock at its end.
func (m *Machine) runKernelNode(s *stream, n *graphNode, a, c int32, nc nodeClock) nodeClock {
	gr := m.nodeGrid(n)
	ctx := &accessCtx{agent: a, clock: c, vc: nc.base, ext: nc.ents}
	gr.agent, gr.clock = a, c
	m.runGrid(gr, ctx)
	if len(gr.children) > 0 {
		// the children's launches run on a stream (cdp.go)
		ns := &stream{id: s.id, agent: a, vc: nc.dense(), live: true, nonBlocking: s.nonBlocking}
		m.runChildren(gr, ns)
		ns.vc[a]++
		return nodeClock{base: ns.vc}
	}
	// a copy: the grid's ctx.ext is nc.ents
	return nc.clone().set(a, c+1)
}

// nodeGrid makes the grid of kernel node n.
func (m *Machine) nodeGrid(n *graphNode) *gridRun {
	gr := &gridRun{fn: n.fn, gdim: n.gdim, bdim: n.bdim, shmem: n.shmem}
	gr.id = len(m.grids) + 1
	for k, pt := range n.fn.Type.Params {
		b := n.args[k]
		if pt.Kind == Struct {
			o := m.newObject(pt.size, SpaceAny, "kernel parameter", n.pos)
			copy(o.Data, b)
			gr.args = append(gr.args, ptrOf(o, 0))
			continue
		}
		gr.args = append(gr.args, fromMem(memCode(pt), loadN(b, len(b))))
	}
	m.grids = append(m.grids, gr)
	return gr
}

// runNode runs node n on ns (its own agent).
func (m *Machine) runNode(ns *stream, root *cudaGraph, n *graphNode) {
	if n.ops != nil || n.empty {
		m.runNodeOps(ns, n.ops) // graph_more.go
		return
	}
	if n.body != nil {
		run := func(b *cudaGraph) {
			ns.vc = vcJoin(ns.vc, m.runGraphIn(ns, root, b, ns.vc))
		}
		switch v := n.cond.value; {
		case n.condType == condTypeSwitch:
			if int(v) < len(n.bodies) {
				run(n.bodies[v])
			}
		case n.condType == condTypeIf && v == 0:
			if len(n.bodies) == 2 {
				run(n.bodies[1]) // else
			}
		default:
			for n.cond.value != 0 {
				run(n.body) // each iteration after the previous one
				if n.condType == condTypeIf || m.failed || m.exited {
					break
				}
			}
		}
		return
	}
	gr := m.nodeGrid(n)
	ctx := &accessCtx{agent: ns.agent, clock: vcGet(ns.vc, ns.agent), vc: ns.vc}
	gr.agent, gr.clock = ctx.agent, ctx.clock
	m.runGrid(gr, ctx)
	m.runChildren(gr, ns) // cdp.go
}
