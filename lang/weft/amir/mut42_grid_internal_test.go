package amir

import (
	"fmt"
	"testing"

	"weft.dev/weft/lang/weft/coll"
)

// The gridCompare mutant that stop 32 (tma32) left alive (issue 13, stop
// 42; docs/weft-sync.md "Stop 42: the surviving mutants"): the inline
// case "slab_0's list empty" (thgrid.go, the lazy loop's h0 < 0 test)
// without its test that slab p's list is empty too. No random grid
// program reached a nest whose variable holds deferred groups while a
// later point's own rows have a record and the first point's have none.
// mut42GridProgram makes one: a 16-thread group writes all of X (a
// deferred group in every cell), one thread then reads the last point's
// rows, and the nest reads each point's own rows. Under the mutant the
// reads list of slab 3 is passed as τ_3 of slab_0's empty one, the slab
// is deferred, and the one-thread read is lost: the free check at the
// end reports two use-after-free keys instead of three.
//
// mut42GridProgram: X (one point's rows each, 4 points of one axis, 2
// rows a point) is recorded whole by a 16-thread group (grpWrite: a
// write, else a read: deferred thread groups, lazygroups.go), then one
// thread (who) accesses the last point's rows (oneWrite: writes, else
// reads), after a CTA fence or not; a nest of 4 points then reads its
// own rows (me: thread b); after it thread 40 accesses all of X
// (lastWrite) and the CTA checks the free.
func mut42GridProgram(grpWrite, oneWrite, fence, lastWrite bool, who int) *Program {
	b := newBuilder(64)
	task, yb, yi := b.slot("task"), b.slot("b"), b.slot("i")
	const nB, nI = 4, 2
	X := b.local("X", 1, nB, nI)
	sh16 := b.p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: 16, Stride: 1}}})
	aff := func(k int, terms ...Term) *Affine { return &Affine{K: k, Terms: terms} }
	pt := func(a *Affine) Window { return Window{Lo: a.Eval, LoAff: a} }
	rg := func(lo, hi *Affine) Window { return Window{Lo: lo.Eval, Hi: hi.Eval, LoAff: lo, HiAff: hi} }
	acc := func(e Exec, a *Access, w bool) {
		if w {
			b.write(e, a, qCuda2, FullyOrdered)
		} else {
			b.read(e, a, qCuda2)
		}
	}
	all := func() *Access {
		return &Access{Var: X, Idx: []Window{rg(aff(0), aff(1)), rg(aff(0), aff(nB)), rg(aff(0), aff(nI))}}
	}
	b.loop(task, 0, 1, true, func() {
		b.alloc(X)
		acc(Exec{Shape: sh16, Start: k(0)}, all(), grpWrite)
		b.fence(cta(), cudaInOrder, cudaInOrder)
		acc(Exec{Shape: shThread, Start: k(who)}, &Access{Var: X, Idx: []Window{pt(aff(0)), pt(aff(nB - 1)), rg(aff(0), aff(nI))}}, oneWrite)
		if fence {
			b.fence(cta(), cudaInOrder, cudaInOrder)
		}
		b.loop(yb, 0, nB, false, func() {
			b.loop(yi, 0, nI, false, func() {
				st := aff(0, Term{yb, 1})
				b.read(Exec{Shape: shThread, Start: st.Eval, StartAff: st}, &Access{Var: X, Idx: []Window{pt(aff(0)), pt(aff(0, Term{yb, 1})), pt(aff(0, Term{yi, 1}))}, Slots: []int{yb, yi}}, qCuda2)
			})
		})
		acc(Exec{Shape: shThread, Start: k(40)}, all(), lastWrite)
		b.add(&Stmt{Kind: KCheckReads, Exec: cta(), Acc: &Access{Var: X}, Level: TemporallyOrdered, Quals: Of(qCuda2), What: AccFree})
		b.add(&Stmt{Kind: KCheckMutates, Exec: cta(), Acc: &Access{Var: X}, Level: TemporallyOrdered, Quals: Of(qCuda2), What: AccFree})
	})
	return b.build()
}

// TestMut42GridSlabListEmpty runs mut42GridProgram's 32 variants (the
// group's and the one thread's access read or write, a fence between
// them or not, the last access read or write, the one thread the last
// point's own or none of the grid's) four ways, as
// TestLazySlabsMatchEager: deferred slabs, every deferred group made,
// groups made at once, no grid symmetry; the Results must agree.
func TestMut42GridSlabListEmpty(t *testing.T) {
	n, grids, kept := 0, int64(0), int64(0)
	for _, grpWrite := range []bool{false, true} {
		for _, oneWrite := range []bool{false, true} {
			for _, fence := range []bool{false, true} {
				for _, lastWrite := range []bool{false, true} {
					for _, who := range []int{3, 40} {
						name := fmt.Sprintf("grpWrite %v oneWrite %v fence %v lastWrite %v who %d", grpWrite, oneWrite, fence, lastWrite, who)
						ms := [4]*Machine{}
						for i := range ms {
							ms[i] = New(mut42GridProgram(grpWrite, oneWrite, fence, lastWrite, who), Config{MaxHazards: 100})
						}
						ms[1].noLazySlabs = true
						ms[2].noLazyGroups = true
						ms[3].noGrid = true
						var out [4]string
						for i, m := range ms {
							r := *m.Run(nil)
							r.Stats.Memory, r.Stats.SkippedOps = 0, 0
							out[i] = fmt.Sprintf("%+v", r)
						}
						if out[0] != out[1] || out[0] != out[2] || out[0] != out[3] {
							t.Errorf("%s:\nlazy slabs %s\nmade       %s\neager      %s\nfull       %s", name, out[0], out[1], out[2], out[3])
						}
						n++
						grids += ms[0].gridRuns
						kept += ms[0].lzSlabKept
					}
				}
			}
		}
	}
	t.Logf("%d programs, %d grid runs, %d slab copies compared deferred", n, grids, kept)
	if grids < 20 || kept < 20 {
		t.Fatalf("weak coverage: %d grid runs, %d slab copies compared deferred", grids, kept)
	}
}
