package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestProgressOnTerminal: a run longer than about 2 s shows a progress line
// on stderr when stderr is a terminal, and erases it before the
// diagnostics (issue 14, "Long runs print nothing"). The terminal is the
// pseudo-terminal of script(1).
func TestProgressOnTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("takes 3 s")
	}
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script(1) to give weft a terminal")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// testscript.Main runs the test binary as weft when it is called so.
	if err := os.Symlink(exe, filepath.Join(dir, "weft")); err != nil {
		t.Fatal(err)
	}
	src := "@prism(\"global\")\n@requires(grid[1], block[1], thread[32])\ndef spin(out : ptr(float) @ grid[1]):\n" +
		"    with group(thread[1]):\n        x : int @ thread[1] = 0\n        while x < 1:\n            x = x * 1\n"
	if err := os.WriteFile(filepath.Join(dir, "spin.prism"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(script, "-qec", "./weft run spin.prism --arg out=zeros:32 --timeout 3s", "/dev/null")
	cmd.Dir = dir
	out, _ := cmd.CombinedOutput()
	s := string(out)
	line := "\rweft run spin.prism: running for 2s (Ctrl-C stops it)"
	i, j := strings.Index(s, line), strings.Index(s, "spin.prism:7:13: error[P0305]")
	erase := "\r" + strings.Repeat(" ", len(line)-1) + "\r"
	if i < 0 || j < i || !strings.Contains(s[i:j], erase) {
		t.Fatalf("want the progress line, erased, then the diagnostic; got %q", s)
	}
}
