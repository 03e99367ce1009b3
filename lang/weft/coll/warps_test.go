package coll

import (
	"math/rand"
	"testing"
)

// TestWarpDimMatchesFresh derives random nests (twins among them, as
// TestTwinMatchesFresh does) and, at every tiling, several CudaWarps and
// named CudaWarps blocks: each, made from the tiling's kept alignment with
// warps (warps.go), must equal in every field (error text included) the
// block derived with the alignment made afresh; a kept alignment that a
// block's narrowing wrote into would make the next block differ.
func TestWarpDimMatchesFresh(t *testing.T) {
	r := rand.New(rand.NewSource(34))
	kept, compared := 0, 0
	for trial := 0; trial < 2000; trial++ {
		m := Machine{BlockDim: []int{32, 64, 128, 256, 384}[r.Intn(5)], ClusterDim: []int{1, 1, 2, 4}[r.Intn(4)]}
		top, _ := DeviceTiling(m)
		steps := make([]twinStep, 1+r.Intn(4))
		for i := range steps {
			steps[i] = randomTwinStep(r, m)
		}
		for round := 0; round < 2; round++ {
			tl := top
			for i, s := range steps {
				for j := 0; j < 4; j++ {
					lo := r.Intn(4)
					hi := lo + 1 + r.Intn(4)
					named := r.Intn(2) == 0
					var got, fresh *Tiling
					var err, ferr error
					o := tl.origin()
					if o.memo.warps != nil {
						kept++
					}
					if named {
						got, err = tl.NamedWarps("w", lo, hi)
					} else {
						got, err = tl.CudaWarps(lo, hi)
					}
					saved := o.memo.warps
					o.memo.warps = nil
					if named {
						fresh, ferr = tl.deriveNamedWarps("w", lo, hi)
					} else {
						fresh, ferr = tl.deriveWarps(lo, hi)
					}
					o.memo.warps = saved
					compared++
					if (err == nil) != (ferr == nil) || err != nil && err.Error() != ferr.Error() {
						t.Fatalf("trial %d: CudaWarps(%d, %d) named %v: error %v, fresh %v", trial, lo, hi, named, err, ferr)
					}
					if err == nil {
						if diff := sameTiling(got, fresh); diff != "" {
							t.Fatalf("trial %d: CudaWarps(%d, %d) named %v: %s differs from fresh %s: %s", trial, lo, hi, named, got, fresh, diff)
						}
					}
				}
				next, _, err, _ := s.derive(tl, 100*round+i)
				if err != nil {
					break
				}
				tl = next
			}
		}
	}
	if kept < 10000 {
		t.Errorf("only %d of %d blocks from a kept alignment", kept, compared)
	}
	t.Logf("%d blocks, %d from a kept alignment", compared, kept)
}
