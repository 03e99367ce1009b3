package lib

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/syntax"
)

// Perm is a memory permission string: letters of "rwc" (read, write,
// create/allocate), seed 002 "Memory types".
type Perm string

// Can reports whether p grants op ('r', 'w' or 'c'): whether op is one
// of p's bytes, strings.IndexByte(p, op) >= 0, as a loop over those few
// bytes ("rwc" at most) that the caller inlines, without IndexByte's call
// (stop 43: package check asks once per access of every kernel; gpucheck
// has the same loop, can, since stop 42).
func (p Perm) Can(op byte) bool {
	for i := 0; i < len(p); i++ {
		if p[i] == op {
			return true
		}
	}
	return false
}

// Memory is a data memory type π_d (seed 000 Fig. 12).
type Memory struct {
	Name     string
	Pos      diag.Pos
	Base     []string // memory types this one refines
	Abstract bool     // cannot be allocated
	Space    string   // dram, gmem, smem, rmem, grid_constant
	// NativeUnit is the collective unit that allocates one distributed shard
	// ("" for memories allocated by the CPU).
	NativeUnit string
	// Uniform names the parameter n of a uniform register memory
	// (CudaRmemUniform(n), Exo's GPU branch): one value per aligned
	// collective of n threads, each of which holds a copy. Its native
	// unit, and the collective that must execute every scalar write to
	// it (Exo's mutate unit), is n * cuda_thread (UniformThreads).
	Uniform string
	Params  []string   // optional parameters, e.g. Sm80_RmemMatrixA(M, K)
	Tiles   [][2]int64 // allowed shapes of the last two dimensions (nil: any)
	// Permissions in CPU code, in-order CUDA code, a CudaAsync block, and for
	// instruction parameters inside a CudaAsync block.
	CPU, CUDA, Async, AsyncInstr Perm
	// CPUInstr is the permission for instruction parameters in CPU code
	// (CPU-side CUDA API calls such as copies to GMEM); defaults to CPU.
	CPUInstr Perm

	lib *Library
}

// DerivesFrom reports whether m is base or refines it (transitively): a
// parameter declared @ base accepts an argument in memory m.
func (m *Memory) DerivesFrom(base string) bool {
	if m == nil {
		return false
	}
	if m.Name == base {
		return true
	}
	if b := m.lib.Memories[base]; b != nil && b.Name != base && b.Name == m.Name {
		return true // base is an alias of m
	}
	return m.derives(base, map[string]bool{}, false)
}

func (m *Memory) derives(target string, seen map[string]bool, strict bool) bool {
	if seen[m.Name] {
		return false
	}
	seen[m.Name] = true
	for _, b := range m.Base {
		if b == target {
			return true
		}
		if bm := m.lib.Memories[b]; bm != nil && bm.derives(target, seen, strict) {
			return true
		}
	}
	return false
}

// Device reports whether the memory lives on the GPU (everything but DRAM).
func (m *Memory) Device() bool { return m.Space != "dram" }

// BarrierMemory is a barrier (completion) mechanism π_z (seed 000 Fig. 13).
type BarrierMemory struct {
	Name     string
	Pos      diag.Pos
	Base     []string
	Abstract bool
	Reverse  bool // ReverseArrive/ReverseAwait allowed (mbarriers)
	Cluster  bool // synchronizes whole clusters
	CPU      bool // a CPU-side barrier (CUDA events)
	// Params are the memory's parameters (CudaMbarrierPreArrive(pre_arrive)),
	// given as integer constants where the memory is used.
	Params []string

	lib *Library
}

// DerivesFrom reports whether b is base or refines it.
func (b *BarrierMemory) DerivesFrom(base string) bool {
	if b == nil {
		return false
	}
	if b.Name == base {
		return true
	}
	for _, n := range b.Base {
		if bb := b.lib.Barriers[n]; bb != nil && bb != b && bb.DerivesFrom(base) {
			return true
		}
	}
	return false
}

