package amir

import (
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/coll"
)

// Qualitative timelines of seed 000 Fig. 15, in order.
const (
	qCPU Qual = iota
	qStrm
	qCuda1
	qCuda2
	qSm80
	qTmaS
	qTmaG
	qWgA
	qWgD
	qWgS
	qWg0
)

var qualNames = []string{"cpu_in_order_qual", "cpu_cuda_stream_qual", "cuda_in_order_rmem_qual",
	"cuda_in_order_ram_qual", "Sm80_cp_async_qual", "tma_to_smem_async_qual", "tma_to_gmem_async_qual",
	"wmma_async_rmem_a_qual", "wmma_async_rmem_d_qual", "wmma_async_smem_qual", "wmma_zero_qual"}

func set(qs ...Qual) QualSet {
	var s QualSet
	for _, q := range qs {
		s |= Of(q)
	}
	return s
}

// syncTL is a row of Fig. 16: transitive flag, full set, temporal-only set.
type syncTL struct {
	trans      bool
	full, temp QualSet
}

var (
	allDevice   = set(qStrm, qCuda1, qCuda2, qSm80, qTmaS, qTmaG, qWgA, qWgD, qWgS, qWg0)
	cudaInOrder = syncTL{true, set(qCuda1, qCuda2), allDevice}
	sm80CpAsync = syncTL{false, set(qSm80), 0}
	sm80Generic = syncTL{false, set(qCuda1, qCuda2, qSm80), set(qTmaS, qTmaG, qWgA, qWgD, qWgS, qWg0)}
	streamSync  = syncTL{true, set(qStrm), 0}
)

// builder assembles small AMIR programs by hand.
type builder struct {
	p     *Program
	stack [][]*Stmt
	src   int
}

func newBuilder(blockDim int) *builder {
	b := &builder{p: &Program{Name: "t", QualNames: qualNames}}
	b.p.AddShape(coll.Collective{})                                                                 // 0: one thread
	b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: 32, Stride: 1}}})       // 1: warp
	b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: blockDim, Stride: 1}}}) // 2: CTA
	b.stack = [][]*Stmt{nil}
	return b
}

const (
	shThread = 0
	shWarp   = 1
	shCTA    = 2
)

func (b *builder) slot(name string) int {
	b.p.Slots = append(b.p.Slots, name)
	return len(b.p.Slots) - 1
}

func (b *builder) newVar(name string, barrier bool, dims ...int) int {
	var ds []IntExpr
	for _, d := range dims {
		ds = append(ds, k(d))
	}
	b.p.Vars = append(b.p.Vars, Var{Name: name, Barrier: barrier, Dims: ds, Param: true})
	return len(b.p.Vars) - 1
}

// local declares a variable allocated by an Alloc statement.
func (b *builder) local(name string, dims ...int) int {
	x := b.newVar(name, false, dims...)
	b.p.Vars[x].Param = false
	return x
}

func (b *builder) alloc(x int) {
	b.add(&Stmt{Kind: KAlloc, Acc: &Access{Var: x}, Ctl: &Ctl{Dims: b.p.Vars[x].Dims}})
}

func k(n int) IntExpr    { return func([]int) int { return n } }
func v(slot int) IntExpr { return func(env []int) int { return env[slot] } }
func at(x int, idx ...IntExpr) *Access {
	a := &Access{Var: x}
	for _, i := range idx {
		a.Idx = append(a.Idx, Window{Lo: i})
	}
	return a
}

func (b *builder) add(s *Stmt) *Stmt {
	b.src++
	s.Src = b.src
	if s.Sync == 0 {
		s.Sync = -1
	}
	top := len(b.stack) - 1
	b.stack[top] = append(b.stack[top], s)
	return s
}

func (b *builder) open() { b.stack = append(b.stack, nil) }
func (b *builder) close() []*Stmt {
	top := b.stack[len(b.stack)-1]
	b.stack = b.stack[:len(b.stack)-1]
	return top
}
func (b *builder) loop(slot, lo, hi int, tasks bool, body func()) {
	b.open()
	if tasks {
		b.add(&Stmt{Kind: KIncTaskID})
	}
	body()
	b.add(&Stmt{Kind: KLoop, Body: b.close(), Ctl: &Ctl{Slot: slot, Lo: k(lo), Hi: k(hi), Tasks: tasks}})
}

func thread(slot int) Exec { return Exec{Shape: shThread, Start: v(slot)} }
func warp(slot int) Exec {
	return Exec{Shape: shWarp, Start: func(env []int) int { return 32 * env[slot] }}
}
func cta() Exec { return Exec{Shape: shCTA} }

