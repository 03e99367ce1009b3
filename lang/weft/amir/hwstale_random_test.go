package amir

import (
	"fmt"
	"testing"
)

// TestHWStaleRandom: the thread-replay programs of
// TestHwRecordsMatchPerThread (the shared barrier a lag ring of 1 or 2
// hardware mbarriers, every synchronization carrying the hidden
// timeline) give the same Result with hwStaleOK on and off, with slot
// records kept collective and expanded per thread (hwExpand). A lag
// ring's slot records are checked once, at the slot's next arrive, and
// freed there, so hwStaleOK passes only on their state at the Await,
// which these programs never do: the test pins that it changes nothing
// there (the ring-buffered arrays, whose records are checked again by the
// next phase's Awaits, are TestHWStaleRingsRandom's).
func TestHWStaleRandom(t *testing.T) {
	defer func() { hwNoStale, hwStaleHit = false, nil }()
	hits, phase := 0, 0
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
		for _, expand := range []bool{false, true} {
			hwNoStale, hwStaleHit = false, func() { hits++ }
			m1 := New(mk(), Config{MaxHazards: 100})
			m1.hwExpand = expand
			r1 := m1.Run(nil)
			hwNoStale, hwStaleHit = true, nil
			m2 := New(mk(), Config{MaxHazards: 100})
			m2.hwExpand = expand
			r2 := m2.Run(nil)
			c1, c2 := *r1, *r2
			c1.Stats.Memory, c2.Stats.Memory = 0, 0
			g, w := fmt.Sprintf("%+v", c1), fmt.Sprintf("%+v", c2)
			if g != w {
				t.Fatalf("seed %d expand %v:\nstale    %s\nreplayed %s", seed, expand, g, w)
			}
			if !expand {
				for _, h := range r2.Hazards {
					if h.Kind == PhaseAlias && (h.Phase == PhaseAhead || h.Phase == PhaseEarly) {
						phase++
						break
					}
				}
			}
		}
	}
	t.Logf("%d checks passed unreplayed, %d programs with ordering hazards", hits, phase)
	if phase < 200 {
		t.Fatalf("weak coverage: %d programs with ordering hazards", phase)
	}
}
