package coll

import "testing"

// TestDeviceTilingFinish checks DeviceTilingIn's runs and thread counts,
// set in scalars, against finish's on the same shape.
func TestDeviceTilingFinish(t *testing.T) {
	for _, bd := range []int{1, 2, 3, 32, 96, 128, 256, 1024} {
		for _, cd := range []int{1, 2, 3, 4, 8} {
			m := Machine{BlockDim: bd, ClusterDim: cd}
			got, err := DeviceTiling(m)
			if err != nil {
				t.Fatal(err)
			}
			want := &Tiling{M: m, Dims: got.Dims, Tile: got.Tile, Full: got.Full, col: Collective{Start: 7}}
			if err := want.finish(); err != nil {
				t.Fatal(err)
			}
			if got.col != want.col || got.threads != want.threads || got.TileThreads != want.TileThreads {
				t.Fatalf("%+v: runs %v, %d threads, %d tile threads; finish: %v, %d, %d",
					m, got.col, got.threads, got.TileThreads, want.col, want.threads, want.TileThreads)
			}
		}
	}
}
