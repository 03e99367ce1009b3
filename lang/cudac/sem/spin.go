package sem

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Spin detection: issue 6 item 5 asks that "a program where no thread can
// move" be reported with the positions of the waiting threads and the run
// ended. Threads blocked at a barrier or a warp collective are found by the
// scheduler (deadlock, exec.go). A thread that spins on a flag no thread will
// set, or on a lock whose holder exited, never blocks: without this file it
// would run until the step limit (C0605).
//
// The argument is exact, not a timeout. Between two accesses of memory a
// thread's behaviour is a function of its own state (frames, pc, operand
// stack, slots) and of the contents of memory. Memory has a version, m.mver,
// bumped by every store, atomic, copy or set that changes a byte, by every
// allocation and free, and (conservatively) by every write through the
// runtime's general path; a store of the value already there, a failed
// atomicCAS or an atomicExch of the same value does not bump it. If a thread
// is in the same state at two backward jumps and the version did not change
// in between, then, as long as nobody changes memory, it repeats that
// stretch forever. When every thread of every started block is such a
// thread, has exited, or waits at a barrier or collective that one of them
// would have to reach, nobody can change memory again, and the run can never
// make progress: C0504. A thread that reads the clock is never taken to
// repeat (its future depends on time), and a thread whose loop keeps changing
// memory (a counter) is not detected; it still ends at the step limit.
//
// Cost. Snapshots are taken only while memory is quiet: the scheduler
// watches a block's version over windows of spinWindow instructions and
// turns the detector on (m.watch) only after a window without a change.
// Outside it a backward jump costs one test of m.watch; a store costs a
// reload and a compare. Cycles are found with Brent's method: the snapshot
// moves to the current state after 1, 2, 4, ... jumps, so a loop of λ jumps
// entered after μ is confirmed within O(μ+λ) jumps, each comparing one state.
//
// Blocks. Blocks of a grid run one after another (exec.go). A block whose
// threads all spin may be waiting for a later block (a consumer waiting for
// a producer, the look-back of a single-pass scan under another block
// order), so it is parked, and the next block starts; a parked block is
// resumed after memory changed. Only when every started block is parked,
// none can be resumed and none is left to start is the livelock reported.
// This treats every block of a grid as resident at once, which a GPU
// guarantees only up to its occupancy limit.

// spinWindow is how many instructions of a block without a change of
// memory turn the detector on.
const spinWindow = 1 << 16

// spinSnap is one saved thread state.
type spinSnap struct {
	mver   uint64
	syncs  uint32 // t.syncs when taken
	frames []spinFrame
	stack  []uint64
	slots  []uint64
	power  int
	lam    int
}

type spinFrame struct {
	fn   *Function
	pc   int
	base int
}

func (s *spinSnap) take(t *Thread, mver uint64) {
	s.mver = mver
	s.syncs = t.syncs
	s.frames = s.frames[:0]
	for _, f := range t.frames {
		s.frames = append(s.frames, spinFrame{f.fn, f.pc, f.base})
	}
	s.stack = append(s.stack[:0], t.stack...)
	s.slots = append(s.slots[:0], t.slots...)
}

func (s *spinSnap) same(t *Thread) bool {
	if len(s.frames) != len(t.frames) || !slices.Equal(s.stack, t.stack) || !slices.Equal(s.slots, t.slots) {
		return false
	}
	for i, f := range t.frames {
		if g := s.frames[i]; g.fn != f.fn || g.pc != f.pc || g.base != f.base {
			return false
		}
	}
	return true
}

// spinAt saves the interpreter's registers into t (pc at the jump) and runs
// the detector.
func (m *Machine) spinAt(t *Thread, fr *frame, pc int, st, slots []uint64) {
	fr.pc = pc - 1
	t.stack = st
	t.slots = slots
	m.spinCheck(t)
	fr.pc = pc
}

// spinCheck is called at a backward jump of t while m.watch is on.
func (m *Machine) spinCheck(t *Thread) {
	if t.cycling {
		if t.cycMver == m.mver {
			return
		}
		t.cycling = false
	}
	s := t.cyc
	if s == nil || s.mver != m.mver {
		if s == nil {
			// a clock read drops the snapshot (runtime.go): reuse its
			// buffers, which a loop polling clock() reallocated at every
			// turn (issue 15 item 7; simpleHyperQ)
			if s = t.cycSpare; s == nil {
				s = &spinSnap{}
				t.cycSpare = s
			}
			t.cyc = s
		}
		s.take(t, m.mver)
		s.power, s.lam = 1, 0
		t.rdObj = 0
		return
	}
	s.lam++
	if s.same(t) {
		t.cycling, t.cycMver = true, s.mver
		t.cycSync = t.syncs != s.syncs
		t.spinObj, t.spinOff, t.spinPos = t.rdObj, t.rdOff, t.rdPos
		fr := &t.frames[len(t.frames)-1]
		t.loopPos = fr.fn.Code[fr.pc].P
		m.cycles++
		return
	}
	if s.lam == s.power {
		s.power *= 2
		s.lam = 0
		s.take(t, m.mver)
		t.rdObj = 0
	}
}

