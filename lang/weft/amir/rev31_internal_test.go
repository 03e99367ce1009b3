package amir

import (
	"testing"

	"weft.dev/weft/lang/weft/coll"
)

// rev31 (stop 31): focused programs for the mutants of stop 31's new fast
// paths that the package's tests left alive (docs/weft-sync.md, "Stop 31:
// rev31"). Each program is run by lazyRegionsDiff's four machines; the
// Results must agree.

// lazyRegionsDiff: a block grid's regions kept deferred under checks and
// lazy records (gridCheckRun over several regions, lazyOverRegions: stop
// 31, shfl31) against the regions built before the check, before the
// record, and against no grid symmetry.
func lazyRegionsDiff(mk func() *Program) *diffMachines {
	d := newDiff(mk, []string{"kept", "checks built", "record built", "full"}, func(i int, m *Machine) {
		switch i {
		case 1:
			m.gridCheckDeferred = false
		case 2:
			m.noLazyRegions = true
		case 3:
			m.noGrid = true
		}
	})
	return d
}

// twoFrameRegions is D (lazyCellsMin cells, so that a record of all of it
// may be lazy) written by two block nests whose grids have different
// frames: for base 20 then 0, a nest over p < 4 whose lane base + 4p +
// 2y2 + y1 (y2, y1 < 2: loops of two iterations, which the block grid
// takes, blkLeaveToThSym) writes that cell of D in order. The first
// leaves D[20..35] deferred with the frame of lanes 20..35 (slab_0
// D[20..23]), the second D[0..15] with lanes 0..15 (slab_0 D[0..3]), the
// newer region, first in the variable's list (the two do not touch:
// neither nest builds the other's). then adds what follows.
func twoFrameRegions(then func(b *builder, D int)) *Program {
	b := newBuilder(64)
	yp, y2, y1 := b.slot("p"), b.slot("y2"), b.slot("y1")
	D := b.newVar("D", false, lazyCellsMin)
	for _, base := range []int{20, 0} {
		lane := &Affine{K: base, Terms: []Term{{yp, 4}, {y2, 2}, {y1, 1}}}
		b.loop(yp, 0, 4, false, func() {
			b.loop(y2, 0, 2, false, func() {
				b.loop(y1, 0, 2, false, func() {
					b.write(Exec{Shape: shThread, Start: lane.Eval, StartAff: lane},
						&Access{Var: D, Idx: []Window{{Lo: lane.Eval, LoAff: lane}}, Slots: []int{yp, y2, y1}}, qCuda2, FullyOrdered)
				})
			})
		})
	}
	then(b, D)
	return b.build()
}

// first24 is threads 0..23: all of the newer region's frame (lanes
// 0..15) and the slab_0 lanes 20..23 of the older one, not its lanes
// 24..35.
func first24(b *builder) Exec {
	sh := b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: 24, Stride: 1}}})
	return Exec{Shape: sh, Start: k(0)}
}

// TestRev31RegionsUniformOnEach kills M03 (gridCheckRun tests only the
// first region's frame for uniformity) and M11 (lazyOverRegions tests
// only the first region's).
//
// check: after twoFrameRegions, threads 0..23 read all of D, a
// convergent read (one thread seeing a record is enough): D[0..23]'s
// writers are among them, D[24..35]'s are not, twelve cells with a
// read-after-write hazard. The set is uniform on the newer region's
// frame (all of it) and not on the older's; on slab_0 of each region
// every record passes, so a check answered region by region with only
// the first region tested reports nothing.
//
// record: lane 20 records a read of all of D (no check), then lane 24
// writes D[24], after a read by a thread it is not (write-after-read).
// Lane 20 is none of the newer frame and inside the older grid's block
// 0: a lazy record over the regions would leave at D[24] (slab 1 of the
// older region, built later from slab_0) τ_1 of lane 20, lane 24 itself.
func TestRev31RegionsUniformOnEach(t *testing.T) {
	for _, form := range []string{"check", "record"} {
		d := lazyRegionsDiff(func() *Program {
			return twoFrameRegions(func(b *builder, D int) {
				all := &Access{Var: D}
				if form == "check" {
					x := first24(b)
					b.add(&Stmt{Kind: KCheckMutates, Exec: x, Acc: all, Level: FullyOrdered, Quals: Of(qCuda2), What: AccRead, Convergent: true})
					return
				}
				b.add(&Stmt{Kind: KRecordRead, Exec: Exec{Shape: shThread, Start: k(20)}, Acc: all, Level: FullyOrdered, Q: qCuda2})
				b.write(Exec{Shape: shThread, Start: k(24)}, at(D, k(24)), qCuda2, FullyOrdered)
			})
		})
		r := d.runs(t, form)
		m := d.ms[0]
		t.Logf("%s: %d grid runs, %d distinct hazards, %d occurrences", form, m.gridRuns, r.Distinct, r.Occurrences)
		if m.gridRuns == 0 {
			t.Fatalf("%s: no block grid", form)
		}
		if r.Distinct == 0 {
			t.Fatalf("%s: no hazard", form)
		}
	}
}

