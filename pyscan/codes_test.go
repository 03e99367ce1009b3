package pyscan

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"weft.dev/weft/diag"
)

// testWords is a keyword set like a parser's, with words of one to
// thirteen bytes and several sharing a length, a first or a last byte.
var testWords = []string{"and", "or", "not", "if", "else", "elif", "for", "in", "def", "class", "with",
	"assert", "pass", "True", "False", "free", "Fence", "Arrive", "Await", "ReverseArrive", "ReverseAwait"}

// checkCodes checks every token's code against its text (the plain
// answer the codes replace: a string compare per operator and keyword),
// after Toks (scanAll's loop and scan) and after Next (scan alone), with
// and without a keyword set.
func checkCodes(t *testing.T, src string) {
	kw := NewKeywords(testWords...)
	want := map[string]Code{}
	for i, w := range testWords {
		want[w] = FirstKeyword + Code(i)
	}
	ops := map[string]Code{}
	for c := OpNone + 1; c < numOps; c++ {
		ops[OpText(c)] = c
	}
	f := diag.NewFile("t", []byte(src))
	for _, set := range []*Keywords{nil, kw} {
		s := New(f, nil)
		s.SetKeywords(set)
		toks := s.Toks()
		s2 := New(f, nil)
		s2.SetKeywords(set)
		for i, tk := range toks {
			text := s.Text(tk)
			var c Code
			switch {
			case tk.Kind == STRING || (tk.Kind != OP && len(text) > 65535):
				c = Long
			case tk.Kind == OP:
				c = ops[text]
			case tk.Kind == NAME && set != nil:
				c = want[text]
			}
			if tk.Code() != c {
				t.Fatalf("%.60q (keywords %v): token %d %s %q: code %d, want %d", src, set != nil, i, tk.Kind, text, tk.Code(), c)
			}
			// scan alone (Next's path): the same codes.
			if got := nextTok(s2).Code(); got != c {
				t.Fatalf("%.60q (keywords %v): Next: token %d %q: code %d, want %d", src, set != nil, i, text, got, c)
			}
		}
	}
}

// TestCodes checks the token codes on every Weft and Prism file of the
// repository and on inputs with every operator, keywords, near-keywords
// and errors.
func TestCodes(t *testing.T) {
	var files []string
	for _, pat := range []string{"../examples/*/*/*.weft", "../examples/*/*.prism", "../examples/*/*/*.prism", "../lang/weft/*/testdata/*.weft", "../lang/prism/*/testdata/*.prism", "../bench/syncref/weft/*.weft"} {
		more, _ := filepath.Glob(pat)
		files = append(files, more...)
	}
	if len(files) < 50 {
		t.Fatalf("only %d files", len(files))
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		checkCodes(t, string(b))
	}
	var all []string
	for c := OpNone + 1; c < numOps; c++ {
		all = append(all, OpText(c))
	}
	for _, src := range []string{"", strings.Join(all, " ") + "\n", strings.Join(all, "") + "\n", strings.Join(testWords, " ") + "\n",
		"an ands fo fors Tru true ReverseArriv ReverseAwaits i in_ _in Fence1 elifx\n", "a=(b)[c]:d+e-f*g.h,i\n",
		"x" + strings.Repeat("9", 70000) + " = 'if' + \"for\"\n", "a ** b -> c := d ... .5 a.b\n"} {
		checkCodes(t, src)
	}
}

// TestKeywordsLookup checks Lookup against the words' list, and that
// NewKeywords refuses repeated and empty words.
func TestKeywordsLookup(t *testing.T) {
	kw := NewKeywords(testWords...)
	for i, w := range testWords {
		if c := kw.Lookup(w); c != FirstKeyword+Code(i) {
			t.Errorf("Lookup(%q) = %d, want %d", w, c, FirstKeyword+Code(i))
		}
		for _, near := range []string{w[1:], w + "x", strings.ToUpper(w), w[:len(w)-1] + "_"} {
			if c := kw.Lookup(near); c != 0 && !slices.Contains(testWords, near) {
				t.Errorf("Lookup(%q) = %d, want 0", near, c)
			}
		}
	}
	for _, bad := range [][]string{{"a", "a"}, {""}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("NewKeywords(%q) did not panic", bad)
				}
			}()
			NewKeywords(bad...)
		}()
	}
}

func FuzzCodes(f *testing.F) {
	for _, s := range []string{"def f():\n  x = 1\n", "a[\n b]\n", "'x", "if a and not b: pass\n", "**= //= >>= <<= ... -> :="} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) { checkCodes(t, src) })
}

// nextTok is Next's loop, returning the compact token (its code).
func nextTok(s *Scanner) Tok {
	for len(s.pending) == 0 {
		s.scan()
	}
	t := s.pending[0]
	s.pending = s.pending[1:]
	return t
}
