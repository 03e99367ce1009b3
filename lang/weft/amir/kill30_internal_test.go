package amir

import (
	"fmt"
	"testing"

	"weft.dev/weft/lang/weft/coll"
)

// TestKill30GridBlockEdges (stop 30, kill30): TestGridBlockMatchesFull's
// comparison on randomBlockProgram(seed, true), widened to reach
// the block grids' guards that mut30 left alive (docs/weft-sync.md
// "stop 30: mutants of the new fast paths"): blocks with gaps or one
// lane of overlap, D's slabs and regions that touch by exactly one cell
// (stride cD·nP-1, shift cD·nP-1), and records made before the nests by
// sets that straddle a block's edge by one lane (the same set moved to
// every block, so the pre-state is a translation and only gridIn0's
// bounds refuse it), mbarrier-like events and fused runs over all of D
// between the phases. KILL30_N sets the seeds (default 400).
func TestKill30GridBlockEdges(t *testing.T) {
	runs := blockGridSeeds(t, 0, int64(EnvCount("KILL30_N", 400)), true)
	if runs == 0 {
		t.Fatalf("no block grid run")
	}
	t.Logf("%d block grid runs", runs)
}

// kill30Focused runs p's program with block grids and without grid
// symmetry (and with eager slabs) and fails on any difference of the
// Results; it reports whether the block grid ran.
func kill30Focused(t *testing.T, name string, mk func() *Program) {
	t.Helper()
	d := blockGridDiff(mk)
	r1 := d.run(t, name)
	m1 := d.ms[0]
	t.Logf("%s: %d grid runs, %d distinct hazards, %+v", name, m1.gridRuns, r1.Distinct, r1)
	if m1.gridRuns == 0 {
		t.Fatalf("%s: never on the block grid", name)
	}
}

// TestKill30BlockArrivePart (kills B12: gridCommutes' w > 1 refusal
// dropped). A block nest over p < 4: lane 4p writes D[4p] on the Sm80
// timeline (not released by the arrival below), lanes 4p+1+y (y < 2)
// write D[4p+1+y] in order; lanes 1 and 2 arrive at B, the CTA awaits B
// and reads all of D. Only block 0's in-order writes are ordered before
// the read: blocks 1..3's are read-after-write hazards. gridCommutes'
// one-thread argument (only the representative's thread th0 moves with
// τ_p, and its records are not released) would keep the regions
// deferred through the arrival, whose lanes 1 and 2 a block grid's τ_p
// moves to every block: no hazard.
func TestKill30BlockArrivePart(t *testing.T) {
	for _, q := range []int{0, 1} {
		kill30Focused(t, fmt.Sprintf("perThreadQueue=%d", q), func() *Program {
			b := newBuilder(64)
			yp, y1 := b.slot("p"), b.slot("y1")
			aff := func(k int, terms ...Term) *Affine { return &Affine{K: k, Terms: terms} }
			D := b.newVar("D", false, 16)
			B := b.newVar("B", true)
			b.p.Vars[B].PerThreadQueue = q == 1
			sh2 := b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: 2, Stride: 1}}})
			first := aff(0, Term{yp, 4})
			lane := aff(1, Term{yp, 4}, Term{y1, 1})
			b.loop(yp, 0, 4, false, func() {
				b.write(Exec{Shape: shThread, Start: first.Eval, StartAff: first},
					&Access{Var: D, Idx: []Window{{Lo: first.Eval, LoAff: first}}, Slots: []int{yp}}, qSm80, FullyOrdered)
				b.loop(y1, 0, 2, false, func() {
					b.write(Exec{Shape: shThread, Start: lane.Eval, StartAff: lane},
						&Access{Var: D, Idx: []Window{{Lo: lane.Eval, LoAff: lane}}, Slots: []int{yp, y1}}, qCuda2, FullyOrdered)
				})
			})
			b.arrive(Exec{Shape: sh2, Start: k(1)}, cudaInOrder, &Access{Var: B})
			b.await(cta(), &Access{Var: B}, cudaInOrder, 0)
			b.read(cta(), &Access{Var: D}, qCuda2)
			return b.build()
		})
	}
}

// B9 (`!d.mixed` dropped in gridMaterializeOver) is an equivalent
// mutant while B12's and B17's guards stand: that test only matters for
// a region of a block grid (its other conjuncts need d.g.w > 1), and
// d.mixed is set in three places only: gridVirtAdd (thgrid_lazy.go, to
// vr.grpRep, so mixed implies grpRep, which gridMaterializeOver tests
// next to it), gridCommutes (thgrid_lazy.go, after its `d.g.w > 1`
// refusal) and gridRecordRun (thgrid_grp.go, after its own, together
// with d.grpRep). So a block grid's region that is mixed is also grpRep
// or never exists.

// TestKill30BlockRegionTouchBefore (kills B8's first half, `d.span[1]
// < sp[0]` -> `<=`, in its second case; its first case reaches the
// second half, `sp[1] < d.span[0]` -> `<=`, but the Results agree):
// nest A's lanes 4p+y write
// D[16+4p+y] (region [16, 31], deferred), then nest B's lanes write
// D[1+4p+y] (region [1, 16]): the two regions share cell 16, which nest
// A's lane 0 and nest B's lane 15 both write in order with no barrier, a
// write-after-write hazard. Then the host reads D.
func TestKill30BlockRegionTouchBefore(t *testing.T) {
	for _, base := range [][2]int{{16, 1}, {0, 15}} {
		kill30Focused(t, fmt.Sprintf("regions at %d then %d", base[0], base[1]), func() *Program {
			b := newBuilder(64)
			yp, y2, y1 := b.slot("p"), b.slot("y2"), b.slot("y1")
			aff := func(k int, terms ...Term) *Affine { return &Affine{K: k, Terms: terms} }
			D := b.newVar("D", false, 32)
			lane := aff(0, Term{yp, 4}, Term{y2, 2}, Term{y1, 1})
			for _, k0 := range base {
				cell := aff(k0, Term{yp, 4}, Term{y2, 2}, Term{y1, 1})
				b.loop(yp, 0, 4, false, func() {
					b.loop(y2, 0, 2, false, func() {
						b.loop(y1, 0, 2, false, func() {
							b.write(Exec{Shape: shThread, Start: lane.Eval, StartAff: lane},
								&Access{Var: D, Idx: []Window{{Lo: cell.Eval, LoAff: cell}}, Slots: []int{yp, y2, y1}}, qCuda2, FullyOrdered)
						})
					})
				})
			}
			b.fence(Exec{All: true}, cudaInOrder, streamSync)
			b.read(Exec{All: true}, &Access{Var: D}, qStrm)
			return b.build()
		})
	}
}
