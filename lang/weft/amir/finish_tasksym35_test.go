package amir

import (
	"math/rand"
	"slices"
	"testing"
)

// Task symmetry from facts' one walk (issue 13, stop 35: conv35): every
// cuda_tasks loop's symmetric mark must be the plain definition's, an
// innermost task loop whose body (walked in full) reads no task iterator
// in a control or in an access to a task-local variable.

// symmetricRef is the plain definition, walking the loop's whole body.
func symmetricRef(p *Program, loop *Stmt) bool {
	reads := func(slots []int) bool {
		for _, x := range slots {
			if slices.Contains(p.TaskSlots, x) {
				return true
			}
		}
		return false
	}
	ok := true
	for _, b := range loop.Body {
		Walk(b, func(s *Stmt) {
			if s.Kind == KLoop && s.Tasks {
				ok = false // not innermost
			}
			if reads(s.CtlSlots) {
				ok = false
			}
			if s.Acc != nil && p.Vars[s.Acc.Var].TaskLocal && reads(s.Acc.Slots) {
				ok = false
			}
			for _, a := range s.Bars {
				if p.Vars[a.Var].TaskLocal && reads(a.Slots) {
					ok = false
				}
			}
		})
	}
	return ok
}

// taskSymAgrees compares every task loop's mark, set by Finish or by
// facts alone (factsOnly), with symmetricRef; it counts the marks true
// and false.
func taskSymAgrees(t *testing.T, name string, p *Program, yes, no *int) {
	t.Helper()
	Walk(p.Body, func(s *Stmt) {
		if s.Kind != KLoop || !s.Tasks {
			return
		}
		want := symmetricRef(p, s)
		if s.symmetric != want {
			t.Fatalf("%s: task loop of slot %d: symmetric %v, the plain walk says %v", name, s.Slot, s.symmetric, want)
		}
		if want {
			*yes++
		} else {
			*no++
		}
	})
}

// factsOnly runs Finish's facts walk and symmetric on p (a program too
// rough for the planners).
func factsOnly(p *Program) {
	n := len(p.Vars)
	p.TaskSlots = nil
	for i := range p.Vars {
		p.Vars[i].TaskLocal = false
	}
	p.accN, p.allocN = make([]int32, n), make([]int32, n)
	f := &finisher{p: p, flags: make([]uint8, n), chunk: 16, self: make([]selfVar, n)}
	f.facts(p.Body, -1)
	f.symmetric()
}

// randomTaskNest is a random tree of task loops, loops, Ifs, allocations
// and accesses whose slot lists draw on the task iterators, other
// iterators and slots equal to a task iterator modulo 64 (slotBits'
// aliasing), some in controls, some in accesses of variables allocated
// in a task (task-local) or not.
func randomTaskNest(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	p := &Program{}
	nv := 1 + rng.Intn(4)
	for i := 0; i < nv; i++ {
		p.Vars = append(p.Vars, Var{Name: "v", Barrier: rng.Intn(4) == 0})
	}
	nslots := 0
	newSlot := func() int {
		nslots++
		return nslots - 1 + 64*rng.Intn(2)
	}
	var taskSlots []int
	slots := func() []int {
		var out []int
		for k := rng.Intn(3); k > 0; k-- {
			switch rng.Intn(4) {
			case 0:
				if len(taskSlots) > 0 {
					out = append(out, taskSlots[rng.Intn(len(taskSlots))])
				}
			case 1:
				if len(taskSlots) > 0 {
					out = append(out, taskSlots[rng.Intn(len(taskSlots))]^64) // aliases a task slot
				}
			default:
				out = append(out, rng.Intn(nslots+1))
			}
		}
		return out
	}
	acc := func() *Access { return &Access{Var: rng.Intn(nv), Slots: slots()} }
	var gen func(depth int) []*Stmt
	gen = func(depth int) []*Stmt {
		var list []*Stmt
		for k := 1 + rng.Intn(3); k > 0; k-- {
			s := &Stmt{Sync: -1, Exec: Exec{All: true}}
			switch r := rng.Intn(8); {
			case r == 0 && depth < 4:
				slot := newSlot()
				s.Kind, s.Ctl, s.CtlSlots = KLoop, &Ctl{Slot: slot, Tasks: true}, slots()
				taskSlots = append(taskSlots, slot)
				s.Body = gen(depth + 1)
			case r <= 2 && depth < 4:
				slot := newSlot()
				s.Kind, s.Ctl, s.CtlSlots = KLoop, &Ctl{Slot: slot}, slots()
				s.Body = gen(depth + 1)
			case r == 3 && depth < 4:
				s.Kind, s.Ctl, s.CtlSlots = KIf, &Ctl{}, slots()
				s.Body = gen(depth + 1)
			case r == 4:
				s.Kind, s.Ctl, s.Acc, s.CtlSlots = KAlloc, &Ctl{}, &Access{Var: rng.Intn(nv)}, slots()
			default:
				s.Kind = []Kind{KRecordRead, KRecordMutate, KCheckReads, KCheckMutates, KArrive}[rng.Intn(5)]
				if s.Kind != KArrive {
					s.Acc = acc()
				}
				if rng.Intn(3) == 0 {
					s.Bars = []*Access{acc()}
				}
			}
			list = append(list, s)
		}
		return list
	}
	p.Body = &Stmt{Kind: KBlock, Sync: -1, Body: gen(0)}
	return p
}

