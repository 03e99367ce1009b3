package syntax_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/syntax"
)

func parse(name string, src []byte) (*syntax.File, *diag.List) {
	return syntax.Parse(diag.NewFile(name, src))
}

func print(t *testing.T, f *syntax.File) []byte {
	var b bytes.Buffer
	if err := syntax.Fprint(&b, f); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func sources(t *testing.T) map[string][]byte {
	files, _ := filepath.Glob("../../../examples/prism/*.prism")
	more, _ := filepath.Glob("../check/testdata/*.prism")
	out := map[string][]byte{}
	for _, p := range append(files, more...) {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for i, part := range strings.Split(string(data), "\n---\n") {
			out[p+"#"+string(rune('a'+i%26))+strings.Repeat("'", i/26)] = []byte(part)
		}
	}
	if len(out) < 10 {
		t.Fatalf("only %d sources", len(out))
	}
	return out
}

// TestRoundTrip: printing is idempotent, keeps every comment, and the
// printed program parses to a tree that prints the same (seed programs in
// examples/ and the checker's testdata).
func TestRoundTrip(t *testing.T) {
	for name, src := range sources(t) {
		f, errs := parse(name, src)
		if errs.HasErrors() {
			t.Errorf("%s: %v", name, errs.Err())
			continue
		}
		p1 := print(t, f)
		f2, errs := parse(name, p1)
		if errs.HasErrors() {
			t.Errorf("%s: printed form does not parse: %v\n%s", name, errs.Err(), p1)
			continue
		}
		p2 := print(t, f2)
		if !bytes.Equal(p1, p2) {
			t.Errorf("%s: printing is not idempotent:\n--- first\n%s\n--- second\n%s", name, p1, p2)
		}
		if len(f.Comments) != len(f2.Comments) {
			t.Errorf("%s: %d comments, %d after printing", name, len(f.Comments), len(f2.Comments))
		}
		if len(f.Funcs) != len(f2.Funcs) {
			t.Errorf("%s: %d functions, %d after printing", name, len(f.Funcs), len(f2.Funcs))
		}
		for _, c := range f.Comments {
			if !bytes.Contains(p1, []byte(c.Text)) {
				t.Errorf("%s: comment %q lost", name, c.Text)
			}
		}
	}
}

var markerRE = regexp.MustCompile(`# ERROR (P\d{4}) "((?:[^"\\]|\\.)*)"`)

// TestErrors: every chunk of testdata/errors.prism produces exactly the
// errors its markers name, on their lines.
func TestErrors(t *testing.T) {
	data, err := os.ReadFile("testdata/errors.prism")
	if err != nil {
		t.Fatal(err)
	}
	for i, part := range strings.Split(string(data), "\n---\n") {
		_, errs := parse("errors.prism", []byte(part))
		type want struct {
			line int
			code string
			re   *regexp.Regexp
		}
		var wants []want
		for ln, l := range strings.Split(part, "\n") {
			if m := markerRE.FindStringSubmatch(l); m != nil {
				wants = append(wants, want{ln + 1, m[1], regexp.MustCompile(m[2])})
			}
		}
		got := errs.Diags
		if len(got) == 0 {
			t.Errorf("chunk %d: no errors", i)
		}
		// The first error must be the marked one; recovery may add others
		// only on later lines.
		for _, w := range wants {
			found := false
			for _, d := range got {
				if d.Pos.Line() == w.line && d.Code == w.code && w.re.MatchString(d.Message) {
					found = true
				}
			}
			if !found {
				var b bytes.Buffer
				diag.WriteText(&b, got)
				t.Errorf("chunk %d: missing %s %q at line %d; got\n%s", i, w.code, w.re, w.line, b.String())
			}
		}
		for _, d := range got {
			if len(wants) > 0 && d.Pos.Line() < wants[0].line {
				t.Errorf("chunk %d: error before the marked line: %s", i, d.Message)
			}
		}
	}
}

// FuzzParse: no input makes the parser or printer panic, and whatever
// parses without error prints to something that parses again.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("../../../examples/prism/*.prism")
	more, _ := filepath.Glob("testdata/*.prism")
	more2, _ := filepath.Glob("../check/testdata/*.prism")
	for _, p := range append(append(files, more...), more2...) {
		data, _ := os.ReadFile(p)
		for _, part := range strings.Split(string(data), "\n---\n") {
			f.Add([]byte(part))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		file, errs := parse("fuzz.prism", src)
		if errs.HasErrors() {
			for _, d := range errs.Diags {
				if d.Code == "" {
					t.Fatalf("diagnostic without code: %s", d.Message)
				}
			}
			return
		}
		var b bytes.Buffer
		syntax.Fprint(&b, file)
		if _, errs := parse("fuzz.prism", b.Bytes()); errs.HasErrors() {
			t.Fatalf("printed form does not parse: %v\n%s\n--- from\n%s", errs.Err(), b.String(), src)
		}
	})
}
