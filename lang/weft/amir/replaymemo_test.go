package amir

import (
	"fmt"
	"testing"
)

// TestReplayMemoMatchesFull: the replay memo (replaymemo.go) changes
// nothing in the Result. The random programs of the thread-replay, grid
// and thread-symmetry differential tests run with and without the memo,
// twice on one machine, with the memo taking replays of any length (so
// that their short logs exercise it), the thread-replay programs also
// with every replay plain, and the task programs of the thread-group
// tests; the whole Result must be identical
// (bar the memory estimate).
func TestReplayMemoMatchesFull(t *testing.T) {
	defer func(n int32) { replayMemoMin = n }(replayMemoMin)
	replayMemoMin = 1
	gens := []struct {
		name  string
		gen   func(int64) *Program
		plain bool // every replay plain (the per-thread one is never memoized)
	}{
		{"replay", randomReplayProgram, false},
		{"replay-plain", randomReplayProgram, true},
		{"grid", randomGridProgram, false},
		{"thsym", randomThreadSymProgram, false},
		{"group", randomGroupProgram, false},
	}
	var total, ckpts int64
	for _, g := range gens {
		var hits int64
		hazards := 0
		for seed := int64(0); seed < 1000; seed++ {
			m1 := New(g.gen(seed), Config{MaxHazards: 100})
			m2 := New(g.gen(seed), Config{MaxHazards: 100})
			m2.noReplayMemo = true
			m1.plainReplay, m2.plainReplay = g.plain, g.plain
			for rep := 0; rep < 2; rep++ {
				r1, r2 := *m1.Run(nil), *m2.Run(nil)
				r1.Stats.Memory, r2.Stats.Memory = 0, 0
				a, b := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
				if a != b {
					t.Fatalf("%s seed %d run %d:\nmemo %s\nfull %s", g.name, seed, rep, a, b)
				}
				if rep == 0 && r1.Distinct > 0 {
					hazards++
				}
			}
			hits += m1.replayMemoHits
			ckpts += m1.ckptHits
		}
		t.Logf("%s: %d memo hits, %d of 1000 programs with hazards", g.name, hits, hazards)
		if hazards < 100 {
			t.Fatalf("%s: weak coverage: %d programs with hazards", g.name, hazards)
		}
		total += hits
	}
	t.Logf("%d replays took a checkpoint", ckpts)
	if total < 10000 || ckpts < 1000 {
		t.Fatalf("weak coverage: %d memo hits, %d from checkpoints", total, ckpts)
	}
}
