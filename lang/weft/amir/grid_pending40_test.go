package amir_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/weft/amir"
)

// TestGridPendingUnwritten runs the sync check on the examples whose
// nests take the shared pending block plan (shfl_xor's five among them,
// stop 40) and on the mbarrier corpus, and requires the shared value
// unchanged after every check: each nest replaces it with its own plan
// at its first entry and nothing may write into it.
func TestGridPendingUnwritten(t *testing.T) {
	files, _ := filepath.Glob("../../../examples/weft/exo/*.weft")
	sync, _ := filepath.Glob("../../../examples/weft/sync/*.weft")
	files = append(files, sync...)
	if len(files) < 10 {
		t.Fatalf("found %d examples", len(files))
	}
	shfl := false
	for _, f := range files {
		var out, errb bytes.Buffer
		env := &frontend.Env{Stdout: &out, Stderr: &errb, Stdin: bytes.NewReader(nil)}
		rc := frontend.ForExt(".weft").Check(env, []string{f})
		if strings.HasSuffix(f, "shfl_xor.weft") {
			shfl = true
			if rc != 0 || !strings.Contains(errb.String(), "no hazard") {
				t.Fatalf("shfl_xor: rc %d\n%s", rc, errb.String())
			}
		}
		if !amir.GridPendingIntact() {
			t.Fatalf("after %s: the shared pending grid plan was written", f)
		}
	}
	if !shfl {
		t.Fatal("shfl_xor.weft not among the examples")
	}
	for _, c := range mbarChunks(t) {
		c.checkJSON()
		if !amir.GridPendingIntact() {
			t.Fatalf("after %s chunk %d: the shared pending grid plan was written", c.src, c.i)
		}
	}
}
