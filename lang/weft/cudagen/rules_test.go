package cudagen

import (
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestChains covers the tiling-chain rule of seed 002 Rule 2/4: the
// operators of the consumed iterators, in some order, must lead from the
// allocation scope's tile thread count to the native unit's.
func TestChains(t *testing.T) {
	for _, tc := range []struct {
		ops    [][2]int
		ta, tn int
		want   bool
	}{
		{[][2]int{{512, 32}, {32, 1}}, 512, 1, true},
		{[][2]int{{32, 1}, {512, 32}}, 512, 1, true}, // a permutation
		{[][2]int{{512, 32}}, 512, 1, false},         // stops short
		{[][2]int{{256, 128}, {128, 32}}, 256, 32, true},
		{[][2]int{{256, 128}, {256, 32}}, 256, 32, false},
		{nil, 32, 32, true},
	} {
		if got := chains(tc.ops, tc.ta, tc.tn); got != tc.want {
			t.Errorf("chains(%v, %d, %d) = %v, want %v", tc.ops, tc.ta, tc.tn, got, tc.want)
		}
	}
}

func parseE(t *testing.T, s string) syntax.Expr {
	t.Helper()
	e, err := parseExpr(s)
	if err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return e
}

// TestCompose checks that indices of a window statement map to its base.
func TestCompose(t *testing.T) {
	base := parseE(t, "x[i, 4:12, :, 3]").(*syntax.Index)
	al := &alias{idx: base.Indices}
	for _, tc := range []struct{ idx, want string }{
		{"w[2, 5]", "[i, 4 + 2, 5, 3]"},
		{"w[0:4, j]", "[i, 4:4 + 4, j, 3]"},
		{"w[k, 1:2]", "[i, 4 + k, 1:2, 3]"},
	} {
		idx := parseE(t, tc.idx).(*syntax.Index).Indices
		got := syntax.ExprString(&syntax.Index{X: &syntax.Name{Name: ""}, Indices: compose(al, idx)})
		if got != tc.want {
			t.Errorf("compose(%s) = %s, want %s", tc.idx, got, tc.want)
		}
	}
}

// TestFill checks the template placeholders of instruction declarations.
func TestFill(t *testing.T) {
	g := newGen(&syntax.File{}, lib.MustStd(), "t", &diag.List{}, &facts{}, 2, false)
	x := &exprCtx{g: g, sc: newScope(nil)}
	vals := map[string]string{"smem": "&s[0]", "gmem": "&g[4]", "smem_stride0": "16"}
	consts := map[string]syntax.Expr{"size": &syntax.IntLit{Value: 4}}
	got, err := g.fill("weft::cp_async<{4 * size}>({smem}, {gmem}); // {smem_stride0} {size // 2}", vals, consts, x)
	if err != nil {
		t.Fatal(err)
	}
	if want := "weft::cp_async<16>(&s[0], &g[4]); // 16 2"; got != want {
		t.Errorf("fill = %q, want %q", got, want)
	}
	if _, err := g.fill("{nosuch + 1}", vals, consts, x); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("fill with an unknown name: err = %v", err)
	}
}

// TestWgmmaHelper checks the generated wgmma: N/2 accumulator operands,
// the descriptors and scale-d predicate after them.
func TestWgmmaHelper(t *testing.T) {
	h := wgmmaHelper("wgmma_m64n16k8_f32_tf32", 16, 8, "tf32")
	for _, want := range []string{
		"wgmma.mma_async.sync.aligned.m64n16k8.f32.tf32.tf32 {%0, %1, %2, %3, %4, %5, %6, %7}, %8, %9, p, 1, 1;",
		"setp.ne.b32 p, %10, 0;",
		`"+f"(d[7])`,
	} {
		if !strings.Contains(h, want) {
			t.Errorf("helper lacks %q:\n%s", want, h)
		}
	}
	if strings.Contains(h, "d[8]") {
		t.Errorf("m64n16 has 8 accumulator registers per thread:\n%s", h)
	}
	if h := wgmmaHelper("wgmma_m64n8k16_f32_bf16", 8, 16, "bf16"); !strings.Contains(h, "p, 1, 1, 0, 0;") {
		t.Errorf("bf16 wgmma takes K-major transpose flags:\n%s", h)
	}
}
