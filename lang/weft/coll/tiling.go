package coll

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Dim is one dimension of a tiling's reshaped thread domain: Extent
// coordinates, adjacent coordinates Pitch natural thread indices apart (the
// thread pitch P_m of Definition 4.2).
type Dim struct{ Extent, Pitch int }

// Op is a dimension operator of Definition 4.2: iterator Iter (or -1 for a
// CudaWarps block, which has none) selects, in dimension Dim, the Box
// coordinates starting at Offset + Iter*Box, for Iter in [0, Count).
type Op struct {
	Iter   int
	Dim    int
	Offset int
	Box    int
	Count  int
}

// Term is one iterator's contribution to the first thread of a collective:
// Step natural thread indices per unit of the iterator, which ranges over
// [0, Count).
type Term struct{ Iter, Step, Count int }

// Affine is the first thread of a scope's collective as a function of the
// cuda_threads iterators in scope: Const + Σ Step*env[Iter]. Because every
// operator moves a collective by whole boxes, this is always affine, which
// is what makes the compiled thread mapping cheap.
type Affine struct {
	Const int
	Terms []Term
}

// Eval computes the affine form for the iterator values env (indexed by
// iterator id; missing iterators count as 0).
func (a *Affine) Eval(env []int) int {
	v := a.Const
	for _, t := range a.Terms {
		if t.Iter < len(env) {
			v += t.Step * env[t.Iter]
		}
	}
	return v
}

// Kind says which statement derived a tiling.
type Kind int

const (
	KindDevice     Kind = iota // CudaDeviceFunction
	KindThreads                // cuda_threads loop
	KindWarps                  // CudaWarps(lo, hi)
	KindNamedWarps             // CudaWarps(name=...)
)

// anchor records that the first coordinate s of the collective in one
// dimension satisfies s ≡ Off (mod A) with Off + tile <= A, for every value
// of the iterators; it is what lets a cuda_threads iterator be computed from
// threadIdx.x with one modulus and one division (seed 000 §4.2).
type anchor struct {
	A, Off int
	OK     bool
}

// MaxRuns bounds the number of (count, stride) runs of one collective.
const MaxRuns = 6

// Run is Count threads, Stride natural indices apart.
type Run struct{ Count, Stride int }

// Collective is one thread collective μ: the threads
// Start + Σ_i c_i*Runs[i].Stride for 0 <= c_i < Runs[i].Count.
type Collective struct {
	Start int
	N     int // runs in use
	Runs  [MaxRuns]Run
}

// Len is the number of threads.
func (c *Collective) Len() int {
	n := 1
	for i := 0; i < c.N; i++ {
		n *= c.Runs[i].Count
	}
	return n
}

// Contains reports whether thread t is in c.
func (c *Collective) Contains(t int) bool {
	r := t - c.Start
	if r < 0 {
		return false
	}
	// Runs are sorted by decreasing stride and the box is carry-free.
	for i := 0; i < c.N; i++ {
		q := r / c.Runs[i].Stride
		if q >= c.Runs[i].Count {
			return false
		}
		r -= q * c.Runs[i].Stride
	}
	return r == 0
}

// AppendThreads appends c's threads in increasing order.
func (c *Collective) AppendThreads(dst []int) []int { return AppendThreadsTo(dst, c) }

// AppendThreadsTo appends c's threads in increasing order as T (the sync
// checker keeps them as int32s).
//
// The last (smallest-stride) run is listed by one tight loop per
// combination of the others: an odometer step with its carry test per
// thread was 7% of the sync checker's machine on per_cta_alloc's 256- and
// 512-thread shapes (issue 13, stop 31). A collective with no run, or
// with a run of no thread, takes the plain odometer.
func AppendThreadsTo[T ~int | ~int32](dst []T, c *Collective) []T {
	if c.N <= 0 || c.N > MaxRuns {
		return appendThreadsOdometer(dst, c)
	}
	for i := 0; i < c.N; i++ {
		if c.Runs[i].Count <= 0 {
			return appendThreadsOdometer(dst, c)
		}
	}
	last := c.Runs[c.N-1]
	var idx [MaxRuns]int
	for {
		t := c.Start
		for i := 0; i < c.N-1; i++ {
			t += idx[i] * c.Runs[i].Stride
		}
		for j := 0; j < last.Count; j++ {
			dst = append(dst, T(t+j*last.Stride))
		}
		i := c.N - 2
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < c.Runs[i].Count {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return dst
		}
	}
}

// appendThreadsOdometer is AppendThreadsTo one thread at a time.
func appendThreadsOdometer[T ~int | ~int32](dst []T, c *Collective) []T {
	var idx [MaxRuns]int
	for {
		t := c.Start
		for i := 0; i < c.N; i++ {
			t += idx[i] * c.Runs[i].Stride
		}
		dst = append(dst, T(t))
		i := c.N - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < c.Runs[i].Count {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return dst
		}
	}
}

