package bundl_test

import (
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/bundl"
)

// TestTMA: a 16x16 box of a 32x32 tensor lands in shared memory row by row
// (zero past the tensor's edge, swizzled when the map says so), completes
// on the mbarrier when the announced bytes match, and is reported stuck
// when they do not.
func TestTMA(t *testing.T) {
	info := loadFile(t, "testdata/tma.prism")
	run := func(nbytes, x, swizzle int, seed int64, split bool) ([]float64, string) {
		G := &bundl.Buffer{Name: "G", Elem: "float", Data: make([]float64, 1024)}
		for i := range G.Data {
			G.Data[i] = float64(i)
		}
		out := &bundl.Buffer{Name: "out", Elem: "float", Data: make([]float64, 256)}
		var errs diag.List
		bundl.Run(info, bundl.Config{Kernel: "k", Seed: seed, CompiledSync: split, SplitBarriers: split,
			Args:       map[string]float64{"nbytes": float64(nbytes), "x": float64(x)},
			Buffers:    map[string]*bundl.Buffer{"out": out},
			TensorMaps: map[string]*bundl.TensorMap{"tm": {Buf: G, Rows: 32, Cols: 32, BoxRows: 16, BoxCols: 16, Swizzle: swizzle}}}, &errs)
		var b strings.Builder
		diag.WriteText(&b, errs.Diags)
		return out.Data, b.String()
	}
	for seed := int64(0); seed < 4; seed++ {
		got, report := run(1024, 4, 0, seed, seed%2 == 1)
		if report != "" {
			t.Fatal(report)
		}
		for r := 0; r < 16; r++ {
			for c := 0; c < 16; c++ {
				if want := float64((2+r)*32 + 4 + c); got[r*16+c] != want {
					t.Fatalf("seed %d: tile[%d][%d] = %v, want %v", seed, r, c, got[r*16+c], want)
				}
			}
		}
	}
	// Columns 32..39 are past the edge: zero fill.
	got, _ := run(1024, 24, 0, 1, false)
	if got[7] != 2*32+31 || got[8] != 0 || got[15] != 0 || got[16] != 3*32+24 {
		t.Errorf("edge box: %v", got[:17])
	}
	// 64-byte swizzle: rows of 64 bytes, so rows 2k and 2k+1 share a
	// 128-byte line; the 16-byte chunk index is XORed with bits 7-8 of the
	// offset. Row 2 (bytes 128..191) has line 1: its chunks swap pairwise.
	got, _ = run(1024, 0, 64, 2, false)
	if got[0] != 64 || got[2*16] != 4*32+4 || got[2*16+4] != 4*32 || got[4*16] != 6*32+8 || got[6*16+12] != 8*32 {
		t.Errorf("64-byte swizzle: rows 0, 2, 4, 6 = %v %v %v %v", got[0:16], got[32:48], got[64:80], got[96:112])
	}
	for _, c := range []struct {
		nbytes int
		want   string
	}{
		{2048, "tma.prism:18:13: error[P0301]: Bundl run is stuck: 32 threads wait here for phase 0 of mbarrier bar (first: (b0,t0)); expect_bytes (line 15:25) announced 2048 bytes, TMA loads delivered 1024 and none is in flight"},
		{512, "tma.prism:16:25: error[P0301]: Bundl run is stuck: TMA loads delivered 1024 bytes to mbarrier bar in a phase whose expect_bytes (line 15:25) announced 512"},
	} {
		if _, report := run(c.nbytes, 4, 0, 3, false); !strings.Contains(report, c.want) {
			t.Errorf("nbytes %d: report\n%s\nwant %q", c.nbytes, report, c.want)
		}
	}
}
