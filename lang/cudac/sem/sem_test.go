package sem_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/gpu"
	"weft.dev/weft/lang/cudac/sem"
)

// The data-driven tests: testdata/*.cu hold cases separated by lines
// "// ---- name". Inside a case:
//
//	// OUT: text            one expected line of stdout (exact, trailing spaces kept)
//	// MODE: run            run instead of check (the default)
//	// FLAGS: --seed=3 ...  not used by sem tests; see the cmd scripts
//	... // ERROR C0501 "re"          a diagnostic on this line: code, message regexp
//	... // ERROR C0501 col=9 "re"    ... at this column
//	... // WARN C0407 "re"           a warning
//	... // NOTE "re"                 a note on this line
//
// Every error and warning must be expected and every expectation met.

type testCase struct {
	name string
	file string
	src  string
}

var caseSep = regexp.MustCompile(`(?m)^// ---- (.*)$`)

func loadCases(t *testing.T) []testCase {
	files, err := filepath.Glob("testdata/*.cu")
	if err != nil {
		t.Fatal(err)
	}
	var cases []testCase
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		locs := caseSep.FindAllStringSubmatchIndex(src, -1)
		if len(locs) == 0 {
			cases = append(cases, testCase{name: filepath.Base(f), file: f, src: src})
			continue
		}
		for i, l := range locs {
			end := len(src)
			if i+1 < len(locs) {
				end = locs[i+1][0]
			}
			name := src[l[2]:l[3]]
			// keep line numbers of the whole file: blank out what precedes
			body := strings.Repeat("\n", strings.Count(src[:l[1]], "\n")) + src[l[1]:end]
			cases = append(cases, testCase{name: filepath.Base(f) + "/" + name, file: f, src: body})
		}
	}
	return cases
}

type expect struct {
	line int
	col  int
	sev  string
	code string
	re   *regexp.Regexp
	hit  bool
}

var expRe = regexp.MustCompile(`// (ERROR|WARN|NOTE)\s*(C\d{4})?\s*(?:col=(\d+))?\s*"((?:[^"\\]|\\.)*)"`)

func parseExpect(t *testing.T, src string) (wants []*expect, out string, mode string) {
	mode = "check"
	var ob strings.Builder
	for i, line := range strings.Split(src, "\n") {
		if k := strings.Index(line, "// OUT:"); k >= 0 && strings.TrimSpace(line[:k]) == "" {
			s := line[k+len("// OUT:"):]
			s = strings.TrimPrefix(s, " ")
			ob.WriteString(s + "\n")
			continue
		}
		if k := strings.Index(line, "// STDERR:"); k >= 0 && strings.TrimSpace(line[:k]) == "" {
			continue // compared by TestCases (stderrOf)
		}
		if k := strings.Index(line, "// MODE:"); k >= 0 {
			mode = strings.TrimSpace(line[k+len("// MODE:"):])
			continue
		}
		for _, m := range expRe.FindAllStringSubmatch(line, -1) {
			re, err := regexp.Compile(m[4])
			if err != nil {
				t.Fatalf("line %d: bad regexp: %v", i+1, err)
			}
			e := &expect{line: i + 1, sev: m[1], code: m[2], re: re}
			if m[3] != "" {
				e.col, _ = strconv.Atoi(m[3])
			}
			wants = append(wants, e)
		}
	}
	return wants, ob.String(), mode
}

// stderrOf is the expected stderr of a case: its "// STDERR: text" lines.
func stderrOf(src string) string {
	var b strings.Builder
	for _, line := range strings.Split(src, "\n") {
		if k := strings.Index(line, "// STDERR:"); k >= 0 && strings.TrimSpace(line[:k]) == "" {
			b.WriteString(strings.TrimPrefix(line[k+len("// STDERR:"):], " ") + "\n")
		}
	}
	return b.String()
}

func run(src, name string, opts sem.Options) (string, *diag.List) {
	var diags diag.List
	f := diag.NewFile(name, []byte(src))
	prog := sem.Load(f, &diags)
	var out bytes.Buffer
	if prog != nil {
		opts.Stdout = &out
		m := sem.NewMachine(prog, opts, &diags)
		if prog.Main != nil {
			m.Run()
		} else {
			if _, err := m.RunKernelOnly(sem.KernelConfig{Grid: gpu.D1(dimOf(src, "grid")), Block: gpu.D1(dimOf(src, "block"))}); err != nil {
				diags.Errorf(diag.Pos{}, "C0310", "%v", err)
			}
		}
	}
	diags.Sort()
	return out.String(), &diags
}

