package coll

import (
	"fmt"
	"math/rand"
	"reflect"
	"sort"
	"strings"
	"testing"
)

func mustDevice(t *testing.T, bd, cd int) *Tiling {
	t.Helper()
	d, err := DeviceTiling(Machine{BlockDim: bd, ClusterDim: cd})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func scaled(t *testing.T, u Unit, k int) Unit {
	t.Helper()
	v, err := u.Scaled(k)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func threadsOf(tl *Tiling, env []int) string {
	c := tl.Collective(env)
	return c.String()
}

// Seed 002 cuda_threads_cxx: 8 x 16 threads under blockDim=256.
func TestGuide8x16(t *testing.T) {
	cta := mustDevice(t, 256, 1)
	m, err := cta.CudaThreads(0, 8, scaled(t, CudaThread, 16))
	if err != nil {
		t.Fatal(err)
	}
	n, err := m.CudaThreads(1, 16, CudaThread)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		env  []int
		want string
	}{{[]int{0}, "[0,15]"}, {[]int{1}, "[16,31]"}, {[]int{2}, "[32,47]"}, {[]int{7}, "[112,127]"}} {
		if got := threadsOf(m, c.env); got != c.want {
			t.Errorf("m=%d: threads %s, want %s", c.env[0], got, c.want)
		}
	}
	if got := threadsOf(n, []int{2, 15}); got != "[47,47]" {
		t.Errorf("m=2, n=15: %s", got)
	}
	lm, ln := m.Lowering(), n.Lowering()
	if got := lm.CExpr("threadIdx.x", 256); got != "(threadIdx.x / 16)" {
		t.Errorf("m = %s", got)
	}
	if got := lm.CGuard("exo_16thr_m"); got != "exo_16thr_m < 8" {
		t.Errorf("m guard = %s", got)
	}
	if got := ln.CExpr("threadIdx.x", 256); got != "(threadIdx.x % 16)" {
		t.Errorf("n = %s", got)
	}
	if got := ln.CGuard("exo_1thr_n"); got != "1" {
		t.Errorf("n guard = %s", got)
	}
	if m.TileThreads != 16 || n.TileThreads != 1 || cta.TileThreads != 256 {
		t.Errorf("tile thread counts %d %d %d", cta.TileThreads, m.TileThreads, n.TileThreads)
	}
}

// Seed 002: CudaWarps(3, 4) under a warpgroup loop in a 256-thread CTA.
func TestGuideWarpgroupCudaWarps(t *testing.T) {
	cta := mustDevice(t, 256, 1)
	wg, err := cta.CudaThreads(0, 2, CudaWarpgroup)
	if err != nil {
		t.Fatal(err)
	}
	w, err := wg.CudaWarps(3, 4)
	if err != nil {
		t.Fatal(err)
	}
	if got := threadsOf(w, []int{0}); got != "[96,127]" {
		t.Errorf("wg=0: %s", got)
	}
	if got := threadsOf(w, []int{1}); got != "[224,255]" {
		t.Errorf("wg=1: %s", got)
	}
	if w.Matches(CudaWarp) != nil {
		t.Errorf("CudaWarps(3, 4) body is not a warp: %v", w.Matches(CudaWarp))
	}
	if got := w.Describe(); got != "a warp of 32" {
		t.Errorf("Describe = %q", got)
	}
	if w.TileThreads != 128 {
		t.Errorf("tile thread count ignoring warp specialization = %d, want 128", w.TileThreads)
	}
	l := w.Lowering()
	for x := 0; x < 256; x++ {
		in := (x >= 96 && x < 128) || x >= 224
		v := l.Value(x)
		if (v >= l.Lo && v < l.Hi) != in {
			t.Fatalf("thread %d: warp value %d, in=%v", x, v, in)
		}
	}
}

// Seed 002: cuda_threads(0, 10, unit=4 * cuda_thread) in a warp scope.
func TestGuideOversubscribed(t *testing.T) {
	cta := mustDevice(t, 128, 1)
	w, err := cta.CudaThreads(0, 4, CudaWarp)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.CudaThreads(1, 10, scaled(t, CudaThread, 4))
	if err == nil || err.Error() != "loop needs 40 threads, scope is a warp of 32" {
		t.Fatalf("got %v", err)
	}
	if _, err := w.CudaThreads(1, 8, scaled(t, CudaThread, 4)); err != nil {
		t.Fatalf("hi=8 rejected: %v", err)
	}
}

func TestWarpConfig(t *testing.T) {
	d, err := NewDeviceFunction(0, 2, 1, []WarpConfig{{"producer", 1, 40, 0}, {"unused", 3, 40, 0}, {"consumer", 8, 0, 232}})
	if err != nil {
		t.Fatal(err)
	}
	if d.BlockDim != 384 {
		t.Errorf("blockDim = %d, want 384", d.BlockDim)
	}
	lo, hi, ok := d.WarpRange("consumer")
	if !ok || lo != 4 || hi != 12 {
		t.Errorf("consumer warps [%d,%d)", lo, hi)
	}
	top, _ := DeviceTiling(d.Machine())
	c, err := top.NamedWarps("consumer", lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	if got := threadsOf(c, nil); got != "[128,383] [512,767]" {
		t.Errorf("consumer threads %s", got)
	}
	// Under a cluster-wide scope, a warpgroup loop runs in every CTA: its
	// iterations are the same warpgroup of each CTA (prepended dimensions
	// inherit the scope's collective).
	wg, err := c.CudaThreads(0, 2, CudaWarpgroup)
	if err != nil {
		t.Fatal(err)
	}
	if got := threadsOf(wg, []int{0}); got != "[128,255] [512,639]" {
		t.Errorf("warpgroup 0 of the consumers of each CTA: %s", got)
	}
	cta, err := c.CudaThreads(0, 2, CudaCtaInCluster)
	if err != nil {
		t.Fatal(err)
	}
	wg, err = cta.CudaThreads(1, 2, CudaWarpgroup)
	if err != nil {
		t.Fatal(err)
	}
	if got := threadsOf(wg, []int{1, 1}); got != "[640,767]" {
		t.Errorf("cta 1 consumer warpgroup 1: %s", got)
	}
	if wg.Matches(CudaWarpgroup) != nil {
		t.Errorf("not a warpgroup: %v", wg.Matches(CudaWarpgroup))
	}
	for _, bad := range []struct {
		warps []WarpConfig
		msg   string
	}{
		{[]WarpConfig{{"a", 1, 40, 0}, {"b", 3, 0, 232}}, "uniform within warpgroup"},
		{[]WarpConfig{{"a", 2, 40, 0}}, "multiple of 128"},
		{[]WarpConfig{{"a", 4, 41, 0}}, "multiple of 8"},
		{[]WarpConfig{{"a", 1, 0, 0}, {"a", 1, 0, 0}}, "twice"},
	} {
		if _, err := NewDeviceFunction(0, 1, 1, bad.warps); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("%v: got %v, want %q", bad.warps, err, bad.msg)
		}
	}
	if _, err := NewDeviceFunction(100, 1, 1, nil); err == nil {
		t.Error("blockDim=100 accepted")
	}
}

func TestTileThreadChains(t *testing.T) {
	// simple_dist: blockDim=512, m: 512 -> 32, n: 32 -> 1.
	cta := mustDevice(t, 512, 1)
	m, _ := cta.CudaThreads(0, 16, scaled(t, CudaThread, 32))
	n, err := m.CudaThreads(1, 32, CudaThread)
	if err != nil {
		t.Fatal(err)
	}
	if m.TileThreads != 32 || n.TileThreads != 1 {
		t.Errorf("chain %d -> %d -> %d", cta.TileThreads, m.TileThreads, n.TileThreads)
	}
	if got := m.Lowering().CExpr("threadIdx.x", 512); got != "(threadIdx.x / 32)" {
		t.Errorf("m = %s", got)
	}
	if got := n.Lowering().CExpr("threadIdx.x", 512); got != "(threadIdx.x % 32)" {
		t.Errorf("n = %s", got)
	}
	// xgemm D_rmem: blockDim=256, mw: 256 -> 128 (unit 4 * cuda_warp), nw: 128 -> 32.
	cta = mustDevice(t, 256, 1)
	mw, _ := cta.CudaThreads(0, 2, scaled(t, CudaWarp, 4))
	nw, err := mw.CudaThreads(1, 4, CudaWarp)
	if err != nil {
		t.Fatal(err)
	}
	if mw.TileThreads != 128 || nw.TileThreads != 32 || nw.Matches(CudaWarp) != nil {
		t.Errorf("D_rmem chain %d -> %d -> %d", cta.TileThreads, mw.TileThreads, nw.TileThreads)
	}
	if mw.Matches(CudaWarpgroup) != nil {
		t.Errorf("4 * cuda_warp at aligned offsets is a warpgroup: %v", mw.Matches(CudaWarpgroup))
	}
}

func TestMatches(t *testing.T) {
	cta := mustDevice(t, 256, 1)
	w, _ := cta.CudaThreads(0, 8, CudaWarp)
	qp, err := w.CudaThreads(1, 4, CudaQuadpair)
	if err != nil {
		t.Fatal(err)
	}
	if got := threadsOf(qp, []int{1, 1}); got != "[36,39] [52,55]" {
		t.Errorf("quadpair 1 of warp 1: %s", got)
	}
	if err := qp.Matches(CudaQuadpair); err != nil {
		t.Error(err)
	}
	// 32 threads starting at thread 16 are not a warp.
	h, _ := cta.CudaThreads(0, 16, scaled(t, CudaThread, 16))
	if _, err := h.CudaThreads(1, 1, CudaWarp); err == nil {
		t.Error("a warp from 16 threads")
	}
	w2, _ := cta.CudaWarps(1, 3)
	pairs, err := w2.CudaThreads(0, 1, scaled(t, CudaWarp, 2))
	if err != nil {
		t.Fatal(err)
	}
	if err := pairs.Matches(scaled(t, CudaWarp, 2)); err == nil || !strings.Contains(err.Error(), "not aligned") {
		t.Errorf("warps 1-2 matched 2 * cuda_warp: %v", err)
	}
	if err := w.Matches(CudaWarpgroup); err == nil || err.Error() != "the collective is 32 threads, not one cuda_warpgroup (128 threads)" {
		t.Errorf("warp as warpgroup: %v", err)
	}
	if err := cta.Matches(CudaAgnosticIntactCta); err != nil {
		t.Error(err)
	}
	if err := w.Matches(CudaAgnosticSubCta); err != nil {
		t.Error(err)
	}
	if err := cta.Matches(CudaAgnosticSubCta); err != nil {
		t.Error(err)
	}
	// Strided: 4 threads, 8 apart, inside a warp.
	s, err := w.CudaThreads(1, 8, scaled(t, ThreadsStrided(1, 8), 4))
	if err != nil {
		t.Fatal(err)
	}
	if got := threadsOf(s, []int{2, 3}); got != "[67,67] [75,75] [83,83] [91,91]" {
		t.Errorf("strided: %s", got)
	}
}

func TestClusterUnits(t *testing.T) {
	cl := mustDevice(t, 128, 4)
	if cl.Matches(CudaCluster) != nil || cl.Describe() != "a cluster of 512" {
		t.Errorf("cluster scope: %s", cl.Describe())
	}
	cta, err := cl.CudaThreads(0, 4, CudaCtaInCluster)
	if err != nil {
		t.Fatal(err)
	}
	if got := threadsOf(cta, []int{2}); got != "[256,383]" || cta.Describe() != "a CTA of 128" {
		t.Errorf("cta 2: %s (%s)", got, cta.Describe())
	}
	if _, err := cl.CudaThreads(0, 2, CtaInClusterStrided(2)); err == nil {
		t.Error("one strided CTA from a cluster in one loop (two dimensions tiled)")
	}
	st, err := cl.CudaThreads(0, 2, scaled(t, CtaInClusterStrided(2), 2))
	if err != nil {
		t.Fatal(err)
	}
	if got := threadsOf(st, []int{1}); got != "[128,255] [384,511]" {
		t.Errorf("strided cta 1: %s", got)
	}
	wic, err := cl.CudaThreads(0, 4, CudaWarpInCluster)
	if err == nil {
		t.Errorf("warp_in_cluster from a whole cluster in one loop: %s", threadsOf(wic, []int{1}))
	}
	// Inheritance: warps of a cluster-scope collective span every CTA.
	w, err := cl.CudaThreads(0, 4, CudaWarp)
	if err != nil {
		t.Fatal(err)
	}
	if got := threadsOf(w, []int{1}); got != "[32,63] [160,191] [288,319] [416,447]" {
		t.Errorf("warp 1 of every CTA: %s", got)
	}
	if w.Matches(CudaWarp) == nil {
		t.Error("4 warps matched cuda_warp")
	}
}

// oracle is an independent, brute-force model of the thread mapping: it
// keeps every scope as an explicit map from iterator values to thread
// lists and subdivides by grouping threads into unit boxes relative to the
// collective's first thread.
type oracleScope struct {
	envs    [][]int
	threads [][]int
	// full is each collective ignoring warp specialization (seed 002, Rule
	// 2/4): CudaWarps narrows threads but not full.
	full [][]int
}

func relDigits(rel int, dims []int) []int {
	out := make([]int, len(dims))
	for i := len(dims) - 1; i >= 0; i-- {
		out[i] = rel % dims[i]
		rel /= dims[i]
	}
	return out
}

// group splits ts into unit boxes relative to start, in order of their
// first thread.
func group(ts []int, start, total int, domain, box []int) ([]string, map[string][]int) {
	classes := map[string][]int{}
	var keys []string
	for _, x := range ts {
		rel := ((x-start)%total + total) % total
		dg := relDigits(rel, domain)
		var key []string
		for i := range dg {
			key = append(key, fmt.Sprint(dg[i]/box[i]))
		}
		kk := strings.Join(key, ",")
		if _, ok := classes[kk]; !ok {
			keys = append(keys, kk)
		}
		classes[kk] = append(classes[kk], x)
	}
	sort.SliceStable(keys, func(i, j int) bool { return classes[keys[i]][0] < classes[keys[j]][0] })
	return keys, classes
}

func intersect(a, b []int) []int {
	in := map[int]bool{}
	for _, x := range b {
		in[x] = true
	}
	var out []int
	for _, x := range a {
		if in[x] {
			out = append(out, x)
		}
	}
	return out
}

// oracleThreads subdivides each collective by unit u into count iterations.
// Normally the unit's boxes are laid out from the collective's first
// thread; when the scope is warp-specialized and the unit spans the
// specialization (its boxes are larger than what is left of the
// collective), the boxes are laid out over the collective ignoring warp
// specialization and each iteration keeps only its selected warps.
func oracleThreads(s oracleScope, m Machine, u Unit, count int) (oracleScope, bool) {
	domain, box, err := u.Resolve(m)
	if err != nil {
		return oracleScope{}, false
	}
	total := 1
	unitThreads := 1
	for i, d := range domain {
		total *= d
		unitThreads *= box[i]
	}
	var out oracleScope
	for k, ts := range s.threads {
		keys, classes := group(ts, ts[0], total, domain, box)
		inherit := len(ts) / (len(keys) * unitThreads)
		ok := inherit > 0
		for _, kk := range keys {
			if len(classes[kk]) != unitThreads*inherit {
				ok = false
			}
		}
		if ok {
			if len(keys) < count {
				return oracleScope{}, false
			}
			fkeys, fclasses := group(s.full[k], ts[0], total, domain, box)
			_ = fkeys
			for y, kk := range keys[:count] {
				out.envs = append(out.envs, append(append([]int(nil), s.envs[k]...), y))
				out.threads = append(out.threads, classes[kk])
				out.full = append(out.full, fclasses[kk])
			}
			continue
		}
		fs := s.full[k]
		if len(fs) == len(ts) {
			return oracleScope{}, false
		}
		fkeys, fclasses := group(fs, fs[0], total, domain, box)
		finherit := len(fs) / (len(fkeys) * unitThreads)
		if finherit == 0 || len(fkeys) < count {
			return oracleScope{}, false
		}
		size := -1
		for y, kk := range fkeys {
			act := intersect(fclasses[kk], ts)
			if len(fclasses[kk]) != unitThreads*finherit || len(act) == 0 || size >= 0 && len(act) != size {
				return oracleScope{}, false
			}
			size = len(act)
			if y < count {
				out.envs = append(out.envs, append(append([]int(nil), s.envs[k]...), y))
				out.threads = append(out.threads, act)
				out.full = append(out.full, fclasses[kk])
			}
		}
	}
	return out, true
}

func oracleWarps(s oracleScope, m Machine, lo, hi int) (oracleScope, bool) {
	var out oracleScope
	for k, ts := range s.threads {
		start := ts[0]
		var sel []int
		counts := map[int]int{}
		maxw := -1
		for _, x := range ts {
			w := ((x - start) % m.BlockDim) / 32
			counts[w]++
			if w > maxw {
				maxw = w
			}
			if w >= lo && w < hi {
				sel = append(sel, x)
			}
		}
		if maxw < hi-1 || (x0(ts)-start)%32 != 0 {
			return oracleScope{}, false
		}
		for _, c := range counts {
			if c%32 != 0 {
				return oracleScope{}, false
			}
		}
		out.envs = append(out.envs, s.envs[k])
		out.threads = append(out.threads, sel)
		out.full = append(out.full, s.full[k])
	}
	return out, true
}

func x0(ts []int) int { return ts[0] }

func randomUnit(r *rand.Rand, m Machine) Unit {
	pick := func(xs ...int) int { return xs[r.Intn(len(xs))] }
	switch r.Intn(8) {
	case 0, 1:
		u, _ := CudaThread.Scaled(pick(1, 1, 2, 4, 8, 16, 32, 64))
		return u
	case 2:
		u, _ := CudaWarp.Scaled(pick(1, 1, 2, 4))
		return u
	case 3:
		u, _ := CudaWarpgroup.Scaled(pick(1, 1, 2))
		return u
	case 4:
		return CudaQuadpair
	case 5:
		n3 := pick(4, 8, 16)
		u, _ := ThreadsStrided(pick(1, 2, 4)%n3+0, n3).Scaled(pick(1, 2, 4))
		if u.Box[1].Num > n3 {
			u.Box[1].Num = 1
		}
		return u
	case 6:
		u, _ := CudaCtaInCluster.Scaled(pick(1, 1, 2))
		return u
	default:
		return CudaWarpInCluster
	}
}

// TestPropertyAgainstBruteForce derives random nests of cuda_threads loops
// and CudaWarps blocks on random launch shapes and checks every
// collective, and the codegen lowering, against the oracle.
func TestPropertyAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	agreed, rejectedBoth, stricter := 0, 0, 0
	for trial := 0; trial < 3000; trial++ {
		m := Machine{BlockDim: []int{32, 64, 128, 256, 384}[r.Intn(5)], ClusterDim: []int{1, 1, 2, 4}[r.Intn(4)]}
		tl, _ := DeviceTiling(m)
		var all []int
		for x := 0; x < m.Threads(); x++ {
			all = append(all, x)
		}
		or := oracleScope{envs: [][]int{nil}, threads: [][]int{all}, full: [][]int{all}}
		depth := 1 + r.Intn(4)
		nIters := 0
		for d := 0; d < depth; d++ {
			var next *Tiling
			var err error
			var onext oracleScope
			var ok bool
			var desc string
			if r.Intn(5) == 0 {
				lo := r.Intn(4)
				hi := lo + 1 + r.Intn(3)
				desc = fmt.Sprintf("CudaWarps(%d, %d)", lo, hi)
				next, err = tl.CudaWarps(lo, hi)
				onext, ok = oracleWarps(or, m, lo, hi)
				if ok && m.ClusterDim > 1 && tl.threads > m.BlockDim {
					ok = err == nil // per-CTA selection: checked below by comparison
				}
			} else {
				u := randomUnit(r, m)
				count := 1 + r.Intn(8)
				desc = fmt.Sprintf("cuda_threads(0, %d, unit=%s)", count, u)
				next, err = tl.CudaThreads(nIters, count, u)
				onext, ok = oracleThreads(or, m, u, count)
				if err == nil {
					nIters++
				}
			}
			if err != nil && ok {
				// Derive refines a single dimension per loop (seed 000
				// §4, derive) and needs whole unit boxes in the scope's
				// shape (inherited CTA dimensions included); the oracle only groups threads, so it accepts
				// more. Those cases must be one of the two known reasons.
				if msg := err.Error(); !strings.Contains(msg, "more than one dimension") && !strings.Contains(msg, "does not fit") && !strings.Contains(msg, "loop needs") {
					t.Fatalf("trial %d: %v: %s under %s rejected for an unexpected reason: %v", trial, m, desc, tl, err)
				}
				stricter++
				break
			}
			if err != nil {
				rejectedBoth++
				break
			}
			if !ok {
				t.Fatalf("trial %d: %v: derive accepted %s that the oracle rejects (tiling %s) parent %s kind %d parentTile %v full %v", trial, m, desc, next, tl, tl.Kind, tl.Tile, tl.Full)
			}
			// Compare every collective.
			for k, env := range onext.envs {
				c := next.Collective(env)
				got := c.AppendThreads(nil)
				if !reflect.DeepEqual(got, onext.threads[k]) {
					t.Fatalf("trial %d: %v: %s env %v: threads %v, oracle %v", trial, m, desc, env, got, onext.threads[k])
				}
				for _, x := range got {
					if !c.Contains(x) {
						t.Fatalf("%s: Contains(%d) false: %+v tile %v full %v dims %v", desc, x, c, next.Tile, next.Full, next.Dims)
					}
				}
			}
			if next.Iterations() != len(onext.envs) {
				t.Fatalf("trial %d: %s: %d iterations, oracle %d", trial, desc, next.Iterations(), len(onext.envs))
			}
			// The lowering computes each iterator from the thread index.
			if l := next.Lowering(); l.OK && next.Kind == KindThreads {
				for k, ts := range or.threads {
					for _, x := range ts {
						v := l.Value(x)
						inChild := false
						for k2, env := range onext.envs {
							if fmt.Sprint(env[:len(env)-1]) == fmt.Sprint(or.envs[k]) {
								for _, y := range onext.threads[k2] {
									if y == x {
										inChild = true
										if v != env[len(env)-1] {
											t.Fatalf("trial %d: %s: thread %d: lowered iterator %d, want %d", trial, desc, x, v, env[len(env)-1])
										}
									}
								}
							}
						}
						if !inChild && (v >= 0 && v < l.Bound) {
							t.Fatalf("trial %d: %s: idle thread %d lowers to iteration %d (guard %v)", trial, desc, x, v, l.Guard)
						}
					}
				}
			}
			tl, or = next, onext
			agreed++
		}
	}
	t.Logf("derivations agreeing with the oracle: %d; rejected by both: %d; rejected only by derive: %d", agreed, rejectedBoth, stricter)
	if agreed < 1200 {
		t.Errorf("only %d derivations exercised", agreed)
	}
}

