package pyscan

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"weft.dev/weft/diag"
)

func kinds(src string) (string, []string) {
	var errs []string
	s := New(diag.NewFile("t", []byte(src)), func(p diag.Pos, code, msg string) {
		errs = append(errs, p.String()+" "+code)
	})
	var out []string
	for _, t := range s.All() {
		switch t.Kind {
		case NAME, INT, FLOAT, OP:
			out = append(out, t.Text)
		case STRING:
			out = append(out, "S("+t.Text+")")
		default:
			out = append(out, strings.ToUpper(t.Kind.String()[:3]))
		}
	}
	return strings.Join(out, " "), errs
}

func TestScan(t *testing.T) {
	cases := []struct{ src, want string }{
		{"def f(x: f32[8] @ CudaRmem):\n    x[0] = 1.5\n", "def f ( x : f32 [ 8 ] @ CudaRmem ) : NEW IND x [ 0 ] = 1.5 NEW DED END"},
		{"a\n  b\n    c\nd", "a NEW IND b NEW IND c NEW DED DED d NEW END"},
		{"f(a,\n      b)\n", "f ( a , b ) NEW END"},
		{"# c\n\n  \nx = 1 # t\n", "x = 1 NEW END"},
		{"Arrive(t, 1) >> bar[i]\n", "Arrive ( t , 1 ) >> bar [ i ] NEW END"},
		{"x = 'a\\'b' + \"c\"\n", "x = + NEW END"[:0] + "x = S(a'b) + S(c) NEW END"},
		{"a = 1e-3 + 0x1F + .5\n", "a = 1e-3 + 0x1F + .5 NEW END"},
		{"if x:\n\ty\nz\n", "if x : NEW IND y NEW DED z NEW END"},
		{"a \\\n  + b\n", "a + b NEW END"},
		{"s = '' + \"a b\" + 'c\\td'\n", "s = S() + S(a b) + S(c\td) NEW END"},
	}
	for _, c := range cases {
		got, errs := kinds(c.src)
		if got != c.want || len(errs) != 0 {
			t.Errorf("%q:\n got %s %v\nwant %s", c.src, got, errs, c.want)
		}
	}
}

func TestScanErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"a\n    b\n  c\n", "t:3:3 S0003"},
		{"x = 'abc\n", "t:1:5 S0002"},
		{"x = $\n", "t:1:5 S0001"},
		{"f(a]\n", "t:1:4 S0005"},
		{"x = 12ab\n", "t:1:5 S0004"},
	}
	for _, c := range cases {
		_, errs := kinds(c.src)
		if len(errs) == 0 || errs[0] != c.want {
			t.Errorf("%q: errors %v, want first %s", c.src, errs, c.want)
		}
	}
}

func TestComments(t *testing.T) {
	s := New(diag.NewFile("t", []byte("# own\nx = 1  # trailing\n")), nil)
	s.All()
	if len(s.Comments) != 2 || !s.Comments[0].Own || s.Comments[1].Own || s.Comments[1].Text != "# trailing" {
		t.Errorf("comments = %+v", s.Comments)
	}
}

func FuzzScan(f *testing.F) {
	for _, s := range []string{"def f():\n  x = 1\n", "a[\n b]\n", "'x", "\t\t y\n z", "\\\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		s := New(diag.NewFile("f", []byte(src)), nil)
		n := 0
		for s.Next().Kind != EOF {
			n++
			if n > 10*len(src)+10 {
				t.Fatalf("scanner does not terminate on %q", src)
			}
		}
	})
}