// SpecialWindow is a special window type π_w (seed 000 Fig. 14), used by
// window statements `x = y[...] @ Sm90_tensorMap(128, 64, 32)`.
type SpecialWindow struct {
	Name     string
	Pos      diag.Pos
	Params   []string // named parameters (swizzle)
	Variadic bool     // further positional parameters (*smem_box)
	Source   string   // memory the windowed tensor must derive from
}

// Unit is a collective unit τ_u (seed 000 Fig. 11) as data: the domain and
// box expressions over blockDim, clusterDim, the unit's params and `_`.
// Package coll evaluates them.
type Unit struct {
	Name   string
	Pos    diag.Pos
	Decl   *syntax.Global
	Params []string
	Domain []syntax.Expr
	Box    []syntax.Expr
	Scale  int // box coordinate multiplied by `n * unit`; -1: not scalable
}

// QualTL is a qualitative timeline τ_q (seed 000 Fig. 15).
type QualTL struct {
	Name   string
	Pos    diag.Pos
	Abbrev string // the column name of Fig. 16 (cpu, strm, cuda1, ...)
	Doc    string
	Index  int // position in Library.QualOrder; its bit in a QualSet
}

// QualSet is a set of qualitative timelines, bit i = Library.QualOrder[i].
type QualSet uint64

// Has reports whether the timeline with index i is in the set.
func (s QualSet) Has(i int) bool { return s&(1<<i) != 0 }

// SyncTL is a sync timeline τ_s (seed 000 Fig. 16): a full and a temporal
// set of qualitative timelines. Temporal includes Full.
type SyncTL struct {
	Name        string
	Pos         diag.Pos
	Transitive  bool     // the trnstv? column
	Full        []string // qualitative timelines of the full set, table order
	Temporal    []string // the temporal set (full ∪ temp.)
	FullSet     QualSet
	TemporalSet QualSet
	Instr       bool // also an instruction timeline (@instr tl=...)
	AsyncBlock  bool // may open `with CudaAsync(...)`
}

// ImplementsSecond reports whether a barrier implementing Fence(_, s) also
// implements Fence(_, o): o's full and temporal sets are subsets of s's.
func (s *SyncTL) ImplementsSecond(o *SyncTL) bool {
	return s.FullSet&o.FullSet == o.FullSet && s.TemporalSet&o.TemporalSet == o.TemporalSet
}

// ImplementsFirst is ImplementsSecond plus transitivity: a transitive
// timeline cannot be implemented by a non-transitive one.
func (s *SyncTL) ImplementsFirst(o *SyncTL) bool {
	return s.ImplementsSecond(o) && (s.Transitive || !o.Transitive)
}

// Cell returns the Fig. 16 cell of s for qualitative timeline q: "full",
// "temp." or "".
func (s *SyncTL) Cell(q *QualTL) string {
	switch {
	case s.FullSet.Has(q.Index):
		return "full"
	case s.TemporalSet.Has(q.Index):
		return "temp."
	}
	return ""
}

// UniformThreads is n of a uniform memory (Memory.Uniform) for the
// memory expression of a variable's type (e.g. CudaRmemUniform(64)):
// the argument bound to the parameter, positionally or by keyword,
// evaluated by eval. ok is false for other memories and when the
// argument is missing or not a constant.
func (m *Memory) UniformThreads(mem syntax.Expr, eval func(syntax.Expr) (int64, bool)) (n int64, ok bool) {
	if m == nil || m.Uniform == "" {
		return 0, false
	}
	call, isCall := mem.(*syntax.Call)
	if !isCall {
		return 0, false
	}
	var arg syntax.Expr
	if kw := call.Kwarg(m.Uniform); kw != nil {
		arg = kw.Value
	}
	for i, p := range m.Params {
		if p == m.Uniform && i < len(call.Args) {
			arg = call.Args[i]
		}
	}
	if arg == nil {
		return 0, false
	}
	n, ok = eval(arg)
	return n, ok && n > 0
}
