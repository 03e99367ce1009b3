package initfile_test

import (
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/audala/initfile"
)

// TestInstanceLimit: a header claiming 10^9 instances in a 90-byte file is
// error A0305 at the count, before anything is allocated (issue 14: it
// used to allocate gigabytes); ParseLimit takes the limit of
// --max-instances, and the limit itself is accepted.
func TestInstanceLimit(t *testing.T) {
	prog := load(t)
	for _, c := range []struct {
		src, msg, pos string
		limit         int
	}{
		{"ADL structures 2\nEdge Node Node\nNode Bool Nat Int\nEdge instances 0 1000000000\nNode instances 0 0\n",
			"1000000000 Edge instances: more than the limit of 16777216 (--max-instances N raises it)", "h.init:4:18", initfile.DefaultMaxInstances},
		{"ADL structures 2\nEdge Node Node\nNode Bool Nat Int\nEdge instances 0 0\nNode instances 1 11\n1 2 3\n",
			"11 Node instances: more than the limit of 10 (--max-instances N raises it)", "h.init:5:18", 10},
	} {
		var diags diag.List
		d := initfile.ParseLimit(diag.NewFile("h.init", []byte(c.src)), prog, &diags, c.limit)
		if d != nil || diags.Len() != 1 {
			t.Fatalf("%q: got %v, %v", c.src, d, diags.Err())
		}
		dg := diags.Diags[0]
		if dg.Code != "A0305" || dg.Pos.String() != c.pos || dg.Message != c.msg {
			t.Errorf("got %s at %v: %s", dg.Code, dg.Pos, dg.Message)
		}
	}
	var diags diag.List
	src := "ADL structures 2\nEdge Node Node\nNode Bool Nat Int\nEdge instances 0 0\nNode instances 1 10\n1 2 3\n"
	if d := initfile.ParseLimit(diag.NewFile("ok.init", []byte(src)), prog, &diags, 10); d == nil || d.Counts[0] != 10 {
		t.Errorf("at the limit: %v %v", d, diags.Err())
	}
}
