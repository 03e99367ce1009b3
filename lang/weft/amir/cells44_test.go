package amir

import (
	"math/rand"
	"slices"
	"testing"
)

// TestAddPatternAndIdentity compares addPattern and identityCells (issue
// 13, stop 44: an indexed fill and a byte compare with the ascending
// table) with their plain forms on random lists, the table's length and
// past it included.
func TestAddPatternAndIdentity(t *testing.T) {
	rng := rand.New(rand.NewSource(44))
	for it := 0; it < 3000; it++ {
		n := rng.Intn(300)
		switch it % 10 {
		case 0:
			n = ascTableLen - 2 + rng.Intn(5)
		case 1:
			n = 0
		}
		pat := make([]int32, n)
		for i := range pat {
			pat[i] = int32(i)
			if rng.Intn(3) == 0 {
				pat[i] = rng.Int31n(1000)
			}
		}
		base := int32(0)
		if rng.Intn(2) == 0 {
			base = rng.Int31n(500)
		}
		pre := make([]int32, rng.Intn(5), rng.Intn(8)+5)
		for i := range pre {
			pre[i] = rng.Int31()
		}
		want := slices.Clone(pre)
		for _, p := range pat {
			want = append(want, base+p)
		}
		if got := addPattern(slices.Clone(pre), pat, base); !slices.Equal(got, want) {
			t.Fatalf("addPattern(%v, %v, %d) = %v, want %v", pre, pat, base, got, want)
		}
		cs := want[len(pre):]
		if rng.Intn(2) == 0 && len(cs) > 0 {
			// Identity, then one cell off.
			for i := range cs {
				cs[i] = int32(i)
			}
			if rng.Intn(2) == 0 {
				cs[rng.Intn(len(cs))] += int32(rng.Intn(3)*2 - 1)
			}
		}
		id := true
		for i, c := range cs {
			id = id && c == int32(i)
		}
		if got := identityCells(cs); got != id {
			t.Fatalf("identityCells(%v) = %v, want %v", cs, got, id)
		}
	}
}
