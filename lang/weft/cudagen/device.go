package cudagen

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"weft.dev/weft/cuda"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// devFn is one `with CudaDeviceFunction(...)` block being lowered.
type devFn struct {
	idx      int
	name     string // exo_Cuda{N}_{proc}: the struct holding the kernel's pieces
	argsName string // exo_CudaDeviceArgs{N}_{proc}
	kernel   string // exo_deviceFunction{N}_{proc}
	launch   string // exo_cudaLaunch{N}_{proc}
	df       *coll.DeviceFunction
	m        coll.Machine
	with     *syntax.With

	captured    []*sym
	capturedSet smap[*sym, bool]
	used        map[*sym]bool // captured names used by the current code path

	smemBase, smemTop, smemMax int
	mbarTop                    int
	bars                       []*barState
	usesX                      bool // the natural thread index of a cluster is used
	iterID                     int
	iterNames                  map[int]string
	barByOff                   map[int]*barState
	asyncProxy                 bool
}

const smemAlign = 128

// taskWriter is the writer of a code path's task body: a new one, or, in
// a pass that formats no text, g's discarding writer, which every code
// path shares (it holds nothing; issue 13, stop 32: an allocation per
// code path).
func (g *gen) taskWriter() *cuda.Writer {
	if g.discard {
		g.nullW = cuda.Writer{Discard: true}
		return &g.nullW
	}
	return &cuda.Writer{}
}

// noWarpPaths is the one code path of a device function without
// warp_config (read only).
var noWarpPaths = []string{""}

// newDevFn returns a zero devFn: g's own for the first device function (a
// small kernel has one; issue 13, stop 32), a new one after it.
func (g *gen) newDevFn() *devFn {
	if g.devFns == nil {
		g.devFns = g.devFnBuf[:0]
		return &g.devFn0
	}
	return new(devFn)
}

// capture records that device code reads a CPU value: it becomes a member
// of the kernel's argument struct (seed 002: "Exo implicitly transfers
// CPU-defined values (gmem, grid_const) as kernel launch parameters").
func (g *gen) capture(v *sym) {
	d := g.curDev
	if d == nil {
		return
	}
	if v.kind == kIter && !v.device {
		return
	}
	switch g.memSpace(v.mem) {
	case "dram":
		if v.kind == kTensor || v.kind == kScalar {
			if !d.capturedSet.at(v) {
				g.errorf(v.decl, codeMemory, "%s is in CPU memory (DRAM), which a CudaDeviceFunction cannot access", v.name)
			}
		}
	}
	if !d.capturedSet.at(v) {
		d.capturedSet.put(v, true)
		d.captured = append(d.captured, v)
	}
	if !g.discard {
		put(&d.used, v, true) // read by bindings, for the text alone
	}
}

// natural is the C expression of the natural thread index within the
// cluster (seed 000 §4.1), and its range.
func (d *devFn) natural() (string, int) {
	if d.m.ClusterDim == 1 {
		return "threadIdx.x", d.m.BlockDim
	}
	d.usesX = true
	return "exo_x", d.m.Threads()
}

// devCtx is the state of device code generation at one statement.
type devCtx struct {
	d   *devFn
	w   *cuda.Writer
	sc  *scope
	cur *coll.Tiling
	// shared: cur is the GPU checker's tiling or derived from one
	// without an iterator (shared.go).
	shared bool
	path   string // warp name of the code path ("" without warp_config)
	async  string // instruction timeline of the enclosing CudaAsync

	inlining map[*syntax.Proc]bool // procs being inlined (recursion guard)
}

func (g *gen) deviceFunction(pg *procGen, s *syntax.With, c *syntax.Call, sc *scope) {
	prevDev := g.curDev
	defer func() { g.curDev = prevDev }()
	if g.curDev != nil {
		g.errorf(s, codeDevice, "CudaDeviceFunction blocks do not nest")
		return
	}
	df, ok := g.launchShape(c, sc)
	if !ok {
		return
	}
	n := pg.devN - 1
	// The maps are made at their first entry (put).
	d := g.newDevFn()
	*d = devFn{idx: n, df: df, m: df.Machine(), with: s}
	if !g.discard {
		// The C names are text alone.
		pname := cuda.Ident(pg.p.Name.Name)
		d.name = fmt.Sprintf("exo_Cuda%d_%s", n, pname)
		d.argsName = fmt.Sprintf("exo_CudaDeviceArgs%d_%s", n, pname)
		d.kernel = fmt.Sprintf("exo_deviceFunction%d_%s", n, pname)
		d.launch = fmt.Sprintf("exo_cudaLaunch%d_%s", n, pname)
	}
	d.smemBase = roundUp(g.facts.mbarSize.at(s.Pos().Offset), smemAlign)
	d.smemTop, d.smemMax = d.smemBase, d.smemBase
	g.curDev = d
	g.devFns = append(g.devFns, d)

	// Seed 002 "Async Blocks": the only child of a CudaDeviceFunction is a
	// nest of one or more cuda_tasks loops.
	var taskBuf [2]*syntax.For // the nest's loops, on the stack for one or two
	tasks, bad := taskNest(taskBuf[:0], s.Body)
	if bad != nil {
		g.errorf(bad, codeDevice, "the body of a CudaDeviceFunction must be a nest of cuda_tasks loops (seed 002)")
		return
	}
	if len(tasks) == 0 {
		g.errorf(s, codeDevice, "the body of a CudaDeviceFunction must be a nest of cuda_tasks loops (seed 002)")
		return
	}
	body := tasks[len(tasks)-1].Body // the innermost task loop's
	// Task iterators are device values carried in exo_Task; the bounds of
	// the task loops are evaluated by the kernel from captured values.
	dsc := g.newScope(sc)
	// The bounds are walked here for their captures and diagnostics as
	// device code; their text is never read (noText in the single pass,
	// as taskBounds's).
	bx := &exprCtx{g: g, sc: g.newScope(sc), device: true, noText: g.single && !textAlways}
	for _, t := range tasks {
		bx.expr(t.Lo)
		bx.expr(t.Hi)
		bx.sc.add(g.newSym(sym{name: t.Var.Name, c: g.cIdent(t.Var.Name), kind: kIndex, device: true}))
	}
	for _, t := range tasks {
		pg.order++
		dsc.add(g.newSym(sym{name: t.Var.Name, c: g.cIdent(t.Var.Name), kind: kIndex, device: true, order: pg.order, decl: t}))
	}
	top, shared := g.sharedTop(s, d.m), true
	if top == nil {
		top, shared = g.facts.tops.at(d.m), false
	}
	if top == nil {
		var err error
		if top, err = coll.DeviceTiling(d.m); err != nil {
			g.errorf(s, codeDevice, "%v", err)
			return
		}
		g.facts.tops.put(d.m, top)
	}
	paths := noWarpPaths
	if df.Warps != nil {
		paths = nil
		for _, w := range df.Warps {
			paths = append(paths, w.Name)
		}
	}
	var taskFns []string
	for _, path := range paths {
		d.used = nil
		d.usesX = false
		d.smemTop = d.smemBase
		bw := g.taskWriter()
		bw.Indent()
		ctx := &devCtx{d: d, w: bw, sc: g.newScope(dsc), cur: top, shared: shared, path: path}
		g.devBlock(ctx, body)
		if g.single {
			continue // no text (single.go)
		}
		fw := cuda.Writer{Discard: g.discard}
		fn := "exo_deviceTask"
		if path != "" {
			fn += "_" + cuda.Ident(path)
		}
		fw.Open("__device__ __forceinline__ void %s::%s(char *exo_smem, exo_SyncState &exo_syncState, const %s &exo_deviceArgs, const exo_Task &exo_task) {", d.name, fn, d.argsName)
		g.bindings(&fw, d, dsc)
		fw.Raw(bw.String())
		fw.Close("}")
		taskFns = append(taskFns, fw.String())
	}
	if g.pass == 1 {
		var names []string
		for _, v := range d.captured {
			names = append(names, v.name)
		}
		g.facts.captures.put(s.Pos().Offset, names)
		g.facts.mbarSize.put(s.Pos().Offset, d.mbarTop)
	}
	if g.single {
		// CheckOnly's single pass formats no text: of the launch and the
		// kernel's pieces, only the task loops' bounds can be wrong
		// (emitDevice lowers them as CPU expressions for every code path:
		// the same diagnostics for each).
		g.taskBounds(tasks, dsc, func(v, lo, hi string) {})
		return
	}
	// The launch from CPU code.
	capt := g.capturedSyms(d, s, sc)
	var inits []string
	var arrays []*sym
	for _, v := range capt {
		if g.memSpace(v.mem) == "grid_constant" && v.kind == kTensor {
			// A CudaGridConstant array is a member array of the argument
			// struct (argMember), which C cannot initialize from an
			// array expression: copied element by element below.
			arrays = append(arrays, v)
			continue
		}
		inits = append(inits, "."+v.c+" = "+g.argValue(v))
	}
	if len(arrays) == 0 {
		pg.w.Line("%s(exo_cudaStream, (struct %s){%s});", d.launch, d.argsName, strings.Join(inits, ", "))
	} else {
		pg.w.Open("{")
		pg.w.Line("struct %s exo_deviceArgs = {%s};", d.argsName, strings.Join(inits, ", "))
		for _, v := range arrays {
			n, _ := g.constProd(v.dims, sc)
			pg.w.Line("for (int exo_i = 0; exo_i < %d; exo_i++) exo_deviceArgs.%s[exo_i] = %s[exo_i];", n, v.c, v.c)
		}
		pg.w.Line("%s(exo_cudaStream, exo_deviceArgs);", d.launch)
		pg.w.Close("}")
	}
	g.emitDevice(d, tasks, dsc, capt, paths, taskFns)
}

