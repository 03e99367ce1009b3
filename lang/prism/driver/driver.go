package driver

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math/rand"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"weft.dev/weft/diag"
	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/prism/bundl"
	"weft.dev/weft/lang/prism/check"
	"weft.dev/weft/lang/prism/lower"
	"weft.dev/weft/lang/prism/syntax"
	"weft.dev/weft/safeio"
)

func init() {
	frontend.Register(&frontend.FrontEnd{
		Name:       "prism",
		Extensions: []string{".prism"},
		Summary:    "Prism, typed perspectives: perspective checker, CUDA lowering with inferred synchronization, Bundl interpreter",
		Check:      checkVerb,
		Fmt:        fmtVerb,
		Build:      buildVerb,
		Run:        runVerb,
		Help:       help,
	})
}

// help prints the synopsis of verb for .prism files, then the flags the
// verb declares (it is run with -help, which prints them and stops).
func help(w io.Writer, verb string) {
	var v frontend.Verb
	switch verb {
	case "check":
		v = checkVerb
		fmt.Fprintln(w, `weft check FILE.prism [flags]
  the perspective checker (seed 001 §3); exit 1 on an error`)
	case "fmt":
		v = fmtVerb
		fmt.Fprintln(w, `weft fmt FILE.prism [flags]
  print the program canonically (round-trips, comments kept)`)
	case "build":
		v = buildVerb
		fmt.Fprintln(w, `weft build FILE.prism -o DIR [flags]
  CUDA C++ with inferred synchronization: writes DIR/FILE.cu (compile for sm_80 or sm_90a);
  FILE.extern.cuh next to the program, if present, supplies the bodies of functions
  declared with pass. --harness appends a host main() taking weft run's --arg and --buffer
  values (tensor maps included) that prints the outputs as weft run does; WEFT_PRINT=N
  and WEFT_REPEAT=R (time R more launches) in its environment`)
	case "run":
		v = runVerb
		fmt.Fprintln(w, `weft run FILE.prism [--kernel NAME] [--blocks B] [--threads T] [--arg NAME=VALUE ...] [flags]
  run a kernel under the Bundl semantics (seed 001 §4) with a seeded nondeterministic
  scheduler and print its output buffers; a run that cannot go on is reported stuck (P0301)
  Argument values: NAME=V for a scalar (M=128); for a pointer NAME=zeros|ones|iota|iota%M|rand:LEN
  (rand: integers in -8..8 seeded by the name; values are rounded to the element type); for a
  CUtensorMap NAME=tma:BUF,ROWS,COLS,BOX_ROWS,BOX_COLS[,SWIZZLE], a 2-D tiled map over the
  buffer BUF (ROWS x COLS, COLS contiguous), SWIZZLE none (default), 32, 64 or 128 bytes.
  A --buffer is INIT:LEN[:TYPE] with INIT as for a pointer, e.g. --buffer A=rand:32768:bf16`)
	default:
		return
	}
	v(&frontend.Env{Stdout: w, Stderr: w}, []string{"-help"})
}

// load parses and checks path. ok is false on an I/O error (status 2).
func load(env *frontend.Env, path string, diags *diag.List) (*check.Info, bool) {
	src, ok := frontend.ReadSource(env, path)
	if !ok {
		return nil, false
	}
	f, perrs := syntax.Parse(src)
	diags.Diags = append(diags.Diags, perrs.Diags...)
	if perrs.HasErrors() {
		return nil, true
	}
	return check.Check(f, diags), true
}

func newFlags(env *frontend.Env, verb string) *flag.FlagSet {
	fs := flag.NewFlagSet("weft "+verb, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	return fs
}

func checkVerb(env *frontend.Env, args []string) int {
	fs := newFlags(env, "check")
	asJSON := fs.Bool("json", false, "diagnostics as JSON on stdout")
	smem := fs.Bool("smem", false, "print each function's shared-memory peak and budget")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		return frontend.Usagef(env, "usage: weft check FILE.prism [flags] (weft help check .prism)")
	}
	var diags diag.List
	info, ok := load(env, pos[0], &diags)
	if !ok {
		return 2
	}
	rc := frontend.Report(env, &diags, *asJSON)
	if rc == 0 && *smem && info != nil {
		for _, fn := range info.Funcs {
			fmt.Fprintf(env.Stdout, "%s: smem %d of %d bytes\n", fn.Name, fn.Peak, fn.Smem)
		}
	}
	return rc
}

