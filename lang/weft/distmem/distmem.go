package distmem

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

const (
	codeDeduce     = "W0501"
	codeMismatch   = "W0502"
	codeAllocUnit  = "W0503"
	codeExtent     = "W0504"
	codeBarrierIdx = "W0505"
	codeOwner      = "W0506"
)

func init() {
	diag.Register("weft", []diag.Code{
		{Code: codeDeduce, Summary: "distributed memory deduction failed: the distributed indices do not form a tiling chain to the memory's native unit"},
		{Code: codeMismatch, Summary: "inconsistent distributed memory deductions: two uses give a shard different owners"},
		{Code: codeAllocUnit, Summary: "allocation scope is smaller than the memory's native unit"},
		{Code: codeExtent, Summary: "distributed dimension smaller than the iteration count of its index"},
		{Code: codeBarrierIdx, Summary: "barrier index is not a cuda_threads iterator (barrier indices are distributed)"},
		{Code: codeOwner, Summary: "the collective owning a distributed shard is not one native unit of its memory (shape or alignment)"},
	})
}

// Triple is one use site of a variable (seed 000 §4.1 step 3): the
// distributed indices n*, the use-site tiling ω and the thread pitches of
// the distributed indices (how far, in natural thread indices, the owner
// moves when the index grows by one), plus the owner's offset from the
// allocating collective.
type Triple struct {
	Access  *gpucheck.Access
	Tiling  *coll.Tiling
	Iters   []*gpucheck.Iter
	Pitches []int
	Offset  int

	// iterBuf and pitchBuf hold Iters and Pitches when the use has at
	// most inlineIndices indices (each index gives at most one
	// iterator): two arrays of every use had been apart (stop 38).
	iterBuf  [inlineIndices]*gpucheck.Iter
	pitchBuf [inlineIndices]int
}

// inlineIndices is the number of indices whose iterators and pitches a
// Triple holds in place.
const inlineIndices = 4

// Deduction is the analysis of one variable.
type Deduction struct {
	Var     *gpucheck.Var
	TA, TN  int // tile thread counts of the allocation scope and the native unit
	Triples []*Triple
	// Dist is the number of distributed dimensions (of the first use).
	Dist int

	unit *coll.Unit // the native unit, resolved for the launch shape
	// native is the memory's native unit (NativeUnit), "" for a
	// uniform memory's, which unitLit and unitBin hold.
	native string
	// unitVal and unitName hold the native unit and its name's
	// expression in the deduction itself (stop 35: two objects apart
	// per variable).
	unitVal  coll.Unit
	unitName syntax.Name
	unitLit  syntax.IntLit // a uniform memory's n * cuda_thread
	unitBin  syntax.Binary
	// mbar is isMbarrier(g.Lib, Var), asked once per variable: every
	// use asked it two or three times (a map lookup and the memory's
	// derivation chain each: 5 K of the three-ring rows' 15 K; stop 38).
	mbar bool
	// uses counts the variable's accesses (Check: its list's room).
	uses int
}

// Chain prints the tiling chain of the first use, e.g.
// "m: 512 -> 32, n: 32 -> 1".
func (d *Deduction) Chain() string {
	if len(d.Triples) == 0 {
		return ""
	}
	var s []string
	for _, it := range d.Triples[0].Iters {
		s = append(s, fmt.Sprintf("%s: %d -> %d", iterName(d.Triples[0], it), it.Parent.TileThreads, it.Body.TileThreads))
	}
	return strings.Join(s, ", ")
}

// Result holds the deductions in allocation order.
type Result struct {
	Deductions []*Deduction
	// byVar is each variable's deduction, indexed by its position in
	// the GPU check's Vars (gpucheck.Result.VarIndex): a table, not a
	// map keyed by the variable (stop 35).
	byVar []*Deduction
	g     *gpucheck.Result
}

// ByVar returns v's deduction, or nil when the analysis does not
// concern v.
func (r *Result) ByVar(v *gpucheck.Var) *Deduction {
	if i := r.g.VarIndex(v); i >= 0 {
		return r.byVar[i]
	}
	return nil
}

