package amir

import (
	"fmt"
	"testing"

	"weft.dev/weft/lang/weft/coll"
)

// Focused programs for the block-grid and thkeep mutants that stop 30
// left alive (docs/weft-sync.md, "stop 30: mutants of the new fast
// paths", mut30 and kill30; "Stop 31: mut31"). Each runs with and without
// the fast path (blockGridDiff, keepDiff) and states what the full run
// finds, so that it fails on its mutant and passes on main.

// aff is an affine form k + Σ terms.
func aff(k int, terms ...Term) *Affine { return &Affine{K: k, Terms: terms} }

// laneExec is the one thread a.
func laneExec(a *Affine) Exec { return Exec{Shape: shThread, Start: a.Eval, StartAff: a} }

// cell1 is the cell a of a one-dimensional variable, reading slots.
func cell1(v int, a *Affine, slots ...int) *Access {
	return &Access{Var: v, Idx: []Window{{Lo: a.Eval, LoAff: a}}, Slots: slots}
}

// blockGridNoGrid is kill30Focused for a program whose nest main runs in
// full (the guard under test refuses it): block grids against no grid
// symmetry and eager slabs, and no grid run on main.
func blockGridNoGrid(t *testing.T, name string, mk func() *Program) {
	t.Helper()
	d := blockGridDiff(mk)
	r := d.run(t, name)
	t.Logf("%s: %d grid runs, %d distinct hazards, %d occurrences", name, d.ms[0].gridRuns, r.Distinct, r.Occurrences)
	if d.ms[0].gridRuns != 0 {
		t.Fatalf("%s: on the block grid", name)
	}
}

// blockNestWithoutLeader: a block nest over p < 4 whose lane 4p writes
// E[p] and whose lanes 4p+1+y (y < 2) and 4p+3 write D[4p+1+y] and
// D[4p+3] (cuda_in_order): the block's first lane, the representative's
// thread th0 of a one-thread grid, makes no record of D, so every record
// in D's slab 0 is by a lane that gridStayPass and gridCommutes take for
// a component that stays put (their `moves` is th0 alone).
func blockNestWithoutLeader(b *builder) (D, E int) {
	yp, y1 := b.slot("p"), b.slot("y1")
	D = b.newVar("D", false, 17) // slab p: D[4p+1 .. 4p+4]
	E = b.newVar("E", false, 4)
	first, lane, last := aff(0, Term{yp, 4}), aff(1, Term{yp, 4}, Term{y1, 1}), aff(3, Term{yp, 4})
	b.loop(yp, 0, 4, false, func() {
		b.write(laneExec(first), cell1(E, aff(0, Term{yp, 1}), yp), qCuda2, FullyOrdered)
		b.loop(y1, 0, 2, false, func() {
			b.write(laneExec(lane), cell1(D, lane, yp, y1), qCuda2, FullyOrdered)
		})
		b.write(laneExec(last), cell1(D, last, yp), qCuda2, FullyOrdered)
	})
	return D, E
}

// TestMut31BlockRecordRun (kills B17: gridRecordRun's `d.g.w > 1`
// refusal dropped). After blockNestWithoutLeader, threads 0..9 read all
// of D as one fused run: a convergent CheckMutates (a record passes when
// its creator meets the ten threads) and a RecordRead by each thread (a
// thread group: more than 8 threads). In full, D[10], D[11], D[13..15]
// were written by lanes outside 0..9: read-after-write hazards. Under the
// mutant gridRecordRun takes the run: slab 0's records (lanes 1, 2, 3)
// pass through their creators, which it takes to stay put under τ_p, so
// it checks only the cells outside slabs 1..3 and reports nothing.
func TestMut31BlockRecordRun(t *testing.T) {
	kill30Focused(t, "threads 0..9 read D", func() *Program {
		b := newBuilder(64)
		D, _ := blockNestWithoutLeader(b)
		sh10 := b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: 10, Stride: 1}}})
		a := aff(0)
		ten := Exec{Shape: sh10, Start: a.Eval, StartAff: a}
		all := &Access{Var: D}
		b.add(&Stmt{Kind: KCheckMutates, Exec: ten, Acc: all, Level: FullyOrdered, Quals: Of(qCuda2), What: AccRead, Convergent: true})
		b.add(&Stmt{Kind: KRecordRead, Exec: ten, Acc: all, Level: FullyOrdered, Q: qCuda2})
		return b.build()
	})
}

