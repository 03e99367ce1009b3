package ptx

import (
	"math"
	"strings"
	"testing"
)

// The templates the generators emit (lang/weft/cudagen's weft_cuda.cuh,
// lang/prism/lower) parse with the expected models.
func TestParseGenerated(t *testing.T) {
	cases := []struct {
		src   string
		nops  int
		kinds []Kind
	}{
		{"barrier.cta.sync 0;", 0, []Kind{KBarSync}},
		{"barrier.cta.sync %0, %1;", 2, []Kind{KBarSync}},
		{"mov.u32 %0, %%cluster_ctarank;", 1, []Kind{KMov}},
		{"cp.async.cg.shared.global [%0], [%1], 16;", 2, []Kind{KCpAsync}},
		{"cp.async.ca.shared.global [%0], [%1], %2;", 3, []Kind{KCpAsync}},
		{"cp.async.wait_group %0;", 1, []Kind{KCpWait}},
		{"cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];", 1, []Kind{KCpMbarArrive}},
		{"cvt.rna.tf32.f32 %0, %1;", 2, []Kind{KCvtTF32}},
		{"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};", 10, []Kind{KMma}},
		{"mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};", 7, []Kind{KMma}},
		{"mbarrier.init.shared::cta.b64 [%0], %1;", 2, []Kind{KMbarInit}},
		{"{\n.reg .b64 st;\nmbarrier.arrive.shared.b64 st, [%0];\n}", 1, []Kind{KMbarArrive}},
		{"mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;", 2, []Kind{KMbarExpectArrive}},
		{"{\n\t.reg .pred P1;\nWEFT_WAIT:\n\tmbarrier.try_wait.parity.acquire.cta.shared::cta.b64 P1, [%0], %1;\n\t@!P1 bra WEFT_WAIT;\n\t}", 2, []Kind{KMbarTryWait, KBra}},
		{"{\n.reg .pred p;\nWAIT_%=:\nmbarrier.test_wait.parity.shared.b64 p, [%0], %1;\n@!p bra WAIT_%=;\n}\n", 2, []Kind{KMbarTestWait, KBra}},
		{"fence.proxy.async;", 0, []Kind{KNop}},
		{"ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 {%0,%1,%2,%3}, [%4];", 5, []Kind{KLdmatrix}},
		{"{\n.reg .pred p;\nsetp.ne.b32 p, %2, 0;\nwgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%0, %1, %3, %4}, %5, %6, p, 1, 1;\n}\n", 7, []Kind{KSetp, KWgmma}},
		{"wgmma.wait_group.sync.aligned %0;", 1, []Kind{KWgmmaWait}},
		{"fence.mbarrier_init.release.cluster;", 0, []Kind{KNop}},
		{"setmaxnreg.inc.sync.aligned.u32 %0;", 1, []Kind{KNop}},
		{"cp.async.wait_all;", 0, []Kind{KCpWaitAll}},
		{"mapa.shared::cluster.u32 %0, %1, %2;", 3, []Kind{KMapa}},
		{"st.shared::cluster.u32 [%0], %1;", 2, []Kind{KStShared}},
		{"ld.acquire.cluster.shared::cluster.f32 %0, [%1];", 2, []Kind{KLdShared}},
		{"atom.shared::cluster.add.u32 %0, [%1], %2;", 3, []Kind{KAtomShared}},
		{"red.release.cluster.shared::cluster.add.u64 [%0], %1;", 2, []Kind{KAtomShared}},
		{"barrier.cluster.arrive.release.aligned;", 0, []Kind{KClusterArrive}},
		{"barrier.cluster.wait.acquire.aligned;", 0, []Kind{KClusterWait}},
	}
	for _, c := range cases {
		p, err := Parse(c.src, c.nops, 7)
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		var got []Kind
		for _, in := range p.Insts {
			got = append(got, in.Kind)
		}
		if len(got) != len(c.kinds) {
			t.Errorf("%q: kinds %v, want %v", c.src, got, c.kinds)
			continue
		}
		for i := range got {
			if got[i] != c.kinds[i] {
				t.Errorf("%q: kinds %v, want %v", c.src, got, c.kinds)
			}
		}
	}
	// %= is the statement's number; the branch goes back to the wait
	p, _ := Parse("L_%=:\nmbarrier.test_wait.parity.shared.b64 p, [%0], %1;\n@!p bra L_%=;", 2, 42)
	if p.Labels["L_42"] != 0 || p.Insts[1].Target != 0 || !p.Insts[1].Guard.Negate || p.Insts[1].Guard.Name != "p" {
		t.Errorf("labels %v, branch %+v", p.Labels, p.Insts[1])
	}
	// operands: an address with an offset and tensor coordinates
	p, err := Parse("cp.async.ca.shared.global [%0+16], [%1], 4, %2;", 3, 0)
	if err != nil || p.Insts[0].Args[0].Imm != 16 || p.Insts[0].Args[0].Base.N != 0 || p.Insts[0].Args[3].N != 2 {
		t.Errorf("%v %+v", err, p)
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"red.global.add.f32 [%0], %1;", "line 1 of the asm template: red.global.add.f32: no model for this PTX instruction"},
		{"ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%0}, [%1];", "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8: no model"},
		{"wgmma.mma_async.sync.aligned.m64n12k8.f32.tf32.tf32 {%0}, %1, %2, p, 1, 1;", "no model for this wgmma shape"},
		{"mov.u32 %0, %3;", "line 1 of the asm template: operand %3 does not exist (the asm statement has 1 operands)"},
		{"\nbra NOWHERE;", "line 2 of the asm template: bra: no label NOWHERE in this asm statement"},
		{"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%0,%1,%2,%3};", "operand 2 must be a vector of 4 registers"},
		{"cp.async.commit_group", "missing ';' after cp.async.commit_group"},
		{"mbarrier.try_wait.shared.b64 p, [%0], %1;", "only the .parity form is modeled"},
		{"mov.u32 %0, #;", "unexpected character '#'"},
		{"cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};", "the im2col mode of the tensor copy is not modeled"},
	}
	for _, c := range cases {
		n := 10
		if c.src == "mov.u32 %0, %3;" {
			n = 1
		}
		_, err := Parse(c.src, n, 0)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.src, err, c.want)
		}
	}
}