// capturedSyms returns the CPU values the kernel reads, in the order the
// first pass found them (so the args struct is stable).
func (g *gen) capturedSyms(d *devFn, s *syntax.With, sc *scope) []*sym {
	var out []*sym
	for _, n := range g.facts.captures.at(s.Pos().Offset) {
		if v := sc.lookup(n); v != nil {
			out = append(out, v)
		}
	}
	// Declaration order: parameters, then CPU locals.
	sort.SliceStable(out, func(i, j int) bool { return out[i].order < out[j].order })
	return out
}

func (g *gen) argValue(v *sym) string {
	if v.ptr {
		return "*" + v.c
	}
	return v.c
}

// argMember is the declaration of v in the args struct.
func (g *gen) argMember(v *sym, sc *scope) string {
	switch v.kind {
	case kSize, kIndex, kStride:
		return "int_fast32_t " + v.c
	case kBool:
		return "bool " + v.c
	}
	if v.mem == "Sm90_tensorMap" {
		return "weft_tensor_map " + v.c
	}
	ct := hostCType(v.elem)
	if g.memSpace(v.mem) == "grid_constant" && v.kind == kTensor {
		n, _ := g.constProd(v.dims, sc)
		return fmt.Sprintf("%s %s[%d]", ct, v.c, n)
	}
	if v.kind == kScalar {
		return ct + " " + v.c
	}
	return ct + " *" + v.c
}

// bindings binds the captured values a code path uses to their names.
func (g *gen) bindings(w *cuda.Writer, d *devFn, dsc *scope) {
	var vs []*sym
	for v := range d.used {
		vs = append(vs, v)
	}
	sort.Slice(vs, func(i, j int) bool { return vs[i].order < vs[j].order })
	for _, v := range vs {
		if v.device {
			continue
		}
		if half := ctype(v.elem); (v.elem == "f16" || v.elem == "bf16") && v.mem != "Sm90_tensorMap" {
			// The C host code holds half types as their bits (uint16_t);
			// device code computes with the CUDA types.
			if v.kind == kTensor && g.memSpace(v.mem) != "grid_constant" {
				w.Line("%s *const %s = reinterpret_cast<%s *>(exo_deviceArgs.%s);", half, v.c, half, v.c)
			} else {
				w.Line("const auto &%s = *reinterpret_cast<const %s (*)%s>(&exo_deviceArgs.%s);", v.c, half, arraySuffix(g, v, dsc), v.c)
			}
			continue
		}
		if g.memSpace(v.mem) == "grid_constant" && v.kind == kTensor {
			// A grid-constant array (a member array of the __grid_constant__
			// argument struct, whose address may be taken): read through
			// a pointer to its first element.
			w.Line("const %s *const %s = exo_deviceArgs.%s;", ctype(v.elem), v.c, v.c)
			continue
		}
		w.Line("const auto &%s = exo_deviceArgs.%s;", v.c, v.c)
	}
	for _, v := range dsc.list {
		w.Line("[[maybe_unused]] const int_fast32_t %s = exo_task.%s;", v.c, v.c)
	}
	if d.usesX {
		w.Line("const unsigned exo_x = weft::cluster_ctarank() * %d + threadIdx.x;", d.m.BlockDim)
	}
}

// arraySuffix is "[n]" for a grid-constant array, "" for a scalar (the
// declarator of a reference to the argument-struct member).
func arraySuffix(g *gen, v *sym, sc *scope) string {
	if v.kind != kTensor {
		return ""
	}
	n, _ := g.constProd(v.dims, sc)
	return fmt.Sprintf("[%d]", n)
}

func roundUp(n, a int) int { return (n + a - 1) / a * a }