// Check runs the analysis.
//
// Its deductions, triples and the lists of each deduction's triples are
// carved from arrays sized by the GPU check's variables and accesses:
// a check had made a map, an object per deduction and per use, and grown
// every deduction's list use by use (stop 35: rmem_uniform's distmem
// spent a third of its instructions allocating).
//
// byVar and Deductions share one array, and each deduction counts its
// own uses (Deduction.uses) where a table of counts and of each access's
// variable had been two more (stop 43: seven objects of a small check
// were Check's; VarIndex, asked again for each access, is one compare).
//
// A small analysis takes every array from one room (room.go; stop 46).
func Check(g *gpucheck.Result, errs *diag.List) *Result {
	nv := len(g.Vars)
	// A deduction for each variable in device code (concerns): most of
	// a small kernel's are the CPU's (its parameters and GMEM), and a
	// Deduction is ~0.3 KB to zero (stop 43).
	n := 0
	for _, v := range g.Vars {
		if concerns(v) {
			n++
		}
	}
	var s scratch
	var r *Result
	var ptrs []*Deduction
	var ds []Deduction
	var list []*Triple // the deductions' lists of triples
	var rs *roomS
	var rm *roomM
	var rd *roomD
	if n > 0 && !roomsOff {
		rs, rm, rd = newRoom(g, nv, n)
	}
	switch {
	case rs != nil:
		r, ptrs, ds, list = &rs.r, rs.ptrs[:], rs.ds[:], rs.list[:]
		s.triples = rs.triples[:]
	case rm != nil:
		r, ptrs, ds, list = &rm.r, rm.ptrs[:], rm.ds[:], rm.list[:]
		s.triples = rm.triples[:]
	case rd != nil:
		r, ptrs, ds, list = &rd.r, rd.ptrs[:], rd.ds[:], rd.list[:]
		s.triples, s.iters, s.synth = rd.triples[:], rd.iters[:], rd.synth[:]
	default:
		ptrs = make([]*Deduction, 2*nv)
		r = new(Result)
		ds = make([]Deduction, n)
	}
	r.byVar, r.g, r.Deductions = ptrs[:nv:nv], g, ptrs[nv:nv:2*nv]
	j := 0
	for i, v := range g.Vars {
		if !concerns(v) {
			continue
		}
		d := newDeduction(g, v, &ds[j], errs)
		j++
		if d != nil {
			r.Deductions = append(r.Deductions, d)
			r.byVar[i] = d
		}
	}
	if len(r.Deductions) == 0 {
		return r
	}
	// The check's scratch (scratch.go): a Triple per use, an iterator
	// and a list entry per desugared loop.
	nt, ns := 0, 0
	for _, a := range g.Accesses {
		if i := g.VarIndex(a.Var); i >= 0 && r.byVar[i] != nil {
			r.byVar[i].uses++
			nt++
			if !a.Var.Barrier {
				ns += len(paramUnits(a))
			}
		}
	}
	// The room's arrays where the counts fit them, else each apart.
	if nt <= len(s.triples) {
		s.triples, list = s.triples[:0:nt], list[:0:nt]
	} else {
		s.triples, list = make([]Triple, 0, nt), make([]*Triple, 0, nt)
	}
	if ns <= len(s.synth) {
		s.iters, s.synth = s.iters[:0:ns], s.synth[:0:ns]
	} else {
		s.iters, s.synth = make([]*gpucheck.Iter, 0, ns), make([]gpucheck.Iter, 0, ns)
	}
	// Each deduction's list of triples has room for its uses, in one
	// array.
	for _, d := range r.Deductions {
		if d.uses > 0 {
			d.Triples = list[len(list) : len(list) : len(list)+d.uses]
			list = list[:len(list)+d.uses]
		}
	}
	for _, a := range g.Accesses {
		if i := g.VarIndex(a.Var); i >= 0 && r.byVar[i] != nil {
			deduceAccess(g, r.byVar[i], a, errs, &s)
		}
	}
	return r
}

// newDeduction starts the analysis of a CUDA-scoped variable; nil for
// variables the analysis does not concern (parameters, CPU allocations,
// windows, memories without a native unit).
//
// d is where it is made (Check's array: zero).
func newDeduction(g *gpucheck.Result, v *gpucheck.Var, d *Deduction, errs *diag.List) *Deduction {
	if !concerns(v) {
		return nil
	}
	// d is zero (Check's new array): its fields are set, not a 0.3 KB
	// literal copied over it (issue 13, stop 47), as are a carved
	// Triple's (scratch.triple: a new array's or new).
	d.Var, d.TA = v, v.Scope.Tiling.TileThreads
	if v.Barrier {
		d.mbar = isMbarrier(g.Lib, v)
		return d
	}
	if g.Lib == nil {
		return nil
	}
	m := g.Memory(v)
	if m == nil {
		return nil
	}
	d.unitName = syntax.Name{Name: m.NativeUnit}
	unit := syntax.Expr(&d.unitName)
	if m.Uniform != "" {
		// CudaRmemUniform(n): one shard per aligned collective of n
		// threads (its native unit n * cuda_thread).
		n, ok := m.UniformThreads(v.Type.Mem, g.Eval)
		if !ok {
			return nil
		}
		d.unitName = syntax.Name{Name: "cuda_thread"}
		d.unitLit = syntax.IntLit{Value: n}
		d.unitBin = syntax.Binary{Op: "*", X: &d.unitLit, Y: &d.unitName}
		unit = &d.unitBin
	} else if m.NativeUnit == "" {
		return nil
	} else {
		d.native = m.NativeUnit
	}
	u, err := g.ResolveUnit(unit, v.Scope.Tiling.M)
	if err != nil {
		return nil
	}
	tn, err := u.Threads(v.Scope.Tiling.M)
	if err != nil {
		return nil
	}
	d.TN = tn
	d.unitVal = u
	d.unit = &d.unitVal
	// Rule 1/4: each shard is allocated by its own collective of the
	// native unit, so the allocating scope must hold whole native units.
	if d.TA < d.TN || d.TA%d.TN != 0 {
		errs.Errorf(v.Pos, codeAllocUnit, "%s (memory type %s) is allocated by a collective of %d threads, but its native unit %s is %d threads",
			v.Name, v.Mem, d.TA, d.NativeUnit(), d.TN)
		return nil
	}
	return d
}

// NativeUnit names the native unit of the variable's memory type
// ("cuda_warp"; "32 * cuda_thread" for CudaRmemUniform(32)), "" for a
// barrier. A uniform memory's name is made here, where a message or
// Write reads it, not for every check (stop 43: an object per uniform
// variable of a check that passes).
func (d *Deduction) NativeUnit() string {
	if d.unitBin.Op != "" {
		return strconv.FormatInt(d.unitLit.Value, 10) + " * cuda_thread"
	}
	return d.native
}

// concerns reports whether the analysis may concern v: an allocation
// in device code (not a parameter, not a window).
func concerns(v *gpucheck.Var) bool {
	return !v.Param && v.Window == nil && v.Scope != nil && v.Scope.Device != nil && v.Scope.Tiling != nil
}

func (d *Deduction) prefix() string {
	return fmt.Sprintf("distributed memory analysis (from %d threads to %d) for %s failed", d.TA, d.TN, d.Var.Name)
}

