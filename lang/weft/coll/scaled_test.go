package coll

import (
	"reflect"
	"testing"
)

// TestScaledOwnedMatchesScaled: scaling a unit's own box in place gives
// the unit Scaled gives, errors included, and leaves a copy of the
// original untouched when the box was copied first.
func TestScaledOwnedMatchesScaled(t *testing.T) {
	units := []Unit{CudaThread, CudaQuadpair, CudaWarp, CudaWarpgroup, CudaCtaInCluster, CudaCluster, ThreadsStrided(2, 4)}
	for _, u := range units {
		for _, k := range []int{0, 1, 2, 3, 8} {
			want, werr := u.Scaled(k)
			own := u
			own.Domain = append([]Sym(nil), u.Domain...)
			own.Box = append([]Sym(nil), u.Box...)
			got, gerr := own.ScaledOwned(k)
			if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
				t.Errorf("%s * %d: error %v, Scaled's %v", u, k, gerr, werr)
				continue
			}
			if werr == nil && !reflect.DeepEqual(got, want) {
				t.Errorf("%s * %d: %+v, Scaled gives %+v", u, k, got, want)
			}
			if werr == nil {
				// Twice: a scaled unit scales again (2 * (3 * unit)).
				w2, _ := want.Scaled(2)
				g2, _ := got.ScaledOwned(2)
				if !reflect.DeepEqual(g2, w2) {
					t.Errorf("2 * (%s * %d): %+v, Scaled gives %+v", u, k, g2, w2)
				}
			}
		}
	}
}
