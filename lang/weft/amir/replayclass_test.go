package amir

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestReplayClassMatchesPlain: replays that take the end state of the
// last replay of their class (replayclass.go, stop 33) change nothing in
// the Result. The random programs of the replay memo's test (per-thread
// replays, plain replays, grids, thread symmetry, thread groups) and the
// block grid programs, and replayClassProgram's threads whose records
// differ in timeline or level by the thread's parity (in half the
// programs under one source statement), run with and
// without replay classes
// (noReplayClass), with the replay memo at its threshold and taking
// replays of any length, twice on one machine.
func TestReplayClassMatchesPlain(t *testing.T) {
	defer func(n int32) { replayMemoMin = n }(replayMemoMin)
	gens := []struct {
		name  string
		gen   func(int64) *Program
		plain bool
	}{
		{"replay", randomReplayProgram, false},
		{"replay-plain", randomReplayProgram, true},
		{"grid", randomGridProgram, false},
		{"thsym", randomThreadSymProgram, false},
		{"group", randomGroupProgram, false},
		{"block", func(seed int64) *Program { return randomBlockProgram(seed, true) }, false},
		{"class", replayClassProgram, false},
		{"class-plain", replayClassProgram, true},
	}
	var total int64
	for _, g := range gens {
		var hits int64
		hazards := 0
		for seed := int64(0); seed < 600; seed++ {
			replayMemoMin = []int32{1, 256}[seed%2]
			m1 := New(g.gen(seed), Config{MaxHazards: 100})
			m2 := New(g.gen(seed), Config{MaxHazards: 100})
			m2.noReplayClass = true
			m1.plainReplay, m2.plainReplay = g.plain, g.plain
			for rep := 0; rep < 2; rep++ {
				r1, r2 := *m1.Run(nil), *m2.Run(nil)
				r1.Stats.Memory, r2.Stats.Memory = 0, 0
				a, b := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
				if a != b {
					t.Fatalf("%s seed %d run %d:\nclass %s\nfull  %s", g.name, seed, rep, a, b)
				}
				if rep == 0 && r1.Distinct > 0 {
					hazards++
				}
			}
			hits += m1.replayClassHits
		}
		t.Logf("%s: %d replays took their class's end state, %d of 600 programs with hazards", g.name, hits, hazards)
		if hazards < 60 {
			t.Fatalf("%s: weak coverage: %d programs with hazards", g.name, hazards)
		}
		total += hits
	}
	if total < 5000 {
		t.Fatalf("weak coverage: %d replays took their class's end state", total)
	}
}

// replayClassProgram: nT threads each write their element of buf, the even
// and the odd ones with their own timeline and level (so that records of
// one stamp differ in what a replay reads), with no event in between;
// then fences, arrives and awaits by a thread, a warp or the CTA, and
// checks by the CTA and by other threads, which replay the records one
// after the other over the same events.
func replayClassProgram(seed int64) *Program {
	rng := rand.New(rand.NewSource(seed))
	b := newBuilder(64)
	y, th := b.slot("y"), b.slot("t")
	nT := 2 + rng.Intn(7)
	buf := b.local("buf", nT)
	z := b.newVar("z", true)
	quals := []Qual{qCuda2, qSm80}
	levels := []Level{AtomicOnly, Unordered, FullyOrdered}
	tls := []syncTL{cudaInOrder, sm80Generic, sm80CpAsync}
	elem := func(f IntExpr) *Access { return at(buf, f) }
	// Half the programs give both parities' records one source
	// statement, as Convert does when one statement lowers to records of
	// several timelines: then only the key's timeline and level tests
	// tell the records apart.
	shareSrc, src0 := rng.Intn(2) == 0, 0
	write := func(parity int) {
		q, lvl := quals[rng.Intn(2)], levels[rng.Intn(3)]
		b.open()
		s := b.add(&Stmt{Kind: KRecordMutate, Exec: thread(th), Acc: elem(v(th)), Level: lvl, Q: q})
		if parity == 0 {
			src0 = s.Src
		} else if shareSrc {
			s.Src = src0
		}
		body := b.close()
		b.add(&Stmt{Kind: KIf, Sync: -1, CtlSlots: []int{th}, Body: body, Ctl: &Ctl{Cond: func(env []int) bool { return env[th]%2 == parity }}})
	}
	event := func() {
		switch rng.Intn(4) {
		case 0:
			b.fence(cta(), tls[rng.Intn(3)], tls[rng.Intn(2)])
		case 1:
			b.fence(thread(th), tls[rng.Intn(3)], tls[rng.Intn(2)])
		case 2:
			b.arrive([]Exec{cta(), warp(y), thread(th)}[rng.Intn(3)], tls[rng.Intn(2)], at(z))
		case 3:
			b.await([]Exec{cta(), thread(th)}[rng.Intn(2)], at(z), tls[rng.Intn(2)], rng.Intn(2))
		}
	}
	b.alloc(buf)
	b.loop(y, 0, 1+rng.Intn(2), false, func() {
		b.loop(th, 0, nT, false, func() {
			write(0)
			write(1)
		})
		b.loop(th, 0, 1+rng.Intn(2), false, func() {
			for n := rng.Intn(4); n > 0; n-- {
				event()
			}
		})
		if rng.Intn(2) == 0 {
			event()
		}
		q := quals[rng.Intn(2)]
		all := &Access{Var: buf, Idx: []Window{{Lo: k(0), Hi: k(nT)}}}
		b.add(&Stmt{Kind: KCheckMutates, Exec: cta(), Acc: all, Level: []Level{Unordered, FullyOrdered}[rng.Intn(2)], Quals: Of(q), What: AccRead})
		b.loop(th, 0, nT, false, func() {
			b.read(thread(th), elem(func(env []int) int { return (env[th] + 1) % nT }), quals[rng.Intn(2)])
		})
	})
	return b.build()
}
