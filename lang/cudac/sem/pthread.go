package sem

import (
	"fmt"
	"strings"
)

// POSIX threads on the host (<pthread.h>, issue 15 item 2: "pthread
// create/join, host threads as interpreter threads, with their own race
// detection"). A thread made by pthread_create is an interpreter thread
// running host code, scheduled round-robin with the main thread in slices
// of pthQuantum instructions (any interleaving is sound for the race
// check, which does not depend on the schedule).
//
// Each host thread is an agent of the race detector (race.go) with its
// own clock and vector clock, so two host threads' accesses are unordered
// unless synchronization orders them, and a host-host data race is C0501
// at both positions like a device race. The happens-before edges are
// POSIX's (IEEE Std 1003.1, "Memory Synchronization"): pthread_create
// orders the creator's earlier accesses before the new thread's,
// pthread_join orders the joined thread's accesses before the joiner's
// later ones, pthread_mutex_unlock releases to the next
// pthread_mutex_lock of the same mutex, and pthread_barrier_wait orders
// every participant's accesses before the barrier before every
// participant's after it. A release ticks the thread's clock and joins
// its vector clock into the synchronization object; an acquire joins the
// object's into the thread's.
//
// The running host thread's ordering context is m.hostCtx (every host
// thread's ctx points to it, and a switch of threads saves and restores
// its contents), so the CUDA runtime called from a thread orders device
// work after that thread's accesses. A thread's agent number is a slot of
// m.streams that no stream uses (agents are numbered like streams).
//
// A thread that waits (join, lock, barrier) is resumed by the scheduler
// once it can go on; when no host thread can run and some wait, the run
// ends with C0507 naming each waiting thread. Locking a mutex the thread
// holds, unlocking one it does not hold, joining itself or a thread
// already joined are C0507 as well (undefined behaviour or a deadlock for
// POSIX's default mutex). Returning from main ends the program, as exit
// does, whatever the other threads do.

const pthQuantum = 20000 // instructions per scheduling slice

// pthread wait kinds
const (
	pwNone = iota
	pwJoin
	pwLock
	pwBarrier
	pwExit // pthread_exit in main: wait for the others, then exit(0)
	pwCond // pthread_cond_wait before a signal
)

type pthread struct {
	t      *Thread
	id     int
	ctx    accessCtx // saved while another host thread runs
	done   bool
	joined bool
	ret    uint64
	final  []int32 // the vector clock it ended with (pthread_join acquires it)
	at     int32   // the pthread_create call
	exit   bool    // pthread_exit was called

	wait     int
	condWait bool   // the lock wait is the relock of a pthread_cond_wait
	waitOn   uint64 // join: the thread id; lock: the mutex; barrier: the barrier; cond: the mutex
	waitOut  uint64 // join: where the result goes
	waitPos  int32
	barGen   int
}

type pmutex struct {
	owner *pthread
	vc    []int32
}

// pcond is a condition variable: its waiters in arrival order. A signal
// moves the first to relocking its mutex, a broadcast all of them (POSIX
// allows spurious wakeups, which the model never makes). A signal orders
// nothing by itself: the mutex does.
type pcond struct {
	waiters []*pthread
}

type pbarrier struct {
	count   int
	arrived int
	gen     int
	vc      []int32 // the releases of the arrivals of this generation
	done    []int32 // those of the last completed generation
}

// pthreads is the machine's host-thread state (nil until the first
// pthread_create).
type pthreads struct {
	all      []*pthread // [0] is the main thread
	cur      *pthread
	mutexes  map[uint64]*pmutex
	barriers map[uint64]*pbarrier
	conds    map[uint64]*pcond
}

// pthInit makes the main thread's record at the first pthread_create.
func (m *Machine) pthInit() {
	if m.pth != nil {
		return
	}
	main := &pthread{t: m.host}
	m.host.pth = main
	m.pth = &pthreads{all: []*pthread{main}, cur: main, mutexes: map[uint64]*pmutex{}, barriers: map[uint64]*pbarrier{}, conds: map[uint64]*pcond{}}
}

// switchTo makes p the running host thread: m.hostCtx holds its context.
func (m *Machine) switchTo(p *pthread) {
	if m.pth.cur == p {
		return
	}
	m.pth.cur.ctx = m.hostCtx
	m.hostCtx = p.ctx
	m.pth.cur = p
}

