package verify_test

import (
	"testing"

	"weft.dev/weft/lang/cudac/verify"
)

// FuzzParseHeader: any input gives a header or an error, never a panic, and
// extents that parse are positive.
func FuzzParseHeader(f *testing.F) {
	for _, s := range []string{
		"//pass\n//--blockDim=[64,64] --gridDim=2 -DN=4 --no-inline\n",
		"//xfail:NOT_ALL_VERIFIED\n//--blockDim=8 --warp-sync=32 --arg n=3\n",
		"//--gridDim=[1,2,3] --only-intra-group\n__global__ void k() {}\n",
		"//--blockDim=[ --gridDim=]\n", "// --arg\n", "",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		h, err := verify.ParseHeader(src)
		if err != nil {
			return
		}
		if h.Grid != nil && (h.Grid.X < 1 || h.Grid.Y < 1 || h.Grid.Z < 1) {
			t.Fatalf("grid %v", *h.Grid)
		}
		if h.Block != nil && (h.Block.X < 1 || h.Block.Y < 1 || h.Block.Z < 1) {
			t.Fatalf("block %v", *h.Block)
		}
	})
}
