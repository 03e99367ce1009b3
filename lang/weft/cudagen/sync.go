package cudagen

import (
	"fmt"
	"strconv"
	"strings"

	"weft.dev/weft/cuda"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// barState is one barrier allocation in a device function.
type barState struct {
	v      *sym
	mem    string // CudaMbarrier, CudaCommitGroup, CudaClusterSync
	id     string // C prefix of its state and arrays
	slices int    // physical slices (non-CTA-selecting indices)
	f      *barFacts
	fwdOff int
	revOff int
	fwdR   int // ring sizes
	revR   int
	tx     int // expect-tx bytes of TMA copies since the last arrive
	ring   int // depth of Exo's ring_buffer_by dimension (0: none; ring.go)
	pre    int // CudaMbarrierPreArrive(pre): pre-arrived logical barriers
}

func (b *barState) stateFields() []string {
	if b.mem != "CudaMbarrier" {
		return nil
	}
	if b.ring > 0 {
		return []string{b.id + "_ep"}
	}
	fs := []string{b.id + "_farr", b.id + "_fawt", b.id + "_fpar", b.id + "_fskip"}
	if b.f.hasRev {
		fs = append(fs, b.id+"_rarr", b.id+"_rawt", b.id+"_rpar", b.id+"_rskip")
	}
	return fs
}

func (b *barState) emitInit(w *cuda.Writer) {
	if b.mem != "CudaMbarrier" {
		return
	}
	count := b.f.fwdCount
	if count == 0 {
		count = 1
	}
	w.Line("for (int exo_i = 0; exo_i < %d; exo_i++) weft::mbarrier_init(reinterpret_cast<uint64_t *>(exo_smem + %d) + exo_i, %d);  // %s", b.slices*b.fwdR, b.fwdOff, count, b.v.name)
	if b.f.hasRev {
		rc := b.f.revCount
		if rc == 0 {
			rc = 1
		}
		w.Line("for (int exo_i = 0; exo_i < %d; exo_i++) weft::mbarrier_init(reinterpret_cast<uint64_t *>(exo_smem + %d) + exo_i, %d);  // %s (reverse)", b.slices*b.revR, b.revOff, rc, b.v.name)
	}
}

func (g *gen) barrierAlloc(ctx *devCtx, v *sym, a *syntax.Alloc) {
	d := ctx.d
	switch v.mem {
	case "CudaMbarrier", "CudaCommitGroup", "CudaClusterSync":
	case "CudaEvent":
		g.errorf(a, codeBarrier, "CudaEvent barriers are not supported in CUDA device function")
		return
	default:
		g.errorf(a, codeBarrier, "unknown barrier memory %s", v.mem)
		return
	}
	off := a.Pos().Offset
	if b := d.barByOff[off]; b != nil {
		// The same allocation in another warp name's code path: one
		// barrier, shared by every path.
		v.bar = b
		b.emitDecl(ctx.w)
		return
	}
	f := g.facts.bars[off]
	if f == nil {
		f = &barFacts{}
		put(&g.facts.bars, off, f)
	}
	b := &barState{v: v, mem: v.mem, f: f, id: fmt.Sprintf("exo_%s_%d", cuda.Ident(v.name), len(d.bars)), slices: 1}
	v.bar = b
	put(&d.barByOff, off, b)
	if v.mem == "CudaClusterSync" && d.m.ClusterDim == 1 {
		g.errorf(a, codeBarrier, "CudaClusterSync needs clusterDim > 1")
	}
	if v.mem != "CudaMbarrier" {
		d.bars = append(d.bars, b)
		return
	}
	if k, depth := g.ringDim(a); k >= 0 {
		pre := 0
		if len(v.memArg) > 0 {
			pre = int(v.memArg[0])
		}
		g.ringAlloc(ctx, b, a, k, depth, pre)
		return
	} else if v.preArrive {
		g.errorf(a, codeBarrier, "CudaMbarrierPreArrive needs a ring-buffered dimension (barrier[..., n @ ring_buffer_by(depth)])")
		return
	}
	for _, dim := range v.dims {
		n, ok := g.constValue(dim, ctx.sc)
		if !ok {
			g.errorf(dim, codeConst, "barrier dimensions must be constants")
			return
		}
		b.slices *= int(n)
	}
	if d.m.ClusterDim > 1 && len(v.dims) > 0 {
		// A leading dimension indexed by a CTA-selecting iterator picks
		// the CTA, not a slot in it; the arrays keep every slot anyway
		// (CTAs use the same offsets).
	}
	b.fwdR, b.revR = ringSizes(f)
	if g.single {
		// The Awaits that size the rings come later: their final sizes,
		// which the second pass would read, decide (single.go).
		slices := b.slices
		g.deferred = append(g.deferred, func() {
			fwdR, revR := ringSizes(f)
			g.ringSizeErrs(a, slices, fwdR, revR)
		})
	} else {
		g.ringSizeErrs(a, b.slices, b.fwdR, b.revR)
	}
	b.fwdOff = d.mbarTop
	d.mbarTop += 8 * b.slices * b.fwdR
	if f.hasRev {
		b.revOff = d.mbarTop
		d.mbarTop += 8 * b.slices * b.revR
	}
	d.bars = append(d.bars, b)
	b.emitDecl(ctx.w)
}

// ringSizes is the number of forward and reverse mbarriers of each slot of
// a (non-ring-buffered) CudaMbarrier: one per lag of its Awaits.
func ringSizes(f *barFacts) (fwdR, revR int) {
	if f.hasRev {
		fwdR = max(1, f.fwdSkips+f.revSkips)
		return fwdR, fwdR
	}
	return f.fwdSkips + 1, 0
}

// ringSizeErrs reports the limits on an mbarrier array of slices slots of
// fwdR and revR mbarriers.
func (g *gen) ringSizeErrs(a *syntax.Alloc, slices, fwdR, revR int) {
	if slices > 1 && (fwdR > 1 || revR > 1) {
		g.errorf(a, codeBarrier, "an indexed CudaMbarrier cannot also be a ring (Await with N < ~0): use one or the other")
	}
	if slices*fwdR > 32 {
		g.errorf(a, codeBarrier, "at most 32 mbarriers per barrier variable (this one needs %d)", slices*fwdR)
	}
}

func (b *barState) emitDecl(w *cuda.Writer) {
	if b.mem != "CudaMbarrier" || w.Discard {
		return
	}
	// Warp-specialized code paths may not touch every barrier.
	w.Line("[[maybe_unused]] uint64_t *const %s = reinterpret_cast<uint64_t *>(exo_smem + %d);  // %s @ CudaMbarrier", b.id, b.fwdOff, b.v.name)
	if b.f.hasRev {
		w.Line("[[maybe_unused]] uint64_t *const %s_rev = reinterpret_cast<uint64_t *>(exo_smem + %d);", b.id, b.revOff)
	}
}

// barTarget resolves `bar` or `bar[i, ...]` to its state and the C
// expression of its slice.
func (g *gen) barTarget(ctx *devCtx, e syntax.Expr) (*barState, string, bool) {
	return g.barTargetUnits(ctx, e, false)
}

// barTargetUnits is barTarget for the completion barrier of an instruction;
// ctaSlices is set when the instruction declares barrier units across the
// cluster's CTAs (TMA multicast, barrier_units=[cuda_cta_in_cluster]): a
// slice index then spans the CTAs, whose mbarriers sit at the same SMEM
// offset, so like a CTA-selecting iterator it contributes no offset
// (distributed dimensions are stripped, seed 002 Rule 4/4).
func (g *gen) barTargetUnits(ctx *devCtx, e syntax.Expr, ctaSlices bool) (*barState, string, bool) {
	b, slice, _, ok := g.barTargetRing(ctx, e, ctaSlices)
	return b, slice, ok
}

// barTargetRing is barTargetUnits that also returns the C expression of the
// ring index of a ring-buffered mbarrier (ring.go; "" for others).
func (g *gen) barTargetRing(ctx *devCtx, e syntax.Expr, ctaSlices bool) (*barState, string, string, bool) {
	var name *syntax.Name
	var idx []syntax.Expr
	switch e := e.(type) {
	case *syntax.Name:
		name = e
	case *syntax.Index:
		name, _ = e.X.(*syntax.Name)
		idx = e.Indices
	}
	if name == nil {
		g.errorf(e, codeBarrier, "expected a barrier")
		return nil, "", "", false
	}
	v := ctx.sc.lookup(name.Name)
	if v == nil || v.kind != kBarrier || v.bar == nil {
		g.errorf(e, codeBarrier, "%s is not a barrier of this device function", name.Name)
		return nil, "", "", false
	}
	b := v.bar
	if len(idx) != 0 && len(idx) != len(v.dims) {
		g.errorf(e, codeName, "%s has %d dimensions, indexed with %d", name.Name, len(v.dims), len(idx))
		return nil, "", "", false
	}
	if b.mem != "CudaMbarrier" || len(idx) == 0 {
		return b, "0", "", true
	}
	x0 := &exprCtx{g: g, sc: ctx.sc, device: true}
	ring := ""
	dimsAll := v.dims
	if b.ring > 0 {
		if c, ok := g.constValue(idx[len(idx)-1], ctx.sc); ok {
			ring = strconv.FormatInt(c, 10)
		} else {
			ring = x0.expr(idx[len(idx)-1])
		}
		idx = idx[:len(idx)-1]
		dimsAll = v.dims[:len(v.dims)-1]
		if len(idx) == 0 {
			return b, "0", ring, true
		}
	}
	// All barrier indices are distributed (seed 002 "Split barriers"); an
	// index that selects a CTA of the cluster picks whose SMEM, which is
	// the executing CTA's own, so it contributes no offset.
	x := &exprCtx{g: g, sc: ctx.sc, device: true}
	ctaIndex := func(i syntax.Expr) bool {
		if _, ok := i.(*syntax.Slice); ok {
			return ctaSlices
		}
		if n, ok := i.(*syntax.Name); ok {
			if it := ctx.sc.lookup(n.Name); it != nil && it.ctaSel {
				return true
			}
		}
		return false
	}
	var keep []syntax.Expr
	var dims []syntax.Expr
	for k, i := range idx {
		if n, ok := i.(*syntax.Name); ok && b.ring > 0 {
			if it := ctx.sc.lookup(n.Name); it != nil && it.ctaSel {
				g.recordCTAPitch(ctx, b, k, it)
			}
		}
		if ctaIndex(i) {
			continue
		}
		if k < len(dimsAll) {
			keep = append(keep, i)
			dims = append(dims, dimsAll[k])
		}
	}
	// The stripped dimensions still occupy slots (their extent is kept in
	// slices), so the linear index uses the full shape with 0 for them.
	if len(keep) != len(idx) {
		full := make([]syntax.Expr, len(idx))
		for k, i := range idx {
			if ctaIndex(i) {
				full[k] = zero()
				continue
			}
			full[k] = i
		}
		return b, x.linear(full, dimsAll), ring, true
	}
	return b, x.linear(keep, dims), ring, true
}

func (g *gen) timeline(e syntax.Expr) *lib.SyncTL {
	n, ok := e.(*syntax.Name)
	if !ok {
		g.errorf(e, codeUnsupported, "expected a sync timeline")
		return nil
	}
	tl := g.syncTL(n.Name)
	if tl == nil {
		g.errorf(e, codeName, "unknown sync timeline %s", n.Name)
	}
	return tl
}

// has reports whether tl's full set includes the qualitative timeline
// whose bit is q (lib.KnownQuals; 0, a timeline the library lacks, tests
// false).
func (g *gen) has(tl *lib.SyncTL, q lib.QualSet) bool {
	return tl != nil && tl.FullSet&q != 0
}

func (g *gen) asyncProxy(tl *lib.SyncTL) bool {
	return g.has(tl, g.lib.Known.TMAToSmem) || g.has(tl, g.lib.Known.TMAToGmem) || g.has(tl, g.lib.Known.WmmaSmem)
}

func (g *gen) generic(tl *lib.SyncTL) bool {
	return g.has(tl, g.lib.Known.InOrderRAM) || g.has(tl, g.lib.Known.InOrderRMEM)
}

// fence lowers Fence(first, second) by the collective in scope and the
// timelines (spec §8.2): wait for cp.async / bulk / wgmma groups the first
// timeline includes, a proxy fence when generic writes meet async-proxy
// reads, then the thread barrier of the collective.
func (g *gen) fence(ctx *devCtx, s *syntax.Fence) {
	w := ctx.w
	first, second := g.timeline(s.First), g.timeline(s.Second)
	if first == nil || second == nil {
		return
	}
	n := ctx.cur.Threads()
	if !w.Discard {
		w.Line("// Fence(%s, %s): %d threads", syntax.ExprString(s.First), syntax.ExprString(s.Second), n)
	}
	if first.Name == "wmma_fence_1" && second.Name == "wmma_fence_2" {
		if n != 128 || ctx.cur.Matches(mustUnit("cuda_warpgroup")) != nil {
			g.errorf(s, codeFence, "Fence(wgmma_fence_1, wgmma_fence_2) runs on a warpgroup; the collective here has %d threads", n)
			return
		}
		w.Line("weft::wgmma_fence();")
		return
	}
	if g.has(first, g.lib.Known.TMAToSmem) {
		g.errorf(s.First, codeFence, "TMA copies to SMEM complete on an mbarrier: use Arrive/Await, not Fence")
		return
	}
	if g.has(first, g.lib.Known.CpAsync) {
		w.Line("weft::cp_async_wait_all();")
	}
	if g.has(first, g.lib.Known.TMAToGmem) {
		w.Line("weft::bulk_wait_group<0>();")
	}
	if g.has(first, g.lib.Known.WmmaRmemD) || g.has(first, g.lib.Known.WmmaSmem) {
		if n%128 != 0 {
			g.errorf(s, codeFence, "waiting for wgmma needs whole warpgroups; the collective here has %d threads", n)
			return
		}
		w.Line("weft::wgmma_wait_group<0>();")
	}
	if g.generic(first) && g.asyncProxy(second) {
		w.Line("weft::fence_proxy_async();")
	}
	// A warpgroup waiting only for its own wgmma needs no thread barrier.
	if n == 128 && !g.generic(first) && (g.has(first, g.lib.Known.WmmaRmemD) || g.has(first, g.lib.Known.WmmaSmem)) {
		return
	}
	g.threadBarrier(ctx, s, n)
}

func mustUnit(name string) coll.Unit {
	u, _ := coll.LookupUnit(name)
	return u
}

// threadBarrier emits the barrier of the collective in scope: nothing for
// one thread, __syncwarp for (part of) a warp, barrier.cta.sync 0 for the
// CTA, a named barrier for a group of whole warps (warp specialization),
// the cluster barrier for the cluster.
func (g *gen) threadBarrier(ctx *devCtx, at syntax.Node, n int) {
	g.threadBarrierTo(ctx, at, n, g.errorf)
}

// threadBarrierTo is threadBarrier reporting its problems to report.
func (g *gen) threadBarrierTo(ctx *devCtx, at syntax.Node, n int, report reportFunc) {
	w := ctx.w
	d := ctx.d
	m := d.m
	// The collective at iterators 0 (Affine.Eval counts missing
	// iterators as 0).
	col := ctx.cur.Collective(nil)
	contiguous := col.N <= 1 || (col.N == 1 && col.Runs[0].Stride == 1)
	if col.N == 1 && col.Runs[0].Stride != 1 {
		contiguous = false
	}
	aligned := func(k int) bool {
		if ctx.cur.Base.Const%k != 0 {
			return false
		}
		for _, t := range ctx.cur.Base.Terms {
			if t.Step%k != 0 {
				return false
			}
		}
		return true
	}
	switch {
	case n == 1:
		return
	case n == m.Threads() && m.ClusterDim > 1:
		w.Line("weft::cluster_sync();")
	case n == m.BlockDim && contiguous:
		w.Line("weft::barrier_cta_sync();")
	case n == 32 && contiguous && aligned(32):
		w.Line("__syncwarp();")
	case n < 32 && contiguous && n&(n-1) == 0 && aligned(n):
		w.Line("__syncwarp(((1u << %d) - 1) << (threadIdx.x %% 32 / %d * %d));", n, n, n)
	case n%32 == 0 && n < m.BlockDim && contiguous && aligned(32):
		nw := m.BlockDim / 32
		k := (nw + 14) / 15 // ids 1..15: groups of >= k warps have distinct first warps / k
		if n/32 < k {
			report(at, codeFence, "a barrier of %d threads in a CTA of %d needs a named barrier, and only 15 exist: use groups of at least %d warps", n, m.BlockDim, 32*k)
			return
		}
		start := strconv.Itoa(ctx.cur.Base.Const)
		var terms []string
		allConst := true
		for _, t := range ctx.cur.Base.Terms {
			if t.Step == 0 {
				continue
			}
			allConst = false
			terms = append(terms, fmt.Sprintf("%d * %s", t.Step, d.iterNames[t.Iter]))
		}
		if allConst {
			id := 1 + (ctx.cur.Base.Const%m.BlockDim)/32/k
			w.Line("weft::barrier_cta_sync(%d, %d);", id, n)
			return
		}
		expr := strings.Join(terms, " + ")
		if ctx.cur.Base.Const != 0 {
			expr = start + " + " + expr
		}
		w.Line("weft::barrier_cta_sync(1 + (%s) %% %d / %d, %d);", expr, m.BlockDim, 32*k, n)
	default:
		report(at, codeFence, "no CUDA barrier synchronizes exactly this collective (%d threads, %s)", n, ctx.cur.Describe())
	}
}

func (g *gen) arrive(ctx *devCtx, s *syntax.Arrive) {
	w := ctx.w
	tl := g.timeline(s.TL)
	if tl == nil {
		return
	}
	if s.N != nil {
		if n, ok := g.constValue(s.N, ctx.sc); !ok || n != 1 {
			g.errorf(s.N, codeBarrier, "Arrive takes N = 1")
			return
		}
	}
	n := ctx.cur.Threads()
	mult := g.multicastArrivals(ctx, s)
	for _, t := range s.Barriers {
		b, slice, ring, ok := g.barTargetRing(ctx, t, mult > 0)
		if !ok {
			continue
		}
		if b.ring > 0 {
			if mult > 0 {
				g.ringMulticast(ctx, s, tl, b, t, slice, ring, n, mult)
				continue
			}
			g.ringArrive(ctx, s, tl, b, slice, ring, n)
			continue
		}
		if mult > 0 {
			g.errorf(t, codeBarrier, "an Arrive multicasts to a slice of a ring-buffered mbarrier array only (ring_buffer_by)")
			continue
		}
		switch b.mem {
		case "CudaCommitGroup":
			if s.Reverse {
				g.errorf(s, codeBarrier, "ReverseArrive is for CudaMbarrier only")
				continue
			}
			if g.pass == 1 {
				if b.f.arriveTL != "" && b.f.arriveTL != tl.Name {
					g.pass1Errorf(s, codeBarrier, "a commit group collects one kind of async instruction (%s before, %s here)", b.f.arriveTL, tl.Name)
				}
				b.f.arriveTL = tl.Name
			}
			switch tl.Name {
			case "Sm80_cp_async":
				w.Line("weft::cp_async_commit_group();")
			case "tma_to_gmem_async":
				w.Line("weft::bulk_commit_group();")
			case "wmma_async":
				w.Line("weft::wgmma_commit_group();")
			default:
				g.errorf(s.TL, codeBarrier, "CudaCommitGroup arrives are for Sm80_cp_async, tma_to_gmem_async or wgmma_async, not %s", tl.Name)
			}
		case "CudaClusterSync":
			if !g.arriveWaits(ctx, s, tl, n, "") {
				continue
			}
			w.Line("weft::cluster_arrive();")
		case "CudaMbarrier":
			if !g.arriveWaits(ctx, s, tl, n, ownQual(tl)) {
				continue
			}
			dir, arr, rng := "f", b.id, b.fwdR
			if s.Reverse {
				dir, arr, rng = "r", b.id+"_rev", b.revR
				if g.pass == 1 {
					b.f.hasRev = true
				}
			}
			count := n
			if g.pass == 1 && !s.Reverse && b.f.arriveTL == "" {
				b.f.arriveTL = tl.Name
			}
			ptr := g.mbarSlot(b, dir, arr, slice, rng)
			switch {
			case tl.Name == "Sm80_cp_async":
				w.Line("weft::cp_async_mbarrier_arrive_noinc(%s);", ptr)
			case tl.Name == "tma_to_smem_async":
				warp := n == 32 && ctx.cur.Matches(mustUnit("cuda_warp")) == nil
				if n != 1 && !warp {
					g.errorf(s, codeBarrier, "the arrive that completes TMA copies is issued by one thread or one warp (here %d threads)", n)
				}
				bytes := g.facts.tx[s.Pos().Offset]
				if g.pass == 1 {
					put(&g.facts.tx, s.Pos().Offset, b.tx)
				}
				if warp {
					// The warp that issued the copies (Exo's TMA unit):
					// its first lane announces the bytes, all arrive.
					w.Line("if (threadIdx.x %% 32u == 0u) weft::mbarrier_arrive_expect_tx(%s, %d); else weft::mbarrier_arrive(%s);", ptr, bytes, ptr)
				} else {
					w.Line("weft::mbarrier_arrive_expect_tx(%s, %d);", ptr, bytes)
				}
				b.tx = 0
				ctx.d.asyncProxy = true
			default:
				w.Line("weft::mbarrier_arrive(%s);", ptr)
			}
			g.advance(w, b, dir+"arr", rng)
			if g.pass == 1 {
				c := &b.f.fwdCount
				if s.Reverse {
					c = &b.f.revCount
				}
				if *c != 0 && *c != count {
					g.pass1Errorf(s, codeBarrier, "every arrive on %s must come from collectives of the same size (%d before, %d here)", b.v.name, *c, count)
				}
				*c = count
			}
		}
	}
}

// arriveWaits emits, before an mbarrier or cluster Arrive, the waits for
// the async accesses its first timeline's full set names (all but own, the
// kind the arrive itself completes: cp.async's noinc arrive, TMA's
// expect-tx). The sync check lets such an Arrive witness in-flight records
// of those timelines (Definition B.3: f ≥ unordered), as seed 000 §2.2
// reads it ("the completion of the Arrive" depends on the prior async
// instructions of its timeline retiring), so the lowering must wait for
// them as Fence does; a plain mbarrier.arrive would let, e.g., a
// ReverseArrive(cuda_generic_and_async) release a stage a wgmma still
// reads (issue 4). TMA copies to SMEM cannot be waited for here.
func (g *gen) arriveWaits(ctx *devCtx, s *syntax.Arrive, tl *lib.SyncTL, n int, own string) bool {
	w := ctx.w
	if own != "tma_to_smem_async_qual" && g.has(tl, g.lib.Known.TMAToSmem) {
		g.errorf(s.TL, codeBarrier, "this Arrive cannot wait for TMA copies to SMEM (%s includes tma_to_smem_async): they complete on their own mbarrier; Await it first and arrive with cuda_in_order", tl.Name)
		return false
	}
	if own != "Sm80_cp_async_qual" && g.has(tl, g.lib.Known.CpAsync) {
		w.Line("weft::cp_async_wait_all();")
	}
	if g.has(tl, g.lib.Known.TMAToGmem) {
		w.Line("weft::bulk_wait_group<0>();")
	}
	if g.has(tl, g.lib.Known.WmmaRmemA) || g.has(tl, g.lib.Known.WmmaRmemD) || g.has(tl, g.lib.Known.WmmaSmem) {
		if n%128 != 0 {
			g.errorf(s, codeBarrier, "waiting for wgmma before this Arrive (%s) needs whole warpgroups; the collective here has %d threads", tl.Name, n)
			return false
		}
		w.Line("weft::wgmma_wait_group<0>();")
	}
	return true
}

// ownQual is the qualitative timeline an mbarrier Arrive of timeline tl
// completes itself (cp.async's noinc arrive, TMA's expect-tx), "" for
// others.
func ownQual(tl *lib.SyncTL) string {
	switch tl.Name {
	case "Sm80_cp_async":
		return "Sm80_cp_async_qual"
	case "tma_to_smem_async":
		return "tma_to_smem_async_qual"
	}
	return ""
}

// mbarSlot is the address of the mbarrier an arrive uses now.
func (g *gen) mbarSlot(b *barState, dir, arr, slice string, ring int) string {
	idx := "exo_syncState." + b.id + "_" + dir + "arr"
	if ring <= 1 {
		idx = "0"
	}
	return "&" + arr + "[" + slotExpr(slice, ring, idx) + "]"
}

func slotExpr(slice string, ring int, idx string) string {
	switch {
	case slice == "0" && idx == "0":
		return "0"
	case slice == "0":
		return idx
	case idx == "0" && ring == 1:
		return slice
	}
	return fmt.Sprintf("(%s) * %d + %s", slice, ring, idx)
}

func (g *gen) advance(w *cuda.Writer, b *barState, field string, ring int) {
	if ring > 1 {
		f := "exo_syncState." + b.id + "_" + field
		w.Line("%s = (%s + 1) %% %d;", f, f, ring)
	}
}

func (g *gen) await(ctx *devCtx, s *syntax.Await) {
	w := ctx.w
	tl := g.timeline(s.TL)
	if tl == nil {
		return
	}
	b, slice, ring, ok := g.barTargetRing(ctx, s.Bar, false)
	if !ok {
		return
	}
	var n int64
	if s.N != nil {
		var ok bool
		n, ok = g.constValue(s.N, ctx.sc)
		if !ok {
			g.errorf(s.N, codeConst, "the N of Await must be a constant")
			return
		}
	}
	if b.ring > 0 {
		g.ringAwait(ctx, s, b, slice, ring, n)
		if g.asyncProxy(tl) && g.generic(g.syncTL(b.f.arriveTL)) {
			w.Line("weft::fence_proxy_async();")
		}
		return
	}
	switch b.mem {
	case "CudaCommitGroup":
		if n < 0 {
			g.errorf(s, codeBarrier, "Await on a commit group takes N >= 0 (wait_group N)")
			return
		}
		if g.single {
			f, tl := b.f, b.f.arriveTL
			g.factRead(func() bool { return f.arriveTL == tl })
		}
		switch b.f.arriveTL {
		case "Sm80_cp_async":
			w.Line("weft::cp_async_wait_group<%d>();", n)
		case "tma_to_gmem_async":
			w.Line("weft::bulk_wait_group<%d>();", n)
		case "wmma_async":
			w.Line("weft::wgmma_wait_group<%d>();", n)
		case "":
			if g.pass == 2 || g.single {
				g.errorf(s, codeBarrier, "no Arrive on commit group %s", b.v.name)
			}
		}
	case "CudaClusterSync":
		w.Line("weft::cluster_wait();")
	case "CudaMbarrier":
		if n >= 0 {
			g.errorf(s.N, codeBarrier, "Await on a CudaMbarrier takes N = ~lag < 0 (N = %d)", n)
			return
		}
		skips := int(^n)
		dir, arr, rng := "f", b.id, b.fwdR
		if s.Reverse {
			dir, arr, rng = "r", b.id+"_rev", b.revR
		}
		if g.pass == 1 {
			if s.Reverse {
				b.f.hasRev = true
				b.f.revSkips = max(b.f.revSkips, skips)
			} else {
				b.f.fwdSkips = max(b.f.fwdSkips, skips)
			}
		}
		st := "exo_syncState." + b.id + "_" + dir
		if skips > 0 {
			// The first `lag` awaits pair with no arrive (seed 002 "Queue
			// Barrier": N < 0).
			w.Open("if (%sskip < %d) {", st, skips)
			w.Line("%sskip++;", st)
			w.Close("} else {")
			w.Indent()
		}
		idx := st + "awt"
		if rng <= 1 {
			idx = "0"
		}
		slot := slotExpr(slice, rng, idx)
		w.Line("weft::mbarrier_wait(&%s[%s], (%spar >> (%s)) & 1u);", arr, slot, st, slot)
		w.Line("%spar ^= 1u << (%s);", st, slot)
		g.advance(w, b, dir+"awt", rng)
		if skips > 0 {
			w.Close("}")
		}
		if g.asyncProxy(tl) && !s.Reverse && g.generic(g.syncTL(b.f.arriveTL)) {
			// Generic-proxy writes released by the arrive are read by
			// async-proxy instructions after the await.
			w.Line("weft::fence_proxy_async();")
		}
	}
}

func max(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// ctaBarrierUnits reports whether instruction in declares its completion
// barrier distributed over units of at least one CTA of a cluster
// (barrier_units=, lib.Instr.BarrierUnits), so that `>> bar[:]` names the
// mbarrier at the same offset in every CTA.
func (g *gen) ctaBarrierUnits(in *lib.Instr, ctx *devCtx) bool {
	if in == nil || len(in.BarrierUnits) == 0 || ctx == nil {
		return false
	}
	m := ctx.d.m
	for _, ue := range in.BarrierUnits {
		u, ok := g.unitOK(ue, ctx.sc)
		if !ok {
			return false
		}
		ut, err := u.Threads(m)
		if err != nil || ut < m.BlockDim || m.ClusterDim <= 1 {
			return false
		}
	}
	return true
}
