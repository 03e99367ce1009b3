package amir

import (
	"fmt"
	"testing"
)

// TestDoneMarksMatchFull: a symmetric task loop's first task is marked
// done on its Ctl (doneM, doneGen; stop 41), where a map per run had
// held the marks. randomTaskProgram's nest, inside a sequential loop of
// two iterations (a new nest each: the marks of the first must not make
// the second's first task run lite), runs on machine a, then on machine
// b of the same program (a mark of another machine is not current), then
// on a again (nor one of an earlier run); each result must be the run of
// the same program with no task symmetry (hazards and faults), and its
// statistics a fresh machine's on a fresh copy, which skips twice the
// operations one nest alone skips; some runs must skip tasks. It fails when a mark outlives its nest, its run or its machine.
func TestDoneMarksMatchFull(t *testing.T) {
	skipped := 0
	for seed := int64(0); seed < 600; seed++ {
		p1, p2, p3 := twiceTaskProgram(seed), twiceTaskProgram(seed), twiceTaskProgram(seed)
		Walk(p2.Body, func(s *Stmt) {
			if s.Kind == KLoop {
				s.symmetric = false
			}
		})
		r2 := New(p2, Config{MaxHazards: 100}).Run(nil)
		w := fmt.Sprintf("%+v %+v %d %d", r2.Hazards, r2.Faults, r2.Distinct, r2.Occurrences)
		fresh := New(p3, Config{MaxHazards: 100}).Run(nil).Stats
		fresh.Memory = 0
		// Each of the two nests skips the operations of one nest alone
		// (randomTaskProgram's), when no fault stops either run.
		once := New(randomTaskProgram(seed), Config{MaxHazards: 100}).Run(nil)
		if len(once.Faults) == 0 && len(r2.Faults) == 0 && fresh.SkippedOps != 2*once.Stats.SkippedOps {
			t.Fatalf("seed %d: two nests skipped %d operations, one nest %d", seed, fresh.SkippedOps, once.Stats.SkippedOps)
		}
		a, b := New(p1, Config{MaxHazards: 100}), New(p1, Config{MaxHazards: 100})
		for k, m := range []*Machine{a, b, a} {
			r1 := m.Run(nil)
			g := fmt.Sprintf("%+v %+v %d %d", r1.Hazards, r1.Faults, r1.Distinct, r1.Occurrences)
			if g != w {
				t.Fatalf("seed %d run %d:\nsymmetric %s\nfull      %s", seed, k, g, w)
			}
			st := r1.Stats
			st.Memory = 0
			if st != fresh {
				t.Fatalf("seed %d run %d: statistics %+v, a fresh machine's %+v", seed, k, st, fresh)
			}
			if r1.Stats.SkippedOps > 0 {
				skipped++
			}
		}
	}
	if skipped < 300 {
		t.Fatalf("weak coverage: %d runs skipped tasks", skipped)
	}
}

// twiceTaskProgram is randomTaskProgram's body inside a sequential loop
// of two iterations.
func twiceTaskProgram(seed int64) *Program {
	p := randomTaskProgram(seed)
	o := len(p.Slots)
	p.Slots = append(p.Slots, "outer")
	loop := &Stmt{Kind: KLoop, Sync: -1, Body: []*Stmt{p.Body}, Ctl: &Ctl{Slot: o, Lo: k(0), Hi: k(2)}}
	p.Body = &Stmt{Kind: KBlock, Sync: -1, Body: []*Stmt{loop}}
	p.Finish()
	return p
}
