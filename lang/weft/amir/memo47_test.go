package amir

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestMemoSmallMatchesFull: a table that starts with memoSmall entries
// (memo.go) answers every lookup with the entry a memoSize table would:
// random cells (some congruent modulo memoSmall, some modulo memoSize),
// lookups, invalidations and writes, as execRun makes them, side by side
// with a plain memoSize table; then a new Run of the machine. Growing
// only when the two cells meet modulo memoSize (or never) fails it.
func TestMemoSmallMatchesFull(t *testing.T) {
	grew, kept := 0, 0
	for seed := int64(0); seed < 2000; seed++ {
		rng := rand.New(rand.NewSource(seed))
		m := &Machine{runs: 1}
		run := &Stmt{runMemo: &runMemo{}}
		run.memo = newMemoTable(m)
		var full [memoSize]memoEntry
		span := []int32{8, 64, 300}[rng.Intn(3)]
		base := rng.Int31n(memoSize)
		for op := 0; op < 40; op++ {
			if rng.Intn(15) == 0 {
				m.runs++ // a new Run: every entry empty
				full = [memoSize]memoEntry{}
			}
			c := rng.Int31n(span)
			if mode := seed % 3; mode == 0 || mode == 1 && rng.Intn(8) > 0 {
				c = base + rng.Int31n(4)*memoSize // one entry of the full table
			}
			e, f := m.memoEntryFor(run, c), &full[c&(memoSize-1)]
			hit := e.valid && e.cell == c
			if hit != (f.valid && f.cell == c) || hit && *e != *f {
				t.Fatalf("seed %d op %d cell %d: entry %+v, full table's %+v", seed, op, c, *e, *f)
			}
			if hit {
				continue
			}
			e.valid, f.valid = false, false
			if rng.Intn(4) > 0 { // else a hazard: not memoized
				w := memoEntry{cell: c, log: rng.Int31n(3), ver: uint64(op), gs: threads{start: int32(op)}, valid: true}
				*e, *f = w, w
			}
		}
		if len(run.memo.ents) == memoSize {
			grew++
		} else {
			kept++
		}
	}
	if grew < 100 || kept < 100 {
		t.Fatalf("weak coverage: %d tables grew, %d stayed small", grew, kept)
	}
}

// TestMemoSmallOffSame: the repository's random memo programs give the
// same Result and memo hits with tables of memoSize entries from the
// start.
func TestMemoSmallOffSame(t *testing.T) {
	defer func() { memoSmallOff = false }()
	for seed := int64(0); seed < 500; seed++ {
		var hits [2][3]int64
		var res [2]string
		for i, off := range []bool{false, true} {
			memoSmallOff = off
			m := New(randomMemoProgram(seed), Config{MaxHazards: 100})
			res[i] = fmt.Sprintf("%+v", *m.Run(nil))
			hits[i] = m.memoHits
		}
		if res[0] != res[1] || hits[0] != hits[1] {
			t.Fatalf("seed %d: small first %v %s\nfull %v %s", seed, hits[0], res[0], hits[1], res[1])
		}
	}
}
