package amir

import (
	"fmt"
	"testing"
)

// TestRigChunkGrowth: the slab of rigid forms' first chunk is sized by
// Program.rigN (rigChunk; issue 13, stop 45). A program whose forms
// outgrow it takes further chunks and gives the same Result: the random
// programs of amir's tests run as Finish counted them and with rigN
// forced to 1 (a first chunk of one form, then 4, 8, 16), twice each.
func TestRigChunkGrowth(t *testing.T) {
	grew := 0
	for g, gen := range randomGens() {
		for seed := int64(0); seed < 200; seed++ {
			m1 := New(gen(seed), Config{MaxHazards: 100})
			p2 := gen(seed)
			p2.rigN = 1
			m2 := New(p2, Config{MaxHazards: 100})
			for rep := 0; rep < 2; rep++ {
				r1, r2 := *m1.Run(nil), *m2.Run(nil)
				a, b := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
				if a != b {
					t.Fatalf("generator %d seed %d run %d:\ncounted %s\none     %s", g, seed, rep, a, b)
				}
			}
			if m2.rigNext > 1 {
				grew++
			}
		}
	}
	t.Logf("%d programs outgrew a first chunk of one form", grew)
	if grew < 100 {
		t.Fatalf("weak coverage: %d programs outgrew the first chunk", grew)
	}
}
