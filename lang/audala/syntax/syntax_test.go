package syntax_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/audala/check"
	"weft.dev/weft/lang/audala/syntax"
)

func thesisPrograms(t testing.TB) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob("../testdata/*.adl")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no thesis programs: %v", err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[p] = src
	}
	return out
}

func parse(name string, src []byte) (*syntax.Program, *diag.List) {
	var diags diag.List
	return syntax.Parse(diag.NewFile(name, src), &diags), &diags
}

// TestRoundTrip: the canonical form of every thesis program parses again,
// and printing it again gives the same bytes (fmt is idempotent).
func TestRoundTrip(t *testing.T) {
	for name, src := range thesisPrograms(t) {
		prog, diags := parse(name, src)
		if prog == nil || diags.HasErrors() {
			t.Fatalf("%s: %v", name, diags.Err())
		}
		once := syntax.Print(prog)
		prog2, diags := parse(name+".fmt", []byte(once))
		if prog2 == nil || diags.HasErrors() {
			t.Fatalf("%s: canonical form does not parse: %v\n%s", name, diags.Err(), once)
		}
		if twice := syntax.Print(prog2); twice != once {
			t.Errorf("%s: fmt is not idempotent:\n%s\n---\n%s", name, once, twice)
		}
		// No comment is lost.
		if len(prog2.Comments) != len(prog.Comments) {
			t.Errorf("%s: %d comments before fmt, %d after", name, len(prog.Comments), len(prog2.Comments))
		}
		for _, c := range prog.Comments {
			if !strings.Contains(once, c.Text) {
				t.Errorf("%s: comment %q lost", name, c.Text)
			}
		}
	}
}

