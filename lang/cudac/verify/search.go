package verify

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"weft.dev/weft/diag"
	"weft.dev/weft/gpu"
	"weft.dev/weft/lang/cudac/sem"
	"weft.dev/weft/lang/cudac/syntax"
)

// Options says what of the search is fixed. A field left zero is explored.
type Options struct {
	Kernel      string            // "": the first kernel
	Grid, Block *gpu.Dim3         // nil: explored (header or portfolio)
	Args        map[string]string // scalar parameters fixed by --arg
	Blocks      []int             // nil: chosen per shape
	NondetSeed  *int64            // nil: 0, then 1 and 2 (sem.SmallNondetSeed) when the file has bodiless functions
	Random      *int64            // buffers filled from this seed; nil: zeros (then random once)
	Shmem       int
	BufferSize  int  // bytes per pointer parameter at the start (0: one element per thread)
	MaxConfigs  int  // 0: DefaultMaxConfigs
	MaxThreads  int  // threads run per configuration (0: DefaultMaxThreads)
	Check       bool // race detection (weft check); false: weft run, one configuration
	Quantum     int
	MaxSteps    uint64
	Stdout      io.Writer
	Stderr      io.Writer
	ReadFile    func(string) ([]byte, error)
	Header      Header
	// Deadline bounds the whole search's wall time (zero: none): each
	// configuration's machine stops with C0605 when it passes, and no
	// further configuration starts (weft check --timeout, issue 14).
	Deadline time.Time
	Timeout  time.Duration
}

const (
	// DefaultMaxConfigs bounds the configurations one check runs.
	DefaultMaxConfigs = 24
	// DefaultMaxThreads bounds the threads of one configuration: blocks
	// beyond it are not started (Options.Blocks).
	DefaultMaxThreads = 4096
	// MaxGrowMiB is what a buffer of unknown extent grows to
	// (sem.KernelConfig.Grow); an access beyond cuts the configuration
	// short.
	MaxGrowMiB = 64
	// DefaultSearchSteps bounds the instructions of one configuration of
	// weft check's search (--max-steps sets another bound, and its
	// overrun is then an error as in any run).
	DefaultSearchSteps = 20_000_000
)

// Result is what a search did.
type Result struct {
	Kernel   string
	Configs  int // configurations run to the end of the kernel with no precondition false
	Excluded int // configurations a precondition excluded (C0620)
	Findings int // distinct errors reported
	Cut      int // configurations cut short by the search's step budget
	CutGrow  int // configurations cut short where a buffer would grow past MaxGrowMiB
}

// Config is one launch the search runs: everything a rerun needs.
type Config struct {
	Kernel      string // "" : the file's first kernel
	Grid, Block gpu.Dim3
	Blocks      []int // nil: all
	Args        []string
	Values      map[string]string
	NondetSeed  int64
	Random      bool
	Seed        int64
}

// Flags renders c as the command-line flags that rerun exactly it.
func (c Config) Flags() string {
	var b strings.Builder
	if c.Kernel != "" {
		fmt.Fprintf(&b, "--kernel=%s ", c.Kernel)
	}
	fmt.Fprintf(&b, "--gridDim=%s --blockDim=%s", dimFlag(c.Grid), dimFlag(c.Block))
	if c.Blocks != nil {
		s := make([]string, len(c.Blocks))
		for i, x := range c.Blocks {
			s[i] = strconv.Itoa(x)
		}
		fmt.Fprintf(&b, " --blocks=%s", strings.Join(s, ","))
	}
	for _, a := range c.Args {
		fmt.Fprintf(&b, " --arg %s=%s", a, c.Values[a])
	}
	fmt.Fprintf(&b, " --nondet-seed=%d", c.NondetSeed)
	if c.Random {
		fmt.Fprintf(&b, " --random-buffers --seed=%d", c.Seed)
	}
	// with everything fixed the first configuration is this one
	b.WriteString(" --max-configs=1")
	return b.String()
}

