package sem

import (
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
// Limits, as a race checker: a child is ordered after every access of its
// parent grid and of the grids launched before it, where CUDA orders it
// only after the launching thread's earlier accesses (and what that thread
// synchronized with); races between a child and parent threads other than
// the launcher, or between children in different streams, are not
// reported.

// cdpAPI are the runtime calls device code may make (the device runtime
// API): streams for launches, cudaMalloc and cudaFree on the device heap
// (as malloc and free in device code), and the thread's last error, which
// is always cudaSuccess as a failing device-side launch ends the run
// (C0603).
var cdpAPI = map[string]bool{"cudaStreamCreateWithFlags": true, "cudaStreamDestroy": true,
	"cudaMalloc": true, "cudaFree": true, "cudaGetLastError": true, "cudaPeekAtLastError": true}

func init() {
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

// runChildren runs the grids launched from g's threads and theirs,
// breadth first, each as the stream's next operation after g (see above).
func (m *Machine) runChildren(g *gridRun, s *stream) {
	queue := g.children
	g.children = nil
	for len(queue) > 0 && !m.failed && !m.exited && m.sticky == 0 {
		c := queue[0]
		queue = queue[1:]
		s.vc[s.agent]++
		ctx := &accessCtx{agent: s.agent, clock: vcGet(s.vc, s.agent), vc: s.vc}
		c.agent, c.clock = ctx.agent, ctx.clock
		m.runGrid(c, ctx)
		queue = append(queue, c.children...)
		c.children = nil
	}
}
