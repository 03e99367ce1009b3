package driver

import (
	"flag"
	"fmt"
	"time"

	"github.com/schollz/progressbar/v3"

	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syncheck"
)

// The sync checker (seed 000 §5): converts each proc to the abstract
// machine IR and runs it for the sizes given as NAME=VALUE arguments or by
// `# check: NAME=VALUE` lines of the file.
var (
	syncMaxHazards    int
	syncStopAfter     int
	syncRedundantSync bool
	syncStats         bool
	syncMaxTasks      int64
	syncMaxCells      int64
	syncMaxMemory     frontend.ByteSize
)

func init() {
	RegisterChecker(Checker{
		Name:     "sync",
		Order:    40,
		Defaults: syncDefaults,
		Flags: func(fs *flag.FlagSet) {
			syncDefaults()
			fs.IntVar(&syncMaxHazards, "max-hazards", 10, "sync check: hazards reported in full per run (the rest are counted)")
			fs.IntVar(&syncStopAfter, "stop-after", 0, "sync check: end each run at its Nth distinct hazard, as the reference implementation stops at its first (0: finish the run; the verdict is the same, the counts then cover the run up to the stop)")
			fs.BoolVar(&syncRedundantSync, "redundant-sync", false, "sync check: report each sync statement whose removal creates no hazard at the checked sizes")
			fs.Int64Var(&syncMaxTasks, "max-tasks", syncheck.DefaultMaxTasks, "sync check: stop with W0613, before running them, when the cuda_tasks loops of a run would launch more than N tasks (0: no limit)")
			fs.Int64Var(&syncMaxCells, "max-cells", syncheck.DefaultMaxCells, "sync check: stop with W0613, at the allocation, when the variables live together would have more than N tracked cells (blocks of elements the checker tracks; 16 bytes each) (0: no limit)")
			fs.Var(&syncMaxMemory, "max-memory", "`BYTES`: sync check: stop with W0613 when the abstract machine's state (cells, visibility records, the sync event log; estimated from their allocated sizes) would take more than BYTES (0: no limit)")
			fs.BoolVar(&syncStats, "sync-stats", false, "sync check: print memory operations, records, events and time of each run to stdout")
		},
		Run: runSyncCheck,
	})
}

// syncDefaults sets the sync check's flag variables to the defaults its
// flags declare.
func syncDefaults() {
	syncMaxHazards, syncStopAfter, syncRedundantSync, syncStats = 10, 0, false, false
	syncMaxTasks, syncMaxCells = syncheck.DefaultMaxTasks, syncheck.DefaultMaxCells
	syncMaxMemory = frontend.ByteSize(syncheck.DefaultMaxMemory)
}

func runSyncCheck(ctx *CheckContext) {
	l, err := lib.Std()
	if err != nil {
		fmt.Fprintf(ctx.Env.Stderr, "weft: standard library: %v\n", err)
		return
	}
	gpu := ctx.gpu
	if gpu == nil {
		gpu = gpucheck.Check(ctx.File, gpucheck.Options{Lib: l, Sizes: ctx.Sizes}, ctx.Errs)
		if ctx.Errs.HasErrors() {
			return
		}
	}
	opts := syncheck.Options{Sizes: ctx.Sizes, MaxHazards: syncMaxHazards, StopAfter: syncStopAfter, RedundantSync: syncRedundantSync,
		MaxTasks: syncMaxTasks, MaxCells: syncMaxCells, MaxMemory: int64(syncMaxMemory), Timed: syncStats}
	// The progress state is made only where a bar can show: captured by
	// a closure, its variables were two allocations of every check
	// (stop 32).
	var prog *syncProgress
	if ctx.Env.StderrIsTerminal {
		prog = &syncProgress{env: ctx.Env}
		opts.Progress = prog.update
	}
	runs := syncheck.Check(ctx.File, gpu, l, opts, ctx.Errs)
	if prog != nil && prog.bar != nil {
		prog.bar.Finish()
	}
	for _, r := range runs {
		if !ctx.WantSummary {
			break
		}
		s := r.Result.Stats
		verdict := "no hazard"
		if !r.Result.OK() {
			verdict = fmt.Sprintf("%d hazards", r.Result.Distinct)
		}
		ctx.Summary = append(ctx.Summary, fmt.Sprintf("%s at %s: sync check of %d tasks, %d memory ops: %s", r.Proc, sizesOr(r.Sizes), s.Tasks, s.MemOps, verdict))
	}
	if syncStats {
		for _, r := range runs {
			s := r.Result.Stats
			secs := r.Elapsed.Seconds()
			rate := 0.0
			if secs > 0 {
				rate = float64(s.MemOps) / secs
			}
			fmt.Fprintf(ctx.Env.Stdout, "sync check %s %s: %d memory ops, %d records, %d sync events, %d tasks, %.3fs (%.1fM memory ops/s), %d hazards, state %.1f MB\n",
				r.Proc, r.Sizes, s.MemOps, s.Records, s.Events, s.Tasks, secs, rate/1e6, r.Result.Distinct, float64(s.Memory)/1e6)
		}
	}
}

// syncProgress is the sync check's progress bar on a terminal: a bar
// only for checks that take more than a second.
type syncProgress struct {
	env     *frontend.Env
	bar     *progressbar.ProgressBar
	started time.Time
}

func (p *syncProgress) update(label string, done, total int64) {
	if p.started.IsZero() || done == 0 {
		p.started = time.Now()
		if p.bar != nil {
			p.bar.Finish()
			p.bar = nil
		}
	}
	if p.bar == nil && time.Since(p.started) > time.Second {
		p.bar = progressbar.NewOptions64(total, progressbar.OptionSetWriter(p.env.Stderr),
			progressbar.OptionSetDescription("sync check "+label), progressbar.OptionShowCount(),
			progressbar.OptionClearOnFinish(), progressbar.OptionThrottle(100*time.Millisecond))
	}
	if p.bar != nil {
		p.bar.Set64(done)
	}
}

func sizesOr(s string) string {
	if s == "" {
		return "its only configuration"
	}
	return s
}
