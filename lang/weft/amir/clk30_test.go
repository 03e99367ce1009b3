package amir_test

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/weft/amir"
)

// countVariant rewrites a ringsVariant program's Await counts (the third
// argument, the Max that mbar_clock.go's Await step compares the cells'
// entries against) and Arrive counts at random, one statement at a time,
// so that the clocks' count test (docs/weft-sync.md mut30, C3) meets
// entries with a count just above, at and below an Await's Max.
func countVariant(rng *rand.Rand, src string) string {
	var b strings.Builder
	for _, ln := range strings.SplitAfter(src, "\n") {
		switch {
		case strings.Contains(ln, "Await(") && strings.Contains(ln, "cuda_in_order, 0)"):
			ln = strings.Replace(ln, "cuda_in_order, 0)", fmt.Sprintf("cuda_in_order, %d)", rng.Intn(3)), 1)
		case strings.Contains(ln, "Arrive(cuda_in_order, 1)"):
			ln = strings.Replace(ln, "Arrive(cuda_in_order, 1)", fmt.Sprintf("Arrive(cuda_in_order, %d)", 1+rng.Intn(2)), 1)
		}
		b.WriteString(ln)
	}
	return b.String()
}

// TestClk30Counts (stop 30, clk30): `weft check --json` with and without
// the ordered-after clocks on ringsVariant programs with other Await and
// Arrive counts (countVariant). CLK30_N sets the variants (default 80).
func TestClk30Counts(t *testing.T) {
	defer amir.HWNoClock(false)
	defer amir.HWNoStale(false)
	n := 80
	if s := os.Getenv("CLK30_N"); s != "" {
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
	rng := rand.New(rand.NewSource(3030))
	hits := 0
	for i := 0; i < n; i++ {
		src, args := ringsVariant(rng)
		src = countVariant(rng, src)
		if i%2 == 0 {
			src = clockVariant(rng, src)
		}
		path := filepath.Join(dir, fmt.Sprintf("c%d.weft", i))
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		h := amir.HWNoClock(false)
		clocks := run(path, args)
		hits += *h
		amir.HWNoClock(true)
		plain := run(path, args)
		if clocks != plain {
			t.Fatalf("variant %d:\n%s\nwith clocks:\n%s\nwithout:\n%s", i, src, clocks, plain)
		}
	}
	t.Logf("%d variants, %d checks answered by the clocks", n, hits)
	if hits == 0 {
		t.Fatal("weak coverage: no check answered by the clocks")
	}
}
