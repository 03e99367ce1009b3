package driver

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"weft.dev/weft/diag"
	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/audala/check"
	"weft.dev/weft/lang/audala/cudagen"
	"weft.dev/weft/lang/audala/initfile"
	"weft.dev/weft/lang/audala/interp"
	"weft.dev/weft/lang/audala/syntax"
	"weft.dev/weft/safeio"
)

func init() {
	frontend.Register(&frontend.FrontEnd{
		Name:       "audala",
		Extensions: []string{".adl"},
		Summary:    "AuDaLa, the data-autonomous language: checker, parallel interpreter (relaxed semantics), CUDA compiler",
		Check:      checkVerb,
		Run:        runVerb,
		Build:      buildVerb,
		Fmt:        fmtVerb,
		Help:       help,
	})
}

// help prints the synopsis of verb for .adl files, then the flags the
// verb declares (it is run with -help, which prints them and stops).
func help(w io.Writer, verb string) {
	var v frontend.Verb
	switch verb {
	case "check":
		v = checkVerb
		fmt.Fprintln(w, `weft check FILE.adl [flags]
  parse and validate (thesis Table 2, E001-E012); exit 1 on an error`)
	case "run":
		v = runVerb
		fmt.Fprintln(w, `weft run FILE.adl [INPUT.init] [flags]
  run the schedule on the CPU, in parallel over instances (S.print in the schedule prints
  them); INPUT.init holds the initial instances (without it only the null instances exist)`)
	case "build":
		v = buildVerb
		fmt.Fprintln(w, `weft build FILE.adl -o DIR [flags]
  compile to one self-contained CUDA file DIR/FILE.cu (its main reads an .init file)`)
	case "fmt":
		v = fmtVerb
		fmt.Fprintln(w, `weft fmt FILE.adl [flags]
  print the program canonically (comments kept)`)
	default:
		return
	}
	v(&frontend.Env{Stdout: w, Stderr: w}, []string{"-help"})
}

type common struct {
	fs     *flag.FlagSet
	asJSON bool
}

func load(env *frontend.Env, path string, diags *diag.List) (*check.Program, bool) {
	f, ok := frontend.ReadSource(env, path)
	if !ok {
		return nil, false
	}
	return interp.Load(f, diags), true
}

func checkVerb(env *frontend.Env, args []string) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "diagnostics as JSON on stdout")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		return frontend.Usagef(env, "usage: weft check FILE.adl [flags] (weft help check .adl)")
	}
	var diags diag.List
	if _, ok := load(env, pos[0], &diags); !ok {
		return 2
	}
	return frontend.Report(env, &diags, *asJSON)
}