// dataTriple deduces the tiling chain of one use (Rule 2/4): consume
// indices from the left until the chain reaches the native unit.
//
// s is the check's scratch (nil: the general way, scratch.go).
func dataTriple(g *gpucheck.Result, d *Deduction, a *gpucheck.Access, errs *diag.List, s *scratch) *Triple {
	v := d.Var
	t := s.triple()
	t.Access, t.Tiling = a, a.Scope.Tiling
	// Every iterator of the chain takes one index (a user's distributed
	// index, or a slice a desugared loop takes): one array of that size,
	// not append's growth from one (stop 31).
	t.Iters = t.iterList(len(a.Indices))
	// Step 1, desugaring (seed 000 §4.1 (1)): an instruction parameter
	// with distributed collective units (@access(p, units=[...]), the τ_u*
	// of §3.3) is used as if the call were wrapped in cuda_threads loops
	// of those units, which take the argument's next dimensions (whole
	// slices). The user's distributed indices then stop at the first
	// slice, and the synthetic loops continue the chain from there.
	units := paramUnits(a)
	cur := d.TA
	k := 0
	// skipped: positions of whole-slice arguments passed over because the
	// user's chain had not reached the caller yet (Exo's
	// cuda_shfl_xor_sync_1f32(rmemA[t4, :, t1, s], ...) under t1: the
	// pair's dimension lies between t4's and t1's); the instruction's
	// loops take them after t1, in order.
	var skipped []int
	for cur != d.TN {
		if len(skipped) > 0 && cur == a.Scope.Tiling.TileThreads {
			break
		}
		if k >= len(a.Indices) {
			what := "has no index left"
			if len(a.Indices) == 0 {
				what = "is used without an index"
			}
			errs.Errorf(gpucheck.StartPos(a.Node), codeDeduce, "%s: %s %s, but the tiling chain is at %d threads, not the %d of its native unit %s: each %s owns its own shard, so the use needs a distributed index per cuda_threads loop down to it (e.g. %s[%s])",
				d.prefix(), v.Name, what, cur, d.TN, d.NativeUnit(), d.NativeUnit(), v.Name, iterHint(a, v))
			return nil
		}
		idx := a.Indices[k]
		if _, isSlice := idx.(*syntax.Slice); isSlice && len(units) > 0 {
			if cur > a.Scope.Tiling.TileThreads && len(skipped) < len(units) && followedByIter(a, k, d.TN) {
				skipped = append(skipped, k)
				k++
				continue
			}
			break // the instruction's own loops take it from here
		}
		n, ok := idx.(*syntax.Name)
		if !ok {
			errs.Errorf(gpucheck.StartPos(idx), codeDeduce, "%s: expected a cuda_threads iterator as distributed index %d, not %s (the chain is at %d threads)%s",
				d.prefix(), k, gpucheck.ExprString(idx), cur, wholeHint(a, idx))
			return nil
		}
		it := a.Scope.Iter(n.Name)
		if it == nil {
			errs.Errorf(n.Pos(), codeDeduce, "%s: %s is not from a cuda_threads loop (distributed indices must be cuda_threads iterators)", d.prefix(), n.Name)
			return nil
		}
		if slices.Contains(t.Iters, it) { // (a map per use was most of a check's distmem objects)
			errs.Errorf(n.Pos(), codeDeduce, "%s: unexpected (repeated?) index %s", d.prefix(), n.Name)
			return nil
		}
		inAlloc := false
		for _, o := range v.Scope.Iters {
			if o == it {
				inAlloc = true
			}
		}
		t0, t1 := it.Parent.TileThreads, it.Body.TileThreads
		if inAlloc || t0 != cur {
			errs.Errorf(n.Pos(), codeDeduce, "%s: iterator %s maps %d -> %d threads, but the tiling chain is at %d threads",
				d.prefix(), n.Name, t0, t1, cur)
			return nil
		}
		if t1 < d.TN {
			errs.Errorf(n.Pos(), codeDeduce, "%s: iterator %s maps %d -> %d threads, past the %d threads of the native unit %s",
				d.prefix(), n.Name, t0, t1, d.TN, d.NativeUnit())
			return nil
		}
		t.Iters = append(t.Iters, it)
		cur = t1
		k++
	}
	if len(units) > 0 && cur == d.TN && len(t.Iters) > 0 && oneElementSlices(g, v, a.Indices, k, len(units)) {
		// The user's distributed indices already reach one native unit
		// (Exo's TMA multicast to ncta = 1 CTA: A_smem[cta_m, 0:1, ...]
		// under a loop over the CTAs): each of the instruction's unit
		// loops has a single iteration, the one shard the chain reached,
		// so its one-element slices index the shard (as Exo deduces them:
		// not distributed dimensions).
		units = nil
	}
	if len(units) > 0 {
		// The synthetic loops start where the user's chain stopped: the
		// allocating collective, or the body of the last distributed index.
		start := v.Scope.Tiling
		if len(t.Iters) > 0 {
			start = t.Iters[len(t.Iters)-1].Body
		}
		synth, ok := desugar(g, d, a, start, errs, s)
		if !ok {
			return nil
		}
		if len(skipped) > 0 {
			// The skipped slices first, each at its own dimension (Iters
			// stay in dimension order; the chain ends at the last synth).
			pos := 0
			for j, it := range synth {
				if j == len(skipped) {
					synth = synth[j:]
					break
				}
				kk := skipped[j]
				if !fullSlice(g, v, kk, a.Indices[kk], it.Count) {
					errs.Errorf(gpucheck.StartPos(a.Indices[kk]), codeDeduce, "%s: %s() distributes its parameter %s over %d x %s, so index %d must be a slice of %d elements, not %s",
						d.prefix(), a.Instr.Name, a.Param, it.Count, it.Unit, kk, it.Count, gpucheck.ExprString(a.Indices[kk]))
					return nil
				}
				for pos < len(t.Iters) && iterDim(a, t.Iters[pos]) < kk {
					pos++
				}
				t.Iters = slices.Insert(t.Iters, pos, it)
				pos++
				if j == len(synth)-1 {
					synth = nil
				}
			}
		}
		for _, it := range synth {
			if k >= len(a.Indices) {
				errs.Errorf(gpucheck.StartPos(a.Node), codeDeduce, "%s: %s() distributes its parameter %s over %d x %s, but the argument has no dimension left for it",
					d.prefix(), a.Instr.Name, a.Param, it.Count, it.Unit)
				return nil
			}
			idx := a.Indices[k]
			if !fullSlice(g, v, k, idx, it.Count) {
				errs.Errorf(gpucheck.StartPos(idx), codeDeduce, "%s: %s() distributes its parameter %s over %d x %s, so index %d must be a slice of %d elements, not %s",
					d.prefix(), a.Instr.Name, a.Param, it.Count, it.Unit, k, it.Count, gpucheck.ExprString(idx))
				return nil
			}
			t.Iters = append(t.Iters, it)
			k++
		}
	}
	if k > v.Dims() {
		errs.Errorf(gpucheck.StartPos(a.Node), codeDeduce, "%s: %d distributed indices, but %s has %d dimensions", d.prefix(), k, v.Name, v.Dims())
		return nil
	}
	// The extents of the distributed dimensions hold every iteration.
	for i, it := range t.Iters {
		if it.Loop == nil {
			continue // a desugared instruction loop: checked as a slice
		}
		// A literal extent (most are) is its value, as Eval gives it,
		// without the call per iterator of every use (issue 13, stop 47).
		dim := v.Type.Dims[i]
		e, ok := int64(0), true
		if l, lit := dim.(*syntax.IntLit); lit {
			e = l.Value
		} else {
			e, ok = g.Eval(dim)
		}
		if ok && int(e) < it.Count {
			errs.Errorf(a.Indices[i].Pos(), codeExtent, "dimension %d of %s has extent %d, but its distributed index %s takes %d values",
				i, v.Name, e, it.Name, it.Count)
			return nil
		}
	}
	// Rule 1/4: the collective that owns a shard is one native unit (the
	// right shape and alignment, not just the thread count). Under warp
	// specialization the owner is the unit the selected warps belong to,
	// so only unspecialized owners are compared.
	if len(t.Iters) > 0 && d.unit != nil {
		end := chainEnd(t.Iters)
		// A register's owner of one thread is one cuda_thread without a
		// match (coll.OneThreadOf; stop 38).
		if end.Threads() == end.TileThreads && (s == nil || !end.OneThreadOf(d.unit)) {
			if merr := end.Matches(*d.unit); merr != nil {
				errs.Errorf(gpucheck.StartPos(a.Node), codeOwner, "%s: the shards are owned by collectives that are not one %s: %s",
					d.prefix(), d.NativeUnit(), merr.Msg)
				return nil
			}
		}
	}
	pitchesAndOffset(t, v.Scope.Tiling, d.TN)
	return t
}

