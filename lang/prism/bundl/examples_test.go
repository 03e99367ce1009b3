package bundl_test

import (
	"math/rand"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/bundl"
)

// TestFig2 runs Fig. 2's mma.sync and checks every lane's D fragment
// against the m16n8k8 product computed from the values the lanes load:
// lane l = 4g+t brings A[g][t], A[g+8][t], A[g][t+4], A[g+8][t+4] and
// B[t][g], B[t+4][g], all 4l+1, and gets back D[g][2t], D[g][2t+1],
// D[g+8][2t], D[g+8][2t+1].
func TestFig2(t *testing.T) {
	info := loadFile(t, "../../../examples/prism/fig2_mma.prism")
	var A [16][8]float64
	var B [8][8]float64
	for l := 0; l < 32; l++ {
		g, q := l/4, l%4
		v := float64(4*l + 1)
		A[g][q], A[g+8][q], A[g][q+4], A[g+8][q+4] = v, v, v, v
		B[q][g], B[q+4][g] = v, v
	}
	want := make([]float64, 128)
	for l := 0; l < 32; l++ {
		g, q := l/4, l%4
		for j, rc := range [][2]int{{g, 2 * q}, {g, 2*q + 1}, {g + 8, 2 * q}, {g + 8, 2*q + 1}} {
			s := 0.0
			for k := 0; k < 8; k++ {
				s += A[rc[0]][k] * B[k][rc[1]]
			}
			want[l*4+j] = s
		}
	}
	for seed := int64(0); seed < 3; seed++ {
		out := &bundl.Buffer{Name: "out", Elem: "float", Data: make([]float64, 256)}
		var errs diag.List
		bundl.Run(info, bundl.Config{Kernel: "fig2_mma", Blocks: 2, Seed: seed, Buffers: map[string]*bundl.Buffer{"out": out}}, &errs)
		if errs.HasErrors() {
			t.Fatal(errs.Err())
		}
		for i, v := range out.Data {
			if v != want[i%128] {
				t.Fatalf("seed %d: out[%d] = %v, want %v", seed, i, v, want[i%128])
			}
		}
	}
}

// TestScan runs appendix B.3's single-pass scan (decoupled look-back) on
// three blocks of 16384 elements: every element becomes the inclusive
// prefix sum of the whole array, modulo 2^32 as uint32_t.
func TestScan(t *testing.T) {
	info := loadFile(t, "../../../examples/prism/b3_scan.prism")
	blocks := 3
	if testing.Short() {
		blocks = 2
	}
	n := 16384 * blocks
	rng := rand.New(rand.NewSource(9))
	in := make([]float64, n)
	for i := range in {
		in[i] = float64(rng.Intn(1 << 20))
	}
	x := &bundl.Buffer{Name: "x", Elem: "uint32_t", Int: true, Data: append([]float64(nil), in...)}
	counter := &bundl.Buffer{Name: "block_idx_counter", Elem: "uint32_t", Int: true, Data: make([]float64, 1)}
	infos := &bundl.Buffer{Name: "block_infos", Elem: "int", Int: true, Data: make([]float64, 2*blocks)}
	var errs diag.List
	res := bundl.Run(info, bundl.Config{Kernel: "scan_kernel", Blocks: blocks, Seed: 4,
		Args:    map[string]float64{"n": float64(n)},
		Buffers: map[string]*bundl.Buffer{"x": x, "block_idx_counter": counter, "block_infos": infos}}, &errs)
	if errs.HasErrors() || res.Stuck {
		t.Fatal(errs.Err())
	}
	var sum uint32
	for i := range in {
		sum += uint32(in[i])
		if x.Data[i] != float64(sum) {
			t.Fatalf("x[%d] = %v, want %d", i, x.Data[i], sum)
		}
	}
	if counter.Data[0] != float64(blocks) {
		t.Errorf("block counter = %v, want %d", counter.Data[0], blocks)
	}
}