func fmtVerb(env *frontend.Env, args []string) int {
	fs := newFlags(env, "fmt")
	write := fs.Bool("w", false, "rewrite the file in place instead of printing to stdout")
	asJSON := fs.Bool("json", false, "diagnostics as JSON on stdout")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 {
		return frontend.Usagef(env, "usage: weft fmt FILE.prism [flags] (weft help fmt .prism)")
	}
	src, ok := frontend.ReadSource(env, pos[0])
	if !ok {
		return 2
	}
	f, perrs := syntax.Parse(src)
	if perrs.HasErrors() {
		return frontend.Report(env, perrs, *asJSON)
	}
	var buf bytes.Buffer
	if err := syntax.Fprint(&buf, f); err != nil {
		fmt.Fprintf(env.Stderr, "weft: %v\n", err)
		return 2
	}
	if *write {
		if !frontend.WriteFile(env, pos[0], buf.Bytes()) {
			return 2
		}
		return 0
	}
	env.Stdout.Write(buf.Bytes())
	return 0
}

func buildVerb(env *frontend.Env, args []string) int {
	fs := newFlags(env, "build")
	out := fs.String("o", "", "`DIR`: the output directory (created if needed)")
	asJSON := fs.Bool("json", false, "diagnostics as JSON on stdout")
	syncs := fs.Bool("syncs", false, "print the inferred sync points (and the split barriers' arrive/wait lines)")
	full := fs.Bool("full-barriers", false, "lower block-wide sync points to __syncthreads() in place instead of split mbarrier arrive/wait with motion")
	harness := fs.Bool("harness", false, "append a host main() that fills the --arg and --buffer buffers, encodes the tensor maps, launches --kernel on --blocks blocks and prints the outputs as weft run does (then: nvcc -arch=sm_80 -o prog DIR/FILE.cu && ./prog)")
	kernel := fs.String("kernel", "", "`NAME`: --harness: the kernel to launch (default: the only @prism(\"global\") function)")
	blocks := fs.Int("blocks", 1, "--harness: blocks in the grid")
	flops := fs.Float64("flops", 0, "--harness: the floating-point operations of one launch (e.g. 2*M*N*K), for the TFLOP/s WEFT_REPEAT prints")
	var argv argList
	fs.Var(&argv, "arg", "`NAME=VALUE`: --harness: a kernel argument, as for weft run (repeatable), tensor maps included")
	var bufv argList
	fs.Var(&bufv, "buffer", "`NAME=INIT:LEN[:TYPE]`: --harness: a global buffer that is not a parameter, as for weft run")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 2
	}
	if len(pos) != 1 || *out == "" {
		return frontend.Usagef(env, "usage: weft build FILE.prism -o DIR [flags] (weft help build .prism)")
	}
	var diags diag.List
	info, ok := load(env, pos[0], &diags)
	if !ok {
		return 2
	}
	if diags.HasErrors() || info == nil {
		return frontend.Report(env, &diags, *asJSON)
	}
	base := strings.TrimSuffix(filepath.Base(pos[0]), filepath.Ext(pos[0]))
	opts := lower.Options{FullBarriers: *full}
	// Functions with a body of `pass` are implemented in raw CUDA (seed 001
	// B.3): their bodies come from BASE.extern.cuh next to the program.
	ext := strings.TrimSuffix(pos[0], filepath.Ext(pos[0])) + ".extern.cuh"
	extSrc, extErr := frontend.ReadInput(env, ext)
	if extErr == nil {
		opts.ExternHeader = base + ".extern.cuh"
	}
	res := lower.Lower(info, opts, &diags)
	if *harness {
		lc, rc := launchArgs(env, "build", info, pos[0], *kernel, argv, bufv, false)
		if lc == nil {
			return rc
		}
		l := lower.Launch{Blocks: *blocks, Args: lc.cfg.Args, Buffers: map[string][]float64{}, Inits: lc.inits,
			TensorMaps: map[string]lower.TensorMap{}, Flops: *flops}
		for name, data := range lc.data {
			if lc.inits[name].Kind == "rand" {
				l.Buffers[name] = data
			}
		}
		for name, tm := range lc.cfg.TensorMaps {
			l.TensorMaps[name] = lower.TensorMap{Buf: tm.Buf.Name, Rows: tm.Rows, Cols: tm.Cols, BoxRows: tm.BoxRows, BoxCols: tm.BoxCols, Swizzle: tm.Swizzle}
		}
		h, err := lower.Harness(lc.kfn, l)
		if err != nil {
			return frontend.Usagef(env, "build: --harness: %v", err)
		}
		res.CUDA += h
	}
	outs := []safeio.Output{{Name: base + ".cu", Data: []byte(res.CUDA)}}
	if extErr == nil {
		outs = append(outs, safeio.Output{Name: opts.ExternHeader, Data: extSrc})
	}
	if !frontend.WriteOutputs(env, *out, outs) {
		return 2
	}
	if *syncs {
		for _, s := range res.Syncs {
			fmt.Fprint(env.Stdout, s.Describe())
		}
		if !*full {
			for _, s := range res.Syncs {
				fmt.Fprint(env.Stdout, s.DescribeSplit())
			}
		}
	}
	arch := "sm_80 and sm_90a"
	if res.SM90 {
		arch = "sm_90a"
	}
	fmt.Fprintf(env.Stderr, "wrote %s (compile for %s)\n", filepath.Join(*out, base+".cu"), arch)
	return frontend.Report(env, &diags, *asJSON)
}