// launchShape reads CudaDeviceFunction(blockDim=..., clusterDim=...,
// blocks_per_sm=..., warp_config=...) (seed 000 §3.4; spec §3.2).
func (g *gen) launchShape(c *syntax.Call, sc *scope) (*coll.DeviceFunction, bool) {
	blockDim, clusterDim, bps := 0, 1, 1
	var warps []coll.WarpConfig
	for _, a := range c.Args {
		g.errorf(a, codeDevice, "CudaDeviceFunction takes keyword arguments (blockDim=, clusterDim=, blocks_per_sm=, warp_config=)")
		return nil, false
	}
	for _, k := range c.Kwargs {
		switch k.Name.Name {
		case "blockDim", "clusterDim", "blocks_per_sm":
			v, ok := g.constValue(k.Value, sc)
			if !ok {
				g.errorf(k.Value, codeConst, "%s must be a constant", k.Name.Name)
				return nil, false
			}
			switch k.Name.Name {
			case "blockDim":
				blockDim = int(v)
			case "clusterDim":
				clusterDim = int(v)
			default:
				bps = int(v)
			}
		case "warp_config":
			e := k.Value
			if n, ok := e.(*syntax.Name); ok {
				e = g.lists[n.Name]
			}
			lst, ok := e.(*syntax.List)
			if !ok {
				g.errorf(k.Value, codeDevice, "warp_config must be a list of CudaWarpConfig(name, count, ...)")
				return nil, false
			}
			for _, el := range lst.Elems {
				wc, ok := g.warpConfig(el)
				if !ok {
					return nil, false
				}
				warps = append(warps, wc)
			}
			if warps == nil {
				warps = []coll.WarpConfig{}
			}
		case "unsafe_no_shutdown_cluster_sync":
			// read by noShutdownSync
		default:
			g.errorf(k, codeDevice, "CudaDeviceFunction has no parameter %s", k.Name.Name)
			return nil, false
		}
	}
	if df := g.sharedFn(c, blockDim, clusterDim, bps, warps); df != nil {
		return df, true
	}
	df, err := coll.NewDeviceFunction(blockDim, clusterDim, bps, warps)
	if err != nil {
		g.errorf(c, codeDevice, "%v", err)
		return nil, false
	}
	return df, true
}

func (g *gen) warpConfig(e syntax.Expr) (coll.WarpConfig, bool) {
	c, ok := e.(*syntax.Call)
	if !ok || c.FunName() != "CudaWarpConfig" {
		g.errorf(e, codeDevice, "expected CudaWarpConfig(name, count, setmaxnreg_dec=..., setmaxnreg_inc=...)")
		return coll.WarpConfig{}, false
	}
	var wc coll.WarpConfig
	args, problems := check.WarpConfigArgs(c)
	if len(problems) > 0 {
		g.errorf(c, codeDevice, "%s", problems[0].Msg)
		return wc, false
	}
	s, ok := args[0].(*syntax.StringLit)
	if !ok {
		g.errorf(args[0], codeDevice, "the warp name must be a string")
		return wc, false
	}
	wc.Name = s.Value
	for i, dst := range []*int{&wc.Count, &wc.Dec, &wc.Inc} {
		a := args[i+1]
		if a == nil {
			continue // None: no setmaxnreg
		}
		v, ok := g.constValue(a, nil)
		if !ok {
			g.errorf(a, codeConst, "CudaWarpConfig %s must be a constant", check.WarpConfigParams[i+1])
			return wc, false
		}
		*dst = int(v)
	}
	return wc, true
}

