package frontend

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestProgress: on a terminal, a run longer than the delay shows a line
// saying what runs, erased at the end; a short run, or stderr that is not
// a terminal, prints nothing.
func TestProgress(t *testing.T) {
	old := progressDelay
	progressDelay = 20 * time.Millisecond
	defer func() { progressDelay = old }()
	var buf bytes.Buffer
	stop := Progress(&Env{Stderr: &buf, StderrIsTerminal: true}, "weft run k.cu")
	time.Sleep(60 * time.Millisecond)
	stop()
	out := buf.String()
	line := "weft run k.cu: running for 0s (Ctrl-C stops it)"
	if !strings.HasPrefix(out, "\r"+line) || !strings.HasSuffix(out, "\r"+strings.Repeat(" ", len(line))+"\r") {
		t.Errorf("terminal output %q", out)
	}
	buf.Reset()
	Progress(&Env{Stderr: &buf, StderrIsTerminal: true}, "quick")()
	Progress(&Env{Stderr: &buf}, "not a terminal")()
	if buf.Len() != 0 {
		t.Errorf("printed %q", buf.String())
	}
}
