package initfile_test

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/audala/check"
	"weft.dev/weft/lang/audala/initfile"
	"weft.dev/weft/lang/audala/syntax"
)

const program = `struct Node(reachable: Bool, n: Nat, i: Int) { s { } }
struct Edge(source: Node, target: Node) { }
s
`

func load(t *testing.T) *check.Program {
	var diags diag.List
	f := diag.NewFile("p.adl", []byte(program))
	prog := check.Check(f, syntax.Parse(f, &diags), &diags)
	if prog == nil || diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	return prog
}

var want = regexp.MustCompile(`^want (?:ok|(\w+) (\d+):(\d+) "((?:[^"\\]|\\.)*)")$`)

// TestCases runs testdata/cases.txt: chunks separated by --- lines, each a
// "want" line (ok, or CODE LINE:COL "regexp" of the one diagnostic) followed
// by the .init file (spec §5.11).
func TestCases(t *testing.T) {
	prog := load(t)
	src, err := os.ReadFile("testdata/cases.txt")
	if err != nil {
		t.Fatal(err)
	}
	for i, chunk := range strings.Split(string(src), "\n---\n") {
		head, body, _ := strings.Cut(chunk, "\n")
		m := want.FindStringSubmatch(head)
		if m == nil {
			t.Fatalf("case %d: bad want line %q", i, head)
		}
		var diags diag.List
		d := initfile.Parse(diag.NewFile("in.init", []byte(body+"\n")), prog, &diags)
		if m[1] == "" {
			if d == nil || len(diags.Diags) != 0 {
				t.Errorf("case %d: want ok, got %v", i, diags.Err())
			}
			continue
		}
		if d != nil || len(diags.Diags) != 1 {
			t.Errorf("case %d: want one %s, got %d diagnostics: %v", i, m[1], len(diags.Diags), diags.Err())
			continue
		}
		dg := diags.Diags[0]
		pos := fmt.Sprintf("%d:%d", dg.Pos.Line(), dg.Pos.Col())
		if dg.Code != m[1] || pos != m[2]+":"+m[3] || !regexp.MustCompile(m[4]).MatchString(dg.Message) {
			t.Errorf("case %d: got %s %s %q, want %s %s:%s %q", i, dg.Code, pos, dg.Message, m[1], m[2], m[3], m[4])
		}
	}
}

// TestValues: values land in Cols[param][label-1] as 32-bit cells, short
// lines and the instances beyond D are default, and Write reproduces a file
// that parses to the same data.
func TestValues(t *testing.T) {
	prog := load(t)
	src := "ADL structures 2\nEdge Node Node\nNode Bool Nat Int\nEdge instances 2 3\n1 2\n2\nNode instances 2 2\n1 4294967295 -5\n0 7 9\n"
	var diags diag.List
	d := initfile.Parse(diag.NewFile("in.init", []byte(src)), prog, &diags)
	if d == nil {
		t.Fatal(diags.Err())
	}
	node, edge := prog.StructByName("Node"), prog.StructByName("Edge")
	if got := fmt.Sprint(d.Counts[node.Index], d.Counts[edge.Index], d.Cols[edge.Index], d.Cols[node.Index]); got != "2 3 [[1 2 0] [2 0 0]] [[1 0] [-1 7] [-5 9]]" {
		t.Errorf("got %s", got)
	}
	var buf bytes.Buffer
	if err := initfile.Write(&buf, prog, d); err != nil {
		t.Fatal(err)
	}
	d2 := initfile.Parse(diag.NewFile("w.init", buf.Bytes()), prog, &diags)
	if d2 == nil || fmt.Sprint(d2) != fmt.Sprint(d) {
		t.Errorf("Write does not round-trip:\n%s", buf.String())
	}
}

// FuzzParse: the reader never panics and accepts what Write prints.
func FuzzParse(f *testing.F) {
	src, _ := os.ReadFile("testdata/cases.txt")
	for _, chunk := range strings.Split(string(src), "\n---\n") {
		_, body, _ := strings.Cut(chunk, "\n")
		f.Add([]byte(body))
	}
	var diags diag.List
	fl := diag.NewFile("p.adl", []byte(program))
	prog := check.Check(fl, syntax.Parse(fl, &diags), &diags)
	f.Fuzz(func(t *testing.T, b []byte) {
		var diags diag.List
		d := initfile.Parse(diag.NewFile("f.init", b), prog, &diags)
		if d == nil {
			return
		}
		var buf bytes.Buffer
		if err := initfile.Write(&buf, prog, d); err != nil {
			t.Fatal(err)
		}
		if d2 := initfile.Parse(diag.NewFile("w.init", buf.Bytes()), prog, &diags); d2 == nil || fmt.Sprint(d2) != fmt.Sprint(d) {
			t.Fatalf("round trip failed:\n%s", buf.String())
		}
	})
}
