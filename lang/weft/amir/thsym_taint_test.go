package amir

import (
	"fmt"
	"testing"
)

// TestThreadSymTaintOtherFrame: a CTA (or all-threads) Fence after a
// virtual loop on threads 0-3 gives their records a grant every thread of
// the CTA sees; a later loop of one-thread Fences on the disjoint threads
// 4-7 then extends those records once per thread (W of Definition B.3
// through the CTA grant), so it must run in full too (the taint rule of
// thsym.go covers every frame of the task, not only the tainted one).
// Threads 0-3 write their column of buf in order, the wide Fence makes
// the writes visible in order, threads 4-7 (or 0-3) fence from in order
// to Sm80_generic (which adds cp.async), and one thread of the fencing
// loop reads a column with cp.async: visible in the full run, a hazard
// if the fencing loop ran only its first thread. Readers: another thread
// of the fencing loop reading the representative's column 0 or a
// translated column 3, and (same frame) thread 0 reading column 2.
func TestThreadSymTaintOtherFrame(t *testing.T) {
	for _, c := range []struct {
		reader, col int
		all         bool
		fenceAt     int // the first thread of the fencing loop
	}{{5, 0, false, 4}, {6, 3, false, 4}, {5, 0, true, 4}, {6, 3, true, 4}, {0, 2, false, 0}, {1, 0, true, 0}} {
		b := newBuilder(8)
		task, th := b.slot("task"), b.slot("tid")
		buf := b.local("buf", 1, 4)
		aff := func(k int, terms ...Term) *Affine { return &Affine{K: k, Terms: terms} }
		one := func(a *Affine) Exec { return Exec{Shape: shThread, Start: a.Eval, StartAff: a} }
		col, zero, fa := aff(0, Term{th, 1}), aff(0), aff(c.fenceAt, Term{th, 1})
		b.loop(task, 0, 1, true, func() {
			b.alloc(buf)
			b.loop(th, 0, 4, false, func() {
				b.write(one(col), &Access{Var: buf, Idx: []Window{{Lo: zero.Eval, LoAff: zero}, {Lo: col.Eval, LoAff: col}}, Slots: []int{th}}, qCuda2, FullyOrdered)
			})
			if c.all {
				b.fence(Exec{All: true}, cudaInOrder, cudaInOrder)
			} else {
				b.fence(cta(), cudaInOrder, cudaInOrder)
			}
			b.loop(th, 0, 4, false, func() { b.fence(one(fa), cudaInOrder, sm80Generic) })
			b.read(one(aff(c.reader)), &Access{Var: buf, Idx: []Window{{Lo: k(0)}, {Lo: k(c.col)}}}, qSm80)
		})
		p := b.build()
		m1, m2 := New(p, Config{}), New(p, Config{NoThreadSym: true})
		r1, r2 := *m1.Run(nil), *m2.Run(nil)
		if !r2.OK() {
			t.Fatalf("%+v: the full run reports %+v", c, r2)
		}
		r1.Stats.Memory, r2.Stats.Memory = 0, 0
		r1.Stats.SkippedOps, r2.Stats.SkippedOps = 0, 0
		if g, w := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2); g != w {
			t.Fatalf("%+v:\nsymmetric %s\nfull      %s", c, g, w)
		}
		if m1.thSymRuns != 1 {
			t.Fatalf("%+v: %d loops ran virtually, want 1 (the writes)", c, m1.thSymRuns)
		}
	}
}
