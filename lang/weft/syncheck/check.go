package syncheck

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// Options configure Check.
type Options struct {
	// Sizes are NAME=VALUE from the command line. When empty, every
	// `# check: NAME=VALUE ...` line of the file is one run.
	Sizes map[string]int64
	// MaxHazards is the number of hazards reported in full per run
	// (default 10); the rest are counted.
	MaxHazards int
	// StopAfter ends each run at its StopAfter-th distinct hazard (0:
	// every run finishes); the verdict is the same, the occurrence
	// counts are those up to the stop.
	StopAfter int
	// RedundantSync reports each sync statement whose removal creates no
	// hazard at the checked sizes.
	RedundantSync bool
	// Progress, when set, is called as the top-level cuda_tasks loop
	// advances (done, total tasks) of run number run.
	Progress func(label string, done, total int64)
	// Proc selects the proc to check ("" : every non-instruction proc).
	Proc string
	// MaxMemOps bounds each run (0: no limit).
	MaxMemOps int64
	// MaxTasks, MaxCells and MaxMemory are the resource limits of each
	// run (amir.Config; 0: no limit). A run that reaches one ends with a
	// W0613 diagnostic naming the flag that raises it. The CLI's defaults
	// are DefaultMaxTasks, DefaultMaxCells and DefaultMaxMemory.
	MaxTasks, MaxCells, MaxMemory int64
	// Timed fills each Run's Elapsed (`weft check --sync-stats`). Off, a
	// run reads no clock: the two readings were 0.4% of a small check's
	// scope on this VM (issue 13, stop 46).
	Timed bool
}

// Default resource limits of `weft check` (issue 14): generous for real
// kernels (the Sm80 GEMM at 8192³ runs 2,730 tasks, holds 1.1 M cells and
// takes about 100 MB), small enough that a run that would exhaust the
// machine stops with a located diagnostic instead.
const (
	DefaultMaxTasks  = 1 << 24 // 16,777,216 tasks
	DefaultMaxCells  = 1 << 28 // 268,435,456 tracked cells (4 GiB of cells)
	DefaultMaxMemory = 2 << 30 // 2 GiB of machine state (the process peaks at up to about twice that)
)

// limitFlags names the command-line flag that raises each amir.Fault.Limit.
var limitFlags = map[string]string{
	"tasks":  "--max-tasks N",
	"cells":  "--max-cells N",
	"memory": "--max-memory BYTES",
}

// Run is one run of the machine for one set of sizes.
type Run struct {
	Proc    string
	Sizes   string // "N=768 M=768"
	Result  *amir.Result
	Elapsed time.Duration // with Options.Timed; else 0
	// Redundant lists the sync statements whose removal created no hazard
	// (with RedundantSync).
	Redundant []syntax.Stmt
}

// Directives returns the size assignments of the file's `# check:` lines,
// one map per line, in file order, and diagnostics for malformed ones.
//
// Only a line that holds "check:" can be one, so the lines are found from
// the occurrences of "check:" in the text (a search by bytes.Index) rather
// than by splitting the whole file: the line table it built was 6 to 7
// allocations and a pass over every byte of each check run without sizes
// (issue 13, stop 30). Lines are diag.File's: "\n", "\r\n" or a lone
// "\r" ends one. TestDirectivesMatchLines compares it with the line by
// line reading.
func Directives(src *diag.File, errs *diag.List) []map[string]int64 {
	var out []map[string]int64
	text := src.Text()
	for from := 0; ; {
		i := indexCheck(text, from)
		if i < 0 {
			break
		}
		// The line around i: after the last line end before it (a "\r"
		// met first going back is a lone one: a "\r\n" shows its "\n"
		// first), up to the next "\n" or "\r" (the "\r" of a "\r\n"
		// is not part of the line, as diag.File.Line leaves it out).
		start := strings.LastIndexAny(text[:i], "\r\n") + 1
		end := len(text)
		if j := strings.IndexAny(text[i:], "\r\n"); j >= 0 {
			end = i + j
		}
		from = end
		if m, ok := directive(src, text[start:end], start, errs); ok {
			out = append(out, m)
		}
	}
	return out
}