// TestToksLong checks the compact tokens against All (full tokens) where
// the compact form keeps the rest aside: strings, a name longer than a
// Tok's length field, a file whose tokens outgrow Toks' first estimate
// (dense operators after a long comment-free stretch), and many strings.
func TestToksLong(t *testing.T) {
	long := strings.Repeat("n", 70000)
	srcs := []string{
		"x = 'a\\'b' + \"c\"\n" + long + " = 1\n",
		"# " + strings.Repeat("c", 3000) + "\n" + strings.Repeat("a=(b+c)*d[e,f]\n", 400),
		strings.Repeat("a\n", 2000) + strings.Repeat("(((())))\n", 500),
		strings.Repeat("s('x', \"y\")\n", 3000),
	}
	for i, src := range srcs {
		f := diag.NewFile("t", []byte(src))
		full := next(f)
		s := New(f, nil)
		toks := s.Toks()
		if len(toks) != len(full) {
			t.Fatalf("src %d: %d compact tokens, %d full", i, len(toks), len(full))
		}
		for j, tk := range toks {
			if got := s.Token(tk); got != full[j] {
				t.Fatalf("src %d token %d: %+v, want %+v", i, j, got, full[j])
			}
			if s.Off(tk) != full[j].Pos.Offset || s.End(tk) != full[j].End.Offset {
				t.Fatalf("src %d token %d: offsets %d..%d, want %d..%d", i, j, s.Off(tk), s.End(tk), full[j].Pos.Offset, full[j].End.Offset)
			}
		}
	}
}

// next scans f token by token (Next: scan alone, not Toks' loop).
func next(f *diag.File) []Token {
	s := New(f, nil)
	var out []Token
	for {
		t := s.Next()
		out = append(out, t)
		if t.Kind == EOF {
			return out
		}
	}
}

// TestToksNext checks Toks (its own loop for the commonest tokens)
// against Next (scan alone) on every Weft and Prism file of the
// repository and on inputs with errors: the same tokens, comments and
// errors.
func TestToksNext(t *testing.T) {
	files, _ := filepath.Glob("../examples/*/*/*.weft")
	for _, pat := range []string{"../examples/*/*.prism", "../examples/*/*/*.prism", "../lang/weft/*/testdata/*.weft", "../lang/prism/*/testdata/*.prism", "../bench/syncref/weft/*.weft"} {
		more, _ := filepath.Glob(pat)
		files = append(files, more...)
	}
	var srcs []string
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(b))
	}
	if len(srcs) < 50 {
		t.Fatalf("only %d files", len(srcs))
	}
	srcs = append(srcs, "f(a]\n", "x = (a, b))\n", "g(x[1)\n", "a\tb ,\f c\n", "  f(a,\n b)\n", "x = \\\n  y\n", "a b", "(", ")", "",
		"x = 12 + 0x1F - 1_0 * 3. / .5 ** 2 // 7e3 % 12ab\n", "a := b == c -> d ... e.f += 1 -= 2 *= 3\n", "1\n2\r\n3\r4", "x = (1,\n2)\n  y\n",
		"x"+strings.Repeat("9", 70000)+" = "+strings.Repeat("9", 70000)+"\n")
	for _, src := range srcs {
		want, e1, s1 := scanByNext(src)
		got, e2, s2 := scanByToks(src)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(e1, e2) || !reflect.DeepEqual(s1.Comments, s2.Comments) {
			t.Errorf("%.60q: Toks and Next differ:\n%v %v\n%v %v", src, got, e2, want, e1)
		}
	}
}

// scanByNext scans src token by token (Next), up to and including EOF;
// scanByToks scans it in one call (Toks, the parser's path). Each returns
// the tokens, the diagnostics as position, code and message, and the
// scanner (for its Comments): the two paths must agree on all three.
func scanByNext(src string) ([]Token, []string, *Scanner) {
	var errs []string
	s := New(diag.NewFile("t", []byte(src)), func(p diag.Pos, code, msg string) { errs = append(errs, p.String()+code+msg) })
	var toks []Token
	for {
		tk := s.Next()
		toks = append(toks, tk)
		if tk.Kind == EOF {
			return toks, errs, s
		}
	}
}

func scanByToks(src string) ([]Token, []string, *Scanner) {
	var errs []string
	s := New(diag.NewFile("t", []byte(src)), func(p diag.Pos, code, msg string) { errs = append(errs, p.String()+code+msg) })
	var toks []Token
	for _, tk := range s.Toks() {
		toks = append(toks, s.Token(tk))
	}
	return toks, errs, s
}
