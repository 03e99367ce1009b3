package coll

import (
	"math/rand"
	"testing"
	"unsafe"
)

// TestWarps1DMatchesGeneral derives random nests (cuda_threads loops of
// random units, CudaWarps and named CudaWarps blocks of random warps,
// on launch shapes with and without clusters) and compares every
// CudaWarps derivation with the general one (warps1DOff), error text
// included, field by field (sameTiling), and the matches of a few units
// against it; it counts the one-pass derivations, which must be many.
func TestWarps1DMatchesGeneral(t *testing.T) {
	r := rand.New(rand.NewSource(381))
	onePass, general, compared := 0, 0, 0
	for trial := 0; trial < 6000; trial++ {
		m := Machine{BlockDim: []int{32, 64, 96, 128, 256, 384, 416}[r.Intn(7)], ClusterDim: []int{1, 1, 1, 2}[r.Intn(4)]}
		tl, err := DeviceTiling(m)
		if err != nil {
			continue
		}
		odd := false // the last loop's tile is not whole warps
		for d := 0; d < 1+r.Intn(5); d++ {
			var s twinStep
			pick := r.Intn(5)
			if odd {
				pick = 0 // a CudaWarps block under it
			}
			switch pick {
			case 0:
				lo := r.Intn(5) - r.Intn(2)
				s = twinStep{kind: KindWarps, lo: lo, hi: lo + r.Intn(5)}
				if odd {
					s.lo, s.hi = 0, 1
				}
			case 1:
				// A warp_config's warps: [lo, hi) within the CTA's
				// (gpucheck validates them; the derivation assumes it).
				w := m.BlockDim / 32
				if w < 1 {
					continue
				}
				lo := r.Intn(w)
				s = twinStep{kind: KindNamedWarps, lo: lo, hi: lo + 1 + r.Intn(w-lo)}
			case 2:
				// Tiles that are not whole warps (48, 40 threads).
				u, _ := CudaThread.Scaled([]int{40, 48, 96}[r.Intn(3)])
				s = twinStep{kind: KindThreads, count: 1 + r.Intn(2), u: u}
			default:
				s = twinStep{kind: KindThreads, count: 1 + r.Intn(4), u: randomUnit(r, m)}
			}
			odd = false
			if s.kind == KindThreads {
				got, err := tl.deriveThreads(d, s.count, s.u)
				if err != nil {
					break
				}
				tl = got
				odd = got.Threads()%32 != 0
				continue
			}
			var st warpsStore
			name := ""
			if s.kind == KindNamedWarps {
				name = "w"
			}
			one := tl.warps1D(&st, s.lo, s.hi, s.kind, name)
			warps1DOff = true
			var fresh *Tiling
			var ferr error
			if s.kind == KindWarps {
				fresh, ferr = tl.deriveWarps(s.lo, s.hi)
			} else {
				fresh, ferr = tl.deriveNamedWarps("w", s.lo, s.hi)
			}
			warps1DOff = false
			var got *Tiling
			var gerr error
			if s.kind == KindWarps {
				got, gerr = tl.deriveWarps(s.lo, s.hi)
			} else {
				got, gerr = tl.deriveNamedWarps("w", s.lo, s.hi)
			}
			compared++
			if (gerr == nil) != (ferr == nil) || gerr != nil && gerr.Error() != ferr.Error() {
				t.Fatalf("trial %d: %v on %s: error %v, general %v", trial, s, tl, gerr, ferr)
			}
			if one != nil {
				onePass++
				if ferr != nil {
					t.Fatalf("trial %d: %v on %s: one pass made %s, the general way fails: %v", trial, s, tl, one, ferr)
				}
				if diff := sameTiling(one, fresh); diff != "" {
					t.Fatalf("trial %d: %v on %s: one pass %s, general %s: %s", trial, s, tl, one, fresh, diff)
				}
			} else if ferr == nil {
				general++
			}
			if ferr != nil {
				break
			}
			if diff := sameTiling(got, fresh); diff != "" {
				t.Fatalf("trial %d: %v: %s", trial, s, diff)
			}
			for _, u := range []Unit{CudaThread, CudaWarp, CudaWarpgroup, randomUnit(r, m)} {
				if a, b := got.match(u), fresh.match(u); (a == nil) != (b == nil) || a != nil && a.Msg != b.Msg {
					t.Fatalf("trial %d: match(%s) = %v, general %v", trial, u, a, b)
				}
			}
			tl = got
		}
	}
	t.Logf("%d warps derivations compared: %d in one pass, %d general successes", compared, onePass, general)
	if onePass < 1000 || general < 300 {
		t.Errorf("the comparison exercised too little")
	}
}

// TestStoreSizeClasses pins a CudaWarps block's store and a loop's
// (ThreadsStore) in the 896-byte size class with their 8-byte header (an
// object with pointers of more than 512 bytes takes one; issue 13, stop
// 45): a tilingStore had been 1280, a ThreadsStore 1024.
func TestStoreSizeClasses(t *testing.T) {
	if n := unsafe.Sizeof(warpsStore{}) + 8; n <= 768 || n > 896 {
		t.Errorf("warpsStore and its header are %d bytes, outside the 896-byte size class (768, 896]", n)
	}
	if n := unsafe.Sizeof(ThreadsStore{}) + 8; n <= 768 || n > 896 {
		t.Errorf("ThreadsStore and its header are %d bytes, outside the 896-byte size class (768, 896]", n)
	}
}
