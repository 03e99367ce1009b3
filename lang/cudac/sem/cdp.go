package sem

import (
	"sort"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Dynamic parallelism, CUDA 12's CDP2 (CUDA C++ Programming Guide, "CUDA
// Dynamic Parallelism"): a thread launches a child grid with <<<>>>; the
// child may run at any time after the launch and the parent grid is
// complete only when all its children are. CDP2 has no device-side
// cudaDeviceSynchronize, so no parent thread can wait for a child: the
// model runs the children of a grid after the grid, in launch order, then
// their children (breadth first), all before the stream's next operation
// -- one of the schedules CUDA allows. Device-side streams
// (cudaStreamCreateWithFlags with cudaStreamNonBlocking, cudaStreamDestroy)
// and the named streams cudaStreamFireAndForget and cudaStreamTailLaunch
// are accepted; as the children run one after another in launch order,
// every stream order holds.
//
// A tail launch (cudaStreamTailLaunch) runs after its parent grid and
// all of the parent's other work, so the model runs it once the parent's
// other descendants have run.
//
// The race checker orders a child grid as CUDA does (CUDA C++ Programming
// Guide, "CUDA Dynamic Parallelism", "Memory Model", "Coherence and
// Consistency": "All global memory operations in the parent thread prior
// to the child grid's invocation are visible to the child grid"; without
// a device-side cudaDeviceSynchronize in CDP2 the parent cannot observe
// the child's writes; and a parent grid completes only after all its child
// grids have):
//   - a child is ordered after what its launching thread had done before
//     the launch and what that thread had synchronized with by then
//     (its block's accesses before a __syncthreads, warp lanes' before a
//     __syncwarp, named barriers, grid.sync, fences and atomics it
//     acquired through, the parent's own launch), and after the stream's
//     work before the parent;
//   - it is not ordered after the launching thread's later accesses, nor
//     after the other threads' accesses that the launcher did not
//     synchronize with, nor are the parent's threads ordered after it;
//   - children launched by threads of one block into the same stream (the
//     block's implicit NULL stream or a stream it created) run in launch
//     order: each after the earlier ones and their descendants (the
//     guide's "Ordering and Concurrency": within a thread block, launches
//     into the same stream execute in order); fire-and-forget launches are
//     ordered after
//     no other child; a tail launch is ordered after its whole parent grid
//     and all the parent's other children;
//   - the stream's next operation, and the host after synchronizing, are
//     ordered after the parent and all its descendants.
// Representation: a child runs on its stream's agent with a clock of its
// own, but with the vector clock its parent ran with, so the parent and
// the other children are not ordered before it by the clocks; released
// (fence.go) asks cdpBefore, which decides from the launching thread's
// ordering context recorded at the launch (cdpOrigin).

// cdpAPI are the runtime calls device code may make (the device runtime
// API): streams for launches, cudaMalloc and cudaFree on the device heap
// (as malloc and free in device code), and the thread's last error, which
// is always cudaSuccess as a failing device-side launch ends the run
// (C0603).
var cdpAPI map[string]bool

// initCdpAPI builds cdpAPI (tables.go).
func initCdpAPI() {
	cdpAPI = map[string]bool{"cudaStreamCreateWithFlags": true, "cudaStreamDestroy": true,
		"cudaMalloc": true, "cudaFree": true, "cudaGetLastError": true, "cudaPeekAtLastError": true}
}

func initCdp() {
	namedConsts["cudaStreamFireAndForget"] = cdpFireAndForget
	namedConsts["cudaStreamTailLaunch"] = cdpTailLaunch
	builtinSigs["__cdp_stream_create"] = sig(tInt, deviceSide, tAny, tUInt)
	builtinSigs["__cdp_stream_destroy"] = sig(tInt, deviceSide, tAny)
	builtinSigs["__cdp_malloc"] = sig(tInt, deviceSide, tAny, tULong)
	builtinSigs["__cdp_free"] = sig(tInt, deviceSide, tAny)
	builtinSigs["__cdp_last_error"] = sig(tInt, deviceSide)
	defb("__cdp_malloc", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		p, st := m.alloc(t, a[1], false, pos)
		if st != stDone {
			return 0, st
		}
		if !m.store(t, a[0], mU64, p, pos) {
			return 0, stFault
		}
		if p == 0 {
			return ok(2) // cudaErrorMemoryAllocation
		}
		return ok(0)
	})
	defb("__cdp_free", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if _, st := m.free(t, a[0], SpaceDevice, "cudaFree", pos); st != stDone {
			return 0, st
		}
		return ok(0)
	})
	defb("__cdp_last_error", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(0)
	})
	// a device-side stream: a handle no host stream has (the children run
	// in launch order whatever their stream)
	defb("__cdp_stream_create", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		m.cdpStreams++
		if !m.store(t, a[0], mU64, cdpStreamBase+uint64(m.cdpStreams), pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("__cdp_stream_destroy", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(0)
	})
}