// emitDevice writes the .h, .cuh and .cu parts of one device function.
func (g *gen) emitDevice(d *devFn, tasks []*syntax.For, dsc *scope, capt []*sym, paths []string, taskFns []string) {
	// .h: the args struct and the C-linkage launch (callable from C).
	g.h.Open("struct %s {", d.argsName)
	if len(capt) == 0 {
		g.h.Line("char exo_unused;")
	}
	for _, v := range capt {
		g.h.Line("%s;", g.argMember(v, dsc))
	}
	g.h.Close("};")
	g.h.Line("void %s(weft_stream exo_cudaStream, struct %s exo_deviceArgs);", d.launch, d.argsName)
	g.h.Line("")

	w := &g.cuh
	w.Line("")
	w.Line("// CudaDeviceFunction at line %d", d.with.Pos().Line())
	w.Line("__global__ void __launch_bounds__(%d, %d) %s(const __grid_constant__ %s exo_deviceArgs);", d.m.BlockDim, d.df.BlocksPerSM, d.kernel, d.argsName)
	w.Open("struct %s {", d.name)
	w.Line("static constexpr unsigned exo_blockDim = %d;", d.m.BlockDim)
	w.Line("static constexpr unsigned exo_clusterDim = %d;", d.m.ClusterDim)
	w.Line("static constexpr unsigned exo_blocksPerSM = %d;", d.df.BlocksPerSM)
	w.Line("static constexpr unsigned exo_smemBytes = %d;", d.smemMax)
	w.Line("")
	w.Open("struct exo_Task {")
	for _, v := range dsc.list {
		w.Line("int_fast32_t %s;", v.c)
	}
	w.Close("};")
	w.Line("")
	w.Open("struct exo_SyncState {")
	nstate := 0
	for _, b := range d.bars {
		for _, f := range b.stateFields() {
			w.Line("unsigned %s = 0;", f)
			nstate++
		}
	}
	if nstate == 0 {
		w.Line("char exo_unused = 0;")
	}
	w.Close("};")
	w.Line("")
	w.Line("static void exo_cudaLaunch(cudaStream_t exo_cudaStream, const %s &exo_deviceArgs);", d.argsName)
	w.Line("static __device__ __forceinline__ void exo_deviceSetup(char *exo_smem, const %s &exo_deviceArgs);", d.argsName)
	w.Line("static __device__ __forceinline__ void exo_deviceMainLoop(char *exo_smem, const %s &exo_deviceArgs);", d.argsName)
	for _, p := range paths {
		fn := "exo_deviceTask"
		if p != "" {
			fn += "_" + cuda.Ident(p)
		}
		w.Line("static __device__ __forceinline__ void %s(char *exo_smem, exo_SyncState &exo_syncState, const %s &exo_deviceArgs, const exo_Task &exo_task);", fn, d.argsName)
	}
	w.Close("};")
	w.Line("")

	// Launch: a persistent grid of SMs * blocks_per_sm CTAs (a multiple of
	// the cluster size); the task loop hands tasks round-robin to clusters.
	w.Open("inline void %s::exo_cudaLaunch(cudaStream_t exo_cudaStream, const %s &exo_deviceArgs) {", d.name, d.argsName)
	// The device queries and attributes are set once per process.
	w.Line("static int exo_SMs = 0;")
	w.Open("if (exo_SMs == 0) {")
	w.Line("int exo_device = 0;")
	w.Line("weft_check(cudaGetDevice(&exo_device), \"cudaGetDevice\");")
	w.Line("weft_check(cudaDeviceGetAttribute(&exo_SMs, cudaDevAttrMultiProcessorCount, exo_device), \"cudaDeviceGetAttribute\");")
	w.Line("weft_check(cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, exo_smemBytes), \"cudaFuncSetAttribute\");", d.kernel)
	if d.m.ClusterDim > 1 {
		w.Line("weft_check(cudaFuncSetAttribute(%s, cudaFuncAttributeNonPortableClusterSizeAllowed, 1), \"cudaFuncSetAttribute\");", d.kernel)
	}
	w.Close("}")
	w.Line("unsigned exo_gridDim = (unsigned)exo_SMs * exo_blocksPerSM / exo_clusterDim * exo_clusterDim;")
	w.Line("if (exo_gridDim == 0) exo_gridDim = exo_clusterDim;")
	w.Line("cudaLaunchConfig_t exo_launchConfig = {};")
	w.Line("exo_launchConfig.gridDim = dim3(exo_gridDim, 1, 1);")
	w.Line("exo_launchConfig.blockDim = dim3(exo_blockDim, 1, 1);")
	w.Line("exo_launchConfig.dynamicSmemBytes = exo_smemBytes;")
	w.Line("exo_launchConfig.stream = exo_cudaStream;")
	if d.m.ClusterDim > 1 {
		w.Line("cudaLaunchAttribute exo_clusterAttr[1];")
		w.Line("exo_clusterAttr[0].id = cudaLaunchAttributeClusterDimension;")
		w.Line("exo_clusterAttr[0].val.clusterDim.x = exo_clusterDim;")
		w.Line("exo_clusterAttr[0].val.clusterDim.y = 1;")
		w.Line("exo_clusterAttr[0].val.clusterDim.z = 1;")
		w.Line("exo_launchConfig.attrs = exo_clusterAttr;")
		w.Line("exo_launchConfig.numAttrs = 1;")
	}
	w.Line("weft_check(cudaLaunchKernelEx(&exo_launchConfig, %s, exo_deviceArgs), \"cudaLaunchKernelEx\");", d.kernel)
	w.Close("}")
	w.Line("")

	// Setup: mbarrier initialization (spec §8.3).
	w.Open("__device__ __forceinline__ void %s::exo_deviceSetup(char *exo_smem, const %s &exo_deviceArgs) {", d.name, d.argsName)
	if len(d.bars) > 0 {
		w.Open("if (threadIdx.x == 0) {")
		for _, b := range d.bars {
			b.emitInit(w)
		}
		if d.m.ClusterDim > 1 {
			w.Line("weft::fence_mbarrier_init();")
		}
		if d.asyncProxy {
			w.Line("weft::fence_proxy_async();")
		}
		w.Close("}")
		if d.m.ClusterDim > 1 {
			w.Line("weft::cluster_sync();")
		} else {
			w.Line("weft::barrier_cta_sync();")
		}
	} else {
		w.Line("(void)exo_smem;")
	}
	w.Close("}")
	w.Line("")

	// Main loop: the cuda_tasks nest; task i goes to cluster i mod
	// (clusters in the grid) (seed 000 §4.2, persistent kernels).
	w.Open("__device__ __forceinline__ void %s::exo_deviceMainLoop(char *exo_smem, const %s &exo_deviceArgs) {", d.name, d.argsName)
	w.Line("exo_SyncState exo_syncState{};")
	var boundNames []string
	for _, t := range tasks {
		for _, e := range []syntax.Expr{t.Lo, t.Hi} {
			boundNames = append(boundNames, freeNames(e)...)
		}
	}
	bound := map[string]bool{}
	for _, v := range capt {
		for _, n := range boundNames {
			if n == v.name && !bound[n] {
				bound[n] = true
				w.Line("const auto &%s = exo_deviceArgs.%s;", v.c, v.c)
			}
		}
	}
	// Each code path's task loop runs inside its warpgroup run's branch,
	// right after that run's setmaxnreg (see roleRuns).
	emitPath := func(p string) {
		w.Line("unsigned exo_taskIndex = 0;")
		g.taskBounds(tasks, dsc, func(v, lo, hi string) {
			w.Open("for (int_fast32_t %s = %s; %s < %s; %s++) {", v, lo, v, hi, v)
		})
		fn := "exo_deviceTask"
		if p != "" {
			fn += "_" + cuda.Ident(p)
		}
		var fields []string
		for _, v := range dsc.list {
			fields = append(fields, v.c)
		}
		w.Open("if (exo_taskIndex++ %% (gridDim.x / exo_clusterDim) == blockIdx.x / exo_clusterDim) {")
		w.Line("%s(exo_smem, exo_syncState, exo_deviceArgs, exo_Task{%s});", fn, strings.Join(fields, ", "))
		w.Close("}")
		for range tasks {
			w.Close("}")
		}
	}
	if paths[0] == "" {
		emitPath("")
	} else {
		runs := g.roleRuns(d)
		for ri, r := range runs {
			cond := threadRange(r.lo*32, r.hi*32, 0, d.m.BlockDim)
			if len(runs) > 1 {
				kw := "if"
				if ri > 0 {
					kw = "} else if"
					w.Dedent()
				}
				w.Open("%s (%s) {", kw, cond)
			}
			if r.stmt != "" {
				w.Line("%s", r.stmt)
			}
			for i, p := range r.paths {
				lo, hi, _ := d.df.WarpRange(p)
				if len(r.paths) > 1 {
					kw := "if"
					if i > 0 {
						kw = "} else if"
						w.Dedent()
					}
					w.Open("%s (%s) {", kw, threadRange(lo*32, hi*32, r.lo*32, r.hi*32))
				}
				emitPath(p)
				if len(r.paths) > 1 && i == len(r.paths)-1 {
					w.Close("}")
				}
			}
			if len(runs) > 1 && ri == len(runs)-1 {
				w.Close("}")
			}
		}
	}
	w.Close("}")
	for _, fn := range taskFns {
		w.Line("")
		w.Raw(fn)
	}

	// .cu: the kernel and its C-linkage launch.
	c := &g.cu
	c.Line("")
	c.Open("__global__ void __launch_bounds__(%d, %d) %s(const __grid_constant__ %s exo_deviceArgs) {", d.m.BlockDim, d.df.BlocksPerSM, d.kernel, d.argsName)
	c.Line("extern __shared__ __align__(1024) char exo_smem[];")
	c.Line("%s::exo_deviceSetup(exo_smem, exo_deviceArgs);", d.name)
	c.Line("%s::exo_deviceMainLoop(exo_smem, exo_deviceArgs);", d.name)
	if d.m.ClusterDim > 1 && d.remoteArrives() && !noShutdownSync(d.with) {
		// Other CTAs may still arrive on this CTA's mbarriers (multicast
		// Arrives): no CTA leaves before the cluster is done (Exo's
		// shutdown cluster sync).
		c.Line("weft::cluster_sync();")
	}
	c.Close("}")
	c.Line("")
	c.Open("extern \"C\" void %s(weft_stream exo_cudaStream, struct %s exo_deviceArgs) {", d.launch, d.argsName)
	c.Line("%s::exo_cudaLaunch((cudaStream_t)exo_cudaStream, exo_deviceArgs);", d.name)
	c.Close("}")
}

