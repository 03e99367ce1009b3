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
// It runs them also with explicit segments only, no group segments
// (race_segs.go), collected or not: the encoding must not change one
// either.
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
			run := func(gcAt int, noGrp bool) string {
				var diags diag.List
				prog := Load(diag.NewFile(file, []byte(part)), &diags)
				if prog == nil || prog.Main == nil {
					return ""
				}
				m := NewMachine(prog, Options{Check: true}, &diags)
				m.noGrp = noGrp
				if gcAt > 0 {
					m.segGCAt, m.segGCMin = gcAt, gcAt
					m.grpGCAt, m.grpGCMin = gcAt, gcAt
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
			want := run(0, false)
			if got := run(1, false); got != want {
				t.Errorf("%s part %d: with collections:\n%s\nwant:\n%s", file, i, got, want)
			}
			if got := run(0, true); got != want {
				t.Errorf("%s part %d: explicit segments only:\n%s\nwant:\n%s", file, i, got, want)
			}
			if got := run(1, true); got != want {
				t.Errorf("%s part %d: explicit segments only, with collections:\n%s\nwant:\n%s", file, i, got, want)
			}
		}
	}
	if gcs < 100 || races < 5 {
		t.Errorf("%d collections and %d races: the test does not exercise the collector", gcs, races)
	}
	t.Logf("%d collections, %d races", gcs, races)
}

// TestReleaseFreed: freed heap objects and the locals of returned calls
// keep no bytes, bit map or history (mem.go release), and a dangling
// pointer is still a use after free.
func TestReleaseFreed(t *testing.T) {
	src := `#include <stdlib.h>
__device__ int f(int i) {
  int a[256];
  a[i % 256] = i;
  return a[i % 256];
}
__global__ void k(int *out) {
  int s = 0;
  for (int i = 0; i < 64; i++)
    s += f(i);
  out[threadIdx.x] = s;
}
int main() {
  int *d, *q = 0;
  cudaMalloc(&d, 64 * sizeof(int));
  k<<<1, 64>>>(d);
  cudaDeviceSynchronize();
  for (int i = 0; i < 100; i++) {
    char *p = (char *)malloc(1 << 20);
    p[i] = 1;
    free(p);
    q = (int *)p;
  }
  return *q;
}
`
	var diags diag.List
	prog := Load(diag.NewFile("r.cu", []byte(src)), &diags)
	if prog == nil {
		t.Fatal(diags.Diags)
	}
	m := NewMachine(prog, Options{Check: true}, &diags)
	m.Run()
	if len(diags.Diags) != 1 || diags.Diags[0].Code != "C0404" || diags.Diags[0].Pos.Line() != 24 {
		t.Fatalf("want one C0404 at line 24, got %v", diags.Diags)
	}
	held := 0
	for _, o := range m.objs {
		if o != nil {
			held += len(o.Data) + 8*len(o.init) + 20*len(o.shadow)
		}
	}
	// 64 ints of d, the globals and literals; not 100 MB of malloc nor
	// 64*64 KB-sized frames
	if held > 4096 {
		t.Errorf("%d bytes still held by %d objects", held, len(m.objs))
	}
}
