package amir

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	"weft.dev/weft/lang/weft/coll"
)

// TestDenseLenMatchesThreads: denseLen(c) is n > 0 exactly when
// coll.AppendThreadsTo lists 0, 1, ..., n-1 for c (New then takes the
// list from the ascending table, asctable.go). Random collectives of up
// to four runs, half of them built dense (each stride the product of the
// later runs' counts) and then perturbed in one field or not.
func TestDenseLenMatchesThreads(t *testing.T) {
	rng := rand.New(rand.NewSource(36))
	dense := 0
	for i := 0; i < 20000; i++ {
		var c coll.Collective
		c.N = rng.Intn(5)
		stride := 1
		for k := c.N - 1; k >= 0; k-- {
			c.Runs[k] = coll.Run{Count: 1 + rng.Intn(5), Stride: stride}
			if rng.Intn(2) == 0 {
				c.Runs[k].Stride = 1 + rng.Intn(12)
			}
			stride = c.Runs[k].Stride * c.Runs[k].Count
		}
		switch rng.Intn(4) {
		case 0:
			c.Start = rng.Intn(3)
		case 1:
			if c.N > 0 {
				k := rng.Intn(c.N)
				c.Runs[k].Stride += rng.Intn(3) - 1
				if c.Runs[k].Stride <= 0 {
					c.Runs[k].Stride = 1
				}
			}
		}
		ts := coll.AppendThreadsTo([]int32(nil), &c)
		want := len(ts)
		for j, x := range ts {
			if x != int32(j) {
				want = 0
				break
			}
		}
		if got := denseLen(&c); got != want {
			t.Fatalf("collective %+v: denseLen %d, threads %v", c, got, ts)
		}
		if want > 0 {
			dense++
		}
	}
	if dense < 2000 {
		t.Fatalf("weak coverage: %d dense collectives", dense)
	}
	t.Logf("%d dense collectives", dense)
}

// TestAscTableMatchesEnumerated: machines whose dense shapes' thread
// lists (and rigid patterns) are prefixes of the shared ascending table
// give the Result of machines that enumerate every shape, on amir's
// random programs, twice each; and no run writes the table.
func TestAscTableMatchesEnumerated(t *testing.T) {
	gens := randomGens()
	shared := 0
	for g, gen := range gens {
		for seed := int64(0); seed < 200; seed++ {
			m1 := New(gen(seed), Config{MaxHazards: 100})
			noAscShapes = true
			m2 := New(gen(seed), Config{MaxHazards: 100})
			noAscShapes = false
			for i, ts := range m1.shapes {
				if len(ts) > 0 && &ts[0] == &ascTable[0] {
					shared++
				}
				if !slices.Equal(ts, m2.shapes[i]) {
					t.Fatalf("generator %d seed %d shape %d: %v, enumerated %v", g, seed, i, ts, m2.shapes[i])
				}
			}
			for rep := 0; rep < 2; rep++ {
				r1, r2 := *m1.Run(nil), *m2.Run(nil)
				a, b := fmt.Sprintf("%+v", r1), fmt.Sprintf("%+v", r2)
				if a != b {
					t.Fatalf("generator %d seed %d run %d:\ntable      %s\nenumerated %s", g, seed, rep, a, b)
				}
			}
		}
	}
	for i, x := range ascTable {
		if x != int32(i) {
			t.Fatalf("ascTable[%d] = %d after the runs", i, x)
		}
	}
	if shared < 1000 {
		t.Fatalf("weak coverage: %d shapes from the table", shared)
	}
	t.Logf("%d shapes from the table", shared)
}