func runVerb(env *frontend.Env, args []string) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "diagnostics as JSON on stdout")
	sem := fs.String("semantics", "relaxed", "`relaxed|strict`: the thesis's relaxed, incoherent semantics, or the original sequentially consistent one")
	workers := fs.Int("workers", 0, "goroutines (0: all cores); 1 is sequential and deterministic")
	maxIter := fs.Int("max-iterations", DefaultMaxIterations, "stop a fixpoint after N iterations with error A0203 (0: no limit)")
	maxInst := fs.Int("max-instances", initfile.DefaultMaxInstances, "at most N instances per struct: error A0305 in the .init file, A0204 at run time (0: 2^31-1)")
	stats := fs.Bool("stats", false, "print steps and fixpoint iterations to stderr")
	profile := fs.Bool("profile", false, "print to stderr where the wall time went: load, run, the parallel regions, the serial rest and its share, the workers' idle share, and the Amdahl bound on 2 workers from the serial share (docs/audala.md, Scaling)")
	lockstep := fs.Bool("lockstep", false, "relaxed semantics in lockstep (thesis Fig. 2): reads see the step's initial values, writes land at the step boundary; by default a relaxed run executes in place, another legal execution")
	order := fs.String("order", "batch", "`batch|label|reverse|random`: batch runs batches of labels statement by statement on --workers; label, reverse and random run the instances one after another in that order (other legal executions; they imply --workers=1)")
	seed := fs.Uint64("seed", 1, "seed of --order=random")
	dump := fs.Bool("dump", false, "after the schedule print every struct (as S.print, declaration order), as the compiled program's --dump does")
	timeIt := fs.Bool("time", false, "print `Total walltime CPU: %0.6f ms` to stderr: the schedule's wall time (the .init file's loading excluded)")
	unstable := fs.Bool("printunstable", false, "print to stderr, per parameter and constructor, the writes inside fixpoints that cleared stability (`unstable: Node.reachable 3`; docs/audala.md)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 2
	}
	if !frontend.NonNegative(env, fs, "workers", "max-iterations", "max-instances") {
		return 2
	}
	if len(pos) < 1 || len(pos) > 2 {
		return frontend.Usagef(env, "usage: weft run FILE.adl [INPUT.init] [flags] (weft help run .adl)")
	}
	s, ok := interp.ParseSemantics(*sem)
	if !ok {
		return frontend.Usagef(env, "unknown --semantics=%s (want relaxed or strict)", *sem)
	}
	ord, ok := interp.ParseOrder(*order)
	if !ok {
		return frontend.Usagef(env, "unknown --order=%s (want batch, label, reverse or random)", *order)
	}
	if ord != interp.BatchOrder {
		*workers = 1 // another order is another sequential execution
	}
	var diags diag.List
	prog, ok := load(env, pos[0], &diags)
	if !ok {
		return 2
	}
	if prog == nil {
		return frontend.Report(env, &diags, *asJSON)
	}
	var data *initfile.Data
	if len(pos) == 2 {
		f, ok := frontend.ReadSource(env, pos[1])
		if !ok {
			return 2
		}
		if data = initfile.ParseLimit(f, prog, &diags, *maxInst); data == nil {
			return frontend.Report(env, &diags, *asJSON)
		}
	}
	if len(prog.Cpp) > 0 {
		// The interpreter cannot execute CUDA text: one warning, naming
		// the first `$$` line, for all of them.
		first := prog.Cpp[0]
		more := ""
		if n := len(prog.Cpp); n > 1 {
			more = fmt.Sprintf(" (and %d more $$ lines)", n-1)
		}
		diags.Warnf(first.Pos, "A0205", "inline C++ skipped: `$$%s`%s; weft run cannot execute CUDA/C++ text (weft build copies it)", first.Text, more)
	}
	m := interp.New(prog, data, interp.Options{Semantics: s, Workers: *workers, MaxIterations: *maxIter, MaxInstances: *maxInst, Out: env.Stdout, Order: ord, Seed: *seed, PrintUnstable: *unstable, Lockstep: *lockstep})
	t0 := time.Now()
	stop := frontend.Progress(env, "weft run "+pos[0])
	err = m.Run()
	stop()
	if *timeIt {
		fmt.Fprintf(env.Stderr, "Total walltime CPU: %0.6f ms\n", float64(time.Since(t0).Nanoseconds())/1e6)
	}
	m.WriteUnstable(env.Stderr)
	if err == nil && *dump {
		err = m.Dump()
	}
	if *stats {
		fmt.Fprintf(env.Stderr, "steps=%d iterations=%d\n", m.Stats.Steps, m.Stats.Iterations)
	}
	if *profile {
		writeProfile(env.Stderr, &m.Stats, m.Workers())
	}
	if err != nil {
		if re, ok := err.(*interp.RuntimeError); ok {
			diags.Add(re.Diagnostic())
			return frontend.Report(env, &diags, *asJSON)
		}
		fmt.Fprintf(env.Stderr, "weft: %v\n", err)
		return 2
	}
	return frontend.Report(env, &diags, *asJSON)
}

func fmtVerb(env *frontend.Env, args []string) int {
	fs := flag.NewFlagSet("fmt", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "diagnostics as JSON on stdout")
	write := fs.Bool("w", false, "rewrite the file in place instead of printing to stdout")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		return frontend.Usagef(env, "usage: weft fmt FILE.adl [flags] (weft help fmt .adl)")
	}
	f, ok := frontend.ReadSource(env, pos[0])
	if !ok {
		return 2
	}
	var diags diag.List
	prog := syntax.Parse(f, &diags)
	if prog == nil {
		return frontend.Report(env, &diags, *asJSON)
	}
	out := syntax.Print(prog)
	if *write {
		if !frontend.WriteFile(env, pos[0], []byte(out)) {
			return 2
		}
		return 0
	}
	io.WriteString(env.Stdout, out)
	return 0
}

// DefaultMaxIterations is the default of `weft run --max-iterations`: a
// fixpoint that has not stabilised after a million iterations is taken to
// diverge (issue 14: every interpreter has a default limit).
const DefaultMaxIterations = 1000000