func TestTF32(t *testing.T) {
	f := math.Float32bits
	cases := []struct{ in, want uint32 }{
		{f(1), f(1)},
		{f(1) | 0x1000, f(1) + 0x2000},   // a tie rounds away from zero
		{f(-1) | 0x1000, f(-1) + 0x2000}, // also for negative values
		{f(1) | 0x0fff, f(1)},            // below half an ulp rounds down
		{0x7f7fffff, 0x7f800000},         // the largest finite float rounds to +Inf
		{0x7f800000, 0x7f800000},         // Inf stays
		{0x7fc00001, 0x7fc00000},         // NaN stays NaN
	}
	for _, c := range cases {
		if got := TF32(c.in, false); got != c.want {
			t.Errorf("TF32(%#x) = %#x, want %#x", c.in, got, c.want)
		}
	}
	if got := TF32(0x7f7fffff, true); got != 0x7f7fe000 {
		t.Errorf("satfinite: %#x", got)
	}
}

// TestMma: each lane's registers hold the elements the ISA's fragment
// layout names; D = A B + C checks the layouts against a direct product.
func TestMma(t *testing.T) {
	for _, op := range []string{
		"mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
		"mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32",
		"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
		"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
	} {
		s, _ := MmaShapeOf(op)
		A := func(i, k int) float64 { return float64((i*3+k*5)%7 - 3) }
		B := func(k, j int) float64 { return float64((k*2+j)%5 - 2) }
		enc := func(v float64, h int) uint32 {
			switch s.In {
			case "tf32":
				return math.Float32bits(float32(v))
			case "bf16":
				return math.Float32bits(float32(v)) >> 16 << (16 * h)
			}
			return uint32(f16bits(v)) << (16 * h)
		}
		a := make([][]uint32, 32)
		b := make([][]uint32, 32)
		c := make([][4]uint32, 32)
		halves := 2
		if s.In == "tf32" {
			halves = 1
		}
		for l := 0; l < 32; l++ {
			a[l] = make([]uint32, s.ARegs)
			b[l] = make([]uint32, s.BRegs)
			for r := 0; r < s.ARegs; r++ {
				for h := 0; h < halves; h++ {
					i, k := s.AElem(l, r, h)
					a[l][r] |= enc(A(i, k), h)
				}
			}
			for r := 0; r < s.BRegs; r++ {
				for h := 0; h < halves; h++ {
					k, j := s.BElem(l, r, h)
					b[l][r] |= enc(B(k, j), h)
				}
			}
			for i := 0; i < 4; i++ {
				row, col := CElem(l, i)
				c[l][i] = math.Float32bits(float32(row*10 + col))
			}
		}
		d := s.Mma(a, b, c)
		seen := map[[2]int]bool{}
		for l := 0; l < 32; l++ {
			for i := 0; i < 4; i++ {
				row, col := CElem(l, i)
				seen[[2]int{row, col}] = true
				want := float64(row*10 + col)
				for k := 0; k < s.K; k++ {
					want += A(row, k) * B(k, col)
				}
				if got := math.Float32frombits(d[l][i]); float64(got) != want {
					t.Errorf("%s: D[%d][%d] = %v, want %v", op, row, col, got, want)
				}
			}
		}
		if len(seen) != 128 {
			t.Errorf("%s: C fragments cover %d elements, want 128", op, len(seen))
		}
	}
}