// TestMut31BlockRegionTouchAfter (kills B8's second half in
// gridMaterializeOver: `sp[1] < d.span[0]` -> `<=`). Nest A over p < 4:
// lane 4p only checks D[16+4p] (a check makes no record), lanes
// 4p+1+y (y < 2) and 4p+3 write D[16+4p+1+y] and D[16+4p+3]; its
// region is D[16..31], slab p = D[16+4p .. 16+4p+3], and its first cell
// D[16] holds no record. Nest B's lanes 4p+2y2+y1 then write
// D[1+4p+2y2+y1]: region D[1..16], whose last cell is A's first, written
// by B's lane 15. On main A's region is built before B runs; the mutant
// keeps it deferred (the regions "do not meet"), and the CTA's read of D
// builds B's region first and then A's, whose slabs 1..3 are copied from
// its slab 0, now holding B's lane-15 record at D[16]: D[20], D[24],
// D[28] get copies of a write that no thread made there, and the read
// reports them. (kill30's TestKill30BlockRegionTouchBefore reached this
// test with a record in A's first cell: gridCompare then saw B's
// pre-state differ and ran B in full.)
func TestMut31BlockRegionTouchAfter(t *testing.T) {
	kill30Focused(t, "D[16] checked by A, written by B", func() *Program {
		b := newBuilder(64)
		yp, y2, y1 := b.slot("p"), b.slot("y2"), b.slot("y1")
		D := b.newVar("D", false, 32)
		first, lane, last := aff(0, Term{yp, 4}), aff(1, Term{yp, 4}, Term{y1, 1}), aff(3, Term{yp, 4})
		b.loop(yp, 0, 4, false, func() {
			a0 := aff(16, Term{yp, 4})
			b.add(&Stmt{Kind: KCheckMutates, Exec: laneExec(first), Acc: cell1(D, a0, yp), Level: FullyOrdered, Quals: Of(qCuda2), What: AccRead})
			b.loop(y1, 0, 2, false, func() {
				b.write(laneExec(lane), cell1(D, aff(17, Term{yp, 4}, Term{y1, 1}), yp, y1), qCuda2, FullyOrdered)
			})
			b.write(laneExec(last), cell1(D, aff(19, Term{yp, 4}), yp), qCuda2, FullyOrdered)
		})
		lanes := aff(0, Term{yp, 4}, Term{y2, 2}, Term{y1, 1})
		b.loop(yp, 0, 4, false, func() {
			b.loop(y2, 0, 2, false, func() {
				b.loop(y1, 0, 2, false, func() {
					b.write(laneExec(lanes), cell1(D, aff(1, Term{yp, 4}, Term{y2, 2}, Term{y1, 1}), yp, y2, y1), qCuda2, FullyOrdered)
				})
			})
		})
		b.read(cta(), &Access{Var: D}, qCuda2)
		return b.build()
	})
}

