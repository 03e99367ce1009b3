package sem

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"weft.dev/weft/diag"
)

// TestSegmentGC runs the race and memory cases with the segment table
// collected at every new segment (race.go gcSegs, Machine.gcEvery), and with an object's
// granule forced to split on its second access, and requires the very
// diagnostics of a normal run: the compact shadow must not change a verdict.
// It runs them also with explicit segments only, no group segments
// (race_segs.go), collected or not, with both (at most two groups, the
// others explicit), and with every uniform history made lazy cells
// (race_bulk.go): none of them must change one either.
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
			run := func(gcAt int, noGrp, lazy bool) string {
				var diags diag.List
				prog := Load(diag.NewFile(file, []byte(part)), &diags)
				if prog == nil || prog.Main == nil {
					return ""
				}
				m := NewMachine(prog, Options{Check: true}, &diags)
				m.noGrp = noGrp
				if lazy {
					m.lazyMin = 1
				}
				if gcAt < 0 {
					// group segments while there are fewer than -gcAt,
					// explicit ones beyond (a full index space), no
					// collection
					m.grpLimit, gcAt = -gcAt, 0
				}
				if gcAt > 0 {
					m.segGCAt, m.segGCMin = gcAt, gcAt
					m.grpGCAt, m.grpGCMin = gcAt, gcAt
					m.gcEvery = true
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
			want := run(0, false, false)
			if got := run(1, false, true); got != want {
				t.Errorf("%s part %d: with collections:\n%s\nwant:\n%s", file, i, got, want)
			}
			if got := run(0, true, false); got != want {
				t.Errorf("%s part %d: explicit segments only:\n%s\nwant:\n%s", file, i, got, want)
			}
			if got := run(1, true, false); got != want {
				t.Errorf("%s part %d: explicit segments only, with collections:\n%s\nwant:\n%s", file, i, got, want)
			}
			if got := run(-2, false, false); got != want {
				t.Errorf("%s part %d: at most 2 groups:\n%s\nwant:\n%s", file, i, got, want)
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

// TestLazyCells: a uniform history (race_bulk.go) made cells by a kernel's
// first access is given to each cell of its range at the cell's first
// access, not filled in: a cell the kernel meets first must still conflict
// with the memset of another stream, after the cells split from 4 bytes to
// bytes too (the range scales), a cell outside the range must not (the
// third read: e's first 16 KiB were never set, an uninitialized read and
// no race), with collections or not: the verdicts are those of filled
// cells. f's lazy history is the only reference to its memset's segment
// once wr overwrote the cells it made; rf reads cells it did not touch
// after the host made a segment (h[0]), so a collector that did not walk
// the lazy histories would give the memset's index to the host's.
func TestLazyCells(t *testing.T) {
	src := `#include <stdlib.h>
__global__ void rd(const int *d, const int *e, int *out) {
  const char *c = (const char *)d;
  int a = d[threadIdx.x * 64 + 4096];
  out[threadIdx.x] = a + c[threadIdx.x * 256 + 300003] + e[threadIdx.x + 5];
}
__global__ void wr(int *f) { f[threadIdx.x * 64] = 1; }
__global__ void rf(const int *f, int *out) { out[threadIdx.x] = f[threadIdx.x * 64 + 32]; }
int main() {
  int *d, *e, *f, *out;
  cudaMalloc(&d, 1 << 20);
  cudaMalloc(&e, 1 << 20);
  cudaMalloc(&f, 1 << 20);
  cudaMalloc(&out, 1024);
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreate(&s2);
  cudaMemset(d, 1, 1 << 20);
  cudaMemsetAsync(d, 0, 1 << 20, s1);
  cudaMemsetAsync(e + 4096, 0, (1 << 20) - 4 * 4096, s1);
  rd<<<1, 64, 0, s2>>>(d, e, out);
  cudaMemsetAsync(f, 0, 1 << 20, s1);
  wr<<<1, 64, 0, s2>>>(f);
  int *h = (int *)malloc(16);
  h[0] = 1;
  rf<<<1, 64, 0, s2>>>(f, out);
  cudaDeviceSynchronize();
  return h[0] - 1;
}
`
	run := func(lazyMin int, gcEvery bool) string {
		var diags diag.List
		prog := Load(diag.NewFile("l.cu", []byte(src)), &diags)
		if prog == nil {
			t.Fatal(diags.Diags)
		}
		m := NewMachine(prog, Options{Check: true}, &diags)
		m.lazyMin = lazyMin
		m.gcEvery = gcEvery
		m.Run()
		var b strings.Builder
		for _, d := range diags.Diags {
			b.WriteString(d.Code + " " + d.Pos.String() + " " + d.Message + "\n")
		}
		return b.String()
	}
	filled := run(1<<30, false)
	want := "C0501 l.cu:4:11 data race on global memory (byte 16384): read by thread 0 of block 0 (kernel rd) conflicts with an unordered write by an asynchronous copy\n" +
		"C0501 l.cu:5:26 data race on global memory (byte 300003): read by thread 0 of block 0 (kernel rd) conflicts with an unordered write by an asynchronous copy\n" +
		"C0407 l.cu:5:58 read of uninitialized global memory\n" +
		"C0501 l.cu:7:30 data race on global memory (byte 0): write by thread 0 of block 0 (kernel wr) conflicts with an unordered write by an asynchronous copy\n" +
		"C0501 l.cu:8:65 data race on global memory (byte 128): read by thread 0 of block 0 (kernel rf) conflicts with an unordered write by an asynchronous copy\n"
	if filled != want {
		t.Fatalf("filled cells:\n%s\nwant:\n%s", filled, want)
	}
	for _, c := range []struct {
		lazyMin int
		gcEvery bool
	}{{1, false}, {4096, false}, {1, true}, {1 << 30, true}} {
		if got := run(c.lazyMin, c.gcEvery); got != want {
			t.Errorf("lazy cells from %d granules, a collection at every segment %v:\n%s\nwant:\n%s", c.lazyMin, c.gcEvery, got, want)
		}
	}
}