// blockNest adds a block nest over p < n whose lane base + 4p + 2y2 + y1
// (y2, y1 < 2) writes that cell of D in order.
func blockNest(b *builder, D, base, n int) {
	yp, y2, y1 := b.slot("p"), b.slot("y2"), b.slot("y1")
	lane := &Affine{K: base, Terms: []Term{{yp, 4}, {y2, 2}, {y1, 1}}}
	b.loop(yp, 0, n, false, func() {
		b.loop(y2, 0, 2, false, func() {
			b.loop(y1, 0, 2, false, func() {
				b.write(Exec{Shape: shThread, Start: lane.Eval, StartAff: lane},
					&Access{Var: D, Idx: []Window{{Lo: lane.Eval, LoAff: lane}}, Slots: []int{yp, y2, y1}}, qCuda2, FullyOrdered)
			})
		})
	})
}

// TestRev31RegionBitmapKept kills M07 (gridCheckRun ORs the other regions'
// slab bitmaps into the first region's own, cached by slabCells, instead
// of into a copy). Nests A (lanes and cells 20..35) then B (0..15) leave
// two regions; the CTA checks all of D (uniform on both: the union of
// their bitmaps is made); nest C, A's over p < 3 only (lanes and cells
// 20..31: its offsets differ, so it is not A's nest again), meets A's
// region, which is built, and not B's, which stays beside C's new one
// (slab p of C is τ_p of slab 0: A's records by lanes 20..31); a warp
// (lanes 0..31: all of B's and C's frames) then checks all of D, a
// convergent read: D[0..31] pass, A's D[32..35] (its slab 3, built, no
// slab of C's) are read-after-write hazards. With B's cached bitmap
// holding A's slabs 1..3, the warp's check skips D[32..35] as deferred.
func TestRev31RegionBitmapKept(t *testing.T) {
	d := lazyRegionsDiff(func() *Program {
		b := newBuilder(64)
		D := b.newVar("D", false, lazyCellsMin)
		blockNest(b, D, 20, 4)
		blockNest(b, D, 0, 4)
		all := &Access{Var: D}
		b.add(&Stmt{Kind: KCheckMutates, Exec: cta(), Acc: all, Level: FullyOrdered, Quals: Of(qCuda2), What: AccRead, Convergent: true})
		blockNest(b, D, 20, 3)
		b.add(&Stmt{Kind: KCheckMutates, Exec: warp(b.slot("w")), Acc: all, Level: FullyOrdered, Quals: Of(qCuda2), What: AccRead, Convergent: true})
		return b.build()
	})
	r := d.runs(t, "regions")
	m := d.ms[0]
	t.Logf("%d grid runs, %d checks over several regions, %d distinct hazards, %d occurrences", m.gridRuns, m.regionChecks, r.Distinct, r.Occurrences)
	if m.regionChecks < 4 || r.Occurrences != 4 {
		t.Fatalf("the checks were not made over several regions, or not D[32..35]'s four hazards")
	}
}

