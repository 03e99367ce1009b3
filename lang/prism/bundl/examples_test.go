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

// TestCUBChains runs B.4's load and store chains (block -> warp -> thread)
// on two blocks: every thread's 4-item scratch and the output are exact
// copies of the input.
func TestCUBChains(t *testing.T) {
	info := loadFile(t, "../../../examples/prism/b4_cub.prism")
	rng := rand.New(rand.NewSource(11))
	src := &bundl.Buffer{Name: "src", Elem: "int", Int: true, Data: make([]float64, 512)}
	for i := range src.Data {
		src.Data[i] = float64(rng.Intn(1000) - 500)
	}
	for seed := int64(0); seed < 3; seed++ {
		dst := &bundl.Buffer{Name: "dst", Elem: "int", Int: true, Data: make([]float64, 512)}
		scratch := &bundl.Buffer{Name: "scratch", Elem: "int", Int: true, Data: make([]float64, 512)}
		var errs diag.List
		res := bundl.Run(info, bundl.Config{Kernel: "copy_kernel", Blocks: 2, Seed: seed, CompiledSync: seed > 0, SplitBarriers: seed > 1,
			Buffers: map[string]*bundl.Buffer{"src": src, "dst": dst, "scratch": scratch}}, &errs)
		if errs.HasErrors() || res.Stuck {
			t.Fatal(errs.Err())
		}
		for i := range src.Data {
			if dst.Data[i] != src.Data[i] || scratch.Data[i] != src.Data[i] {
				t.Fatalf("seed %d: [%d] dst %v scratch %v, want %v", seed, i, dst.Data[i], scratch.Data[i], src.Data[i])
			}
		}
	}
}

// TestPrecision pins the rounding model: stores and arithmetic round to
// their C types (float, bf16, uint32_t wrap-around).
func TestPrecision(t *testing.T) {
	src := `@prism("global")
@requires(grid[1], block[1], thread[1])
def k(f : ptr(float) @ grid[1], h : ptr(bf16) @ grid[1], u : ptr(uint32_t) @ grid[1]):
  with partition(f, dimension=block[1], offset=0) as fb:
   with partition(h, dimension=block[1], offset=0) as hb:
    with partition(u, dimension=block[1], offset=0) as ub:
     with group(block[1]):
      with partition(fb, dimension=thread[1], offset=0) as ft:
       with partition(hb, dimension=thread[1], offset=0) as ht:
        with partition(ub, dimension=thread[1], offset=0) as ut:
         with group(thread[1]):
            a : float @ thread[1] = 0.1
            b : float @ thread[1] = a * 3.0
            ft[0] = a
            ft[1] = b
            ft[2] = 16777216.0 + 1.0
            ht[0] = 1.0 + 1.0 / 256.0
            ht[1] = 1.0 + 3.0 / 256.0
            ht[2] = 257.0
            z : uint32_t @ thread[1] = 0
            ut[0] = z - 1
            ut[1] = 4294967295 + 2
    return
`
	info := load(t, "prec.prism", []byte(src))
	f := &bundl.Buffer{Name: "f", Elem: "float", Data: make([]float64, 3)}
	h := &bundl.Buffer{Name: "h", Elem: "bf16", Data: make([]float64, 3)}
	u := &bundl.Buffer{Name: "u", Elem: "uint32_t", Int: true, Data: make([]float64, 2)}
	var errs diag.List
	bundl.Run(info, bundl.Config{Kernel: "k", Buffers: map[string]*bundl.Buffer{"f": f, "h": h, "u": u}}, &errs)
	if errs.HasErrors() {
		t.Fatal(errs.Err())
	}
	a := float32(0.1)
	want := map[string][]float64{
		"f": {float64(a), float64(a * 3), 16777216},
		"h": {1, 1 + 4.0/256, 256}, // ties to even: 1+1/256 -> 1, 1+3/256 -> 1+4/256, 257 -> 256
		"u": {4294967295, 1},
	}
	for name, buf := range map[string]*bundl.Buffer{"f": f, "h": h, "u": u} {
		for i, w := range want[name] {
			if buf.Data[i] != w {
				t.Errorf("%s[%d] = %v, want %v", name, i, buf.Data[i], w)
			}
		}
	}
}
