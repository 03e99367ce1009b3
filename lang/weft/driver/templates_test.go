package driver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/syntax"
)

// TestTemplateProblem: templates that are not C++ are named; C++ ones,
// asm statements included, pass (issue 14).
func TestTemplateProblem(t *testing.T) {
	for tmpl, want := range map[string]string{
		"weft::cp_async<{4 * size}>({smem}, {gmem});":        "",
		`asm volatile("cp.async.wait_all;" ::: "memory");`:   "",
		"{dst} = {a} + {b};":                                 "",
		"{dst}.x = 1; // a comment":                          "",
		"x.y = 3;":                                           "",
		"printf(\"// not a comment %d\\n\", {n});":           "",
		"cp.async.ca.shared.global [{smem}], [{gmem}], 4;":   "is PTX text (cp.async.ca.shared.global ...), not C++",
		"bar.sync 0;":                                        "is PTX text (bar.sync ...), not C++",
		"mma.sync.aligned.m16n8k8.row.col.f32.tf32 {d}, {a}": "is PTX text (mma.sync.aligned.m16n8k8.row.col.f32.tf32 ...), not C++",
		"// cp.async.wait_all":                               "has no code (only comments or blanks)",
		"  /* nothing */ ; ":                                 "has no code (only comments or blanks)",
		"":                                                   "has no code (only comments or blanks)",
	} {
		got := templateProblem(tmpl)
		if want == "" && got != "" || want != "" && !strings.HasPrefix(got, want) {
			t.Errorf("templateProblem(%q) = %q, want prefix %q", tmpl, got, want)
		}
	}
}

// TestTemplatesOfExamples: every instruction template in the examples, the
// test data and the standard library is C++.
func TestTemplatesOfExamples(t *testing.T) {
	n := 0
	for _, root := range []string{"../../../examples", "../lib", "../cudagen/testdata", "../../../cmd/weft/testdata"} {
		filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || !strings.HasSuffix(path, ".weft") {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var perrs, errs diag.List
			f := syntax.Parse(diag.NewFile(path, src), &perrs)
			if perrs.HasErrors() {
				return nil // test data of parser errors
			}
			checkTemplates(f, &errs)
			for _, d := range errs.Diags {
				t.Errorf("%v", d)
			}
			n++
			return nil
		})
	}
	if n < 30 {
		t.Fatalf("scanned %d files", n)
	}
}
