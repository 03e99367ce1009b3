package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestDemoPrerequisites: scripts/demo.sh checks README's prerequisites
// first and names every missing one, with exit status 2, before it builds
// or installs anything (issue 14, "First run").
func TestDemoPrerequisites(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dirname, err := exec.LookPath("dirname")
	if err != nil {
		t.Skip("no dirname")
	}
	// A PATH with bash and dirname only: no go, python3, gcc or g++.
	bin := t.TempDir()
	for _, p := range []string{bash, dirname} {
		if err := os.Symlink(p, filepath.Join(bin, filepath.Base(p))); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bash, "../../scripts/demo.sh")
	cmd.Env = []string{"PATH=" + bin, "HOME=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 {
		t.Fatalf("demo.sh: %v, want exit status 2\n%s", err, out)
	}
	// Exactly this line: nothing was built or installed ("== go build").
	want := "demo.sh: missing prerequisites: go python3 gcc g++ pip(python3 -m pip) (README.md, Prerequisites)\n"
	if string(out) != want {
		t.Fatalf("demo.sh printed %q, want %q", out, want)
	}
}