// K6 (thsymKeep's refusal of a statement with barrier accesses,
// `len(b.Bars) > 0`, dropped) is equivalent, by this argument. The
// refusal's comment feared that the counts a record takes from Stmt.Bars
// name the queues of gs and that copying the representative's slice
// would move them. They name one queue per barrier cell: m.queue(v, id,
// gs), gs's own (queues.go: a single thread's queue, or a sub of the set
// for a set). A kept statement's gs is σ-invariant for every frame of the
// variable, so it holds all of a frame's threads (two or more: never the
// frame's first thread's own queue) or none of them (then its queue is no
// queue of the frame's threads either). thsymCopy moves only a count on
// the queue of the frame's own first thread (thSubs, with the frame's
// task, r0 and step), so the copies keep the record's counts where the
// materialized run would have put them, and thsymTouch still builds the
// barrier's own virtual queues (the Bars loop) before the statement
// runs, as it did. TestMut31KeepRecordBars reaches the path under the
// mutant (two statements kept) with the Results of main.
//
// K12 (thsymKeep's refusal of a barrier variable dropped) is equivalent:
// a barrier is never owned by a virtual loop (planThreadSym returns nil
// for an owned barrier, thsym.go: only a per-thread queue's whole
// barrier is virtual, through its frames), so its thVars entry has no
// maps and its cells' records are real; a check or record statement
// reads and writes records only, never the queues (m.bars) that the
// frames stand for, and every statement that does (an Arrive's Bars, an
// Await, CheckBarrier, Alloc) still materializes the barrier first
// (thsymTouch: thsymKeep answers false for them). Keeping such a
// statement changes only when the queues are built, not what they hold.
// Under the mutant a generator of per-thread-queue commit groups
// (virtual loops of records and commits on cg, then up to five checks,
// records, fences, arrives and awaits on cg by the host, the CTA, a warp
// or one thread, then a wait, a read and the barrier check) kept 404
// statements on cg in 5 000 seeds, every Result equal to main's (not
// committed: on main it keeps none, so it cannot tell the paths apart).

// TestMut31KeepRecordBars (reaches K6's refusal; the mutant is argued
// equivalent above). Threads 0..3 arrive on their commit groups cg in a
// virtual loop (their queues virtual, one frame) and write their own
// elements of buf in another (buf virtual, the same frame). The CTA then
// records an Sm80 write of all of buf, convergent, on its commit groups
// (Stmt.Bars: the record's count names the CTA's queue), thread 0
// commits its Sm80 accesses and waits for its commit groups, and reads
// element w: complete in every run. Under the mutant the CTA's record is
// kept virtual (two statements a program) and the Results are main's.
func TestMut31KeepRecordBars(t *testing.T) {
	for w := 0; w < 4; w++ {
		d := keepDiff(func() *Program {
			const nT = 4
			b := newBuilder(64)
			task, th := b.slot("task"), b.slot("g")
			buf := b.local("buf", nT)
			cg := commitGroup(b)
			st := &Affine{Terms: []Term{{th, 1}}}
			me := Exec{Shape: shThread, Start: st.Eval, StartAff: st}
			own := &Access{Var: buf, Idx: []Window{{Lo: st.Eval, LoAff: st}}, Slots: []int{th}}
			b.loop(task, 0, 1, true, func() {
				b.alloc(buf)
				b.alloc(cg)
				b.loop(th, 0, nT, false, func() { cgArrive(b, cg, me, cudaInOrder.full) })
				b.loop(th, 0, nT, false, func() { b.write(me, own, qCuda2, FullyOrdered) })
				ctaConv := cta()
				ctaConv.Shape = shCTA
				b.add(&Stmt{Kind: KRecordMutate, Exec: ctaConv, Acc: &Access{Var: buf}, Level: Unordered, Q: qSm80, Bars: []*Access{at(cg)}, Convergent: true})
				cgArrive(b, cg, oneThread(0), sm80CpAsync.full)
				waitRead(b, cg, buf, 0, w)
			})
			return b.build()
		})
		r := d.runs(t, fmt.Sprintf("element %d", w))
		t.Logf("element %d: %d statements kept virtual, %d virtual loops, hazards %d", w, d.ms[0].thKeeps, d.ms[0].thSymRuns, r.Distinct)
	}
}

