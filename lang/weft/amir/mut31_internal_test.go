package amir

import (
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
