package sem

// Host functions in streams (issue 15 item 3; CUDA Runtime API
// "cudaLaunchHostFunc", "cudaStreamAddCallback"): the function is a stream
// operation like a kernel or a copy. It runs, as host code, when the
// stream reaches it (after the stream's earlier work, before its later
// work), on a thread of its own whose accesses carry the stream's clock:
// the race detector orders them after the stream's earlier kernels and
// copies and before its later ones, and a host access that no
// synchronization orders against the callback is a race (C0501), as is a
// kernel of another stream touching the same bytes unordered. A callback
// of cudaStreamAddCallback gets (stream, cudaSuccess, userData); one of
// cudaLaunchHostFunc gets userData. CUDA forbids CUDA API calls inside
// either ("must not make any CUDA API calls"): such a call is C0607.

func initHostfn() {
	fnT := func(params ...*Type) *Type {
		return ptrTo(&Type{Kind: Func, Elem: tVoid, Params: params, size: 1, align: 1, complete: true})
	}
	builtinTypedefs["cudaHostFn_t"] = fnT(ptrTo(tVoid))
	builtinTypedefs["cudaStreamCallback_t"] = fnT(tLong, tInt, ptrTo(tVoid))
	builtinSigs["cudaLaunchHostFunc"] = sig(tInt, hostSide, tLong, tAny, tAny)
	builtinSigs["cudaStreamAddCallback"] = sig(tInt, hostSide, tLong, tAny, tAny, tUInt)
	enq := func(cb bool) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			s := m.streamOf(a[0])
			if s == nil {
				return m.apiError(400), stDone // cudaErrorInvalidResourceHandle
			}
			fn, _, good := m.funcOfPtr(a[1])
			if !good || fn == nil || !fn.Host {
				m.fault(t, pos, "C0607", "%s: the function is not a host function of the program", apiName(cb))
				return 0, stFault
			}
			n := 0
			if cb {
				n = 1
				if a[3] != 0 {
					return m.apiError(1), stDone // cudaErrorInvalidValue: flags must be 0
				}
			}
			m.enqueue(s, &devOp{kind: opHostFn, dst: a[1], src: a[2], n: n, val: byte(s.id), pos: pos})
			return ok(0)
		}
	}
	defb("cudaLaunchHostFunc", enq(false))
	defb("cudaStreamAddCallback", enq(true))
}

func apiName(cb bool) string {
	if cb {
		return "cudaStreamAddCallback"
	}
	return "cudaLaunchHostFunc"
}

// hostFnAPI reports a CUDA API call made by a stream callback.
func (m *Machine) hostFnAPI(t *Thread, pos int32, name string) (uint64, status) {
	m.fault(t, pos, "C0607", "%s inside a host function run by a stream (cudaLaunchHostFunc, cudaStreamAddCallback): CUDA forbids CUDA API calls there", name)
	return 0, stFault
}

// runHostFn runs the host function of op on its own thread with the
// stream's ordering context.
func (m *Machine) runHostFn(s *stream, op *devOp, ctx *accessCtx) {
	fn, _, _ := m.funcOfPtr(op.dst)
	args := []uint64{op.src}
	if op.n == 1 {
		args = []uint64{uint64(s.id), 0, op.src}
	}
	t := &Thread{host: true, ctx: ctx}
	if m.pth != nil {
		// With POSIX threads in the program, the callback runs as the
		// runtime's own host thread: its own identity for mutexes and
		// condition variables (it is not the main thread), and the
		// stream's clock as its clock, so that what it releases and
		// acquires orders it with the program's threads (pthread.go
		// works on the running thread's m.hostCtx).
		saved, cur := m.hostCtx, m.pth.cur
		cb := &pthread{t: t, id: -1}
		t.pth = cb
		m.hostCtx = *ctx
		t.ctx = &m.hostCtx
		m.pth.cur = cb
		m.inHostFn = true
		m.callOn(t, fn, args)
		m.inHostFn = false
		*ctx = m.hostCtx
		s.vc = ctx.vc
		m.hostCtx, m.pth.cur = saved, cur
		return
	}
	m.inHostFn = true
	m.callOn(t, fn, args)
	m.inHostFn = false
}
