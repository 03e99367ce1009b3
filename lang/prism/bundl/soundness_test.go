package bundl_test

import (
	"fmt"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/bundl"
	"weft.dev/weft/lang/prism/check"
	"weft.dev/weft/lang/prism/internal/progen"
	"weft.dev/weft/lang/prism/lower"
	"weft.dev/weft/lang/prism/syntax"
)

// TestSoundness is seed 001's Theorem 4.1, tested: randomly generated
// programs that the checker accepts never get stuck in the Bundl
// interpreter, whatever the schedule.
func TestSoundness(t *testing.T) {
	programs := 150
	if testing.Short() {
		programs = 30
	}
	accepted := 0
	for i := 0; i < programs; i++ {
		src, T := progen.Generate(int64(i))
		name := fmt.Sprintf("gen%d.prism", i)
		f, errs := syntax.Parse(diag.NewFile(name, []byte(src)))
		if errs.HasErrors() {
			t.Fatalf("%s: generated program does not parse: %v\n%s", name, errs.Err(), src)
		}
		info := check.Check(f, errs)
		if errs.HasErrors() {
			t.Logf("%s rejected: %v", name, errs.Err())
			continue
		}
		accepted++
		// The same programs lower to CUDA deterministically.
		if a, b := lower.Lower(info, lower.Options{}, errs).CUDA, lower.Lower(info, lower.Options{}, errs).CUDA; a != b || !strings.Contains(a, "__global__ void") {
			t.Fatalf("%s: lowering is not deterministic or produced no kernel", name)
		}
		// Bundl's semantics (barriers at the end of every partition and
		// claim, plus the inferred sync points), then only the inferred
		// synchronization the generated CUDA has, as full barriers and as
		// split barriers: never stuck, and the same memory whatever the
		// schedule (the generated programs are race-free), so the inferred
		// synchronization is enough.
		var first []float64
		for seed := int64(0); seed < 6; seed++ {
			var run diag.List
			g := &bundl.Buffer{Name: "g", Elem: "float", Data: make([]float64, 2*4*T)}
			res := bundl.Run(info, bundl.Config{Kernel: "k", Blocks: 2, Seed: seed, MaxSteps: 2_000_000,
				CompiledSync: seed >= 2, SplitBarriers: seed >= 4,
				Args:    map[string]float64{"n": float64(i)},
				Buffers: map[string]*bundl.Buffer{"g": g}}, &run)
			if res.Stuck || run.HasErrors() {
				var b strings.Builder
				diag.WriteText(&b, run.Diags)
				t.Fatalf("%s (seed %d): a well-typed program went wrong:\n%s\n%s", name, seed, b.String(), src)
			}
			if first == nil {
				first = g.Data
			} else {
				for j := range first {
					if g.Data[j] != first[j] {
						t.Fatalf("%s (seed %d): g[%d] = %v, the first run gave %v\n%s", name, seed, j, g.Data[j], first[j], src)
					}
				}
			}
		}
	}
	if accepted < programs*9/10 {
		t.Errorf("only %d of %d generated programs type-check: the generator has drifted from the rules", accepted, programs)
	}
	t.Logf("%d of %d generated programs accepted and ran without getting stuck", accepted, programs)
}
