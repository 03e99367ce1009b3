package driver

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"weft.dev/weft/diag"
	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/cudac/lib"
	"weft.dev/weft/lang/cudac/sem"
	"weft.dev/weft/lang/cudac/syntax"
	"weft.dev/weft/lang/cudac/verify"
)

func init() {
	frontend.Register(&frontend.FrontEnd{
		Name:       "cudac",
		Extensions: []string{".cu"},
		Summary:    "CUDA-C: runs host and device code on the CPU; check finds data races, barrier deadlocks and memory errors",
		Check:      func(env *frontend.Env, args []string) int { return verb(env, "check", args) },
		Run:        func(env *frontend.Env, args []string) int { return verb(env, "run", args) },
		Help:       help,
	})
}

// help prints the synopsis of weft run or weft check for .cu files, then
// the flags the verb declares (it is run with -help, which prints them and
// stops).
func help(w io.Writer, name string) {
	switch name {
	case "run":
		fmt.Fprintln(w, `weft run FILE.cu [MORE.cu|.cpp|.c ...] [flags] [-- ARGS]
  run main (host and kernels) as on a GPU; memory-space, bounds, use-after-free, division,
  assertion and deadlock checks are always on; exit 1 on an error`)
	case "check":
		fmt.Fprintln(w, `weft check FILE.cu [MORE.cu|.cpp|.c ...] [flags] [-- ARGS]
  run it as weft run does, and also detect data races (shared and global memory, across
  blocks, kernels, streams and the host) and uninitialized reads; exit 1 on any error`)
	default:
		return
	}
	fmt.Fprintln(w, `  A file without main is a lone kernel in GPUVerify's or Faial's dialect (docs/cudac.md,
  "Kernel-only files"): flags may also come from its header, e.g. //--blockDim=[64,2] --gridDim=4
  -DN=8 --warp-sync=32; weft check searches launches and inputs and reports each race once
  with the flags that rerun it ("no race in N configurations" when none is found)`)
	verb(&frontend.Env{Stdout: w, Stderr: w}, name, []string{"-help"})
}

// maxBufferSize bounds --buffer-size (1 GiB per pointer parameter).
const maxBufferSize = 1 << 30

type argList map[string]string

func (a argList) String() string { return "" }
func (a argList) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("want NAME=VALUE, got %q", s)
	}
	a[k] = v
	return nil
}

// DefaultTimeout is the default wall-time limit of weft run and check on
// a .cu file (issue 14: generous for real programs, which take seconds;
// the step limit usually ends a runaway run first).
const DefaultTimeout = 10 * time.Minute

type options struct {
	asJSON              bool
	schedule            string
	seed                int64
	quantum             int
	maxSteps            uint64
	timeout             time.Duration
	kernel, grid, block string
	shmem, bufSize      int
	args                argList
	randomBuf           bool
	gridSet, blockSet   bool
	setFlags            map[string]bool
	maxMemory           frontend.ByteSize
	blocks              string
	nondet              int64
	maxConfigs          int
	warpSync            int
	intraGroup          bool
	defines             defineList
	includes            defineList
	device              string
	sms                 int
}

type defineList []string

func (d *defineList) String() string     { return strings.Join(*d, " ") }
func (d *defineList) Set(s string) error { *d = append(*d, s); return nil }

func newFlags(name string, o *options, out io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(out)
	fs.BoolVar(&o.asJSON, "json", false, "diagnostics as JSON on stdout")
	fs.StringVar(&o.schedule, "schedule", "rr", "`rr|random`: thread schedule, deterministic round-robin or seeded random")
	fs.Int64Var(&o.seed, "seed", 0, "seed of the random schedule (and of --random-buffers)")
	fs.IntVar(&o.quantum, "quantum", 0, "visible instructions (memory accesses, builtins) a thread runs before the next one's turn (default 1)")
	fs.Uint64Var(&o.maxSteps, "max-steps", 0, "stop with C0605 after N interpreted instructions (default 2e9)")
	fs.DurationVar(&o.timeout, "timeout", DefaultTimeout, "`D`: stop with C0605, at the instruction running, after this wall time (0: no limit)")
	o.maxMemory = sem.DefaultMaxMemory
	fs.Var(&o.maxMemory, "max-memory", "`BYTES`: stop with C0610 when the program's live memory (host and device) would exceed BYTES")
	fs.StringVar(&o.kernel, "kernel", "", "`NAME`: kernel-only files: the kernel to launch (default: the first)")
	fs.StringVar(&o.grid, "gridDim", "1", "`X[,Y,Z]`: kernel-only files: grid size")
	fs.StringVar(&o.block, "blockDim", "1", "`X[,Y,Z]`: kernel-only files: block size")
	fs.IntVar(&o.shmem, "shmem", 0, "kernel-only files: bytes of dynamic shared memory")
	fs.IntVar(&o.bufSize, "buffer-size", 0, "kernel-only files: bytes per pointer parameter (default: one element per launched thread)")
	fs.BoolVar(&o.randomBuf, "random-buffers", false, "kernel-only files: fill pointer buffers with random bytes from --seed (default zeros)")
	fs.StringVar(&o.blocks, "blocks", "", "`LIST`: kernel-only files: run only these blocks of the grid (linear ids, e.g. 0,1,63)")
	fs.Int64Var(&o.nondet, "nondet-seed", 0, "kernel-only files: the values bodiless functions return (0: zero; other: hashed per call site and thread)")
	fs.IntVar(&o.maxConfigs, "max-configs", 0, "kernel-only files: configurations weft check explores (default 24)")
	fs.IntVar(&o.warpSync, "warp-sync", 0, "`N`: kernel-only files: lanes of a warp of N threads run in lock step (GPUVerify's --warp-sync)")
	fs.BoolVar(&o.intraGroup, "only-intra-group", false, "kernel-only files: only races inside one block (GPUVerify's --only-intra-group; Faial's default)")
	fs.Var(&o.defines, "define", "`NAME[=VALUE]`: a macro, as -DNAME=VALUE (repeatable)")
	fs.Var(o.args, "arg", "`NAME=VALUE`: kernel-only files: the value of a scalar parameter (repeatable; the others are zero)")
	fs.Var(&o.includes, "include", "`DIR`: search DIR for #include files, as -IDIR (repeatable)")
	fs.StringVar(&o.device, "device", "h100", "`h100|a100`: the GPU the runtime API answers for (cudaGetDeviceProperties, cudaDeviceGetAttribute)")
	fs.IntVar(&o.sms, "sms", 0, "`N`: the device's number of SMs instead of the model's (persistent kernels then loop over more tasks per block; weft validate --sms)")
	return fs
}

