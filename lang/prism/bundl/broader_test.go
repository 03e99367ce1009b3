package bundl_test

import (
	"fmt"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/bundl"
)

// TestBroaderCollectives is issue 20's case 4: mma, wgmma and setmaxnreg
// called from block[1] in a 256-thread block run each aligned warp's and
// warpgroup's collective (seed 001 §3.6), in every sync mode and schedule,
// and leave exactly what the same kernel wrapped in group(warp[8]) leaves.
func TestBroaderCollectives(t *testing.T) {
	info := loadFile(t, "testdata/broader.prism")
	run := func(kernel string, seed int64, compiled, split bool) []float64 {
		out := &bundl.Buffer{Name: "out", Elem: "float", Data: make([]float64, 256*132)}
		var errs diag.List
		res := bundl.Run(info, bundl.Config{Kernel: kernel, Blocks: 1, Seed: seed, MaxSteps: 5_000_000,
			CompiledSync: compiled, SplitBarriers: split,
			Buffers: map[string]*bundl.Buffer{"out": out}}, &errs)
		if res.Stuck || errs.HasErrors() {
			var b strings.Builder
			diag.WriteText(&b, errs.Diags)
			t.Fatalf("%s (seed %d, compiled %v, split %v): %s", kernel, seed, compiled, split, b.String())
		}
		return out.Data
	}
	want := run("grouped", 0, false, false)
	nonzero := 0
	for _, v := range want {
		if v != 0 {
			nonzero++
		}
	}
	if nonzero < len(want)/2 {
		t.Fatalf("grouped left only %d nonzero outputs of %d", nonzero, len(want))
	}
	for _, mode := range []struct{ compiled, split bool }{{false, false}, {true, false}, {true, true}} {
		for seed := int64(0); seed < 2; seed++ {
			got := run("broad", seed, mode.compiled, mode.split)
			for i := range want {
				if got[i] != want[i] {
					t.Fatalf("broad (seed %d, %+v): out[%d] = %v, grouped gives %v", seed, mode, i, got[i], want[i])
				}
			}
		}
	}
	t.Logf("%s", fmt.Sprint(want[:8]))
}
