package amir

import (
	"slices"
	"testing"
)

// TestHoistStalePattern: an evaluation of an access whose cache holds an
// older iteration's unwritten plan (fillHoisted: cachePat, a generation
// ago) replaces it, so that the next use of the cache in the same
// generation returns the evaluated cells, not the stale plan's
// (Machine.cellsOnly clears cachePat).
func TestHoistStalePattern(t *testing.T) {
	b := newBuilder(64)
	y := b.slot("y")
	x := b.newVar("x", false, 16)
	a := at(x, v(y))
	b.loop(y, 0, 4, false, func() { b.read(thread(y), a, qCuda1) })
	p := b.build()
	m := New(p, Config{MaxHazards: 5})
	m.Run(nil)
	m.env[y] = 3
	m.gen++
	a.cachePat, a.cacheBase, a.cacheOwner = []int32{9}, 0, nil
	first, ok := m.cells(a, 0)
	if !ok || !slices.Equal(first, []int32{3}) {
		t.Fatalf("evaluated %v %v, want [3]", first, ok)
	}
	again, _ := m.cells(a, 0)
	if !slices.Equal(again, []int32{3}) {
		t.Fatalf("cached %v, want [3]", again)
	}
	if n := m.countOps(&Stmt{Acc: a}); n != 1 {
		t.Fatalf("countOps %d, want 1", n)
	}
}