func iterHint(a *gpucheck.Access, v *gpucheck.Var) string {
	var names []string
	for _, it := range a.Scope.Iters {
		inAlloc := false
		for _, o := range v.Scope.Iters {
			if o == it {
				inAlloc = true
			}
		}
		if !inAlloc {
			names = append(names, it.Name)
		}
	}
	if len(names) == 0 {
		return "i"
	}
	return strings.Join(names, ", ")
}

// pitchesAndOffset fills the thread pitch of each distributed index and
// the offset of the owning native unit from the allocating collective's.
// The owner is the native-unit collective holding the accessing threads
// (native units are aligned boxes of tn threads), so the producer and
// consumer warps of one CTA share its SMEM shard, while threads 0 and 32
// never share a register.
func pitchesAndOffset(t *Triple, alloc *coll.Tiling, tn int) {
	if len(t.Iters) == 0 {
		return
	}
	end := chainEnd(t.Iters)
	t.Pitches = t.pitchList(len(t.Iters))
	for _, it := range t.Iters {
		p := 0
		for _, term := range end.Base.Terms {
			if term.Iter == it.ID {
				p = term.Step
			}
		}
		t.Pitches = append(t.Pitches, p)
	}
	t.Offset = end.Base.Const/tn*tn - alloc.Base.Const/tn*tn
}

