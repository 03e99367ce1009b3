package cudagen

import (
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/syntax"
)

// Under weft check the GPU checker has derived, before the generator
// runs, the tiling of every device function (its top-level collective)
// and of every cuda_threads loop's body (gpucheck.Result.Body); the
// generator's CheckOnly pass derived them all again, a tiling of about
// 1.2 KB per loop and a third of the GPU checker's time on small kernels
// (issue 13, stop 30). With Options.GPU it takes them instead:
//
//   - a device function's top-level tiling is the checker's for the same
//     statement and launch shape;
//   - a cuda_threads loop's body is the checker's when the loop's scope
//     is the checker's tiling (ctx.shared) and the checker derived the
//     body from it, with the same trip count and unit: the derivation is
//     a pure function of these (package coll), so it is the tiling the
//     generator would derive, but for the iterator's id;
//   - CudaWarps blocks derive from a shared scope as before, and coll's
//     memo returns the checker's tiling for the same arguments.
//
// The iterator ids are labels: the generator counts its own (the
// checker's differ) and reads a tiling's ids only to find an iterator's
// term (recordCTAPitch, through sym.tIter, the id in the tilings) and in
// the text of a failed unit match (the "starting at thread 64 + 128*i1"
// of an instruction's W0908). So the generation is the same but for that
// text. Where a tiling cannot be taken under a shared scope (the checker
// has none for the loop, or another one: an inlined proc's loop reached
// from two scopes), or a unit match under a shared scope fails, the pass
// sets shareMiss and runPasses generates again without Options.GPU.
// TestSharedTilingsMatchDerived compares the diagnostics with and without
// it on every program and variant of the differential corpus.

// shareFrom takes opt.GPU for a CheckOnly pass.
func (g *gen) shareFrom(opt Options) {
	if opt.CheckOnly {
		g.gpu = opt.GPU
	}
}

// sharedTop is the GPU checker's top-level tiling of the device function
// s for launch shape m, or nil.
func (g *gen) sharedTop(s *syntax.With, m coll.Machine) *coll.Tiling {
	if g.gpu == nil {
		return nil
	}
	for _, d := range g.gpu.Devices {
		if d.Stmt == s && d.Top != nil && d.Top.M == m {
			return d.Top
		}
	}
	return nil
}

// sharedBody is the GPU checker's tiling of the body of the cuda_threads
// loop s with trip count hi and unit u in the scope ctx.cur, or nil when
// ctx.cur is not shared or the checker's is not that derivation (the
// latter sets shareMiss). resolves reports whether u resolves on the
// device function's machine ctx.d.m (u.Threads succeeded).
func (g *gen) sharedBody(ctx *devCtx, s *syntax.For, hi int, u *coll.Unit, resolves bool) *coll.Tiling {
	if !ctx.shared {
		return nil
	}
	b := g.gpu.BodyAt(s, &g.bodyCur)
	if b == nil || b.Parent != ctx.cur || b.Kind != coll.KindThreads || b.Count != hi || !sameUnitOn(&b.Unit, u, b.M, ctx.d.m, resolves) {
		g.shareMiss = true
		return nil
	}
	return b
}

// sameUnitOn is coll.SameOn(a, u, m), where resolves says whether u
// resolves on machine du (its Threads succeeded). SameOn resolves both
// units; the threads loop has resolved u once already for its thread
// count, and the two more resolutions were a tenth of the CheckOnly pass
// on per_cta_alloc (issue 13, stop 36). The checker's unit a is the
// loop's own unit evaluated by the checker, its coordinates resolved to
// constants (256 where u has blockDim): when the name, the scale, the
// lengths and every coordinate's value on m are the same (a wildcard's
// value is -1), a's and u's resolutions read the same values and lengths
// and take the same checks (coll.Unit.resolveInto reads nothing else), so
// SameOn is whether u resolves. Any other case is SameOn's to decide.
// TestSameUnitOnMatchesSameOn compares it with SameOn.
func sameUnitOn(a, u *coll.Unit, m, du coll.Machine, resolves bool) bool {
	if m != du || a.Name != u.Name || a.Scale != u.Scale || len(a.Domain) != len(u.Domain) || len(a.Box) != len(u.Box) ||
		!sameSyms(a.Domain, u.Domain, m) || !sameSyms(a.Box, u.Box, m) {
		return coll.SameOn(a, u, m)
	}
	return resolves
}

// sameSyms reports whether the coordinates a and b (of one length) have
// the same values on m, each valid.
func sameSyms(a, b []coll.Sym, m coll.Machine) bool {
	for i := range a {
		x, err := a[i].Eval(m)
		if err != nil {
			return false
		}
		if a[i] == b[i] {
			continue
		}
		y, err := b[i].Eval(m)
		if err != nil || x != y {
			return false
		}
	}
	return true
}

// sharedFn is the GPU checker's launch configuration of the device
// function whose CudaDeviceFunction call is c, when the checker built it
// from the same arguments without a warp_config, or nil. The checker made
// it with coll.NewDeviceFunction(blockDim, clusterDim, bps, nil), which
// succeeded and, without warps, holds its arguments as they are: the
// same call here would succeed with an equal value (it is a pure
// function), and the generator only reads it. So the allocation of a new
// one is skipped under weft check (issue 13, stop 36). A warp_config
// (whose blockDim the call computes) takes the call.
func (g *gen) sharedFn(c *syntax.Call, blockDim, clusterDim, bps int, warps []coll.WarpConfig) *coll.DeviceFunction {
	if g.gpu == nil || warps != nil {
		return nil
	}
	for _, d := range g.gpu.Devices {
		if s, ok := d.Stmt.Ctx.(*syntax.Call); !ok || s != c {
			continue
		}
		if fn := d.Fn; fn != nil && fn.Warps == nil && fn.BlockDim == blockDim && fn.ClusterDim == clusterDim && fn.BlocksPerSM == bps {
			return fn
		}
		return nil
	}
	return nil
}
