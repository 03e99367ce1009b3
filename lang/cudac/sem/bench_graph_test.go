package sem_test

import (
	"io"
	"os"
	"strconv"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/sem"
	"weft.dev/weft/lang/cudac/syntax"
)

// BenchmarkGraphFanWide is issue 15 item 6's wide graph: one root and N
// kernel nodes that depend on it only (testdata/bench/graph_fan.cu),
// launched 3 times, for N = 2000 to 16000. Reported per node run
// (ns/node): with node clocks near-linear in the graph (vclock.go) the
// figure stays about flat as the fan widens; with a dense vector clock
// per node it doubled with each doubling.
func BenchmarkGraphFanWide(b *testing.B) {
	path := "testdata/bench/graph_fan.cu"
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{2000, 4000, 8000, 16000} {
		for _, check := range []bool{false, true} {
			name := strconv.Itoa(n) + "nodes/run"
			if check {
				name = strconv.Itoa(n) + "nodes/check"
			}
			b.Run(name, func(b *testing.B) {
				var diags diag.List
				prog := sem.LoadConfig(diag.NewFile(path, src), &diags, syntax.Config{Defines: []string{"N=" + strconv.Itoa(n)}})
				if prog == nil || diags.HasErrors() {
					b.Fatal(diags.Diags)
				}
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					var diags diag.List
					m := sem.NewMachine(prog, sem.Options{Stdout: io.Discard, Check: check}, &diags)
					m.Run()
					if diags.HasErrors() {
						b.Fatalf("%v", diags.Diags)
					}
				}
				b.StopTimer()
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*3*(n+1)), "ns/node")
			})
		}
	}
}
