package validate_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/cuda"
	"weft.dev/weft/frontend"
	"weft.dev/weft/validate"
)

// TestGPUBuild runs --gpu where CI runs it, without a GPU: the semantics'
// verdict is unchanged, the generated program (a Weft build with its host
// C, a Prism build) compiles with nvcc into build/gpu.bin, and a "gpu:"
// verdict line follows: a match on a machine with a GPU, else the
// program's failure to find one. The GPU comparison itself was run on an
// H100 (docs/validate.md, "On a GPU").
func TestGPUBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: nvcc builds")
	}
	if cuda.FindNVCC() == "" {
		if os.Getenv("WEFT_REQUIRE_NVCC") == "1" {
			t.Fatal("nvcc not found and WEFT_REQUIRE_NVCC=1")
		}
		t.Skip("nvcc not found")
	}
	for _, c := range []struct {
		args  []string
		first string
		bin   string
	}{
		{[]string{ex + "weft/vector_add.weft"}, "vector_add: match (X bit for bit, Y bit for bit; no race or deadlock)", "vector_add.0/build/gpu.bin"},
		{[]string{ex + "prism/fig2_mma.prism", "--arg", "out=zeros:128"}, "fig2_mma: match (1 lines of printed outputs; no race or deadlock)", "build/gpu.bin"},
	} {
		dir := t.TempDir()
		var out, errb bytes.Buffer
		validate.Main(&frontend.Env{Stdout: &out, Stderr: &errb}, append(c.args, "--gpu", "--keep", dir))
		lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
		if lines[0] != c.first {
			t.Errorf("%s: first line %q, want %q\n%s%s", c.args[0], lines[0], c.first, out.String(), errb.String())
		}
		if _, err := os.Stat(filepath.Join(dir, c.bin)); err != nil {
			t.Errorf("%s: nvcc wrote no %s: %v\n%s", c.args[0], c.bin, err, out.String())
		}
		name := strings.SplitN(c.first, ":", 2)[0]
		if len(lines) < 2 || !(strings.HasPrefix(lines[1], name+": gpu: match (") || strings.HasPrefix(lines[1], name+": gpu: the program failed")) {
			t.Errorf("%s: want a gpu: verdict after the semantics' line\n%s", c.args[0], out.String())
		}
	}
}
