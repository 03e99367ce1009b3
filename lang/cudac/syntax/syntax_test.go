package syntax_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// testdata/*.cu: cases separated by "// ---- name"; a comment
// `// ERROR C0123 col=N "regexp"` expects a diagnostic on its line. Every
// diagnostic must be expected.

var (
	caseSep = regexp.MustCompile(`(?m)^// ---- (.*)$`)
	expRe   = regexp.MustCompile(`// ERROR (C\d{4})\s*(?:col=(\d+))?\s*"((?:[^"\\]|\\.)*)"`)
)

type want struct {
	line, col int
	code      string
	re        *regexp.Regexp
	hit       bool
}

func cases(t testing.TB) map[string]string {
	files, _ := filepath.Glob("testdata/*.cu")
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		locs := caseSep.FindAllStringSubmatchIndex(src, -1)
		for i, l := range locs {
			end := len(src)
			if i+1 < len(locs) {
				end = locs[i+1][0]
			}
			out[filepath.Base(f)+"/"+src[l[2]:l[3]]] = strings.Repeat("\n", strings.Count(src[:l[1]], "\n")) + src[l[1]:end]
		}
	}
	return out
}

func parse(src string) (*syntax.File, *diag.List) {
	var diags diag.List
	f := diag.NewFile("t.cu", []byte(src))
	toks := syntax.PreprocessWith(f, &diags, func(string) ([]byte, error) { return nil, os.ErrNotExist })
	file := syntax.Parse(toks, &diags)
	diags.Sort()
	return file, &diags
}

func TestErrors(t *testing.T) {
	for name, src := range cases(t) {
		t.Run(name, func(t *testing.T) {
			var wants []*want
			for i, line := range strings.Split(src, "\n") {
				for _, m := range expRe.FindAllStringSubmatch(line, -1) {
					w := &want{line: i + 1, code: m[1], re: regexp.MustCompile(m[3])}
					w.col, _ = strconv.Atoi(m[2])
					wants = append(wants, w)
				}
			}
			_, diags := parse(src)
			for _, d := range diags.Diags {
				found := false
				for _, w := range wants {
					if !w.hit && w.code == d.Code && w.line == d.Pos.Line() && (w.col == 0 || w.col == d.Pos.Col()) && w.re.MatchString(d.Message) {
						w.hit, found = true, true
						break
					}
				}
				if !found {
					t.Errorf("unexpected %d:%d %s %s", d.Pos.Line(), d.Pos.Col(), d.Code, d.Message)
				}
			}
			for _, w := range wants {
				if !w.hit {
					t.Errorf("line %d: missing %s col=%d %q", w.line, w.code, w.col, w.re)
				}
			}
		})
	}
}

// TestMacros checks the expansion of the last case token by token.
func TestMacros(t *testing.T) {
	src := `#define STR(x) #x
#define CAT(a, b) a##b
#define SQ(x) ((x) * (x))
#define LOG(fmt, ...) printf(fmt, __VA_ARGS__)
#define TWICE(x) SQ(x) + SQ(x)
#if defined(SQ) && !defined(NOPE) && (3 > 2) && 0x10 == 16
int CAT(va, r) = SQ(3) + TWICE(2);
#elif 1
bad
#else
bad
#endif
const char *s = STR(hello world);
void p() { LOG("%d", 1); }
#undef SQ
int SQ;
`
	var diags diag.List
	toks := syntax.Preprocess(diag.NewFile("m.cu", []byte(src)), &diags)
	if diags.HasErrors() {
		t.Fatal(diags.Diags[0].Message)
	}
	var texts []string
	for _, tk := range toks {
		texts = append(texts, tk.Text)
	}
	got := strings.Join(texts, " ")
	want := `int var = ( ( 3 ) * ( 3 ) ) + ( ( 2 ) * ( 2 ) ) + ( ( 2 ) * ( 2 ) ) ; const char * s = "hello world" ; void p ( ) { printf ( "%d" , 1 ) ; } int SQ ; `
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// a macro's expansion keeps the position of its use
	for _, tk := range toks {
		if tk.Text == "3" && tk.Pos.Line() != 7 {
			t.Errorf("expanded token at line %d, want 7", tk.Pos.Line())
		}
	}
}

// FuzzPreprocess: no input makes the preprocessor panic or hang.
func FuzzPreprocess(f *testing.F) {
	for _, src := range cases(f) {
		f.Add(src)
	}
	f.Add("#define A(x) A(x) x\nA(A(1))\n#if defined A\n#endif")
	f.Fuzz(func(t *testing.T, src string) {
		var diags diag.List
		syntax.PreprocessWith(diag.NewFile("f.cu", []byte(src)), &diags, func(string) ([]byte, error) { return []byte(src), nil })
	})
}

// FuzzParse: no input makes the parser panic; every diagnostic has a code.
func FuzzParse(f *testing.F) {
	for _, src := range cases(f) {
		f.Add(src)
	}
	// the C++ subset (namespaces, cooperative groups, structs with
	// constructors, references, half types) is seeded from the examples
	for _, ex := range []string{"reduce_shfl", "reduce_cg", "cxx", "half", "matmul_tiled"} {
		if b, err := os.ReadFile("../../../examples/cuda/" + ex + ".cu"); err == nil {
			f.Add(string(b))
		}
	}
	// and the C++11-17 of generated code and samples (sem/testdata)
	for _, name := range []string{"cxx17", "std", "issue15"} {
		if b, err := os.ReadFile("../sem/testdata/" + name + ".cu"); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, diags := parse(src)
		for _, d := range diags.Diags {
			if d.Code == "" {
				panic(fmt.Sprintf("diagnostic without a code: %s", d.Message))
			}
		}
	})
}