// String prints c as thread intervals, e.g. "[96,127]" or "[0,31] [256,287]".
func (c *Collective) String() string {
	threads := c.AppendThreads(nil)
	var b strings.Builder
	for i := 0; i < len(threads); {
		j := i
		for j+1 < len(threads) && threads[j+1] == threads[j]+1 {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if len(threads) > 64 && b.Len() > 200 {
			b.WriteString("...")
			break
		}
		fmt.Fprintf(&b, "[%d,%d]", threads[i], threads[j])
		i = j + 1
	}
	return b.String()
}

// Tiling is a collective tiling ω (seed 000 Definition 4.2) of one scope,
// together with its compiled thread mapping.
type Tiling struct {
	M      Machine
	Parent *Tiling
	Kind   Kind
	// Dims is the reshaped domain, most significant first; the pitches
	// form a divisibility chain and the extents multiply to M.Threads().
	Dims []Dim
	// Tile is the extent of one collective in each dimension.
	Tile []int
	// Full is Tile ignoring warp specialization: CudaWarps narrows Tile
	// but not Full, and loops whose unit spans a specialized dimension
	// keep the specialization (seed 002, Rule 2/4: "ignoring the effects
	// of warp specialization").
	Full []int
	// opDim and opBox are the dimension and (a cuda_threads loop's) box
	// of the operator this derivation appended (Op; its iterator, count
	// and a CudaWarps block's offset and box are the derivation's
	// arguments): the operators O_m in derivation order (Ops) are the
	// parents' then this one. A list in each tiling had been 160 bytes of
	// every store, read only for its last operator (issue 13, stop 45).
	opDim, opBox int
	// Base is the collective's first thread.
	Base Affine

	// For KindThreads: the loop's iterator id, trip count and unit.
	Iter  int
	Count int
	Unit  Unit
	// For KindWarps and KindNamedWarps: the warps [Lo, Hi) selected,
	// relative to the parent collective (named: relative to the CTA).
	Lo, Hi   int
	WarpName string

	// TileThreads is the tile thread count of seed 002 (Rule 2/4): the
	// threads of one collective ignoring warp specialization.
	TileThreads int

	anchors []anchor
	col     Collective // the collective at Base.Const; Start is recomputed
	threads int
	lower   Lowering

	// memo holds the derivations and matches already computed from this
	// tiling (memo.go); sibling is the next tiling derived from Parent
	// (Parent's memo's list).
	memo    memo
	sibling *Tiling
	// twin is the tiling derived afresh whose shape t shares (twin.go);
	// nil when t is one.
	twin *Tiling
}

// Threads is the number of threads in one collective of t.
func (t *Tiling) Threads() int { return t.threads }

// Collective returns the threads executing one instance of the scope for
// the iterator values env (indexed by iterator id). It does not allocate.
func (t *Tiling) Collective(env []int) Collective {
	c := t.col
	c.Start = t.Base.Eval(env)
	return c
}

// Iterations is the number of distinct collectives of t: the product of the
// trip counts of the iterators in its base.
func (t *Tiling) Iterations() int {
	n := 1
	for _, term := range t.Base.Terms {
		n *= term.Count
	}
	return n
}

// DeviceTiling is the tiling of a CudaDeviceFunction's body (seed 000 §4):
// 1-D (blockDim,) when clusterDim = 1, else 2-D (clusterDim, blockDim),
// with empty operator lists. Its collective is the top-level collective:
// the CTA, or the cluster.
func DeviceTiling(m Machine) (*Tiling, error) {
	return DeviceTilingIn(m, nil)
}

// DeviceStore is room for a device tiling (DeviceTilingIn): its shape
// has one or two dimensions and no operators, a store of its own size (a
// tilingStore is half again as large).
type DeviceStore struct {
	t    Tiling
	dims [2]Dim
	ints [4]int
	anch [2]anchor
}

// DeviceTilingIn is DeviceTiling made in st (a new store when st is nil):
// the GPU checker keeps a small kernel's device tiling with the rest of
// its check (issue 13, stop 35). st must be zero and is the tiling's
// from then on.
func DeviceTilingIn(m Machine, st *DeviceStore) (*Tiling, error) {
	if m.BlockDim < 1 || m.ClusterDim < 1 {
		return nil, fmt.Errorf("blockDim and clusterDim must be positive")
	}
	if st == nil {
		st = new(DeviceStore)
	}
	t := &st.t
	// st is zero: the fields are set, not a 592-byte literal copied
	// over it (stop 37).
	t.M, t.Kind, t.Iter = m, KindDevice, -1
	k := 2
	if m.ClusterDim == 1 {
		k = 1
		st.dims[0] = Dim{m.BlockDim, 1}
	} else {
		st.dims[0], st.dims[1] = Dim{m.ClusterDim, m.BlockDim}, Dim{m.BlockDim, 1}
	}
	t.Dims = st.dims[:k:k]
	t.Tile, t.Full = st.ints[:k:k], st.ints[k:2*k:2*k]
	t.anchors = st.anch[:k:k]
	for i, d := range t.Dims {
		t.Tile[i] = d.Extent
		t.Full[i] = d.Extent
		t.anchors[i] = anchor{A: d.Extent, OK: true}
	}
	// finish, in scalars (stop 42): the tile is the whole shape, whose
	// extents multiply to the n threads at pitches that chain down to 1,
	// so its runs join into one of n threads at pitch 1 (none for one
	// thread): never finish's error. TestDeviceTilingFinish compares.
	n := m.Threads()
	t.threads, t.TileThreads = n, n
	if n > 1 {
		t.col.N, t.col.Runs[0] = 1, Run{Count: n, Stride: 1}
	}
	return t, nil
}

// finish computes the derived fields: thread count and runs.
func (t *Tiling) finish() error {
	t.threads = 1
	t.TileThreads = 1
	for _, f := range t.Full {
		t.TileThreads *= f
	}
	var rbuf [2 * MaxRuns]Run
	runs := rbuf[:0]
	for i, d := range t.Dims {
		t.threads *= t.Tile[i]
		if t.Tile[i] == 1 {
			continue
		}
		r := Run{Count: t.Tile[i], Stride: d.Pitch}
		if n := len(runs); n > 0 && runs[n-1].Stride == r.Count*r.Stride {
			runs[n-1] = Run{Count: runs[n-1].Count * r.Count, Stride: r.Stride}
			continue
		}
		runs = append(runs, r)
	}
	if len(runs) > MaxRuns {
		return fmt.Errorf("collective has %d separate thread runs; at most %d are supported", len(runs), MaxRuns)
	}
	t.col = Collective{N: len(runs)}
	copy(t.col.Runs[:], runs)
	return nil
}

// Error is a derivation or matching failure, worded in the seed's terms.
type Error struct{ Msg string }

func (e *Error) Error() string { return e.Msg }

func errorf(format string, args ...any) *Error { return &Error{Msg: fmt.Sprintf(format, args...)} }

// prod multiplies box, taking inherited coordinates from tile.
func prod(box, tile []int) int {
	n := 1
	for i, b := range box {
		if b == inherit {
			b = tile[i]
		}
		n *= b
	}
	return n
}

// Describe names the scope's collective the way the seeds do: "a warp of
// 32", "a CTA of 256", "a collective of 64 threads", "1 thread".
func (t *Tiling) Describe() string {
	if t.threads == 1 {
		return "1 thread"
	}
	for _, c := range []struct {
		u    Unit
		name string
	}{{CudaCtaInCluster, "a CTA"}, {CudaCluster, "a cluster"}, {CudaWarpgroup, "a warpgroup"}, {CudaWarp, "a warp"}} {
		if t.Matches(c.u) == nil {
			return c.name + " of " + strconv.Itoa(t.threads)
		}
	}
	if w := t.wholeWarps(); w > 1 {
		return fmt.Sprintf("%d warps (%d threads)", w, t.threads)
	}
	return "a collective of " + strconv.Itoa(t.threads) + " threads"
}

// wholeWarps returns the number of warps of each collective when it is
// made of whole, aligned warps (e.g. the 8 consumer warps of Fig. 3), else
// 0. Alignment does not depend on the iterators: every operator moves a
// collective by whole boxes of its own shape.
func (t *Tiling) wholeWarps() int {
	if t.threads%32 != 0 || t.M.BlockDim%32 != 0 {
		return 0
	}
	c := t.col
	c.Start = t.Base.Const
	threads := c.AppendThreads(nil)
	for i := 0; i < len(threads); i += 32 {
		if threads[i]%32 != 0 || threads[i+31] != threads[i]+31 {
			return 0
		}
	}
	for _, term := range t.Base.Terms {
		if term.Step%32 != 0 {
			return 0
		}
	}
	return t.threads / 32
}

// aligned is the result of shape alignment (derive step 1): the tiling's
// tile, anchors and a unit's box re-expressed over a common refinement of
// both domains.
type aligned struct {
	dims    []Dim
	tile    []int
	full    []int
	anchors []anchor
	box     []int // -1: wildcard; -2: inherit the tile (completed dims)
}

const inherit = -2

// maxDims sizes the stack buffers of align: more dimensions than this
// (never seen: a cluster's thread index has at most a few levels) only
// cost heap allocations. The buffers are zeroed at every align, each
// derivation and match: at 12 they were 1.1 KB per derivation and 1.5 KB
// more per match, a third of align's time (issue 13, stop 29).
const maxDims = 8

// align reshapes t and the resolved unit (domain, box) so that their
// thread pitches line up (hierarchical splits only). completion is the box
// value given to the dimensions prepended to a unit whose domain is smaller
// than the cluster (inherit for loops, 1 for instruction matching).
//
// Every derivation and match aligns, so align allocates only what the
// result keeps: the dims, and one array for tile, full and box.
//
// scratch, when not nil, holds the result instead (a match, which keeps
// nothing).
func (t *Tiling) align(domain, box []int, completion int, scratch *alignBuf) (aligned, *Error) {
	return t.alignTo(domain, box, completion, scratch, nil)
}

// alignTo is align, whose arrays are scratch's (which need not outlive the
// caller) or, when not given, store's, when they fit there.
func (t *Tiling) alignTo(domain, box []int, completion int, scratch *alignBuf, store *tilingStore) (aligned, *Error) {
	n := t.M.Threads()
	tdims, ttile, tfull, tanch := t.Dims, t.Tile, t.Full, t.anchors
	if t.mergeable() {
		// The buffer only where merged fills it (it is zeroed where
		// declared).
		var mb shapeBuf
		tdims, ttile, tfull, tanch = t.merged(&mb)
	}
	var udbuf [maxDims]Dim
	var ubbuf [maxDims]int
	udims, ubox := udbuf[:0], ubbuf[:0]
	p := 1
	for i := len(domain) - 1; i >= 0; i-- {
		p *= domain[i]
	}
	if p != n {
		udims = append(udims, Dim{n / p, p})
		ubox = append(ubox, completion)
	}
	q := p
	for i, d := range domain {
		q /= d
		udims = append(udims, Dim{d, q})
		ubox = append(ubox, box[i])
	}
	// The unit's pitches the scope's own: no refinement (alignsame.go).
	if a, ok := alignSame(n, tdims, ttile, tfull, tanch, udims, ubox, scratch, store); ok {
		return a, nil
	}
	// The pitches of both shapes, distinct, in decreasing order.
	var pbuf [2 * maxDims]int
	pitches := pbuf[:0]
	for _, d := range tdims {
		pitches = insertDesc(pitches, d.Pitch)
	}
	for _, d := range udims {
		pitches = insertDesc(pitches, d.Pitch)
	}
	top := n
	k := len(pitches)
	dims, ints, anchors := alignSlices(scratch, store, k)
	for i, q := range pitches {
		if top%q != 0 {
			return aligned{}, errorf("its thread pitches do not nest with the scope's (%d does not divide %d)", q, top)
		}
		dims[i] = Dim{top / q, q}
		top = q
	}
	a := aligned{dims: dims, tile: ints[:k:k], full: ints[k : 2*k : 2*k], box: ints[2*k:], anchors: anchors}
	if err := splitShape(tdims, ttile, tanch, dims, a.tile, a.anchors); err != nil {
		return aligned{}, errorf("the scope's collective cannot be reshaped to it: %s", err.Msg)
	}
	if err := splitShape(tdims, tfull, nil, dims, a.full, nil); err != nil {
		return aligned{}, errorf("the scope's collective cannot be reshaped to it: %s", err.Msg)
	}
	if err := splitShape(udims, ubox, nil, dims, a.box, nil); err != nil {
		return aligned{}, errorf("its box cannot be reshaped to the scope's thread structure: %s", err.Msg)
	}
	return a, nil
}

// storeDims is the number of dimensions a tilingStore holds in place.
const storeDims = 4

// tilingStore is a tiling with room for its shape (Dims, Tile, Full and
// the anchors, and align's box) when it has at most storeDims dimensions:
// one allocation for a derivation instead of five. The code generator and
// the GPU checker derive every cuda_threads loop's and CudaWarps block's
// tiling for each check, and these allocations were a fifth of the
// generator's objects on small kernels (issue 13, stop 28). It is about as
// many bytes as the separate arrays.
//
// It also holds its base's terms and (a cuda_threads loop's) the
// coordinates of its unit, which a derivation had
// allocated apart, three objects more per cuda_threads loop of every check
// (issue 13, stop 29).
type tilingStore struct {
	t     Tiling
	dims  [storeDims]Dim
	ints  [5 * storeDims]int // align's tile, full and box; then the body's tile and full (cudaThreads)
	anch  [storeDims]anchor
	terms [storeDims]Term
	syms  [storeSyms]Sym
}

// warpsStore is a CudaWarps block's tiling with room for its shape
// (align's dims, tile, full and box, the anchors): a tilingStore less
// what a block never fills, its base's terms (a block's are its
// scope's), a unit's coordinates and the body's tile and full (issue
// 13, stop 45: 1280 -> 1024 bytes a block, five blocks of the
// three-ring rows' checks; 896 without the operator lists).
type warpsStore struct {
	t    Tiling
	dims [storeDims]Dim
	ints [3 * storeDims]int // align's tile, full and box
	anch [storeDims]anchor
}

// storeSyms is the number of unit coordinates (domain and box) a
// tilingStore holds in place.
const storeSyms = 4

// appendInto is appendCopy(s, x) in buf when it fits there (capacity
// its length: a caller appending to the result cannot write into buf).
func appendInto[T any](buf []T, s []T, x T) []T {
	n := len(s) + 1
	if n > len(buf) {
		return appendCopy(s, x)
	}
	out := buf[:n:n]
	copy(out, s)
	out[n-1] = x
	return out
}

// keptUnitIn is keptUnit with the coordinates in buf when they fit.
func keptUnitIn(u Unit, buf []Sym) Unit {
	n := len(u.Domain) + len(u.Box)
	if n == 0 || n > len(buf) {
		return keptUnit(u)
	}
	syms := buf[:n:n]
	copy(syms, u.Domain)
	copy(syms[len(u.Domain):], u.Box)
	u.Domain = syms[:len(u.Domain):len(u.Domain)]
	u.Box = syms[len(u.Domain):]
	return u
}

// alignBuf holds an aligned shape that need not outlive the caller.
type alignBuf struct {
	dims    [2 * maxDims]Dim
	ints    [6 * maxDims]int
	anchors [2 * maxDims]anchor
}

// shapeBuf holds a merged shape (merged) for the length of one align.
type shapeBuf struct {
	dims    [maxDims]Dim
	tile    [maxDims]int
	full    [maxDims]int
	anchors [maxDims]anchor
}

// insertDesc inserts q into s, kept in decreasing order without
// duplicates.
func insertDesc(s []int, q int) []int {
	i := 0
	for i < len(s) && s[i] > q {
		i++
	}
	if i < len(s) && s[i] == q {
		return s
	}
	s = append(s, 0)
	copy(s[i+1:], s[i:])
	s[i] = q
	return s
}

// merged returns t's shape with every dimension that the collective covers
// whole (ignoring warp specialization too) merged into the next outer one:
// the consumer warps 4-11 of a 12-warp CTA are 256 contiguous threads, not
// 8 warps x 32 lanes, so one cuda_threads loop over cuda_thread can tile
// them (the operators of Definition 4.2 take an offset and a box in one
// dimension). Merging never changes a thread set; shape alignment splits
// again where a unit needs it.
//
// The callers only read the result, which is t's own shape when nothing
// merges, else a copy in buf (when it fits).
func (t *Tiling) merged(buf *shapeBuf) ([]Dim, []int, []int, []anchor) {
	if !t.mergeable() {
		return t.Dims, t.Tile, t.Full, t.anchors
	}
	var dims []Dim
	var tile, full []int
	var anch []anchor
	if n := len(t.Dims); n <= maxDims {
		dims, tile, full, anch = buf.dims[:0], buf.tile[:0], buf.full[:0], buf.anchors[:0]
	}
	dims = append(dims, t.Dims...)
	tile = append(tile, t.Tile...)
	full = append(full, t.Full...)
	anch = append(anch, t.anchors...)
	for i := len(dims) - 2; i >= 0; i-- {
		in := i + 1
		e := dims[in].Extent
		if tile[in] != e || full[in] != e || !anch[in].OK || anch[in].A != e || anch[in].Off != 0 {
			continue
		}
		m := anchor{}
		if anch[i].OK {
			m = anchor{A: anch[i].A * e, Off: anch[i].Off * e, OK: true}
		}
		dims[i] = Dim{Extent: dims[i].Extent * e, Pitch: dims[in].Pitch}
		tile[i] *= e
		full[i] *= e
		anch[i] = m
		dims = append(dims[:in], dims[in+1:]...)
		tile = append(tile[:in], tile[in+1:]...)
		full = append(full[:in], full[in+1:]...)
		anch = append(anch[:in], anch[in+1:]...)
	}
	return dims, tile, full, anch
}

// mergeable reports whether merged changes t's shape: some dimension but
// the first is covered whole and anchored at 0.
func (t *Tiling) mergeable() bool {
	for in := 1; in < len(t.Dims); in++ {
		e := t.Dims[in].Extent
		if a := t.anchors[in]; t.Tile[in] == e && t.Full[in] == e && a.OK && a.A == e && a.Off == 0 {
			return true
		}
	}
	return false
}

// splitShape re-expresses a box (and optional anchors) over old dims as a
// box over the finer dims nd, written to out (and outA). A coordinate count t of a dimension split
// into sub-dimensions (inner extent e first) stays a box iff at each level
// t <= e or e divides t.
func splitShape(old []Dim, shape []int, anchors []anchor, nd []Dim, out []int, outA []anchor) *Error {
	for j := range nd {
		// Dimensions of extent 1 no old dimension covers.
		out[j] = 1
		if anchors != nil {
			outA[j] = anchor{A: 1, OK: true}
		}
	}
	j := len(nd) - 1
	for m := len(old) - 1; m >= 0; m-- {
		d := old[m]
		t := shape[m]
		r := 1 // pitch of the sub-dimension relative to d.Pitch
		for first := true; j >= 0 && (nd[j].Pitch < d.Pitch*d.Extent || first && d.Extent == 1 && nd[j].Pitch == d.Pitch); j-- {
			first = false
			e := nd[j].Extent
			switch {
			case t < 0: // wildcard or inherit: applies to every sub-dimension
				out[j] = t
			case t <= e:
				out[j], t = t, 1
			case t%e == 0:
				out[j], t = e, t/e
			default:
				return errorf("%d threads at pitch %d do not split into groups of %d", t, d.Pitch, e)
			}
			if anchors != nil {
				outA[j] = subAnchor(anchors[m], r, e, out[j])
			}
			r *= e
		}
	}
	return nil
}

// subAnchor derives the anchor of the sub-dimension (relative pitch r,
// extent e, tile t) of a dimension whose anchor is a.
func subAnchor(a anchor, r, e, t int) anchor {
	if !a.OK || a.A%r != 0 {
		return anchor{}
	}
	ar := a.A / r
	off := a.Off / r
	switch {
	case ar%e == 0:
		off %= e
		if off+t <= e {
			return anchor{A: e, Off: off, OK: true}
		}
	case e%ar == 0:
		off %= ar
		if off+t <= ar {
			return anchor{A: ar, Off: off, OK: true}
		}
	}
	return anchor{}
}

func prodInts(xs []int) int {
	n := 1
	for _, x := range xs {
		n *= x
	}
	return n
}

// needMsg is the seed's "loop needs 40 threads, scope is a warp of 32",
// explaining the unit's size when the scope's CTAs multiply it.
func needMsg(n int, t *Tiling, u Unit, a *aligned, domain []int) string {
	msg := fmt.Sprintf("loop needs %d threads, scope is %s", n, t.Describe())
	if size, inherited := unitSize(u, a, prodInts(domain), t.M.BlockDim); inherited {
		msg += " (" + size + ")"
	}
	return msg
}

// unitSize explains how many threads one iteration takes: the unit's own
// box, times the scope's collective in the dimensions the unit's domain
// does not cover (a warp loop in a cluster-wide scope runs in every CTA).
func unitSize(u Unit, a *aligned, domainThreads, blockDim int) (string, bool) {
	own, all := 1, 1
	for i, b := range a.box {
		if b == inherit {
			all *= a.tile[i]
			continue
		}
		own *= b
		all *= b
	}
	if all == own {
		return fmt.Sprintf("one %s is %d threads", u, own), false
	}
	if domainThreads == blockDim {
		return fmt.Sprintf("one %s is %d threads in each of the scope's %d CTAs", u, own, all/own), true
	}
	return fmt.Sprintf("one %s is %d threads, repeated %d times across the scope", u, own, all/own), true
}

// CudaThreads derives the tiling of the body of `for iter in cuda_threads(0,
// count, unit=u)` (derive_ω with lo = 0, hi = tileCount = count): shape
// alignment, then single-dimension refinement. iter is the caller's id for
// the iterator, used to index env in Collective.
func (t *Tiling) CudaThreads(iter, count int, u Unit) (*Tiling, error) {
	return t.derive(derivation{kind: KindThreads, iter: iter, count: count, u: u}, func() (*Tiling, error) {
		return t.deriveThreads(iter, count, u)
	})
}

func (t *Tiling) deriveThreads(iter, count int, u Unit) (*Tiling, error) {
	var dbuf, bbuf [maxDims]int
	domain, box, err := u.resolveInto(t.M, dbuf[:], bbuf[:])
	if err != nil {
		return nil, &Error{Msg: err.Error()}
	}
	body, err := t.cudaThreads(iter, count, u, domain, box)
	if err != nil {
		if d, b, ok := dropUnitLevels(domain, box); ok {
			if body2, err2 := t.cudaThreads(iter, count, u, d, b); err2 == nil {
				return body2, nil
			}
		}
	}
	return body, err
}

// dropUnitLevels removes the levels of extent 1 (with a box of 1) from a
// unit's domain: cuda_threads_strided(1, 1) is the domain [blockDim, 1],
// cuda_warp_in_cluster_strided(1) [clusterDim, 1, blockDim]. Such a level
// selects nothing, but it has the pitch of the level above it, and two
// levels of one pitch can split a box of 2 there wrongly (Exo's pair of
// lanes 1 apart, 2 * cuda_threads_strided(1, 1); the warp of each CTA,
// 2 * cuda_warp_in_cluster_strided(1), under a cluster-wide collective).
// The units' thread sets are the same; CudaThreads and Matches retry
// with it where the full domain fails.
func dropUnitLevels(domain, box []int) ([]int, []int, bool) {
	var kd, kb []int
	for i := range domain {
		if domain[i] == 1 && box[i] <= 1 {
			continue
		}
		kd, kb = append(kd, domain[i]), append(kb, box[i])
	}
	if len(kd) == 0 || len(kd) == len(domain) {
		return domain, box, false
	}
	return kd, kb, true
}

func (t *Tiling) cudaThreads(iter, count int, u Unit, domain, box []int) (*Tiling, error) {
	for _, b := range box {
		if b < 0 {
			return nil, errorf("collective unit %s has a wildcard box; it describes memories, not loops", u)
		}
	}
	if count < 1 {
		return nil, errorf("cuda_threads loop must have at least one iteration")
	}
	st := new(tilingStore)
	a, aerr := t.alignTo(domain, box, inherit, nil, st)
	if aerr != nil {
		return nil, errorf("cannot tile %s into %s: %s", t.Describe(), u, aerr.Msg)
	}
	// newTile and newFull are the body's tile with and without warp
	// specialization: dimensions the unit inherits (completed, or spanning
	// a dimension CudaWarps narrowed) keep the scope's.
	k := len(a.dims)
	var tf []int
	if k <= storeDims {
		tf = st.ints[3*k : 5*k : 5*k]
	} else {
		tf = make([]int, 2*k)
	}
	newTile, newFull := tf[:k:k], tf[k:]
	unitThreads := 1
	for i, b := range a.box {
		switch {
		case b == inherit:
			newTile[i], newFull[i] = a.tile[i], a.full[i]
		case b == a.full[i] && a.tile[i] < a.full[i]:
			newTile[i], newFull[i] = a.tile[i], b
		default:
			newTile[i], newFull[i] = b, b
		}
		unitThreads *= newTile[i]
	}
	need := count * unitThreads
	tiled := -1
	for i := range a.dims {
		if newTile[i] > a.tile[i] {
			if n := count * prod(a.box, a.tile); n > t.threads {
				return nil, &Error{Msg: needMsg(n, t, u, &a, domain)}
			}
			return nil, errorf("cannot tile %s into %s: one %s does not fit the scope's shape (%d threads %d apart, the scope has %d)",
				t.Describe(), u, u, newTile[i], a.dims[i].Pitch, a.tile[i])
		}
		if newTile[i] != a.tile[i] {
			if tiled >= 0 {
				if need > t.threads {
					return nil, &Error{Msg: needMsg(need, t, u, &a, domain)}
				}
				return nil, errorf("cannot tile %s into %s with one loop: the unit differs from the scope in more than one dimension (tile the scope in steps)", t.Describe(), u)
			}
			tiled = i
		}
	}
	noop := tiled < 0
	if noop {
		// A no-op tiling operator (t0 = t1): the unit is the whole scope.
		if count != 1 {
			return nil, &Error{Msg: needMsg(need, t, u, &a, domain)}
		}
		tiled = len(a.dims) - 1
	}
	tt, bb := a.tile[tiled], newTile[tiled]
	if count*bb > tt {
		return nil, &Error{Msg: needMsg(need, t, u, &a, domain)}
	}
	if tt%bb != 0 {
		return nil, errorf("cannot tile %s into %s: %d does not divide into groups of %d", t.Describe(), u, tt, bb)
	}
	c := &st.t
	// The unit is the memo's key (derivedBy): its coordinates its own,
	// so that a caller reusing its unit's slices cannot change it.
	// st.t is zero (new above; alignTo fills only st's arrays): the
	// fields are set one by one, not by copying a 576-byte Tiling
	// literal over it (issue 13, stop 31: a fifth of cudaThreads).
	c.M, c.Parent, c.Kind = t.M, t, KindThreads
	c.Dims, c.Tile, c.Full = a.dims, newTile, newFull
	c.Iter, c.Count = iter, count
	c.Unit = keptUnitIn(u, st.syms[:])
	step := bb * a.dims[tiled].Pitch
	c.Base = Affine{Const: t.Base.Const, Terms: appendInto(st.terms[:], t.Base.Terms, Term{Iter: iter, Step: step, Count: count})}
	c.opDim, c.opBox = tiled, bb
	// Lowering (seed 000 §4.2): iter = (x % Mod - Off) / Div, guarded by
	// iter < count when the iterations leave threads of the scope idle.
	an := a.anchors[tiled]
	q := a.dims[tiled].Pitch
	c.lower = Lowering{Iter: iter, Bound: count, Guard: count*bb < tt}
	if an.OK && a.dims[tiled].Extent%an.A == 0 {
		c.lower.OK = true
		c.lower.Div, c.lower.Mod, c.lower.Off = bb*q, an.A*q, an.Off*q
	}
	c.anchors = a.anchors // align's own array
	if noop {
		// One iteration over the whole scope (Exo's cta_n loop of one CTA
		// column, `cuda_threads(0, 1, unit=cuda_cta_in_cluster)` inside
		// the consumer warps of the CTA): the iterator is 0 and the
		// threads keep the scope's anchors, so loops inside it lower as
		// they would without it.
		c.lower = Lowering{Iter: iter, Bound: 1, OK: true, Div: 1, Mod: 1}
	} else if an.OK && an.A%bb == 0 && an.Off%bb == 0 {
		c.anchors[tiled] = anchor{A: bb, OK: true}
	} else {
		c.anchors[tiled] = anchor{}
	}
	if err := c.finish(); err != nil {
		return nil, &Error{Msg: err.Error()}
	}
	return c, nil
}

// appendCopy returns a new slice holding s and then x (one allocation).
func appendCopy[T any](s []T, x T) []T {
	out := make([]T, len(s)+1)
	copy(out, s)
	out[len(s)] = x
	return out
}

// Op returns the operator this derivation appended; ok is false for the
// device tiling, which has none.
func (t *Tiling) Op() (op Op, ok bool) {
	switch t.Kind {
	case KindDevice:
		return Op{Iter: -1}, false
	case KindThreads:
		return Op{Iter: t.Iter, Dim: t.opDim, Box: t.opBox, Count: t.Count}, true
	}
	// CudaWarps(lo, hi) or a named block: warps [Lo, Hi), no iterator.
	return Op{Iter: -1, Dim: t.opDim, Offset: t.Lo, Box: t.Hi - t.Lo, Count: 1}, true
}

// Ops returns the dimension operators O_m of t (Definition 4.2), in
// derivation order: its parents' operators, then its own (Op).
func (t *Tiling) Ops() []Op {
	var ops []Op
	for c := t; c != nil; c = c.Parent {
		if op, ok := c.Op(); ok {
			ops = append(ops, op)
		}
	}
	slices.Reverse(ops)
	return ops
}

// alignWarps aligns t with warps (pitch 32) and returns the aligned shape
// and the index of the warp dimension, checking the collective is whole
// warps (warpDim: once per tiling, warps.go).
func (t *Tiling) alignWarps(st *tilingStore) (aligned, int, *Error) {
	if t.M.BlockDim%32 != 0 {
		return aligned{}, 0, errorf("blockDim %d is not a whole number of warps", t.M.BlockDim)
	}
	a, err := t.alignTo([]int{t.M.BlockDim / 32, 32}, []int{1, 32}, inherit, nil, st)
	if err != nil {
		return aligned{}, 0, errorf("CudaWarps needs whole warps: %s", err.Msg)
	}
	w := -1
	for i, d := range a.dims {
		if d.Pitch < 32 && a.tile[i] != d.Extent {
			return aligned{}, 0, errorf("CudaWarps needs whole warps, but the scope is %s", t.Describe())
		}
		// The warp-in-CTA dimension; absent (w = -1) when blockDim is 32.
		if d.Pitch == 32 && d.Extent*32 <= t.M.BlockDim {
			w = i
		}
	}
	return a, w, nil
}

// CudaWarps derives the tiling of `with CudaWarps(lo, hi)`: warps [lo, hi) of
// the current collective, counted from its start (seed 002, "Warp
// Specialization").
func (t *Tiling) CudaWarps(lo, hi int) (*Tiling, error) {
	return t.derive(derivation{kind: KindWarps, lo: lo, hi: hi}, func() (*Tiling, error) {
		return t.deriveWarps(lo, hi)
	})
}

func (t *Tiling) deriveWarps(lo, hi int) (*Tiling, error) {
	st := new(warpsStore)
	if c := t.warps1D(st, lo, hi, KindWarps, ""); c != nil {
		return c, nil // a one-dimensional scope's, in one pass (warps1d.go)
	}
	a, w, err := t.warpDim(st)
	if err != nil {
		return nil, err
	}
	if lo < 0 || hi <= lo {
		return nil, errorf("CudaWarps(%d, %d): need 0 <= lo < hi", lo, hi)
	}
	warps := 1
	if w >= 0 {
		warps = a.tile[w]
	}
	if hi > warps {
		return nil, errorf("CudaWarps(%d, %d) selects warps up to %d, but the scope has only %d warps", lo, hi, hi, warps)
	}
	return t.selectWarps(st, &a, w, lo, hi, KindWarps, "")
}

// NamedWarps derives the tiling of `with CudaWarps(name=...)` whose warps are
// [lo, hi) of each CTA (from the warp_config). The scope must be whole CTAs
// ("named CudaWarps requires CTA not to be subdivided").
func (t *Tiling) NamedWarps(name string, lo, hi int) (*Tiling, error) {
	return t.derive(derivation{kind: KindNamedWarps, name: name, lo: lo, hi: hi}, func() (*Tiling, error) {
		return t.deriveNamedWarps(name, lo, hi)
	})
}

func (t *Tiling) deriveNamedWarps(name string, lo, hi int) (*Tiling, error) {
	st := new(warpsStore)
	if c := t.warps1D(st, lo, hi, KindNamedWarps, name); c != nil {
		return c, nil // a one-dimensional scope's, in one pass (warps1d.go)
	}
	a, w, err := t.warpDim(st)
	if err != nil {
		return nil, err
	}
	for i, d := range a.dims {
		if d.Pitch < t.M.BlockDim && a.tile[i] != d.Extent {
			return nil, errorf("named CudaWarps(name=%q) needs whole CTAs, but the scope is %s (subdivided by a cuda_threads loop)", name, t.Describe())
		}
	}
	return t.selectWarps(st, &a, w, lo, hi, KindNamedWarps, name)
}

func (t *Tiling) selectWarps(st *warpsStore, a *aligned, w, lo, hi int, kind Kind, name string) (*Tiling, error) {
	// a's arrays are align's own, made for this derivation (in st, where
	// they fit).
	c := &st.t
	*c = Tiling{M: t.M, Parent: t, Kind: kind, Dims: a.dims, Tile: a.tile,
		Full: a.full, Iter: -1, Lo: lo, Hi: hi, WarpName: name}
	c.opDim = w
	c.anchors = a.anchors
	if w < 0 {
		// blockDim = 32: the only warp of each CTA.
		c.Base = t.Base
		c.lower = Lowering{Iter: -1, Lo: lo, Hi: hi, OK: true, Div: 32, Mod: 32}
		if err := c.finish(); err != nil {
			return nil, &Error{Msg: err.Error()}
		}
		return c, nil
	}
	c.Tile[w] = hi - lo
	c.Base = Affine{Const: t.Base.Const + lo*32, Terms: t.Base.Terms}
	an := a.anchors[w]
	c.lower = Lowering{Iter: -1, Lo: lo, Hi: hi, Guard: true}
	if an.OK && a.dims[w].Extent%an.A == 0 {
		c.lower.OK = true
		c.lower.Div, c.lower.Mod, c.lower.Off = 32, an.A*32, an.Off*32
		c.anchors[w] = anchor{A: an.A, Off: an.Off + lo, OK: true}
	} else {
		c.anchors[w] = anchor{}
	}
	if err := c.finish(); err != nil {
		return nil, &Error{Msg: err.Error()}
	}
	return c, nil
}

// Matches reports whether every collective of t is exactly one collective
// of unit u: the same box after reshaping (prepended dimensions must be 1,
// wildcards match anything) and an aligned start at every level (seed 002:
// "wgmma instructions must be executed with a collective unit equivalent
// to cuda_warpgroup"). It returns nil on a match, else the reason.
func (t *Tiling) Matches(u Unit) *Error {
	if t.matchOne1D(&u) || t.matchSame(&u) {
		return nil // decided on the scope's own dimensions (match1d.go, matchsame.go)
	}
	return t.matchMemo(&u, func() *Error { return t.match(u) })
}

func (t *Tiling) match(u Unit) *Error {
	var dbuf, bbuf [maxDims]int
	domain, box, err := u.resolveInto(t.M, dbuf[:], bbuf[:])
	if err != nil {
		return &Error{Msg: err.Error()}
	}
	// An innermost level of extent 1 (cuda_threads_strided(n, 1)) is
	// dropped first: with it, the level above has a second dimension of
	// pitch 1, and a strided pair aligns with a box of 2 consecutive
	// threads. Other extent-1 levels (the cluster units' n3 = 1) are
	// dropped only where the full domain does not match.
	if n := len(domain); n > 1 && domain[n-1] == 1 && box[n-1] <= 1 {
		for n > 1 && domain[n-1] == 1 && box[n-1] <= 1 {
			n--
		}
		domain, box = domain[:n], box[:n]
	}
	merr := t.matches(u, domain, box)
	if merr != nil {
		if d, b, ok := dropUnitLevels(domain, box); ok && t.matches(u, d, b) == nil {
			return nil
		}
	}
	return merr
}

func (t *Tiling) matches(u Unit, domain, box []int) *Error {
	var scratch alignBuf
	a, aerr := t.align(domain, box, 1, &scratch)
	if aerr != nil {
		return errorf("the collective is %s, not a %s: %s", t.describeShape(), u, aerr.Msg)
	}
	for i := range a.dims {
		if a.box[i] >= 0 && a.box[i] != a.tile[i] {
			uthreads, _ := u.Threads(t.M)
			return errorf("the collective is %s, not one %s (%d threads)", t.describeShape(), u, uthreads)
		}
	}
	for i, d := range a.dims {
		b := a.box[i]
		if b <= 0 || b == d.Extent {
			continue
		}
		if !t.startsAligned(d.Pitch, b, d.Extent) {
			return errorf("the collective of %d threads starting at thread %s is not aligned to %s boundaries",
				t.threads, t.startDescr(), u)
		}
	}
	return nil
}

func (t *Tiling) describeShape() string {
	if t.threads == 1 {
		return "1 thread"
	}
	return strconv.Itoa(t.threads) + " threads"
}

func (t *Tiling) startDescr() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(t.Base.Const))
	for _, term := range t.Base.Terms {
		fmt.Fprintf(&b, " + %d*i%d", term.Step, term.Iter)
	}
	return b.String()
}

