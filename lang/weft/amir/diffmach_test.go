package amir

import (
	"fmt"
	"os"
	"strconv"
	"testing"
)

// A differential comparison of a fast path against the plain paths it
// replaces (issue 13, stop 31: the block-grid and kept-variable tests of
// stop 30 each wrote this loop out again). Every machine runs its own
// build of one program; the first is the path under test, the others
// have a switch that turns it off. The Results must be identical but for
// the memory estimate and the skipped-operation count, which a fast path
// changes by design.

// diffMachines is one program's machines, named for the messages.
type diffMachines struct {
	names []string
	ms    []*Machine
}

// newDiff builds mk's program once per name and lets setup switch
// machine i's paths (machine 0, the path under test, is left alone).
func newDiff(mk func() *Program, names []string, setup func(i int, m *Machine)) *diffMachines {
	d := &diffMachines{names: names}
	for i := range names {
		m := New(mk(), Config{MaxHazards: 100})
		if i > 0 {
			setup(i, m)
		}
		d.ms = append(d.ms, m)
	}
	return d
}

// blockGridDiff: block grids (thgrid_blk.go) against no grid symmetry and
// against slabs built when each nest ends.
func blockGridDiff(mk func() *Program) *diffMachines {
	return newDiff(mk, []string{"block grid", "full", "eager"}, func(i int, m *Machine) {
		if i == 1 {
			m.noGrid = true
		} else {
			m.gridDefer = false
		}
	})
}

// keepDiff: whole-variable statements kept virtual (thkeep.go) against
// materializing the variable first and against no thread symmetry.
func keepDiff(mk func() *Program) *diffMachines {
	return newDiff(mk, []string{"kept", "materialized", "full"}, func(i int, m *Machine) {
		if i == 1 {
			m.thsymNoKeep = true
		} else {
			m.noThreadSym = true
		}
	})
}

// run runs every machine once (a machine's second run starts from the
// same program: Run resets the state) and fails t, naming the run by
// label, unless the Results agree. It returns the first machine's Result.
func (d *diffMachines) run(t testing.TB, label string) Result {
	t.Helper()
	var first Result
	var outs []string
	for i, m := range d.ms {
		r := *m.Run(nil)
		if i == 0 {
			first = r
		}
		r.Stats.Memory, r.Stats.SkippedOps = 0, 0
		outs = append(outs, fmt.Sprintf("%+v", r))
	}
	for i := 1; i < len(outs); i++ {
		if outs[i] != outs[0] {
			msg := label + ":"
			for j, o := range outs {
				msg += fmt.Sprintf("\n%-12s %s", d.names[j], o)
			}
			t.Fatal(msg)
		}
	}
	return first
}

// runs is run twice on the same machines (labels "<label> run 0", "run
// 1"): the second run must find no state left by the first.
func (d *diffMachines) runs(t testing.TB, label string) Result {
	t.Helper()
	r := d.run(t, label+" run 0")
	d.run(t, label+" run 1")
	return r
}

// blockGridSeeds compares block grids with their plain paths
// (blockGridDiff, two runs each) on randomBlockProgram(seed, edges) for
// the n seeds from first, and returns the block grid runs.
func blockGridSeeds(t *testing.T, first, n int64, edges bool) int64 {
	t.Helper()
	var runs int64
	for seed := first; seed < first+n; seed++ {
		d := blockGridDiff(func() *Program { return randomBlockProgram(seed, edges) })
		d.runs(t, fmt.Sprintf("seed %d", seed))
		runs += d.ms[0].gridRuns
	}
	return runs
}

// EnvCount is the environment variable name as a count (the larger runs
// of a seed test), or def where it is unset or no number.
func EnvCount(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil {
		return n
	}
	return def
}
