package syncheck

import (
	"sort"
	"testing"

	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/lib"
)

// TestHasKnownMatchesQual: fenceOrdersThreads tests the library's known
// qualifier bits (hasKnown) where it had resolved each qualifier by name
// (qual); both must answer alike for every sync timeline of the library,
// and for qualifiers at and past the 32 an amir.QualSet holds, which
// qual refuses.
func TestHasKnownMatchesQual(t *testing.T) {
	l := lib.MustStd()
	c := &converter{lib: l}
	byName := func(tl *lib.SyncTL, names ...string) bool {
		for _, n := range names {
			if x, ok := c.qual(n); ok && amir.QualSet(tl.FullSet).Has(x) {
				return true
			}
		}
		return false
	}
	k := l.Known
	names := make([]string, 0, len(l.Timelines))
	for n := range l.Timelines {
		names = append(names, n)
	}
	sort.Strings(names)
	generic, wgmma := 0, 0
	for _, n := range names {
		tl := l.Timelines[n]
		g, w := byName(tl, "cuda_in_order_ram_qual", "cuda_in_order_rmem_qual"), byName(tl, "wmma_async_rmem_d_qual", "wmma_async_smem_qual")
		if got := hasKnown(tl, k.InOrderRAM|k.InOrderRMEM); got != g {
			t.Errorf("%s: hasKnown(in order) = %v, by name %v", n, got, g)
		}
		if got := hasKnown(tl, k.WmmaRmemD|k.WmmaSmem); got != w {
			t.Errorf("%s: hasKnown(wgmma) = %v, by name %v", n, got, w)
		}
		if g {
			generic++
		}
		if w {
			wgmma++
		}
	}
	if generic == 0 || wgmma == 0 {
		t.Fatalf("the library's timelines exercise neither side: %d in order, %d wgmma", generic, wgmma)
	}
	// Qualifiers past an amir.QualSet: a bit at 32 or 40 is refused, as
	// qual refuses their indices.
	tl := &lib.SyncTL{FullSet: 1<<32 | 1<<40}
	if hasKnown(tl, 1<<32|1<<40) {
		t.Error("hasKnown accepts a qualifier at index 32 or more")
	}
	if !hasKnown(&lib.SyncTL{FullSet: 1 << 31}, 1<<31) {
		t.Error("hasKnown refuses the qualifier at index 31")
	}
}
