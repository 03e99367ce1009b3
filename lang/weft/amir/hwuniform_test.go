package amir_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/weft/amir"
	_ "weft.dev/weft/lang/weft/driver"
)

// TestHWUniformMatchesPlain: hwUniform, which fuses the hardware
// mbarrier model's uniformity test with the replay (stop 28, issue 13),
// gives the same `weft check --json` output as the plain test-then-apply
// loop it was written from, on every chunk of the sync checker's mbarrier
// and TMA testdata (correct programs and the reference's bug variants:
// phase aliasing, wrong boxes, pitches, offsets, duplicate awaits) and
// of the examples that use mbarriers (the Hopper GEMMs with their
// proxy fences), at the sizes their `# check:` lines give.
func TestHWUniformMatchesPlain(t *testing.T) {
	files, _ := filepath.Glob("../syncheck/testdata/*.weft")
	ex, _ := filepath.Glob("../../../examples/weft/*/*.weft")
	files = append(files, ex...)
	sizeLine := regexp.MustCompile(`(?m)^# check: (.*)$`)
	dir := t.TempDir()
	fe := frontend.ForExt(".weft")
	run := func(path string, args []string) string {
		var out, errb bytes.Buffer
		env := &frontend.Env{Stdout: &out, Stderr: &errb, Stdin: bytes.NewReader(nil)}
		fe.Check(env, append([]string{path, "--json"}, args...))
		return out.String() + errb.String()
	}
	chunks, calls := 0, 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(src, []byte("Mbarrier")) && !bytes.Contains(src, []byte("barrier[")) {
			continue
		}
		for i, chunk := range strings.Split(string(src), "\n---\n") {
			var args []string
			if m := sizeLine.FindStringSubmatch(chunk); m != nil {
				args = strings.Fields(m[1])
			}
			path := filepath.Join(dir, filepath.Base(f)+"."+string(rune('a'+i))+".weft")
			if err := os.WriteFile(path, []byte(chunk), 0o644); err != nil {
				t.Fatal(err)
			}
			amir.HWUniformPlain(false)
			fused := run(path, args)
			n := amir.HWUniformPlain(true)
			plain := run(path, args)
			amir.HWUniformPlain(false)
			if fused != plain {
				t.Errorf("%s chunk %d: fused hwUniform:\n%s\nplain:\n%s", f, i, fused, plain)
			}
			chunks++
			calls += *n
		}
	}
	t.Logf("%d chunks, %d hwUniform calls compared", chunks, calls)
	if chunks < 20 || calls < 1000 {
		t.Fatalf("weak coverage: %d chunks, %d hwUniform calls", chunks, calls)
	}
}