func BenchmarkCollective(b *testing.B) {
	cta, _ := DeviceTiling(Machine{BlockDim: 256, ClusterDim: 1})
	m, _ := cta.CudaThreads(0, 8, CudaWarp)
	n, _ := m.CudaThreads(1, 32, CudaThread)
	env := []int{3, 7}
	b.ReportAllocs()
	s := 0
	for i := 0; i < b.N; i++ {
		env[1] = i & 31
		c := n.Collective(env)
		s += c.Start
	}
	_ = s
}

// The consumer warps 4-11 of a 12-warp CTA are 256 contiguous threads: one
// cuda_threads loop over cuda_thread tiles them (the scope's whole warp
// dimension merges with the lanes).
func TestSpecializedThreadLoop(t *testing.T) {
	top := mustDevice(t, 384, 2)
	c, err := top.NamedWarps("consumer", 4, 12)
	if err != nil {
		t.Fatal(err)
	}
	cta, err := c.CudaThreads(0, 2, CudaCtaInCluster)
	if err != nil {
		t.Fatal(err)
	}
	th, err := cta.CudaThreads(1, 256, CudaThread)
	if err != nil {
		t.Fatal(err)
	}
	if got := threadsOf(th, []int{1, 255}); got != "[767,767]" {
		t.Errorf("cta 1, t 255: %s", got)
	}
	if got := threadsOf(th, []int{0, 0}); got != "[128,128]" {
		t.Errorf("cta 0, t 0: %s", got)
	}
	l := th.Lowering()
	if !l.OK || l.Value(128) != 0 || l.Value(383) != 255 || l.Value(384+200) != 72 {
		t.Errorf("lowering %+v: %d %d %d", l, l.Value(128), l.Value(383), l.Value(584))
	}
	if cta.TileThreads != 384 || th.TileThreads != 1 {
		t.Errorf("tile threads %d -> %d", cta.TileThreads, th.TileThreads)
	}
}