// taskBounds lowers the bounds of the cuda_tasks nest as the kernel's
// main loop evaluates them (CPU expressions of the captured values; the
// outer task variables in scope), calling loop for each loop in order.
func (g *gen) taskBounds(tasks []*syntax.For, dsc *scope, loop func(v, lo, hi string)) {
	inner := g.newScope(dsc.parent)
	for _, t := range tasks {
		// The single pass of CheckOnly reads no bound's text (its loop
		// ignores it): the bounds are walked for their diagnostics alone.
		tx := &exprCtx{g: g, sc: inner, noText: g.single && !textAlways}
		v := g.cIdent(t.Var.Name)
		loop(v, tx.expr(t.Lo), tx.expr(t.Hi))
		inner = g.newScope(inner)
		inner.add(g.newSym(sym{name: t.Var.Name, c: v, kind: kIndex, device: true}))
	}
}

// roleRun is a run of consecutive warps [lo, hi) whose warpgroups share
// one setmaxnreg setting, with the code paths (warp names) inside it.
type roleRun struct {
	lo, hi int
	stmt   string // the setmaxnreg statement; "" when the run keeps its budget
	paths  []string
}

// roleRuns groups the code paths of a warp-specialized device function by
// register setting. setmaxnreg is .sync.aligned over a warpgroup (PTX ISA,
// setmaxnreg: every warp of the warpgroup executes the same instance), and
// coll checks that the setting is uniform within each warpgroup, so a run
// is whole warpgroups and every path lies inside one run.
//
// The main loop opens one branch per run, issues the run's setmaxnreg as
// the first statement of that branch and nests the run's paths inside it,
// as warp-specialized Hopper kernels are written. ptxas needs that shape:
// it checks a setmaxnreg.dec against every path that can follow it, and
// with the setmaxnreg as a guarded statement before a shared split by warp
// name it must assume that code after the dec includes the consumers'
// wgmma (128 accumulator registers), so it drops every setmaxnreg (advisory
// C7507, "'setmaxnreg' ignored to maintain minimum register requirements")
// and the kernel runs at its launch-bounds budget in every warpgroup.
func (g *gen) roleRuns(d *devFn) []roleRun {
	setting := func(wg int) (int, int) {
		n := wg * 4
		for _, c := range d.df.Warps {
			if n < c.Count {
				return c.Dec, c.Inc
			}
			n -= c.Count
		}
		return 0, 0
	}
	nwg := (d.m.BlockDim + 127) / 128
	var runs []roleRun
	for lo := 0; lo < nwg; {
		dec, inc := setting(lo)
		hi := lo + 1
		for hi < nwg {
			d2, i2 := setting(hi)
			if d2 != dec || i2 != inc {
				break
			}
			hi++
		}
		r := roleRun{lo: lo * 4, hi: min(hi*4, d.m.BlockDim/32)}
		switch {
		case inc != 0:
			r.stmt = fmt.Sprintf("weft::setmaxnreg_inc<%d>();", inc)
		case dec != 0:
			r.stmt = fmt.Sprintf("weft::setmaxnreg_dec<%d>();", dec)
		}
		runs = append(runs, r)
		lo = hi
	}
	// Place each path in the run holding its first warp; a path that left
	// its run (impossible after coll's uniformity check) merges the runs it
	// spans, dropping their setmaxnreg rather than splitting a warpgroup.
	for _, c := range d.df.Warps {
		p := c.Name
		plo, phi, _ := d.df.WarpRange(p)
		i := 0
		for runs[i].hi <= plo {
			i++
		}
		for runs[i].hi < phi && i+1 < len(runs) {
			runs[i].hi = runs[i+1].hi
			runs[i].stmt = ""
			runs[i].paths = append(runs[i].paths, runs[i+1].paths...)
			runs = append(runs[:i+1], runs[i+2:]...)
		}
		runs[i].paths = append(runs[i].paths, p)
	}
	out := runs[:0]
	for _, r := range runs {
		if len(r.paths) > 0 {
			out = append(out, r)
		}
	}
	return out
}

// threadRange is the condition selecting threads [lo, hi) among threads
// [outLo, outHi), which the enclosing branch already implies: the bounds
// it implies are left out.
func threadRange(lo, hi, outLo, outHi int) string {
	switch {
	case lo <= outLo && hi >= outHi:
		return "true"
	case lo <= outLo:
		return fmt.Sprintf("threadIdx.x < %d", hi)
	case hi >= outHi:
		return fmt.Sprintf("threadIdx.x >= %d", lo)
	}
	return fmt.Sprintf("threadIdx.x >= %d && threadIdx.x < %d", lo, hi)
}

func freeNames(e syntax.Expr) []string {
	var out []string
	var walk func(e syntax.Expr)
	walk = func(e syntax.Expr) {
		switch e := e.(type) {
		case *syntax.Name:
			out = append(out, e.Name)
		case *syntax.Binary:
			walk(e.X)
			walk(e.Y)
		case *syntax.Unary:
			walk(e.X)
		case *syntax.Index:
			walk(e.X)
			for _, i := range e.Indices {
				walk(i)
			}
		}
	}
	walk(e)
	return out
}

// inline lowers a call of a user proc in device code by generating its
// body in place: tensor parameters become windows of the arguments, size
// and index parameters the arguments' values (constants stay constants, so
// the callee's cuda_threads bounds and shapes fold).
func (g *gen) inline(ctx *devCtx, s *syntax.CallStmt, p *syntax.Proc) {
	if ctx.inlining[p] {
		g.errorf(s, codeUnsupported, "%s calls itself: recursive procs cannot be inlined into device code", p.Name.Name)
		return
	}
	args, ok := g.bindArgs(s.Call, p)
	if !ok {
		return
	}
	x := &exprCtx{g: g, sc: ctx.sc, device: true}
	isc := g.newScope(ctx.sc)
	for i, prm := range p.Params {
		a := args[i]
		t := prm.Type
		if t == nil || t.Elem == nil {
			return
		}
		switch {
		case t.Dims != nil || t.Window:
			v := g.windowAlias(prm.Name, a, ctx.sc, 0)
			if v == nil {
				return
			}
			v.name = prm.Name.Name
			v.device = true // a device-local name for (part of) the argument
			isc.add(v)
		case t.Elem.Name == "size" || t.Elem.Name == "index" || t.Elem.Name == "stride" || t.Elem.Name == "bool":
			v := &sym{name: prm.Name.Name, kind: kIndex, device: true, decl: prm}
			if c, ok := g.constValue(a, ctx.sc); ok {
				v.c = strconv.FormatInt(c, 10)
				v.constVal = &c
			} else {
				v.c = "(" + x.expr(a) + ")"
			}
			isc.add(v)
		case lib_isData(t.Elem.Name):
			// A scalar argument is an lvalue of the caller.
			v := &sym{name: prm.Name.Name, kind: kScalar, elem: lib.ResolveElem(t.Elem.Name), device: true, decl: prm}
			v.c = x.expr(a)
			isc.add(v)
		default:
			g.errorf(prm, codeUnsupported, "cannot inline %s: parameter %s", p.Name.Name, prm.Name.Name)
			return
		}
	}
	inner := *ctx
	inner.sc = isc
	inner.inlining = map[*syntax.Proc]bool{p: true}
	for q := range ctx.inlining {
		inner.inlining[q] = true
	}
	ctx.w.Open("{  // %s", syntax.ExprString(s.Call))
	g.devBlock(&inner, p.Body)
	ctx.w.Close("}")
}

