package cudagen

import (
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// The diagnostics-only walk of CheckOnly (issue 13, stop 37;
// docs/weft-sync.md "Stop 37: gen37"). weft check runs the generator for
// its W09xx diagnostics alone, and a program the front end, the GPU
// checker, distmem and the sync checker accepted almost never gets one
// (stop 36's inventory: five codes fire on the 2353 accepted programs of
// the differential corpus, each on a construct listed below as one the
// walk leaves to the generator). The generator's CheckOnly pass still
// built its state for a device function (scopes, syms, the devFn, the
// passState of 5.6 KB, a unit and a tiling lookup per loop through the
// shared-tiling checks) to find nothing.
//
// walkClean is a proof of "the generator reports nothing", or no answer:
// it walks the program in the generator's order, holding only names
// (kinds, memories, dimensions, the tile thread counts of seed 002 Rule
// 2/4) and the GPU checker's tilings, and for every statement it accepts
// it tests the conditions of every diagnostic the generator's lowering of
// that statement can report, as the generator tests them (each test below
// names the generator function it mirrors). A statement of any other kind,
// or any condition under which the generator would report, ends the walk
// with false: runPasses then runs the generator's pass as before, which
// reports what it reports. So the walk never computes a diagnostic, it
// only skips the pass where the pass would report none: the diagnostics
// are the pass's on every program by construction of the two answers.
//
// What the walk accepts (every other statement, expression and memory
// falls back):
//   - file: globals (as gen.globals), no @instr proc of the file's own;
//     procs whose body is device code (deviceProc) are skipped as the
//     generator skips them (they are only lowered where device code calls
//     them, and the walk does not accept such a call);
//   - CPU code: parameters (paramSym's checks), pass, Fence (no
//     diagnostic), allocations in DRAM, GMEM or grid constants (alloc),
//     seq and par loops without pragma_unroll, point assignments, calls
//     of CPU library instructions with plain templates (below), `with
//     CudaDeviceFunction(...)`;
//   - the device function: keyword arguments blockDim, clusterDim,
//     blocks_per_sm (constants), no warp_config; the launch configuration
//     and top-level tiling are the GPU checker's when it built them from
//     the same arguments and machine (sharedFn, sharedTop), else the
//     walk makes them as launchShape and deviceFunction do and derives
//     every loop's tiling as threadsLoop does (ctx.shared false); the
//     cuda_tasks nest (deviceFunction's shape test); task bounds over
//     names that are not tensors;
//   - device code: pass, assert, free, allocations in registers and
//     SMEM (swizzled too) with constant dimensions (not barriers or
//     matrix fragments), assignments of point accesses and scalars (no
//     windows), if, seq loops without pragma_unroll, cuda_threads loops
//     (the checker's body under sharedBody's conditions, or derived),
//     Fence in the timelines other than TMA to SMEM and wgmma, whose
//     collective has a thread barrier (threadBarrierTo), calls of CUDA
//     library instructions whose template is plain
//     (lib.Instr.PlainCUDA), not wgmma's, without completion barriers;
//   - expressions: literals, names, unary and binary operators, point
//     accesses whose distributed indices deduce (stripDist).
//
// Of stop 36's five codes that fire after the checks, W0906 after TMA to
// SMEM, W0907 (barriers, rings, commit groups), W0904 of CudaWarps and
// W0901 of a window used as a value are on constructs the walk does not
// accept; W0910 is stripDist's test, made here as there (the walk fails
// where the deduction fails). TestWalkCleanOnlyWhenClean checks the
// answer against the generator on every program and variant of the
// differential corpus, the repo's .weft files and mutants of each
// accepted construct.

// walkOff makes runPasses skip the walk (tests comparing with the pass).
var walkOff = false

// wsym is one name in the walk's scope: what the generator's sym holds
// that its diagnostics read.
type wsym struct {
	name string
	// typ is the declaration's type (nil for an iterator): its dims are
	// the sym's, its element type the sym's elem (lib.ResolveElem).
	typ  *syntax.Type
	kind symKind
	// dram, gridConst: the memory's space is CPU memory (capture's
	// test), a grid constant (CPU code may access both); frag: a matrix
	// fragment's memory (accessed by instructions only); odd: a memory
	// whose windows the walk leaves to the pass (fragments, swizzled
	// SMEM, tensor maps); device: declared in device code; threadsIt: a
	// cuda_threads iterator.
	dram, gridConst, frag, odd, device, threadsIt bool
	// litDims: every dimension is an integer literal (set by push),
	// whose constValue holds in any scope: the walks of the extents
	// that are not constants (access, window) have none to walk.
	litDims bool
	// cuda_threads iterators: the tile thread counts before and after
	// the loop (sym.t0, sym.t1).
	t0, t1 int32
	// device allocations: the tile thread count of the allocation's
	// scope, the thread count of one shard (stripDist's tn, of the memory
	// and the machine: found once) and the number of distributed indices
	// its first access stripped (-1: none yet).
	tileThreads, tn, nd int32
}

// dims is sym.dims.
func (v *wsym) dims() []syntax.Expr {
	if v.typ == nil {
		return nil
	}
	return v.typ.Dims
}

// elem is sym.elem.
func (v *wsym) elem() string {
	if v.typ == nil || v.typ.Elem == nil {
		return ""
	}
	return lib.ResolveElem(v.typ.Elem.Name)
}

// memKinds is wsym.frag and wsym.odd of memory mem, fragmentThreads's
// switch made once for both (issue 13, stop 46).
func memKinds(mem string) (frag, odd bool) {
	frag = fragmentThreads(mem) > 0
	return frag, frag || isSwizzled(mem) || mem == "Sm90_tensorMap"
}

// walker is the state of one walk.
type walker struct {
	l      *lib.Library
	gpu    *gpucheck.Result
	consts smap[string, int64]
	// scope holds every name in scope, innermost last: scope[:n]. A
	// fixed array keeps the walker on the stack; a program that declares
	// more names at once is left to the pass (push).
	scope   [walkNames]wsym
	n       int
	bodyCur int // the cursor of gpu.BodyAt
	m       coll.Machine
	// shared: the device function's tilings are the GPU checker's
	// (sharedTop; devCtx.shared); iterID counts its cuda_threads loops
	// (devFn.iterID, the ids of the generator's own derivations).
	shared bool
	iterID int
	// units are the loop units resolved so far (unitMatches).
	units  [walkUnits]unitMemo
	nunits int
	// stores is room for the tilings of the generator's own derivations
	// (threadsLoop, when not shared), stores[:nstores] used: one
	// allocation for walkStores loops instead of a store each.
	stores  []coll.ThreadsStore
	nstores int
	// slab: the device function's walkSlab, when the walk derives its
	// tilings (nil when they are the checker's).
	slab *walkSlab
	// natUnit, natM: the native unit and machine of nativeThreads's
	// last answer natN (natOK: there is one).
	natOK   bool
	natUnit string
	natM    coll.Machine
	natN    int
	// chainsMemo is stripDist's last search of every order
	// (prefixChains).
	chainsMemo chainsMemo
	// memOK, memName, mem: memory's last answer.
	memOK   bool
	memName string
	mem     *lib.Memory
	// flatFail: the walk of a device function whose tilings it derives
	// as coll.Flats (the device statements' f, each on the frame of the
	// statement that derived it; cur is then nil) ended where a Flat has
	// no answer (deviceFunction then walks it again with the tilings).
	flatFail bool
}

// flatOff makes deviceFunction derive its tilings as coll.Tilings always
// (the tests comparing the two).
var flatOff = false

// walkStores is the number of tilings a chunk of walker.stores holds.
const walkStores = 4

// walkSlab is the memory of a device function whose tilings the walk
// derives itself (deviceFunction, when not shared): the top-level tiling
// and the first walkSlabStores loops' tilings in one allocation (issue
// 13, stop 41: the launch configuration, the top-level tiling and a
// chunk of walkStores stores had been three allocations of 4.5 KB on
// per_cta_alloc with NCTA=2, whose three nested loops fit here; later
// loops take chunks of walkStores as before).
type walkSlab struct {
	top    coll.DeviceStore
	stores [walkSlabStores]coll.ThreadsStore
	// syms holds the boxes of scaled units (walker.scaled), syms[:nsyms]
	// taken, each for good (a tiling may keep its unit's box).
	syms  [walkSlabSyms]coll.Sym
	nsyms int
}

// walkSlabSyms is the number of unit box coordinates a walkSlab holds.
const walkSlabSyms = 4

// walkSlabStores is the number of loops' tilings a walkSlab holds.
const walkSlabStores = 3

// store returns a zero store for a derivation of threadsLoop (taken by
// keep when the derivation made its tiling there).
func (w *walker) store() *coll.ThreadsStore {
	if w.nstores == len(w.stores) {
		// The tilings in the chunk before stay referenced by their
		// children and by the walk's scopes; the chunk is not reused.
		w.stores, w.nstores = make([]coll.ThreadsStore, walkStores), 0
	}
	return &w.stores[w.nstores]
}

// walkClean reports whether the generator's CheckOnly pass on f reports
// no diagnostic, when the walk can tell (false: it cannot, or the pass
// reports some).
func walkClean(f *syntax.File, l *lib.Library, gpu *gpucheck.Result) bool {
	var w walker
	return w.clean(f, l, gpu)
}

// clean is walkClean with w, a zero walker.
func (w *walker) clean(f *syntax.File, l *lib.Library, gpu *gpucheck.Result) bool {
	w.l, w.gpu = l, gpu
	// gen.globals.
	for _, d := range f.Decls {
		gl, ok := d.(*syntax.Global)
		if !ok || len(gl.Names) != len(gl.Values) {
			continue
		}
		for i, n := range gl.Names {
			v := gl.Values[i]
			if c, ok := v.(*syntax.Call); ok && c.FunName() == "simplify" {
				continue
			}
			if k, ok := w.constValue(v); ok {
				w.consts.put(n.Name, k)
			}
			// A list (a warp config) is read only through warp_config,
			// which the walk does not accept.
		}
	}
	for _, d := range f.Decls {
		p, ok := d.(*syntax.Proc)
		if !ok {
			continue
		}
		if lib.IsInstr(p) {
			return false // the file's own instructions: the pass decides
		}
	}
	for _, d := range f.Decls {
		p, ok := d.(*syntax.Proc)
		// A proc is either skipped (deviceCode: the generator lowers a
		// device proc only where device code calls it) or walked, and
		// the walk answers true for it in either case: deviceCode(p) ||
		// proc(p). The walk of the proc goes first, so that a CPU proc,
		// the common case, is not walked twice (deviceCode's walk of its
		// statements, an instruction's map lookup each, was a twentieth of
		// the walk on the small kernels; issue 13, stop 43). The order is
		// free: both are pure in their answers (proc's state, the scope,
		// the machine and its memos, is set anew by the proc or the device
		// function that reads it, and BodyAt's cursor changes only where
		// its search starts). A device proc's walk fails at its first
		// device statement at the latest (hostStmt accepts no cuda_threads
		// or cuda_tasks loop, If, other With, device instruction, Arrive
		// or Await), and deviceCode then answers.
		// TestWalkDeviceProcSkipped checks files with a device proc.
		if ok && !w.proc(p) && !w.deviceCode(p.Body) {
			return false
		}
	}
	return true
}

// walkNames is the number of names the walk holds in scope at once.
const walkNames = 16

// push adds v to the scope; false when the scope is full (the pass
// decides).
func (w *walker) push(v wsym) bool {
	if w.n == walkNames {
		return false
	}
	v.litDims = v.typ != nil && allLit(v.typ.Dims)
	w.scope[w.n] = v
	w.n++
	return true
}

// allLit reports whether every expression of es is an integer literal.
func allLit(es []syntax.Expr) bool {
	for _, e := range es {
		if _, ok := e.(*syntax.IntLit); !ok {
			return false
		}
	}
	return true
}

// lookup is scope.lookup: the innermost name. A name's last and first
// bytes are compared before the name (a call of memequal for each name
// of the same length: rmem_uniform's d_src, h_src, d_dst and h_dst); two
// bytes decide a name of at most two (issue 13, stop 47: row 11's build
// checker 11.48 K -> 11.22 K instructions a check).
func (w *walker) lookup(name string) *wsym {
	n := len(name)
	for i := w.n - 1; i >= 0; i-- {
		if v := &w.scope[i]; len(v.name) == n && (n == 0 || v.name[n-1] == name[n-1] && v.name[0] == name[0] && (n <= 2 || v.name == name)) {
			return v
		}
	}
	return nil
}

// constValue is gen.constValue in the walk's scope: a name in scope is not
// a constant (the walk accepts no inlined proc, whose constant parameters
// are the only syms with a value).
func (w *walker) constValue(e syntax.Expr) (int64, bool) {
	switch e := e.(type) {
	case *syntax.IntLit:
		return e.Value, true
	case *syntax.Name:
		// The constants first: most names are not one (iterators,
		// memories, units), and the table is shorter than the scope.
		// Both tests are pure, so their order is free.
		v, ok := w.consts.get(e.Name)
		if !ok || w.lookup(e.Name) != nil {
			return 0, false
		}
		return v, true
	case *syntax.Unary:
		x, ok := w.constValue(e.X)
		if !ok {
			return 0, false
		}
		switch e.Op {
		case "-":
			return -x, true
		case "~":
			return ^x, true
		}
	case *syntax.Binary:
		x, ok := w.constValue(e.X)
		if !ok {
			return 0, false
		}
		y, ok := w.constValue(e.Y)
		if !ok {
			return 0, false
		}
		return check.ControlOp(e.Op, x, y)
	}
	return 0, false
}

// deviceCode is gen.deviceProc's walk of ss with the library's
// instructions (the walk accepts no file with its own), a method rather
// than a closure.
func (w *walker) deviceCode(ss []syntax.Stmt) bool {
	for _, s := range ss {
		switch s := s.(type) {
		case *syntax.For:
			if s.Mode.Name == "cuda_threads" || s.Mode.Name == "cuda_tasks" || w.deviceCode(s.Body) {
				return true
			}
		case *syntax.If:
			if w.deviceCode(s.Then) || w.deviceCode(s.Else) {
				return true
			}
		case *syntax.With:
			if c, ok := s.Ctx.(*syntax.Call); ok && c.FunName() == "CudaDeviceFunction" {
				continue
			}
			return true
		case *syntax.CallStmt:
			if in := w.l.Instr(s.Call.FunName()); in != nil && !in.CPU {
				return true
			}
		case *syntax.Arrive, *syntax.Await:
			return true
		}
	}
	return false
}

// memSpace is gen.memSpace.
func (w *walker) memSpace(mem string) string {
	if mem == "" {
		return "dram"
	}
	if m := w.memory(mem); m != nil {
		return m.Space
	}
	return ""
}

// memory is w.l.Memories[name], the last answer kept (memName, mem):
// the library's table is not written during a check, and a kernel's
// declarations mostly come in runs of one memory (DRAM parameters, GMEM
// tensors, register arrays), where a map lookup by name each had been a
// twentieth of the walk on the small kernels (issue 13, stop 43).
func (w *walker) memory(name string) *lib.Memory {
	if w.memOK && w.memName == name {
		return w.mem
	}
	m := w.l.Memories[name]
	w.memOK, w.memName, w.mem = true, name, m
	return m
}

// memOf is gen.memOf, of its arguments the first (arg0; nargs is their
// number): the only one the walk reads (CudaRmemUniform(n)'s n), folded
// as gen.memOf folds each, with no scope; folding is pure, so the others
// are not folded (their slice had been an allocation of every
// parameterized memory; issue 13, stop 41).
func (w *walker) memOf(e syntax.Expr) (mem string, arg0 int64, nargs int, ok bool) {
	switch m := e.(type) {
	case nil:
		return "DRAM", 0, 0, true
	case *syntax.Name:
		return m.Name, 0, 0, true
	case *syntax.Call:
		if len(m.Args) > 0 {
			arg0, _ = w.constNoScope(m.Args[0])
		}
		return m.FunName(), arg0, len(m.Args), true
	}
	return "", 0, 0, false
}

// constNoScope is gen.constValue(e, nil): the global constants only.
func (w *walker) constNoScope(e syntax.Expr) (int64, bool) {
	n := w.n
	w.n = 0
	v, ok := w.constValue(e)
	w.n = n
	return v, ok
}

// proc mirrors gen.proc and procGen.stmt.
func (w *walker) proc(p *syntax.Proc) bool {
	w.n = 0
	for _, prm := range p.Params {
		// paramSym's diagnostics: no type, a barrier, an unknown type.
		t := prm.Type
		if t == nil || t.Elem == nil {
			return false
		}
		v := wsym{name: prm.Name.Name, typ: t}
		mem, _, _, ok := w.memOf(t.Mem)
		if !ok {
			return false
		}
		sp := w.memSpace(mem)
		v.dram, v.gridConst = sp == "dram", sp == "grid_constant"
		v.frag, v.odd = memKinds(mem)
		switch t.Elem.Name {
		case "size":
			v.kind = kSize
		case "index":
			v.kind = kIndex
		case "stride":
			v.kind = kStride
		case "bool":
			v.kind = kBool
		case "barrier":
			return false
		default:
			if ctype(t.Elem.Name) == "" || mem == "Sm90_tensorMap" {
				return false
			}
			v.kind = kTensor
			if t.Dims == nil && !t.Window {
				v.kind = kScalar
			}
			if t.Window {
				return false
			}
		}
		if !w.push(v) {
			return false
		}
	}
	return w.hostBlock(p.Body)
}

func (w *walker) hostBlock(ss []syntax.Stmt) bool {
	n := w.n
	for _, s := range ss {
		if !w.hostStmt(s) {
			return false
		}
	}
	w.n = n
	return true
}

// hostStmt mirrors procGen.stmt on the statements the walk accepts.
func (w *walker) hostStmt(s syntax.Stmt) bool {
	switch s := s.(type) {
	case *syntax.Pass, *syntax.Fence:
		return true
	case *syntax.Alloc:
		return w.hostAlloc(s)
	case *syntax.Assign:
		// procGen.assign of a point or a scalar (a window statement is
		// the pass's).
		if s.Mem != nil || isWindowExpr(s.RHS) {
			return false
		}
		switch l := s.LHS.(type) {
		case *syntax.Name:
			// procGen.lvalue: an unknown name, or not a scalar.
			if v := w.lookup(l.Name); v == nil || v.kind != kScalar {
				return false
			}
		case *syntax.Index:
			if !w.access(l, false) {
				return false
			}
		default:
			return false
		}
		return w.expr(s.RHS, false)
	case *syntax.For:
		// procGen.loop: seq and par loops (without pragma_unroll).
		if s.Mode.Name != "seq" && s.Mode.Name != "par" || findKwarg(s.Kwargs, "pragma_unroll") != nil {
			return false
		}
		if !w.expr(s.Lo, false) || !w.expr(s.Hi, false) {
			return false
		}
		n := w.n
		ok := w.push(wsym{name: s.Var.Name, kind: kIndex}) && w.hostBlock(s.Body)
		w.n = n
		return ok
	case *syntax.CallStmt:
		// procGen.call: a CPU instruction (a CUDA one is reported; a
		// proc call is left to the pass).
		in := w.l.Instr(s.Call.FunName())
		return in != nil && in.CPU && w.instrCall(s, in, false, nil, nil)
	case *syntax.With:
		c, ok := s.Ctx.(*syntax.Call)
		return ok && c.FunName() == "CudaDeviceFunction" && w.deviceFunction(s, c)
	}
	return false
}

// hostAlloc mirrors procGen.alloc: DRAM and GMEM tensors, DRAM scalars.
func (w *walker) hostAlloc(a *syntax.Alloc) bool {
	t := a.Type
	if t == nil || t.Elem == nil || t.Elem.Name == "barrier" {
		return false
	}
	v := wsym{name: a.Name.Name, typ: t}
	if hostCType(lib.ResolveElem(t.Elem.Name)) == "" {
		return false
	}
	mem, _, _, ok := w.memOf(t.Mem)
	if !ok {
		return false
	}
	space := w.memSpace(mem)
	v.dram, v.gridConst = space == "dram", space == "grid_constant"
	v.frag, v.odd = memKinds(mem)
	v.kind = kTensor
	if len(t.Dims) == 0 {
		v.kind = kScalar
	}
	if !w.push(v) {
		return false
	}
	switch space {
	case "dram":
		if v.kind == kScalar {
			return true
		}
	case "gmem":
		if v.kind == kScalar {
			return false
		}
	case "grid_constant":
		// A tensor needs constant dimensions (constProd); its size is
		// not walked.
		for _, d := range t.Dims {
			if _, ok := w.constValue(d); !ok {
				return false
			}
		}
		return true
	default:
		return false
	}
	// x.size(t.Dims): the extents that are not constants are walked.
	for _, d := range t.Dims {
		if _, ok := w.constValue(d); !ok && !w.expr(d, false) {
			return false
		}
	}
	return true
}

// expr is exprCtx.exprPrec's diagnostics on the expressions the walk
// accepts: true when it reports none. device is exprCtx.device (a CPU
// value read by device code is captured: capture's test).
func (w *walker) expr(e syntax.Expr, device bool) bool {
	switch e := e.(type) {
	case *syntax.IntLit, *syntax.FloatLit, *syntax.BoolLit:
		return true
	case *syntax.Name:
		v := w.lookup(e.Name)
		if v == nil {
			_, ok := w.consts.get(e.Name) // else: unknown name
			return ok
		}
		if device && !v.device && !w.captureOK(v) {
			return false
		}
		// exprCtx.name: a tensor used as a value.
		return v.kind != kTensor && v.kind != kBarrier
	case *syntax.Unary:
		return w.expr(e.X, device)
	case *syntax.Binary:
		// A constant binary is folded where the text is made; its leaves
		// report nothing either way (exprPrec's comment).
		return w.expr(e.X, device) && w.expr(e.Y, device)
	case *syntax.Index:
		return w.access(e, device)
	}
	return false
}

// captureOK is gen.capture's test: device code cannot read CPU data in
// DRAM.
func (w *walker) captureOK(v *wsym) bool {
	return !(v.dram && (v.kind == kTensor || v.kind == kScalar))
}

// access mirrors exprCtx.access on point accesses (device: in device
// code).
func (w *walker) access(e *syntax.Index, device bool) bool {
	n, ok := e.X.(*syntax.Name)
	if !ok {
		return false
	}
	v := w.lookup(n.Name)
	if v == nil || (v.kind != kTensor && v.kind != kScalar) {
		return false
	}
	if device && !v.device && !w.captureOK(v) {
		return false
	}
	if len(e.Indices) != len(v.dims()) {
		return false
	}
	for _, i := range e.Indices {
		if _, ok := i.(*syntax.Slice); ok {
			return false
		}
	}
	if !device && !v.dram && !v.gridConst {
		return false // CPU code cannot access it
	}
	k, ok := w.stripDist(v, e.Indices)
	if !ok || v.frag {
		return false
	}
	// linearWalk: the indices left and the extents that are not
	// constants (all of them: a superset of linearWalk's, whose walks
	// report nothing more).
	for _, i := range e.Indices[k:] {
		if !w.expr(i, device) {
			return false
		}
	}
	if v.litDims {
		return true // constants, each (litDims)
	}
	for _, d := range v.dims()[k:] {
		if _, ok := w.constValue(d); !ok && !w.expr(d, device) {
			return false
		}
	}
	return true
}

// nativeThreads is gen.nativeThreads on the walk's machine, of memory m.
// The last answer is kept (natUnit, natM, natN): it is a function of the
// unit's name and the machine alone (LookupUnit and Threads are pure),
// and a kernel's allocations mostly share their memories' native unit
// (issue 13, stop 41: the lookup and resolution were a twentieth of the
// walk on shfl_xor's two register arrays).
func (w *walker) nativeThreads(m *lib.Memory) int {
	if m == nil || m.NativeUnit == "" {
		return 0
	}
	if w.natOK && w.natM == w.m && w.natUnit == m.NativeUnit {
		return w.natN
	}
	n := 0
	if u := stdUnitRef(m.NativeUnit); u != nil {
		n = unitThreads(u, w.m)
	} else if u, ok := coll.LookupUnit(m.NativeUnit); ok {
		n = unitThreads(&u, w.m)
	}
	w.natOK, w.natUnit, w.natM, w.natN = true, m.NativeUnit, w.m, n
	return n
}

// stripDist is gen.stripDist's deduction on a point access: the number of
// leading distributed indices, ok false where the generator reports
// W0910 (or where the count differs from the first access's, which the
// walk leaves to the pass).
func (w *walker) stripDist(v *wsym, idx []syntax.Expr) (int, bool) {
	if !v.device {
		return 0, true
	}
	tn := int(v.tn)
	if tn == 0 {
		return 0, true
	}
	k := 0
	if int(v.tileThreads) > tn {
		var opsBuf [4][2]int
		ops := opsBuf[:0]
		found := false
		cur := int(v.tileThreads)
		ord := newInOrder(cur, tn)
		for k < len(idx) {
			if sl, ok := idx[k].(*syntax.Slice); ok && k < len(v.dims()) {
				// A window over a whole distributed dimension.
				e, ok := w.constValue(v.dims()[k])
				if !ok || e < 1 || cur%int(e) != 0 || cur/int(e) < tn || !w.fullSlice(sl, v.dims()[k]) {
					break
				}
				ops = append(ops, [2]int{-int(e), 0})
				cur /= int(e)
				k++
				if prefixChains(ops, int(v.tileThreads), tn, &ord, &w.chainsMemo) {
					found = true
					break
				}
				continue
			}
			n, ok := idx[k].(*syntax.Name)
			if !ok {
				break
			}
			it := w.lookup(n.Name)
			if it == nil || !it.threadsIt {
				break
			}
			cur = int(it.t1)
			ops = append(ops, [2]int{int(it.t0), int(it.t1)})
			k++
			if prefixChains(ops, int(v.tileThreads), tn, &ord, &w.chainsMemo) {
				found = true
				break
			}
		}
		if !found {
			return 0, false
		}
	}
	if v.nd >= 0 && int(v.nd) != k {
		return 0, false
	}
	v.nd = int32(k)
	return k, true
}

// chainsInOrder reports whether the operators chain ta down to tn in the
// order given: chains tries every order, this one first, so true here is
// chains's answer (the accesses of a kernel take their iterators in
// order; chains's search was a tenth of the walk on shfl_xor).
func chainsInOrder(ops [][2]int, ta, tn int) bool {
	cur := ta
	for _, op := range ops {
		switch {
		case op[0] < 0 && cur%(-op[0]) == 0:
			cur /= -op[0]
		case op[0] == cur:
			cur = op[1]
		default:
			return false
		}
	}
	return cur == tn
}

// deviceFunction mirrors gen.deviceFunction under CheckOnly's single pass.
func (w *walker) deviceFunction(s *syntax.With, c *syntax.Call) bool {
	// launchShape.
	if len(c.Args) > 0 {
		return false
	}
	blockDim, clusterDim, bps := 0, 1, 1
	for _, k := range c.Kwargs {
		// One switch on the name (two had been a tenth of the function;
		// issue 13, stop 46).
		var p *int
		switch k.Name.Name {
		case "blockDim":
			p = &blockDim
		case "clusterDim":
			p = &clusterDim
		case "blocks_per_sm":
			p = &bps
		case "unsafe_no_shutdown_cluster_sync":
			continue
		default:
			return false // warp_config, or no such parameter
		}
		v, ok := w.constValue(k.Value)
		if !ok {
			return false
		}
		*p = int(v)
	}
	// sharedFn: the checker's configuration from the same arguments
	// (coll.NewDeviceFunction succeeded on them).
	var dev *gpucheck.Device
	for _, d := range w.gpu.Devices {
		if d.Stmt.Ctx == syntax.Expr(c) {
			dev = d
			break
		}
	}
	if dev != nil && dev.Fn != nil && dev.Fn.Warps == nil && dev.Fn.BlockDim == blockDim && dev.Fn.ClusterDim == clusterDim && dev.Fn.BlocksPerSM == bps {
		w.m = dev.Fn.Machine()
	} else {
		// launchShape makes its own (the checker's has other arguments:
		// a NAME=VALUE size the generator does not read, which takes the
		// file's constant), here on the stack: the walk reads only its
		// machine.
		var fn coll.DeviceFunction
		df, err := coll.NewDeviceFunctionIn(blockDim, clusterDim, bps, nil, &fn)
		if err != nil {
			return false
		}
		w.m = df.Machine()
	}
	w.nunits = 0 // the units resolved on another machine
	w.slab = nil
	w.iterID = 0
	// The cuda_tasks nest (deviceFunction's shape test).
	var taskBuf [2]*syntax.For
	tasks, bad := taskNest(taskBuf[:0], s.Body)
	if bad != nil || len(tasks) == 0 {
		return false
	}
	body := tasks[len(tasks)-1].Body // the innermost task loop's
	// The task bounds, walked as device code (deviceFunction) and as CPU
	// code (taskBounds), each seeing the task variables before it.
	n := w.n
	for _, t := range tasks {
		if !w.bound(t.Lo) || !w.bound(t.Hi) {
			return false
		}
		if !w.push(wsym{name: t.Var.Name, kind: kIndex, device: true}) {
			return false
		}
	}
	// sharedTop, or the generator's own derivation (every tiling of the
	// device function is then derived: ctx.shared is false).
	top := (*coll.Tiling)(nil)
	if dev != nil && dev.Top != nil && dev.Top.M == w.m {
		top, w.shared = dev.Top, true
	} else {
		w.shared = false
		// A CTA without clusters: its tilings as coll.Flats, each on
		// the stack frame of the statement that derives it (a Flat holds
		// no pointer), not a slab of them on the heap (issue 13, stop
		// 47: per_cta_alloc with NCTA=2, whose generator reads NCTA = 1,
		// allocated 3.4 KB a check here). A Flat is the tiling
		// coll.CudaThreadsIn makes in one pass (threads1D), in each field
		// the walk reads (TestFlatMatchesThreads1D), so every test of
		// this walk is the other's; where a Flat has no answer (another
		// derivation, an instruction's unit to match) the walk ends with
		// flatFail and the device function is walked again below with
		// the tilings, from the same state: the statements before
		// changed only names pushed since (popped here) and pure memos.
		// TestWalkFlatSameAnswers compares the two walks on the corpus.
		if f, ok := coll.FlatDevice(w.m); ok && !flatOff {
			w.flatFail = false
			nt := w.n
			ok := w.devBlock(body, nil, &f)
			if ok || !w.flatFail {
				w.n = n
				return ok
			}
			w.n, w.iterID = nt, 0
		}
		sl := new(walkSlab)
		w.slab = sl
		var err error
		if top, err = coll.DeviceTilingIn(w.m, &sl.top); err != nil {
			return false
		}
		// The slab's stores are the next loops' (the tilings of a
		// device function before stay referenced only by their own
		// walk, which has ended).
		w.stores, w.nstores = sl.stores[:], 0
	}
	ok := w.devBlock(body, top, nil)
	w.n = n
	return ok
}

// bound is a task bound's walks: as device code (deviceFunction, which
// captures) and as CPU code (taskBounds, where an access to device memory
// is reported): no access passes both.
func (w *walker) bound(e syntax.Expr) bool {
	return w.expr(e, true) && w.expr(e, false)
}

func (w *walker) devBlock(ss []syntax.Stmt, cur *coll.Tiling, f *coll.Flat) bool {
	n := w.n
	for _, s := range ss {
		if !w.devStmt(s, cur, f) {
			return false
		}
	}
	w.n = n
	return true
}

// devStmt mirrors gen.devStmt on the statements the walk accepts.
// f is the scope's Flat where the walk derives them (cur nil), else nil.
func (w *walker) devStmt(s syntax.Stmt, cur *coll.Tiling, f *coll.Flat) bool {
	switch s := s.(type) {
	case *syntax.Pass, *syntax.Assert, *syntax.Free:
		return true
	case *syntax.Alloc:
		return w.devAlloc(s, cur, f)
	case *syntax.Assign:
		if _, ok := s.LHS.(*syntax.Name); ok && s.Op == "=" && (s.Mem != nil || isWindowExpr(s.RHS)) {
			return false // windows
		}
		switch l := s.LHS.(type) {
		case *syntax.Name:
			// procGen.lvalue: an unknown name, or not a scalar; then
			// its walk as an expression, expr(l, true), which finds v
			// again (the scope is the same) and, v being a scalar,
			// tests only the capture.
			v := w.lookup(l.Name)
			if v == nil || v.kind != kScalar || !v.device && !w.captureOK(v) {
				return false
			}
		case *syntax.Index:
			if !w.access(l, true) {
				return false
			}
		default:
			return false
		}
		return w.expr(s.RHS, true)
	case *syntax.If:
		return w.expr(s.Cond, true) && w.devBlock(s.Then, cur, f) && w.devBlock(s.Else, cur, f)
	case *syntax.For:
		switch s.Mode.Name {
		case "seq":
			if findKwarg(s.Kwargs, "pragma_unroll") != nil || !w.expr(s.Lo, true) || !w.expr(s.Hi, true) {
				return false
			}
			n := w.n
			ok := w.push(wsym{name: s.Var.Name, kind: kIndex, device: true}) && w.devBlock(s.Body, cur, f)
			w.n = n
			return ok
		case "cuda_threads":
			return w.threadsLoop(s, cur, f)
		}
	case *syntax.Fence:
		return w.fence(s, cur, f)
	case *syntax.CallStmt:
		// A library instruction (a proc would be inlined: left to the
		// pass, as is a CPU instruction here).
		in := w.l.Instr(s.Call.FunName())
		return in != nil && !in.CPU && w.instrCall(s, in, true, cur, f)
	}
	return false
}

// instrCall mirrors gen.instrCall and instrCheck (a pass that formats no
// text) on a library instruction whose template is plain
// (lib.Instr.PlainCUDA: placeholderSet has every key of it, whatever the
// arguments, and none is an expression for placeholderExpr) and not a
// wgmma's (whose filled text is checked), without completion barriers.
// cur is the scope's tiling in device code.
func (w *walker) instrCall(s *syntax.CallStmt, in *lib.Instr, device bool, cur *coll.Tiling, f *coll.Flat) bool {
	if !in.PlainCUDA || len(s.Barriers) > 0 || in.WGMMA {
		return false
	}
	var argBuf [walkBindMax]syntax.Expr
	args, ok := walkArgs(in.Proc, s.Call, &argBuf)
	if !ok {
		return false
	}
	if device && in.Unit != nil {
		// The instruction's unit, where it resolves in the caller's scope
		// (unitOK), must match the scope. (Its timeline's CudaAsync test
		// reads the enclosing CudaAsync, which the walk never enters.)
		if u, ok := w.unit(in.Unit); ok {
			if f != nil {
				w.flatFail = true // a Flat has no Matches
				return false
			}
			if cur.Matches(u) != nil {
				return false
			}
		}
	}
	for i, prm := range in.Proc.Params {
		a := args[i]
		if a == nil {
			return false
		}
		t := prm.Type
		elem := ""
		if t != nil && t.Elem != nil {
			elem = t.Elem.Name
		}
		switch {
		case t != nil && (t.Dims != nil || t.Window):
			v := w.window(a, device)
			if v == nil {
				return false
			}
			if ve := v.elem(); ve != "" && elem != "" && elem != lib.RealType && ve != elem {
				return false
			}
		case lib.IsDataType(elem):
			if !w.expr(a, device) {
				return false
			}
		default:
			if _, ok := w.constValue(a); !ok && !w.expr(a, device) {
				return false
			}
		}
	}
	return true
}

// window mirrors gen.window on a tensor or window argument (no window
// statements: the walk accepts none), nil where it reports.
func (w *walker) window(a syntax.Expr, device bool) *wsym {
	var v *wsym
	var idx []syntax.Expr
	switch a := a.(type) {
	case *syntax.Name:
		v = w.lookup(a.Name)
	case *syntax.Index:
		if n, ok := a.X.(*syntax.Name); ok {
			v = w.lookup(n.Name)
		}
		idx = a.Indices
	}
	if v == nil || v.kind != kTensor && !(v.kind == kScalar && len(idx) == 0) {
		return nil
	}
	if device && !v.device && !w.captureOK(v) {
		return nil
	}
	if v.kind == kScalar {
		return v
	}
	if v.odd {
		return nil
	}
	if len(idx) == 0 {
		if v.device {
			return nil // a whole device tensor: the pass deduces its slices
		}
	} else if len(idx) != len(v.dims()) {
		return nil
	}
	k, ok := w.stripDist(v, idx)
	if !ok {
		return nil
	}
	if len(idx) > 0 {
		// The starts: a slice's start (its end is read as syntax only)
		// or the point.
		for _, i := range idx[k:] {
			if sl, ok := i.(*syntax.Slice); ok {
				if sl.Lo != nil && !w.expr(sl.Lo, device) {
					return nil
				}
			} else if !w.expr(i, device) {
				return nil
			}
		}
	}
	// The strides and linear's extents: the extents that are not
	// constants (all of them, a superset).
	if v.litDims {
		return v // constants, each (litDims)
	}
	for _, d := range v.dims()[k:] {
		if _, ok := w.constValue(d); !ok && !w.expr(d, device) {
			return nil
		}
	}
	return v
}

// fullSlice is gen.fullSlice.
func (w *walker) fullSlice(s *syntax.Slice, dim syntax.Expr) bool {
	if s.Lo != nil {
		if c, ok := w.constValue(s.Lo); !ok || c != 0 {
			return false
		}
	}
	if s.Hi == nil {
		return true
	}
	a, ok1 := w.constValue(s.Hi)
	b, ok2 := w.constValue(dim)
	return ok1 && ok2 && a == b
}

// devAlloc mirrors gen.devAlloc and allocLen: registers and SMEM with
// constant dimensions (any number of them distributed leaves constant
// ones: pendingAlloc reports nothing).
func (w *walker) devAlloc(a *syntax.Alloc, cur *coll.Tiling, f *coll.Flat) bool {
	t := a.Type
	if t == nil || t.Elem == nil || t.Elem.Name == "barrier" {
		return false
	}
	v := wsym{name: a.Name.Name, typ: t, device: true, tileThreads: int32(tileThreads(cur, f)), nd: -1}
	if ctype(lib.ResolveElem(t.Elem.Name)) == "" {
		return false
	}
	mem, memArg, nargs, ok := w.memOf(t.Mem)
	if !ok {
		return false
	}
	// memSpace, with the memory looked up once.
	lm := w.memory(mem)
	if lm == nil || (lm.Space != "rmem" && lm.Space != "smem") || fragmentThreads(mem) > 0 || mem == "Sm90_tensorMap" {
		return false
	}
	// Swizzled SMEM: its point accesses are lowered through swizzledRef,
	// which reports nothing; its windows are the pass's (odd). (memKinds's
	// other two terms are false here, tested just above.)
	v.odd = isSwizzled(mem)
	// stripDist's tn: the native unit's threads, or CudaRmemUniform(n)'s
	// n (lib.Memory.Uniform).
	tn := w.nativeThreads(lm)
	if lm.Uniform != "" && nargs > 0 && memArg > 0 {
		tn = int(memArg)
	}
	v.tn = int32(tn)
	v.kind = kTensor
	if len(t.Dims) == 0 {
		v.kind = kScalar
	}
	for _, d := range t.Dims {
		if _, ok := w.constValue(d); !ok {
			return false
		}
	}
	return w.push(v)
}

// threadsLoop mirrors gen.threadsLoop with a shared scope (sharedBody).
func (w *walker) threadsLoop(s *syntax.For, cur *coll.Tiling, f *coll.Flat) bool {
	if lo, ok := w.constValue(s.Lo); !ok || lo != 0 {
		return false
	}
	hi, ok := w.constValue(s.Hi)
	if !ok {
		return false
	}
	var ue syntax.Expr // nil: the default unit, cuda_thread
	if k := findKwarg(s.Kwargs, "unit"); k != nil {
		ue = k.Value
	}
	w.iterID++
	if f != nil {
		return w.threadsFlat(s, int(hi), ue, f)
	}
	var b *coll.Tiling
	if w.shared {
		b = w.gpu.BodyAt(s, &w.bodyCur)
		if b == nil || b.Parent != cur || b.Kind != coll.KindThreads || b.Count != int(hi) || !w.unitMatches(ue, b) {
			return false
		}
	} else {
		// The generator's own derivation, with its iterator id, of the
		// unit unitTo makes.
		u, ok := w.exprUnit(ue)
		if !ok {
			return false
		}
		// CudaThreadsIn: a one-dimensional loop's tiling in one pass,
		// in a store of the walk's (coll/threads1d.go); the same tiling
		// as CudaThreads' (TestThreads1DMatchesGeneral). It is not in
		// cur's memo, whose only use here is a twin: the walk's
		// iterator ids are distinct, so no later derivation asks for
		// the same key, and a twin equals a fresh derivation.
		st := w.store()
		var err error
		if b, err = cur.CudaThreadsIn(w.iterID, int(hi), u, st); err != nil {
			return false
		}
		// Threads: gen.threadsLoop resolves the unit on the machine and
		// reports where it does not (after the tiling's tests: the
		// order of tests that all end the walk is free). The one-pass
		// derivation resolved it already where it made the tiling.
		if b == st.Tiling() {
			w.nstores++
		}
		if !(b == st.Tiling() && resolved1D(b, w.m)) {
			if _, err := u.Threads(w.m); err != nil {
				return false
			}
		}
	}
	if !b.Lowering().OK {
		return false
	}
	n := w.n
	ok = w.push(wsym{name: s.Var.Name, kind: kIndex, device: true, threadsIt: true, t0: int32(cur.TileThreads), t1: int32(b.TileThreads)}) && w.devBlock(s.Body, b, nil)
	w.n = n
	return ok
}

// threadsFlat is threadsLoop's derivation as a coll.Flat, under cur, of
// the loop of hi iterations of unit expression ue: the tests of
// threadsLoop's own derivation, in the same order.
func (w *walker) threadsFlat(s *syntax.For, hi int, ue syntax.Expr, cur *coll.Flat) bool {
	u, k, ok := w.flatUnit(ue)
	if !ok {
		return false
	}
	b, ok := cur.Threads1D(w.m, hi, &u, k)
	if !ok {
		w.flatFail = true // another derivation: the tilings'
		return false
	}
	// resolved1D, of the Flat; else the unit resolved, made again (the
	// same unit: a function of the expression) so that u, whose box may
	// be in syms, is not Threads's (which leaks its receiver).
	if !(b.Full0() >= 1 && b.Full0() <= w.m.Threads()) {
		if u, ok := w.exprUnit(ue); !ok {
			return false
		} else if _, err := u.Threads(w.m); err != nil {
			return false
		}
	}
	if !b.LowerOK {
		return false
	}
	n := w.n
	if !w.push(wsym{name: s.Var.Name, kind: kIndex, device: true, threadsIt: true, t0: int32(cur.TileThreads), t1: int32(b.TileThreads)}) {
		return false
	}
	ok = w.devBlock(s.Body, nil, &b)
	w.n = n
	return ok
}

// flatUnit is exprUnit(e) as a unit and a scale k (the unit is u scaled
// by k), ok where exprUnit makes it: k * name (either order) is the
// library unit name and k, whose scaled box (walker.scaled's, with no
// room: Scaled's allocation) a Flat does not keep; a unit Scaled rejects
// and every other expression are exprUnit's, with k 1.
func (w *walker) flatUnit(e syntax.Expr) (coll.Unit, int, bool) {
	if b, ok := e.(*syntax.Binary); ok && b.Op == "*" {
		// unit's steps.
		k, ok := w.constValue(b.X)
		y := b.Y
		if !ok {
			if k, ok = w.constValue(b.Y); !ok {
				return coll.Unit{}, 0, false
			}
			y = b.X
		}
		if n, ok := y.(*syntax.Name); ok {
			u, ok := stdUnit(n.Name)
			if !ok {
				return u, 0, false
			}
			if k >= 1 && u.ScaledDim >= 0 && u.ScaledDim < len(u.Box) {
				return u, int(k), true
			}
		}
	}
	u, ok := w.exprUnit(e)
	return u, 1, ok
}

// tileThreads is the TileThreads of f, or of cur where f is nil.
func tileThreads(cur *coll.Tiling, f *coll.Flat) int {
	if f != nil {
		return f.TileThreads
	}
	return cur.TileThreads
}

// unitMemo is a loop unit the walk has resolved: expression e (nil:
// cuda_thread) resolved on the walk's machine and passed sharedBody's
// test against the checker's unit a on machine am.
type unitMemo struct {
	e  syntax.Expr
	a  *coll.Unit
	am coll.Machine
}

// walkUnits is the number of distinct loop units a walk keeps.
const walkUnits = 4

// unitMatches is threadsLoop's test of the unit of expression e (nil:
// cuda_thread): it resolves (unitTo, Threads) and the checker's body b
// has the same unit (sharedBody's sameUnitOn). Both are answered once
// per distinct expression and checker's unit of a device function (a
// tenth of the walk on shfl_xor's eleven loops of four units): the unit
// of an expression is a function of its syntax alone when none of its
// names is a global constant (constValue of such a name fails in any
// scope; unit names are looked up in coll's table), so an equal
// expression (eqExpr) resolves to the same unit on the same machine, and
// sharedBody's test is a function of the two units and machines
// (checker's units equal field by field: coll.Unit.Same).
//
// A loop without unit= (e nil) asks as unit=cuda_thread does: both are
// coll.CudaThread (exprUnit of nil; unit of the name, stdUnit, which
// reads no scope), and unitQuick reads nil as that name. So the two share
// a memo entry (rmem_uniform's loops: a unit's test less).
func (w *walker) unitMatches(e syntax.Expr, b *coll.Tiling) bool {
	if e == nil {
		e = cudaThreadName
	}
	for i := 0; i < w.nunits; i++ {
		// The conjunction's cheap terms first: units that differ mostly
		// differ in scale (sharedBody's test is the same in any order).
		if m := &w.units[i]; m.am == b.M && m.a.Scale == b.Unit.Scale && eqExpr(m.e, e) && m.a.Same(&b.Unit) {
			return true
		}
	}
	if !w.unitQuick(e, &b.Unit, b.M) {
		u, ok := w.loopUnit(e)
		if !ok || !sameUnitOn(&b.Unit, &u, b.M, w.m, true) {
			return false
		}
	}
	if w.nunits < walkUnits && !w.namesConst(e) {
		w.units[w.nunits] = unitMemo{e: e, a: &b.Unit, am: b.M}
		w.nunits++
	}
	return true
}

// cudaThreadName is the expression unit=cuda_thread, the default loop
// unit's (unitMatches). Never written: a constant of the package, not
// state of a check.
var cudaThreadName syntax.Expr = &syntax.Name{Name: "cuda_thread"}

// namesConst reports whether a name of e is a global constant. A file
// without constants has none to name (smap.put fills the inline entries
// first, so n is 0 only for an empty table): the walk of e is skipped.
func (w *walker) namesConst(e syntax.Expr) bool {
	if w.consts.n == 0 {
		return false
	}
	switch e := e.(type) {
	case *syntax.Name:
		_, ok := w.consts.get(e.Name)
		return ok
	case *syntax.Unary:
		return w.namesConst(e.X)
	case *syntax.Binary:
		return w.namesConst(e.X) || w.namesConst(e.Y)
	case *syntax.Call:
		for _, a := range e.Args {
			if w.namesConst(a) {
				return true
			}
		}
		return w.namesConst(e.Fun)
	}
	return false
}

// eqExpr reports whether a and b are the same unit expression (names,
// integer literals, operators, calls; nil is nil).
func eqExpr(a, b syntax.Expr) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case *syntax.Name:
		b, ok := b.(*syntax.Name)
		return ok && a.Name == b.Name
	case *syntax.IntLit:
		b, ok := b.(*syntax.IntLit)
		return ok && a.Value == b.Value
	case *syntax.Unary:
		b, ok := b.(*syntax.Unary)
		return ok && a.Op == b.Op && eqExpr(a.X, b.X)
	case *syntax.Binary:
		b, ok := b.(*syntax.Binary)
		return ok && a.Op == b.Op && eqExpr(a.X, b.X) && eqExpr(a.Y, b.Y)
	case *syntax.Call:
		b, ok := b.(*syntax.Call)
		if !ok || len(a.Args) != len(b.Args) || len(a.Kwargs)+len(b.Kwargs) > 0 || !eqExpr(a.Fun, b.Fun) {
			return false
		}
		for i := range a.Args {
			if !eqExpr(a.Args[i], b.Args[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// loopUnit is threadsLoop's unit of expression e (nil: cuda_thread),
// ok when it resolves (unitTo) and its thread count on the machine too.
func (w *walker) loopUnit(e syntax.Expr) (coll.Unit, bool) {
	u, ok := w.exprUnit(e)
	if !ok {
		return u, false
	}
	if _, err := u.Threads(w.m); err != nil {
		return u, false
	}
	return u, true
}

// exprUnit is threadsLoop's unit of expression e (nil: cuda_thread), ok
// when unitTo makes it.
func (w *walker) exprUnit(e syntax.Expr) (coll.Unit, bool) {
	if e == nil {
		// LookupUnit("cuda_thread"): coll's table holds CudaThread
		// under its name (TestWalkUnitVars).
		return coll.CudaThread, true
	}
	return w.unit(e)
}

// resolved1D reports whether b, a tiling CudaThreadsIn made in one pass
// (coll/threads1d.go), proves that its unit resolves on m (u.Threads(m)
// has no error), so threadsLoop need not resolve it again (issue 13,
// stop 41: the resolution was a tenth of the walk on per_cta_alloc with
// NCTA=2). The one pass makes a tiling only for a unit of one domain and
// one box coordinate (resolveInto's equal, nonzero lengths), each of
// which evaluates on m to a positive value (symValue: Eval without an
// error; a wildcard declines), the domain's being m's thread count (so
// it divides the cluster's threads); it keeps the box's value as the
// tiling's full tile (nf). What is left of resolveInto's tests is the
// box within the domain: Full[0] <= m.Threads(), tested here. Otherwise
// (false) threadsLoop resolves the unit. TestWalkResolved1D checks the
// implication on every unit of a grid of machines and loops.
func resolved1D(b *coll.Tiling, m coll.Machine) bool {
	return len(b.Full) == 1 && len(b.Unit.Domain) == 1 && len(b.Unit.Box) == 1 && b.Full[0] >= 1 && b.Full[0] <= m.Threads()
}

// scaled is u.Scaled(k), ok when it has no error, with the new box in
// the device function's slab while it has room (a box of Scaled's own
// was an allocation of each scaled loop unit the walk derives a tiling
// for: issue 13, stop 41). The slab's coordinates are taken for good, as
// Scaled's box would be: a tiling derived with the unit may keep it.
// TestWalkScaled compares it with Scaled.
func (w *walker) scaled(u coll.Unit, k int) (coll.Unit, bool) {
	sl := w.slab
	if sl == nil || k < 1 || u.ScaledDim < 0 || u.ScaledDim >= len(u.Box) || sl.nsyms+len(u.Box) > len(sl.syms) {
		v, err := u.Scaled(k)
		return v, err == nil
	}
	// Scaled's steps: a copy of the box, its scaled coordinate's Num
	// times k, the scale (1 when unset) times k.
	n := sl.nsyms
	box := sl.syms[n : n+len(u.Box) : n+len(u.Box)]
	sl.nsyms += len(u.Box)
	copy(box, u.Box)
	box[u.ScaledDim].Num *= k
	u.Box = box
	if u.Scale == 0 {
		u.Scale = 1
	}
	u.Scale *= k
	return u, true
}

// unit is gen.unitTo without messages.
func (w *walker) unit(e syntax.Expr) (coll.Unit, bool) {
	switch e := e.(type) {
	case *syntax.Name:
		return stdUnit(e.Name)
	case *syntax.Binary:
		if e.Op == "*" {
			k, ok := w.constValue(e.X)
			y := e.Y
			if !ok {
				if k, ok = w.constValue(e.Y); !ok {
					return coll.Unit{}, false
				}
				y = e.X
			}
			u, ok := w.unit(y)
			if !ok {
				return u, false
			}
			return w.scaled(u, int(k))
		}
	case *syntax.Call:
		var args []int
		for _, a := range e.Args {
			k, ok := w.constValue(a)
			if !ok {
				return coll.Unit{}, false
			}
			args = append(args, int(k))
		}
		u, err := coll.StridedUnit(e.FunName(), args)
		return u, err == nil
	}
	return coll.Unit{}, false
}

// fence mirrors gen.fence and threadBarrierTo.
func (w *walker) fence(s *syntax.Fence, cur *coll.Tiling, f *coll.Flat) bool {
	first := w.timeline(s.First)
	second := first
	if a, ok := s.First.(*syntax.Name); !ok || !sameName(a, s.Second) {
		// A fence of two timelines (else one name, looked up once: the
		// library's table is not written during a check).
		second = w.timeline(s.Second)
	}
	if first == nil || second == nil {
		return false
	}
	k := &w.l.Known
	if first.Name == "wmma_fence_1" && second.Name == "wmma_fence_2" {
		return false
	}
	if first.FullSet&(k.TMAToSmem|k.WmmaRmemD|k.WmmaSmem) != 0 {
		return false
	}
	if f != nil {
		return barrierOK(f.Contiguous(), f.LowBits(), w.m, f.Threads())
	}
	col := cur.Collective(nil)
	contiguous := col.N <= 1 || (col.N == 1 && col.Runs[0].Stride == 1)
	if col.N == 1 && col.Runs[0].Stride != 1 {
		contiguous = false
	}
	return barrierOK(contiguous, cur.LowBits(), w.m, cur.Threads())
}

// sameName reports whether e is a name spelled as a.
func sameName(a *syntax.Name, e syntax.Expr) bool {
	b, ok := e.(*syntax.Name)
	return ok && a.Name == b.Name
}

// timeline is gen.timeline's test.
func (w *walker) timeline(e syntax.Expr) *lib.SyncTL {
	n, ok := e.(*syntax.Name)
	if !ok {
		return nil
	}
	return w.l.Timelines[n.Name]
}

// barrierOK reports whether threadBarrierTo finds a barrier for a
// collective of n threads on machine m (it reports nothing), contiguous
// or not, whose base's constant and steps are aligned to k where the
// low bits of bits below k are 0 (coll.Tiling.LowBits: their bitwise
// or; every k asked below is a power of two: 32, or n < 32 with
// n&(n-1) == 0).
func barrierOK(contiguous bool, bits int, m coll.Machine, n int) bool {
	aligned := func(k int) bool { return bits&(k-1) == 0 }
	switch {
	case n == 1:
	case n == m.Threads() && m.ClusterDim > 1:
	case n == m.BlockDim && contiguous:
	case n == 32 && contiguous && aligned(32):
	case n < 32 && contiguous && n&(n-1) == 0 && aligned(n):
	case n%32 == 0 && n < m.BlockDim && contiguous && aligned(32):
		return n/32 >= (m.BlockDim/32+14)/15
	default:
		return false
	}
	return true
}
