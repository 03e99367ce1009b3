package cudagen

import (
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// timelineSites are the sync timeline arguments the mutants replace: a
// Fence's first and second, an Arrive's timeline.
var timelineSites = []*regexp.Regexp{
	regexp.MustCompile(`(Fence\()(\w+)`),
	regexp.MustCompile(`(Fence\(\w+,\s*)(\w+)`),
	regexp.MustCompile(`(Arrive\()(\w+)`),
}

// TestTimelineMutantsCheckOnlyMatchesFull extends TestCheckOnlyMatchesFull
// Build to programs whose Fence and Arrive timelines are replaced, at
// every site of a kind at once, by each sync timeline of the library: the
// code generator tests those timelines against qualitative timelines by
// bit (lib.KnownQuals, issue 13, stop 34) and rejects many of the
// mutants (TMA copies to SMEM fenced, wgmma waits by part of a
// warpgroup, arrives that cannot wait for their timeline), so the
// CheckOnly pass must report exactly the full generation's diagnostics on
// programs the generator rejects as well as on those it accepts.
func TestTimelineMutantsCheckOnlyMatchesFull(t *testing.T) {
	l := lib.MustStd()
	var tls []string
	for name := range l.Timelines {
		tls = append(tls, name)
	}
	sort.Strings(tls)
	files := repoWeftFiles()
	programs, mutants, rejected := 0, 0, 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for ci, chunk := range strings.Split(string(src), "\n---\n") {
			if !strings.Contains(chunk, "Fence(") && !strings.Contains(chunk, "Arrive(") {
				continue
			}
			programs++
			for si, site := range timelineSites {
				if !site.MatchString(chunk) {
					continue
				}
				for _, tl := range tls {
					text := site.ReplaceAllString(chunk, "${1}"+tl)
					if text == chunk {
						continue
					}
					name := fmt.Sprintf("%s#%d site %d -> %s", path, ci, si, tl)
					quick, full, ok := checkOnlyAndFull(l, name, text)
					if !ok {
						continue
					}
					mutants++
					if full != "" {
						rejected++
					}
					if quick != full {
						t.Errorf("%s: CheckOnly reports\n%s\na full build\n%s", name, quick, full)
					}
				}
			}
		}
	}
	t.Logf("%d programs, %d timeline mutants, %d the generator rejects", programs, mutants, rejected)
	if programs < 100 || mutants < 3000 || rejected < 1000 {
		t.Errorf("the comparison exercised too little")
	}
}

// checkOnlyAndFull is the generator's diagnostics on text under CheckOnly
// (as weft check runs it) and in a full generation (as weft build runs
// it); ok is false when text does not parse.
func checkOnlyAndFull(l *lib.Library, name, text string) (quick, full string, ok bool) {
	var perrs diag.List
	f := syntax.Parse(diag.NewFile(name, []byte(text)), &perrs)
	if perrs.HasErrors() {
		return "", "", false
	}
	var cerrs diag.List
	prog := check.Check(f, l, &cerrs)
	gpu := gpucheck.Check(f, gpucheck.Options{Lib: l, Prog: prog}, &cerrs)
	return generateDiags(f, l, Options{CheckOnly: true, Prog: prog, GPU: gpu}), generateDiags(f, l, Options{Prog: prog}), true
}
