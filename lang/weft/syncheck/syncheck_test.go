package syncheck

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// chunks splits a chunked test file at `---` lines, padding each chunk with
// the newlines before it so positions are positions in the file.
func chunks(src string) []string {
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

// A marker `# ERROR W0601@COL "regexp"` (or WARN, INFO) on a line names a
// diagnostic that line must produce; `# NOTE@LINE:COL` after it names the
// position of its note.
var marker = regexp.MustCompile(`# (ERROR|WARN|INFO) (W\d+)@(\d+) "((?:[^"\\]|\\.)*)"(?: NOTE@(\d+):(\d+))?`)

type want struct {
	line, col         int
	sev, code         string
	re                *regexp.Regexp
	noteLine, noteCol int
}

func wants(t *testing.T, chunk string) []want {
	var ws []want
	for ln, text := range strings.Split(chunk, "\n") {
		for _, m := range marker.FindAllStringSubmatch(text, -1) {
			col, _ := strconv.Atoi(m[3])
			w := want{line: ln + 1, col: col, sev: m[1], code: m[2], re: regexp.MustCompile(m[4])}
			if m[5] != "" {
				w.noteLine, _ = strconv.Atoi(m[5])
				w.noteCol, _ = strconv.Atoi(m[6])
			}
			ws = append(ws, w)
		}
		if i := strings.Index(text, "# ERROR"); i >= 0 && !marker.MatchString(text[i:]) {
			t.Fatalf("line %d: malformed marker: %s", ln+1, text)
		}
	}
	return ws
}

var sevs = map[string]diag.Severity{"ERROR": diag.Error, "WARN": diag.Warning, "INFO": diag.Info}

func match(t *testing.T, name, chunk string, errs *diag.List) {
	t.Helper()
	used := map[int]bool{}
	for _, w := range wants(t, chunk) {
		found := false
		for j, d := range errs.Diags {
			if used[j] || d.Pos.Line() != w.line || d.Pos.Col() != w.col || d.Code != w.code || d.Severity != sevs[w.sev] || !w.re.MatchString(d.Message) {
				continue
			}
			if w.noteLine != 0 && (len(d.Notes) == 0 || d.Notes[0].Pos.Line() != w.noteLine || d.Notes[0].Pos.Col() != w.noteCol) {
				continue
			}
			found, used[j] = true, true
			break
		}
		if !found {
			t.Errorf("%s:%d:%d: want %s %s %q; got:\n%s", name, w.line, w.col, w.sev, w.code, w.re, list(errs))
		}
	}
	for j, d := range errs.Diags {
		if !used[j] {
			t.Errorf("%s: unexpected %s", name, d.Error())
		}
	}
}

func list(errs *diag.List) string {
	var b strings.Builder
	for _, d := range errs.Diags {
		b.WriteString("\t" + d.Error() + "\n")
		for _, n := range d.Notes {
			b.WriteString("\t\tnote: " + n.Pos.String() + ": " + n.Message + "\n")
		}
	}
	return b.String()
}

// checkSource runs the front end, the collective analysis and the sync
// check over one source text.
func checkSource(t testing.TB, name, src string, opts Options) (*diag.List, []*Run) {
	l := lib.MustStd()
	var errs diag.List
	f := syntax.Parse(diag.NewFile(name, []byte(src)), &errs)
	if errs.HasErrors() {
		t.Fatalf("%s: syntax errors:\n%s", name, list(&errs))
	}
	check.Check(f, l, &errs)
	if errs.HasErrors() {
		t.Fatalf("%s: check errors:\n%s", name, list(&errs))
	}
	gpu := gpucheck.Check(f, gpucheck.Options{Lib: l, Sizes: opts.Sizes}, &errs)
	if strings.Contains(src, "# allow W0405") {
		// gpucheck counts a proc call's window arguments as CPU reads
		// of GPU memory (W0405); the inlining tests pass windows of GMEM.
		var kept diag.List
		for _, d := range errs.Diags {
			if d.Code != "W0405" {
				kept.Add(d)
			}
		}
		errs = kept
	}
	if errs.HasErrors() {
		t.Fatalf("%s: gpucheck errors:\n%s", name, list(&errs))
	}
	runs := Check(f, gpu, l, opts, &errs)
	return &errs, runs
}

// checkSourceProgram converts the first proc with a device function.
func checkSourceProgram(t testing.TB, name, src string, use func(*Program)) {
	l := lib.MustStd()
	var errs diag.List
	f := syntax.Parse(diag.NewFile(name, []byte(src)), &errs)
	check.Check(f, l, &errs)
	gpu := gpucheck.Check(f, gpucheck.Options{Lib: l}, &errs)
	if errs.HasErrors() {
		t.Fatalf("%s:\n%s", name, list(&errs))
	}
	for _, d := range f.Decls {
		if p, ok := d.(*syntax.Proc); ok && !lib.IsInstr(p) && hasDevice(p.Body) {
			use(Convert(f, p, gpu, l, &errs))
			return
		}
	}
	t.Fatalf("%s: no proc with a device function", name)
}

var mutantsAccepted int

// TestData checks every chunk of testdata/*.weft against its markers; a
// chunk without markers must be accepted.
func TestData(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.weft")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, chunk := range chunks(string(src)) {
			if strings.TrimSpace(chunk) == "" {
				continue
			}
			// Accepted chunks are mutation-tested: --redundant-sync removes
			// each sync statement in turn and any removal that creates no
			// hazard must be marked (WARN W0630).
			errs, runs := checkSource(t, file, chunk, Options{MaxHazards: 10, RedundantSync: true})
			match(t, file, chunk, errs)
			for _, r := range runs {
				if r.Result.OK() {
					mutantsAccepted += len(r.Redundant)
				}
			}
		}
	}
}