// indexCheck returns the first i >= from at which text holds "check:",
// or -1. It hops over the k's (strings.IndexByte) and compares the six
// bytes around each: every occurrence of "check:" at i has its k at i+4,
// so the k's at from+4 and after, in order, meet the occurrences at from
// and after, in order, and the first that matches is the first
// occurrence. strings.Index hopped over the c's, which a kernel holds
// about twice as many of as colons (cuda_..., collectives): 7 K
// instructions a check of the three-ring rows (issue 13, stop 40); the
// repository's kernels hold 2.6 times as many colons as k's (types,
// loops and blocks all end in one; rmem_uniform 19 colons, 4 k's), so
// the hops over the k's are fewer again (issue 13, stop 44).
func indexCheck(text string, from int) int {
	for j := from + 4; j < len(text); j++ {
		k := strings.IndexByte(text[j:], 'k')
		if k < 0 {
			return -1
		}
		j += k
		if j+2 <= len(text) && text[j-4:j+2] == "check:" {
			return j - 4
		}
	}
	return -1
}

// directive reads line (starting at offset start) as a `# check:` line;
// ok is false when it is not one or is malformed (reported to errs).
func directive(src *diag.File, line string, start int, errs *diag.List) (map[string]int64, bool) {
	t := strings.TrimSpace(line)
	if !strings.HasPrefix(t, "#") {
		return nil, false
	}
	t = strings.TrimSpace(strings.TrimPrefix(t, "#"))
	if !strings.HasPrefix(t, "check:") {
		return nil, false
	}
	m := map[string]int64{}
	ok := true
	for _, f := range strings.Fields(strings.TrimPrefix(t, "check:")) {
		k, v, found := strings.Cut(f, "=")
		n, err := strconv.ParseInt(v, 0, 64)
		if !found || k == "" || err != nil {
			errs.Errorf(src.At(start+strings.Index(line, f)), codeSizes, "malformed check directive %q: want NAME=INTEGER", f)
			ok = false
			continue
		}
		m[k] = n
	}
	return m, ok
}

func sizesString(names []string, vals []int) string {
	var parts []string
	for i, n := range names {
		parts = append(parts, fmt.Sprintf("%s=%d", n, vals[i]))
	}
	return strings.Join(parts, " ")
}

// Check converts every proc of f to AMIR and runs the abstract machine for
// the given sizes, appending hazards to errs. gpu is the collective
// analysis of f (it must have run without errors).
func Check(f *syntax.File, gpu *gpucheck.Result, l *lib.Library, opts Options, errs *diag.List) []*Run {
	var runs []*Run
	var src *diag.File
	for _, d := range f.Decls {
		if p, ok := d.(*syntax.Proc); ok && p.Pos().File != nil {
			src = p.Pos().File
			break
		}
	}
	if src == nil {
		return nil
	}
	sets := []map[string]int64{opts.Sizes}
	if len(opts.Sizes) == 0 {
		if ds := Directives(src, errs); len(ds) > 0 {
			sets = ds
		}
	}
	for _, d := range f.Decls {
		p, ok := d.(*syntax.Proc)
		if !ok || lib.IsInstr(p) || (opts.Proc != "" && p.Name.Name != opts.Proc) {
			continue
		}
		if !hasDeviceVia(p.Body, f, 0) {
			continue // nothing concurrent to check
		}
		before := countErrors(errs)
		prog := Convert(f, p, gpu, l, errs)
		if countErrors(errs) > before {
			continue // the conversion reported why
		}
		for _, set := range sets {
			vals := make([]int, len(prog.SizeParams))
			var missing []string
			for i, n := range prog.SizeParams {
				v, ok := set[n]
				if !ok {
					missing = append(missing, n)
				}
				vals[i] = int(v)
			}
			if len(missing) > 0 {
				errs.Warnf(p.Name.Pos(), codeSizes, "the sync check of %s was not run: it needs concrete sizes: give %s=... on the command line or a `# check: %s=...` line in the file",
					p.Name.Name, strings.Join(missing, "=... "), strings.Join(missing, "=... "))
				break
			}
			sizes := sizesString(prog.SizeParams, vals)
			if a := violatedAssert(p, set); a != nil {
				errs.Errorf(a.Pos(), codeVacuous, "the sync check of %s at %s would check nothing: assert %s is false at these sizes (give sizes that satisfy it)",
					p.Name.Name, sizesOr(sizes), syntax.ExprString(a.Cond))
				continue
			}
			run := runOne(prog, vals, opts, errs)
			runs = append(runs, run)
			if run.Result.Stats.Tasks == 0 && run.Result.OK() {
				errs.Errorf(p.Name.Pos(), codeVacuous, "the sync check of %s at %s checked nothing: no task ran at these sizes (give sizes at which the proc launches work)",
					p.Name.Name, sizesOr(sizes))
			}
		}
	}
	return runs
}

