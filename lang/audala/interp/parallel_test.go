package interp

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"weft.dev/weft/lang/audala/initfile"
)

// The parts of a run that used to be serial and are now shared by the
// workers (issue 17): loading the .init columns in segments, formatting a
// large print in windows of segments. Their output must be the same as
// one worker's, byte for byte, across segment and window boundaries.

// parallelSrc reads a and writes b of every instance (own accesses, and
// under lockstep a buffered column), then prints: n = 70,001 spans several
// load segments (65,536 cells) and print windows (8 segments of 4,096
// instances with 2 workers, 16 with 4).
const parallelSrc = `struct P(a: Int, b: Int, q: P) {
  s { b := a + b + q.a; }
}
s < P.print
`

func TestParallelLoadAndPrint(t *testing.T) {
	const n = 70_001
	prog := compileSrc(t, parallelSrc)
	a, b, q := make([]int32, n), make([]int32, n), make([]int32, n)
	var want strings.Builder
	for i := range a {
		a[i], b[i], q[i] = int32(i%1000-500), int32(-3*i), int32((i*7)%n+1)
	}
	for i := range a {
		fmt.Fprintf(&want, "P(%d): a=%d, b=%d, q=%d\n", i+1, a[i], a[i]+b[i]+a[q[i]-1], q[i])
	}
	data := &initfile.Data{Counts: []int{n}, Cols: [][][]int32{{a, b, q}}}
	for _, c := range []config{{Relaxed, 1, false}, {Relaxed, 2, false}, {Strict, 2, false}, {Strict, 4, false}, {Relaxed, 1, true}, {Relaxed, 2, true}, {Relaxed, 3, true}} {
		var out bytes.Buffer
		opt := c.options()
		opt.Out = &out
		m := New(prog, data, opt)
		if err := m.Run(); err != nil {
			t.Fatalf("%v: %v", c, err)
		}
		if got := out.String(); got != want.String() {
			i := 0
			for i < len(got) && i < len(want.String()) && got[i] == want.String()[i] {
				i++
			}
			t.Fatalf("%v: output differs at byte %d of %d (got %d bytes)", c, i, want.Len(), len(got))
		}
	}
}

// TestStatsProfile: the --profile accounting. One worker: the step over
// 70,001 instances, the print's formatting and the load are parallel work
// (one step, ParallelSteps 1), Busy equals Parallel, and the serial
// remainder is what Load+Wall leaves. A small run has no parallel part.
func TestStatsProfile(t *testing.T) {
	const n = 70_001
	prog := compileSrc(t, parallelSrc)
	cols := [][]int32{make([]int32, n), make([]int32, n), make([]int32, n)}
	data := &initfile.Data{Counts: []int{n}, Cols: [][][]int32{cols}}
	for _, workers := range []int{1, 2} {
		m := New(prog, data, Options{Workers: workers})
		if err := m.Run(); err != nil {
			t.Fatal(err)
		}
		st := m.Stats
		if st.Steps != 1 || st.ParallelSteps != 1 {
			t.Errorf("workers=%d: steps %d, parallel steps %d, want 1 and 1", workers, st.Steps, st.ParallelSteps)
		}
		if st.Parallel <= 0 || st.Parallel > st.Load+st.Wall || st.Serial() != st.Load+st.Wall-st.Parallel {
			t.Errorf("workers=%d: parallel %v, load %v, wall %v, serial %v", workers, st.Parallel, st.Load, st.Wall, st.Serial())
		}
		if workers == 1 && st.Busy != st.Parallel {
			t.Errorf("one worker: busy %v, want parallel %v", st.Busy, st.Parallel)
		}
		if workers == 2 && st.Busy > 2*st.Parallel {
			t.Errorf("two workers: busy %v > 2 x parallel %v", st.Busy, st.Parallel)
		}
		if a := st.Amdahl(2); a < 1 || a > 2 {
			t.Errorf("workers=%d: Amdahl bound %v outside [1, 2]", workers, a)
		}
	}
	small := New(prog, nil, Options{Workers: 2})
	if err := small.Run(); err != nil {
		t.Fatal(err)
	}
	if st := small.Stats; st.Parallel != 0 || st.Busy != 0 || st.ParallelSteps != 0 || st.Steps != 1 || st.Serial() != st.Load+st.Wall || st.Amdahl(2) != 1 {
		t.Errorf("small run: %+v, Amdahl %v", st, st.Amdahl(2))
	}
}