const (
	cdpStreamBase    = 1 << 48
	cdpFireAndForget = 1<<48 - 2
	cdpTailLaunch    = 1<<48 - 1
)

// cdpCall compiles a runtime call of cdpAPI in device code.
func (c *compiler) cdpCall(name string, e *syntax.Call, pos diag.Pos) *Type {
	want := map[string]int{"cudaStreamCreateWithFlags": 2, "cudaStreamDestroy": 1, "cudaMalloc": 2, "cudaFree": 1}[name]
	if len(e.Args) != want {
		c.errorf(pos, "C0304", "%s takes %d arguments, %d given", name, want, len(e.Args))
	}
	for i, a := range e.Args {
		t := c.expr(a)
		if i > 0 || name == "cudaStreamDestroy" || name == "cudaFree" {
			c.convert(t, tULong, pos)
		}
	}
	op := map[string]string{"cudaStreamCreateWithFlags": "__cdp_stream_create", "cudaStreamDestroy": "__cdp_stream_destroy",
		"cudaMalloc": "__cdp_malloc", "cudaFree": "__cdp_free", "cudaGetLastError": "__cdp_last_error", "cudaPeekAtLastError": "__cdp_last_error"}[name]
	c.emit(OpBuiltin, c.builtinIndexOf(op, pos), int64(len(e.Args)), pos)
	return tInt
}

// cdpOrigin is what the race checker needs of a device-side launch.
type cdpOrigin struct {
	grid   *gridRun // the child
	parent *gridRun // the launching grid
	// the launching thread's segment, split-synchronization vector and
	// acquired releases (its own and its block's) at the launch
	seg  seg
	bvc  []int32
	know know
	vc   []int32 // the vector clock the parent ran with
	// the stream: the launching block and handle, fire-and-forget, tail
	block     int32
	stream    uint64
	fnf, tail bool
	seq       int // launch order
	depth     int
}

// cdpState is the dynamic parallelism state of a run (in rtState).
type cdpState struct {
	byGrid  map[*gridRun]*cdpOrigin
	byClock map[[2]int32]*cdpOrigin // a child's agent and clock
	seq     int
}

// cdpLaunch records the device-side launch of g by t into stream h and
// queues g as a child of t's grid.
func (m *Machine) cdpLaunch(t *Thread, g *gridRun, h uint64) {
	p := t.block.grid
	r := m.rt()
	if r.cdp == nil {
		r.cdp = &cdpState{byGrid: map[*gridRun]*cdpOrigin{}, byClock: map[[2]int32]*cdpOrigin{}}
	}
	r.cdp.seq++
	o := &cdpOrigin{grid: g, parent: p, block: t.block.id, stream: h, fnf: h == cdpFireAndForget, tail: h == cdpTailLaunch, seq: r.cdp.seq}
	if po := r.cdp.byGrid[p]; po != nil {
		o.depth = po.depth + 1
	}
	o.vc = t.ctx.dense() // a graph's kernel node's clock has entries over ctx.vc (vclock.go)
	if m.opts.Check {
		o.seg = m.segs.get(m.curSeg(t))
		o.bvc = append([]int32(nil), t.bvc...)
		o.know = joinKnow(joinKnow(nil, t.know), t.block.bxvc)
		// the launching thread's later accesses are after the launch:
		// a new clock value separates them (race.go makes a new segment)
		t.lc++
	}
	r.cdp.byGrid[g] = o
	p.children = append(p.children, g)
}

