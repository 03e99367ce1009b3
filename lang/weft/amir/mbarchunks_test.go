package amir_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"weft.dev/weft/frontend"
	_ "weft.dev/weft/lang/weft/driver"
)

// mbarChunk is one chunk of a program that uses mbarriers, written to a
// file of its own, with the sizes of its `# check:` line.
type mbarChunk struct {
	src  string // the file it comes from
	i    int    // its index among the file's '---'-separated chunks
	path string
	args []string
}

// mbarChunks writes every chunk of the sync checker's mbarrier and TMA
// testdata (correct programs and the reference's bug variants) and of the
// examples that use mbarriers to files in a temporary directory: the
// corpus of the hardware mbarrier model's differential tests
// (TestHWUniformMatchesPlain, TestHWStaleMatchesReplayed).
func mbarChunks(t *testing.T) []mbarChunk {
	t.Helper()
	files, _ := filepath.Glob("../syncheck/testdata/*.weft")
	ex, _ := filepath.Glob("../../../examples/weft/*/*.weft")
	files = append(files, ex...)
	sizeLine := regexp.MustCompile(`(?m)^# check: (.*)$`)
	dir := t.TempDir()
	var cs []mbarChunk
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(src, []byte("Mbarrier")) && !bytes.Contains(src, []byte("barrier[")) {
			continue
		}
		for i, chunk := range strings.Split(string(src), "\n---\n") {
			c := mbarChunk{src: f, i: i, path: filepath.Join(dir, filepath.Base(f)+"."+string(rune('a'+i))+".weft")}
			if m := sizeLine.FindStringSubmatch(chunk); m != nil {
				c.args = strings.Fields(m[1])
			}
			if err := os.WriteFile(c.path, []byte(chunk), 0o644); err != nil {
				t.Fatal(err)
			}
			cs = append(cs, c)
		}
	}
	return cs
}

// checkJSON is `weft check --json` of c: its stdout and stderr.
func (c mbarChunk) checkJSON() string {
	var out, errb bytes.Buffer
	env := &frontend.Env{Stdout: &out, Stderr: &errb, Stdin: bytes.NewReader(nil)}
	frontend.ForExt(".weft").Check(env, append([]string{c.path, "--json"}, c.args...))
	return out.String() + errb.String()
}
