package sem

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"weft.dev/weft/diag"
)

// TestSegmentGC runs the race and memory cases with the segment table
// collected at every new segment (race.go gcSegs), and with an object's
// granule forced to split on its second access, and requires the very
// diagnostics of a normal run: the compact shadow must not change a verdict.
func TestSegmentGC(t *testing.T) {
	sep := regexp.MustCompile(`(?m)^// ---- .*$`)
	gcs, races := uint32(0), 0
	for _, file := range []string{"testdata/races.cu", "testdata/memory.cu", "testdata/paper.cu", "testdata/cuda.cu"} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for i, part := range sep.Split(string(src), -1) {
			if strings.TrimSpace(part) == "" {
				continue
			}
			run := func(gcAt int) string {
				var diags diag.List
				prog := Load(diag.NewFile(file, []byte(part)), &diags)
				if prog == nil || prog.Main == nil {
					return ""
				}
				m := NewMachine(prog, Options{Check: true}, &diags)
				if gcAt > 0 {
					m.segGCAt = gcAt
					m.segGCMin = gcAt
				}
				m.Run()
				if gcAt > 0 {
					gcs += m.segGen - 1
				}
				var b strings.Builder
				for _, d := range diags.Diags {
					if d.Code == "C0501" && gcAt > 0 {
						races++
					}
					b.WriteString(d.Code + " " + d.Pos.String() + " " + d.Message + "\n")
					for _, n := range d.Notes {
						b.WriteString("  " + n.Pos.String() + " " + n.Message + "\n")
					}
				}
				return b.String()
			}
			if want, got := run(0), run(1); got != want {
				t.Errorf("%s part %d: with collections:\n%s\nwant:\n%s", file, i, got, want)
			}
		}
	}
	if gcs < 100 || races < 5 {
		t.Errorf("%d collections and %d races: the test does not exercise the collector", gcs, races)
	}
	t.Logf("%d collections, %d races", gcs, races)
}
