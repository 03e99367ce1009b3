package pyscan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/diag"
)

// countKeywords is the keyword set checkCounts scans with: names that
// are keywords are not counted.
var countKeywords = NewKeywords("for", "in", "def", "x", "if", "a")

// checkCounts compares Counts with the NAME tokens that are no keyword
// and the INT tokens of src, and Strings with its STRING tokens (stop
// 44), after Toks (scanAll's own loop and scan)
// and after Next (scan alone), without keywords and with countKeywords.
func checkCounts(t *testing.T, src string) {
	checkCountsKw(t, src, nil)
	checkCountsKw(t, src, countKeywords)
}

func checkCountsKw(t *testing.T, src string, kw *Keywords) {
	f := diag.NewFile("t", []byte(src))
	s := New(f, nil)
	s.SetKeywords(kw)
	var names, ints, strs int
	for _, tk := range s.Toks() {
		switch tk.Kind {
		case NAME:
			if c := tk.Code(); c == 0 || c == Long { // no keyword
				names++
			}
		case INT:
			ints++
		case STRING:
			strs++
		}
	}
	if n, i := s.Counts(); n != names || i != ints {
		t.Errorf("%.60q: Toks: Counts() = %d, %d; the tokens have %d names, %d integers", src, n, i, names, ints)
	}
	if n := s.Strings(); n != strs {
		t.Errorf("%.60q: Toks: Strings() = %d; the tokens have %d strings", src, n, strs)
	}
	s = New(f, nil)
	s.SetKeywords(kw)
	for s.Next().Kind != EOF {
	}
	if n, i := s.Counts(); n != names || i != ints {
		t.Errorf("%.60q: Next: Counts() = %d, %d; the tokens have %d names, %d integers", src, n, i, names, ints)
	}
	if n := s.Strings(); n != strs {
		t.Errorf("%.60q: Next: Strings() = %d; the tokens have %d strings", src, n, strs)
	}
}

// TestCounts checks the scanner's token counts (which size the Weft
// parser's name and integer slabs, stop 32) on every Weft and Prism file
// of the repository and on inputs with errors and odd numbers.
func TestCounts(t *testing.T) {
	var files []string
	for _, pat := range []string{"../examples/*/*/*.weft", "../examples/*/*.prism", "../examples/*/*/*.prism", "../lang/weft/*/testdata/*.weft", "../lang/prism/*/testdata/*.prism", "../bench/syncref/weft/*.weft", "../lang/weft/lib/*.weft"} {
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
		checkCounts(t, string(b))
	}
	for _, src := range []string{"", "a", "1", "x = 12 + 0x1F - 1_0 * 3. / .5 ** 2 // 7e3 % 12ab\n", "f(a]\n", "a[1:2, 3] = b(4, c=5)\n  d\n",
		"x" + strings.Repeat("9", 70000) + " = " + strings.Repeat("9", 70000) + "\n", "'s' 1 \"t\" u\n", "'''a\n''' \"\"\"b\"\"\" 'c\\'d' 'e\n"} {
		checkCounts(t, src)
	}
}

func FuzzCounts(f *testing.F) {
	for _, s := range []string{"def f():\n  x = 1\n", "a[\n b]\n", "'x", "12ab 0x1 1.5 a_1", "\\\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) { checkCounts(t, src) })
}

// TestCommentSpan compares commentSpan with a count of each '#' and the
// bytes from it to its line's end, where commentSpan finds a comment
// just after a line end without IndexByte (stop 43).
func TestCommentSpan(t *testing.T) {
	for _, src := range []string{"", "#", "##\n", "# a\n# b\n#c", "x # a\n\n# b\n#\n#", "\n#\n#\n", "a\n#b#c\n'#'\n", "#\n"} {
		n, cb := 0, 0
		for i := 0; i < len(src); i++ {
			if src[i] == '#' {
				n++
				j := strings.IndexByte(src[i:], '\n')
				if j < 0 {
					j = len(src) - i
				}
				cb += j
				i += j - 1 // on to the line end: a '#' in a comment is not counted
			}
		}
		if gn, gcb := commentSpan([]byte(src)); gn != n || gcb != cb {
			t.Errorf("%q: commentSpan %d, %d; want %d, %d", src, gn, gcb, n, cb)
		}
	}
}