// devBlock lowers a block of device statements in a new scope; SMEM
// allocated in it is released at its end (reused by later siblings).
func (g *gen) devBlock(ctx *devCtx, ss []syntax.Stmt) {
	c := *ctx
	c.sc = g.newScope(ctx.sc)
	top := ctx.d.smemTop
	for _, s := range ss {
		g.devStmt(&c, s)
	}
	g.ringEpilogue(&c, ss)
	ctx.d.smemTop = top
}

func (g *gen) devStmt(ctx *devCtx, s syntax.Stmt) {
	w := ctx.w
	x := &exprCtx{g: g, sc: ctx.sc, device: true}
	comments(w, s)
	defer srcAt(w, s)()
	switch s := s.(type) {
	case *syntax.Pass, *syntax.Assert:
	case *syntax.Alloc:
		g.devAlloc(ctx, s)
	case *syntax.Free:
		// free(x) of the SMEM allocated last releases its bytes to the
		// allocations that follow (Exo's stack allocation of SMEM: the
		// epilogue's C tile reuses the operand ring's space). The sync
		// check has checked that no access to x is pending at the free.
		if v := ctx.sc.lookup(s.Name.Name); v != nil && v.device && v.smemEnd > 0 && v.smemEnd == ctx.d.smemTop {
			ctx.d.smemTop = v.smemPrevTop
		}
	case *syntax.Assign:
		if n, ok := s.LHS.(*syntax.Name); ok && s.Op == "=" && (s.Mem != nil || isWindowExpr(s.RHS)) {
			if s.Mem != nil {
				g.errorf(s.Mem, codeUnsupported, "special windows are built in CPU code")
				return
			}
			ctx.d.iterID++
			if v := g.windowAlias(n, s.RHS, ctx.sc, 0); v != nil {
				v.device = true
				ctx.sc.add(v)
			}
			return
		}
		_, plain := s.LHS.(*syntax.Name)
		x.assigning = plain && s.Op == "="
		x.noText = w.Discard && !textAlways // the text is printed below only
		lhs := (&procGen{g: g}).lvalue(s.LHS, x)
		x.assigning = false
		rhs := x.expr(s.RHS)
		if !w.Discard {
			w.Line("%s %s %s;", lhs, s.Op, rhs)
		}
	case *syntax.If:
		x.noText = w.Discard && !textAlways // Open prints nothing then
		w.Open("if (%s) {", x.expr(s.Cond))
		g.devBlock(ctx, s.Then)
		if len(s.Else) > 0 {
			w.Close("} else {")
			w.Indent()
			g.devBlock(ctx, s.Else)
		}
		w.Close("}")
	case *syntax.For:
		g.devLoop(ctx, s)
	case *syntax.With:
		g.devWith(ctx, s)
	case *syntax.CallStmt:
		name := s.Call.FunName()
		in := g.instr(name)
		if in == nil {
			if p := g.procNamed(name); p != nil {
				g.inline(ctx, s, p)
			} else {
				g.errorf(s.Call, codeName, "unknown instruction %s", name)
			}
			return
		}
		g.instrCall(w, s, in, x, ctx)
	case *syntax.Fence:
		g.fence(ctx, s)
	case *syntax.Arrive:
		g.arrive(ctx, s)
	case *syntax.Await:
		g.await(ctx, s)
	default:
		g.errorf(s, codeUnsupported, "cannot lower %T in device code", s)
	}
}

func (g *gen) devLoop(ctx *devCtx, s *syntax.For) {
	w := ctx.w
	x := &exprCtx{g: g, sc: ctx.sc, device: true}
	switch s.Mode.Name {
	case "seq":
		inner := *ctx
		inner.sc = g.newScope(ctx.sc)
		v := g.cIdent(s.Var.Name)
		inner.sc.add(g.newSym(sym{name: s.Var.Name, c: v, kind: kIndex, device: true, decl: s}))
		if k := findKwarg(s.Kwargs, "pragma_unroll"); k != nil {
			unrollPragma(w, g, k, ctx.sc)
		}
		x.noText = w.Discard && !textAlways // the text is printed below only
		lo, hi := x.expr(s.Lo), x.expr(s.Hi)
		if !w.Discard {
			w.Open("for (int_fast32_t %s = %s; %s < %s; %s++) {", v, lo, v, hi, v)
		}
		g.devBlock(&inner, s.Body)
		w.Close("}")
	case "cuda_threads":
		g.threadsLoop(ctx, s)
	case "cuda_tasks":
		g.errorf(s, codeDevice, "cuda_tasks loops form the outermost nest of a CudaDeviceFunction (seed 002)")
	default:
		g.errorf(s.Mode, codeUnsupported, "%s loops cannot appear in device code", s.Mode.Name)
	}
}

