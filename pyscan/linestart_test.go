package pyscan

import (
	"reflect"
	"strings"
	"testing"
)

// TestLineStart compares Toks (lineStart at each line start) with Next
// (scan alone) on line starts lineStart takes (blank lines, own-line
// comments, indents, dedents of one and several levels, the same level)
// and on those it leaves to scan (tabs, form feeds, '\r', a line
// continuation, a dedent to no outer level, nesting deeper than the
// first indentation array, the end of the file inside indentation): the
// tokens, comments and errors must agree.
func TestLineStart(t *testing.T) {
	deep := ""
	for i := range 12 {
		deep += strings.Repeat(" ", 2*i) + "if a:\n"
	}
	deep += strings.Repeat(" ", 24) + "x\n"
	srcs := []string{
		"a\n\n  \n# c\n   # d\nb\n",
		"def f():\n    x = 1\n\n    # own\n    if y:\n        z = 2  # trail\n    w\nv\n",
		"if a:\n  if b:\n    if c:\n      d\ne\n",
		"if a:\n    b\n  c\n",
		"if a:\n\tb\n\tc\n",
		"if a:\n \fb\n",
		"a\r\n  b\r\n",
		"a = \\\n  1\n\\\n b\n",
		"if a:\n    b\n    ",
		"if a:\n    b\n    # c",
		deep,
		"x = (1,\n  2)\ny\n",
	}
	for _, src := range srcs {
		want, e1, s1 := scanByNext(src)
		got, e2, s2 := scanByToks(src)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(e1, e2) || !reflect.DeepEqual(s1.Comments, s2.Comments) {
			t.Errorf("%q: Toks and Next differ:\n%v %v %v\n%v %v %v", src, got, e2, s2.Comments, want, e1, s1.Comments)
		}
		checkCodes(t, src)
	}
}

// TestTokWords checks fastRun's token words against the Tok fields they
// stand for, on this machine (where tokWords is false, Toks does not use
// them: the test then checks that scanning still agrees with Next).
func TestTokWords(t *testing.T) {
	if !tokWords {
		t.Log("tokWords false: fastRun unused")
	}
	for _, tk := range []Tok{{}, {off: 1<<32 - 1, n: 1<<16 - 1, Kind: OP, code: Long}, {off: 7, n: 3, Kind: NAME, code: FirstKeyword + 2}} {
		var w Tok
		if tokWords {
			w = wordTok(tokWord(int(tk.off), int(tk.n), tk.Kind, tk.code))
			if w != tk {
				t.Errorf("word of %+v reads back as %+v", tk, w)
			}
		}
	}
	for c := range 256 {
		if op1[c] != OpNone && tokWords && wordTok(opWord[c]) != (Tok{n: 1, Kind: OP, code: op1[c]}) {
			t.Errorf("opWord[%q] = %#x", rune(c), opWord[c])
		}
	}
	// The fallback (a machine where tokWords is false): Toks without
	// fastRun still agrees with Next.
	defer func(w bool) { tokWords = w }(tokWords)
	for _, w := range []bool{true, false} {
		tokWords = w
		for _, src := range []string{"def f(a: i32):\n    x[a, 1] = g(b, c=2) * 3\n    if y:\n        z\n", "a = (1,\n 2]\n"} {
			want, e1, _ := scanByNext(src)
			got, e2, _ := scanByToks(src)
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(e1, e2) {
				t.Errorf("tokWords %v: %q: Toks and Next differ:\n%v %v\n%v %v", w, src, got, e2, want, e1)
			}
			checkCodes(t, src)
		}
	}
}

// TestKeywordsMaybe checks maybe's filter: true for each word of the set
// (else fastRun would miss its code), false for most other names.
func TestKeywordsMaybe(t *testing.T) {
	words := append([]string{strings.Repeat("k", 63), strings.Repeat("l", 70)}, testWords...)
	kw := NewKeywords(words...)
	for _, w := range words {
		if !kw.maybe(w[0], len(w)) {
			t.Errorf("maybe(%q, %d) = false for a word of the set", w[0], len(w))
		}
	}
	for _, w := range []string{"cuda_threads", "x", "tile", "Fenc", "k", strings.Repeat("l", 62)} {
		if kw.maybe(w[0], len(w)) {
			t.Errorf("maybe(%q, %d) = true for no word of the set", w[0], len(w))
		}
	}
	if !kw.maybe('l', 200) {
		t.Errorf("maybe('l', 200) = false with a word of 70 bytes in the set")
	}
}

// TestSpacesEnd checks spacesEnd against a byte-by-byte count: every
// start offset of runs of 0 to 20 spaces followed by each other byte
// or by the end of the source.
func TestSpacesEnd(t *testing.T) {
	for lead := range 10 {
		for n := range 21 {
			for _, tail := range []string{"", "x", "\t", "!", "\x00", "\xa0", "  \n"} {
				src := []byte(strings.Repeat("y", lead) + strings.Repeat(" ", n) + tail)
				want := lead
				for want < len(src) && src[want] == ' ' {
					want++
				}
				if got := spacesEnd(src, lead); got != want {
					t.Errorf("spacesEnd(%q, %d) = %d, want %d", src, lead, got, want)
				}
			}
		}
	}
}

// TestLineStartRoom compares Toks with Next on files whose token array
// fills at every place of a unit of indents and dedents: fastLoop makes
// a line start's NEWLINE, INDENT and DEDENTs itself (stop 43), and one
// with no room for them must leave the line to lineStart and scan (which
// grow the array) untouched.
func TestLineStartRoom(t *testing.T) {
	for _, unit := range []string{"if a:\n  if b:\n    c(d)\ne\n", "x:\n y\n\n z\n  w\nv\n"} {
		for k := 1; k <= 80; k++ {
			src := strings.Repeat(unit, k)
			want, e1, _ := scanByNext(src)
			got, e2, _ := scanByToks(src)
			if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(e1, e2) {
				t.Fatalf("%d units of %q: Toks and Next differ:\n%v %v\n%v %v", k, unit, got, e2, want, e1)
			}
		}
	}
}