func buildVerb(env *frontend.Env, args []string) int {
	fs := flag.NewFlagSet("build", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	asJSON := fs.Bool("json", false, "diagnostics as JSON on stdout")
	outDir := fs.String("o", "", "`DIR`: the output directory (created if needed; writes DIR/FILE.cu)")
	strategy := fs.String("schedule-strategy", "graph", "`graph|host|grid`: a CUDA graph with conditional while nodes, host-driven kernel launches, or one cooperative kernel with grid syncs")
	memorder := fs.String("memorder", "relaxed", "`relaxed|ra|sc`: memory order of racing parameter accesses")
	onrp := fs.Bool("onrp", true, "weak loads and stores for non-racing parameters (--onrp=false turns them off)")
	capacity := fs.String("capacity", "", "`Struct=N,...`: instance capacity of structs that grow (default 2*(initial instances)+1024)")
	timeIt := fs.Bool("time", false, "the program prints `Total walltime GPU: %0.6f ms` on stderr (CUDA events around the schedule, as AuDaLaC's --time)")
	unstable := fs.Bool("printunstable", false, "the program counts the writes inside fixpoints that cleared stability and prints them on stderr as `weft run --printunstable` does")
	fixpoint := fs.String("fixpoint", "simple", "`simple|rotating`: fixpoint strategy; rotating (thesis Fig. 17, --schedule-strategy=grid only) needs one grid sync per iteration instead of three")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 || *outDir == "" {
		return frontend.Usagef(env, "usage: weft build FILE.adl -o DIR [flags] (weft help build .adl)")
	}
	opt := cudagen.Options{ONRP: *onrp, Capacity: map[string]int{}, Time: *timeIt, PrintUnstable: *unstable}
	st, ok := cudagen.ParseStrategy(*strategy)
	if !ok {
		return frontend.Usagef(env, "unknown --schedule-strategy=%s (want graph, host or grid)", *strategy)
	}
	mo, ok := cudagen.ParseMemOrder(*memorder)
	if !ok {
		return frontend.Usagef(env, "unknown --memorder=%s (want relaxed, ra or sc)", *memorder)
	}
	opt.Strategy, opt.MemOrder = st, mo
	switch *fixpoint {
	case "simple":
	case "rotating":
		if st != cudagen.Grid {
			return frontend.Usagef(env, "--fixpoint=rotating needs --schedule-strategy=grid")
		}
		opt.Rotating = true
	default:
		return frontend.Usagef(env, "unknown --fixpoint=%s (want simple or rotating)", *fixpoint)
	}
	if *capacity != "" {
		for _, kv := range strings.Split(*capacity, ",") {
			var name string
			var n int
			k, v, found := strings.Cut(kv, "=")
			if _, err := fmt.Sscanf(v, "%d", &n); !found || err != nil || n < 1 {
				return frontend.Usagef(env, "bad --capacity entry %q (want Struct=N)", kv)
			}
			name = k
			opt.Capacity[name] = n
		}
	}
	var diags diag.List
	prog, ok := load(env, pos[0], &diags)
	if !ok {
		return 2
	}
	if prog == nil {
		return frontend.Report(env, &diags, *asJSON)
	}
	for name := range opt.Capacity {
		if prog.StructByName(name) == nil {
			return frontend.Usagef(env, "--capacity names unknown struct %s", name)
		}
	}
	src := cudagen.Generate(prog, opt, &diags)
	if src == "" {
		return frontend.Report(env, &diags, *asJSON)
	}
	base := strings.TrimSuffix(filepath.Base(pos[0]), filepath.Ext(pos[0]))
	out := filepath.Join(*outDir, base+".cu")
	if !frontend.WriteOutputs(env, *outDir, []safeio.Output{{Name: base + ".cu", Data: []byte(src)}}) {
		return 2
	}
	fmt.Fprintf(env.Stderr, "wrote %s\n", out)
	return frontend.Report(env, &diags, *asJSON)
}

// writeProfile writes the --profile line: times in milliseconds, the
// serial share of load+run, the workers' idle share of the parallel
// regions, and the Amdahl bound 1/(s + (1-s)/2) from the serial share s
// (meaningful with --workers=1, where the parallel regions are the work
// more workers would share).
func writeProfile(w io.Writer, st *interp.Stats, workers int) {
	ms := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
	total := st.Load + st.Wall
	serial, idle := 0.0, 0.0
	if total > 0 {
		serial = 100 * float64(st.Serial()) / float64(total)
	}
	if st.Parallel > 0 {
		idle = 100 * (1 - float64(st.Busy)/float64(st.Parallel*time.Duration(workers)))
	}
	fmt.Fprintf(w, "profile: workers=%d load=%.3fms run=%.3fms parallel=%.3fms steps=%d/%d serial=%.3fms (%.2f%%) idle=%.2f%% amdahl2=%.3f\n",
		workers, ms(st.Load), ms(st.Wall), ms(st.Parallel), st.ParallelSteps, st.Steps, ms(st.Serial()), serial, idle, st.Amdahl(2))
}
