package bundl_test

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/bundl"
	"weft.dev/weft/lang/prism/check"
	"weft.dev/weft/lang/prism/internal/progen"
	"weft.dev/weft/lang/prism/lower"
	"weft.dev/weft/lang/prism/syntax"
)

// TestSoundness is seed 001's Theorem 4.1, tested on random programs that
// use every construct of the calculus (progen.Rules):
//   - the checker accepts => the Bundl run never gets stuck, and every
//     schedule seed and sync mode (Bundl's barriers, the compiled sync
//     points as full barriers, the split barriers) leaves the same memory;
//   - the checker rejects => the program breaks a stated rule: programs
//     are either meant to be well typed (and must be accepted) or break one
//     rule on purpose, and then the checker must report exactly that rule's
//     code at the generator's line, and nothing else.
//
// Coverage is counted by rule: each accepted program's constructs and each
// rejected program's code are tallied, and the full run requires every
// rule and every planted code at least once (the table is logged with -v).
func TestSoundness(t *testing.T) {
	programs := 2000
	if testing.Short() {
		programs = 200
	}
	accepted, rejected := 0, 0
	constructs := map[string]int{}
	codes := map[string]int{}
	for i := 0; i < programs; i++ {
		p := progen.GenerateAny(int64(i), 0.35)
		name := fmt.Sprintf("gen%d.prism", i)
		f, errs := syntax.Parse(diag.NewFile(name, []byte(p.Src)))
		if errs.HasErrors() {
			t.Fatalf("%s: generated program does not parse: %v\n%s", name, errs.Err(), p.Src)
		}
		info := check.Check(f, errs)
		if p.Planted != nil {
			rejected++
			if !plantedOnly(t, name, p, errs) {
				return
			}
			codes[p.Planted.Code]++
			continue
		}
		if errs.HasErrors() {
			t.Fatalf("%s: a program meant to be well typed was rejected: %v\n%s", name, errs.Err(), p.Src)
		}
		accepted++
		for k, n := range p.Constructs {
			constructs[k] += n
		}
		// The same programs lower to CUDA deterministically.
		if a, b := lower.Lower(info, lower.Options{}, errs).CUDA, lower.Lower(info, lower.Options{}, errs).CUDA; a != b || !strings.Contains(a, "__global__ void") {
			t.Fatalf("%s: lowering is not deterministic or produced no kernel", name)
		}
		if !runAllModes(t, name, p, info, i) {
			return
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d programs: %d accepted, %d rejected (each for its planted rule)\n", programs, accepted, rejected)
	for _, r := range progen.Rules {
		fmt.Fprintf(&b, "  %-26s %6d\n", r, constructs[r])
	}
	var cs []string
	for c := range codes {
		cs = append(cs, c)
	}
	sort.Strings(cs)
	for _, c := range cs {
		fmt.Fprintf(&b, "  rejected %s %6d\n", c, codes[c])
	}
	t.Log(b.String())
	if testing.Short() {
		return
	}
	for _, r := range progen.Rules {
		if constructs[r] == 0 {
			t.Errorf("no accepted program exercised %s", r)
		}
	}
	for _, c := range []string{"P0101", "P0102", "P0103", "P0104", "P0105", "P0106", "P0108", "P0110", "P0113", "P0115", "P0125", "P0129"} {
		if codes[c] == 0 {
			t.Errorf("no program was rejected with %s", c)
		}
	}
	if accepted < programs/2 {
		t.Errorf("only %d of %d programs accepted", accepted, programs)
	}
}

// plantedOnly checks that a program with a planted violation is rejected
// with exactly the planted code at the planted line and nothing else.
func plantedOnly(t *testing.T, name string, p progen.Program, errs *diag.List) bool {
	t.Helper()
	found := false
	for _, d := range errs.Diags {
		if d.Severity != diag.Error {
			continue
		}
		if d.Code != p.Planted.Code {
			t.Errorf("%s: planted %s at line %d (%s), but the checker also reports %s at line %d: %s\n%s",
				name, p.Planted.Code, p.Planted.Line, p.Planted.Rule, d.Code, d.Pos.Line(), d.Message, p.Src)
			return false
		}
		if d.Pos.Line() == p.Planted.Line {
			found = true
		}
	}
	if !found {
		t.Errorf("%s: planted %s at line %d (%s); the checker reports %v\n%s", name, p.Planted.Code, p.Planted.Line, p.Planted.Rule, errs.Err(), p.Src)
	}
	return found
}

// runAllModes runs an accepted program under Bundl's semantics (barriers
// at the end of every partition and claim, plus the inferred sync points)
// and with only the synchronization the generated CUDA has, as full and as
// split barriers, two schedules each: never stuck, and the same memory.
func runAllModes(t *testing.T, name string, p progen.Program, info *check.Info, i int) bool {
	t.Helper()
	var first []float64
	for seed := int64(0); seed < 6; seed++ {
		var run diag.List
		g := &bundl.Buffer{Name: "g", Elem: "float", Data: make([]float64, progen.Words(p.T))}
		res := bundl.Run(info, bundl.Config{Kernel: "k", Blocks: 2, Seed: seed, MaxSteps: 4_000_000,
			CompiledSync: seed >= 2, SplitBarriers: seed >= 4,
			Args:    map[string]float64{"n": float64(i % 7)},
			Buffers: map[string]*bundl.Buffer{"g": g}}, &run)
		if res.Stuck || run.HasErrors() {
			var b strings.Builder
			diag.WriteText(&b, run.Diags)
			t.Errorf("%s (seed %d): a well-typed program went wrong:\n%s\n%s", name, seed, b.String(), p.Src)
			return false
		}
		if first == nil {
			first = g.Data
			continue
		}
		for j := range first {
			if g.Data[j] != first[j] {
				t.Errorf("%s (seed %d): g[%d] = %v, the first run gave %v\n%s", name, seed, j, g.Data[j], first[j], p.Src)
				return false
			}
		}
	}
	return true
}
