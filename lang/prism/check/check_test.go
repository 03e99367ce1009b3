package check_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/check"
	"weft.dev/weft/lang/prism/syntax"
)

var update = flag.Bool("update", false, "rewrite golden files")

// chunk is one `---`-separated program of a chunked testdata file, padded
// with newlines so that its line numbers are those of the whole file.
type chunk struct {
	name string
	src  []byte
}

func chunks(path string, data []byte) []chunk {
	var out []chunk
	lines := strings.SplitAfter(string(data), "\n")
	start := 0
	flush := func(end int) {
		var b strings.Builder
		for i := 0; i < start; i++ {
			b.WriteByte('\n')
		}
		for _, l := range lines[start:end] {
			b.WriteString(l)
		}
		out = append(out, chunk{name: path, src: []byte(b.String())})
	}
	for i, l := range lines {
		if strings.TrimRight(l, "\r\n") == "---" {
			flush(i)
			start = i + 1
		}
	}
	flush(len(lines))
	return out
}

var markerRE = regexp.MustCompile(`# ERROR (P\d{4}) "((?:[^"\\]|\\.)*)"`)

type expectation struct {
	line int
	code string
	re   *regexp.Regexp
}

func expectations(t *testing.T, src []byte) []expectation {
	var out []expectation
	for i, l := range strings.Split(string(src), "\n") {
		for _, m := range markerRE.FindAllStringSubmatch(l, -1) {
			pat, err := strconv.Unquote(`"` + m[2] + `"`)
			if err != nil {
				pat = m[2]
			}
			re, err := regexp.Compile(pat)
			if err != nil {
				t.Fatalf("line %d: bad regexp %q: %v", i+1, m[2], err)
			}
			out = append(out, expectation{line: i + 1, code: m[1], re: re})
		}
	}
	return out
}

// checkSource parses and checks src, returning every diagnostic.
func checkSource(name string, src []byte) (*check.Info, *diag.List) {
	f := diag.NewFile(name, src)
	file, errs := syntax.Parse(f)
	if errs.HasErrors() {
		return nil, errs
	}
	info := check.Check(file, errs)
	return info, errs
}

// TestErrors runs every chunk of testdata/*.prism and matches its
// diagnostics one-to-one with the ERROR markers, then compares the rendered
// diagnostics (with line:col) against the golden file.
func TestErrors(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.prism")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var all bytes.Buffer
		for _, ch := range chunks(filepath.Base(path), data) {
			_, errs := checkSource(ch.name, ch.src)
			errs.Sort()
			diag.WriteText(&all, errs.Diags)
			want := expectations(t, ch.src)
			used := make([]bool, len(want))
			for _, d := range errs.Diags {
				line := d.Pos.Line()
				ok := false
				for i, w := range want {
					if !used[i] && w.line == line && w.code == d.Code && w.re.MatchString(d.Message) {
						used[i], ok = true, true
						break
					}
				}
				if !ok {
					t.Errorf("%s:%d: unexpected %s %s: %s", path, line, d.Severity, d.Code, d.Message)
				}
			}
			for i, w := range want {
				if !used[i] {
					t.Errorf("%s:%d: missing %s %q", path, w.line, w.code, w.re)
				}
			}
		}
		golden := strings.TrimSuffix(path, ".prism") + ".golden"
		if *update {
			os.WriteFile(golden, all.Bytes(), 0o644)
			continue
		}
		wantOut, err := os.ReadFile(golden)
		if err != nil {
			t.Fatalf("%v (run go test -update)", err)
		}
		if got := all.String(); got != string(wantOut) {
			t.Errorf("%s: rendered diagnostics differ from %s:\n%s", path, golden, got)
		}
	}
}

// TestExamples checks that every program in examples/prism is accepted and
// that the shared-memory figures of the paper come out exactly.
func TestExamples(t *testing.T) {
	files, _ := filepath.Glob("../../../examples/prism/*.prism")
	if len(files) < 8 {
		t.Fatalf("found %d examples", len(files))
	}
	peaks := map[string]int{}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		info, errs := checkSource(filepath.Base(path), data)
		if errs.HasErrors() {
			var b bytes.Buffer
			diag.WriteText(&b, errs.Diags)
			t.Errorf("%s rejected:\n%s", path, b.String())
			continue
		}
		for _, fn := range info.Funcs {
			peaks[fn.Name] = fn.Peak
		}
	}
	// Seed 001 Fig. 6: 128+64+128 floats = 1280 bytes; B.3: 69632;
	// B.5: 4*(64*128*2) + 4*(64*256*2) + 4 mbarriers = 196640 <= 227000.
	for name, want := range map[string]int{
		"mmaTF32NaiveKernel":   1280,
		"mmaTF32NaiveKernelB1": 1280,
		"sgemm_tiled":          4096,
		"scan_kernel":          69632,
		"my_h100_mm_no_tail":   196640,
		"fig13_async":          512,
	} {
		if got := peaks[name]; got != want {
			t.Errorf("%s: shared memory peak %d, want %d", name, got, want)
		}
	}
}