// TestRev31RegionsRecordBarsFault kills M08 (lazyOverRegions takes a
// record that names barriers). Such a record evaluates its barrier cells
// before its own (Machine.record): when both fault, the fault is the
// barrier's. After two block nests on D, the CTA records a read of D[0..
// lazyCellsMin] (one cell past D) naming B[1] (B has one cell): a lazy
// record over the regions evaluates D's cells first and faults there.
func TestRev31RegionsRecordBarsFault(t *testing.T) {
	d := lazyRegionsDiff(func() *Program {
		b := newBuilder(64)
		D := b.newVar("D", false, lazyCellsMin)
		B := b.newVar("B", true, 1)
		blockNest(b, D, 20, 4)
		blockNest(b, D, 0, 4)
		past := &Access{Var: D, Idx: []Window{{Lo: k(0), Hi: k(lazyCellsMin + 1)}}}
		b.add(&Stmt{Kind: KRecordRead, Exec: cta(), Acc: past, Level: FullyOrdered, Q: qCuda2, Convergent: true, Bars: []*Access{at(B, k(1))}})
		return b.build()
	})
	r := d.runs(t, "bars")
	t.Logf("%+v", r.Faults)
	if len(r.Faults) == 0 {
		t.Fatalf("no fault")
	}
}

// TestRev31RegionsPartialRecord kills M13 (lazyOverRegions takes a record
// of a prefix of the variable's cells, not all of them). After nests A
// (lanes and cells 20..35) and B (0..15), lanes 40..47 (none of either
// frame) record a read of D[0..22), which ends inside A's slab_0
// (D[20..23]); lane 24 then writes
// D[24], a cell of A's slab 1 that the read does not cover. Built later
// from slab_0, slab 1 would hold the read's record at D[24] and D[25]
// (τ_1 of D[20], D[21]): a write-after-read that the eager path, which
// builds the regions first and records on D[0..22) only, does not have.
func TestRev31RegionsPartialRecord(t *testing.T) {
	d := lazyRegionsDiff(func() *Program {
		b := newBuilder(64)
		D := b.newVar("D", false, lazyCellsMin)
		blockNest(b, D, 20, 4)
		blockNest(b, D, 0, 4)
		part := &Access{Var: D, Idx: []Window{{Lo: k(0), Hi: k(22)}}}
		far := b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: 8, Stride: 1}}})
		b.add(&Stmt{Kind: KRecordRead, Exec: Exec{Shape: far, Start: k(40)}, Acc: part, Level: FullyOrdered, Q: qCuda2, Convergent: true})
		b.write(Exec{Shape: shThread, Start: k(24)}, at(D, k(24)), qCuda2, FullyOrdered)
		return b.build()
	})
	r := d.runs(t, "prefix")
	t.Logf("%d grid runs, %d distinct hazards", d.ms[0].gridRuns, r.Distinct)
	if d.ms[0].gridRuns == 0 {
		t.Fatalf("no block grid")
	}
}

// TestRev31RegionsRecordFault kills M18 (effect goes on after
// lazyOverRegions reports the record's fault). lazyOverRegions evaluates
// the record's cells before it builds anything; a window past the
// variable faults there, and the statement must stop as the eager path
// stops in record: one fault. After two block nests on D, lanes 40..47
// (none of either frame) record a read of D[0..lazyCellsMin], one cell
// past D.
func TestRev31RegionsRecordFault(t *testing.T) {
	d := lazyRegionsDiff(func() *Program {
		b := newBuilder(64)
		D := b.newVar("D", false, lazyCellsMin)
		blockNest(b, D, 20, 4)
		blockNest(b, D, 0, 4)
		past := &Access{Var: D, Idx: []Window{{Lo: k(0), Hi: k(lazyCellsMin + 1)}}}
		far := b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: 8, Stride: 1}}})
		b.add(&Stmt{Kind: KRecordRead, Exec: Exec{Shape: far, Start: k(40)}, Acc: past, Level: FullyOrdered, Q: qCuda2, Convergent: true})
		return b.build()
	})
	r := d.runs(t, "fault")
	if len(r.Faults) != 1 {
		t.Fatalf("want one fault, got %+v", r.Faults)
	}
}
