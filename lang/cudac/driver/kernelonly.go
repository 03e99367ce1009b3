package driver

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"weft.dev/weft/diag"
	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/cudac/sem"
	"weft.dev/weft/lang/cudac/verify"
)

// cliDefines rewrites cc-style -DNAME=VALUE and -IDIR arguments (also -D
// NAME, -I DIR) as --define and --include, which the flag package can parse.
func cliDefines(args []string) []string {
	out := make([]string, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		if (a == "-I" || a == "-D") && i+1 < len(args) {
			// -I DIR, -D NAME: the separated forms
			i++
			a += args[i]
		}
		if strings.HasPrefix(a, "-D") && len(a) > 2 {
			a = "--define=" + a[2:]
		}
		if strings.HasPrefix(a, "-I") && len(a) > 2 {
			a = "--include=" + a[2:]
		}
		out = append(out, a)
	}
	return out
}

// kernelOnly runs weft check (a search, package verify) or weft run (one
// configuration) on a file without main. Flags come from the file's header
// and the command line; the command line wins.
func kernelOnly(env *frontend.Env, name, path string, f *diag.File, prog *sem.Program, facts *verify.Facts,
	hdr verify.Header, o *options, fs *flag.FlagSet, set map[string]bool, diags *diag.List) int {
	if len(prog.Kernels) == 0 {
		diags.Errorf(diag.Pos{File: f}, "C0310", "no main function and no __global__ function to run")
		return frontend.Report(env, diags, o.asJSON)
	}
	// Weft's own flags in the header
	o2 := &options{args: argList{}}
	ffs := newFlags(name, o2, io.Discard)
	if err := ffs.Parse(hdr.Rest); err != nil {
		return frontend.Usagef(env, "%s: bad flags in the header comment: %v", path, err)
	}
	if len(ffs.Args()) > 0 {
		return frontend.Usagef(env, "%s: bad flags in the header comment: unexpected %q", path, ffs.Args()[0])
	}
	ffs.Visit(func(fl *flag.Flag) {
		if !set[fl.Name] {
			fs.Set(fl.Name, fl.Value.String())
			set[fl.Name] = true
		}
	})
	for k, v := range o2.args {
		if _, ok := o.args[k]; !ok {
			o.args[k] = v
		}
	}
	if o.bufSize < 0 || o.bufSize > maxBufferSize {
		return frontend.Usagef(env, "--buffer-size=%d: want 0 to %d bytes", o.bufSize, maxBufferSize)
	}
	vo := verify.Options{Kernel: o.kernel, Args: o.args, Shmem: o.shmem, BufferSize: o.bufSize,
		MaxConfigs: o.maxConfigs, Check: name == "check", Quantum: o.quantum, MaxSteps: o.maxSteps,
		Stdout: env.Stdout, Stderr: env.Stderr, Header: hdr, Timeout: o.timeout}
	if o.timeout > 0 {
		vo.Deadline = time.Now().Add(o.timeout)
	}
	if set["warp-sync"] {
		vo.Header.WarpSync = o.warpSync
	}
	if set["only-intra-group"] {
		vo.Header.IntraGroup = o.intraGroup
	}
	if set["gridDim"] {
		d, err := verify.ParseDim(o.grid)
		if err != nil {
			return frontend.Usagef(env, "--gridDim=%s: %v", o.grid, err)
		}
		vo.Grid = &d
	}
	if set["blockDim"] {
		d, err := verify.ParseDim(o.block)
		if err != nil {
			return frontend.Usagef(env, "--blockDim=%s: %v", o.block, err)
		}
		vo.Block = &d
	}
	if set["blocks"] {
		vo.Blocks = []int{}
		for _, s := range strings.Split(o.blocks, ",") {
			b, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || b < 0 {
				return frontend.Usagef(env, "--blocks=%s: want linear block ids, e.g. 0,1,7", o.blocks)
			}
			vo.Blocks = append(vo.Blocks, b)
		}
	}
	if set["nondet-seed"] {
		vo.NondetSeed = &o.nondet
	}
	if o.randomBuf {
		vo.Random = &o.seed
	}
	res, err := verify.Check(f, prog, facts, vo, diags)
	if err != nil {
		return frontend.Usagef(env, "%v", err)
	}
	rc := frontend.Report(env, diags, o.asJSON)
	if !o.asJSON && name == "check" {
		what := "no race"
		if res.Findings > 0 {
			what = plural(res.Findings, "error")
		}
		fmt.Fprintf(env.Stderr, "weft: kernel %s: %s in %s", res.Kernel, what, plural(res.Configs, "configuration"))
		if res.Excluded > 0 {
			fmt.Fprintf(env.Stderr, " (%d more excluded by preconditions)", res.Excluded)
		}
		if res.Cut > 0 {
			fmt.Fprintf(env.Stderr, " (%d cut short at %d instructions; --max-steps runs them longer)", res.Cut, verify.DefaultSearchSteps)
		}
		if res.CutGrow > 0 {
			fmt.Fprintf(env.Stderr, " (%d cut short where a buffer of unknown extent would grow past %d MiB)", res.CutGrow, verify.MaxGrowMiB)
		}
		fmt.Fprintln(env.Stderr)
	}
	if res.Configs == 0 && res.Excluded > 0 {
		// like a verifier whose assumptions contradict each other, nothing
		// is rejected; unlike one, Weft says that nothing was checked
		fmt.Fprintf(env.Stderr, "weft: warning: every configuration tried violates a precondition or axiom of %s: nothing was checked; fix one with --gridDim, --blockDim or --arg\n", res.Kernel)
	}
	return rc
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
