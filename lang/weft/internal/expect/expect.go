package expect

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"weft.dev/weft/diag"
)

// Chunks splits a chunked test file at `---` lines, padding each chunk with
// the newlines before it so positions in diagnostics are positions in the
// file.
func Chunks(src string) []string {
	var out []string
	var cur strings.Builder
	pad := 0
	for _, l := range strings.SplitAfter(src, "\n") {
		if strings.TrimSpace(l) == "---" {
			out = append(out, strings.Repeat("\n", pad)+cur.String())
			pad += strings.Count(cur.String(), "\n") + 1
			cur.Reset()
			continue
		}
		cur.WriteString(l)
	}
	return append(out, strings.Repeat("\n", pad)+cur.String())
}

// Marker matches one diagnostic marker; its groups are severity, code,
// column, message regexp, note line and note column.
var Marker = regexp.MustCompile(`# (ERROR|WARN|INFO) (W\d+)@(\d+) "((?:[^"\\]|\\.)*)"(?: NOTE@(\d+):(\d+))?`)

// Want is one expected diagnostic.
type Want struct {
	Line, Col         int
	Sev, Code         string
	Re                *regexp.Regexp
	NoteLine, NoteCol int
}

// Wants reads the markers of chunk; a line with "# ERROR" that is not a
// well-formed marker fails the test.
func Wants(t testing.TB, chunk string) []Want {
	t.Helper()
	var ws []Want
	for ln, text := range strings.Split(chunk, "\n") {
		for _, m := range Marker.FindAllStringSubmatch(text, -1) {
			col, _ := strconv.Atoi(m[3])
			w := Want{Line: ln + 1, Col: col, Sev: m[1], Code: m[2], Re: regexp.MustCompile(m[4])}
			if m[5] != "" {
				w.NoteLine, _ = strconv.Atoi(m[5])
				w.NoteCol, _ = strconv.Atoi(m[6])
			}
			ws = append(ws, w)
		}
		if i := strings.Index(text, "# ERROR"); i >= 0 && !Marker.MatchString(text[i:]) {
			t.Fatalf("line %d: malformed marker (want # ERROR Wxxxx@COL \"re\"): %s", ln+1, text)
		}
	}
	return ws
}

var sevs = map[string]diag.Severity{"ERROR": diag.Error, "WARN": diag.Warning, "INFO": diag.Info}

// Match checks errs against the markers of chunk: every marker names a
// distinct diagnostic, and every diagnostic is named by a marker.
func Match(t testing.TB, name, chunk string, errs *diag.List) {
	t.Helper()
	used := map[int]bool{}
	for _, w := range Wants(t, chunk) {
		found := false
		for j, d := range errs.Diags {
			if used[j] || d.Pos.Line() != w.Line || d.Pos.Col() != w.Col || d.Code != w.Code || d.Severity != sevs[w.Sev] || !w.Re.MatchString(d.Message) {
				continue
			}
			if w.NoteLine != 0 && (len(d.Notes) == 0 || d.Notes[0].Pos.Line() != w.NoteLine || d.Notes[0].Pos.Col() != w.NoteCol) {
				continue
			}
			found, used[j] = true, true
			break
		}
		if !found {
			t.Errorf("%s:%d:%d: want %s %s %q; got:\n%s", name, w.Line, w.Col, w.Sev, w.Code, w.Re, List(errs))
		}
	}
	for j, d := range errs.Diags {
		if !used[j] {
			t.Errorf("%s: unexpected %s", name, d.Error())
		}
	}
}

// List prints diagnostics with their notes, one per line, for failures.
func List(errs *diag.List) string {
	var b strings.Builder
	for _, d := range errs.Diags {
		b.WriteString("\t" + d.Error() + "\n")
		for _, n := range d.Notes {
			b.WriteString("\t\tnote: " + n.Pos.String() + ": " + n.Message + "\n")
		}
	}
	return b.String()
}