// startsAligned reports whether for every iterator value the digit of the
// collective's start at pitch q (extent e) is a multiple of b.
func (t *Tiling) startsAligned(q, b, e int) bool {
	if b == 1 {
		return true // every digit is a multiple of 1
	}
	ok := func(s int) bool { return (s/q%e)%b == 0 }
	m := q * b
	var rest []Term
	for _, term := range t.Base.Terms {
		if term.Step%m != 0 || (q*e)%m != 0 {
			rest = append(rest, term)
		}
	}
	if len(rest) == 0 {
		return ok(t.Base.Const)
	}
	// Enumerate the remaining terms (bounded by the number of collectives).
	idx := make([]int, len(rest))
	for steps := 0; steps < 1<<20; steps++ {
		s := t.Base.Const
		for i, term := range rest {
			s += idx[i] * term.Step
		}
		if !ok(s) {
			return false
		}
		i := len(rest) - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < rest[i].Count {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return true
		}
	}
	return false
}

// String prints the tiling: each dimension as (extent) or (extent/tile),
// then the first thread of the collective as an affine form of the
// iterators (i<id>).
func (t *Tiling) String() string {
	var b strings.Builder
	b.WriteString("<")
	for i, d := range t.Dims {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d", d.Extent)
		if t.Tile[i] != d.Extent {
			fmt.Fprintf(&b, "/%d", t.Tile[i])
		}
	}
	b.WriteString("> start ")
	b.WriteString(t.startDescr())
	return b.String()
}