func dimFlag(d gpu.Dim3) string {
	switch {
	case d.Z != 1:
		return fmt.Sprintf("%d,%d,%d", d.X, d.Y, d.Z)
	case d.Y != 1:
		return fmt.Sprintf("%d,%d", d.X, d.Y)
	}
	return strconv.Itoa(d.X)
}

// predefined are the macros of GPUVerify's own headers that a file in its
// dialect may use without including anything: attributes are dropped.
var predefined = []string{"__attribute__(x)=", "__align__(x)=", "__GPUVERIFY__", "__CUDA_ARCH__=900",
	// the type names the return value in __ensures: any __return_val_* is
	// the value returned
	"__return_val_funptr(T)=__return_val_ptr()",
	// the helpers of GPUVerify's annotation header
	"__is_pow2(x)=((((x) & ((x) - 1)) == 0))", "__mod_pow2(x,y)=(((y) - 1) & (x))"}

// HasMain reports whether f defines main, as far as its tokens show (the
// file need not compile): a name main followed by ( and, after the
// matching ), a {.
func HasMain(f *diag.File) bool {
	var diags diag.List
	toks := syntax.Preprocess(f, &diags)
	for i := 0; i+1 < len(toks); i++ {
		if toks[i].Kind != syntax.Ident || toks[i].Text != "main" || toks[i+1].Text != "(" {
			continue
		}
		depth := 0
		for j := i + 1; j < len(toks); j++ {
			switch toks[j].Text {
			case "(":
				depth++
			case ")":
				depth--
			}
			if depth == 0 {
				return j+1 < len(toks) && toks[j+1].Text == "{"
			}
		}
	}
	return false
}

// Load preprocesses (with cfg's include directories, its macros, the
// header's, and GPUVerify's predefined ones), parses and
// compiles f. It returns the program and what the search learns from f's
// tokens (Facts).
func Load(f *diag.File, cfg syntax.Config, diags *diag.List) (*sem.Program, *Facts) {
	if cfg.ReadFile == nil {
		cfg.ReadFile = os.ReadFile
	}
	cfg = dialectConfig(cfg)
	with := func(defines []string) syntax.Config {
		c := cfg
		c.Defines = append(append([]string(nil), predefined...), defines...)
		return c
	}
	defines := cfg.Defines
	f, axioms := extractAxioms(f)
	f, explicit := extractInstances(f) // instances.go
	defines, inst := templateArgs(f, defines, explicit, with(nil))
	if axioms != "" {
		inst += "__global__ void " + axiomKernel + "(void) { __requires(" + axioms + "); }\n"
	}
	toks := syntax.PreprocessConfig(f, diags, with(defines))
	if diags.HasErrors() {
		return nil, nil
	}
	toks = withPrelude(toks, with(nil)) // dialect.go
	if inst != "" {
		// launches in a host function that never runs make the compiler
		// instantiate the template kernels (it is not main: the file
		// stays kernel-only)
		var idiags diag.List
		more := syntax.PreprocessConfig(diag.NewFile("<template instances>", []byte(inst)), &idiags, with(nil))
		if !idiags.HasErrors() && len(toks) > 0 && len(more) > 0 {
			toks = append(toks[:len(toks)-1:len(toks)-1], more...)
		}
	}
	lits := map[int64]bool{}
	facts := &Facts{Equal: map[string]int64{}, Funcs: map[string]string{}}
	for i, t := range toks {
		if t.Kind == syntax.IntLit && t.Pos.File == f {
			if v, ok := intLit(t); ok && v >= 0 && v <= 1<<16 {
				lits[v] = true
			}
		}
		// __requires(name == literal) / (literal == name): the value the
		// search starts from
		if t.Kind == syntax.Ident && t.Text == "__requires" && i+5 < len(toks) && toks[i+1].Text == "(" && toks[i+3].Text == "==" {
			a, b := toks[i+2], toks[i+4]
			if a.Kind == syntax.IntLit {
				a, b = b, a
			}
			if v, ok := intLit(b); ok && a.Kind == syntax.Ident && (toks[i+5].Text == ")" || toks[i+5].Text == "&&") {
				facts.Equal[a.Text] = v
			}
			if a.Kind == syntax.Ident && b.Kind == syntax.Ident && (toks[i+5].Text == ")" || toks[i+5].Text == "&&") {
				// a function pointer parameter fixed to a function
				facts.Funcs[a.Text] = b.Text
				facts.Funcs[b.Text] = a.Text
			}
		}
	}
	file := syntax.Parse(toks, diags)
	if diags.HasErrors() {
		return nil, nil
	}
	p := sem.Compile(file, diags)
	if diags.HasErrors() {
		return nil, nil
	}
	for v := range lits {
		facts.Lits = append(facts.Lits, v)
	}
	sort.Slice(facts.Lits, func(i, j int) bool { return facts.Lits[i] < facts.Lits[j] })
	return p, facts
}

