package verify_test

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
	"weft.dev/weft/lang/cudac/verify"
)

// The corpus: testdata/*.cu are kernel-only files in GPUVerify's (or
// Faial's) dialect. Each states the search's outcome exactly:
//
//	// RESULT: configs=N excluded=K findings=F   (a file that does not compile: all 0)
//	... // ERROR C0501 col=5 "re"   a diagnostic on this line: code, column, message regexp
//	... // NOTE "re"                 a note of the diagnostic on this line
//
// Every error and warning must be expected and every expectation met.

var (
	resultRe = regexp.MustCompile(`// RESULT: configs=(\d+) excluded=(\d+) findings=(\d+)`)
	diagRe   = regexp.MustCompile(`// (ERROR|WARN) (C\d{4}) col=(\d+) "((?:[^"\\]|\\.)*)"`)
	noteRe   = regexp.MustCompile(`// NOTE "((?:[^"\\]|\\.)*)"`)
)

// check runs weft check's search on one file.
func check(t testing.TB, path string) (verify.Result, *diag.List, string) {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f := diag.NewFile(path, src)
	h, err := verify.ParseHeader(src)
	if err != nil {
		t.Fatalf("header: %v", err)
	}
	var diags diag.List
	p, facts := verify.Load(f, syntax.Config{Defines: h.Defines}, &diags)
	if p == nil {
		// a file that does not compile: its diagnostics are the
		// expectations, nothing ran
		return verify.Result{}, &diags, string(src)
	}
	res, err := verify.Check(f, p, facts, verify.Options{Check: true, Header: h, Stdout: io.Discard}, &diags)
	if err != nil {
		t.Fatal(err)
	}
	return res, &diags, string(src)
}

func TestCorpus(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.cu")
	if len(files) < 20 {
		t.Fatalf("corpus has %d files", len(files))
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			res, diags, src := check(t, path)
			m := resultRe.FindStringSubmatch(src)
			if m == nil {
				t.Fatal("no // RESULT: line")
			}
			want := [3]int{atoi(m[1]), atoi(m[2]), atoi(m[3])}
			if got := [3]int{res.Configs, res.Excluded, res.Findings}; got != want {
				t.Errorf("configs, excluded, findings = %v, want %v", got, want)
			}
			lines := strings.Split(src, "\n")
			seen := map[int]int{}
			for _, d := range diags.Diags {
				if d.Severity == diag.Info {
					continue
				}
				ln := d.Pos.Line()
				if ln < 1 || ln > len(lines) {
					t.Errorf("diagnostic at line %d: %s", ln, d.Message)
					continue
				}
				all := diagRe.FindAllStringSubmatch(lines[ln-1], -1)
				var e []string
				for _, x := range all {
					if e == nil || regexp.MustCompile(x[4]).MatchString(d.Message) {
						e = x
					}
				}
				switch {
				case e == nil:
					t.Errorf("line %d: unexpected %s[%s] %s", ln, d.Severity, d.Code, d.Message)
					continue
				case e[2] != d.Code || atoi(e[3]) != d.Pos.Col():
					t.Errorf("line %d: got %s at col %d, want %s at col %s", ln, d.Code, d.Pos.Col(), e[2], e[3])
				case !regexp.MustCompile(e[4]).MatchString(d.Message):
					t.Errorf("line %d: message %q does not match %q", ln, d.Message, e[4])
				}
				seen[ln]++
				if seen[ln] > len(all) {
					t.Errorf("line %d: reported more often than expected", ln)
				}
				for _, nm := range noteRe.FindAllStringSubmatch(lines[ln-1], -1) {
					re := regexp.MustCompile(nm[1])
					hit := false
					for _, n := range d.Notes {
						hit = hit || re.MatchString(n.Message)
					}
					if !hit {
						t.Errorf("line %d: no note matches %q in %v", ln, nm[1], d.Notes)
					}
				}
			}
			for i, l := range lines {
				if n := len(diagRe.FindAllString(l, -1)); n > seen[i+1] {
					t.Errorf("line %d: %d diagnostic(s) expected, %d reported", i+1, n, seen[i+1])
				}
			}
		})
	}
}

func atoi(s string) int { n, _ := strconv.Atoi(s); return n }

// tryCheck is check for files that may not load (the benchmark over a
// foreign suite).
func tryCheck(path string, maxConfigs int) (verify.Result, bool) {
	src, err := os.ReadFile(path)
	if err != nil {
		return verify.Result{}, false
	}
	f := diag.NewFile(path, src)
	h, err := verify.ParseHeader(src)
	if err != nil {
		return verify.Result{}, false
	}
	var diags diag.List
	p, facts := verify.Load(f, syntax.Config{Defines: h.Defines}, &diags)
	if p == nil {
		return verify.Result{}, false
	}
	res, err := verify.Check(f, p, facts, verify.Options{Check: true, Header: h, Stdout: io.Discard, MaxConfigs: maxConfigs}, &diags)
	return res, err == nil
}
