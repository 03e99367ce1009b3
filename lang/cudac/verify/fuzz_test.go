package verify_test

import (
	"os"
	"path/filepath"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
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

// FuzzLoad: Load (axioms blanked out, templates instantiated, macros of
// GPUVerify's headers) gives a program or diagnostics for any source, never
// a panic.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.cu")
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("__axiom(blockIdx.x == 1);\n__axiom((;\ntemplate <int N, typename T> __global__ void k(T *a) { a[N] = 0; }\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		var diags diag.List
		verify.Load(diag.NewFile("f.cu", src), syntax.Config{Defines: []string{"N=3"}, ReadFile: func(string) ([]byte, error) { return nil, os.ErrNotExist }}, &diags)
	})
}
