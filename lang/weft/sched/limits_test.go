package sched

import (
	"testing"
	"time"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
)

// TestScriptLimits: a script that outgrows its memory or time limit, and
// one with a NUL byte, end with one W0950 error in the script naming the
// limit's flag (issue 14), instead of running out of memory, running for
// minutes, or ignoring the rest of the file.
func TestScriptLimits(t *testing.T) {
	in := parseChecked(t, "p.weft", []byte(patternSrc))
	for _, c := range []struct {
		name, script string
		opts         Options
		pos, msg     string
	}{
		{"memory", "x = [0]\nfor i in range(40):\n    x = x + x\n", Options{MaxMemory: 16 << 20},
			"s.star:3:11", "schedule script: Starlark computation cancelled: the script allocated more than its memory limit of 16777216 bytes (--script-memory raises it)"},
		{"time", "while True:\n    pass\n", Options{Timeout: 50 * time.Millisecond, MaxSteps: 1 << 62},
			"s.star:1:1", "schedule script: Starlark computation cancelled: the script ran longer than its time limit of 50ms (--script-timeout raises it)"},
		{"nul", "print(1)\n\x00\nfail(2)\n", Options{},
			"s.star:2:1", "schedule script: NUL byte (the rest of the file would be ignored; is this a text file?)"},
	} {
		var errs diag.List
		c.opts.Lib = lib.MustStd()
		Run(in, diag.NewFile("s.star", []byte(c.script)), c.opts, &errs)
		if errs.Len() != 1 {
			t.Errorf("%s: %v", c.name, errs.Err())
			continue
		}
		d := errs.Diags[0]
		if d.Code != CodeScript || d.Message != c.msg || (c.name != "time" && d.Pos.String() != c.pos) {
			t.Errorf("%s: got %s %v %q", c.name, d.Code, d.Pos, d.Message)
		}
	}
}
