package amir_test

import (
	"testing"

	"weft.dev/weft/lang/weft/amir"
	_ "weft.dev/weft/lang/weft/driver"
)

// TestHWUniformMatchesPlain: hwUniform, which fuses the hardware
// mbarrier model's uniformity test with the replay (stop 28, issue 13),
// gives the same `weft check --json` output as the plain test-then-apply
// loop it was written from, on every chunk of the sync checker's mbarrier
// and TMA testdata (correct programs and the reference's bug variants:
// phase aliasing, wrong boxes, pitches, offsets, duplicate awaits) and
// of the examples that use mbarriers (the Hopper GEMMs with their
// proxy fences), at the sizes their `# check:` lines give.
func TestHWUniformMatchesPlain(t *testing.T) {
	// The ordered-after clocks (stop 30) pass most checks without
	// hwUniform: off here, so that every check replays.
	amir.HWNoClock(true)
	defer amir.HWNoClock(false)
	chunks, calls := 0, 0
	for _, c := range mbarChunks(t) {
		amir.HWUniformPlain(false)
		fused := c.checkJSON()
		n := amir.HWUniformPlain(true)
		plain := c.checkJSON()
		amir.HWUniformPlain(false)
		if fused != plain {
			t.Errorf("%s chunk %d: fused hwUniform:\n%s\nplain:\n%s", c.src, c.i, fused, plain)
		}
		chunks++
		calls += *n
	}
	t.Logf("%d chunks, %d hwUniform calls compared", chunks, calls)
	if chunks < 20 || calls < 1000 {
		t.Fatalf("weak coverage: %d chunks, %d hwUniform calls", chunks, calls)
	}
}
