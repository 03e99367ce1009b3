package cudagen

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// A lowering test file holds many small programs separated by `---` lines.
// Expectations are comments:
//
//	# want: LINE       the generated code has this line (spaces trimmed)
//	# notwant: TEXT    no generated line contains TEXT
//	# ERROR W09xx "re" the line it is on gets this diagnostic
//
// A chunk with ERROR expectations must produce exactly those diagnostics; a
// chunk without must generate without errors.
type chunk struct {
	name     string
	src      string
	line     int // first line in the file
	wants    []string
	notwants []string
	errs     []wantErr
}

type wantErr struct {
	line int
	code string
	re   *regexp.Regexp
}

var errRE = regexp.MustCompile(`# ERROR (W\d{4}) "((?:[^"\\]|\\.)*)"`)

func readChunks(t *testing.T, path string) []chunk {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []chunk
	lines := strings.Split(string(data), "\n")
	cur := chunk{line: 1}
	flush := func(next int) {
		if strings.TrimSpace(cur.src) != "" {
			cur.name = fmt.Sprintf("%s:%d", filepath.Base(path), cur.line)
			out = append(out, cur)
		}
		cur = chunk{line: next}
	}
	for i, l := range lines {
		if strings.TrimSpace(l) == "---" {
			flush(i + 2)
			continue
		}
		cur.src += l + "\n"
		n := i + 2 - cur.line // line within the chunk
		tl := strings.TrimSpace(l)
		if s, ok := strings.CutPrefix(tl, "# want:"); ok {
			cur.wants = append(cur.wants, strings.TrimSpace(s))
		}
		if s, ok := strings.CutPrefix(tl, "# notwant:"); ok {
			cur.notwants = append(cur.notwants, strings.TrimSpace(s))
		}
		if m := errRE.FindStringSubmatch(l); m != nil {
			re, err := regexp.Compile(strings.ReplaceAll(m[2], `\"`, `"`))
			if err != nil {
				t.Fatalf("%s:%d: %v", path, i+1, err)
			}
			cur.errs = append(cur.errs, wantErr{line: n, code: m[1], re: re})
		}
	}
	flush(0)
	return out
}

func TestLowering(t *testing.T) {
	files, _ := filepath.Glob("testdata/lower/*.weft")
	if len(files) == 0 {
		t.Fatal("no lowering tests")
	}
	for _, path := range files {
		for _, c := range readChunks(t, path) {
			c := c
			t.Run(c.name, func(t *testing.T) {
				var errs diag.List
				f := syntax.Parse(diag.NewFile("test.weft", []byte(c.src)), &errs)
				if errs.HasErrors() {
					t.Fatalf("parse:\n%s", diagText(&errs))
				}
				out := Generate(f, lib.MustStd(), Options{Stem: "t"}, &errs)
				checkErrs(t, &errs, c.errs)
				if len(c.errs) > 0 {
					return
				}
				var gen []string
				for _, fl := range out.Files {
					for _, l := range strings.Split(string(fl.Data), "\n") {
						l, _, _ = strings.Cut(l, " // weft:src ") // the source position (srcpos.go)
						l = strings.TrimSpace(l)
						if !strings.HasPrefix(l, "//") {
							gen = append(gen, l)
						}
					}
				}
				for _, w := range c.wants {
					found := false
					for _, l := range gen {
						if l == w {
							found = true
							break
						}
					}
					if !found {
						t.Errorf("missing line: %s\ngenerated device code:\n%s", w, deviceText(out))
					}
				}
				for _, w := range c.notwants {
					for _, l := range gen {
						if strings.Contains(l, w) {
							t.Errorf("unexpected %q in line: %s", w, l)
						}
					}
				}
			})
		}
	}
}

func deviceText(o *Output) string {
	var b strings.Builder
	for _, f := range o.Files {
		if strings.HasSuffix(f.Name, ".cuh") || strings.HasSuffix(f.Name, ".c") {
			b.Write(f.Data)
		}
	}
	return b.String()
}

func checkErrs(t *testing.T, errs *diag.List, want []wantErr) {
	t.Helper()
	errs.Sort()
	used := make([]bool, len(want))
	for _, d := range errs.Diags {
		if d.Severity != diag.Error {
			continue
		}
		ok := false
		for i, w := range want {
			if !used[i] && d.Pos.Line() == w.line && d.Code == w.code && w.re.MatchString(d.Message) {
				used[i] = true
				ok = true
				break
			}
		}
		if !ok {
			t.Errorf("unexpected diagnostic %d:%d %s %s", d.Pos.Line(), d.Pos.Col(), d.Code, d.Message)
		}
	}
	for i, w := range want {
		if !used[i] {
			t.Errorf("missing diagnostic at line %d: %s %q", w.line, w.code, w.re)
		}
	}
}

var _ = strconv.Itoa
