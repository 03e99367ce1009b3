package amir

import (
	"math/rand"
	"slices"
	"testing"

	"weft.dev/weft/lang/weft/coll"
)

// TestNewMemberBitmaps: New's membership bitmaps, filled by whole words
// for a shape of threads 0..n-1 (issue 13, stop 32), hold exactly the
// threads of each shape's list, for dense shapes of every size up to 300
// and random strided shapes of up to three runs.
func TestNewMemberBitmaps(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	p := &Program{}
	for n := 1; n <= 300; n++ {
		p.AddShape(coll.Collective{N: 1, Runs: [coll.MaxRuns]coll.Run{{Count: n, Stride: 1}}})
	}
	for i := 0; i < 300; i++ {
		var c coll.Collective
		c.N = 1
		for k := 0; k < 1+rng.Intn(3); k++ {
			c.Runs[k] = coll.Run{Count: 1 + rng.Intn(6), Stride: 1 + rng.Intn(40)}
		}
		p.AddShape(c)
	}
	m := New(p, Config{})
	dense := 0
	for i := range p.Shapes {
		ts := m.shapes[i]
		if len(ts) == 0 {
			continue
		}
		want := make([]uint64, int(slices.Max(ts))/64+1)
		for _, x := range ts {
			want[x/64] |= 1 << (x % 64)
		}
		if !slices.Equal(m.member[i], want) {
			t.Fatalf("shape %d %+v (threads %v): bitmap %x, want %x", i, p.Shapes[i], ts, m.member[i], want)
		}
		if m.dense[i] > 0 {
			dense++
		}
	}
	if dense < 300 {
		t.Fatalf("only %d dense shapes", dense)
	}
}
