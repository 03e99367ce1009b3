package amir

import (
	"math/rand"
	"testing"

	"weft.dev/weft/lang/weft/coll"
)

// TestFinishSharesGS checks Finish's g_s caches (finisher.shared, stop
// 31) on the random programs of the machine tests and on long bodies of
// interleaved start forms (more than the last few keys a lookup searches
// first): statements of one start form and shape share one cache,
// statements of different ones never do, and every statement that
// evaluates g_s through its cache has one.
func TestFinishSharesGS(t *testing.T) {
	check := func(name string, p *Program) {
		t.Helper()
		byKey := map[gsKey]*gsCache{}
		owner := map[*gsCache]gsKey{}
		Walk(p.Body, func(s *Stmt) {
			switch s.Kind {
			case KBlock, KLoop, KIf, KIncTaskID, KClearReads, KClearMutates:
				return
			}
			if s.Exec.All {
				return
			}
			if s.gsc == nil {
				t.Fatalf("%s: a %v statement has no g_s cache", name, s.Kind)
			}
			if s.Exec.StartAff == nil {
				if _, ok := owner[s.gsc]; ok {
					t.Fatalf("%s: a statement without a start form shares a cache", name)
				}
				owner[s.gsc] = gsKey{}
				return
			}
			k := gsKey{s.Exec.StartAff, s.Exec.Shape}
			if c, ok := byKey[k]; ok && c != s.gsc {
				t.Fatalf("%s: two caches for one start form and shape", name)
			}
			if o, ok := owner[s.gsc]; ok && o != k {
				t.Fatalf("%s: one cache for two start forms or shapes", name)
			}
			byKey[k], owner[s.gsc] = s.gsc, k
		})
	}
	for seed := int64(0); seed < 300; seed++ {
		check("loop", randomLoopProgram(seed))
		check("task", randomTaskProgram(seed))
		check("memo", randomMemoProgram(seed))
		check("grid", randomGridProgram(seed))
	}
	for seed := int64(0); seed < 200; seed++ {
		rng := rand.New(rand.NewSource(seed))
		nf := 1 + rng.Intn(24)
		forms := make([]*Affine, nf)
		for i := range forms {
			forms[i] = &Affine{K: rng.Intn(3)} // equal values, distinct forms
		}
		p := &Program{Vars: []Var{{Name: "x"}}}
		p.AddShape(coll.Collective{})
		p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: 32, Stride: 1}}})
		var body []*Stmt
		for i := 0; i < 10+rng.Intn(60); i++ {
			ex := Exec{StartAff: forms[rng.Intn(nf)], Shape: rng.Intn(2)}
			switch rng.Intn(6) {
			case 0:
				ex = Exec{All: true}
			case 1:
				ex.StartAff = nil
			}
			body = append(body, &Stmt{Kind: KRecordRead, Acc: &Access{Var: 0}, Exec: ex, Sync: -1})
		}
		p.Body = &Stmt{Kind: KBlock, Body: body, Sync: -1}
		p.Finish()
		check("interleaved", p)
	}
}
