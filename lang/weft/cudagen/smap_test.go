package cudagen

import (
	"math/rand"
	"testing"
)

// TestSmapMatchesMap compares smap with a map under random puts and gets
// through its three forms: inline entries, the list past them (stop 31)
// and the map past smapList entries.
func TestSmapMatchesMap(t *testing.T) {
	r := rand.New(rand.NewSource(31))
	for round := 0; round < 200; round++ {
		var s smap[int, int]
		m := map[int]int{}
		keys := 1 + r.Intn(3*smapList)
		for op := 0; op < 400; op++ {
			k := r.Intn(keys)
			if r.Intn(2) == 0 {
				v := r.Int()
				s.put(k, v)
				m[k] = v
			}
			got, ok := s.get(k)
			want, wok := m[k]
			if got != want || ok != wok {
				t.Fatalf("round %d op %d: get(%d) = %d, %v; want %d, %v", round, op, k, got, ok, want, wok)
			}
			if s.at(k) != want {
				t.Fatalf("round %d op %d: at(%d) = %d; want %d", round, op, k, s.at(k), want)
			}
		}
		for k := 0; k < keys; k++ {
			got, ok := s.get(k)
			if want, wok := m[k]; got != want || ok != wok {
				t.Fatalf("round %d: get(%d) = %d, %v; want %d, %v", round, k, got, ok, want, wok)
			}
		}
	}
}
