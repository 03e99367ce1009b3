package syncheck

import (
	"fmt"
	"math/rand"
	"sort"
	"testing"
)

// mapLinear is the map form linear replaced (issue 13): the reference its
// sorted-slice form must agree with, zero coefficients included.
type mapLinear struct {
	k     int
	terms map[string]int
}

func (l mapLinear) sub(o mapLinear) mapLinear {
	r := mapLinear{k: l.k - o.k, terms: map[string]int{}}
	for a, c := range l.terms {
		r.terms[a] += c
	}
	for a, c := range o.terms {
		r.terms[a] -= c
		if r.terms[a] == 0 {
			delete(r.terms, a)
		}
	}
	return r
}

func (l mapLinear) String() string {
	var as []string
	for a := range l.terms {
		as = append(as, a)
	}
	sort.Strings(as)
	s := fmt.Sprint(l.k)
	for _, a := range as {
		s += fmt.Sprintf(" %s:%d", a, l.terms[a])
	}
	return s
}

func (l linear) String() string {
	s := fmt.Sprint(l.k)
	for _, t := range l.terms {
		s += fmt.Sprintf(" %s:%d", t.atom, t.c)
	}
	return s
}

// TestLinearMatchesMap: random sums, differences, negations and products
// by constants (0 included) give the same forms, term for term, in both
// representations, and the same align.
func TestLinearMatchesMap(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	atoms := []string{"a", "b", "c", "i / 2"}
	var gen func(depth int) (linear, mapLinear)
	gen = func(depth int) (linear, mapLinear) {
		if depth == 0 || rng.Intn(4) == 0 {
			if rng.Intn(3) == 0 {
				k := rng.Intn(9) - 4
				return linear{k: k}, mapLinear{k: k}
			}
			a := atoms[rng.Intn(len(atoms))]
			return linear{terms: []linTerm{{a, 1}}}, mapLinear{terms: map[string]int{a: 1}}
		}
		x, mx := gen(depth - 1)
		y, my := gen(depth - 1)
		switch rng.Intn(4) {
		case 0:
			return x.sub(linear{}.sub(y)), mx.sub(mapLinear{}.sub(my))
		case 1:
			return x.sub(y), mx.sub(my)
		case 2:
			return linear{}.sub(x), mapLinear{}.sub(mx)
		}
		k := rng.Intn(5) - 2
		r := linear{k: x.k * k, terms: make([]linTerm, len(x.terms))}
		for i, t := range x.terms {
			r.terms[i] = linTerm{t.atom, t.c * k}
		}
		mr := mapLinear{k: mx.k * k, terms: map[string]int{}}
		for a, c := range mx.terms {
			mr.terms[a] = c * k
		}
		return r, mr
	}
	zeros := 0
	for i := 0; i < 20000; i++ {
		l, ml := gen(5)
		if l.String() != ml.String() {
			t.Fatalf("case %d: slice %s, map %s", i, l, ml)
		}
		g := ml.k
		for _, c := range ml.terms {
			g = gcd(g, c)
		}
		if g < 0 {
			g = -g
		}
		if l.align() != g {
			t.Fatalf("case %d: align %d, map %d", i, l.align(), g)
		}
		for _, c := range ml.terms {
			if c == 0 {
				zeros++
				break
			}
		}
	}
	if zeros < 100 {
		t.Fatalf("weak coverage: %d forms with a zero coefficient", zeros)
	}
}
