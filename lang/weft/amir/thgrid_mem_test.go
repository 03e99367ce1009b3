package amir

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// TestGridRoomMatchesPlain: grid frames and plans whose lists live in
// their one allocation (thgrid_mem.go, plan_grid_mem.go) give the
// Result of frames and plans made as before (gridNoRoom) and of runs
// without grids, on every random program generator of the package, the
// moves' generator and the grid generator with changing ranges; every
// plan made is field for field the plain one, and its lists are capped
// at their lengths.
func TestGridRoomMatchesPlain(t *testing.T) {
	defer func() { gridNoRoom, gridVaryN = false, false }()
	gens := append(randomGens(), moveProgram, func(seed int64) *Program {
		gridVaryN = true
		defer func() { gridVaryN = false }()
		return randomGridProgram(seed)
	})
	var plans, roomy, frames int64
	for k, prog := range gens {
		for seed := int64(0); seed < 200; seed++ {
			label := fmt.Sprintf("generator %d seed %d", k, seed)
			ms := [3]*Machine{}
			for i := range ms {
				gridNoRoom = i == 1
				ms[i] = New(prog(seed), Config{MaxHazards: 100})
			}
			gridNoRoom = false
			ms[2].noGrid = true
			// Run each machine with its own setting (block plans are
			// made at the nest's first entry).
			out := make([]string, 3)
			for i, m := range ms {
				gridNoRoom = i == 1
				r := *m.Run(nil)
				r.Stats.Memory, r.Stats.SkippedOps = 0, 0
				out[i] = fmt.Sprintf("%+v", r)
				frames += m.gridRuns
			}
			gridNoRoom = false
			if out[0] != out[1] || out[0] != out[2] {
				t.Fatalf("%s: results differ:\nroom  %s\nplain %s\nfull  %s", label, out[0], out[1], out[2])
			}
			// The plans, made in room and plainly, compared.
			p0, p1 := ms[0].p, ms[1].p
			var s0, s1 []*Stmt
			Walk(p0.Body, func(s *Stmt) { s0 = append(s0, s) })
			Walk(p1.Body, func(s *Stmt) { s1 = append(s1, s) })
			if len(s0) != len(s1) {
				t.Fatalf("%s: %d and %d statements", label, len(s0), len(s1))
			}
			for i := range s0 {
				if (s0[i].Ctl == nil) != (s1[i].Ctl == nil) {
					t.Fatalf("%s: statement %d differs", label, i)
				}
				if s0[i].Ctl == nil {
					continue
				}
				a, b := s0[i].grid, s1[i].grid
				if (a == nil) != (b == nil) {
					t.Fatalf("%s: statement %d planned in one way only", label, i)
				}
				if a == nil || a.lazy {
					continue
				}
				plans++
				if !gridPlanCapped(a) {
					t.Fatalf("%s: statement %d: a list of the plan is not capped at its length", label, i)
				}
				if len(a.vars) <= gridRoomAccs && len(a.axes) <= gridRoomAxes && len(a.execs) <= gridRoomExecs && len(a.shapes) <= gridRoomExecs && len(a.box.loops) <= gridRoomLoops {
					roomy++
				}
				if why := samePlan(a, b, s0[i], s1[i]); why != "" {
					t.Fatalf("%s: statement %d: plans differ ("+why+"):\nroom  %+v\nplain %+v", label, i, *a, *b)
				}
			}
		}
	}
	t.Logf("%d plans compared (%d in room), %d grid frames", plans, roomy, frames)
	if plans < 1000 || roomy < 500 || plans-roomy < 30 || frames < 5000 {
		t.Fatalf("weak coverage: %d plans (%d in room), %d frames", plans, roomy, frames)
	}
}

// gridPlanCapped reports whether every list of pl is capped at its length.
func gridPlanCapped(pl *gridPlan) bool {
	return len(pl.execs) == cap(pl.execs) && len(pl.shapes) == cap(pl.shapes) &&
		len(pl.axes) == cap(pl.axes) && len(pl.steps) == cap(pl.steps) &&
		len(pl.accVar) == cap(pl.accVar) && len(pl.vars) == cap(pl.vars) &&
		len(pl.box.rng) == 2*len(pl.box.loops) && len(pl.box.rng) == cap(pl.box.rng)
}