type argList []string

func (a *argList) String() string     { return strings.Join(*a, ",") }
func (a *argList) Set(s string) error { *a = append(*a, s); return nil }

// launch is what launchArgs builds: the kernel, the interpreter's
// configuration, and for build --harness each buffer's initializer and
// values (pointer arguments and --buffer ones alike).
type launch struct {
	kfn   *check.Func
	cfg   *bundl.Config
	inits map[string]lower.Init
	data  map[string][]float64
}

// launchArgs picks the kernel and builds its arguments from --kernel, --arg
// and --buffer flags (shared by run and build --harness). With fill false
// (build) only rand buffers get their values: the harness computes the
// others, so GEMM-sized buffers cost no memory here (their zero slices are
// never touched).
func launchArgs(env *frontend.Env, verb string, info *check.Info, path, kernel string, argv, bufv []string, fill bool) (*launch, int) {
	var kfn *check.Func
	for _, fn := range info.Funcs {
		if fn.Global && (kernel == "" || fn.Name == kernel) {
			if kfn != nil && kernel == "" {
				return nil, frontend.Usagef(env, "%s: %s has several kernels; pick one with --kernel", verb, path)
			}
			kfn = fn
		}
	}
	if kfn == nil {
		return nil, frontend.Usagef(env, "%s: no kernel %q in %s", verb, kernel, path)
	}
	lc := &launch{inits: map[string]lower.Init{}, data: map[string][]float64{}}
	cfg := &bundl.Config{Kernel: kfn.Name, Args: map[string]float64{}, Buffers: map[string]*bundl.Buffer{}, TensorMaps: map[string]*bundl.TensorMap{}}
	params := map[string]*check.Var{}
	for _, p := range kfn.Params {
		params[p.Name] = p
	}
	// Host buffers that are not parameters: the global tensors behind
	// tensor maps.
	host := map[string]*bundl.Buffer{}
	for _, a := range bufv {
		name, val, ok := strings.Cut(a, "=")
		if !ok || name == "" || params[name] != nil {
			return nil, frontend.Usagef(env, "%s: --buffer %q: want NAME=INIT:LEN[:TYPE] for a name that is not a parameter", verb, a)
		}
		spec, elem, _ := strings.Cut(val, ":")
		n, elem, _ := strings.Cut(elem, ":")
		if elem == "" {
			elem = "float"
		}
		t := &check.Type{Kind: check.Scalar, Name: elem}
		if t.Size() == 0 {
			return nil, frontend.Usagef(env, "%s: --buffer %s: unknown element type %q", verb, a, elem)
		}
		buf, in, err := newBuffer(name, spec+":"+n, t, fill)
		if err != nil {
			return nil, frontend.Usagef(env, "%s: --buffer %s: %v", verb, a, err)
		}
		host[name] = buf
		lc.inits[name], lc.data[name] = in, buf.Data
	}
	var tmaps [][2]string
	for _, a := range argv {
		name, val, ok := strings.Cut(a, "=")
		p := params[name]
		if !ok || p == nil {
			return nil, frontend.Usagef(env, "%s: --arg %q: want NAME=VALUE for a parameter of %s", verb, a, kfn.Name)
		}
		if p.Type.Kind == check.Pointer {
			buf, in, err := newBuffer(name, val, p.Type.Base(), fill)
			if err != nil {
				return nil, frontend.Usagef(env, "%s: --arg %s: %v", verb, a, err)
			}
			cfg.Buffers[name] = buf
			lc.inits[name], lc.data[name] = in, buf.Data
			continue
		}
		if p.Type.Name == "CUtensorMap" {
			tmaps = append(tmaps, [2]string{name, val})
			continue
		}
		f, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return nil, frontend.Usagef(env, "%s: --arg %s: not a number", verb, a)
		}
		cfg.Args[name] = f
	}
	for _, tv := range tmaps {
		tm, err := tensorMap(tv[1], cfg.Buffers, host)
		if err != nil {
			return nil, frontend.Usagef(env, "%s: --arg %s=%s: %v", verb, tv[0], tv[1], err)
		}
		cfg.TensorMaps[tv[0]] = tm
	}
	lc.kfn, lc.cfg = kfn, cfg
	return lc, 0
}