// threadsLoop lowers `for it in cuda_threads(0, hi, unit=u)` to
// `if (int exo_<T>thr_<it> = f(threadIdx); g) {` (seed 002
// cuda_threads_cxx; seed 000 §4.2 with f and g from coll.Lowering).
func (g *gen) threadsLoop(ctx *devCtx, s *syntax.For) {
	w := ctx.w
	d := ctx.d
	if lo, ok := g.constValue(s.Lo, ctx.sc); !ok || lo != 0 {
		g.errorf(s.Lo, codeThreads, "cuda_threads loops start at 0")
		return
	}
	hi, ok := g.constValue(s.Hi, ctx.sc)
	if !ok {
		g.errorf(s.Hi, codeConst, "the bound of a cuda_threads loop must be a constant (rewrite with simplify(...) if needed)")
		return
	}
	var u coll.Unit
	if k := findKwarg(s.Kwargs, "unit"); k != nil {
		var err error
		u, err = g.unit(k.Value, ctx.sc)
		if err != nil {
			g.errorf(k.Value, codeThreads, "%v", err)
			return
		}
	} else {
		u, _ = coll.LookupUnit("cuda_thread")
	}
	d.iterID++
	// The unit's thread count is resolved once, before the tiling is
	// taken: a shared body's unit check reads whether it resolves
	// (sharedBody), and the count is read below in either case (Threads
	// is pure: computing it earlier changes nothing else).
	ut, errT := u.Threads(d.m)
	body := g.sharedBody(ctx, s, int(hi), &u, errT == nil)
	if body == nil {
		var err error
		if body, err = ctx.cur.CudaThreads(d.iterID, int(hi), u); err != nil {
			g.errorf(s, codeThreads, "%v", err)
			return
		}
	}
	low := body.Lowering()
	if !low.OK {
		g.errorf(s, codeThreads, "the threads of this loop's iterations are not a closed-form function of threadIdx")
		return
	}
	if errT != nil {
		g.errorf(s, codeThreads, "%v", errT)
		return
	}
	if hi == 1 && ut >= ctx.cur.TileThreads {
		// One iteration of a unit that holds the whole scope (Exo's
		// `cuda_threads(0, 1, unit=2 * cuda_cta_in_cluster_strided(1))`
		// over the producer warps of both CTAs of a cluster): every
		// thread of the scope runs it, with the iterator 0.
		low = coll.Lowering{Iter: low.Iter, Bound: 1, OK: true, Div: 1, Mod: 1}
	}
	// The iterator's C name is text: a pass that formats none gives it
	// none (the symbol's c is read only into text; issue 13, stop 31).
	cname := ""
	if !g.discard {
		cname = "exo_" + strconv.Itoa(ut) + "thr_" + cuda.Ident(s.Var.Name)
	}
	nat, rng := d.natural()
	if !g.discard {
		// The loop's line and the names of its iterator (named barriers'
		// ids, threadBarrierTo) are text: a pass that formats none skips
		// them (Options.CheckOnly; issue 13).
		put(&d.iterNames, d.iterID, cname)
		attr := ""
		if !g.facts.used.at(usedKey{s.Pos().Offset, ctx.path}) && !low.Guard {
			// The body reads only distributed indices, which are stripped.
			attr = "[[maybe_unused]] "
		}
		w.Open("if (%sint %s = %s; %s) {", attr, cname, low.CExpr(nat, rng), low.CGuard(cname))
	}
	inner := *ctx
	inner.cur = body
	inner.sc = g.newScope(ctx.sc)
	inner.sc.add(g.newSym(sym{name: s.Var.Name, path: ctx.path, c: cname, kind: kIndex, device: true, threadsIt: true,
		t0: ctx.cur.TileThreads, t1: body.TileThreads, ctaSel: ut >= d.m.BlockDim && d.m.ClusterDim > 1, iterID: d.iterID, tIter: body.Iter, decl: s}))
	g.devBlock(&inner, s.Body)
	w.Close("}")
}

func (g *gen) devWith(ctx *devCtx, s *syntax.With) {
	w := ctx.w
	c, ok := s.Ctx.(*syntax.Call)
	if !ok {
		g.errorf(s, codeUnsupported, "unknown with-block")
		return
	}
	switch c.FunName() {
	case "CudaAsync":
		if len(c.Args) != 1 {
			g.errorf(c, codeUnsupported, "CudaAsync takes one instruction timeline")
			return
		}
		n, ok := c.Args[0].(*syntax.Name)
		tl := g.syncTL("")
		if ok {
			tl = g.syncTL(n.Name)
		}
		if tl == nil || !tl.AsyncBlock {
			g.errorf(c.Args[0], codeUnsupported, "CudaAsync needs an asynchronous instruction timeline")
			return
		}
		inner := *ctx
		inner.async = tl.Name
		w.Line("// CudaAsync(%s)", n.Name)
		g.devBlock(&inner, s.Body)
	case "CudaWarps":
		g.warps(ctx, s, c)
	case "CudaDeviceFunction":
		g.errorf(s, codeDevice, "CudaDeviceFunction blocks do not nest")
	default:
		g.errorf(s, codeUnsupported, "unknown with-block %s", c.FunName())
	}
}

// warps lowers `with CudaWarps(lo, hi)` to a guard on the warp index and
// `with CudaWarps(name=...)` to its own code path (seed 002 "Warp
// Specialization": completely separate C++ code paths per warp name).
func (g *gen) warps(ctx *devCtx, s *syntax.With, c *syntax.Call) {
	w := ctx.w
	d := ctx.d
	var name string
	var lo, hi int64 = -1, -1
	for i, a := range c.Args {
		v, ok := g.constValue(a, ctx.sc)
		if !ok {
			g.errorf(a, codeConst, "CudaWarps bounds must be constants")
			return
		}
		if i == 0 {
			lo = v
		} else {
			hi = v
		}
	}
	for _, k := range c.Kwargs {
		switch k.Name.Name {
		case "name":
			sl, ok := k.Value.(*syntax.StringLit)
			if !ok {
				g.errorf(k.Value, codeThreads, "the warp name must be a string")
				return
			}
			name = sl.Value
		case "lo", "hi":
			v, ok := g.constValue(k.Value, ctx.sc)
			if !ok {
				g.errorf(k.Value, codeConst, "CudaWarps bounds must be constants")
				return
			}
			if k.Name.Name == "lo" {
				lo = v
			} else {
				hi = v
			}
		}
	}
	inner := *ctx
	if name != "" {
		if d.df.Warps == nil {
			g.errorf(s, codeThreads, "CudaWarps(name=%q) needs a CudaDeviceFunction with warp_config", name)
			return
		}
		wlo, whi, ok := d.df.WarpRange(name)
		if !ok {
			g.errorf(s, codeThreads, "top-level CudaWarps must provide valid warp name, not %q; your CudaDeviceFunction defines: %s", name, d.df.WarpNames())
			return
		}
		if ctx.path != name {
			return // another warp name's code path
		}
		if lo >= 0 || hi >= 0 {
			if lo < 0 {
				lo = 0
			}
			if hi < 0 || int(hi) > whi-wlo {
				g.errorf(s, codeThreads, "CudaWarps.hi=%d out-of-range for %q-named warps (only have %d)", hi, name, whi-wlo)
				return
			}
			wlo, whi = wlo+int(lo), wlo+int(hi)
		}
		body, err := ctx.cur.NamedWarps(name, wlo, whi)
		if err != nil {
			g.errorf(s, codeThreads, "%v", err)
			return
		}
		inner.cur = body
		if nlo, nhi, _ := d.df.WarpRange(name); wlo != nlo || whi != nhi {
			// A subset of the named warps (Exo's CudaWarps(0, 1,
			// name='producer') of 4 producer warps): the code path runs
			// on every warp of the name, so the others skip the block.
			d.iterID++
			cname := "exo_warp" + strconv.Itoa(d.iterID)
			w.Open("if (int %s = threadIdx.x / 32u; %d <= %s && %s < %d) {  // CudaWarps(name=%q): warps [%d, %d)", cname, wlo, cname, cname, whi, name, wlo, whi)
		} else {
			w.Open("{  // CudaWarps(name=%q): warps [%d, %d)", name, wlo, whi)
		}
		g.devBlock(&inner, s.Body)
		w.Close("}")
		return
	}
	if lo < 0 || hi < 0 {
		g.errorf(c, codeThreads, "CudaWarps needs lo and hi, or name=")
		return
	}
	body, err := ctx.cur.CudaWarps(int(lo), int(hi))
	if err != nil {
		g.errorf(s, codeThreads, "%v", err)
		return
	}
	low := body.Lowering()
	if !low.OK {
		g.errorf(s, codeThreads, "the warps of this block are not a closed-form function of threadIdx")
		return
	}
	d.iterID++
	cname := "exo_warp" + strconv.Itoa(d.iterID)
	nat, rng := d.natural()
	w.Open("if (int %s = %s; %s) {", cname, low.CExpr(nat, rng), low.CGuard(cname))
	inner.cur = body
	g.devBlock(&inner, s.Body)
	w.Close("}")
}