// A unit narrower than the scope's domain is taken in every CTA: the
// message says so.
func TestInheritedMessage(t *testing.T) {
	cl := mustDevice(t, 128, 4)
	w, err := cl.CudaThreads(0, 4, CudaWarp)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.CudaThreads(1, 2, scaled(t, CudaThread, 32))
	want := "loop needs 256 threads, scope is 4 warps (128 threads) (one 32 * cuda_thread is 32 threads in each of the scope's 4 CTAs)"
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

// Exo's GPU branch: a one-iteration loop over one CTA inside a CTA of the
// cluster's consumer warps (`for cta_n in cuda_threads(0, 1,
// unit=cuda_cta_in_cluster)`, printed "exo_0thr_cta_n = 0") is the whole
// scope: its iterator lowers to 0, and a warpgroup loop inside it lowers
// as it would without it (the warpgroups of the consumers, 128 apart from
// thread 128 of the CTA).
func TestOneIterationLoop(t *testing.T) {
	d, err := NewDeviceFunction(0, 2, 2, []WarpConfig{{"producer", 4, 40, 0}, {"consumer", 8, 0, 232}})
	if err != nil {
		t.Fatal(err)
	}
	top, _ := DeviceTiling(d.Machine())
	cta, err := top.CudaThreads(0, 2, CudaCtaInCluster)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi, _ := d.WarpRange("consumer")
	cons, err := cta.NamedWarps("consumer", lo, hi)
	if err != nil {
		t.Fatal(err)
	}
	one, err := cons.CudaThreads(1, 1, CudaCtaInCluster)
	if err != nil {
		t.Fatal(err)
	}
	if l := one.Lowering(); !l.OK || l.CExpr("exo_x", 768) != "0" || l.CGuard("n") != "1" {
		t.Errorf("one-iteration loop lowers to %q guarded by %q (ok %v), want 0 unguarded", l.CExpr("exo_x", 768), l.CGuard("n"), l.OK)
	}
	wg, err := one.CudaThreads(2, 2, CudaWarpgroup)
	if err != nil {
		t.Fatal(err)
	}
	if l := wg.Lowering(); !l.OK || l.CExpr("exo_x", 768) != "(((exo_x % 384) - 128) / 128)" {
		t.Errorf("warpgroup loop inside it lowers to %q (ok %v)", l.CExpr("exo_x", 768), l.OK)
	}
	if got := threadsOf(wg, []int{1, 0, 1}); got != "[640,767]" {
		t.Errorf("cta 1 consumer warpgroup 1: %s", got)
	}
}

// BenchmarkDerive derives a fresh tiling nest each time, as a checker walking
// one kernel does: a warp loop, a lane loop, a CudaWarps block and a match.
func BenchmarkDerive(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		cta, _ := DeviceTiling(Machine{BlockDim: 256, ClusterDim: 2})
		c, _ := cta.CudaThreads(0, 2, CudaCtaInCluster)
		w, _ := c.CudaWarps(0, 4)
		m, _ := w.CudaThreads(1, 4, CudaWarp)
		n, _ := m.CudaThreads(2, 32, CudaThread)
		if n.Matches(CudaThread) != nil {
			b.Fatal("no match")
		}
	}
}