// read converts `... = x[i]` by exec: CheckMutates then RecordRead (Fig. 5).
func (b *builder) read(e Exec, a *Access, q Qual) {
	b.add(&Stmt{Kind: KCheckMutates, Exec: e, Acc: a, Level: FullyOrdered, Quals: Of(q), What: AccRead})
	b.add(&Stmt{Kind: KRecordRead, Exec: e, Acc: a, Level: FullyOrdered, Q: q})
}

// write converts `x[i] = ...` (Fig. 5) or an instruction's write-only
// argument (Fig. 19) with the given post level.
func (b *builder) write(e Exec, a *Access, q Qual, post Level) {
	b.add(&Stmt{Kind: KCheckReads, Exec: e, Acc: a, Level: TemporallyOrdered, Quals: Of(q), What: AccWrite})
	b.add(&Stmt{Kind: KCheckMutates, Exec: e, Acc: a, Level: TemporallyOrdered, Quals: Of(q), What: AccWrite})
	b.add(&Stmt{Kind: KClearReads, Acc: a})
	b.add(&Stmt{Kind: KClearMutates, Acc: a})
	b.add(&Stmt{Kind: KRecordMutate, Exec: e, Acc: a, Level: post, Q: q})
}

func (b *builder) fence(e Exec, pre, post syncTL) *Stmt {
	s := b.add(&Stmt{Kind: KFence, Exec: e, Convergent: pre.trans, Event: &Event{Pre: pre.full, Full: post.full, Temp: post.full | post.temp}})
	s.Sync = len(b.p.Syncs)
	b.p.Syncs = append(b.p.Syncs, SyncInfo{Src: s.Src})
	return s
}

func (b *builder) arrive(e Exec, tl syncTL, bar *Access) *Stmt {
	b.add(&Stmt{Kind: KRecordRead, Exec: e, Acc: bar, Level: FullyOrdered, Q: qCuda2})
	s := b.add(&Stmt{Kind: KArrive, Exec: e, Convergent: tl.trans, Bars: []*Access{bar}, Event: &Event{Pre: tl.full}})
	s.Sync = len(b.p.Syncs)
	b.p.Syncs = append(b.p.Syncs, SyncInfo{Src: s.Src})
	return s
}

func (b *builder) await(e Exec, bar *Access, tl syncTL, n int) *Stmt {
	s := b.add(&Stmt{Kind: KAwait, Exec: e, Acc: bar, Event: &Event{Full: tl.full, Temp: tl.full | tl.temp, N: k(n)}})
	s.Sync = len(b.p.Syncs)
	b.p.Syncs = append(b.p.Syncs, SyncInfo{Src: s.Src})
	return s
}

func (b *builder) build() *Program {
	b.p.Body = &Stmt{Kind: KBlock, Body: b.close(), Sync: -1}
	for range b.p.Srcs {
	}
	b.p.Srcs = make([]Src, b.src+1)
	b.p.Finish()
	return b.p
}

func run(t *testing.T, p *Program, disabled ...int) *Result {
	t.Helper()
	cfg := Config{MaxHazards: 5}
	if len(disabled) > 0 {
		cfg.Disabled = make([]bool, len(p.Syncs))
		for _, d := range disabled {
			cfg.Disabled[d] = true
		}
	}
	return New(p, cfg).Run(nil)
}

func kinds(r *Result) string {
	var s []string
	for _, h := range r.Hazards {
		s = append(s, h.Kind.String())
	}
	for _, f := range r.Faults {
		s = append(s, "fault: "+f.Msg)
	}
	return strings.Join(s, "; ")
}

// Seed 000 §2.1: each of 128 threads loads buf[tid]; a CTA Fence(cuda_in_order,
// cuda_in_order); each thread sums all of buf.
func smemSum(withFence bool) *Program {
	b := newBuilder(128)
	task, tid, i := b.slot("task"), b.slot("tid"), b.slot("i")
	buf := b.local("buf", 128)
	gmem := b.newVar("gmem", false, 128)
	b.loop(task, 0, 2, true, func() {
		b.alloc(buf)
		b.loop(tid, 0, 128, false, func() {
			b.read(thread(tid), at(gmem, v(tid)), qCuda2)
			b.write(thread(tid), at(buf, v(tid)), qCuda2, FullyOrdered)
		})
		if withFence {
			b.fence(cta(), cudaInOrder, cudaInOrder)
		}
		b.loop(tid, 0, 128, false, func() {
			b.loop(i, 0, 128, false, func() {
				b.read(thread(tid), at(buf, v(i)), qCuda2)
			})
		})
	})
	return b.build()
}

