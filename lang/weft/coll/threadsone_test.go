package coll

import (
	"fmt"
	"testing"
)

// TestThreadsOneMatchesGeneral compares Threads (threadsOne's shortcut
// for a unit of one dimension) with threadsGeneral on every pair of a
// set of coordinates (constants, zero and negative ones, blockDim and
// clusterDim fractions that are and are not whole, the wildcard, bad
// divisors) and machines: the same count or the same error. Each test
// of threadsOne dropped (the wildcard, the box within the domain, the
// domain dividing the machine's threads, a coordinate that does not
// evaluate) gives a count where the general way gives an error.
func TestThreadsOneMatchesGeneral(t *testing.T) {
	syms := []Sym{{Any: true}}
	for _, n := range []int{-2, 0, 1, 2, 3, 4, 32, 64, 96, 128, 256, 512, 1024} {
		syms = append(syms, Const(n))
	}
	for _, div := range []int{-1, 0, 1, 2, 3, 4, 32, 64} {
		for _, num := range []int{-1, 0, 1, 2, 3} {
			syms = append(syms, BlockDimSym(num, div), ClusterDimSym(num, div), ClusterThreadsSym(num, div))
		}
	}
	machines := []Machine{{BlockDim: 256, ClusterDim: 1}, {BlockDim: 64, ClusterDim: 2}, {BlockDim: 96, ClusterDim: 1}, {BlockDim: 384, ClusterDim: 4}, {BlockDim: 32, ClusterDim: 3}, {BlockDim: 0, ClusterDim: 1}}
	show := func(n int, err error) string { return fmt.Sprintf("%d %v", n, err) }
	ok, failed := 0, 0
	for _, m := range machines {
		for _, d := range syms {
			for _, b := range syms {
				u := Unit{Name: "u", Domain: []Sym{d}, Box: []Sym{b}}
				n, err := u.Threads(m)
				gn, gerr := u.threadsGeneral(m)
				if show(n, err) != show(gn, gerr) {
					t.Fatalf("%v on %+v: Threads %s, general %s", u, m, show(n, err), show(gn, gerr))
				}
				if err == nil {
					ok++
				} else {
					failed++
				}
			}
		}
	}
	// Units of two dimensions take the general way.
	for _, u := range []Unit{CudaQuadpair, CudaWarpInCluster, CudaThread, CudaWarp, CudaCtaInCluster} {
		for _, m := range machines {
			n, err := u.Threads(m)
			gn, gerr := u.threadsGeneral(m)
			if show(n, err) != show(gn, gerr) {
				t.Fatalf("%v on %+v: Threads %s, general %s", u, m, show(n, err), show(gn, gerr))
			}
		}
	}
	t.Logf("%d counts, %d errors", ok, failed)
	if ok < 100 || failed < 100 {
		t.Errorf("the comparison exercised too little")
	}
}
