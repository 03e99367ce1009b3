package amir

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestThreadReplayMatchesFull: replaying a one-thread record from the
// shared events and its thread's own events (replay, issue 13) gives the
// same results as replaying the whole log. Random loops over threads of
// reads and writes (in order and async, per thread, per warp and per CTA,
// some completing on a per-thread commit group or a shared barrier),
// one-thread and CTA fences, per-thread commit-group Arrives and Awaits,
// and Arrives and Awaits on a shared barrier by one thread or a warp run
// both ways; the whole Result must be identical.
func TestThreadReplayMatchesFull(t *testing.T) {
	var fast int64
	hazards := 0
	for seed := int64(0); seed < 3000; seed++ {
		p := randomReplayProgram(seed)
		m1 := New(p, Config{MaxHazards: 100})
		r1 := m1.Run(nil)
		r1c := *r1
		r1c.Stats.Memory = 0 // the two modes keep different indexes
		g := fmt.Sprintf("%+v", r1c)
		m2 := New(randomReplayProgram(seed), Config{MaxHazards: 100})
		m2.plainReplay = true
		r2 := *m2.Run(nil)
		r2.Stats.Memory = 0
		w := fmt.Sprintf("%+v", r2)
		if g != w {
			t.Fatalf("seed %d:\nper-thread %s\nfull       %s", seed, g, w)
		}
		fast += m1.fastReplays
		if r1.Distinct > 0 {
			hazards++
		}
	}
	if fast < 10000 || hazards < 300 || hazards > 2900 {
		t.Fatalf("weak coverage: %d per-thread replays, %d of 3000 programs with hazards", fast, hazards)
	}
}

func randomReplayProgram(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(64)
	y, th := b.slot("y"), b.slot("t")
	buf := b.local("buf", 4, 64)
	cg := b.newVar("cg", true)
	b.p.Vars[cg].PerThreadQueue = true
	z := b.newVar("z", true)
	idx := func() IntExpr {
		switch rng.Intn(3) {
		case 0:
			return func(env []int) int { return env[y] % 4 }
		case 1:
			return k(rng.Intn(4))
		}
		return func(env []int) int { return (env[y] + 1) % 4 }
	}
	col := func() IntExpr {
		if rng.Intn(2) == 0 {
			return v(th)
		}
		return func(env []int) int { return (env[th] + 1) % 4 }
	}
	exec := func() Exec {
		switch rng.Intn(6) {
		case 0:
			return warp(y)
		case 1:
			return cta()
		}
		return thread(th)
	}
	quals := []Qual{qCuda2, qSm80}
	stmt := func() {
		switch rng.Intn(9) {
		case 0, 1:
			b.read(exec(), at(buf, idx(), col()), quals[rng.Intn(2)])
		case 2, 3:
			a := at(buf, idx(), col())
			e := exec()
			q := quals[rng.Intn(2)]
			lvl := FullyOrdered
			if q == qSm80 {
				lvl = Unordered
			}
			b.add(&Stmt{Kind: KCheckReads, Exec: e, Acc: a, Level: TemporallyOrdered, Quals: Of(q), What: AccWrite})
			b.add(&Stmt{Kind: KCheckMutates, Exec: e, Acc: a, Level: TemporallyOrdered, Quals: Of(q), What: AccWrite})
			b.add(&Stmt{Kind: KClearReads, Acc: a})
			b.add(&Stmt{Kind: KClearMutates, Acc: a})
			var bars []*Access
			switch rng.Intn(3) {
			case 0:
				bars = []*Access{at(cg)}
			case 1:
				bars = []*Access{at(z)}
			}
			b.add(&Stmt{Kind: KRecordMutate, Exec: e, Acc: a, Level: lvl, Q: q, Bars: bars})
		case 4:
			tls := []syncTL{cudaInOrder, sm80Generic, sm80CpAsync}
			e := thread(th)
			if rng.Intn(3) == 0 {
				e = cta()
			}
			b.fence(e, tls[rng.Intn(3)], tls[rng.Intn(2)])
		case 5:
			b.arrive(thread(th), []syncTL{sm80CpAsync, cudaInOrder}[rng.Intn(2)], at(cg))
		case 6:
			b.await(thread(th), at(cg), []syncTL{cudaInOrder, sm80Generic}[rng.Intn(2)], rng.Intn(2))
		case 7:
			e := thread(th)
			if rng.Intn(2) == 0 {
				e = warp(y)
			}
			b.arrive(e, []syncTL{sm80Generic, cudaInOrder}[rng.Intn(2)], at(z))
		case 8:
			e := thread(th)
			if rng.Intn(2) == 0 {
				e = warp(y)
			}
			b.await(e, at(z), cudaInOrder, ^rng.Intn(2))
		}
	}
	b.alloc(buf)
	b.loop(y, 0, 1+rng.Intn(3), false, func() {
		b.loop(th, 0, 1+rng.Intn(4), false, func() {
			for n := 2 + rng.Intn(5); n > 0; n-- {
				stmt()
			}
		})
		if rng.Intn(3) == 0 {
			b.fence(cta(), cudaInOrder, cudaInOrder)
		}
		b.loop(th, 0, 1+rng.Intn(4), false, func() {
			for n := 1 + rng.Intn(3); n > 0; n-- {
				stmt()
			}
		})
	})
	return b.build()
}

