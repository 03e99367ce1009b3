package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
)

// TestRun: a short run prints one positive integer (millions of steps a
// CPU second); bad arguments print the usage and exit 2, never NaN.
func TestRun(t *testing.T) {
	var out, errb bytes.Buffer
	if rc := run([]string{"-cpu", "20ms"}, &out, &errb); rc != 0 {
		t.Fatalf("rc %d, stderr %q", rc, errb.String())
	}
	v, err := strconv.Atoi(strings.TrimSpace(out.String()))
	if err != nil || v <= 0 {
		t.Fatalf("output %q: want one positive integer", out.String())
	}
	for _, args := range [][]string{{"-cpu", "0"}, {"-cpu", "-1s"}, {"extra"}, {"-cpu", "x"}} {
		out.Reset()
		errb.Reset()
		if rc := run(args, &out, &errb); rc != 2 || out.Len() != 0 || errb.Len() == 0 {
			t.Errorf("%q: rc %d, stdout %q, stderr %q; want 2, nothing, a message", args, rc, out.String(), errb.String())
		}
	}
	errb.Reset()
	run([]string{"-cpu", "0"}, &out, &errb)
	if got := errb.String(); got != "usage: calib [-cpu D] (D > 0, e.g. 300ms)\n" {
		t.Errorf("usage = %q", got)
	}
}