// Facts are what the search learns from the source: its integer literals
// and the values preconditions give parameters (__requires(n == 64)).
type Facts struct {
	Lits  []int64
	Equal map[string]int64
	Funcs map[string]string // __requires(f == g): parameter or function name -> the other
}

func intLit(t syntax.Token) (int64, bool) {
	if t.Kind != syntax.IntLit {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimRight(t.Text, "uUlL"), 0, 64)
	return v, err == nil
}

// axiomKernel is the kernel that evaluates a file's axioms.
const axiomKernel = "__weft_axioms"

// Compiled on first use, not at every process start (issue 13, stop 44).
var axiomRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^[ \t]*__axiom[ \t]*\(`) })

// extractAxioms blanks out GPUVerify's file-scope "__axiom(e);" lines
// (keeping every other byte where it was, so positions hold) and returns
// the conjunction of their conditions. An axiom constrains the launch:
// the search runs only blocks all of whose threads satisfy it (Check).
func extractAxioms(f *diag.File) (*diag.File, string) {
	locs := axiomRe().FindAllIndex(f.Src, -1)
	if locs == nil {
		return f, ""
	}
	src := append([]byte(nil), f.Src...)
	var conds []string
	for _, l := range locs {
		depth, end := 0, -1
		for i := l[1] - 1; i < len(src); i++ {
			if src[i] == '(' {
				depth++
			} else if src[i] == ')' {
				depth--
				if depth == 0 {
					end = i
					break
				}
			}
		}
		if end < 0 {
			continue // unbalanced: left for the parser to report
		}
		conds = append(conds, "("+string(f.Src[l[1]:end])+")")
		stop := end + 1
		if j := bytes.IndexByte(src[stop:], ';'); j >= 0 && len(bytes.TrimSpace(src[stop:stop+j])) == 0 {
			stop += j + 1
		}
		for i := l[0]; i < stop; i++ {
			if src[i] != '\n' {
				src[i] = ' '
			}
		}
	}
	if conds == nil {
		return f, ""
	}
	return diag.NewFile(f.Name, src), strings.Join(conds, " && ")
}

// axiomBlocks returns up to three blocks of the launch whose every thread
// satisfies the file's axioms, trying the first, second and last index of
// each grid dimension and the file's literals in range; nil when none does.
func axiomBlocks(p *sem.Program, grid, block gpu.Dim3, lits []int64, o Options) []int {
	vals := func(n int) []int {
		seen := map[int]bool{}
		var out []int
		for _, v := range append([]int64{0, 1, int64(n - 1)}, lits...) {
			if v >= 0 && v < int64(n) && !seen[int(v)] {
				seen[int(v)] = true
				out = append(out, int(v))
			}
		}
		return out
	}
	var found []int
	for _, z := range vals(grid.Z) {
		for _, y := range vals(grid.Y) {
			for _, x := range vals(grid.X) {
				id := (z*grid.Y+y)*grid.X + x
				var local diag.List
				m := sem.NewMachine(p, sem.Options{Stdout: io.Discard, Blocks: []int{id}, LargeBlocks: true, MaxSteps: o.MaxSteps}, &local)
				if _, err := m.RunKernelOnly(sem.KernelConfig{Kernel: axiomKernel, Grid: grid, Block: block, Grow: true}); err != nil || local.HasErrors() {
					continue
				}
				found = append(found, id)
				if len(found) == 3 {
					return found
				}
			}
		}
	}
	return found
}

// templateArgs finds the template kernels of f and writes, for each, a host
// function that launches it with its template arguments: those of the
// file's explicit instantiations (explicit, by template) when it has some;
// otherwise a -DNAME=VALUE whose NAME is a template parameter gives that
// argument (and is no macro then, which would break the template's
// header), and any other type parameter is int and value parameter 64
// (Faial-style files, issue 16 §3). It returns the defines left (with synchronize(g), below) and the
// source of the launches ("" when f has no template kernel or does not
// parse).
func templateArgs(f *diag.File, defines []string, explicit map[string][]string, cfg syntax.Config) ([]string, string) {
	var diags diag.List
	toks := syntax.PreprocessConfig(f, &diags, cfg)
	if diags.HasErrors() {
		return defines, ""
	}
	file := syntax.Parse(toks, &diags)
	if diags.HasErrors() || file == nil {
		return defines, ""
	}
	given := map[string]string{}
	for _, d := range defines {
		k, v, _ := strings.Cut(d, "=")
		given[k] = v
	}
	used := map[string]bool{}
	var b strings.Builder
	for i, td := range file.Templates {
		if !td.Q.Global || td.Recv != "" {
			continue
		}
		var targs []string
		for j, name := range td.TParams {
			v, ok := given[name]
			switch {
			case ok && v != "":
				used[name] = true
			case j < len(td.TValue) && td.TValue[j]:
				v = "64"
			default:
				v = "int"
			}
			targs = append(targs, v)
		}
		zeros := make([]string, len(td.Type.Params))
		for j := range zeros {
			zeros[j] = "0"
		}
		lists := []string{strings.Join(targs, ", ")}
		if e := explicit[td.Name]; e != nil {
			lists = e // the file's explicit instantiations
		}
		for k, l := range lists {
			fmt.Fprintf(&b, "void __weft_instance_%d_%d(void) { %s<%s><<<1, 1>>>(%s); }\n", i, k, td.Name, l, strings.Join(zeros, ", "))
		}
	}
	var rest []string
	for _, d := range defines {
		k, _, _ := strings.Cut(d, "=")
		if !used[k] {
			rest = append(rest, d)
		}
	}
	// cooperative_groups::synchronize(g), the CUDA 9 spelling of g.sync()
	// that GPUVerify's headers keep, unless the file has its own
	own := false
	for _, fd := range file.Funcs {
		own = own || fd.Name == "synchronize"
	}
	for _, d := range file.Decls {
		own = own || d.Name == "synchronize"
	}
	if !own {
		rest = append(rest, "synchronize(g)=(g).sync()")
	}
	return rest, b.String()
}

// Check explores launches of one kernel of p and reports into diags every
// distinct error (a race once, at its first configuration), each with a note
// giving the flags that rerun it. It prints nothing itself.
func Check(f *diag.File, p *sem.Program, facts *Facts, o Options, diags *diag.List) (Result, error) {
	if facts == nil {
		facts = &Facts{}
	}
	lits := facts.Lits
	if ka := o.Header.KernelArgs; ka != nil && (o.Kernel == "" || o.Kernel == ka[0]) {
		// GPUVerify's --kernel-args: the kernel and its parameters'
		// values by position; --arg on the command line wins
		o.Kernel = ka[0]
		if k := p.Kernel(ka[0]); k != nil {
			args := map[string]string{}
			for i, v := range ka[1:] {
				if i < len(k.ParamNames) && v != "*" && !k.Type.Params[i].IsPointer() {
					args[k.ParamNames[i]] = v
				}
			}
			for n, v := range o.Args {
				args[n] = v
			}
			o.Args = args
		}
	}
	fn := p.Kernel(o.Kernel)
	if fn == nil {
		if o.Kernel != "" {
			return Result{}, fmt.Errorf("no kernel named %s", o.Kernel)
		}
		return Result{}, fmt.Errorf("no __global__ function in the file")
	}
	res := Result{Kernel: fn.Name}
	if o.MaxConfigs <= 0 {
		o.MaxConfigs = DefaultMaxConfigs
	}
	if !o.Check {
		o.MaxConfigs = 1
	}
	if o.MaxThreads <= 0 {
		o.MaxThreads = DefaultMaxThreads
	}
	stepsGiven := o.MaxSteps != 0
	if !stepsGiven && o.Check {
		o.MaxSteps = DefaultSearchSteps
	}
	configs := plan(p, fn, facts, o, p.HasBodiless())
	if fn != p.Kernel("") {
		for i := range configs {
			configs[i].Kernel = fn.Name
		}
	}
	seen := map[string]bool{}
	axiomCache := map[string][]int{}
	kpos := p.Pos[fn.PosIdx]
	for _, c := range configs {
		if res.Configs >= o.MaxConfigs {
			break
		}
		if !o.Deadline.IsZero() && time.Now().After(o.Deadline) {
			// the machine of the configuration that passed it reported
			// C0605 at its running thread; the rest is unexplored
			break
		}
		if axioms := p.Kernel(axiomKernel); axioms != nil && axioms != fn {
			k := dimFlag(c.Grid) + "/" + dimFlag(c.Block)
			bl, ok := axiomCache[k]
			if !ok {
				bl = axiomBlocks(p, c.Grid, c.Block, lits, o)
				axiomCache[k] = bl
			}
			if bl == nil {
				res.Excluded++
				continue
			}
			if c.Blocks == nil || len(c.Blocks) > 0 {
				c.Blocks = bl
			}
		}
		var local diag.List
		opts := sem.Options{Stdout: o.Stdout, Stderr: o.Stderr, Check: o.Check && !o.Header.NoRaces,
			Quantum: o.Quantum, MaxSteps: o.MaxSteps, NondetSeed: c.NondetSeed, WarpSync: o.Header.WarpSync,
			Blocks: c.Blocks, LargeBlocks: true, Seed: c.Seed, BenignWrites: true,
			Deadline: o.Deadline, Timeout: o.Timeout}
		if res.Configs+res.Excluded > 0 {
			opts.Stdout = io.Discard // the program's output once
		}
		m := sem.NewMachine(p, opts, &local)
		_, err := m.RunKernelOnly(sem.KernelConfig{Kernel: fn.Name, Grid: c.Grid, Block: c.Block, Shmem: o.Shmem,
			Args: c.Values, BufferSize: o.BufferSize, Random: c.Random, Seed: c.Seed, Grow: true, IntraGroup: o.Header.IntraGroup})
		if err != nil {
			return res, err
		}
		excluded := false
		kept := local.Diags[:0]
		for _, d := range local.Diags {
			switch {
			case d.Code == "C0620":
				excluded = true
			case d.Code == "C0605" && !stepsGiven && strings.Contains(d.Message, "step limit"):
				// the search's own budget ran out: what was found
				// before stands, the rest of this run is unexplored
				res.Cut++
				continue
			case d.Code == "C0610" && strings.Contains(d.Message, "unknown extent"):
				// likewise the bytes a buffer of unknown extent grows to
				res.CutGrow++
				continue
			}
			kept = append(kept, d)
		}
		local.Diags = kept
		if excluded {
			res.Excluded++
			continue
		}
		res.Configs++
		for _, d := range local.Diags {
			k := key(d)
			if seen[k] {
				continue
			}
			seen[k] = true
			if d.Severity == diag.Error {
				res.Findings++
			}
			d.Note(kpos, "found launching %s with %s", fn.Name, c.Flags())
			diags.Add(d)
		}
	}
	return res, nil
}

// key identifies a finding across configurations: its code and every
// position it names (a race: both accesses, whatever their order).
func key(d *diag.Diagnostic) string {
	ps := []string{posKey(d.Pos)}
	for _, n := range d.Notes {
		if strings.HasPrefix(n.Message, "the other access") {
			ps = append(ps, posKey(n.Pos))
		}
	}
	sort.Strings(ps)
	return d.Code + " " + strings.Join(ps, " ")
}

func posKey(p diag.Pos) string { return fmt.Sprintf("%d", p.Offset) }

// plan lists the configurations to run, most telling first: the header's
// (or the portfolio's) shapes with every scalar at its base value, then
// the inputs (chosen values for bodiless functions, random contents of
// buffers and globals), then one scalar at a time at each of its other
// values; the shapes' lists interleaved.
func plan(p *sem.Program, fn *sem.Function, facts *Facts, o Options, bodiless bool) []Config {
	globals := p.HasInputGlobals()
	lits := facts.Lits
	var shapes [][2]gpu.Dim3
	switch {
	case o.Grid != nil && o.Block != nil:
		shapes = append(shapes, [2]gpu.Dim3{*o.Grid, *o.Block})
	case o.Header.Grid != nil || o.Header.Block != nil || o.Grid != nil || o.Block != nil:
		g, b := gpu.Dim3{X: 1, Y: 1, Z: 1}, gpu.Dim3{X: 32, Y: 1, Z: 1}
		for _, d := range []*gpu.Dim3{o.Header.Grid, o.Grid} {
			if d != nil {
				g = *d
			}
		}
		for _, d := range []*gpu.Dim3{o.Header.Block, o.Block} {
			if d != nil {
				b = *d
			}
		}
		shapes = append(shapes, [2]gpu.Dim3{g, b})
	default:
		// Faial-style files fix nothing: one and two blocks, one and
		// several warps
		for _, s := range [][2]int{{1, 32}, {2, 32}, {1, 64}, {2, 64}} {
			shapes = append(shapes, [2]gpu.Dim3{{X: s[0], Y: 1, Z: 1}, {X: s[1], Y: 1, Z: 1}})
		}
	}
	var scalars []int
	var names []string
	for i, pt := range fn.Type.Params {
		name := ""
		if i < len(fn.ParamNames) {
			name = fn.ParamNames[i]
		}
		if pt.IsPointer() || pt.Kind == sem.Struct {
			continue
		}
		if _, fixed := o.Args[name]; fixed {
			continue
		}
		scalars = append(scalars, i)
		names = append(names, name)
	}
	var allNames []string
	funcArgs := map[string]string{}
	for i, pt := range fn.Type.Params {
		if i >= len(fn.ParamNames) {
			continue
		}
		name := fn.ParamNames[i]
		if g := facts.Funcs[name]; g != "" && pt.IsFuncPointer() && p.Func(g) != nil {
			if _, fixed := o.Args[name]; !fixed {
				funcArgs[name] = g
			}
			allNames = append(allNames, name)
		} else if _, fixed := o.Args[name]; fixed && pt.IsFuncPointer() {
			allNames = append(allNames, name)
		}
		if !pt.IsPointer() && pt.Kind != sem.Struct {
			allNames = append(allNames, name)
		}
	}
	lists := make([][]Config, len(shapes))
	for si, s := range shapes {
		add := func(c Config) {
			c.Args = allNames
			lists[si] = append(lists[si], c)
		}
		grid, block := s[0], s[1]
		blocks := o.Blocks
		nb := grid.Size()
		if blocks == nil && (o.Header.IntraGroup || nb*block.Size() > o.MaxThreads) {
			// run the first, second and last blocks: inter-block races
			// show between two of them
			per := max(1, o.MaxThreads/block.Size())
			switch {
			case o.Header.IntraGroup || per < 2:
				blocks = []int{0}
			case nb == 2 || per == 2:
				blocks = []int{0, nb - 1}
			default:
				blocks = []int{0, 1, nb - 1}
			}
		}
		threads := int64(grid.Size() * block.Size())
		base := map[string]string{}
		for k, v := range o.Args {
			base[k] = v
		}
		for k, v := range funcArgs {
			base[k] = v
		}
		for k, i := range scalars {
			base[names[k]] = baseValue(fn.Type.Params[i], threads)
			if v, ok := facts.Equal[names[k]]; ok && !fn.Type.Params[i].IsFloat() {
				base[names[k]] = strconv.FormatInt(v, 10)
			}
		}
		var seeds []int64
		if o.NondetSeed != nil {
			seeds = []int64{*o.NondetSeed}
		} else {
			seeds = []int64{0}
		}
		random := o.Random != nil
		var rseed int64
		if random {
			rseed = *o.Random
		}
		mk := func(vals map[string]string, seed int64, rnd bool) Config {
			return Config{Grid: grid, Block: block, Blocks: blocks, Values: vals, NondetSeed: seed, Random: rnd, Seed: rseed}
		}
		add(mk(base, seeds[0], random))
		// inputs first (they change every access that reads them), then
		// one scalar at a time
		if o.NondetSeed == nil && bodiless {
			add(mk(base, 1, random))
			add(mk(base, 2, random))
		}
		if o.Random == nil && (hasBuffers(fn) || globals) {
			c := mk(base, seeds[0], true)
			c.Seed = 1
			add(c)
		}
		for k, i := range scalars {
			for _, v := range variants(fn.Type.Params[i], threads, int64(block.X), lits) {
				if v == base[names[k]] {
					continue
				}
				vals := map[string]string{}
				for a, b := range base {
					vals[a] = b
				}
				vals[names[k]] = v
				add(mk(vals, seeds[0], random))
			}
		}
	}
	// interleave the shapes' lists so that a small budget still covers
	// every shape's base configuration first
	var out []Config
	for j := 0; ; j++ {
		more := false
		for _, l := range lists {
			if j < len(l) {
				out = append(out, l[j])
				more = true
			}
		}
		if !more {
			return out
		}
	}
}

// hasBuffers reports whether fn takes pointers or structs (inputs random
// contents change).
func hasBuffers(fn *sem.Function) bool {
	for _, pt := range fn.Type.Params {
		if pt.IsPointer() || pt.Kind == sem.Struct {
			return true
		}
	}
	return false
}

// baseValue is a scalar's value in the first configuration: the number of
// threads launched (sizes and bounds are most often that), 1 for floats.
func baseValue(t *sem.Type, threads int64) string {
	switch {
	case t.IsFloat():
		return "1"
	case t.Kind == sem.Bool:
		return "1"
	}
	return strconv.FormatInt(threads, 10)
}

// maxVariants bounds the other values one scalar takes.
const maxVariants = 16

// variants are a scalar's other values: 0, 1, half the threads (a guard
// true for some threads and false for others), the block size, one more
// than the threads, the file's literals (values preconditions and guards
// compare with) and their differences.
func variants(t *sem.Type, threads, bdim int64, lits []int64) []string {
	if t.IsFloat() {
		return []string{"0", "2"}
	}
	if t.Kind == sem.Bool {
		return []string{"0"}
	}
	seen := map[int64]bool{}
	var out []string
	put := func(v int64) {
		if v < 0 || seen[v] {
			return
		}
		seen[v] = true
		out = append(out, strconv.FormatInt(v, 10))
	}
	for _, v := range []int64{0, 1, threads / 2, bdim, threads + 1} {
		put(v)
	}
	for _, v := range lits {
		if v > 1 {
			put(v)
		}
	}
	// differences of literals: the offset that makes two guarded
	// accesses (threadIdx.x == 15 and == 200) meet
	for i, a := range lits {
		for _, b := range lits[i+1:] {
			if a > 1 && b-a > 1 {
				put(b - a)
			}
		}
	}
	for i, a := range lits {
		for _, b := range lits[i+1:] {
			if a > 1 {
				put(a + b)
			}
		}
	}
	if len(out) > maxVariants {
		out = out[:maxVariants]
	}
	return out
}
