package lib

import (
	"bytes"
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the generated part of docs/weft-reference.md")

const (
	refDoc   = "../../../docs/weft-reference.md"
	refBegin = "<!-- BEGIN GENERATED: go test ./lang/weft/lib -update -->\n"
	refEnd   = "<!-- END GENERATED -->\n"
)

// TestReferenceDocIsCurrent keeps the library tables of the language
// reference equal to the library (run with -update after changing a
// .weft file of this package).
func TestReferenceDocIsCurrent(t *testing.T) {
	doc, err := os.ReadFile(refDoc)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.Index(doc, []byte(refBegin))
	j := bytes.Index(doc, []byte(refEnd))
	if i < 0 || j < i {
		t.Fatalf("%s lacks the generated-section markers", refDoc)
	}
	var b bytes.Buffer
	MustStd().WriteTables(&b)
	want := b.String()
	got := string(doc[i+len(refBegin) : j])
	if got == want {
		return
	}
	if *update {
		out := string(doc[:i+len(refBegin)]) + want + string(doc[j:])
		if err := os.WriteFile(refDoc, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for k := 0; k < len(gl) && k < len(wl); k++ {
		if gl[k] != wl[k] {
			t.Fatalf("%s is stale (run go test ./lang/weft/lib -update); first difference:\n got: %s\nwant: %s", refDoc, gl[k], wl[k])
		}
	}
	t.Fatalf("%s is stale (run go test ./lang/weft/lib -update): %d lines, want %d", refDoc, len(gl), len(wl))
}
