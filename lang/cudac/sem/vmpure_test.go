package sem

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"weft.dev/weft/diag"
)

// TestPureSame runs programs three ways: every instruction in runN's loop
// (pureOff), runPure on the plain code (fuseOff), and runPure on the fused
// code; the step counts, the output and the diagnostics must be the same
// (issue 15 item 7: the fast paths change no schedule and no result).
func TestPureSame(t *testing.T) {
	files, _ := filepath.Glob("../../../examples/cuda/*.cu")
	files = append(files, "testdata/bench/reduce.cu", "testdata/bench/broadcast.cu")
	ran := 0
	defer func() { pureOff, fuseOff = false, false }()
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var ld diag.List
		prog := Load(diag.NewFile(path, src), &ld)
		if prog == nil || prog.Main == nil {
			continue // kernel-only files run under the driver's search
		}
		ran++
		for _, check := range []bool{false, true} {
			type result struct {
				steps uint64
				out   string
				diags string
			}
			var want result
			for k, mode := range [][2]bool{{true, true}, {false, true}, {false, false}} {
				pureOff, fuseOff = mode[0], mode[1]
				var out bytes.Buffer
				var diags diag.List
				m := NewMachine(prog, Options{Stdout: &out, Check: check}, &diags)
				m.Run()
				var d bytes.Buffer
				for _, x := range diags.Diags {
					d.WriteString(x.Error() + "\n")
				}
				got := result{m.Steps(), out.String(), d.String()}
				if k == 0 {
					want = got
					continue
				}
				if got != want {
					t.Errorf("%s check=%v mode %v: steps %d, output %q, diagnostics %q; want %d, %q, %q", path, check, mode, got.steps, got.out, got.diags, want.steps, want.out, want.diags)
				}
			}
		}
	}
	if ran < 20 {
		t.Fatalf("only %d programs ran", ran)
	}
}
