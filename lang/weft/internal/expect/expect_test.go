package expect

import (
	"strings"
	"testing"

	"weft.dev/weft/diag"
)

func TestChunksKeepPositions(t *testing.T) {
	cs := Chunks("a\n---\nb\nc\n---\nd")
	if len(cs) != 3 || strings.Count(cs[1], "\n") != 4 || !strings.HasSuffix(cs[2], "\nd") || strings.Count(cs[2], "\n") != 5 {
		t.Fatalf("chunks = %q", cs)
	}
}

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Errorf(f string, a ...any) { r.errs = append(r.errs, f) }

func TestMatch(t *testing.T) {
	src := "x = 1\ny = 2 # ERROR W0601@5 \"race\" NOTE@1:1\n"
	f := diag.NewFile("t.weft", []byte(src))
	at := func(off int) diag.Pos { return diag.Pos{File: f, Offset: off} }
	good := &diag.List{}
	good.Errorf(at(10), "W0601", "a race here").Note(at(0), "the other access")
	r := &recorder{TB: t}
	Match(r, "t", src, good)
	if len(r.errs) != 0 {
		t.Fatalf("expected match, got %v", r.errs)
	}
	for name, l := range map[string]*diag.List{
		"wrong column": func() *diag.List { l := &diag.List{}; l.Errorf(at(9), "W0601", "a race"); return l }(),
		"wrong code":   func() *diag.List { l := &diag.List{}; l.Errorf(at(10), "W0602", "a race"); return l }(),
		"no note":      func() *diag.List { l := &diag.List{}; l.Errorf(at(10), "W0601", "a race"); return l }(),
		"none":         {},
	} {
		r := &recorder{TB: t}
		Match(r, "t", src, l)
		if len(r.errs) == 0 {
			t.Errorf("%s: mismatch not reported", name)
		}
	}
}
