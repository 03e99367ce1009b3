package syntax

import (
	"reflect"
	"strings"
	"testing"

	"weft.dev/weft/diag"
)

// TestParseRange (issue 13, stop 44): each declaration parsed from its
// lines alone (ParseRange, as package lib parses the standard library's
// procs at first use) is the whole file's parse of it, positions and
// Leading comments included, and a syntax error inside one reads the
// same file, line and column.
func TestParseRange(t *testing.T) {
	decls := []string{
		"# the file's opening\nN = 3\n",
		"\n# before f\n@proc\ndef f(x: f32[N] @ DRAM):  # f's line\n    # in f\n    x[0] = 1.0\n    for i in seq(0, N):\n        x[i] = 2.0\n",
		"    # after f's body\n\ndef g(y: f32):\n    y = y + * 2.0\n    y = 1.0\n",
		"def h():\n    pass\n",
	}
	src := strings.Join(decls, "")
	f := diag.NewFile("r.weft", []byte(src))
	var whole diag.List
	wf := Parse(f, &whole)
	if len(wf.Decls) != len(decls) {
		t.Fatalf("%d decls", len(wf.Decls))
	}
	start := 0
	for i, d := range decls {
		var errs diag.List
		rf := ParseRange(f, start, start+len(d), &errs)
		if len(rf.Decls) != 1 || !reflect.DeepEqual(rf.Decls[0], wf.Decls[i]) {
			t.Errorf("decl %d: %#v, whole file's %#v", i, rf.Decls, wf.Decls[i])
		}
		var want []string
		for _, e := range whole.Diags {
			if e.Pos.Offset >= start && e.Pos.Offset < start+len(d) {
				want = append(want, e.Error())
			}
		}
		var got []string
		for _, e := range errs.Diags {
			got = append(got, e.Error())
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("decl %d: errors %q, whole file's %q", i, got, want)
		}
		start += len(d)
	}
	if whole.Len() == 0 {
		t.Fatal("no syntax error to compare")
	}
}