// spinning reports whether t is known to repeat forever while memory stays
// as it is now.
func (m *Machine) spinning(t *Thread) bool {
	return t.cycling && t.cycMver == m.mver
}

// stuck reports whether no thread of b can move unless another block changes
// memory: every thread exited, waits at a barrier or collective, or spins,
// and at least one spins (a block with no spinning thread is a barrier
// deadlock, reported at once by runBlock). A thread that waits at a barrier
// or collective counts only if no spinning thread passes one in its loop:
// otherwise the spinner may release it, and it may then make progress of
// its own (it has to be seen repeating too).
func (m *Machine) stuck(b *blockRun) bool {
	spin, viaSync, waiting := false, false, false
	for _, t := range b.threads {
		if m.spinning(t) {
			spin = true
			viaSync = viaSync || t.cycSync
			continue
		}
		switch t.state {
		case tsDone:
		case tsBarrier, tsWarp, tsNamed, tsMbar, tsWG, tsGrid, tsCluster:
			waiting = true
		default:
			return false
		}
	}
	return spin && !(viaSync && waiting)
}

// livelock reports the parked blocks of g, none of which can move (C0504).
func (m *Machine) livelock(g *gridRun, parked []*blockExec) {
	blocks := make([]*blockRun, 0, len(parked))
	for _, e := range parked {
		blocks = append(blocks, e.b)
	}
	sort.Slice(blocks, func(i, j int) bool { return blocks[i].id < blocks[j].id })
	m.stalled(g, blocks, "C0504", fmt.Sprintf("livelock in kernel %s: no thread can make progress", g.fn.Name))
}

// stalled reports blocks of g none of whose threads can move, with what
// each thread spins or waits at: a livelock (C0504) or a deadlock across
// the CTAs of a cluster (C0502, cluster.go).
func (m *Machine) stalled(g *gridRun, blocks []*blockRun, code, msg string) {
	type group struct {
		block int32
		pos   int32
		verb  string // spin, loop or wait
		what  string
		tids  []int
	}
	var groups []*group
	index := map[string]*group{}
	var exited []string
	for _, b := range blocks {
		var done []int
		for i, t := range b.threads {
			var pos int32
			var verb, what string
			switch {
			case t.state == tsDone:
				done = append(done, i)
				continue
			case m.spinning(t):
				if t.spinObj != 0 && int(t.spinObj) < len(m.objs) {
					pos, verb = t.spinPos, "spin"
					what = fmt.Sprintf("reading %s (byte %d), which no thread will change", m.objs[t.spinObj].describe(), t.spinOff)
				} else {
					pos, verb, what = t.loopPos, "loop", "forever without reading memory another thread could change"
				}
			case t.state == tsBarrier:
				pos, verb, what = t.waitPos, "wait", "at __syncthreads"
			case t.state == tsNamed:
				pos, verb, what = t.waitPos, "wait", fmt.Sprintf("at named barrier %d", t.barID)
				if t.barID >= cgTileBar {
					what = "at " + namedBarWhat(t.barID) // cgbig.go
				}
			case t.state == tsCluster:
				pos, verb, what = t.waitPos, "wait", "at barrier.cluster.wait"
			case t.state == tsGrid:
				pos, verb, what = t.waitPos, "wait", "at grid.sync()"
			case t.state == tsWG:
				pos, verb, what = t.waitPos, "wait", "at wgmma.mma_async"
			case t.state == tsMbar:
				pos, verb, what = t.waitPos, "wait", fmt.Sprintf("for an mbarrier phase of parity %d", t.mbarParity)
			default:
				pos, verb, what = t.waitPos, "wait", "at "+warpOpNames[t.warpOp]
			}
			k := fmt.Sprintf("%d/%d/%s/%s", b.id, pos, verb, what)
			gr := index[k]
			if gr == nil {
				gr = &group{block: b.id, pos: pos, verb: verb, what: what}
				index[k] = gr
				groups = append(groups, gr)
			}
			gr.tids = append(gr.tids, i)
		}
		if len(done) > 0 {
			exited = append(exited, tidList(done, g.bdim)+" of block "+dimStr(b.idx, g.gdim))
		}
	}
	// spinning threads first, then by block and position, so that the
	// primary position does not depend on the schedule
	sort.SliceStable(groups, func(i, j int) bool {
		si, sj := groups[i].verb != "wait", groups[j].verb != "wait"
		if si != sj {
			return si
		}
		if groups[i].block != groups[j].block {
			return groups[i].block < groups[j].block
		}
		return groups[i].pos < groups[j].pos
	})
	if len(exited) > 0 {
		msg += " (" + strings.Join(exited, "; ") + " exited)"
	}
	d := m.diags.Errorf(m.pos(groups[0].pos), code, "%s", msg)
	for _, gr := range groups {
		b := g.gdim.Unlinear(int(gr.block))
		verb := gr.verb
		if len(gr.tids) == 1 {
			verb += "s"
		}
		d.Note(m.pos(gr.pos), "%s of block %s %s %s", tidList(gr.tids, g.bdim), dimStr(b, g.gdim), verb, gr.what)
	}
	m.failed = true
	m.faultSeen = true
}
