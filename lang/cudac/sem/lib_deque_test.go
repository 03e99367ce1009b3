package sem_test

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/sem"
)

// dequeProgram fills a std::deque<int> with n push_fronts, drains it with
// pop_front, then runs n rounds of a queue (push_back, pop_front) over
// 64 elements; it prints the sums.
func dequeProgram(n int) string {
	return fmt.Sprintf(`#include <cstdio>
#include <deque>
int main() {
  std::deque<int> d;
  for (int i = 0; i < %[1]d; i++) d.push_front(i);
  long s = 0;
  while (!d.empty()) { s += d.front(); d.pop_front(); }
  for (int i = 0; i < 64; i++) d.push_back(i);
  long q = 0;
  for (int i = 0; i < %[1]d; i++) { q += d.front(); d.pop_front(); d.push_back(i); }
  printf("%%ld %%ld %%d\n", s, q, (int)d.size());
  return 0;
}
`, n)
}

func runDeque(tb testing.TB, n int) string {
	src := dequeProgram(n)
	var diags diag.List
	prog := sem.Load(diag.NewFile("deque.cu", []byte(src)), &diags)
	if prog == nil || diags.HasErrors() {
		tb.Fatalf("%v", diags.Diags)
	}
	var out strings.Builder
	m := sem.NewMachine(prog, sem.Options{Stdout: &out, Check: true}, &diags)
	m.Run()
	if diags.HasErrors() {
		tb.Fatalf("%v", diags.Diags)
	}
	return out.String()
}

// TestDequeFrontSums pins the program's output: n push_fronts of 0..n-1
// drained from the front sum to n(n-1)/2; the queue rounds pop 0..63 and
// then the pushed 0..n-65.
func TestDequeFrontSums(t *testing.T) {
	const n = 3000
	want := fmt.Sprintf("%d %d 64\n", n*(n-1)/2, 63*64/2+(n-64)*(n-65)/2)
	if got := runDeque(t, n); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// BenchmarkDequeFront measures push_front and pop_front (lib_deque.go):
// with amortized O(1) ends the time per element ("ns/elem") stays flat as
// n grows tenfold; the former model (the elements shifted one place per
// operation) grew it tenfold.
func BenchmarkDequeFront(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var diags diag.List
			prog := sem.Load(diag.NewFile("deque.cu", []byte(dequeProgram(n))), &diags)
			if prog == nil || diags.HasErrors() {
				b.Fatalf("%v", diags.Diags)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				m := sem.NewMachine(prog, sem.Options{Stdout: io.Discard, Check: true}, &diags)
				m.Run()
				if diags.HasErrors() {
					b.Fatalf("%v", diags.Diags)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(2*n), "ns/elem")
		})
	}
}
