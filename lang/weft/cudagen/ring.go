package cudagen

import (
	"fmt"
	"strconv"
	"strings"

	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// Exo's ring-buffered mbarrier arrays (its GPU branch akeley98/endgame;
// issue 19):
//
//	raw: barrier[2, n @ ring_buffer_by(depth=4)] @ CudaMbarrier
//	war: barrier[2, n @ ring_buffer_by(depth=4)] @ CudaMbarrierPreArrive(4)
//
// The ring dimension (the last) is indexed by a logical count m: every
// logical barrier [i..., m] is used once, by one phase of a hardware
// mbarrier. With P pre-arrived barriers (CudaMbarrierPreArrive(P); 0 for
// CudaMbarrier) the logical barriers m < P count as complete from the
// start (an Await of one passes without waiting, and no Arrive targets
// one); logical barrier m >= P is phase (m - P) / depth of ring slot
// (m - P) % depth. An Arrive `>> bar[i..., m]` arrives on that slot; an
// Await(bar[i..., m], tl, 0) waits for the parity of that phase. No
// per-thread state is kept: the phase comes from the index. The sync check
// (package syncheck, W0609) proves that no slot is reused while an Await
// of its previous phase may still be pending, so the parity names the
// phase. The other dimensions are distributed, as for any mbarrier array.

// ringDim returns the index of the ring_buffer_by dimension of a barrier
// allocation and its depth, or -1.
func (g *gen) ringDim(a *syntax.Alloc) (int, int) {
	if a == nil || a.Type == nil {
		return -1, 0
	}
	for k, ann := range a.Type.DimAnns {
		arg := check.RingBufferDepth(ann)
		if arg == nil {
			continue
		}
		d, ok := g.constValue(arg, nil)
		if !ok || d <= 0 {
			return -1, 0
		}
		return k, int(d)
	}
	return -1, 0
}

// ringAlloc lays out a ring-buffered mbarrier array: one hardware mbarrier
// per slot of every distributed index, depth slots each.
func (g *gen) ringAlloc(ctx *devCtx, b *barState, a *syntax.Alloc, k, depth, pre int) {
	d := ctx.d
	v := b.v
	if k != len(v.dims)-1 {
		g.errorf(a.Type.DimAnns[k], codeBarrier, "ring_buffer_by must annotate the last dimension of %s", v.name)
		return
	}
	b.ring, b.pre = depth, pre
	for _, dim := range v.dims[:k] {
		n, ok := g.constValue(dim, ctx.sc)
		if !ok {
			g.errorf(dim, codeConst, "barrier dimensions must be constants (but the ring dimension)")
			return
		}
		b.slices *= int(n)
	}
	if b.slices*depth > 32 {
		g.errorf(a, codeBarrier, "at most 32 mbarriers per ring-buffered barrier variable (this one needs %d)", b.slices*depth)
		return
	}
	b.fwdR = depth
	b.fwdOff = d.mbarTop
	d.mbarTop += 8 * b.slices * depth
	d.bars = append(d.bars, b)
	b.emitDecl(ctx.w)
}

// ringEpilogue ends the block of ring-buffered mbarrier allocations: the
// hardware mbarriers outlive the block (a CTA runs its tasks, and a loop
// its iterations, on the same mbarriers), and each time the block runs it
// uses logical barriers P .. L-1 of a ring of extent L, so slot s goes
// through ceil((L - P - s) / depth) phases. Each thread keeps, per slot,
// the parity of the phases earlier runs used (exo_syncState <id>_ep, bit
// slice*depth + slot) and waits for the parity of the index offset by it.
//
// The next run reuses the hardware mbarriers, so no thread may start it
// while another still awaits a phase of this one (its arrivals could
// complete that slot's next phase first, and the waiter would miss the
// phase it waits for): the epilogue ends with the barrier of the block's
// collective, the cluster's when other CTAs arrive on the rings.
func (g *gen) ringEpilogue(ctx *devCtx, ss []syntax.Stmt) {
	if len(ctx.d.barByOff) == 0 {
		// No barrier allocated in this device function yet, so none in
		// ss: nothing to do, and no state for the deferred report made
		// (every block runs this; issue 13).
		return
	}
	w := ctx.w
	x := &exprCtx{g: g, sc: ctx.sc, device: true}
	var at syntax.Node
	remote := false
	var rings []*barFacts
	defer func() {
		switch {
		case at == nil:
		case remote && ctx.d.m.ClusterDim > 1:
			w.Line("weft::cluster_sync();")
		case g.single && ctx.d.m.ClusterDim > 1:
			// Another code path may multicast to these rings later: the
			// second pass would read that they have remote arrivals
			// (single.go). The block's barrier is reported if they have
			// none in the end.
			var errs []pendingErr
			g.threadBarrierTo(ctx, at, ctx.cur.Threads(), collect(&errs))
			g.deferred = append(g.deferred, func() {
				for _, f := range rings {
					if f.fwdRemote {
						return
					}
				}
				g.reportErrs(errs)
			})
		default:
			g.threadBarrier(ctx, at, ctx.cur.Threads())
		}
	}()
	for _, s := range ss {
		a, ok := s.(*syntax.Alloc)
		if !ok {
			continue
		}
		b := ctx.d.barByOff[a.Pos().Offset]
		if b == nil || b.ring == 0 || len(b.v.dims) == 0 {
			continue
		}
		at = a
		remote = remote || b.f.fwdRemote
		rings = append(rings, b.f)
		mask := uint64(0)
		for k := 0; k < b.slices; k++ {
			mask |= 1 << (k * b.ring)
		}
		w.Open("{  // %s: the parity of the phases this run used, per slot", b.v.name)
		w.Line("const int_fast32_t exo_n = %s - %d;", x.exprPrec(b.v.dims[len(b.v.dims)-1], 6), b.pre)
		w.Line("for (int_fast32_t exo_s = 0; exo_s < %d; exo_s++) if (exo_n > exo_s && ((exo_n - exo_s + %d) / %d) & 1) exo_syncState.%s_ep ^= 0x%xu << exo_s;", b.ring, b.ring-1, b.ring, b.id, mask)
		w.Close("}")
	}
}

// ringSlot is the C index of the hardware mbarrier of logical barrier
// [slice, m] and the C expression of m - P (the phase count times depth
// plus the slot).
func (b *barState) ringSlot(slice, m string) (slot, rel string) {
	rel = "(" + m + ")"
	if b.pre != 0 {
		rel = fmt.Sprintf("(%s - %d)", m, b.pre)
	}
	slot = fmt.Sprintf("%s %% %d", rel, b.ring)
	if slice != "0" {
		slot = fmt.Sprintf("(%s) * %d + %s", slice, b.ring, slot)
	}
	return slot, rel
}

// ringAwait lowers Await(bar[i..., m], tl, 0) on a ring-buffered mbarrier.
func (g *gen) ringAwait(ctx *devCtx, s *syntax.Await, b *barState, slice, m string, n int64) {
	w := ctx.w
	if s.Reverse {
		g.errorf(s, codeBarrier, "ReverseAwait is not for ring-buffered mbarriers (ring_buffer_by): CudaMbarrierPreArrive expresses the free slots")
		return
	}
	if n != 0 {
		g.errorf(s.N, codeBarrier, "Await on a ring-buffered mbarrier takes N = 0 (its index names the phase; N = %d)", n)
		return
	}
	if c, err := strconv.Atoi(m); err == nil && c < b.pre {
		w.Line("// Await(%s): pre-arrived", syntax.ExprString(s.Bar))
		return
	}
	guard := b.pre != 0
	if c, err := strconv.Atoi(m); err == nil && c >= b.pre {
		guard = false
	}
	if guard {
		w.Open("if (%s >= %d) {", m, b.pre)
	}
	wait := "weft::mbarrier_wait"
	if b.f.fwdRemote {
		// Arrivals from other CTAs (multicast Arrive): acquire at
		// cluster scope.
		put(&g.helpers, "mbarrier_wait_cluster", waitClusterHelper)
		wait = "weft::mbarrier_wait_cluster"
	}
	if !w.Discard { // the wait's C index is text alone
		slot, rel := b.ringSlot(slice, m)
		w.Line("%s(&%s[%s], ((%s / %d) ^ (exo_syncState.%s_ep >> (%s))) & 1u);", wait, b.id, slot, rel, b.ring, b.id, slot)
	}
	if guard {
		w.Close("}")
	}
}

// ringArrivePtr is the address of the hardware mbarrier an arrive on
// logical barrier [slice, m] uses.
func (b *barState) ringArrivePtr(slice, m string) string {
	slot, _ := b.ringSlot(slice, m)
	return "&" + b.id + "[" + slot + "]"
}

// expectTx is the helper an Exo TMA load calls before its copy: the bytes
// the copy will deliver, announced on the mbarrier it completes on.
const expectTxHelper = `__device__ __forceinline__ void mbarrier_expect_tx(uint64_t *bar, uint32_t bytes) {
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(static_cast<uint32_t>(__cvta_generic_to_shared(bar))), "r"(bytes) : "memory");
}
`

// swizzledHelper addresses an element of Sm90_SmemSwizzled(B) SMEM: the
// 16-byte chunk index (address bits 4-6) is XORed with the row of the
// 8-row swizzle atom (bits 7-9, fewer for B < 128), as TMA and wgmma
// lay the data out (Exo's Sm90_SmemSwizzled swizzle_pointer).
const swizzledHelper = `template <int B, typename T>
__device__ __forceinline__ T &swizzled(T *p) {
  uintptr_t a = reinterpret_cast<uintptr_t>(p);
  a ^= (a >> 3) & (B == 128 ? 0x70u : B == 64 ? 0x30u : 0x10u);
  return *reinterpret_cast<T *>(a);
}
`

// swizzleBytes is B of a Sm90_SmemSwizzled(B) symbol (128 by default).
func swizzleBytes(v *sym) int {
	if len(v.memArg) > 0 && v.memArg[0] > 0 {
		return int(v.memArg[0])
	}
	return 128
}

// swizzledRef wraps the C lvalue of an element of swizzled SMEM.
func (g *gen) swizzledRef(v *sym, lvalue string) string {
	put(&g.helpers, "swizzled", swizzledHelper)
	return "weft::swizzled<" + strconv.Itoa(swizzleBytes(v)) + ">(&" + lvalue + ")"
}

// ringArrive lowers an Arrive on a ring-buffered mbarrier: each thread of
// the collective arrives (the mbarrier counts the collective's threads);
// TMA copies announced their bytes themselves (instrCall), so no arrive
// carries an expect-tx count.
func (g *gen) ringArrive(ctx *devCtx, s *syntax.Arrive, tl *lib.SyncTL, b *barState, slice, m string, n int) {
	w := ctx.w
	if s.Reverse {
		g.errorf(s, codeBarrier, "ReverseArrive is not for ring-buffered mbarriers (ring_buffer_by): CudaMbarrierPreArrive expresses the free slots")
		return
	}
	if !g.arriveWaits(ctx, s, tl, n, ownQual(tl)) {
		return
	}
	if g.pass == 1 && b.f.arriveTL == "" {
		b.f.arriveTL = tl.Name
	}
	ptr := b.ringArrivePtr(slice, m)
	if tl.Name == "Sm80_cp_async" {
		w.Line("weft::cp_async_mbarrier_arrive_noinc(%s);", ptr)
	} else {
		w.Line("weft::mbarrier_arrive(%s);", ptr)
	}
	if g.pass == 1 {
		if c := b.f.fwdCount; c != 0 && c != n {
			g.pass1Errorf(s, codeBarrier, "every arrive on %s must come from collectives of the same size (%d before, %d here)", b.v.name, c, n)
		}
		b.f.fwdCount = n
	}
}

// Multicast Arrives (Exo's GPU branch): `Arrive(tl, 1) >> raw[m, :, k] >>
// raw[:, n, k]` arrives on the barrier of every CTA along each sliced
// dimension, at the same SMEM offset (the mbarriers of a ring sit at the
// same offset in every CTA of the cluster). The CTA of index values
// (i_0, ..., i_d) is the sum of i_k times the CTA pitch of dimension k,
// which the uses indexing dimension k with a CTA-selecting iterator give
// (recordCTAPitch). Every thread of the collective arrives on every target
// (mbarrier.arrive.release.cluster through mapa), so a barrier counts the
// collective's threads times the number of CTAs whose targets cover it:
// the sum over the targets of the product of their sliced extents.

// multicastArrivals returns that sum for an Arrive with a sliced target,
// or 0 for an Arrive without slices.
func (g *gen) multicastArrivals(ctx *devCtx, s *syntax.Arrive) int {
	total, any := 0, false
	for _, t := range s.Barriers {
		ix, ok := t.(*syntax.Index)
		if !ok {
			total++
			continue
		}
		name, _ := ix.X.(*syntax.Name)
		var v *sym
		if name != nil {
			v = ctx.sc.lookup(name.Name)
		}
		p := 1
		for k, i := range ix.Indices {
			if _, ok := i.(*syntax.Slice); !ok {
				continue
			}
			any = true
			if v == nil || k >= len(v.dims) {
				return 0
			}
			e, ok := g.constValue(v.dims[k], ctx.sc)
			if !ok {
				g.errorf(i, codeConst, "a multicast Arrive's sliced dimension must have a constant extent")
				return 0
			}
			p *= int(e)
		}
		total += p
	}
	if !any {
		return 0
	}
	return total
}

// recordCTAPitch notes the CTA pitch of dimension k of b from a use that
// indexes it with the CTA-selecting iterator it.
func (g *gen) recordCTAPitch(ctx *devCtx, b *barState, k int, it *sym) {
	step := 0
	for _, term := range ctx.cur.Base.Terms {
		if term.Iter == it.tIter {
			step = term.Step
		}
	}
	bd := ctx.d.m.BlockDim
	if step <= 0 || bd <= 0 || step%bd != 0 {
		return
	}
	if b.f.ctaPitch == nil {
		b.f.ctaPitch = map[int]int{}
	}
	b.f.ctaPitch[k] = step / bd
}

// ringMulticast lowers one sliced target of a multicast Arrive.
func (g *gen) ringMulticast(ctx *devCtx, s *syntax.Arrive, tl *lib.SyncTL, b *barState, t syntax.Expr, slice, m string, n, mult int) {
	w := ctx.w
	ix, _ := t.(*syntax.Index)
	if ix == nil {
		g.ringArrive(ctx, s, tl, b, slice, m, n*mult)
		return
	}
	if s.Reverse {
		g.errorf(s, codeBarrier, "ReverseArrive is not for ring-buffered mbarriers (ring_buffer_by)")
		return
	}
	if !g.arriveWaits(ctx, s, tl, n, "") {
		return
	}
	// The CTA rank: fixed terms (CTA-selecting iterators) and sliced
	// dimensions, enumerated.
	var fixed []string
	type span struct{ extent, pitch int }
	var spans []span
	for k, i := range ix.Indices[:len(ix.Indices)-1] {
		pitch, known := b.f.ctaPitch[k]
		if g.single {
			f := b.f
			g.factRead(func() bool { p, ok := f.ctaPitch[k]; return p == pitch && ok == known })
		}
		if sl, ok := i.(*syntax.Slice); ok {
			e, _ := g.constValue(b.v.dims[k], ctx.sc)
			if !known && e == 1 {
				// A dimension of one barrier: the slice names the one CTA
				// the other indices select (Exo's raw[cta_m, 0:1, k] in a
				// cluster of 2 x 1 CTAs).
				continue
			}
			if !known {
				if g.pass == 2 || g.single {
					g.errorf(sl, codeBarrier, "the CTAs of dimension %d of %s are not known: index it with a CTA-selecting cuda_threads iterator in another use (its Await)", k, b.v.name)
				}
				return
			}
			spans = append(spans, span{int(e), pitch})
			continue
		}
		if nm, ok := i.(*syntax.Name); ok {
			if it := ctx.sc.lookup(nm.Name); it != nil && it.ctaSel {
				if !known && it.t0 == it.t1 {
					continue // a loop of one iteration: the index is 0
				}
				if !known {
					return
				}
				fixed = append(fixed, fmt.Sprintf("%s * %d", it.c, pitch))
			}
		}
	}
	if g.pass == 1 {
		b.f.fwdRemote = true
		if b.f.arriveTL == "" {
			b.f.arriveTL = tl.Name
		}
		count := n * mult
		if c := b.f.fwdCount; c != 0 && c != count {
			g.pass1Errorf(s, codeBarrier, "every arrive on %s must bring the same number of arrivals per barrier (%d before, %d here)", b.v.name, c, count)
		}
		b.f.fwdCount = count
	}
	ptr := b.ringArrivePtr(slice, m)
	var rec func(int, []string)
	rec = func(k int, terms []string) {
		if k == len(spans) {
			rank := "0"
			if len(terms) > 0 {
				rank = strings.Join(terms, " + ")
			}
			w.Line("weft::mbarrier_arrive_cluster(%s, %s);", ptr, rank)
			return
		}
		for j := 0; j < spans[k].extent; j++ {
			next := terms
			if j*spans[k].pitch != 0 {
				next = append(append([]string{}, terms...), strconv.Itoa(j*spans[k].pitch))
			}
			rec(k+1, next)
		}
	}
	w.Line("// %s: multicast to %s", syntax.ExprString(t), b.v.name)
	rec(0, fixed)
}

// waitClusterHelper waits for an mbarrier phase that other CTAs' arrivals
// complete (acquire at cluster scope).
const waitClusterHelper = `__device__ __forceinline__ void mbarrier_wait_cluster(uint64_t *bar, uint32_t parity) {
  asm volatile(
      "{\n\t.reg .pred P1;\n"
      "WEFT_WAIT_CL:\n\t"
      "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 P1, [%0], %1;\n\t"
      "@!P1 bra WEFT_WAIT_CL;\n\t}" ::"r"(static_cast<uint32_t>(__cvta_generic_to_shared(bar))),
      "r"(parity)
      : "memory");
}
`

// remoteArrives reports whether some mbarrier of d receives multicast
// arrivals from other CTAs.
func (d *devFn) remoteArrives() bool {
	for _, b := range d.bars {
		if b.f != nil && b.f.fwdRemote {
			return true
		}
	}
	return false
}

// noShutdownSync reports CudaDeviceFunction(...,
// unsafe_no_shutdown_cluster_sync=True): Exo's GPU branch leaves out the
// cluster sync at the end of the kernel then.
func noShutdownSync(with *syntax.With) bool {
	c, ok := with.Ctx.(*syntax.Call)
	if !ok {
		return false
	}
	k := c.Kwarg("unsafe_no_shutdown_cluster_sync")
	if k == nil {
		return false
	}
	b, ok := k.Value.(*syntax.BoolLit)
	return ok && b.Value
}
