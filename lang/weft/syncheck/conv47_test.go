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
			if _, k := ll.Known.Bit(n); k && ok {
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

// TestNamesLookupMask: lookup through scopes' masks finds what a walk
// comparing every binding finds, for names whose bits collide (same
// length and last byte, a bit shared mod 64), shadowed names, a scope of
// several names (an inlined call's) and missing names (issue 13, stop 47).
func TestNamesLookupMask(t *testing.T) {
	c := &converter{}
	all := []string{"", "i", "t4", "t2", "t1", "s", "a4", "x#1", "tile_row", "k", "kk", "a_very_long_name9", "q@"}
	var sc *names
	slot := 0
	for depth := 0; depth < 12; depth++ {
		sc = c.child(sc)
		for j := 0; j <= depth%3; j++ {
			sc.set(all[(depth*5+j*3)%len(all)], slot)
			slot++
		}
		for _, n := range append(all, "missing", "t3", "zz4") {
			ws, wok := 0, false
		walk:
			for s := sc; s != nil; s = s.parent {
				for _, b := range s.slots {
					if b.name == n {
						ws, wok = int(b.slot), true
						break walk
					}
				}
			}
			if gs, gok := sc.lookup(n); gs != ws || gok != wok {
				t.Errorf("depth %d: lookup(%q) = %d %v, the walk %d %v", depth, n, gs, gok, ws, wok)
			}
		}
	}
	if nameBit("t4") == nameBit("t2") || nameBit("a4") != nameBit("t4") {
		t.Errorf("nameBit: want t4 and t2 apart, a4 and t4 together (the test's collisions)")
	}
}

// TestControlNames: isControlName through ctrlMask answers as the list
// does, for names made control names, others of the same bits and
// missing ones, and a binding made by bindControl is a control name
// (slotIndex's ctl shortcut; issue 13, stop 47).
func TestControlNames(t *testing.T) {
	c := &converter{}
	sc := c.child(nil)
	made := map[string]bool{}
	for i, n := range []string{"t4", "s", "tile_row", "x#1", "t4", "k"} {
		c.bindControl(sc, n, i)
		made[n] = true
		for _, q := range []string{"t4", "a4", "t2", "s", "ss", "tile_row", "tile_rox", "x#1", "y#1", "k", "", "zz"} {
			if got := c.isControlName(q); got != made[q] {
				t.Errorf("after %s: isControlName(%q) = %v, want %v", n, q, got, made[q])
			}
		}
	}
	sc.set("p", 9)
	for _, n := range []string{"t4", "s", "tile_row", "x#1", "k", "p"} {
		b := sc.find(n)
		if b == nil || b.ctl != made[n] || b.ctl && !c.isControlName(n) {
			t.Errorf("binding of %s: %+v", n, b)
		}
	}
}
