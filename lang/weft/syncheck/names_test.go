package syncheck

import (
	"math/rand"
	"testing"
)

// mapNames is the scope representation names had before stop 26 (a map
// per scope), kept as the reference of TestNamesMatchesMap.
type mapNames struct {
	parent *mapNames
	slots  map[string]int
}

func (n *mapNames) lookup(name string) (int, bool) {
	for s := n; s != nil; s = s.parent {
		if i, ok := s.slots[name]; ok {
			return i, true
		}
	}
	return 0, false
}

// TestNamesMatchesMap: random chains of scopes with bindings, rebindings
// in one scope (set), reads of a scope's own binding (own, 0 when none, as
// a map's zero value) and lookups through the parents give the same
// answers as the map representation (issue 13, stop 26). The scopes come
// from a converter's slab and bind their first names in place (stop 28):
// five names per scope overflow that.
func TestNamesMatchesMap(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	cv := &converter{}
	atoms := []string{"i", "j", "k", "t#1", "n"}
	for c := 0; c < 500; c++ {
		n, m := &names{}, &mapNames{slots: map[string]int{}}
		for step := 0; step < 40; step++ {
			name := atoms[rng.Intn(len(atoms))]
			switch rng.Intn(5) {
			case 0:
				n, m = cv.child(n), &mapNames{parent: m, slots: map[string]int{}}
			case 1:
				if n.parent != nil {
					n, m = n.parent, m.parent
				}
			case 2:
				v := rng.Intn(100)
				n.set(name, v)
				m.slots[name] = v
			case 3:
				if got, want := n.own(name), m.slots[name]; got != want {
					t.Fatalf("case %d step %d: own(%s) = %d, want %d", c, step, name, got, want)
				}
			default:
				gi, gok := n.lookup(name)
				wi, wok := m.lookup(name)
				if gi != wi || gok != wok {
					t.Fatalf("case %d step %d: lookup(%s) = %d %v, want %d %v", c, step, name, gi, gok, wi, wok)
				}
			}
		}
	}
}
