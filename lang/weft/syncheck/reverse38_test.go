package syncheck

import "testing"

// TestIsReverseOf checks the twin lookup of reverseVar, which compares
// names without printing the twin's, against the printed comparison it
// replaced (name == base + ".reverse"), on names that share prefixes
// and suffixes.
func TestIsReverseOf(t *testing.T) {
	names := []string{"", "a", "b", "ab", "a.reverse", "ab.reverse", "b.reverse", ".reverse", "a.reverse.reverse",
		"a.revers", "a.reversf", "full", "full.reverse", "fullx.reverse", "ful.reverse", "empty.reverse"}
	n := 0
	for _, x := range names {
		for _, base := range names {
			want := x == base+".reverse"
			if got := isReverseOf(x, base); got != want {
				t.Errorf("isReverseOf(%q, %q) = %v, want %v", x, base, got, want)
			}
			if want {
				n++
			}
		}
	}
	if n < 5 {
		t.Fatalf("only %d matching pairs: the table does not exercise the lookup", n)
	}
}