// TestHwRecordsMatchPerThread: the hardware mbarrier check (mbar.go) keeps
// one record per Await for its whole collective and expands it into
// per-thread records only when an event tells the threads apart; checking
// per-thread records always gives the same results. Random programs of
// the kind above, with the shared barrier a ring of 1 or 2 hardware
// mbarriers and every synchronization carrying the hidden timeline.
func TestHwRecordsMatchPerThread(t *testing.T) {
	var expanded int64
	phase := 0
	for seed := int64(0); seed < 3000; seed++ {
		mk := func() *Program {
			p := randomReplayProgram(seed)
			p.QualNames = append(append([]string(nil), qualNames...), "cuda_mbarrier_qual")
			p.MbarQual = Qual(len(qualNames))
			hw := Of(p.MbarQual)
			Walk(p.Body, func(s *Stmt) {
				switch s.Kind {
				case KFence, KArrive:
					s.Pre |= hw
					s.Full |= hw
					s.Temp |= hw
				case KAwait:
					if !p.Vars[s.Acc.Var].PerThreadQueue {
						s.Full |= hw
						s.Temp |= hw
					}
				}
			})
			for i := range p.Vars {
				if p.Vars[i].Name == "z" {
					p.Vars[i].Ring = 1 + int(seed%2)
				}
			}
			return p
		}
		m1 := New(mk(), Config{MaxHazards: 100})
		r1 := m1.Run(nil)
		m2 := New(mk(), Config{MaxHazards: 100})
		m2.hwExpand = true
		r2 := m2.Run(nil)
		c1, c2 := *r1, *r2
		c1.Stats.Memory, c2.Stats.Memory = 0, 0 // the two modes keep different indexes
		g, w := fmt.Sprintf("%+v", c1), fmt.Sprintf("%+v", c2)
		if g != w {
			t.Fatalf("seed %d:\ncollective %s\nper thread %s", seed, g, w)
		}
		expanded += m1.hwExpanded
		for _, h := range r1.Hazards {
			if h.Kind == PhaseAlias && (h.Phase == PhaseAhead || h.Phase == PhaseEarly) {
				phase++
				break
			}
		}
	}
	if expanded < 100 || phase < 200 {
		t.Fatalf("weak coverage: %d expansions, %d programs with ordering hazards", expanded, phase)
	}
}

// TestTaskReplayMatchesFull: replaying a one-task record over only its
// task's and the host's runs of events (replayTask) changes nothing in
// the Result. The task programs of the thread-group tests (records of a
// shared variable by finished tasks, replayed by later tasks' checks and
// the host's) and the thread-replay programs run with task runs taken
// for replays of any length and with every replay plain.
func TestTaskReplayMatchesFull(t *testing.T) {
	defer func(n int32) { taskReplayMin = n }(taskReplayMin)
	taskReplayMin = 1
	var skips int64
	hazards := 0
	for _, gen := range []func(int64) *Program{randomGroupProgram, randomReplayProgram} {
		for seed := int64(0); seed < 2000; seed++ {
			m1 := New(gen(seed), Config{MaxHazards: 100})
			m2 := New(gen(seed), Config{MaxHazards: 100})
			m2.noTaskReplay = true
			for rep := 0; rep < 2; rep++ {
				r1, r2 := *m1.Run(nil), *m2.Run(nil)
				r1.Stats.Memory, r2.Stats.Memory = 0, 0
				a, b := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
				if a != b {
					t.Fatalf("seed %d run %d:\ntask runs %s\nfull      %s", seed, rep, a, b)
				}
				if rep == 0 && r1.Distinct > 0 {
					hazards++
				}
			}
			skips += m1.taskSkips
		}
	}
	t.Logf("%d events skipped, %d of 4000 programs with hazards", skips, hazards)
	if skips < 10000 || hazards < 400 || hazards > 3900 {
		t.Fatalf("weak coverage: %d events skipped, %d programs with hazards", skips, hazards)
	}
}

