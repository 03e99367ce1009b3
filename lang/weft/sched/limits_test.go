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
			"s.star:3:11", "schedule script: concatenating two values of 1048576 and 1048576 elements would take about 33554432 bytes, more than the script's memory limit of 16777216 bytes (--script-memory raises it)"},
		{"repeat", "x = 1\ny = [0] * 1000000000\n", Options{},
			"s.star:2:9", "schedule script: repeating a list of 1 elements 1000000000 times would take about 16000000000 bytes, more than the script's memory limit of 268435456 bytes (--script-memory raises it)"},
		{"repeat-str", "y = 3 * 'ab'\ny = y * (1 << 40)\n", Options{},
			"s.star:2:7", "schedule script: repeating a string of 6 elements 1099511627776 times would take about 6597069766656 bytes, more than the script's memory limit of 268435456 bytes (--script-memory raises it)"},
		{"augmented", "x = [0, 1]\nx *= 100000000\n", Options{},
			"s.star:2:3", "schedule script: repeating a list of 2 elements 100000000 times would take about 3200000000 bytes, more than the script's memory limit of 268435456 bytes (--script-memory raises it)"},
		{"bigint", "x = 3\nfor i in range(40):\n    x = x * x\n", Options{},
			"s.star:3:11", "schedule script: an integer product of 13295630 bits exceeds the script's limit of 8388608 bits for one integer (1/32 of its memory limit; --script-memory raises it)"},
		{"range", "def f(n):\n    return sorted(range(n))\nf(1 << 30)\n", Options{},
			"s.star:2:19", "schedule script: materializing a range of 1073741824 elements would take about 17179869184 bytes, more than the script's memory limit of 268435456 bytes (--script-memory raises it)"},
		{"int", "x = int('12') + int('7', base = 8)\nx = int('9' * 2000000)\n", Options{},
			"s.star:2:5", "schedule script: int() of a string of 2000000 characters exceeds the script's limit of 1048576 characters (1/256 of its memory limit; --script-memory raises it)"},
		{"extend", "x = [0]\nfor i in range(40):\n    x.extend(x)\n", Options{MaxMemory: 16 << 20},
			"s.star:3:5", "schedule script: Starlark computation cancelled: the script allocated more than its memory limit of 16777216 bytes (--script-memory raises it)"},
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
		// Doubling a list is stopped by whichever limit sees it first: the
		// guard of the concatenation or the heap watcher (both at the +).
		const watched = "schedule script: Starlark computation cancelled: the script allocated more than its memory limit of 16777216 bytes (--script-memory raises it)"
		msgOK := d.Message == c.msg || c.name == "memory" && d.Message == watched
		if d.Code != CodeScript || !msgOK || (c.name != "time" && d.Pos.String() != c.pos) {
			t.Errorf("%s: got %s %v %q", c.name, d.Code, d.Pos, d.Message)
		}
	}
}
