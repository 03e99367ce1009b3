package syncheck

import (
	"math/rand"
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// sameAffineByMap is sameAffine as it was before stop 36: the slots'
// coefficient differences in a map.
func sameAffineByMap(a, b *amir.Affine) bool {
	if a == nil || b == nil || a.K != b.K {
		return false
	}
	coef := map[int]int{}
	for _, t := range a.Terms {
		coef[t.Slot] += t.Coef
	}
	for _, t := range b.Terms {
		coef[t.Slot] -= t.Coef
	}
	for _, k := range coef {
		if k != 0 {
			return false
		}
	}
	return true
}

func randAffine(r *rand.Rand) *amir.Affine {
	if r.Intn(20) == 0 {
		return nil
	}
	a := &amir.Affine{K: r.Intn(2)}
	for n := r.Intn(4); n > 0; n-- {
		a.Terms = append(a.Terms, amir.Term{Slot: r.Intn(3), Coef: r.Intn(5) - 2})
	}
	return a
}

// TestSameAffineMatchesMap: the scan gives the map's answer on random
// forms with repeated slots, zero coefficients and shuffled terms.
func TestSameAffineMatchesMap(t *testing.T) {
	r := rand.New(rand.NewSource(36))
	same := 0
	for it := 0; it < 200000; it++ {
		a := randAffine(r)
		b := randAffine(r)
		if it%2 == 0 && a != nil {
			b = &amir.Affine{K: a.K, Terms: append([]amir.Term(nil), a.Terms...)}
			r.Shuffle(len(b.Terms), func(i, j int) { b.Terms[i], b.Terms[j] = b.Terms[j], b.Terms[i] })
			if r.Intn(2) == 0 {
				b.Terms = append(b.Terms, amir.Term{Slot: r.Intn(3), Coef: r.Intn(3) - 1})
			}
		}
		want := sameAffineByMap(a, b)
		if got := sameAffine(a, b); got != want {
			t.Fatalf("sameAffine(%v, %v) = %v, want %v", a, b, got, want)
		}
		if want {
			same++
		}
	}
	if same < 30000 {
		t.Fatalf("only %d equal pairs", same)
	}
}