// maxBufferLen bounds a buffer's elements (1 GiB of float64 values).
const maxBufferLen = 1 << 27

// newBuffer builds a buffer of element type elem from INIT:LEN, INIT one of
// zeros, ones, iota, iota%M (i mod M) and rand (integers in -8..8 seeded by
// the name). Values are rounded to the element type. With fill false only
// rand buffers get values (the others stay zero: see launchArgs).
func newBuffer(name, spec string, elem *check.Type, fill bool) (*bundl.Buffer, lower.Init, error) {
	kind, n, ok := strings.Cut(spec, ":")
	size, err := strconv.Atoi(n)
	if !ok || err != nil || size < 0 {
		return nil, lower.Init{}, fmt.Errorf("want zeros|ones|iota|iota%%M|rand:LEN")
	}
	if size > maxBufferLen {
		// The interpreter holds every element as a float64: refuse
		// rather than die of an out-of-memory crash.
		return nil, lower.Init{}, fmt.Errorf("LEN %d is more than the interpreter's limit of %d elements", size, maxBufferLen)
	}
	buf := &bundl.Buffer{Name: name, Elem: elem.Name, Int: !elem.IsFloat(), Data: make([]float64, size)}
	mod := 0
	if m, ok := strings.CutPrefix(kind, "iota%"); ok {
		mod, err = strconv.Atoi(m)
		if err != nil || mod <= 0 {
			return nil, lower.Init{}, fmt.Errorf("iota%%M needs a positive M")
		}
		kind = "iota"
	}
	switch kind {
	case "zeros", "ones", "iota", "rand":
	default:
		return nil, lower.Init{}, fmt.Errorf("unknown initializer %q", kind)
	}
	in := lower.Init{Elem: elem.Name, Len: size, Kind: kind, Mod: mod}
	if !fill && kind != "rand" {
		return buf, in, nil
	}
	rng := rand.New(rand.NewSource(int64(len(name)) + 7))
	for i := range buf.Data {
		switch kind {
		case "ones":
			buf.Data[i] = 1
		case "iota":
			buf.Data[i] = float64(i)
			if mod > 0 {
				buf.Data[i] = float64(i % mod)
			}
		case "rand":
			buf.Data[i] = float64(rng.Intn(17) - 8)
		}
	}
	bundl.RoundBuffer(buf)
	return buf, in, nil
}

// tensorMap parses tma:BUF,ROWS,COLS,BOX_ROWS,BOX_COLS[,SWIZZLE]: a 2-D
// tiled tensor map over buffer BUF (a pointer argument or a --buffer),
// ROWS x COLS elements with COLS contiguous, boxes of BOX_ROWS x BOX_COLS,
// SWIZZLE none (default), 32, 64 or 128 bytes.
func tensorMap(spec string, params, host map[string]*bundl.Buffer) (*bundl.TensorMap, error) {
	body, ok := strings.CutPrefix(spec, "tma:")
	f := strings.Split(body, ",")
	if !ok || len(f) < 5 || len(f) > 6 {
		return nil, fmt.Errorf("want tma:BUF,ROWS,COLS,BOX_ROWS,BOX_COLS[,SWIZZLE]")
	}
	buf := params[f[0]]
	if buf == nil {
		buf = host[f[0]]
	}
	if buf == nil {
		return nil, fmt.Errorf("no buffer %q (give it with --buffer %s=INIT:LEN:TYPE or as a pointer --arg)", f[0], f[0])
	}
	var d [4]int
	for i := range d {
		v, err := strconv.Atoi(f[i+1])
		if err != nil {
			return nil, fmt.Errorf("%q is not an integer", f[i+1])
		}
		d[i] = v
	}
	tm := &bundl.TensorMap{Buf: buf, Rows: d[0], Cols: d[1], BoxRows: d[2], BoxCols: d[3]}
	if len(f) == 6 && f[5] != "none" {
		sw, err := strconv.Atoi(strings.TrimSuffix(f[5], "B"))
		if err != nil {
			return nil, fmt.Errorf("swizzle %q: want none, 32, 64 or 128", f[5])
		}
		tm.Swizzle = sw
	}
	if err := tm.Validate(); err != nil {
		return nil, err
	}
	return tm, nil
}