// TestComments: own-line comments stay before what follows them, at its
// indentation; trailing comments stay at the end of their line.
func TestComments(t *testing.T) {
	src := `// header
struct A(x: Nat) { // A's parameters
  /* the step */ s {
    x := x + /* inline */ 1;
    // before if
    if x > 2 then { x := 0; } // after if
    // last in s
  }
  // last in A
}
// schedule
s // end
// eof
`
	want := `// header
struct A(x: Nat) { // A's parameters
  /* the step */
  s {
    x := x + 1; /* inline */
    // before if
    if x > 2 then {
      x := 0;
    } // after if
    // last in s
  }
  // last in A
}

// schedule
s // end
// eof
`
	prog, diags := parse("c.adl", []byte(src))
	if prog == nil {
		t.Fatal(diags.Err())
	}
	if got := syntax.Print(prog); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestPrecedence: operators bind as in C (spec §2.3), shown by the fully
// parenthesised form ExprString prints.
func TestPrecedence(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a || b && c", "(a || (b && c))"},
		{"a == b < c", "(a == (b < c))"},
		{"a + b * c - d", "((a + (b * c)) - d)"},
		{"!a && b", "(!a && b)"},
		{"a - -1", "(a - -1)"},
		{"a-1", "(a - 1)"},
		{"x.y.z % 2 != 0", "((x.y.z % 2) != 0)"},
		{"N(1, null) == this", "(N(1, null) == this)"},
		{"(a || b) && c", "((a || b) && c)"},
	} {
		src := "struct N(a: Bool) { s { Bool r := " + c.in + "; } }\ns\n"
		prog, diags := parse("p.adl", []byte(src))
		if prog == nil || diags.HasErrors() {
			t.Fatalf("%s: %v", c.in, diags.Err())
		}
		d := prog.Structs[0].Steps[0].Body[0].(*syntax.Decl)
		if got := paren(d.Value); got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
}

// paren prints e with every binary operation parenthesised and source
// parentheses dropped, so the tree shape is visible.
func paren(e syntax.Expr) string {
	switch e := e.(type) {
	case *syntax.Binary:
		return "(" + paren(e.X) + " " + e.Op + " " + paren(e.Y) + ")"
	case *syntax.Paren:
		return paren(e.X)
	case *syntax.Not:
		return "!" + paren(e.X)
	case *syntax.Cons:
		var args []string
		for _, a := range e.Args {
			args = append(args, paren(a))
		}
		return e.Struct + "(" + strings.Join(args, ", ") + ")"
	}
	return syntax.ExprString(e)
}

// FuzzParse: the parser and the checker never panic, and whatever it accepts prints to a
// form it accepts again with the same printed result.
func FuzzParse(f *testing.F) {
	for _, src := range thesisPrograms(f) {
		f.Add(src)
	}
	if src, err := os.ReadFile("../check/testdata/errors.adl"); err == nil {
		for _, chunk := range strings.Split(string(src), "\n---\n") {
			f.Add([]byte(chunk))
		}
	}
	// $$ lines: global, as statements, misplaced, at the end of input.
	f.Add([]byte("$$#include <x>\n$$int y;\nstruct A(x: Nat) { s { $$ y++;\n if x == 1 then { $$z\n x := 2; } } }\nA.s"))
	f.Add([]byte("struct A(x: Nat) { s { x := $$ 1;\n } }\nA.s\n$$"))
	f.Fuzz(func(t *testing.T, src []byte) {
		prog, diags := parse("fuzz.adl", src)
		if prog == nil || diags.HasErrors() {
			return
		}
		// The checker must not panic on anything the parser accepts.
		check.Check(diag.NewFile("fuzz.adl", src), prog, new(diag.List))
		once := syntax.Print(prog)
		prog2, diags2 := parse("fuzz2.adl", []byte(once))
		if prog2 == nil || diags2.HasErrors() {
			t.Fatalf("canonical form does not parse: %v\n%s", diags2.Err(), once)
		}
		if twice := syntax.Print(prog2); twice != once {
			t.Fatalf("not idempotent:\n%s\n---\n%s", once, twice)
		}
	})
}

// TestInlineCppSyntax: `$$` lines parse before the first struct and as
// statements (AuDaLaC's GlobalCpp and Stat::InlineCpp), keep their text
// after `$$` to the end of the line, and anywhere else are A0106 at the `$$`.
func TestInlineCppSyntax(t *testing.T) {
	src := "$$#include <cstdio>\r\n$$ int n; // kept\nstruct A(x: Nat) {\n  s {\n    $$ n++; /* not a comment */\n    if x == 1 then {\n      $$n--;\n      x := 2;\n    }\n  }\n}\nA.s\n"
	prog, diags := parse("cpp.adl", []byte(src))
	if prog == nil || diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	if len(prog.Cpp) != 2 || prog.Cpp[0].Text != "#include <cstdio>" || prog.Cpp[1].Text != " int n; // kept" {
		t.Errorf("global lines: %+v %+v", prog.Cpp[0], prog.Cpp[1])
	}
	body := prog.Structs[0].Steps[0].Body
	if c, ok := body[0].(*syntax.InlineCpp); !ok || c.Text != " n++; /* not a comment */" {
		t.Errorf("first statement: %#v", body[0])
	}
	if c, ok := body[1].(*syntax.If).Body[0].(*syntax.InlineCpp); !ok || c.Text != "n--;" {
		t.Errorf("statement in if: %#v", body[1].(*syntax.If).Body[0])
	}
	want := "$$#include <cstdio>\n$$ int n; // kept\n\nstruct A(x: Nat) {\n  s {\n    $$ n++; /* not a comment */\n    if x == 1 then {\n      $$n--;\n      x := 2;\n    }\n  }\n}\n\nA.s\n"
	if got := syntax.Print(prog); got != want {
		t.Errorf("printed:\n%s\nwant:\n%s", got, want)
	}
	for _, c := range []struct{ src, pos string }{
		{"struct A(x: Nat) { s { x := 1; } }\n$$int y;\nstruct B(y: Nat) { t { y := 2; } }\nA.s", "2:1"},
		{"struct A(x: Nat) { s { x := $$ 1;\n } }\nA.s", "1:29"},
		{"struct A(x: Nat) { s { x := 1; } }\nA.s <\n$$ after", "3:1"},
	} {
		_, diags := parse("bad.adl", []byte(c.src))
		if len(diags.Diags) == 0 || diags.Diags[0].Code != "A0106" || !strings.HasSuffix(diags.Diags[0].Pos.String(), ":"+c.pos) {
			t.Errorf("%q: got %v, want A0106 at %s", c.src, diags.Err(), c.pos)
		}
	}
}