var dimRe = regexp.MustCompile(`--(grid|block)Dim=(\d+)`)

func dimOf(src, which string) int {
	for _, m := range dimRe.FindAllStringSubmatch(src, -1) {
		if m[1] == which {
			n, _ := strconv.Atoi(m[2])
			return n
		}
	}
	return 1
}

func TestCases(t *testing.T) {
	for _, tc := range loadCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			wants, wantOut, mode := parseExpect(t, tc.src)
			var errOut bytes.Buffer
			out, diags := run(tc.src, tc.file, sem.Options{Check: mode == "check", Stderr: &errOut})
			if out != wantOut {
				t.Errorf("stdout:\n%s\nwant:\n%s", out, wantOut)
			}
			if want := stderrOf(tc.src); errOut.String() != want {
				t.Errorf("stderr:\n%s\nwant:\n%s", errOut.String(), want)
			}
			match := func(sev string, code string, p diag.Pos, msg string) bool {
				for _, w := range wants {
					if w.hit || w.sev != sev || w.line != p.Line() || (w.code != "" && w.code != code) {
						continue
					}
					if w.col != 0 && w.col != p.Col() {
						continue
					}
					if !w.re.MatchString(msg) {
						continue
					}
					w.hit = true
					return true
				}
				return false
			}
			for _, d := range diags.Diags {
				sev := map[diag.Severity]string{diag.Error: "ERROR", diag.Warning: "WARN"}[d.Severity]
				if sev == "" {
					continue
				}
				if !match(sev, d.Code, d.Pos, d.Message) {
					t.Errorf("unexpected %s", describe(d))
				}
				for _, n := range d.Notes {
					match("NOTE", "", n.Pos, n.Message)
				}
			}
			for _, w := range wants {
				if !w.hit {
					t.Errorf("line %d: missing %s %s col=%d %q", w.line, w.sev, w.code, w.col, w.re)
				}
			}
		})
	}
}

// TestScheduleIndependence runs every check case under random schedules:
// the set of diagnostic codes and lines must not change (issue 6 §4: a race
// must be found whatever schedule the interpreter picks).
func TestScheduleIndependence(t *testing.T) {
	for _, tc := range loadCases(t) {
		_, _, mode := parseExpect(t, tc.src)
		if mode != "check" {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			_, base := run(tc.src, tc.file, sem.Options{Check: true})
			want := codes(base)
			for seed := int64(1); seed <= 4; seed++ {
				_, d := run(tc.src, tc.file, sem.Options{Check: true, Random: true, Seed: seed})
				if got := codes(d); got != want {
					t.Errorf("seed %d: diagnostics %s, round-robin gave %s", seed, got, want)
				}
			}
		})
	}
}

// codes lists codes with the unordered pair of lines of each diagnostic and
// its first note, so that a race reported from either side compares equal.
func codes(l *diag.List) string {
	var s []string
	for _, d := range l.Diags {
		if d.Code == "C0407" {
			continue // an uninitialized read may itself depend on the schedule when it races
		}
		lines := []int{d.Pos.Line()}
		if len(d.Notes) > 0 && d.Code == "C0501" {
			lines = append(lines, d.Notes[0].Pos.Line())
		}
		sort.Ints(lines)
		s = append(s, fmt.Sprintf("%s@%v", d.Code, lines))
	}
	sort.Strings(s)
	return strings.Join(s, " ")
}

func describe(d *diag.Diagnostic) string {
	return fmt.Sprintf("%d:%d %s %s", d.Pos.Line(), d.Pos.Col(), d.Code, d.Message)
}

// FuzzCompile: no program that parses makes the compiler panic, and every
// diagnostic has a code. (Running is not fuzzed: a mutated program may
// allocate gigabytes or loop for its whole step budget, as real ones may.)
func FuzzCompile(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.cu")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, part := range caseSep.Split(string(b), -1) {
			f.Add(part)
		}
	}
	for _, ex := range []string{"reduce_cg", "cxx", "half", "intrinsics", "vector_add4"} {
		if b, err := os.ReadFile("../../../examples/cuda/" + ex + ".cu"); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		var diags diag.List
		sem.Load(diag.NewFile("f.cu", []byte(src)), &diags)
		for _, d := range diags.Diags {
			if d.Code == "" {
				t.Fatalf("diagnostic without a code: %s", d.Message)
			}
		}
	})
}
