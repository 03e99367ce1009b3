package check_test

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/audala/check"
	"weft.dev/weft/lang/audala/syntax"
)

// chunks splits a chunked test file at lines consisting of "---". Each
// chunk is returned padded with the newlines of the chunks before it, so
// the line numbers of diagnostics are those of the whole file.
func chunks(src string) []string {
	var out []string
	lines := strings.SplitAfter(src, "\n")
	start := 0
	for i := 0; i <= len(lines); i++ {
		if i == len(lines) || strings.TrimSpace(lines[i]) == "---" {
			out = append(out, strings.Repeat("\n", start)+strings.Join(lines[start:i], ""))
			start = i + 1
		}
	}
	return out
}

// load parses and checks src, as `weft check` does.
func load(name, src string) (*check.Program, *diag.List) {
	var diags diag.List
	f := diag.NewFile(name, []byte(src))
	prog := syntax.Parse(f, &diags)
	if prog == nil {
		return nil, &diags
	}
	return check.Check(f, prog, &diags), &diags
}

var marker = regexp.MustCompile(`ERROR (\w+) @(\d+) "((?:[^"\\]|\\.)*)"`)

// TestErrors checks testdata/errors.adl: every diagnostic must be announced
// by an ERROR marker on its line, with its code and column, and every
// marker must be matched by exactly one diagnostic.
func TestErrors(t *testing.T) {
	const path = "testdata/errors.adl"
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]bool{}
	for _, chunk := range chunks(string(src)) {
		type want struct {
			line, col int
			code      string
			re        *regexp.Regexp
			seen      bool
		}
		var wants []*want
		for i, l := range strings.Split(chunk, "\n") {
			for _, m := range marker.FindAllStringSubmatch(l, -1) {
				var col int
				fmt.Sscan(m[2], &col)
				wants = append(wants, &want{line: i + 1, col: col, code: m[1], re: regexp.MustCompile(m[3])})
				codes[m[1]] = true
			}
		}
		_, diags := load(path, chunk)
		for _, d := range diags.Diags {
			found := false
			for _, w := range wants {
				if !w.seen && w.line == d.Pos.Line() && w.col == d.Pos.Col() && w.code == d.Code && w.re.MatchString(d.Message) {
					w.seen, found = true, true
					break
				}
			}
			if !found {
				t.Errorf("unexpected diagnostic %s: %s[%s]: %s", d.Pos, d.Severity, d.Code, d.Message)
			}
		}
		for _, w := range wants {
			if !w.seen {
				t.Errorf("%s:%d:%d: missing %s %q", path, w.line, w.col, w.code, w.re)
			}
		}
	}
	// AT-6: one negative test per validation error of thesis Table 2.
	for _, c := range check.Codes {
		if strings.HasPrefix(c.Code, "E") && !codes[c.Code] {
			t.Errorf("no test for %s (%s)", c.Code, c.Summary)
		}
	}
}

// TestThesisProgramsCheck: the thesis programs are accepted without
// diagnostics.
func TestThesisProgramsCheck(t *testing.T) {
	for _, name := range []string{"fig1", "ps_thesis", "fb_thesis_fixed", "ch_thesis", "spm_thesis", "scs_thesis"} {
		path := "../testdata/" + name + ".adl"
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		prog, diags := load(path, string(src))
		if prog == nil || len(diags.Diags) != 0 {
			t.Errorf("%s: %v", name, diags.Err())
		}
	}
}
