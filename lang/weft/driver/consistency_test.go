package driver

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/weft/cudagen"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// The programs the code generator is tested on (its golden files and nvcc
// compiles) and the examples were written next to the checkers; this test
// keeps them consistent: every one passes `weft check` (collective
// analysis, distributed memory analysis, and the sync check at each of its
// `# check:` sizes), so generated code is only ever tested for programs
// the checkers accept, and every program it accepts must generate code. A
// program that must be rejected says so with a
// `# rejected: W0305 W0313` line, and then must fail with exactly those
// codes.
//
// lang/weft/cudagen/testdata/lower holds chunked fragments for single
// lowering rules (many deliberately invalid), not programs; they are not
// covered here.
var checkedPrograms = []string{examples, "../cudagen/testdata"}

var (
	rejectedLine = regexp.MustCompile(`(?m)^# rejected:((?:\s+W\d{4})+)\s*$`)
	errorCode    = regexp.MustCompile(`error\[(W\d{4})\]`)
)

func programFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, root := range checkedPrograms {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if path != root && filepath.Base(path) == "lower" {
					return filepath.SkipDir
				}
				if path != root && filepath.Dir(path) == filepath.Clean("../cudagen/testdata") {
					return filepath.SkipDir // fuzz corpora, golden examples
				}
				return nil
			}
			if strings.HasSuffix(path, ".weft") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(files)
	return files
}

func TestEveryProgramChecks(t *testing.T) {
	files := programFiles(t)
	if len(files) < 20 {
		t.Fatalf("found %d programs, want at least 20", len(files))
	}
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		if m := rejectedLine.FindStringSubmatch(string(src)); m != nil {
			want = strings.Fields(m[1])
			sort.Strings(want)
		}
		// A program with size parameters names the sizes its sync check
		// runs at; without them weft check would skip the sync check.
		if !strings.Contains(string(src), "\n# check:") && !strings.HasPrefix(string(src), "# check:") && hasSizeParams(path, src) {
			t.Errorf("%s: has size parameters but no \"# check: NAME=VALUE ...\" line, so weft check does not run its sync check", path)
		}
		var stdout, stderr bytes.Buffer
		env := &frontend.Env{Stdout: &stdout, Stderr: &stderr}
		rc := checkVerb(env, []string{path})
		got := map[string]bool{}
		for _, m := range errorCode.FindAllStringSubmatch(stderr.String(), -1) {
			got[m[1]] = true
		}
		var codes []string
		for c := range got {
			codes = append(codes, c)
		}
		sort.Strings(codes)
		switch {
		case want == nil && rc != 0:
			t.Errorf("weft check %s: exit %d, want 0 (or mark the file \"# rejected: CODES\" if the seed rejects it)\n%s", path, rc, stderr.String())
		case want != nil && rc != 1:
			t.Errorf("weft check %s: exit %d, want 1 with %v\n%s", path, rc, want, stderr.String())
		case want != nil && strings.Join(codes, " ") != strings.Join(want, " "):
			t.Errorf("weft check %s: codes %v, want %v\n%s", path, codes, want, stderr.String())
		case want == nil:
			// What the checkers accept, the generator lowers (weft build
			// runs the same checks first): no generator diagnostics.
			var errs diag.List
			f := syntax.Parse(diag.NewFile(path, src), &errs)
			if _, crash := generate(f, lib.MustStd(), cudagen.Options{Harness: true}, &errs); crash != nil || errs.HasErrors() {
				t.Errorf("weft build %s: the program passes weft check but code generation fails: %v %v", path, crash, errs.Err())
			}
		}
	}
}

// hasSizeParams reports whether a proc of the file (not an instruction)
// takes a size parameter.
func hasSizeParams(path string, src []byte) bool {
	var errs diag.List
	f := syntax.Parse(diag.NewFile(path, src), &errs)
	for _, d := range f.Decls {
		p, ok := d.(*syntax.Proc)
		if !ok || len(p.Decorators) > 0 && !isProcDeco(p) {
			continue
		}
		for _, prm := range p.Params {
			if prm.Type != nil && prm.Type.Elem != nil && prm.Type.Elem.Name == "size" && len(prm.Type.Dims) == 0 {
				return true
			}
		}
	}
	return false
}

func isProcDeco(p *syntax.Proc) bool {
	for _, d := range p.Decorators {
		if n, ok := d.(*syntax.Name); ok && n.Name == "proc" {
			return true
		}
	}
	return false
}
