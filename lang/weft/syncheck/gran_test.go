package syncheck

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/amir"
)

// TestExtentWindowGran: a window written to end at the extent
// (cudaMemsetAsync0_3d(L, M, N, C[0:L, 0:M, 0:N])) constrains C's
// granularity only by its start, so tk_split_gemm's C is tracked in the
// 128 x 32 blocks of its TMA boxes (issue 13), and the hazards of the
// program and of its wrong-K-split variant (a TMA store instead of the
// reduce-add: WAW between the splits) are the ones C tracked element by
// element gives: same kinds, statements, tasks and threads, the block's
// first element as the index.
func TestExtentWindowGran(t *testing.T) {
	src, err := os.ReadFile("../../../examples/weft/exo/tk_split_gemm.weft")
	if err != nil {
		t.Fatal(err)
	}
	for _, variant := range []string{"", "Sm90_tma_store_2d("} {
		text := string(src)
		if variant != "" {
			text = strings.ReplaceAll(text, "Sm90_tma_reduce_add_2d(", variant)
		}
		var prog *Program
		checkSourceProgram(t, "tk_split_gemm.weft", text, func(p *Program) { prog = p })
		c := -1
		for i, v := range prog.AMIR.Vars {
			if v.Name == "C" {
				c = i
			}
		}
		if got := prog.AMIR.Vars[c].Gran; !reflect.DeepEqual(got, []int{1, 128, 32}) {
			t.Fatalf("C's granularity %v, want [1 128 32]", got)
		}
		args := []int{1, 256, 256, 2, 64} // L M N S K
		coarse := amir.New(prog.AMIR, amir.Config{MaxHazards: 100}).Run(args)
		prog.AMIR.Vars[c].Gran = []int{1, 1, 1}
		fine := amir.New(prog.AMIR, amir.Config{MaxHazards: 100}).Run(args)
		key := func(r *amir.Result) string {
			s := fmt.Sprintf("%d %d %v|", r.Distinct, len(r.Faults), r.OK())
			for _, h := range r.Hazards {
				h.Block, h.Occurrences = nil, 0
				s += fmt.Sprintf("%+v|", h)
			}
			return s
		}
		if a, b := key(coarse), key(fine); a != b {
			t.Fatalf("variant %q:\nblocks   %s\nelements %s", variant, a, b)
		}
		if (variant == "") != coarse.OK() {
			t.Fatalf("variant %q: %d hazards", variant, coarse.Distinct)
		}
	}
}