// barrierTriple: every barrier index is distributed (seed 002: "Interpret
// all indices as distributed indices"). The completion barrier of an
// instruction that declares barrier units (barrier_units=[...], e.g. TMA
// multicast, which signals the mbarrier at the same offset in every
// destination CTA) may take whole slices for its trailing indices: they
// are desugared like distributed instruction parameters (seed 000 §4.1
// step 1), as loops of those units from where the other indices end.
//
// Its triple, list of iterators and pitches are carved from s (nil: new
// ones): each index gives at most one iterator (a distributed index, a
// barrier unit's loop or a multicast slice; ring-buffered dimensions
// none), so the lists have room for len(a.Indices) (stop 38).
func barrierTriple(g *gpucheck.Result, d *Deduction, a *gpucheck.Access, errs *diag.List, s *scratch) *Triple {
	t := s.triple()
	t.Access, t.Tiling = a, a.Scope.Tiling
	t.Iters = t.iterList(len(a.Indices))
	var units []syntax.Expr
	if a.CompletionOf != nil {
		units = a.CompletionOf.BarrierUnits
	}
	// Exo's GPU branch multicasts an Arrive to a whole dimension of an
	// mbarrier array (`Arrive(tl, 1) >> raw[m, :, k]`: the barrier of every
	// CTA along that dimension). Such a slice is a wildcard position: its
	// pitch is the one other uses deduce (consistent skips it), and the
	// code generator resolves the CTAs from them.
	_, arrive := a.Stmt.(*syntax.Arrive)
	multicast := arrive && a.CompletionOf == nil && d.mbar
	var wild []int // positions in t.Iters of multicast slices
	k := 0
	for ; k < len(a.Indices); k++ {
		idx := a.Indices[k]
		if ringDim(d.Var, k) {
			// A ring-buffered dimension (`n @ ring_buffer_by(depth)`,
			// Exo's GPU branch) is indexed by a logical count (a seq
			// iterator), not by threads: it is not distributed.
			continue
		}
		if _, isSlice := idx.(*syntax.Slice); isSlice && len(units) > 0 {
			if len(t.Iters) > 0 && oneElementSlices(g, d.Var, a.Indices, k, 1) && withinOneUnit(g, units[0], t.Iters[len(t.Iters)-1].Body) {
				// The completion barrier of a multicast to one CTA
				// (ncta = 1): the slice names the issuing CTA's own
				// barrier, which the indices before it selected.
				wild = append(wild, len(t.Iters)+len(wild))
				continue
			}
			break
		}
		if _, isSlice := idx.(*syntax.Slice); isSlice && multicast {
			n, ok := g.Eval(d.Var.Type.Dims[k])
			if !ok || !fullSlice(g, d.Var, k, idx, int(n)) {
				errs.Errorf(gpucheck.StartPos(idx), codeBarrierIdx, "the slice %s of %s in an Arrive must cover its whole dimension (the Arrive multicasts to every barrier along it)", gpucheck.ExprString(idx), d.Var.Name)
				return nil
			}
			wild = append(wild, len(t.Iters)+len(wild))
			continue
		}
		n, ok := idx.(*syntax.Name)
		var it *gpucheck.Iter
		if ok {
			it = a.Scope.Iter(n.Name)
		}
		if it == nil {
			hint := ""
			if _, isSlice := idx.(*syntax.Slice); isSlice {
				hint = "; only the completion barrier of an instruction that declares barrier_units=[...] (e.g. TMA multicast) may take a whole slice"
			}
			errs.Errorf(gpucheck.StartPos(idx), codeBarrierIdx, "barrier index %s of %s must be a cuda_threads iterator (all barrier indices are distributed indices)%s",
				gpucheck.ExprString(idx), d.Var.Name, hint)
			return nil
		}
		t.Iters = append(t.Iters, it)
	}
	if k < len(a.Indices) {
		start := d.Var.Scope.Tiling
		if len(t.Iters) > 0 {
			start = t.Iters[len(t.Iters)-1].Body
		}
		in := a.CompletionOf
		cur := start
		for i, ue := range units {
			u, err := g.ResolveUnit(ue, cur.M)
			if err != nil {
				errs.Errorf(gpucheck.StartPos(a.Node), codeBarrierIdx, "barrier unit of %s(): %v", in.Name, err)
				return nil
			}
			ut, err := u.Threads(cur.M)
			if err != nil || ut < 1 || cur.Threads()%ut != 0 || ut < a.Scope.Tiling.TileThreads {
				errs.Errorf(gpucheck.StartPos(a.Node), codeBarrierIdx, "%s() completes on barriers distributed over %s, which does not divide the %d threads of the collective its other indices reach (or is smaller than its caller)",
					in.Name, u, cur.Threads())
				return nil
			}
			count := cur.Threads() / ut
			if k >= len(a.Indices) {
				errs.Errorf(gpucheck.StartPos(a.Node), codeBarrierIdx, "%s() completes on barriers distributed over %d x %s, but %s has no index left for them",
					in.Name, count, u, d.Var.Name)
				return nil
			}
			if !fullSlice(g, d.Var, k, a.Indices[k], count) {
				errs.Errorf(gpucheck.StartPos(a.Indices[k]), codeBarrierIdx, "%s() completes on barriers distributed over %d x %s, so index %d of %s must be a slice of %d barriers, not %s",
					in.Name, count, u, k, d.Var.Name, count, gpucheck.ExprString(a.Indices[k]))
				return nil
			}
			body, err := cur.CudaThreads(synthID+i, count, u)
			if err != nil {
				errs.Errorf(gpucheck.StartPos(a.Node), codeBarrierIdx, "barrier of %s(): %v", in.Name, err)
				return nil
			}
			t.Iters = append(t.Iters, &gpucheck.Iter{Name: fmt.Sprintf("%s.barrier[%s]", in.Name, u), ID: synthID + i, Count: count, Unit: u, Parent: cur, Body: body})
			cur = body
			k++
		}
		// After the slices: ring-buffered dimensions, and cuda_threads
		// iterators of the collective (Exo's multicast over the CTAs of
		// one cluster row, `>> raw[0:2, cta_n, k]`, with cta_n a loop of
		// one CTA column).
		for ; k < len(a.Indices); k++ {
			if ringDim(d.Var, k) {
				continue
			}
			var it *gpucheck.Iter
			if n, ok := a.Indices[k].(*syntax.Name); ok {
				it = a.Scope.Iter(n.Name)
			}
			if it == nil {
				errs.Errorf(gpucheck.StartPos(a.Indices[k]), codeBarrierIdx, "barrier index %s of %s must be a cuda_threads iterator (the slices %s() distributes over its barrier units come last)",
					gpucheck.ExprString(a.Indices[k]), d.Var.Name, in.Name)
				return nil
			}
			t.Iters = append(t.Iters, it)
		}
	}
	if len(t.Iters) > 0 || len(wild) > 0 {
		t.Pitches = t.pitchList(len(a.Indices))
	}
	if len(t.Iters) > 0 {
		end := t.Iters[len(t.Iters)-1].Body
		for _, it := range t.Iters {
			p, found := 0, false
			for _, term := range end.Base.Terms {
				if term.Iter == it.ID {
					p, found = term.Step, true
				}
			}
			if !found && it.Body != nil {
				// An iterator of another chain (a barrier unit's loop
				// before the collective's own iterators): its own body.
				for _, term := range it.Body.Base.Terms {
					if term.Iter == it.ID {
						p = term.Step
					}
				}
			}
			t.Pitches = append(t.Pitches, p)
		}
	}
	for _, w := range wild {
		it := &gpucheck.Iter{Name: d.Var.Name + "[:]", ID: synthID + 64 + w, Count: 1, Parent: t.Tiling, Body: t.Tiling}
		t.Iters = slices.Insert(t.Iters, w, it)
		t.Pitches = slices.Insert(t.Pitches, w, wildPitch)
	}
	return t
}

