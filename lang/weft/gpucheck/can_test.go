package gpucheck

import (
	"testing"

	"weft.dev/weft/lang/weft/lib"
)

// TestCanMatchesPerm checks can against lib.Perm.Can on every
// permission of the standard library's memories and on made ones.
func TestCanMatchesPerm(t *testing.T) {
	perms := []lib.Perm{"", "r", "w", "c", "rw", "rwc", "cwr", "x", "rr"}
	for _, m := range lib.MustStd().Memories {
		perms = append(perms, m.CPU, m.CPUInstr, m.CUDA, m.Async, m.AsyncInstr)
	}
	for _, p := range perms {
		for _, op := range []byte{'r', 'w', 'c', 'x', 0} {
			if got, want := can(p, op), p.Can(op); got != want {
				t.Fatalf("can(%q, %q) = %v, Perm.Can %v", p, op, got, want)
			}
		}
	}
}