// release ticks the running host thread's clock after joining its vector
// clock into dst (a release of everything it did so far).
func (m *Machine) pthRelease(dst []int32) []int32 {
	ctx := &m.hostCtx
	ctx.clock++
	ctx.vc = vcSet(ctx.vc, ctx.agent, ctx.clock)
	return vcJoin(dst, ctx.vc)
}

func vcSet(vc []int32, i, v int32) []int32 {
	for len(vc) <= int(i) {
		vc = append(vc, 0)
	}
	vc[i] = v
	return vc
}

// pthName describes host thread agent a for race reports.
func (m *Machine) pthName(agent int32) string {
	if m.pth != nil {
		for _, p := range m.pth.all[1:] {
			if p.ctx.agent == agent {
				return fmt.Sprintf("host thread %d (pthread_create at %s)", p.id, m.pos(p.at))
			}
		}
	}
	return "a host thread"
}

// runOthers runs a slice of every host thread but cur that can run; it
// reports whether any ran. It returns with cur running again.
func (m *Machine) runOthers(cur *pthread) (progress, good bool) {
	for _, p := range m.pth.all {
		if p == cur || p.done {
			continue
		}
		if p.wait != pwNone && !m.pthWake(p) {
			continue
		}
		m.switchTo(p)
		progress = true
		s := m.run(p.t, pthQuantum)
		switch s {
		case stFault:
			return progress, false
		case stDone:
			m.pthFinish(p, p.t.retVal)
		case stBlocked:
			if p.exit {
				m.pthFinish(p, p.ret)
			}
		}
		if m.exited || m.failed {
			break
		}
	}
	m.switchTo(cur)
	if m.failed {
		return progress, false
	}
	return progress, true
}

// pthFinish ends the running host thread p with result v.
func (m *Machine) pthFinish(p *pthread, v uint64) {
	p.done, p.ret = true, v
	p.final = append([]int32(nil), m.pthRelease(nil)...)
}

// pthWake resumes waiting thread p if it can go on, completing its call
// (the acquire, the result on its stack); false: it still waits.
func (m *Machine) pthWake(p *pthread) bool {
	switch p.wait {
	case pwJoin:
		q := m.pth.all[p.waitOn]
		if !q.done {
			return false
		}
		m.switchTo(p)
		if !m.pthJoined(p, q, p.waitOut, p.waitPos) {
			return false
		}
	case pwLock:
		mu := m.pth.mutexes[p.waitOn]
		if mu.owner != nil {
			return false
		}
		m.switchTo(p)
		mu.owner = p
		p.condWait = false
		m.hostCtx.vc = vcJoin(m.hostCtx.vc, mu.vc)
	case pwBarrier:
		b := m.pth.barriers[p.waitOn]
		if b.gen == p.barGen {
			return false
		}
		m.switchTo(p)
		m.hostCtx.vc = vcJoin(m.hostCtx.vc, b.done)
	case pwExit, pwCond:
		return false
	}
	p.wait = pwNone
	p.t.stack = append(p.t.stack, 0)
	return true
}

// pthJoined completes p's pthread_join of finished thread q.
func (m *Machine) pthJoined(p, q *pthread, out uint64, pos int32) bool {
	q.joined = true
	m.hostCtx.vc = vcJoin(m.hostCtx.vc, q.final)
	if out != 0 && !m.store(p.t, out, mU64, q.ret, pos) {
		return false
	}
	return true
}

// hostWait runs the other host threads while the main thread (or the
// thread t, at the top of its run) waits; false: the run ends.
func (m *Machine) hostWait(t *Thread) bool {
	p := t.pth
	for {
		if p.wait == pwExit {
			if m.allDone(p) {
				m.exited, m.exitCode = true, 0
				return true
			}
		} else if m.pthWake(p) {
			m.switchTo(p)
			return true
		}
		progress, good := m.runOthers(p)
		if !good {
			return false
		}
		if m.exited {
			return true
		}
		if !progress {
			if p.wait == pwExit && m.allDone(p) {
				continue
			}
			// Every host thread waits, but the GPU and the runtime's
			// callback thread do not: queued device work and stream
			// callbacks still run, and may be what the threads wait
			// for (a callback that signals a condition variable, as
			// NVIDIA's simpleCallback does).
			if m.step() {
				if m.failed {
					return false
				}
				continue
			}
			if p.wait != pwExit && m.pthWake(p) {
				m.switchTo(p)
				return true
			}
			m.pthDeadlock(p)
			return false
		}
		if m.steps > m.opts.MaxSteps {
			m.fault(t, t.curPos(), "C0605", "execution step limit (%d instructions) exceeded (--max-steps N raises it)", m.opts.MaxSteps)
			return false
		}
		if m.overTime() {
			m.timeFault(t)
			return false
		}
	}
}

