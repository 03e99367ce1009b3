package amir_test

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/weft/amir"
)

// TestMut30ClockRingsSeeds (stop 30, mut30): TestHWClockRingsRandom's
// comparison of `weft check --json` with and without the ordered-after
// clocks (mbar_clock.go) on other seeds of ringsVariant/clockVariant.
// MUT30_CLOCK_N sets the variants per seed (default 60; the mutant runs
// of docs/weft-sync.md "stop 30: mutants of the new fast paths" used
// 1 000).
func TestMut30ClockRingsSeeds(t *testing.T) {
	defer amir.HWNoClock(false)
	defer amir.HWNoStale(false)
	n := 60
	if s := os.Getenv("MUT30_CLOCK_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	dir := t.TempDir()
	fe := frontend.ForExt(".weft")
	run := func(path string, args []string) string {
		var out, errb bytes.Buffer
		env := &frontend.Env{Stdout: &out, Stderr: &errb, Stdin: bytes.NewReader(nil)}
		fe.Check(env, append([]string{path, "--json"}, args...))
		return out.String() + errb.String()
	}
	for _, seed := range []int64{3001, 3002} {
		rng := rand.New(rand.NewSource(seed))
		for i := 0; i < n; i++ {
			src, args := ringsVariant(rng)
			src = clockVariant(rng, src)
			path := filepath.Join(dir, fmt.Sprintf("rings%d_%d.weft", seed, i))
			if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
			amir.HWNoStale(i%2 == 1)
			amir.HWNoClock(false)
			clocks := run(path, args)
			amir.HWNoClock(true)
			plain := run(path, args)
			if clocks != plain {
				t.Fatalf("seed %d variant %d:\n%s\nwith clocks:\n%s\nwithout:\n%s", seed, i, src, clocks, plain)
			}
		}
	}
}
