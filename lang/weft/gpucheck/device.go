package gpucheck

import (
	"sort"

	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/syntax"
)

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// deviceFunction checks `with CudaDeviceFunction(...)` (seed 002 "Loop
// Modes", "Warp Specialization"; seed 000 §3.4): it is opened from CPU
// code, takes blockDim or warp_config, and its only child is a nest of
// cuda_tasks loops.
func (c *checker) deviceFunction(s *Scope, st *syntax.With, call *syntax.Call) {
	if s.Device != nil {
		c.errs.Errorf(st.Ctx.Pos(), codeDeviceWhere, "CudaDeviceFunction must be opened from CPU code, not from %s", where(s))
		return
	}
	fn := c.deviceArgs(st, call)
	b := c.child(s, st)
	b.TL = "cuda_in_order"
	dev := c.newDevice(c.loops)
	dev.Stmt, dev.Fn = st, fn
	if fn != nil {
		top, err := coll.DeviceTilingIn(fn.Machine(), c.deviceStore())
		if err == nil {
			dev.Top = top
			c.res.Devices = append(c.res.Devices, dev)
		}
	}
	b.Device = dev
	saved := c.dev
	c.dev = dev
	defer func() { c.dev = saved }()

	// R7: the only child is a nest of one or more cuda_tasks loops.
	body := st.Body
	if len(body) == 0 {
		c.errs.Errorf(st.Pos(), codeTasksNest, "missing cuda_tasks loop: the only child of CudaDeviceFunction is a nest of cuda_tasks loops")
		return
	}
	first, ok := body[0].(*syntax.For)
	if !ok || first.Mode.Name != "cuda_tasks" {
		c.errs.Errorf(body[0].Pos(), codeTasksNest, "expected cuda_tasks loop alone: the only child of CudaDeviceFunction is a nest of cuda_tasks loops")
		c.walkUnchecked(b, body)
		return
	}
	for _, extra := range body[1:] {
		c.errs.Errorf(extra.Pos(), codeTasksNest, "invalid statement after cuda_tasks loop: the only child of CudaDeviceFunction is a nest of cuda_tasks loops")
	}
	c.tasks(b, first)
	c.walkUnchecked(b, body[1:])
}

// walkUnchecked walks statements already reported as misplaced, so their
// bodies are still checked, with the top-level tiling.
//
// An empty body (every well-formed device function's: its one cuda_tasks
// loop walked apart) takes no scope: one that no statement is recorded
// in is never read (issue 13, stop 47: a scope made and copied in every
// check).
func (c *checker) walkUnchecked(s *Scope, body []syntax.Stmt) {
	if len(body) == 0 {
		return
	}
	if c.dev != nil && s.Tiling == nil {
		s = c.child(s, nil)
		s.Tiling = c.dev.Top
	}
	for _, st := range body {
		if f, ok := st.(*syntax.For); ok && f.Mode.Name == "cuda_tasks" {
			c.record(st, s)
			c.tasks(s, f)
			continue
		}
		c.stmt(s, st)
	}
}

// tasks walks one cuda_tasks loop of the nest. Statements inside the
// innermost task body run with the top-level collective (seed 000 §4: we
// ignore cuda_tasks loops, which distribute work across clusters).
func (c *checker) tasks(s *Scope, st *syntax.For) {
	c.record(st, s)
	c.reads(s, st, st.Lo)
	c.reads(s, st, st.Hi)
	for _, k := range st.Kwargs {
		c.errs.Errorf(k.Pos(), codeLoopMode, "cuda_tasks loop has no option %s", k.Name.Name)
	}
	b := c.child(s, st)
	b.setIter(st.Var.Name, nil)
	if c.dev != nil && c.dev.Top != nil {
		b.Tiling = c.dev.Top
	}
	if len(st.Body) == 1 {
		if f, ok := st.Body[0].(*syntax.For); ok && f.Mode.Name == "cuda_tasks" {
			c.tasks(b, f)
			return
		}
	}
	if b.Tiling == nil {
		// The launch shape is invalid (already reported): statements get
		// their timeline only.
		c.block(b, st.Body)
		return
	}
	c.block(b, st.Body)
}