func (m *Machine) allDone(except *pthread) bool {
	for _, q := range m.pth.all {
		if q != except && !q.done {
			return false
		}
	}
	return true
}

// pthDeadlock reports host threads that wait for each other.
func (m *Machine) pthDeadlock(main *pthread) {
	var waits []string
	for _, q := range m.pth.all {
		if q.done || q == main && q.wait == pwExit {
			continue
		}
		who := "the main thread"
		if q.id > 0 {
			who = fmt.Sprintf("host thread %d", q.id)
		}
		what := map[int]string{pwJoin: "pthread_join", pwLock: "pthread_mutex_lock", pwBarrier: "pthread_barrier_wait", pwCond: "pthread_cond_wait"}[q.wait]
		if q.wait == pwLock && q.waitPos != 0 && q.condWait {
			what = "pthread_cond_wait (relocking its mutex)"
		}
		waits = append(waits, fmt.Sprintf("%s waits in %s at %s", who, what, m.pos(q.waitPos)))
	}
	// reported at the first created thread that waits (the main
	// thread's wait is usually a join of the others)
	pos := main.waitPos
	for _, q := range m.pth.all {
		if !q.done && q != main && q.wait != pwNone {
			pos = q.waitPos
			break
		}
	}
	m.fault(nil, pos, "C0507", "deadlock: every host thread that has not finished waits (%s)", strings.Join(waits, "; "))
}

// pthWrite zeroes the n bytes of a pthread object at p, as its init
// function writes them (so a copy of the struct holding it reads
// initialized memory), checked like any write.
func (m *Machine) pthWrite(t *Thread, p uint64, n int, pos int32) bool {
	b, good := m.resolve(t, p, n, pos, true, false)
	if !good {
		return false
	}
	clear(b)
	m.mver++
	return true
}

// pthMisuse ends the run for a misuse of a pthread object.
func (m *Machine) pthMisuse(t *Thread, pos int32, format string, args ...any) (uint64, status) {
	m.fault(t, pos, "C0507", format, args...)
	return 0, stFault
}