// oneElementSlices reports whether indices k .. k+n-1 of v exist and are
// slices of one element over dimensions of extent 1.
func oneElementSlices(g *gpucheck.Result, v *gpucheck.Var, idx []syntax.Expr, k, n int) bool {
	// A variable indexed past its type's dimensions (only after an
	// earlier error: check reports the index count, and the fuzz target
	// runs this on such programs) has no such slices.
	if k+n > len(idx) || v.Type == nil || k+n > len(v.Type.Dims) {
		return false
	}
	for i := k; i < k+n; i++ {
		if e, ok := g.Eval(v.Type.Dims[i]); !ok || e != 1 || !fullSlice(g, v, i, idx[i], 1) {
			return false
		}
	}
	return true
}

// withinOneUnit reports whether the tile of collective t lies within one
// unit ue (its tile is no larger than the unit).
func withinOneUnit(g *gpucheck.Result, ue syntax.Expr, t *coll.Tiling) bool {
	u, err := g.ResolveUnit(ue, t.M)
	if err != nil {
		return false
	}
	ut, err := u.Threads(t.M)
	return err == nil && t.TileThreads <= ut
}

// wildPitch marks the pitch of a multicast Arrive's slice (barrierTriple).
const wildPitch = -1

// ringDim reports whether dimension k of v carries a size annotation
// (ring_buffer_by; package check validates it).
func ringDim(v *gpucheck.Var, k int) bool {
	return v.Type != nil && k < len(v.Type.DimAnns) && v.Type.DimAnns[k] != nil
}

// consistent checks Rule 3/4 against the first use.
func consistent(l *lib.Library, d *Deduction, first, t *Triple, errs *diag.List) bool {
	describe := func(x *Triple) string {
		var ps []string
		for i, it := range x.Iters {
			ps = append(ps, fmt.Sprintf("%s (%d threads apart)", iterName(x, it), x.Pitches[i]))
		}
		s := fmt.Sprintf("%d distributed dims", len(x.Iters))
		if len(ps) > 0 {
			s += " [" + strings.Join(ps, ", ") + "]"
		}
		return s
	}
	ok := len(first.Iters) == len(t.Iters)
	mbar := d.mbar
	for i := 0; ok && i < len(t.Pitches); i++ {
		if mbar && (t.Pitches[i] == wildPitch || first.Pitches[i] == wildPitch) {
			continue // a multicast Arrive's slice: any owners
		}
		if t.Iters[i].Count == 1 && first.Iters[i].Count == 1 {
			// An index of one value (cuda_threads(0, 1, ...)) is 0 in
			// every use: its pitch does not place any shard (Exo prints
			// pitch 0 for it), whichever collective the loop tiles.
			continue
		}
		if mbar {
			// An mbarrier array lives in the CTA's shared memory: each
			// index value names one queue barrier (seed 002 "Queue
			// Barrier": same variable and index values), whichever
			// collective uses it, so warps may arrive on AtoB[w] that a
			// warpgroup or a thread awaits as AtoB[wg] (issue 13). Only
			// whether an index selects a CTA of the cluster (a pitch of
			// at least a CTA: whose SMEM) must agree between uses.
			ok = ctaSelecting(t, i) == ctaSelecting(first, i)
			continue
		}
		ok = t.Pitches[i] == first.Pitches[i]
	}
	if ok && !d.Var.Barrier && t.Offset != first.Offset {
		errs.Errorf(gpucheck.StartPos(t.Access.Node), codeMismatch, "inconsistent distributed memory deduction for %s: the shards are owned by threads starting at offset %d here, but at offset %d at %s",
			d.Var.Name, t.Offset, first.Offset, pos(gpucheck.StartPos(first.Access.Node))).Note(gpucheck.StartPos(first.Access.Node), "the first use of %s is here", d.Var.Name)
		return false
	}
	if !ok {
		errs.Errorf(gpucheck.StartPos(t.Access.Node), codeMismatch, "inconsistent distributed memory deduction for %s: deduced %s here; mismatches %s deduced at %s",
			d.Var.Name, describe(t), describe(first), pos(gpucheck.StartPos(first.Access.Node))).Note(gpucheck.StartPos(first.Access.Node), "the first use of %s is here", d.Var.Name)
		return false
	}
	return true
}

// barrierRange checks that each distributed index of an mbarrier use
// names barriers of the array only: the iterator takes no more values than
// the dimension's (constant) extent. Uses by different collectives pair by
// index value (consistent), so an index that runs past the array would
// pair Arrives and Awaits with no barrier at all.
func barrierRange(g *gpucheck.Result, d *Deduction, t *Triple, errs *diag.List) bool {
	if !d.mbar || d.Var.Type == nil {
		return true
	}
	k := -1
	for _, it := range t.Iters {
		k++
		for k < len(d.Var.Type.Dims) && ringDim(d.Var, k) {
			k++ // ring-buffered dimensions are not distributed
		}
		if k >= len(d.Var.Type.Dims) {
			break
		}
		var n int64 = -1
		switch e := d.Var.Type.Dims[k].(type) {
		case *syntax.IntLit:
			n = e.Value
		case *syntax.Name:
			if v, ok := g.Consts[e.Name]; ok {
				n = v
			}
		}
		if n >= 0 && int64(it.Count) > n && it.ID < synthID {
			errs.Errorf(gpucheck.StartPos(t.Access.Node), codeMismatch, "barrier pairing of %s is not defined: its index %s takes %d values here, but dimension %d has %d barriers", d.Var.Name, it.Name, it.Count, k, n)
			return false
		}
	}
	return true
}