// deviceArgs evaluates the launch parameters.
func (c *checker) deviceArgs(st *syntax.With, call *syntax.Call) *coll.DeviceFunction {
	if call == nil {
		c.errs.Errorf(st.Ctx.Pos(), codeDeviceArgs, "CudaDeviceFunction needs blockDim= or warp_config=")
		return nil
	}
	for _, a := range call.Args {
		c.errs.Errorf(a.Pos(), codeDeviceArgs, "CudaDeviceFunction takes keyword arguments (blockDim, clusterDim, blocks_per_sm, warp_config)")
		return nil
	}
	blockDim, clusterDim, perSM := 0, 1, 1
	var warps []coll.WarpConfig
	ok := true
	for _, k := range call.Kwargs {
		switch k.Name.Name {
		case "blockDim":
			blockDim, ok = c.launchConst(k.Value, "blockDim", ok)
		case "clusterDim":
			clusterDim, ok = c.launchConst(k.Value, "clusterDim", ok)
		case "blocks_per_sm":
			perSM, ok = c.launchConst(k.Value, "blocks_per_sm", ok)
		case "warp_config":
			w, wok := c.warpConfig(k.Value)
			if !wok {
				ok = false
			}
			warps = w
			if warps == nil {
				warps = []coll.WarpConfig{}
			}
		case "unsafe_no_shutdown_cluster_sync":
			// Exo's GPU branch; no effect on the collective analysis
			// (package check validates it, the code generator honours it).
		default:
			c.errs.Errorf(k.Pos(), codeDeviceArgs, "CudaDeviceFunction has no parameter %s (blockDim, clusterDim, blocks_per_sm, warp_config, unsafe_no_shutdown_cluster_sync)", k.Name.Name)
			ok = false
		}
	}
	if !ok {
		return nil
	}
	fn, err := coll.NewDeviceFunctionIn(blockDim, clusterDim, perSM, warps, c.deviceFnStore())
	if err != nil {
		c.errs.Errorf(st.Ctx.Pos(), codeDeviceArgs, "%v", err)
		return nil
	}
	if rm := c.room; rm != nil && fn == &rm.fn {
		rm.fnUsed = true
	}
	return fn
}

func (c *checker) launchConst(e syntax.Expr, what string, ok bool) (int, bool) {
	v, vok := c.constArg(e, what)
	return v, ok && vok
}

// warpConfig reads `[CudaWarpConfig(name, count, setmaxnreg_dec=...,
// setmaxnreg_inc=...), ...]`, inline or through a global.
func (c *checker) warpConfig(e syntax.Expr) ([]coll.WarpConfig, bool) {
	if n, ok := e.(*syntax.Name); ok {
		if v, ok := c.warpCf[n.Name]; ok {
			e = v
		}
	}
	list, ok := e.(*syntax.List)
	if !ok {
		c.errs.Errorf(e.Pos(), codeDeviceArgs, "warp_config must be a list of CudaWarpConfig(name, count, ...)")
		return nil, false
	}
	// One array for the list (its growth from one had been three
	// allocations of a three-role config; stop 38).
	out := make([]coll.WarpConfig, 0, len(list.Elems))
	good := true
	for _, el := range list.Elems {
		call, ok := el.(*syntax.Call)
		if !ok || call.FunName() != "CudaWarpConfig" {
			c.errs.Errorf(el.Pos(), codeDeviceArgs, "expected CudaWarpConfig(name, count, setmaxnreg_dec=..., setmaxnreg_inc=...)")
			good = false
			continue
		}
		args, problems := check.WarpConfigArgs(call)
		for _, p := range problems {
			c.errs.Errorf(p.Pos, codeDeviceArgs, "%s", p.Msg)
			good = false
		}
		if len(problems) > 0 {
			continue
		}
		name, ok := args[0].(*syntax.StringLit)
		if !ok {
			c.errs.Errorf(args[0].Pos(), codeDeviceArgs, "CudaWarpConfig name must be a string")
			good = false
			continue
		}
		w := coll.WarpConfig{Name: name.Value}
		vals := []*int{&w.Count, &w.Dec, &w.Inc}
		for i, a := range args[1:] {
			if a == nil {
				continue // None: no setmaxnreg
			}
			// The argument's name is made for the message only
			// (a concatenation per argument of every check; stop 38).
			v, ok := c.c.eval(a)
			if !ok {
				c.constArg(a, "CudaWarpConfig "+check.WarpConfigParams[i+1])
				good, v = false, 0
			}
			*vals[i] = int(v)
		}
		out = append(out, w)
	}
	return out, good
}