func TestFenceOrdersSmemLoadAndSum(t *testing.T) {
	if r := run(t, smemSum(true)); !r.OK() {
		t.Fatalf("with fence: %s", kinds(r))
	}
	r := run(t, smemSum(false))
	if r.Distinct != 1 || r.Hazards[0].Kind != ReadAfterWrite {
		t.Fatalf("without fence: got %d distinct: %s", r.Distinct, kinds(r))
	}
	h := r.Hazards[0]
	// Thread 0 reads buf[1], written by thread 1 of the same task.
	if h.Thread != 0 || h.OtherStart != 1 || h.Task != h.OtherTask || h.Index[0] != 1 {
		t.Errorf("hazard threads: %+v", h)
	}
	// 128*127 cross-thread reads in the first task; the second task is the
	// same (task symmetry: buf is task-local, the task slot is not read).
	if r.Occurrences != 128*127 {
		t.Errorf("occurrences = %d, want %d", r.Occurrences, 128*127)
	}
	if r.Stats.SkippedOps == 0 {
		t.Errorf("the second task was not skipped")
	}
}

// A task-local access indexed by the task iterator makes tasks differ: no
// task is skipped, and a hazard only the second task has is found.
func TestTaskAsymmetry(t *testing.T) {
	b := newBuilder(32)
	task, tid := b.slot("task"), b.slot("tid")
	buf := b.local("buf", 2)
	b.loop(task, 0, 2, true, func() {
		b.alloc(buf)
		// Task 1 writes buf[1] from thread 0 and reads it from thread 1.
		idx := &Access{Var: buf, Idx: []Window{{Lo: v(task)}}, Slots: []int{task}}
		b.write(Exec{Shape: shThread, Start: k(0)}, idx, qCuda2, FullyOrdered)
		b.loop(tid, 0, 2, false, func() {
			b.read(thread(tid), &Access{Var: buf, Idx: []Window{{Lo: k(1)}}}, qCuda2)
		})
	})
	r := run(t, b.build())
	if r.Distinct != 1 || r.Hazards[0].Kind != ReadAfterWrite || r.Stats.SkippedOps != 0 {
		t.Fatalf("got %s, skipped %d", kinds(r), r.Stats.SkippedOps)
	}
	if c := r.Hazards[0].TaskCoords; len(c) != 1 || c[0] != 1 {
		t.Errorf("task coords %v, want [1]", c)
	}
}

// Seed 002 Sm80_cp_async_simple: after Fence(cuda_in_order, cuda_in_order)
// the cp.async write is still pending; Fence(Sm80_cp_async, cuda_in_order)
// makes it visible.
func cpAsyncSimple(first syncTL) *Program {
	b := newBuilder(128)
	task, tid := b.slot("task"), b.slot("tid")
	src := b.newVar("src", false, 128)
	syncDst := b.newVar("sync_dst", false, 128)
	asyncDst := b.newVar("async_dst", false, 128)
	b.loop(task, 0, 1, true, func() {
		b.loop(tid, 0, 128, false, func() {
			b.read(thread(tid), at(src, v(tid)), qCuda2)
			b.write(thread(tid), at(syncDst, v(tid)), qCuda2, FullyOrdered)
			// cp.async: read-only src, write-only out-of-order dst (Fig. 19).
			b.add(&Stmt{Kind: KCheckMutates, Exec: thread(tid), Acc: at(src, v(tid)), Level: FullyOrdered, Quals: Of(qSm80) | Of(qCuda2), What: AccRead})
			b.add(&Stmt{Kind: KRecordRead, Exec: thread(tid), Acc: at(src, v(tid)), Level: Unordered, Q: qSm80})
			b.write(thread(tid), at(asyncDst, v(tid)), qSm80, Unordered)
		})
		b.fence(cta(), first, cudaInOrder)
		b.loop(tid, 0, 128, false, func() {
			b.read(thread(tid), at(syncDst, v((tid))), qCuda2)
			b.read(thread(tid), at(asyncDst, v(tid)), qCuda2)
		})
	})
	return b.build()
}