// isMbarrier: CudaMbarrier and memories derived from it
// (CudaMbarrierPreArrive).
func isMbarrier(l *lib.Library, v *gpucheck.Var) bool {
	if !v.Barrier {
		return false
	}
	if v.Mem == "CudaMbarrier" {
		return true
	}
	if l == nil {
		return false
	}
	b := l.Barriers[v.Mem]
	return b != nil && b.DerivesFrom("CudaMbarrier")
}

// ctaSelecting reports whether distributed index i of t selects a CTA of
// the cluster (its threads are at least a CTA apart), and by how much.
func ctaSelecting(t *Triple, i int) int {
	bd := 0
	if t.Tiling != nil {
		bd = t.Tiling.M.BlockDim
	}
	if bd <= 0 || t.Pitches[i] < bd {
		return 0
	}
	return t.Pitches[i]
}

func pos(p diag.Pos) string { return fmt.Sprintf("%d:%d", p.Line(), p.Col()) }

// synthID numbers the iterators of desugared instruction loops; they never
// collide with a device function's own iterators.
const synthID = 1 << 20

// paramUnits returns the distributed collective units of the instruction
// parameter a is an argument of (nil for other uses).
func paramUnits(a *gpucheck.Access) []syntax.Expr {
	acc := a.ParamAccess()
	if acc == nil {
		return nil
	}
	return acc.Units
}

// wholeHint explains, for a slice where a distributed index was expected,
// that only instructions declaring distributed units take whole
// distributed dimensions.
func wholeHint(a *gpucheck.Access, idx syntax.Expr) string {
	if _, ok := idx.(*syntax.Slice); !ok {
		return ""
	}
	if a.Instr != nil {
		return fmt.Sprintf("; a slice of a distributed dimension is allowed only for an instruction parameter that declares the units it is distributed over (@access(%s, units=[...])), which %s() does not", a.Param, a.Instr.Name)
	}
	return "; only an instruction that declares the parameter distributed (@access(p, units=[...]), e.g. a warp shuffle or TMA multicast) may take a whole distributed dimension"
}

// desugar derives the synthetic cuda_threads loops of an argument's
// per-parameter units, nested from start (where the user's distributed
// indices end), each taking all threads of its parent: the iterations
// count the units in the parent collective.
//
// Two kinds of instructions declare units. A collective whose lanes each
// own a shard (a warp shuffle: units=[cuda_thread] under a warp) uses
// only its own threads' shards, so the loops must start at the calling
// collective. A communication instruction that reaches shards of other
// units (TMA multicast, issued by one thread into the SMEM of every CTA
// of the cluster: units=[cuda_cta_in_cluster]) has units at least as
// large as its caller; its loops start at the enclosing collective the
// chain reached (seed 000 §2.1: threads access only their own shards
// "except via explicit communication instructions (e.g., warp shuffles)
// or TMA multicast").
//
// With the check's scratch s (not nil) the loops' iterators are carved
// from it and left unnamed (iterName names them where a message or
// Write reads the name), and a one-dimensional start derives in one pass
// (scratch.derive).
func desugar(g *gpucheck.Result, d *Deduction, a *gpucheck.Access, start *coll.Tiling, errs *diag.List, s *scratch) ([]*gpucheck.Iter, bool) {
	units := paramUnits(a)
	out := s.iterList(len(units))
	cur := start
	call := a.Scope.Tiling
	for i, ue := range units {
		u, err := g.ResolveUnit(ue, cur.M)
		if err != nil {
			errs.Errorf(gpucheck.StartPos(a.Node), codeDeduce, "%s: unit of parameter %s of %s(): %v", d.prefix(), a.Param, a.Instr.Name, err)
			return nil, false
		}
		ut, err := u.Threads(cur.M)
		if err != nil || ut < 1 || cur.Threads()%ut != 0 {
			errs.Errorf(gpucheck.StartPos(a.Node), codeDeduce, "%s: parameter %s of %s() is distributed over %s, but the collective at that point of the chain has %d threads, which do not divide into it",
				d.prefix(), a.Param, a.Instr.Name, u, cur.Threads())
			return nil, false
		}
		if i == 0 && ut < call.TileThreads && start.TileThreads != call.TileThreads {
			// A unit smaller than the caller: the caller's own threads.
			errs.Errorf(gpucheck.StartPos(a.Node), codeDeduce, "%s: %s() distributes its parameter %s over %s units of the calling collective (%d threads), but the distributed indices before it stop at %d threads: index %s down to the caller first",
				d.prefix(), a.Instr.Name, a.Param, u, call.TileThreads, start.TileThreads, d.Var.Name)
			return nil, false
		}
		count := cur.Threads() / ut
		body, err := s.derive(cur, synthID+i, count, u)
		if err != nil {
			errs.Errorf(gpucheck.StartPos(a.Node), codeDeduce, "%s: parameter %s of %s(): %v", d.prefix(), a.Param, a.Instr.Name, err)
			return nil, false
		}
		it := s.iter() // zero: a new array's or new
		it.ID, it.Count, it.Unit, it.Parent, it.Body = synthID+i, count, u, cur, body
		if s == nil {
			it.Name = desugaredName(a, u)
		}
		out = append(out, it)
		cur = body
	}
	if last := cur.TileThreads; last != d.TN {
		errs.Errorf(gpucheck.StartPos(a.Node), codeDeduce, "%s: %s() distributes its parameter %s down to %d threads, but the native unit %s of %s is %d threads",
			d.prefix(), a.Instr.Name, a.Param, last, d.NativeUnit(), d.Var.Mem, d.TN)
		return nil, false
	}
	return out, true
}

