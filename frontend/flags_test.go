package frontend

import (
	"bytes"
	"flag"
	"reflect"
	"strings"
	"testing"
)

func newFS(out *bytes.Buffer) (*flag.FlagSet, *int, *bool) {
	fs := flag.NewFlagSet("weft check", flag.ContinueOnError)
	fs.SetOutput(out)
	n := fs.Int("max-steps", 0, "stop after N steps")
	j := fs.Bool("json", false, "diagnostics as JSON")
	return fs, n, j
}

// Flags may come before or after the file, in -flag or --flag spelling.
func TestParseArgsPositions(t *testing.T) {
	var out bytes.Buffer
	fs, n, j := newFS(&out)
	pos, err := ParseArgs(fs, []string{"--json", "a.weft", "-max-steps", "7", "N=4"}, " .weft")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(pos, []string{"a.weft", "N=4"}) || *n != 7 || !*j {
		t.Fatalf("pos=%q n=%d json=%v", pos, *n, *j)
	}
}

// A bad flag is one line that points at the verb's help.
func TestParseArgsErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"a.weft", "--bogus"}, "weft: check: unknown flag --bogus (weft help check .weft lists the flags)\n"},
		{[]string{"--max-steps"}, "weft: check: flag --max-steps needs a value (weft help check .weft lists the flags)\n"},
		{[]string{"--max-steps=x"}, "weft: check: invalid value \"x\" for --max-steps (weft help check .weft lists the flags)\n"},
	} {
		var out bytes.Buffer
		fs, _, _ := newFS(&out)
		if _, err := ParseArgs(fs, c.args, " .weft"); err == nil {
			t.Errorf("%q: no error", c.args)
		}
		if out.String() != c.want {
			t.Errorf("%q:\n got %q\nwant %q", c.args, out.String(), c.want)
		}
	}
}

// --help lists the declared flags in the common layout.
func TestWriteFlags(t *testing.T) {
	var out bytes.Buffer
	fs, _, _ := newFS(&out)
	if _, err := ParseArgs(fs, []string{"--help"}, " .weft"); err != flag.ErrHelp {
		t.Fatalf("err = %v", err)
	}
	got := out.String()
	for _, want := range []string{
		"  --json                diagnostics as JSON\n",
		"  --max-steps N         stop after N steps\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("help lacks %q:\n%s", want, got)
		}
	}
}