func TestCpAsyncNeedsItsOwnFence(t *testing.T) {
	r := run(t, cpAsyncSimple(cudaInOrder))
	if r.Distinct != 1 || r.Hazards[0].Kind != AsyncInFlight {
		t.Fatalf("Fence(cuda_in_order, ...): %s", kinds(r))
	}
	if h := r.Hazards[0]; h.OtherQ != qSm80 || h.OtherLevel != Unordered || !h.SameThread {
		t.Errorf("hazard: %+v", h)
	}
	// Sm80_generic covers both the in-order and the cp.async writes.
	if r := run(t, cpAsyncSimple(sm80Generic)); !r.OK() {
		t.Fatalf("Fence(Sm80_generic, ...): %s", kinds(r))
	}
	// Sm80_cp_async is not transitive and its full set lacks in-order
	// accesses: sync_dst (written by another thread? no: by the same
	// thread, fully ordered) stays fine, async_dst becomes visible.
	if r := run(t, cpAsyncSimple(sm80CpAsync)); !r.OK() {
		t.Fatalf("Fence(Sm80_cp_async, ...): %s", kinds(r))
	}
}

// Seed 002 sync_warp_cta: smem[w] = 42 by one thread per warp; a warp
// fence makes it visible to the warp only; a CTA fence to all.
func TestWarpThenCTAFence(t *testing.T) {
	build := func(warpFence, ctaFence bool, readAll bool) *Program {
		b := newBuilder(128)
		task, w, tid, i := b.slot("task"), b.slot("w"), b.slot("tid"), b.slot("i")
		smem := b.newVar("smem", false, 4)
		b.loop(task, 0, 1, true, func() {
			b.loop(w, 0, 4, false, func() {
				b.write(Exec{Shape: shThread, Start: func(env []int) int { return 32 * env[w] }}, at(smem, v(w)), qCuda2, FullyOrdered)
				if warpFence {
					b.fence(warp(w), cudaInOrder, cudaInOrder)
				}
				b.loop(tid, 0, 32, false, func() {
					b.read(Exec{Shape: shThread, Start: func(env []int) int { return 32*env[w] + env[tid] }}, at(smem, v(w)), qCuda2)
				})
			})
			if ctaFence {
				b.fence(cta(), cudaInOrder, cudaInOrder)
			}
			if readAll {
				b.loop(tid, 0, 128, false, func() {
					b.loop(i, 0, 4, false, func() {
						b.read(thread(tid), at(smem, v(i)), qCuda2)
					})
				})
			}
		})
		return b.build()
	}
	if r := run(t, build(true, true, true)); !r.OK() {
		t.Fatalf("both fences: %s", kinds(r))
	}
	if r := run(t, build(true, false, false)); !r.OK() {
		t.Fatalf("warp fence, warp reads: %s", kinds(r))
	}
	if r := run(t, build(false, false, false)); r.Distinct != 1 {
		t.Fatalf("no warp fence: %s", kinds(r))
	}
	r := run(t, build(true, false, true))
	if r.Distinct != 1 || r.Hazards[0].Kind != ReadAfterWrite {
		t.Fatalf("no CTA fence: %s", kinds(r))
	}
	// Thread 0 (warp 0) cannot see smem[1] written by thread 32.
	if h := r.Hazards[0]; h.Thread != 0 || h.OtherStart != 32 || h.Index[0] != 1 {
		t.Errorf("hazard: %+v", h)
	}
	// Transitivity: the CTA fence witnesses records the warp fence made
	// visible to the warp, so the warp fence plus a CTA fence suffices,
	// and so does the CTA fence alone for the final reads.
	if r := run(t, build(false, true, false)); r.Distinct != 1 {
		t.Fatalf("CTA fence only, warp reads before it: %s", kinds(r))
	}
}

// Split barriers: an mbarrier-style Arrive/Await with n = ~0 orders the
// producer's writes before the consumer's reads; a commit group with n = 0
// waits for all prior arrives, n = 1 for all but the last.
func TestArriveAwaitPairing(t *testing.T) {
	build := func(n int, arrives int, readIter int) *Program {
		b := newBuilder(64)
		task, tid, j := b.slot("task"), b.slot("tid"), b.slot("j")
		data := b.newVar("data", false, 4, 32)
		bar := b.newVar("bar", true)
		b.loop(task, 0, 1, true, func() {
			// Producer: threads 0..31 write data[j, tid] then arrive, 'arrives' times.
			b.loop(j, 0, arrives, false, func() {
				b.loop(tid, 0, 32, false, func() {
					b.write(thread(tid), at(data, v(j), v(tid)), qCuda2, FullyOrdered)
				})
				b.arrive(warp(task), cudaInOrder, at(bar))
			})
			// Consumer: threads 32..63 await then read data[readIter, tid].
			b.await(Exec{Shape: shWarp, Start: k(32)}, at(bar), cudaInOrder, n)
			b.loop(tid, 0, 32, false, func() {
				b.read(Exec{Shape: shThread, Start: func(env []int) int { return 32 + env[tid] }}, at(data, k(readIter), v(tid)), qCuda2)
			})
		})
		return b.build()
	}
	cases := []struct {
		n, arrives, read int
		ok               bool
	}{
		{n: 0, arrives: 1, read: 0, ok: true},  // wait for all
		{n: 0, arrives: 3, read: 2, ok: true},  // n = 0: the latest arrive, cumulative
		{n: 1, arrives: 3, read: 1, ok: true},  // all but the last one
		{n: 1, arrives: 3, read: 2, ok: false}, // the last one is not waited for
		{n: ^0, arrives: 1, read: 0, ok: true}, // await-indexed: pairs with the first arrive
		{n: ^0, arrives: 2, read: 1, ok: false},
		{n: ^1, arrives: 2, read: 0, ok: false}, // lag 1: the first await is a no-op
	}
	for _, c := range cases {
		r := run(t, build(c.n, c.arrives, c.read))
		if r.OK() != c.ok {
			t.Errorf("n=%d arrives=%d read=%d: ok=%v (%s)", c.n, c.arrives, c.read, r.OK(), kinds(r))
		}
	}
	// Without the Arrive the Await orders nothing.
	if r := run(t, build(0, 1, 0), 0); r.OK() {
		t.Errorf("arrive removed: accepted")
	}
}