func initPthread() {
	for name, s := range map[string]*bsig{
		"pthread_create":          sig(tInt, hostSide, tAny, tAny, tAny, tAny),
		"pthread_join":            sig(tInt, hostSide, tAny, tAny),
		"pthread_exit":            sig(tVoid, hostSide, tAny),
		"pthread_self":            sig(tULong, hostSide),
		"pthread_equal":           sig(tInt, hostSide, tULong, tULong),
		"pthread_mutex_init":      sig(tInt, hostSide, tAny, tAny),
		"pthread_mutex_destroy":   sig(tInt, hostSide, tAny),
		"pthread_mutex_lock":      sig(tInt, hostSide, tAny),
		"pthread_mutex_trylock":   sig(tInt, hostSide, tAny),
		"pthread_mutex_unlock":    sig(tInt, hostSide, tAny),
		"pthread_barrier_init":    sig(tInt, hostSide, tAny, tAny, tUInt),
		"pthread_barrier_destroy": sig(tInt, hostSide, tAny),
		"pthread_barrier_wait":    sig(tInt, hostSide, tAny),
		"pthread_attr_init":       sig(tInt, hostSide, tAny),
		"pthread_cond_init":       sig(tInt, hostSide, tAny, tAny),
		"pthread_cond_destroy":    sig(tInt, hostSide, tAny),
		"pthread_cond_wait":       sig(tInt, hostSide, tAny, tAny),
		"pthread_cond_signal":     sig(tInt, hostSide, tAny),
		"pthread_cond_broadcast":  sig(tInt, hostSide, tAny),
		"pthread_attr_destroy":    sig(tInt, hostSide, tAny),
	} {
		builtinSigs[name] = s
	}
	defb("pthread_create", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		fn, _, good := m.funcOfPtr(a[2])
		if !good || fn == nil || !fn.Host || fn.Global {
			m.fault(t, pos, "C0405", "pthread_create with a start routine that is not a host function (0x%x)", a[2])
			return 0, stFault
		}
		if t.pth == nil && t != m.host {
			m.fault(t, pos, "C0309", "pthread_create from a stream's host function is not modeled")
			return 0, stFault
		}
		m.pthInit()
		// the new thread's agent: a stream slot no stream uses
		agent := int32(len(m.streams) + 1)
		m.streams = append(m.streams, &stream{id: len(m.streams), agent: agent})
		p := &pthread{id: len(m.pth.all), at: pos}
		vc := append([]int32(nil), m.pthRelease(nil)...)
		p.ctx = accessCtx{agent: agent, clock: 1, vc: vcSet(vc, agent, 1)}
		nt := &Thread{host: true, ctx: &m.hostCtx, pth: p}
		p.t = nt
		nt.slots = make([]uint64, fn.NSlots)
		if len(fn.Type.Params) > 0 && fn.NSlots > 0 {
			nt.slots[0] = a[3]
		}
		nt.frames = []frame{{fn: fn, base: 0}}
		m.pth.all = append(m.pth.all, p)
		if a[0] != 0 && !m.store(t, a[0], mU64, uint64(p.id), pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("pthread_join", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if m.pth == nil || a[0] == 0 || a[0] >= uint64(len(m.pth.all)) {
			return m.pthMisuse(t, pos, "pthread_join of %d, which is no thread this program created", a[0])
		}
		q := m.pth.all[a[0]]
		switch {
		case q == t.pth:
			return m.pthMisuse(t, pos, "a thread joins itself: it would wait forever")
		case q.joined:
			return m.pthMisuse(t, pos, "pthread_join of host thread %d, which was already joined", q.id)
		case q.done:
			if !m.pthJoined(t.pth, q, a[1], pos) {
				return 0, stFault
			}
			return ok(0)
		}
		if t.pth.id < 0 {
			return m.callbackWaits(t, pos, "pthread_join")
		}
		t.pth.wait, t.pth.waitOn, t.pth.waitOut, t.pth.waitPos = pwJoin, a[0], a[1], pos
		return 0, stBlocked
	})
	defb("pthread_exit", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if t.pth == nil {
			// no other thread exists: the process exits with status 0
			m.exited, m.exitCode = true, 0
			return 0, stBlocked
		}
		t.pth.exit, t.pth.ret = true, a[0]
		if t.pth.id == 0 {
			t.pth.wait, t.pth.waitPos = pwExit, pos
		}
		return 0, stBlocked
	})
	defb("pthread_self", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if t.pth == nil {
			return ok(0)
		}
		return ok(uint64(t.pth.id))
	})
	defb("pthread_equal", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(b2u(a[0] == a[1]))
	})
	defb("pthread_mutex_init", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if !m.pthWrite(t, a[0], 40, pos) {
			return 0, stFault
		}
		m.pthInit()
		m.pth.mutexes[a[0]] = &pmutex{}
		return ok(0)
	})
	defb("pthread_mutex_destroy", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if m.pth != nil {
			if mu := m.pth.mutexes[a[0]]; mu != nil && mu.owner != nil {
				return m.pthMisuse(t, pos, "pthread_mutex_destroy of a locked mutex")
			}
			delete(m.pth.mutexes, a[0])
		}
		return ok(0)
	})
	lock := func(try bool) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			m.pthInit()
			p := t.pth
			if p == nil {
				p = m.pth.all[0]
			}
			mu := m.pth.mutexes[a[0]]
			if mu == nil {
				// PTHREAD_MUTEX_INITIALIZER: initialized where first used
				mu = &pmutex{}
				m.pth.mutexes[a[0]] = mu
			}
			switch {
			case mu.owner == p:
				if try {
					return ok(16) // EBUSY
				}
				return m.pthMisuse(t, pos, "a thread locks a mutex it already holds: it would wait forever (a default mutex is not recursive)")
			case mu.owner == nil:
				mu.owner = p
				m.hostCtx.vc = vcJoin(m.hostCtx.vc, mu.vc)
				return ok(0)
			case try:
				return ok(16) // EBUSY
			}
			if p.id < 0 {
				return m.callbackWaits(t, pos, "pthread_mutex_lock of a mutex another host thread holds")
			}
			p.wait, p.waitOn, p.waitPos = pwLock, a[0], pos
			return 0, stBlocked
		}
	}
	defb("pthread_mutex_lock", lock(false))
	defb("pthread_mutex_trylock", lock(true))
	defb("pthread_mutex_unlock", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		var mu *pmutex
		if m.pth != nil {
			mu = m.pth.mutexes[a[0]]
		}
		p := t.pth
		if p == nil && m.pth != nil {
			p = m.pth.all[0]
		}
		if mu == nil || mu.owner == nil || mu.owner != p {
			return m.pthMisuse(t, pos, "pthread_mutex_unlock of a mutex this thread does not hold")
		}
		mu.owner = nil
		mu.vc = m.pthRelease(mu.vc)
		return ok(0)
	})
	defb("pthread_barrier_init", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[2] == 0 {
			return ok(22) // EINVAL
		}
		if !m.pthWrite(t, a[0], 32, pos) {
			return 0, stFault
		}
		m.pthInit()
		m.pth.barriers[a[0]] = &pbarrier{count: int(a[2])}
		return ok(0)
	})
	defb("pthread_barrier_destroy", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if m.pth != nil {
			delete(m.pth.barriers, a[0])
		}
		return ok(0)
	})
	defb("pthread_barrier_wait", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		var b *pbarrier
		if m.pth != nil {
			b = m.pth.barriers[a[0]]
		}
		if b == nil {
			return m.pthMisuse(t, pos, "pthread_barrier_wait on a barrier that pthread_barrier_init did not initialize")
		}
		p := t.pth
		if p == nil {
			p = m.pth.all[0]
		}
		b.vc = m.pthRelease(b.vc)
		b.arrived++
		if b.arrived == b.count {
			// the last arrival: every participant goes on, this one as
			// the serial thread (PTHREAD_BARRIER_SERIAL_THREAD)
			b.arrived = 0
			b.gen++
			b.done, b.vc = b.vc, nil
			m.hostCtx.vc = vcJoin(m.hostCtx.vc, b.done)
			return ok(^uint64(0)) // -1
		}
		if p.id < 0 {
			return m.callbackWaits(t, pos, "pthread_barrier_wait")
		}
		p.wait, p.waitOn, p.waitPos, p.barGen = pwBarrier, a[0], pos, b.gen
		return 0, stBlocked
	})
	defb("pthread_cond_init", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if !m.pthWrite(t, a[0], 48, pos) {
			return 0, stFault
		}
		m.pthInit()
		m.pth.conds[a[0]] = &pcond{}
		return ok(0)
	})
	defb("pthread_cond_destroy", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if m.pth != nil {
			if cv := m.pth.conds[a[0]]; cv != nil && len(cv.waiters) > 0 {
				return m.pthMisuse(t, pos, "pthread_cond_destroy of a condition variable threads wait on")
			}
			delete(m.pth.conds, a[0])
		}
		return ok(0)
	})
	defb("pthread_cond_wait", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		m.pthInit()
		p := t.pth
		if p == nil {
			p = m.pth.all[0]
		}
		mu := m.pth.mutexes[a[1]]
		if mu == nil || mu.owner != p {
			return m.pthMisuse(t, pos, "pthread_cond_wait with a mutex this thread does not hold")
		}
		cv := m.pth.conds[a[0]]
		if cv == nil {
			cv = &pcond{} // PTHREAD_COND_INITIALIZER
			m.pth.conds[a[0]] = cv
		}
		if p.id < 0 {
			return m.callbackWaits(t, pos, "pthread_cond_wait")
		}
		mu.owner = nil
		mu.vc = m.pthRelease(mu.vc)
		cv.waiters = append(cv.waiters, p)
		p.wait, p.waitOn, p.waitPos, p.condWait = pwCond, a[1], pos, true
		return 0, stBlocked
	})
	signal := func(all bool) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			if m.pth == nil {
				return ok(0)
			}
			cv := m.pth.conds[a[0]]
			if cv == nil {
				return ok(0)
			}
			n := len(cv.waiters)
			if !all && n > 1 {
				n = 1
			}
			for _, w := range cv.waiters[:n] {
				w.wait = pwLock // relock the mutex, then return
			}
			cv.waiters = cv.waiters[n:]
			return ok(0)
		}
	}
	defb("pthread_cond_signal", signal(false))
	defb("pthread_cond_broadcast", signal(true))
	defb("pthread_attr_init", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) { return ok(0) })
	defb("pthread_attr_destroy", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) { return ok(0) })
}

// callbackWaits reports a stream callback that would wait for another host
// thread. The runtime's callback thread (hostfn.go) runs a callback to
// completion when its stream reaches it, so a callback that waits is not
// modeled (on a GPU it may wait, or deadlock if the thread it waits for
// waits for the stream).
func (m *Machine) callbackWaits(t *Thread, pos int32, what string) (uint64, status) {
	m.fault(t, pos, "C0309", "%s inside a stream callback: a callback that waits for another host thread is not modeled (the callback runs to completion when its stream reaches it)", what)
	return 0, stFault
}