// hasDeviceVia is hasDevice, following calls of the procs of f (fileProc:
// a map of them had been made for each check, where most procs hold
// their device function and follow no call; issue 13, stop 41).
func hasDeviceVia(body []syntax.Stmt, f *syntax.File, depth int) bool {
	if hasDevice(body) {
		return true
	}
	if depth > 8 {
		return false
	}
	found := false
	var walk func([]syntax.Stmt)
	walk = func(b []syntax.Stmt) {
		for _, st := range b {
			switch st := st.(type) {
			case *syntax.CallStmt:
				if q := fileProc(f, st.Call.FunName()); q != nil && hasDeviceVia(q.Body, f, depth+1) {
					found = true
				}
			case *syntax.For:
				walk(st.Body)
			case *syntax.If:
				walk(st.Then)
				walk(st.Else)
			case *syntax.With:
				walk(st.Body)
			}
		}
	}
	walk(body)
	return found
}

func hasDevice(body []syntax.Stmt) bool {
	for _, st := range body {
		switch st := st.(type) {
		case *syntax.With:
			if c, ok := st.Ctx.(*syntax.Call); ok && c.FunName() == "CudaDeviceFunction" {
				return true
			}
			if hasDevice(st.Body) {
				return true
			}
		case *syntax.For:
			if hasDevice(st.Body) {
				return true
			}
		case *syntax.If:
			if hasDevice(st.Then) || hasDevice(st.Else) {
				return true
			}
		}
	}
	return false
}

func runOne(prog *Program, vals []int, opts Options, errs *diag.List) *Run {
	sizes := sizesString(prog.SizeParams, vals)
	cfg := amir.Config{MaxHazards: opts.MaxHazards, StopAfter: opts.StopAfter, MaxMemOps: opts.MaxMemOps,
		MaxTasks: opts.MaxTasks, MaxCells: opts.MaxCells, MaxMemory: opts.MaxMemory}
	label := prog.AMIR.Name
	if sizes != "" {
		label += " " + sizes
	}
	if opts.Progress != nil {
		cfg.Progress = func(done, total int64) { opts.Progress(label, done, total) }
	}
	var start time.Time
	if opts.Timed {
		start = time.Now()
	}
	res := amir.New(prog.AMIR, cfg).Run(vals)
	run := &Run{Proc: prog.AMIR.Name, Sizes: sizes, Result: res}
	if opts.Timed {
		run.Elapsed = time.Since(start)
	}
	report(prog, run, errs)
	if opts.RedundantSync && res.OK() {
		redundant(prog, vals, run, opts, errs)
	}
	return run
}

// Mutant runs prog with source sync statement i removed.
func Mutant(prog *Program, vals []int, i int) *amir.Result { return mutant(prog, vals, i, Options{}) }

func mutant(prog *Program, vals []int, i int, opts Options) *amir.Result {
	dis := make([]bool, len(prog.AMIR.Syncs))
	dis[i] = true
	return amir.New(prog.AMIR, amir.Config{MaxHazards: 1, Disabled: dis, StopAfter: 1, MaxMemOps: opts.MaxMemOps,
		MaxTasks: opts.MaxTasks, MaxCells: opts.MaxCells, MaxMemory: opts.MaxMemory}).Run(vals)
}

// redundant reruns the machine once per sync statement with that statement
// removed; a statement whose removal creates no hazard is reported. The
// verdict of the check does not change (these are warnings).
func redundant(prog *Program, vals []int, run *Run, opts Options, errs *diag.List) {
	needed := 0
	for i, st := range prog.Syncs {
		r := mutant(prog, vals, i, opts)
		if r.OK() {
			run.Redundant = append(run.Redundant, st)
			errs.Warnf(st.Pos(), codeRedundant, "%s is not needed at %s: removing it creates no hazard (a performance hint; other sizes may need it)",
				printStmt(st), sizesOr(run.Sizes))
		} else {
			needed++
		}
	}
	sort.Slice(run.Redundant, func(i, j int) bool { return run.Redundant[i].Pos().Offset < run.Redundant[j].Pos().Offset })
}

func sizesOr(s string) string {
	if s == "" {
		return "the checked sizes"
	}
	return s
}

func countErrors(errs *diag.List) int {
	n := 0
	for _, d := range errs.Diags {
		if d.Severity == diag.Error {
			n++
		}
	}
	return n
}