// samePlan compares plans a and b of the same statement in two copies of
// one program (sa, sb): their statements are compared by position, the
// move info (made at a first entry) is left out.
func samePlan(a, b *gridPlan, sa, sb *Stmt) string {
	x, y := *a, *b
	x.mv, y.mv, x.mvDone, y.mvDone = nil, nil, false, false
	if len(x.axes) != len(y.axes) || len(x.box.loops) != len(y.box.loops) || len(x.box.accs) != len(y.box.accs) {
		return "1"
	}
	// The axes and loops are each copy's own statements: their slots.
	for i := range x.axes {
		if x.axes[i].Slot != y.axes[i].Slot {
			return "2"
		}
	}
	for i := range x.box.loops {
		if x.box.loops[i].Slot != y.box.loops[i].Slot {
			return "3"
		}
	}
	x.axes, y.axes = nil, nil
	bx, by := *x.box, *y.box
	bx.loops, by.loops = nil, nil
	bx.rng, by.rng = nil, nil // the ranges of the last entry
	for i := range bx.accs {
		if !reflect.DeepEqual(bx.accs[i].chain, by.accs[i].chain) || !reflect.DeepEqual(bx.accs[i].dims, by.accs[i].dims) || bx.accs[i].a.Var != by.accs[i].a.Var || len(bx.accs[i].a.Idx) != len(by.accs[i].a.Idx) {
			return "4"
		}
	}
	bx.accs, by.accs = nil, nil
	x.box, y.box = nil, nil
	if !reflect.DeepEqual(bx, by) {
		return "5"
	}
	x.execs, y.execs = nil, nil // Affines of each copy (compared below)
	for i := range a.execs {
		if a.execs[i].shape != b.execs[i].shape || !affEqual(a.execs[i].aff, b.execs[i].aff) {
			return "6"
		}
	}
	if len(a.execs) != len(b.execs) || (a.start == nil) != (b.start == nil) || a.start != nil && !affEqual(a.start, b.start) {
		return "7"
	}
	x.start, y.start = nil, nil
	// A variable's sources and checks: empty lists in the walk's room
	// (gridWalkMem) are the plain plan's nil ones.
	x.vars, y.vars = emptyListsNil(x.vars), emptyListsNil(y.vars)
	if !reflect.DeepEqual(x, y) {
		rx, ry := reflect.ValueOf(x), reflect.ValueOf(y)
		for i := 0; i < rx.NumField(); i++ {
			if !reflect.DeepEqual(fmt.Sprintf("%#v", rx.Field(i)), fmt.Sprintf("%#v", ry.Field(i))) {
				panic(rx.Type().Field(i).Name)
			}
		}
		return "8"
	}
	return ""
}

// emptyListsNil returns a copy of vars whose empty sources and checks
// lists are nil.
func emptyListsNil(vars []gridVar) []gridVar {
	vars = slices.Clone(vars)
	for i := range vars {
		if len(vars[i].srcs) == 0 {
			vars[i].srcs = nil
		}
		if len(vars[i].checks) == 0 {
			vars[i].checks = nil
		}
	}
	return vars
}

// TestNewGridRTRoom: a frame's variables and axes lists have the plan's
// sizes whether or not they fit the frame's room, and two frames share
// nothing.
func TestNewGridRTRoom(t *testing.T) {
	for nv := 0; nv <= gridRTVarsIn+2; nv++ {
		for na := 0; na <= gridRTAxesIn+2; na++ {
			pl := &gridPlan{vars: make([]gridVar, nv), axes: make([]*Stmt, na)}
			nest := &gridNest{}
			g1, g2 := newGridRT(nest, pl, 1), newGridRT(nest, pl, 1)
			for _, g := range []*gridRT{g1, g2} {
				if len(g.vars) != 0 || cap(g.vars) != nv || len(g.los) != na || g.pl != pl || g.task != 1 {
					t.Fatalf("nv %d na %d: vars %d/%d los %d", nv, na, len(g.vars), cap(g.vars), len(g.los))
				}
			}
			for i := 0; i < nv; i++ {
				g1.vars = append(g1.vars, gridVarRT{trans: true})
				g2.vars = append(g2.vars, gridVarRT{})
			}
			for k := range g1.los {
				g1.los[k] = k + 1
			}
			for i := range g2.vars {
				if g2.vars[i].trans {
					t.Fatalf("nv %d: two frames share their variables", nv)
				}
			}
			for k := range g2.los {
				if g2.los[k] != 0 {
					t.Fatalf("na %d: two frames share their axes", na)
				}
			}
		}
	}
}