func TestCheckBarrierCountsAndWAR(t *testing.T) {
	b := newBuilder(32)
	task := b.slot("task")
	bar := b.newVar("bar", true, 2)
	x := b.newVar("x", false, 1)
	b.loop(task, 0, 1, true, func() {
		b.read(warp(task), at(x, k(0)), qCuda2) // all 32 threads read x[0]
		b.arrive(warp(task), cudaInOrder, at(bar, k(1)))
		b.await(warp(task), at(bar, k(1)), cudaInOrder, 0)
		b.write(Exec{Shape: shThread, Start: k(5)}, at(x, k(0)), qCuda2, FullyOrdered)
		b.arrive(warp(task), cudaInOrder, at(bar, k(0)))
		b.add(&Stmt{Kind: KCheckBarrier, Acc: at(bar, k(0))})
		b.add(&Stmt{Kind: KCheckBarrier, Acc: at(bar, k(1))})
	})
	r := run(t, b.build())
	if got := kinds(r); got != "arrive/await count mismatch" {
		t.Fatalf("got %q", got)
	}
	if h := r.Hazards[0]; h.Index[0] != 0 || h.Arrives != 1 || h.Awaits != 0 {
		t.Errorf("hazard: %+v", h)
	}
	// Without the Await on bar[1], thread 5's write races with the other
	// threads' reads (WAR) and bar[1] is unbalanced too.
	r = run(t, b.p, 1)
	if got := kinds(r); got != "write-after-read; arrive/await count mismatch; arrive/await count mismatch" {
		t.Fatalf("got %q", got)
	}
}

func TestOutOfBoundsIsAFault(t *testing.T) {
	b := newBuilder(32)
	task := b.slot("task")
	x := b.newVar("x", false, 4)
	b.loop(task, 0, 1, true, func() {
		b.read(warp(task), at(x, k(4)), qCuda2)
	})
	r := run(t, b.build())
	if len(r.Faults) != 1 || !strings.Contains(r.Faults[0].Msg, "index out of bounds: x dimension 0 index 4, extent 4") {
		t.Fatalf("got %s", kinds(r))
	}
}

// Task symmetry holds within one execution of a task loop: a second
// execution with a different enclosing iterator runs its first task in full.
func TestTaskSymmetryPerExecution(t *testing.T) {
	b := newBuilder(32)
	outer, task, tid := b.slot("i"), b.slot("task"), b.slot("tid")
	buf := b.local("buf", 2)
	b.loop(outer, 0, 2, false, func() {
		b.loop(task, 0, 2, true, func() {
			b.alloc(buf)
			// Thread 0 writes buf[i]; thread 1 reads buf[1]: a hazard only
			// in the second execution (i = 1).
			b.write(Exec{Shape: shThread, Start: k(0)}, &Access{Var: buf, Idx: []Window{{Lo: v(outer)}}, Slots: []int{outer}}, qCuda2, FullyOrdered)
			b.loop(tid, 1, 2, false, func() {
				b.read(thread(tid), &Access{Var: buf, Idx: []Window{{Lo: k(1)}}}, qCuda2)
			})
		})
	})
	r := run(t, b.build())
	if r.Distinct != 1 || r.Hazards[0].Kind != ReadAfterWrite || r.Occurrences != 1 {
		t.Fatalf("got %s (%d occurrences)", kinds(r), r.Occurrences)
	}
}