func f16bits(v float64) uint16 {
	// small integers only: sign, exponent 15-biased, 10-bit mantissa
	if v == 0 {
		return 0
	}
	var s uint16
	if v < 0 {
		s, v = 0x8000, -v
	}
	e := 0
	for v >= 2 {
		v /= 2
		e++
	}
	return s | uint16(e+15)<<10 | uint16((v-1)*1024)
}

// FuzzParse: no template makes Parse panic.
func FuzzParse(f *testing.F) {
	f.Add("{\n.reg .pred p;\nW_%=:\nmbarrier.test_wait.parity.shared.b64 p, [%0], %1;\n@!p bra W_%=;\n}", 2)
	f.Add("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};", 10)
	f.Add("cp.async.ca.shared.global [%0+4], [%1, {%2, %3}], 4;", 4)
	f.Fuzz(func(t *testing.T, src string, n int) {
		Parse(src, n%64, 1)
	})
}

// TestVop4 checks the byte SIMD video instructions against values worked
// out by hand from the PTX ISA's semantics.
func TestVop4(t *testing.T) {
	for _, tc := range []struct {
		ins     string
		a, b, c uint32
		want    uint32
	}{
		// |1-4| + |2-3| + |3-2| + |4-1| = 8, plus c
		{"vabsdiff4.u32.u32.u32.add", 0x04030201, 0x01020304, 10, 18},
		// unsigned lanes: |0xff - 0x00| = 255 in lane 0
		{"vabsdiff4.u32.u32.u32.add", 0x000000ff, 0, 0, 255},
		// signed lanes: |-1 - 0| = 1
		{"vabsdiff4.u32.s32.s32.add", 0x000000ff, 0, 0, 1},
		// merge: each lane's low byte
		{"vabsdiff4.u32.u32.u32", 0x10ff0005, 0x20000a01, 0xdeadbeef, 0x10ff0a04},
		// wrap without .sat, clamp with it
		{"vadd4.u32.u32.u32", 0x010203ff, 0x01010101, 0, 0x02030400},
		{"vadd4.u32.u32.u32.sat", 0x010203ff, 0x01010101, 0, 0x020304ff},
		{"vsub4.s32.s32.s32.sat", 0x00000080, 0x00000001, 0, 0x00000080}, // -128 - 1 clamps to -128
		{"vsub4.u32.u32.u32.sat", 0x00000001, 0x00000002, 0, 0},          // 1 - 2 clamps to 0
		// vavrg4: (a + b + 1) >> 1 for a non-negative sum, (a + b) >> 1 else
		{"vavrg4.u32.u32.u32", 0x000000ff, 0x00000000, 0, 0x00000080},
		{"vavrg4.s32.s32.s32", 0x000000fd, 0x00000000, 0, 0x000000fe}, // (-3) >> 1 = -2
		{"vavrg4.s32.s32.s32", 0x00000003, 0x00000000, 0, 0x00000002}, // (3 + 1) >> 1 = 2
		// min and max by the operand types
		{"vmax4.u32.u32.u32", 0x000000ff, 0x00000001, 0, 0x000000ff},
		{"vmax4.s32.s32.s32", 0x000000ff, 0x00000001, 0, 0x00000001},
		{"vmin4.s32.s32.s32", 0x000000ff, 0x00000001, 0, 0x000000ff},
		// accumulate of signed results: (-1) + (-2) + 0 + 0 added to 5
		{"vsub4.s32.s32.s32.add", 0x00000000, 0x00000201, 5, 2},
	} {
		mods := strings.Split(tc.ins, ".")
		if got := Vop4(mods, tc.a, tc.b, tc.c); got != tc.want {
			t.Errorf("%s %#x, %#x, %#x = %#x, want %#x", tc.ins, tc.a, tc.b, tc.c, got, tc.want)
		}
	}
	if _, err := Parse("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;", 4, 0); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"vabsdiff4.u32.u32.u32.add %0, %1, %2;", "vabsdiff4.u16.u32.u32 %0, %1, %2, %3;", "vabsdiff4.u32.u32.u32.sat.add %0, %1, %2, %3;"} {
		if _, err := Parse(bad, 4, 0); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}
