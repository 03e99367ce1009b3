package check

import (
	"testing"

	"weft.dev/weft/lang/weft/lib"
)

// TestMemoryCache: Symbol.Memory remembers its last answer (stop 40) and
// asks the map again when the symbol's Mem or the library changes; a
// window's symbol answers with its base's memory.
func TestMemoryCache(t *testing.T) {
	a, b := &lib.Memory{Name: "A"}, &lib.Memory{Name: "B"}
	l1 := &lib.Library{Memories: map[string]*lib.Memory{"A": a, "B": b}}
	l2 := &lib.Library{Memories: map[string]*lib.Memory{"A": b}}
	s := &Symbol{Name: "x", Mem: "A"}
	if m := s.Memory(l1); m != a {
		t.Fatalf("first: %v", m)
	}
	if m := s.Memory(l1); m != a {
		t.Fatalf("again: %v", m)
	}
	s.Mem = "B"
	if m := s.Memory(l1); m != b {
		t.Fatalf("after Mem changed: %v", m)
	}
	s.Mem = "A"
	if m := s.Memory(l2); m != b {
		t.Fatalf("other library: %v", m)
	}
	if m := s.Memory(l1); m != a {
		t.Fatalf("back to the first library: %v", m)
	}
	s.Mem = "C"
	if m := s.Memory(l1); m != nil {
		t.Fatalf("unknown memory: %v", m)
	}
	w := &Symbol{Name: "w", Mem: "Special", Special: true, Of: &Symbol{Name: "y", Mem: "B"}}
	if m := w.Memory(l1); m != b {
		t.Fatalf("window: %v", m)
	}
	if m := (*Symbol)(nil).Memory(l1); m != nil {
		t.Fatalf("nil symbol: %v", m)
	}
}
