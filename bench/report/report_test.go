package main

import (
	"strings"
	"testing"
)

// The report reads go test output, strips the GOMAXPROCS suffix only where
// run.sh says it is there, and takes medians.
func TestReport(t *testing.T) {
	raw := `procs: 1
BenchmarkGEMM256Interp 	      10	 100000000 ns/op
BenchmarkGEMM256Interp 	      10	 300000000 ns/op
BenchmarkGEMM256Interp 	      10	 200000000 ns/op
BenchmarkGEMM256Go     	     100	  10000000 ns/op
BenchmarkSm80GEMM/1024 	       1	  40000000 ns/op	  1000 memops	  25.0 Mmemops/s
BenchmarkCommitGroupRing/T256R6 	       3	  20000000 ns/op	  400000 memops	  20.0 Mmemops/s
BenchmarkScalarSmemMatmul 	       3	  50000000 ns/op	  44982272 memops	  899.6 Mmemops/s
procs: 2
BenchmarkPrefixSum/n=10000/native-2   	1000	 1000000 ns/op	  500000 cpu-ns/op
BenchmarkPrefixSum/n=10000/relaxed-1-2	100	10000000 ns/op	  3000000 cpu-ns/op	  12 iterations
BenchmarkPrefixSum/n=10000/relaxed-2-2	100	 5000000 ns/op	  12 iterations
`
	var b strings.Builder
	report(&b, parse(strings.NewReader(raw)))
	out := b.String()
	for _, want := range []string{
		"| 200.00 ms   | 10.00 ms | 20.0x     | met  |",
		"| Sm80GEMM | 1024 | 40.00 ms | 1000       | 25.0       | 50x                    | met  | 1855x                       |",
		"| CommitGroupRing/T256R6 | 20.00 ms | 400000     | 20.0       | 50       | 18x                         |",
		"| ScalarSmemMatmul | 50.00 ms | 44982272   | 899.6      | 130x                        | met  |",
		"| PrefixSum | 10000 | 1.00 ms | relaxed-1 | 10.00 ms | 10.0x    | 6.0x           | -                     |",
		"| PrefixSum | 10000 | 1.00 ms | relaxed-2 | 5.00 ms  | 5.0x     | -              | 2.00x                 |",
		"CUDA-C semantics (seed 004: ~3 min for Figure 1, 27 h for 512 threads; goals 50 ms and 1 s with race checking): not measured",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestNatLess(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"Check/stmts=4000", "Check/stmts=16000", true},
		{"Check/stmts=16000", "Check/stmts=4000", false},
		{"n=10000/relaxed-1", "n=10000/relaxed-2", true},
		{"a", "a1", true},
		{"b", "a", false},
	} {
		if got := natLess(c.a, c.b); got != c.want {
			t.Errorf("natLess(%q, %q) = %v", c.a, c.b, got)
		}
	}
}