// TestCheckSkipMatchesFull: a check that passes a record as it is, without
// replaying it (checkCells, coversAll), changes nothing in the Result:
// replay only adds to f. The random programs of the thread-replay,
// thread-group, grid, thread-symmetry and memo tests run with checks
// skipping replays and with every inspected record replayed.
func TestCheckSkipMatchesFull(t *testing.T) {
	var skips, groupSkips int64
	for _, gen := range []func(int64) *Program{randomReplayProgram, randomGroupProgram, randomGridProgram, randomThreadSymProgram, randomMemoProgram} {
		hazards := 0
		for seed := int64(0); seed < 1000; seed++ {
			m1 := New(gen(seed), Config{MaxHazards: 100})
			m2 := New(gen(seed), Config{MaxHazards: 100})
			m2.noCheckSkip = true
			for rep := 0; rep < 2; rep++ {
				r1, r2 := *m1.Run(nil), *m2.Run(nil)
				r1.Stats.Memory, r2.Stats.Memory = 0, 0
				a, b := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
				if a != b {
					t.Fatalf("seed %d run %d:\nskipping %s\nfull     %s", seed, rep, a, b)
				}
				if rep == 0 && r1.Distinct > 0 {
					hazards++
				}
			}
			skips += m1.checkSkips
			groupSkips += m1.groupSkips
		}
		if hazards < 100 {
			t.Fatalf("weak coverage: %d of 1000 programs with hazards", hazards)
		}
	}
	t.Logf("%d replays skipped, %d of group records", skips, groupSkips)
	if skips < 10000 || groupSkips < 100 {
		t.Fatalf("weak coverage: %d replays skipped, %d of group records", skips, groupSkips)
	}
}

// TestDomSkipMatchesFull: addRecord replacing an older record that has a
// grant and covers the new counts without replaying it (dominated)
// changes nothing in the Result. The same generators as
// TestCheckSkipMatchesFull run with and without the skip.
func TestDomSkipMatchesFull(t *testing.T) {
	var skips int64
	for _, gen := range []func(int64) *Program{randomReplayProgram, randomGroupProgram, randomGridProgram, randomThreadSymProgram, randomMemoProgram} {
		for seed := int64(0); seed < 1000; seed++ {
			m1 := New(gen(seed), Config{MaxHazards: 100})
			m2 := New(gen(seed), Config{MaxHazards: 100})
			m2.noDomSkip = true
			for rep := 0; rep < 2; rep++ {
				r1, r2 := *m1.Run(nil), *m2.Run(nil)
				r1.Stats.Memory, r2.Stats.Memory = 0, 0
				a, b := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
				if a != b {
					t.Fatalf("seed %d run %d:\nskipping %s\nfull     %s", seed, rep, a, b)
				}
			}
			skips += m1.domSkips
		}
	}
	t.Logf("%d replays skipped", skips)
	if skips < 1000 {
		t.Fatalf("weak coverage: %d replays skipped", skips)
	}
}

// TestCommonQueue: the pairwise count of a multicast Arrive's cells finds
// the queues the map count finds.
func TestCommonQueue(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 5000; i++ {
		k := 1 + rng.Intn(3)
		var cells []pend
		for b := 0; b < k; b++ {
			seen := map[int32]bool{}
			for n := rng.Intn(40); n >= 0; n-- {
				id := int32(rng.Intn(50))
				if !seen[id] {
					seen[id] = true
					cells = append(cells, pend{cell: id})
				}
			}
		}
		count := map[int32]int{}
		for _, p := range cells {
			count[p.cell]++
		}
		wantN, want := 0, int32(-1)
		for id, c := range count {
			if c == k {
				wantN++
				want = id
			}
		}
		home, n := commonQueue(cells, k)
		if n != wantN || (n == 1 && home != want) {
			t.Fatalf("case %d: %d queues (home %d), want %d (home %d)", i, n, home, wantN, want)
		}
	}
}