// cudaWarps checks `with CudaWarps(name=...)` and `with CudaWarps(lo, hi)`
// (seed 002 "Warp Specialization"): named blocks need a warp_config and a
// CTA not subdivided by cuda_threads; numbered blocks select warps [lo, hi)
// of the current collective and, when the device names its warps, appear
// inside a named block.
func (c *checker) cudaWarps(s *Scope, st *syntax.With, call *syntax.Call) {
	b := c.child(s, st)
	defer c.block(b, st.Body)
	if s.Tiling == nil {
		if s.Device == nil || s.Device.Top != nil {
			c.errs.Errorf(st.Ctx.Pos(), codeWarps, "CudaWarps can only appear within a CUDA device function's task body")
		} // else: the launch shape is invalid, already reported
		return
	}
	if call == nil {
		c.errs.Errorf(st.Ctx.Pos(), codeWarps, "CudaWarps needs name= or lo, hi")
		return
	}
	var loE, hiE, nameE syntax.Expr
	switch len(call.Args) {
	case 0:
	case 2:
		loE, hiE = call.Args[0], call.Args[1]
	default:
		c.errs.Errorf(st.Ctx.Pos(), codeWarps, "CudaWarps takes lo, hi and/or name=")
		return
	}
	for _, k := range call.Kwargs {
		switch k.Name.Name {
		case "name":
			nameE = k.Value
		case "lo":
			loE = k.Value
		case "hi":
			hiE = k.Value
		default:
			c.errs.Errorf(k.Pos(), codeWarps, "CudaWarps has no parameter %s (lo, hi, name)", k.Name.Name)
			return
		}
	}
	fn := s.Device.Fn
	lo, hi := -1, -1
	if loE != nil || hiE != nil {
		if loE == nil || hiE == nil {
			c.errs.Errorf(st.Ctx.Pos(), codeWarps, "CudaWarps needs both lo and hi")
			return
		}
		var ok1, ok2 bool
		lo, ok1 = c.constArg(loE, "CudaWarps lo")
		hi, ok2 = c.constArg(hiE, "CudaWarps hi")
		if !ok1 || !ok2 {
			return
		}
		if lo < 0 || hi <= lo {
			c.errs.Errorf(st.Ctx.Pos(), codeWarps, "CudaWarps(%d, %d): need 0 <= lo < hi", lo, hi)
			return
		}
	}
	if nameE == nil {
		if lo < 0 {
			c.errs.Errorf(st.Ctx.Pos(), codeWarps, "CudaWarps needs name= or lo, hi")
			return
		}
		if fn != nil && fn.Warps != nil && s.Warps == "" {
			c.errs.Errorf(st.Ctx.Pos(), codeWarps, "numbered CudaWarps blocks must appear as children of named CudaWarps blocks (this CudaDeviceFunction names its warps: %s)", fn.WarpNames())
			return
		}
		t, err := s.Tiling.CudaWarps(lo, hi)
		if err != nil {
			c.errs.Errorf(st.Ctx.Pos(), codeWarps, "%v", err)
			return
		}
		b.Tiling = t
		c.res.bodies.add(st, t)
		return
	}
	sl, ok := nameE.(*syntax.StringLit)
	if !ok {
		c.errs.Errorf(nameE.Pos(), codeWarps, "CudaWarps name must be a string")
		return
	}
	if fn == nil || fn.Warps == nil {
		c.errs.Errorf(nameE.Pos(), codeWarps, "CudaWarps(name=%q) needs a CudaDeviceFunction with warp_config", sl.Value)
		return
	}
	wlo, whi, ok := fn.WarpRange(sl.Value)
	if !ok {
		c.errs.Errorf(nameE.Pos(), codeWarps, "top-level CudaWarps must provide a valid warp name, not %q; your CudaDeviceFunction defines: %s", sl.Value, fn.WarpNames())
		return
	}
	if s.Warps != "" && s.Warps != sl.Value {
		c.errs.Errorf(nameE.Pos(), codeWarps, "nested CudaWarps cannot change warp name from %q to %q", s.Warps, sl.Value)
		return
	}
	if s.Warps != "" && lo < 0 {
		c.errs.Errorf(st.Ctx.Pos(), codeWarps, "nested CudaWarps must define lo and hi explicitly")
		return
	}
	if lo >= 0 {
		if hi > whi-wlo {
			c.errs.Errorf(st.Ctx.Pos(), codeWarps, "CudaWarps.hi=%d out of range for %q-named warps (only have %d)", hi, sl.Value, whi-wlo)
			return
		}
		wlo, whi = wlo+lo, wlo+hi
	}
	var t *coll.Tiling
	var err error
	if s.Warps != "" {
		t, err = s.Tiling.CudaWarps(lo, hi)
	} else {
		t, err = s.Tiling.NamedWarps(sl.Value, wlo, whi)
	}
	if err != nil {
		c.errs.Errorf(st.Ctx.Pos(), codeWarps, "%v", err)
		return
	}
	b.Tiling = t
	b.Warps = sl.Value
	c.res.bodies.add(st, t)
}