// cdpBefore reports whether an access of segment a happens before the
// launch o records.
func (m *Machine) cdpBefore(o *cdpOrigin, a *seg) bool {
	cs := m.rt().cdp
	for ; o != nil; o = cs.byGrid[o.parent] {
		p := o.parent
		if a.agent == p.agent && a.clock == p.clock {
			return o.tail || o.saw(a) // an access of the launching grid
		}
		// an access of a grid launched from p (or below): ordered when
		// that child of p is ordered before this launch in its stream
		if x := cs.byClock[[2]int32{a.agent, a.clock}]; x != nil {
			for x != nil && x.parent != p {
				x = cs.byGrid[x.parent]
			}
			if x != nil && x != o && streamBefore(x, o) {
				return true
			}
		}
		// otherwise: before the launch of p itself
	}
	return false
}

// saw reports whether the launching thread had an access a of its own
// grid before it, or synchronized with it (as hb does, race.go).
func (o *cdpOrigin) saw(a *seg) bool {
	s := &o.seg
	if a.gepoch < s.gepoch {
		return true // a grid.sync before the launch
	}
	if a.block == s.block {
		switch {
		case a.tid == s.tid:
			return a.lc <= s.lc // program order: the launch bumped lc
		case a.epoch < s.epoch:
			return true // a __syncthreads before the launch
		case int(a.ctid) < len(o.bvc) && a.lc < o.bvc[a.ctid]:
			return true // a named barrier or an mbarrier phase
		case a.tid/32 == s.tid/32 && a.wepoch < s.wepoch:
			return true // a __syncwarp
		}
	} else if a.cluster >= 0 && a.cluster == s.cluster && int(a.ctid) < len(o.bvc) && a.lc < o.bvc[a.ctid] {
		return true
	}
	k := relKey{a.agent, a.clock, a.block, a.tid}
	if a.lc < o.know[k] {
		return true // a release the launcher acquired (fence.go)
	}
	k.tid = -1
	return a.epoch < o.know[k]
}

// streamBefore reports whether child x of a grid (and so its
// descendants) completes before its sibling o starts.
func streamBefore(x, o *cdpOrigin) bool {
	switch {
	case o.tail:
		return !x.tail || x.seq < o.seq // after all the parent's other work
	case o.fnf || x.fnf || x.tail:
		return false
	}
	return x.block == o.block && x.stream == o.stream && x.seq < o.seq
}

// cdpOf is the launch that made grid g, nil for a host launch.
func (m *Machine) cdpOf(g *gridRun) *cdpOrigin {
	if m.libst == nil || m.libst.rt == nil || m.libst.rt.cdp == nil {
		return nil
	}
	return m.libst.rt.cdp.byGrid[g]
}

// runChildren runs the grids launched from g's threads and theirs,
// breadth first in launch order, each as the stream's next operation
// after g; tail launches wait until the other descendants of their parent
// have run (the deepest first, each followed by its own descendants).
func (m *Machine) runChildren(g *gridRun, s *stream) {
	queue := g.children
	g.children = nil
	if len(queue) == 0 {
		return
	}
	cs := m.rt().cdp // made by the launches (cdpLaunch)
	var tails []*gridRun
	run := func(c *gridRun) {
		o := cs.byGrid[c]
		s.vc[s.agent]++
		// the child's own clock on the stream's agent, with the vector
		// clock its parent ran with (see above)
		ctx := &accessCtx{agent: s.agent, clock: vcGet(s.vc, s.agent), vc: append([]int32(nil), o.vc...)}
		c.agent, c.clock = ctx.agent, ctx.clock
		cs.byClock[[2]int32{c.agent, c.clock}] = o
		m.runGrid(c, ctx)
	}
	for len(queue) > 0 && !m.failed && !m.exited && m.sticky == 0 {
		c := queue[0]
		queue = queue[1:]
		if cs.byGrid[c].tail {
			tails = append(tails, c)
			continue
		}
		run(c)
		queue = append(queue, c.children...)
		c.children = nil
	}
	sort.SliceStable(tails, func(i, j int) bool { return cs.byGrid[tails[i]].depth > cs.byGrid[tails[j]].depth })
	for _, c := range tails {
		if m.failed || m.exited || m.sticky != 0 {
			return
		}
		run(c)
		m.runChildren(c, s)
	}
}
