package validate_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/frontend"
	"weft.dev/weft/validate"
)

// TestAudalaCreatedRenaming: reachability.adl with two Node instances in
// its .init makes three instances run the init step, each creating four
// Nodes and four Edges. The generated program's atomic counter interleaves
// the three creators' labels where weft run numbers them creator by
// creator; the Command Constructor rule (seed 003 §4) allows either, so
// validate matches the dumps up to a renaming of the created instances
// (before, a mismatch at line 4). A wrong value still mismatches.
func TestAudalaCreatedRenaming(t *testing.T) {
	dir := t.TempDir()
	adl, init := ex+"audala/reachability.adl", "../lang/audala/testdata/reach2.init"
	var out, errb bytes.Buffer
	env := &frontend.Env{Stdout: &out, Stderr: &errb}
	if rc := validate.Main(env, []string{adl, init, "--keep", dir, "--sms", "2"}); rc != 0 {
		t.Fatalf("status %d\n%s%s", rc, out.String(), errb.String())
	}
	const want = "reachability: match (52 lines of the --dump output up to a renaming of the created instances; no race or deadlock)\n"
	if out.String() != want {
		t.Fatalf("got %q, want %q", out.String(), want)
	}
	// The two outputs themselves: the generated program in the semantics
	// and weft run.
	out.Reset()
	if rc := frontend.ForExt(".cu").Verb("check")(env, []string{filepath.Join(dir, "build", "reachability.cu"), "--sms", "2", "--", init, "--dump"}); rc != 0 {
		t.Fatalf("check: status %d\n%s", rc, errb.String())
	}
	got := out.String()
	out.Reset()
	if rc := frontend.ForExt(".adl").Verb("run")(env, []string{adl, init, "--dump", "--workers=1"}); rc != 0 {
		t.Fatalf("run: status %d\n%s", rc, errb.String())
	}
	ref := out.String()
	if got == ref {
		t.Fatal("the generated program numbers the created instances as weft run does; this test needs another numbering")
	}
	cmp := validate.AudalaCompare(adl, []string{init})
	if ok, msg := cmp(ref, got, "generated program", "weft run"); !ok {
		t.Fatalf("renamed dump: %s", msg)
	}
	// Mutants of the final dump (its last lines): a created Node's value
	// flipped; an Edge's source moved to another created Node with the
	// same value (only the graph's shape is wrong).
	for _, m := range []struct{ from, to, want string }{
		{"Node(12): reachable=1\n", "Node(12): reachable=0\n",
			"mismatch at line 38 of the --dump output under every renaming of the created instances:\n    generated program: Node(12): reachable=0 (4 such lines in this print, weft run: 3)"},
		{"Edge(1): source=3,", "Edge(1): source=4,",
			"mismatch of the --dump output: each print's values agree up to a renaming of the created instances, but no renaming makes the references agree; first textual difference at line 4 of the --dump output:\n    generated program: Node(4): reachable=1\n    weft run:          Node(4): reachable=0"},
	} {
		i := strings.LastIndex(got, m.from)
		if i < 0 {
			t.Fatalf("no %q in\n%s", m.from, got)
		}
		mut := got[:i] + m.to + got[i+len(m.from):]
		ok, msg := cmp(ref, mut, "generated program", "weft run")
		if ok || msg != m.want {
			t.Errorf("mutant %q -> %q: got %v %q, want mismatch %q", m.from, m.to, ok, msg, m.want)
		}
	}
}