// TestMut31BlockStraddle (kills B6 and B7: gridIn0's lower and upper
// bounds, each weakened by one lane). A block nest over p < 4 whose
// lanes 4p+b (b = 0 upper, 1 lower) write E[p] and lanes 4p+b+1+y
// (y < 2) write D[4p+b+1+y]: B_p = [4p+b, 4p+b+2], D's slab p =
// D[4p+b+1 .. 4p+b+4]. Before the nest each pair that straddles B_q's
// upper (b = 0: {4q+2, 4q+3}) or lower (b = 1: {4q, 4q+1}) edge by one
// lane makes an Sm80 (unordered) record, convergent, in a cell of slab q
// that the nest does not touch: the pre-state is a translation, which
// main refuses (gridTau has no image of a straddling set: the nest runs
// in full) and the mutant accepts (it moves the pair by 4p). After the
// nest, the first pair's lane outside B_0 (lane o = 3 or 0, a thread of
// no block: an event left alone) fences Sm80 before cuda_in_order, and
// each pair's outside lane o+4q reads its pair's cell. In full the fence
// witnesses only the first pair's record: the reads of q = 1..3 see
// unordered writes. Under the mutant D's slabs stay deferred through the
// fence, and the copies of slab 0's record carry the fence's grant moved
// to lane o+4q (the mutant takes lane o for one of B_0): those reads
// pass.
func TestMut31BlockStraddle(t *testing.T) {
	for _, b0 := range []int{0, 1} {
		// On main the nest runs in full (the pre-state has no image).
		blockGridNoGrid(t, []string{"upper edge", "lower edge"}[b0], func() *Program {
			b := newBuilder(64)
			yq, yp, y1 := b.slot("q"), b.slot("p"), b.slot("y1")
			D := b.newVar("D", false, 17+b0)
			E := b.newVar("E", false, 4)
			sh2 := b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: 2, Stride: 1}}})
			pair, cell, out := aff(2, Term{yq, 4}), aff(3, Term{yq, 4}), 3
			if b0 == 1 {
				pair, cell, out = aff(0, Term{yq, 4}), aff(4, Term{yq, 4}), 0
			}
			b.loop(yq, 0, 4, false, func() {
				b.add(&Stmt{Kind: KRecordMutate, Exec: Exec{Shape: sh2, Start: pair.Eval, StartAff: pair}, Acc: cell1(D, cell, yq),
					Level: Unordered, Q: qSm80, Convergent: true})
			})
			first, lane := aff(b0, Term{yp, 4}), aff(b0+1, Term{yp, 4}, Term{y1, 1})
			b.loop(yp, 0, 4, false, func() {
				b.write(laneExec(first), cell1(E, aff(0, Term{yp, 1}), yp), qCuda2, FullyOrdered)
				b.loop(y1, 0, 2, false, func() {
					b.write(laneExec(lane), cell1(D, lane, yp, y1), qCuda2, FullyOrdered)
				})
			})
			b.fence(oneThread(out), sm80Generic, cudaInOrder)
			for q := 0; q < 4; q++ {
				b.read(oneThread(out+4*q), at1(D, cell.K+4*q), qCuda2)
			}
			return b.build()
		})
	}
}

// TestMut31BlockStartStale (kills B2: blkStarts' test that a start
// reads no loop of the nest but its own enclosing ones, dropped). In a
// block nest over p < 4, lane 4p+2+y1 writes D[4p+3] before the loop
// over y1 < 2 in which lanes 4p+y1 write D[4p+y1]: the first statement
// reads y1 outside its loop, so its thread is 4p+2 at p = 0 (y1 not yet
// set) and 4p+3 after (y1 left at 1 by the previous point's loop). Each
// lane 4p+3 then reads D[4p+3]: in full blocks 1..3 read their own
// writes and only block 0's read is a hazard. Under the mutant the nest
// is a block grid whose representative (p = 0) writes D[3] by lane 2,
// moved to lane 4p+2 in every slab: four hazards.
func TestMut31BlockStartStale(t *testing.T) {
	// On main the nest runs in full (blkStarts refuses it).
	blockGridNoGrid(t, "a start reading y1 before its loop", func() *Program {
		b := newBuilder(64)
		yp, y1 := b.slot("p"), b.slot("y1")
		D := b.newVar("D", false, 16)
		lane, before := aff(0, Term{yp, 4}, Term{y1, 1}), aff(2, Term{yp, 4}, Term{y1, 1})
		b.loop(yp, 0, 4, false, func() {
			b.write(laneExec(before), cell1(D, aff(3, Term{yp, 4}), yp), qCuda2, FullyOrdered)
			b.loop(y1, 0, 2, false, func() {
				b.write(laneExec(lane), cell1(D, lane, yp, y1), qCuda2, FullyOrdered)
			})
		})
		for p := 0; p < 4; p++ {
			b.read(oneThread(4*p+3), at1(D, 4*p+3), qCuda2)
		}
		return b.build()
	})
}