// fullSlice reports whether idx is a slice of exactly n elements of
// dimension k of v (`:` over a dimension of extent n, or lo:hi with
// hi - lo = n).
func fullSlice(g *gpucheck.Result, v *gpucheck.Var, k int, idx syntax.Expr, n int) bool {
	sl, ok := idx.(*syntax.Slice)
	if !ok || k >= len(v.Type.Dims) {
		return false
	}
	if sl.Lo == nil && sl.Hi == nil {
		e, ok := g.Eval(v.Type.Dims[k])
		return ok && int(e) == n
	}
	lo, hi := int64(0), int64(0)
	if sl.Lo != nil {
		var ok bool
		if lo, ok = g.Eval(sl.Lo); !ok {
			return false
		}
	}
	if sl.Hi == nil {
		e, ok := g.Eval(v.Type.Dims[k])
		if !ok {
			return false
		}
		hi = e
	} else {
		var ok bool
		if hi, ok = g.Eval(sl.Hi); !ok {
			return false
		}
	}
	return int(hi-lo) == n
}

// Write prints every deduction: the distributed indices of the first use
// with their tiling chain, and the shard each native unit allocates (the
// dimensions code generation keeps, Rule 4/4).
func (r *Result) Write(w io.Writer) {
	if len(r.Deductions) == 0 {
		return
	}
	fmt.Fprintln(w, "distributed memory:")
	for _, d := range r.Deductions {
		v := d.Var
		kind := v.Mem
		if v.Barrier {
			kind = "barrier @ " + v.Mem
		}
		head := fmt.Sprintf("  %s (%s) at %d:%d, allocated by %s", v.Name, kind, v.Pos.Line(), v.Pos.Col(), v.Scope.Tiling.Describe())
		if d.NativeUnit() != "" {
			head += fmt.Sprintf("; native unit %s", d.NativeUnit())
		}
		fmt.Fprintln(w, head)
		if len(d.Triples) == 0 {
			fmt.Fprintln(w, "          unused")
			continue
		}
		var names []string
		for _, it := range d.Triples[0].Iters {
			names = append(names, iterName(d.Triples[0], it))
		}
		var shard []string
		if v.Type != nil && d.Dist <= len(v.Type.Dims) {
			for _, e := range v.Type.Dims[d.Dist:] {
				shard = append(shard, gpucheck.ExprString(e))
			}
		}
		line := "          not distributed"
		if len(names) > 0 {
			line = fmt.Sprintf("          distributed [%s] (%s)", strings.Join(names, ", "), d.Chain())
		}
		if !v.Barrier {
			line += fmt.Sprintf("; shard [%s]", strings.Join(shard, ", "))
		}
		fmt.Fprintf(w, "%s; %d uses agree\n", line, len(d.Triples))
	}
}

// chainEnd is the collective a use's tiling chain ends at: the body of
// its innermost iterator (the fewest tile threads; the last one in
// dimension order unless a slice was skipped, dataTriple).
func chainEnd(iters []*gpucheck.Iter) *coll.Tiling {
	end := iters[len(iters)-1].Body
	for _, it := range iters {
		if it.Body.TileThreads < end.TileThreads {
			end = it.Body
		}
	}
	return end
}

// followedByIter reports whether a cuda_threads iterator follows index k
// of a (after more slices) that stays within the native unit's tn threads:
// the user's chain continues past the slice (a shuffle's pair selected
// after its dimension), rather than the index being an ordinary one of a
// shard (the warp of a TMA multicast's SMEM ring, a_smem[0:2, ping, ...]).
func followedByIter(a *gpucheck.Access, k, tn int) bool {
	for _, idx := range a.Indices[k+1:] {
		if _, isSlice := idx.(*syntax.Slice); isSlice {
			continue
		}
		n, ok := idx.(*syntax.Name)
		if !ok {
			return false
		}
		it := a.Scope.Iter(n.Name)
		return it != nil && it.Body.TileThreads >= tn
	}
	return false
}

// iterDim is the dimension of a's index that iterator it is (-1: none,
// a synthetic loop).
func iterDim(a *gpucheck.Access, it *gpucheck.Iter) int {
	for k, idx := range a.Indices {
		if n, ok := idx.(*syntax.Name); ok && a.Scope.Iter(n.Name) == it {
			return k
		}
	}
	return -1
}

// deduceAccess adds access a's triple to its variable's deduction d, as
// the first access's triple or one consistent with it; a triple that
// cannot be formed or that disagrees is reported and dropped.
//
// s is the check's scratch (nil: the general way).
func deduceAccess(g *gpucheck.Result, d *Deduction, a *gpucheck.Access, errs *diag.List, s *scratch) {
	var t *Triple
	if d.Var.Barrier {
		t = barrierTriple(g, d, a, errs, s)
	} else {
		t = dataTriple(g, d, a, errs, s)
	}
	if t == nil {
		return
	}
	if d.Var.Barrier && !barrierRange(g, d, t, errs) {
		return
	}
	if len(d.Triples) > 0 {
		if !consistent(g.Lib, d, d.Triples[0], t, errs) {
			return
		}
	} else {
		d.Dist = len(t.Iters)
	}
	d.Triples = append(d.Triples, t)
}

// desugaredName names the loop of unit u that desugars a's instruction
// parameter: "cuda_shfl_xor_sync_1f32.dst[cuda_thread]".
func desugaredName(a *gpucheck.Access, u coll.Unit) string {
	return a.Instr.Name + "." + a.Param + "[" + u.String() + "]"
}

// iterName is the name of iterator it of triple t. Check leaves the
// desugared loops' iterators unnamed (stop 38): the name is read only by
// messages and Write, never on a check that passes, and was a third of
// desugar's instructions (its concatenation and the unit's String).
// Every other iterator has its name (a user's loop its variable's).
func iterName(t *Triple, it *gpucheck.Iter) string {
	if it.Name == "" && it.Loop == nil && t.Access != nil && t.Access.Instr != nil {
		return desugaredName(t.Access, it.Unit)
	}
	return it.Name
}
