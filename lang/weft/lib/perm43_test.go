package lib

import (
	"strings"
	"testing"
)

// TestPermCan (stop 43): Can, a loop over the permission's bytes, answers
// as strings.IndexByte(p, op) >= 0 (its definition before) for every
// permission of the letters r, w, c (any order, repeats, the empty one,
// an odd letter) and every byte.
func TestPermCan(t *testing.T) {
	perms := []string{"", "r", "w", "c", "rw", "wr", "rwc", "crw", "rr", "rx", "xyz"}
	for _, p := range perms {
		for op := 0; op < 256; op++ {
			if got, want := Perm(p).Can(byte(op)), strings.IndexByte(p, byte(op)) >= 0; got != want {
				t.Fatalf("Perm(%q).Can(%q) = %v, want %v", p, byte(op), got, want)
			}
		}
	}
}