func verb(env *frontend.Env, name string, args []string) int {
	o := &options{args: argList{}}
	fs := newFlags(name, o, env.Stderr)
	// FILE.cu [flags] -- ARGS: what follows -- is the program's argv
	var progArgs []string
	for i, a := range args {
		if a == "--" {
			progArgs = append([]string(nil), args[i+1:]...)
			args = args[:i]
			break
		}
	}
	pos, err := parseArgs(fs, cliDefines(args))
	if err != nil {
		return 2
	}
	if !frontend.NonNegative(env, fs, "quantum", "shmem", "buffer-size", "max-configs", "timeout") {
		return 2
	}
	if len(pos) < 1 {
		return frontend.Usagef(env, "usage: weft %s FILE.cu [MORE.cu|.cpp|.c ...] [flags] [-- ARGS] (weft help %s .cu)", name, name)
	}
	// more translation units, linked with the first (sem.LoadUnits)
	units := pos[1:]
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if o.schedule != "rr" && o.schedule != "random" {
		return frontend.Usagef(env, "unknown --schedule=%s (want rr or random)", o.schedule)
	}
	f, ok := frontend.ReadSource(env, pos[0])
	if !ok {
		return 2
	}
	dev, err := lib.DeviceByName(o.device)
	if err != nil {
		return frontend.Usagef(env, "--device: %v", err)
	}
	if o.sms < 0 || o.sms > 1024 {
		return frontend.Usagef(env, "--sms=%d: want 1 to 1024", o.sms)
	}
	if o.sms > 0 {
		d := *dev
		d.SMs = o.sms
		dev = &d
	}
	// The header of a kernel-only file may define macros (-DN=4), so it is
	// read before the file is compiled; its errors matter only when the
	// file turns out to have no main.
	var diags diag.List
	prog := sem.LoadUnits(f, units, &diags, syntax.Config{IncludeDirs: o.includes, Defines: o.defines, MaxInput: limitOf(env)})
	if prog == nil || prog.Main == nil {
		if len(units) > 0 && !diags.HasErrors() {
			// several translation units are a whole program, wherever
			// main is (nvcc links them in any order)
			diags.Errorf(f.At(0), "C0310", "no main function in the %d translation units", len(units)+1)
		}
		if !verify.HasMain(f) && len(units) == 0 {
			// a kernel-only file: compiled again with its header's
			// macros and GPUVerify's predefined ones
			hdr, herr := verify.ParseHeader(f.Src)
			if herr != nil {
				return frontend.Usagef(env, "%s: bad flags in the header comment: %v", pos[0], herr)
			}
			diags = diag.List{}
			prog, facts := verify.Load(f, syntax.Config{IncludeDirs: o.includes, Defines: append(hdr.Defines, o.defines...), MaxInput: limitOf(env)}, &diags)
			if prog == nil {
				return frontend.Report(env, &diags, o.asJSON)
			}
			return kernelOnly(env, name, pos[0], f, prog, facts, hdr, o, fs, set, &diags)
		}
		return frontend.Report(env, &diags, o.asJSON)
	}
	files, err := lib.NewFS(".", append(append([]string(nil), pos...), progArgs...))
	if err != nil {
		return frontend.Usagef(env, "%v", err)
	}
	defer files.CloseAll()
	opts := sem.Options{Stdout: env.Stdout, Stderr: env.Stderr, Check: name == "check",
		Random: o.schedule == "random", Seed: o.seed, Quantum: o.quantum, MaxSteps: o.maxSteps,
		Args: append([]string{pos[0]}, progArgs...), Getenv: os.LookupEnv, Device: dev, Files: files,
		MaxMemory: int64(o.maxMemory), Timeout: o.timeout}
	if o.timeout > 0 {
		opts.Deadline = time.Now().Add(o.timeout)
	}
	m := sem.NewMachine(prog, opts, &diags)
	stop := frontend.Progress(env, "weft "+name+" "+pos[0])
	m.Run()
	stop()
	rc := frontend.Report(env, &diags, o.asJSON)
	if rc == 0 && m.ExitCode() != 0 {
		fmt.Fprintf(env.Stderr, "weft: %s exited with status %d\n", pos[0], m.ExitCode())
		return 1
	}
	return rc
}

// limitOf is the --max-input limit for included files and more units
// (syntax.Config.MaxInput: negative for none).
func limitOf(env *frontend.Env) int64 {
	if l := env.InputLimit(); l > 0 {
		return l
	}
	return -1
}