// devAlloc lowers a device allocation: registers as C arrays with the
// distributed dimensions stripped, SMEM at a static offset of the dynamic
// SMEM allocation, barriers per their memory.
func (g *gen) devAlloc(ctx *devCtx, a *syntax.Alloc) {
	w := ctx.w
	d := ctx.d
	t := a.Type
	if t == nil || t.Elem == nil {
		return
	}
	mem, memArg := g.memOf(t.Mem)
	v := g.newSym(sym{name: a.Name.Name, c: g.cIdent(a.Name.Name), elem: lib.ResolveElem(t.Elem.Name), dims: t.Dims, mem: mem, memArg: memArg,
		device: true, decl: a, tileThreads: ctx.cur.TileThreads})
	if t.Elem.Name == "barrier" {
		v.kind = kBarrier
		v.preArrive = v.mem == "CudaMbarrierPreArrive"
		v.mem = g.barrierKind(v.mem, a)
		ctx.sc.add(v)
		g.barrierAlloc(ctx, v, a)
		return
	}
	ct := ctype(v.elem)
	if ct == "" {
		g.errorf(a, codeName, "unknown type %s", v.elem)
		return
	}
	v.kind = kTensor
	if len(t.Dims) == 0 {
		v.kind = kScalar
	}
	ctx.sc.add(v)
	x := &exprCtx{g: g, sc: ctx.sc, device: true}
	nd, known := g.facts.distDims.get(a.Pos().Offset)
	if g.single && !known {
		// The accesses that give the distributed dimensions come later:
		// the second pass would read their final count (single.go).
		g.pendingAlloc(x, v, a, mem)
		return
	}
	if nd > len(t.Dims) {
		nd = len(t.Dims)
	}
	dims := t.Dims[nd:]
	// The C array holds the non-distributed dims only (seed 002 Rule 4/4).
	v.dims = t.Dims
	// Under warp specialization an allocation outside the named-warp
	// blocks is declared on every warp's code path, also on those that
	// never touch it (a producer path and an accumulator), which nvcc
	// would warn about.
	attr := ""
	if d.df.Warps != nil {
		attr = "[[maybe_unused]] "
	}
	n, ok := g.allocLen(x, v, a, mem, dims, g.errorf)
	if !ok {
		return
	}
	switch g.memSpace(mem) {
	case "rmem":
		if fragmentThreads(mem) == 0 && len(dims) == 0 {
			// Every dimension is distributed: one register per thread.
			if len(t.Dims) == 0 && !g.facts.read.at(a.Pos().Offset) {
				// A scalar (referenced only by name) assigned but never
				// read (seed 002's sync_warp_cta reads
				// SMEM into a register only to show who may read what):
				// dead for ptxas, and nvcc's warning #550 would fail a
				// -Werror build.
				attr = "[[maybe_unused]] "
			}
			w.Line("%s%s %s;", attr, ct, v.c)
			v.scalarized = len(t.Dims) > 0
			return
		}
		w.Line("%s%s %s[%d];", attr, ct, v.c, n)
	case "smem":
		align := smemAlign
		if isSwizzled(mem) {
			align = 1024 // swizzle atoms repeat every 1024 bytes
		}
		prevTop := d.smemTop
		off := roundUp(d.smemTop, align)
		d.smemTop = off + int(n)*elemBytes(v.elem)
		if d.smemTop > d.smemMax {
			d.smemMax = d.smemTop
		}
		v.smemOff = off
		v.smemEnd, v.smemPrevTop = d.smemTop, prevTop
		w.Line("%s%s *const %s = reinterpret_cast<%s *>(exo_smem + %d);", attr, ct, v.c, ct, off)
	}
}

// reportFunc is how a check reports a problem: gen.errorf, or a collector
// (pendingAlloc).
type reportFunc func(n syntax.Node, code, format string, args ...any)

// allocLen checks the non-distributed dimensions dims of device allocation
// v in memory mem, reporting its problems to report, and returns the
// length of its C array: registers (a matrix fragment's per thread), or
// SMEM elements. ok is false when v cannot be declared.
func (g *gen) allocLen(x *exprCtx, v *sym, a *syntax.Alloc, mem string, dims []syntax.Expr, report reportFunc) (n int64, ok bool) {
	switch g.memSpace(mem) {
	case "rmem":
		if frag := fragmentThreads(mem); frag > 0 {
			if len(dims) < 2 {
				report(a, codeMemory, "%s tiles need two dimensions", mem)
				return 0, false
			}
			regs := g.fragRegsTo(x, v, a, report)
			lead, ok := g.constProd(dims[:len(dims)-2], x.sc)
			if !ok {
				report(a, codeConst, "register allocations need constant dimensions")
				return 0, false
			}
			return lead * int64(regs), true
		}
		if len(dims) == 0 {
			return 1, true
		}
		n, ok := g.constProd(dims, x.sc)
		if !ok {
			report(a, codeConst, "register allocations need constant dimensions")
			return 0, false
		}
		return n, true
	case "smem":
		n, ok := g.constProd(dims, x.sc)
		if !ok {
			report(a, codeConst, "SMEM allocations need constant dimensions")
			return 0, false
		}
		return n, true
	}
	report(a, codeMemory, "%s cannot be allocated inside a CudaDeviceFunction (allocate it in CPU code)", mem)
	return 0, false
}

// taskNest returns the nest of cuda_tasks loops that is a
// CudaDeviceFunction's body (seed 002 "Async Blocks": its only child is a
// nest of one or more cuda_tasks loops; pass statements aside), appended to
// buf: at each level the body's one cuda_tasks loop, until a level holds
// anything else or more than one loop. bad is the statement that breaks
// the shape before the first loop (nil when the nest is well formed, or
// when the body holds no statement but pass: then tasks is empty). The
// generator (deviceFunction) and its diagnostics-only walk both read it.
func taskNest(buf []*syntax.For, body []syntax.Stmt) (tasks []*syntax.For, bad syntax.Stmt) {
	tasks = buf
	for {
		var loop *syntax.For
		for _, st := range body {
			if _, ok := st.(*syntax.Pass); ok {
				continue
			}
			f, ok := st.(*syntax.For)
			if !ok || f.Mode.Name != "cuda_tasks" || loop != nil {
				if len(tasks) == 0 {
					return tasks, st
				}
				loop = nil
				break
			}
			loop = f
		}
		if loop == nil {
			return tasks, nil
		}
		tasks = append(tasks, loop)
		body = loop.Body
	}
}
