package amir

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestThreadGroupsMatchPerThread: thread groups (thgroup.go: one record
// for the per-thread records of a statement by more than 8 threads) give
// the same Result as per-thread records, statistics included (but the
// memory estimate and SkippedOps: thread symmetry stays off in a run
// that made a group). Random programs: the thread-replay, grid and
// thread-symmetry generators, and randomGroupProgram (tasks, warp-wide
// reads and writes of a shared and a task-local variable, fences,
// Arrives and Awaits by one thread, a warp or the CTA, host accesses).
func TestThreadGroupsMatchPerThread(t *testing.T) {
	gens := []struct {
		name string
		gen  func(int64) *Program
	}{
		{"replay", randomReplayProgram},
		{"grid", randomGridProgram},
		{"thsym", randomThreadSymProgram},
		{"group", randomGroupProgram},
	}
	for _, g := range gens {
		var made, expanded int64
		hazards := 0
		for seed := int64(0); seed < 1500; seed++ {
			m1 := New(g.gen(seed), Config{MaxHazards: 100})
			m2 := New(g.gen(seed), Config{MaxHazards: 100})
			m2.noThreadGroups = true
			for rep := 0; rep < 2; rep++ {
				r1, r2 := *m1.Run(nil), *m2.Run(nil)
				if err := m1.checkTGTasks(); err != "" {
					t.Fatalf("%s seed %d: %s", g.name, seed, err)
				}
				// Thread symmetry stays off after a group is made.
				r1.Stats.Memory, r2.Stats.Memory = 0, 0
				r1.Stats.SkippedOps, r2.Stats.SkippedOps = 0, 0
				a, b := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
				if a != b {
					t.Fatalf("%s seed %d run %d:\ngroups     %s\nper thread %s", g.name, seed, rep, a, b)
				}
				if rep == 0 && r1.Distinct > 0 {
					hazards++
				}
			}
			if m2.grpMade > 0 && g.name != "grid" {
				t.Fatalf("%s seed %d: groups made with thread groups off", g.name, seed)
			}
			made += m1.grpMade
			expanded += m1.grpExpanded
		}
		t.Logf("%s: %d groups made, %d expanded, %d of 1500 programs with hazards", g.name, made, expanded, hazards)
		if g.name == "replay" || g.name == "group" {
			if made < 2000 || expanded < 500 || hazards < 150 || hazards > 1400 {
				t.Fatalf("%s: weak coverage: %d groups, %d expansions, %d programs with hazards", g.name, made, expanded, hazards)
			}
		}
	}
}

// TestDeadCountsAndGrants: dropping the pending counts on dead queues
// (dropDeadPends) and the redundant grants of finished tasks (augment,
// deadTask) changes no hazard, no fault and no statistic but the
// records kept (a record that differed from a new one only in dead
// counts is now identical to it, so addRecord keeps it instead of
// making the new one).
func TestDeadCountsAndGrants(t *testing.T) {
	dropped, changed := int64(0), 0
	hazards := 0
	for seed := int64(0); seed < 2000; seed++ {
		m1 := New(randomGroupProgram(seed), Config{MaxHazards: 100})
		m2 := New(randomGroupProgram(seed), Config{MaxHazards: 100})
		m2.keepDead = true
		r1, r2 := *m1.Run(nil), *m2.Run(nil)
		if r1.Stats.Records != r2.Stats.Records {
			changed++
		}
		dropped += m1.deadDrops
		r1.Stats.Memory, r2.Stats.Memory = 0, 0
		r1.Stats.Records, r2.Stats.Records = 0, 0
		a, b := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
		if a != b {
			t.Fatalf("seed %d:\ndropped %s\nkept    %s", seed, a, b)
		}
		if r1.Distinct > 0 {
			hazards++
		}
	}
	t.Logf("%d dead counts and grants dropped, %d of 2000 programs kept fewer records, %d with hazards", dropped, changed, hazards)
	if dropped < 2000 || hazards < 200 || hazards > 1950 {
		t.Fatalf("weak coverage: %d dropped, %d programs with hazards", dropped, hazards)
	}
}

// randomGroupProgram: tasks of a 64-thread CTA (two warps) that allocate
// a barrier and a buffer, read and write them and a shared variable by a
// warp (not convergent: per-thread records, grouped), the CTA, or one
// thread, synchronize by one thread, a warp or the CTA (Fences, Arrives
// and Awaits on the task's barrier), around host writes and reads of the
// shared variable.
func randomGroupProgram(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(64)
	task, y, th := b.slot("task"), b.slot("y"), b.slot("t")
	x := b.newVar("x", false, 4, 4)
	buf := b.local("buf", 4, 4)
	z := b.local("z", 2)
	b.p.Vars[z].Barrier = true
	host := Exec{All: true}
	quals := []Qual{qCuda2, qSm80}
	exec := func() Exec {
		switch rng.Intn(6) {
		case 0, 1, 2:
			return warp(y)
		case 3:
			return cta()
		}
		return thread(th)
	}
	cellOf := func(v int) *Access {
		i := rng.Intn(4)
		switch rng.Intn(3) {
		case 0:
			return at(v, k(i), func(env []int) int { return env[y] % 4 })
		case 1:
			return at(v, func(env []int) int { return env[task] % 4 }, k(i))
		}
		return at(v, k(i), k(rng.Intn(4)))
	}
	stmt := func() {
		v := buf
		if rng.Intn(2) == 0 {
			v = x
		}
		switch rng.Intn(10) {
		case 0, 1, 2:
			b.read(exec(), cellOf(v), quals[rng.Intn(2)])
		case 3, 4:
			q := quals[rng.Intn(2)]
			lvl := FullyOrdered
			if q == qSm80 {
				lvl = Unordered
			}
			e, a := exec(), cellOf(v)
			b.add(&Stmt{Kind: KCheckReads, Exec: e, Acc: a, Level: TemporallyOrdered, Quals: Of(q), What: AccWrite})
			b.add(&Stmt{Kind: KCheckMutates, Exec: e, Acc: a, Level: TemporallyOrdered, Quals: Of(q), What: AccWrite})
			if rng.Intn(2) == 0 {
				b.add(&Stmt{Kind: KClearReads, Acc: a})
				b.add(&Stmt{Kind: KClearMutates, Acc: a})
			}
			var bars []*Access
			if rng.Intn(3) == 0 {
				bars = []*Access{at(z, k(rng.Intn(2)))}
			}
			b.add(&Stmt{Kind: KRecordMutate, Exec: e, Acc: a, Level: lvl, Q: q, Bars: bars})
		case 5:
			tls := []syncTL{cudaInOrder, sm80Generic, sm80CpAsync}
			b.fence(exec(), tls[rng.Intn(3)], tls[rng.Intn(2)])
		case 6, 7:
			b.arrive(exec(), []syncTL{sm80Generic, cudaInOrder, sm80CpAsync}[rng.Intn(3)], at(z, k(rng.Intn(2))))
		case 8, 9:
			b.await(exec(), at(z, k(rng.Intn(2))), []syncTL{cudaInOrder, sm80Generic}[rng.Intn(2)], ^rng.Intn(2))
		}
	}
	if rng.Intn(2) == 0 {
		b.write(host, at(x), qStrm, FullyOrdered)
	}
	b.fence(host, streamSync, cudaInOrder)
	b.loop(task, 0, 1+rng.Intn(4), true, func() {
		b.alloc(buf)
		b.alloc(z)
		b.loop(y, 0, 2, false, func() {
			b.loop(th, 0, 1+rng.Intn(3), false, func() {
				for n := 2 + rng.Intn(5); n > 0; n-- {
					stmt()
				}
			})
			if rng.Intn(3) == 0 {
				b.fence(cta(), cudaInOrder, cudaInOrder)
			}
			b.loop(th, 0, 1+rng.Intn(3), false, func() {
				for n := 1 + rng.Intn(3); n > 0; n-- {
					stmt()
				}
			})
		})
	})
	b.fence(host, cudaInOrder, streamSync)
	if rng.Intn(2) == 0 {
		b.read(host, at(x), qStrm)
	}
	return b.build()
}

// checkTGTasks reports where Machine.tgTasks, the count of thread-group
// frames per task that lets threadGroupEvent skip its scan, differs from
// a count of tgFrames ("" when they agree).
func (m *Machine) checkTGTasks() string {
	want := map[int32]int32{}
	for _, f := range m.tgFrames {
		want[f.x.task]++
	}
	for task, n := range m.tgTasks {
		if n != want[task] {
			return fmt.Sprintf("tgTasks[%d] = %d, %d frames", task, n, want[task])
		}
	}
	for task, n := range want {
		if m.tgTasks[task] != n {
			return fmt.Sprintf("tgTasks[%d] = %d, %d frames", task, m.tgTasks[task], n)
		}
	}
	return ""
}