// B14 (gridCheckSlab0's refusal of a group record in a block grid's
// slab_0, `g.w > 1`, dropped; gridCheckRun's before stop 31) is
// equivalent. Its comment holds for one-thread grids, whose copies of a
// group are the group itself; a block grid's copies are τ_p images
// (gridCopyN: gridTau moves a creator inside B_0 by the block pitch, and
// a group in slab 0 is made by a statement of the nest, inside B_0, or by
// a set that holds every block's threads or none, which stays). The run
// is taken only for a checking set gs uniform on every region's frame
// (gridUniform), and groupFails tests each member (creator start plus an
// offset of its shape) and each grant against gs through contains,
// subset and intersects: a member or grant inside B_0 is in gs, or
// covers it, exactly when its image inside B_p is or does (gs holds both
// blocks or neither), and a component that stays is the same set in
// every copy. So a group of slab 0 fails exactly when its copies do, as
// for one-thread records (gridCheckRun's argument). TestMut31BlockGroupCheck
// reaches the refusal on main (a block nest whose 16-lane statement
// reads its block's cells: a thread group a cell) and, under the mutant,
// keeps the check run deferred for a convergent check by the CTA or the
// host with main's Results.
func TestMut31BlockGroupCheck(t *testing.T) {
	for ck := 0; ck < 3; ck++ {
		for _, conv := range []bool{false, true} {
			kill30Focused(t, fmt.Sprintf("checker %d convergent %v", ck, conv), func() *Program {
				b := newBuilder(64)
				yp, y1 := b.slot("p"), b.slot("y1")
				D := b.newVar("D", false, 32)
				E := b.newVar("E", false, 4)
				sh16 := b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: 16, Stride: 1}}})
				start, end := aff(0, Term{yp, 16}), aff(16, Term{yp, 16})
				lane := aff(0, Term{yp, 16}, Term{y1, 1})
				b.loop(yp, 0, 2, false, func() {
					b.read(Exec{Shape: sh16, Start: start.Eval, StartAff: start},
						&Access{Var: D, Idx: []Window{{Lo: start.Eval, LoAff: start, Hi: end.Eval, HiAff: end}}, Slots: []int{yp}}, qCuda2)
					b.loop(y1, 0, 2, false, func() {
						b.write(laneExec(lane), cell1(E, aff(0, Term{yp, 2}, Term{y1, 1}), yp, y1), qCuda2, FullyOrdered)
					})
				})
				e := []Exec{cta(), {Shape: sh16, Start: k(32), StartAff: aff(32)}, {All: true}}[ck]
				b.add(&Stmt{Kind: KCheckReads, Exec: e, Acc: &Access{Var: D}, Level: TemporallyOrdered, Quals: Of(qCuda2), What: AccWrite, Convergent: conv})
				b.read(cta(), &Access{Var: D}, qCuda2)
				return b.build()
			})
		}
	}
}

// B11 (gridTry's "two points, one thread" test run over a block's first
// lane only, `t < t0+g.w` -> `t < t0+1`) is equivalent. With w = 1 the
// mutant is the original loop. With w > 1 it lets blocks overlap (a
// pitch smaller than the width: randomBlockProgram's S = 3 with blocks of
// 4 lanes reaches it), and overlapping blocks are still exact: (1) g.inF,
// the bitmap the test fills, is read only for read-only shared variables
// (gridSharedOK, groupHasGrid, rdHeld), which a block grid never has
// (gridTry returns nil for an untranslated variable when pl.blk); (2)
// every variable a block nest acts on is translated with slabs that do
// not overlap (gridTry's fits test), so a thread of two blocks acts in
// each only on that block's slab, and no statement of one block reads a
// record that the other made; (3) τ_p moves a set inside B_0 by the pitch
// whether or not it is also inside B_1, and gridUniform counts every
// (block, lane) pair on both sides of its test, so "every grid thread or
// none" is the same set of threads as without overlap. kill30 ran the
// edge generator and the seed tests under the mutant (all pass); no
// program was found that tells it apart.
