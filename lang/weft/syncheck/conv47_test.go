package syncheck

import (
	"testing"

	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestKnownBitMatchesLookup: qualOf answers every qualifier name of the
// standard library, each name of lib.KnownQuals and a missing one as
// the lookup by name does, and a known name past the 32 an amir.QualSet
// holds, or missing from the library, is refused both ways (issue 13,
// stop 47).
func TestKnownBitMatchesLookup(t *testing.T) {
	defer func() { knownBitOff = false }()
	l := lib.MustStd()
	names := []string{"no_such_qual", "cuda_in_order_ram_qual", "cuda_in_order_rmem_qual", "cpu_in_order_qual",
		"Sm80_cp_async_qual", "tma_to_smem_async_qual", "tma_to_gmem_async_qual", "wmma_async_smem_qual",
		"wmma_async_rmem_a_qual", "wmma_async_rmem_d_qual"}
	for n := range l.Quals {
		names = append(names, n)
	}
	known := 0
	far := &lib.Library{Quals: map[string]*lib.QualTL{"cuda_in_order_ram_qual": {Index: 40}}, Known: lib.KnownQuals{InOrderRAM: 1 << 40}}
	none := &lib.Library{Quals: map[string]*lib.QualTL{}}
	for _, ll := range []*lib.Library{l, far, none} {
		c := &converter{lib: ll}
		for _, n := range names {
			knownBitOff = false
			q, ok := c.qualOf(n)
			knownBitOff = true
			wq, wok := c.qualOf(n)
			if q != wq || ok != wok {
				t.Errorf("qualOf(%s) = %d %v, the lookup %d %v", n, q, ok, wq, wok)
			}
			if _, k := knownBit(&ll.Known, n); k && ok {
				known++
			}
		}
	}
	if known < 9 {
		t.Errorf("%d known names resolved, want the 9 of the standard library at least", known)
	}
}

// TestConvertKnownBitBothWays: every proc of the repository's programs
// converts to the same statements (their timelines and qualifier sets
// included) with qualOf's known bits as with lookups by name.
func TestConvertKnownBitBothWays(t *testing.T) {
	convertBothWays(t, &knownBitOff, func(string, *Program, *Program) {})
}

// TestSyncTLMemo: syncTL answers a sequence of names, repeated, new,
// missing and not names, as the library's table does (the memo of the
// name last found; issue 13, stop 47).
func TestSyncTLMemo(t *testing.T) {
	l := lib.MustStd()
	c := &converter{lib: l}
	var seq []syntax.Expr
	for _, n := range []string{"cuda_in_order", "cuda_in_order", "no_such_tl", "cuda_in_order", "cuda_stream_sync",
		"wgmma_async", "wgmma_async", "no_such_tl", "no_such_tl", "cuda_temporal", "cuda_in_order"} {
		seq = append(seq, &syntax.Name{Name: n})
	}
	seq = append(seq, &syntax.IntLit{Value: 1, Text: "1"}, &syntax.Name{Name: "cuda_in_order"})
	hits := 0
	for _, e := range seq {
		var want *lib.SyncTL
		if n, ok := e.(*syntax.Name); ok {
			want = l.Timelines[n.Name]
		}
		if want != nil {
			hits++
		}
		if got := c.syncTL(e); got != want {
			t.Errorf("syncTL(%s) = %v, want %v", syntax.ExprString(e), got, want)
		}
	}
	if hits < 8 {
		t.Errorf("only %d names found: the sequence tests little", hits)
	}
}
