package coll

import (
	"math/rand"
	"testing"
)

// TestOneThreadMatch derives random nests (cuda_threads loops and
// CudaWarps blocks on random launch shapes, clusters included) and, for
// every tiling and a set of units (cuda_thread, its multiples, the
// whole-machine domain written as clusterDim * blockDim, one thread of
// 3, random units),
// checks that OneThreadOf answers true only where the general match
// succeeds; it must answer true often enough to be a fast path.
func TestOneThreadMatch(t *testing.T) {
	r := rand.New(rand.NewSource(38))
	whole := Unit{Name: "whole", Domain: []Sym{ClusterThreadsSym(1, 0)}, Box: []Sym{Const(1)}, ScaledDim: 0, Scale: 1}
	// One thread of a domain that is not the machine's (which may not
	// even divide it: resolve's error).
	part := Unit{Name: "part", Domain: []Sym{Const(3)}, Box: []Sym{Const(1)}, ScaledDim: 0, Scale: 1}
	hits, checked := 0, 0
	for trial := 0; trial < 4000; trial++ {
		m := Machine{BlockDim: []int{1, 2, 32, 64, 128, 256, 384}[r.Intn(7)], ClusterDim: []int{1, 1, 2, 4}[r.Intn(4)]}
		top, err := DeviceTiling(m)
		if err != nil {
			continue
		}
		tl := top
		for i := 0; i < 1+r.Intn(6); i++ {
			s := randomTwinStep(r, m)
			if r.Intn(3) == 0 {
				// Loops down to one thread, where the fast path applies.
				s = twinStep{kind: KindThreads, count: 1 + r.Intn(4), u: CudaThread}
			}
			got, _, err, _ := s.derive(tl, i)
			if err != nil {
				break
			}
			tl = got
			c2, _ := CudaThread.Scaled(2)
			for _, u := range []Unit{CudaThread, c2, whole, part, CudaWarp, randomUnit(r, m)} {
				checked++
				if !tl.OneThreadOf(&u) {
					continue
				}
				hits++
				if merr := tl.match(u); merr != nil {
					t.Fatalf("trial %d: %s (%d threads, machine %+v): OneThreadOf(%s) but match: %v", trial, tl, tl.Threads(), m, u, merr)
				}
			}
		}
	}
	t.Logf("%d one-thread answers of %d", hits, checked)
	if hits < 1000 {
		t.Errorf("only %d one-thread answers", hits)
	}
}