// DefaultTimeout is the default wall-time limit of weft run (issue 14:
// generous for real kernels, which take seconds).
const DefaultTimeout = 10 * time.Minute

func runVerb(env *frontend.Env, args []string) int {
	fs := newFlags(env, "run")
	kernel := fs.String("kernel", "", "`NAME`: the kernel to run (default: the only @prism(\"global\") function)")
	blocks := fs.Int("blocks", 1, "blocks in the grid")
	threadsN := fs.Int("threads", 0, "threads per block (default: the kernel's @requires)")
	seed := fs.Int64("seed", 1, "scheduler seed")
	maxSteps := fs.Int("max-steps", 0, "stop with P0305 after N scheduler steps, or 10 N statements executed by threads (0: 10 million)")
	maxMem := frontend.ByteSize(bundl.DefaultMaxMemory)
	fs.Var(&maxMem, "max-memory", "`BYTES`: stop with P0305 when the run's memory (buffers, and local arrays of every thread) grows by more than BYTES")
	timeout := fs.Duration("timeout", DefaultTimeout, "`D`: stop with P0305, at the statement running, after this wall time (0: no limit)")
	show := fs.Int("print", 64, "print at most N elements of each output buffer")
	from := fs.Int("from", 0, "print from element N on (the line then reads NAME[LEN] = [N:] v_N ...)")
	stats := fs.Bool("stats", false, "print the number of scheduler steps to stderr")
	syncMode := fs.String("sync", "bundl", "`bundl|compiled|split`: bundl (Bundl's partition barriers plus the inferred sync points), compiled (only the inferred sync points, as full barriers) or split (only the split barriers, arrive/wait with motion, that the generated CUDA uses)")
	asJSON := fs.Bool("json", false, "diagnostics as JSON on stdout")
	var argv argList
	fs.Var(&argv, "arg", "`NAME=VALUE`: a kernel argument (repeatable; values above)")
	var bufv argList
	fs.Var(&bufv, "buffer", "`NAME=INIT:LEN[:TYPE]`: a global buffer that is not a parameter, e.g. the matrix behind a tensor map (repeatable; default TYPE float)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 2
	}
	if !frontend.NonNegative(env, fs, "blocks", "threads", "max-steps", "print", "from", "timeout") {
		return 2
	}
	if len(pos) != 1 {
		return frontend.Usagef(env, "usage: weft run FILE.prism [flags] (weft help run .prism)")
	}
	var diags diag.List
	info, ok := load(env, pos[0], &diags)
	if !ok {
		return 2
	}
	if diags.HasErrors() || info == nil {
		return frontend.Report(env, &diags, *asJSON)
	}
	lc, rc := launchArgs(env, "run", info, pos[0], *kernel, argv, bufv, true)
	if lc == nil {
		return rc
	}
	kfn := lc.kfn
	cfg := *lc.cfg
	cfg.Blocks, cfg.Threads, cfg.Seed, cfg.MaxSteps = *blocks, *threadsN, *seed, *maxSteps
	cfg.Timeout = *timeout
	cfg.MaxMemory = uint64(maxMem)
	switch *syncMode {
	case "bundl":
	case "compiled":
		cfg.CompiledSync = true
	case "split":
		cfg.CompiledSync, cfg.SplitBarriers = true, true
	default:
		return frontend.Usagef(env, "run: --sync=%s: want bundl, compiled or split", *syncMode)
	}
	stop := frontend.Progress(env, "weft run "+pos[0])
	res := bundl.Run(info, cfg, &diags)
	stop()
	if *stats {
		fmt.Fprintf(env.Stderr, "bundl: %d steps, seed %d\n", res.Steps, *seed)
	}
	if !diags.HasErrors() {
		for _, p := range kfn.Params {
			if p.Type.Kind != check.Pointer || p.Type.Elem.Const {
				continue
			}
			buf := cfg.Buffers[p.Name]
			var b strings.Builder
			fmt.Fprintf(&b, "%s[%d] =", p.Name, len(buf.Data))
			if *from > 0 {
				fmt.Fprintf(&b, " [%d:]", *from)
			}
			for i := max(*from, 0); i < len(buf.Data); i++ {
				if i == max(*from, 0)+*show {
					b.WriteString(" ...")
					break
				}
				b.WriteString(" " + strconv.FormatFloat(buf.Data[i], 'g', -1, 64))
			}
			fmt.Fprintln(env.Stdout, b.String())
		}
	}
	return frontend.Report(env, &diags, *asJSON)
}
