package gpucheck

import (
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

// chunks splits a chunked test file at `---` lines, keeping line numbers
// (each chunk is padded with the newlines before it, so positions in
// diagnostics are positions in the file).
func chunks(src string) []string {
	var out []string
	lines := strings.SplitAfter(src, "\n")
	var cur strings.Builder
	pad := 0
	for _, l := range lines {
		if strings.TrimSpace(l) == "---" {
			out = append(out, strings.Repeat("\n", pad)+cur.String())
			pad += strings.Count(cur.String(), "\n") + 1
			cur.Reset()
			continue
		}
		cur.WriteString(l)
	}
	out = append(out, strings.Repeat("\n", pad)+cur.String())
	return out
}

var marker = regexp.MustCompile(`# ERROR (W\d+)@(\d+) "([^"]*)"`)

type want struct {
	line, col int
	code      string
	re        *regexp.Regexp
}

func wants(t *testing.T, chunk string) []want {
	var ws []want
	for ln, text := range strings.Split(chunk, "\n") {
		for _, m := range marker.FindAllStringSubmatch(text, -1) {
			col, _ := strconv.Atoi(m[2])
			ws = append(ws, want{ln + 1, col, m[1], regexp.MustCompile(m[3])})
		}
		if strings.Contains(text, "# ERROR") && !marker.MatchString(text) {
			t.Fatalf("line %d: malformed marker (want # ERROR Wxxxx@COL \"re\"): %s", ln+1, text)
		}
	}
	return ws
}

// match checks the diagnostics against the markers of chunk.
func match(t *testing.T, name string, chunk string, errs *diag.List) {
	t.Helper()
	ws := wants(t, chunk)
	used := map[int]bool{}
	for _, w := range ws {
		found := false
		for j, d := range errs.Diags {
			if !used[j] && d.Pos.Line() == w.line && d.Pos.Col() == w.col && d.Code == w.code && w.re.MatchString(d.Message) {
				found, used[j] = true, true
				break
			}
		}
		if !found {
			t.Errorf("%s:%d:%d: want %s %q; got:\n%s", name, w.line, w.col, w.code, w.re, list(errs))
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
	}
	return b.String()
}

// TestData runs every chunk of testdata/*.weft through the collective
// analysis and checks the diagnostics against the `# ERROR` markers
// (code, line and column, message regexp). A chunk without markers must
// be accepted.
func TestData(t *testing.T) {
	l := lib.MustStd()
	files, _ := filepath.Glob("testdata/*.weft")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	n := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, chunk := range chunks(string(src)) {
			if strings.TrimSpace(chunk) == "" {
				continue
			}
			n++
			var errs diag.List
			f := syntax.Parse(diag.NewFile(file, []byte(chunk)), &errs)
			if errs.HasErrors() {
				t.Fatalf("%s: syntax errors:\n%s", file, list(&errs))
			}
			Check(f, Options{Lib: l}, &errs)
			match(t, file, chunk, &errs)
		}
	}
	t.Logf("%d cases", n)
}

// FuzzCheck runs the collective analysis and the thread reports on
// arbitrary programs that parse: no input may make them panic.
func FuzzCheck(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.weft")
	for _, file := range files {
		src, _ := os.ReadFile(file)
		for _, c := range chunks(string(src)) {
			f.Add(c)
		}
	}
	l := lib.MustStd()
	f.Fuzz(func(t *testing.T, src string) {
		var errs diag.List
		file := syntax.Parse(diag.NewFile("fuzz.weft", []byte(src)), &errs)
		res := Check(file, Options{Lib: l}, &errs)
		var b strings.Builder
		res.WriteThreads(&b)
		res.WriteThreadsSVG(&b)
	})
}

// TestNoLibrary: without a library the analysis still runs (units and
// timelines are unknown, so it reports them) and never panics.
func TestNoLibrary(t *testing.T) {
	src := "@instr(tl=cuda_in_order, unit=cuda_warp, cuda=\"x\")\ndef g(a: f32):\n    a = 0.0\n\n\ndef f():\n    with CudaDeviceFunction(blockDim=64):\n        for t in cuda_tasks(0, 1):\n            for w in cuda_threads(0, 2, unit=cuda_warp):\n                pass\n"
	var errs diag.List
	f := syntax.Parse(diag.NewFile("t.weft", []byte(src)), &errs)
	Check(f, Options{}, &errs)
	if len(errs.Diags) != 1 || errs.Diags[0].Code != codeUnit {
		t.Fatalf("got %v", errs.Err())
	}
}
