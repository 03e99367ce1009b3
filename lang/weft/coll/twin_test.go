package coll

import (
	"math/rand"
	"testing"
)

// twinStep is one derivation of a random nest: a cuda_threads loop
// (count, unit), CudaWarps(lo, hi) or named CudaWarps.
type twinStep struct {
	kind   Kind
	count  int
	u      Unit
	lo, hi int
}

func randomTwinStep(r *rand.Rand, m Machine) twinStep {
	switch r.Intn(6) {
	case 0:
		lo := r.Intn(4)
		return twinStep{kind: KindWarps, lo: lo, hi: lo + 1 + r.Intn(3)}
	case 1:
		return twinStep{kind: KindNamedWarps, lo: 0, hi: 1 + r.Intn(2)}
	default:
		return twinStep{kind: KindThreads, count: 1 + r.Intn(8), u: randomUnit(r, m)}
	}
}

// derive applies s to t with iterator id iter (memoized, twins shared),
// and afresh, without the memo or twins.
func (s *twinStep) derive(t *Tiling, iter int) (got, fresh *Tiling, err, ferr error) {
	switch s.kind {
	case KindWarps:
		got, err = t.CudaWarps(s.lo, s.hi)
		fresh, ferr = t.deriveWarps(s.lo, s.hi)
	case KindNamedWarps:
		got, err = t.NamedWarps("w", s.lo, s.hi)
		fresh, ferr = t.deriveNamedWarps("w", s.lo, s.hi)
	default:
		got, err = t.CudaThreads(iter, s.count, randomUnitCopy(s.u))
		fresh, ferr = t.deriveThreads(iter, s.count, s.u)
	}
	return
}

// TestTwinMatchesFresh derives random nests, then the same nests again
// with other iterator ids (sibling loops of one scope: twins, twin.go),
// some diverging part way (a twin's derivation its origin never made),
// and compares every tiling, error text included, with the derivation
// made afresh from its own parent.
func TestTwinMatchesFresh(t *testing.T) {
	r := rand.New(rand.NewSource(33))
	twins, compared := 0, 0
	for trial := 0; trial < 3000; trial++ {
		m := Machine{BlockDim: []int{32, 64, 128, 256, 384}[r.Intn(5)], ClusterDim: []int{1, 1, 2, 4}[r.Intn(4)]}
		top, _ := DeviceTiling(m)
		steps := make([]twinStep, 1+r.Intn(5))
		for i := range steps {
			steps[i] = randomTwinStep(r, m)
		}
		for round := 0; round < 4; round++ {
			tl := top
			for i := range steps {
				s := steps[i]
				if round == 3 && r.Intn(3) == 0 {
					s = randomTwinStep(r, m)
				}
				got, fresh, err, ferr := s.derive(tl, 100*round+i)
				compared++
				if (err == nil) != (ferr == nil) || err != nil && err.Error() != ferr.Error() {
					t.Fatalf("trial %d round %d step %d: error %v, fresh %v", trial, round, i, err, ferr)
				}
				if err != nil {
					break
				}
				if diff := sameTiling(got, fresh); diff != "" {
					t.Fatalf("trial %d round %d step %d: %s (twin of %p) differs from fresh %s: %s", trial, round, i, got, got.twin, fresh, diff)
				}
				if got.twin != nil {
					twins++
					if got.twin.twin != nil {
						t.Fatalf("trial %d: a twin's origin is itself a twin", trial)
					}
				}
				for _, u := range []Unit{CudaThread, CudaWarp, CudaWarpgroup, CudaCtaInCluster, randomUnit(r, m)} {
					if a, b := got.Matches(u), fresh.match(u); (a == nil) != (b == nil) || a != nil && a.Msg != b.Msg {
						t.Fatalf("trial %d: twin's Matches(%s) = %v, fresh %v", trial, u, a, b)
					}
				}
				tl = got
			}
		}
	}
	if twins < 2000 || compared < 10000 {
		t.Errorf("only %d twins among %d derivations", twins, compared)
	}
	t.Logf("%d derivations, %d twins", compared, twins)
}
