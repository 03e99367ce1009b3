package cudagen

import "testing"

// TestChainsMayNecessary checks chainsMay (walk_chains.go) against
// chains on every list of up to chainsMayOps+1 operators over small
// thread counts and every start and end count: wherever chains finds a
// chain, chainsMay answers true, and chainsMay answers false on a fifth
// of the lists chains rejects at least (the random lists here often
// telescope without chaining; a kernel's accesses rarely do).
func TestChainsMayNecessary(t *testing.T) {
	counts := []int{1, 2, 3, 4, 8, 16, 32, 64}
	var opsAll [][2]int
	for _, a := range counts {
		opsAll = append(opsAll, [2]int{-a, 0})
		for _, b := range counts {
			opsAll = append(opsAll, [2]int{a, b})
		}
	}
	checked, rejected, filtered := 0, 0, 0
	var rec func(ops [][2]int)
	rec = func(ops [][2]int) {
		if len(ops) > 0 {
			for _, ta := range counts {
				for _, tn := range []int{1, 2, 4, 32} {
					checked++
					c := chains(ops, ta, tn)
					m := chainsMay(ops, ta, tn)
					if c && !m {
						t.Fatalf("chains(%v, %d, %d) finds a chain; chainsMay answers false", ops, ta, tn)
					}
					if !c {
						rejected++
						if !m {
							filtered++
						}
					}
				}
			}
		}
		if len(ops) == chainsMayOps+1 || (len(ops) >= 2 && checked > 2000000) {
			return
		}
		step := 1 + 7*len(ops) // fewer operators deeper down: the test stays short
		for i := 0; i < len(opsAll); i += step {
			rec(append(ops, opsAll[i]))
		}
	}
	rec(nil)
	t.Logf("%d lists: chains rejects %d, chainsMay %d of them", checked, rejected, filtered)
	if filtered < rejected/5 {
		t.Errorf("chainsMay rejects %d of the %d lists chains rejects", filtered, rejected)
	}
}

// TestPrefixChains checks prefixChains (walk_chains.go), stripDist's
// test of each prefix, against chainsInOrder || chainsMay && chains on
// every prefix of a grid of operator lists (up to chainsMayOps+2
// operators, counts past chainsMay's bounds and nonpositive ones among
// them) and start and end counts, each list tested twice in a row (the
// second time chains's answer may come from the memo) and after another.
func TestPrefixChains(t *testing.T) {
	counts := []int{1, 2, 4, 8, 32, 1 << 16}
	var opsAll [][2]int
	for _, a := range counts {
		opsAll = append(opsAll, [2]int{-a, 0})
		for _, b := range counts {
			opsAll = append(opsAll, [2]int{a, b})
		}
	}
	opsAll = append(opsAll, [2]int{0, 4}, [2]int{4, 0})
	var memo chainsMemo
	checked, memoHits := 0, 0
	run := func(ops [][2]int, ta, tn int) {
		ord := newInOrder(ta, tn)
		for k := 1; k <= len(ops); k++ {
			want := chainsInOrder(ops[:k], ta, tn) || chainsMay(ops[:k], ta, tn) && chains(ops[:k], ta, tn)
			before := memo
			if got := prefixChains(ops[:k], ta, tn, &ord, &memo); got != want {
				t.Fatalf("prefixChains of %v from %d to %d: %v, want %v", ops[:k], ta, tn, got, want)
			}
			if before == memo && before.n == k && chainsMay(ops[:k], ta, tn) && !chainsInOrder(ops[:k], ta, tn) {
				memoHits++
			}
			checked++
		}
	}
	var rec func(ops [][2]int)
	rec = func(ops [][2]int) {
		if len(ops) > 0 {
			for _, ta := range []int{1, 4, 32, 64, 1 << 16} {
				for _, tn := range []int{1, 2, 32} {
					run(ops, ta, tn)
					run(ops, ta, tn)
				}
			}
		}
		if len(ops) == chainsMayOps+2 {
			return
		}
		step := 1 + 11*len(ops)
		for i := len(ops) % 3; i < len(opsAll); i += step {
			rec(append(ops, opsAll[i]))
		}
	}
	rec(nil)
	t.Logf("%d prefixes, %d answered by chains's memo", checked, memoHits)
	if memoHits == 0 {
		t.Error("chains's memo never answered")
	}
}