func TestTaskSymmetryMatchesWalk(t *testing.T) {
	yes, no := 0, 0
	for seed := int64(0); seed < 20000; seed++ {
		p := randomTaskNest(seed)
		factsOnly(p)
		taskSymAgrees(t, "randomTaskNest", p, &yes, &no)
	}
	// Both answers, many times, where loops nest and slots alias.
	if yes < 2000 || no < 2000 {
		t.Fatalf("weak coverage: %d symmetric task loops, %d not", yes, no)
	}
	y2, n2 := 0, 0
	for seed := int64(0); seed < 2000; seed++ {
		for _, p := range []*Program{randomTaskProgram(seed), randomLoopProgram(seed), randomGridProgram(seed), randomThreadSymProgram(seed), randomKeepProgram(seed)} {
			taskSymAgrees(t, "random programs", p, &y2, &n2)
		}
	}
	if y2 < 1000 {
		t.Fatalf("weak coverage: %d symmetric task loops, %d not, in the machine tests' generators", y2, n2)
	}
	t.Logf("random nests: %d symmetric, %d not; machine generators: %d symmetric, %d not", yes, no, y2, n2)
}

// rdTrackRef is the read-creator index's sources as stop 34 gathered
// them, by a walk of the finished program (rdindex.go).
func rdTrackRef(p *Program) []bool {
	var track []bool
	Walk(p.Body, func(s *Stmt) {
		if s.Kind != KLoop || s.grid == nil {
			return
		}
		for i := range s.grid.vars {
			gv := &s.grid.vars[i]
			if !gv.ro {
				continue
			}
			for _, src := range gv.srcs {
				if src < 0 {
					continue
				}
				for int(src) >= len(track) {
					track = append(track, false)
				}
				track[src] = true
			}
		}
	})
	return track
}

// rdTrackAgrees reports whether p.rdTrack, gathered by planLoops
// (rdTrackGrid, stop 35), is rdTrackRef's, and whether it is non-nil.
func rdTrackAgrees(p *Program) (agree, some bool) {
	want := rdTrackRef(p)
	return slices.Equal(p.rdTrack, want) && (p.rdTrack == nil) == (want == nil), want != nil
}

func TestRdTrackMatchesWalk(t *testing.T) {
	some := 0
	for seed := int64(0); seed < 3000; seed++ {
		for _, p := range []*Program{randomGridProgram(seed), randomBlockProgram(seed, seed%2 == 0)} {
			ok, s := rdTrackAgrees(p)
			if !ok {
				t.Fatalf("seed %d: rdTrack %v, the walk's %v", seed, p.rdTrack, rdTrackRef(p))
			}
			if s {
				some++
			}
		}
	}
	if some < 500 {
		t.Fatalf("weak coverage: %d programs with tracked sources", some)
	}
	t.Logf("%d programs with tracked sources", some)
}
