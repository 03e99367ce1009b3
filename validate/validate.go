package validate

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"weft.dev/weft/diag"
	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/audala/dumpcmp"
	"weft.dev/weft/lang/audala/initfile"
	adlinterp "weft.dev/weft/lang/audala/interp"
	"weft.dev/weft/lang/weft/driver"
	"weft.dev/weft/lang/weft/interp"
)

// Help is the text of `weft help validate`.
const Help = `weft validate FILE [NAME=VALUE ...] [flags]
  build FILE (.weft, .prism or .adl) with weft build --harness, run the generated program
  unmodified in the CUDA-C semantics with weft check's race and deadlock checks, run FILE
  with weft run on the same inputs, compare every output, and print one verdict line per
  proc: match, mismatch (the first differing element or line), or the diagnostics of the
  semantics. Exit 0 only when everything matched and nothing was reported.
  .weft: NAME=VALUE as for weft run (sizes default to each "# check:" line of the file;
         arrays not named are A=rand); --proc, --seed, --no-check as for weft run/build
  .prism: --kernel, --blocks, --threads, --arg, --buffer as for weft run (passed to both)
  .adl:  an optional INPUT.init; --schedule-strategy, --memorder, --fixpoint, --onrp as for
         weft build
  --keep DIR            keep the build, inputs and outputs in DIR (default: a temporary directory)
  --sms N               run the generated program on a device with N SMs (default: the H100's 132);
                        persistent kernels then run more tasks per block
  --mutate              after a match, delete each synchronization statement of the generated code in
                        turn, validate again, and print whether each mutant was killed and the kill rate
  --gpu                 also compile the generated program with nvcc (NVCC, else nvcc on PATH), run it
                        on this machine's GPU with the same inputs, and print two more lines per proc:
                        "gpu:" (its outputs against weft run's) and "gpu vs semantics:" (against the
                        semantics', bit for bit or the largest difference)
  --gpu-arch SM         --gpu: the nvcc target (default sm_90a: Hopper; the sm_80 kernels run there too)`

type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(s string) error { *l = append(*l, s); return nil }

type options struct {
	keep, proc, kernel, blocks, threads string
	strategy, memorder, fixpoint, onrp  string
	seed, sms                           string
	noCheck, mutate, gpu                bool
	gpuArch                             string
	args, buffers                       list
}

// Main runs weft validate with the arguments after the verb.
func Main(env *frontend.Env, args []string) int {
	var o options
	fs := flag.NewFlagSet("weft validate", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.StringVar(&o.keep, "keep", "", "`DIR`: keep the build, inputs and outputs there")
	fs.StringVar(&o.proc, "proc", "", "`NAME`: .weft: the proc to validate")
	fs.StringVar(&o.seed, "seed", "", "`N`: .weft: the seed of A=rand")
	fs.BoolVar(&o.noCheck, "no-check", false, ".weft: build without the static and sync checks")
	fs.StringVar(&o.sms, "sms", "", "`N`: run the generated program on a device with N SMs (fewer SMs: persistent kernels run more tasks per block)")
	fs.BoolVar(&o.mutate, "mutate", false, "after a match, delete each synchronization statement of the generated code in turn and report whether validation catches it")
	fs.BoolVar(&o.gpu, "gpu", false, "also compile the generated program with nvcc, run it on this machine's GPU and compare its outputs with weft run's and the semantics'")
	fs.StringVar(&o.gpuArch, "gpu-arch", "sm_90a", "`SM`: --gpu: the nvcc target")
	fs.StringVar(&o.kernel, "kernel", "", "`NAME`: .prism: the kernel")
	fs.StringVar(&o.blocks, "blocks", "", "`N`: .prism: blocks in the grid")
	fs.StringVar(&o.threads, "threads", "", "`N`: .prism: threads per block")
	fs.Var(&o.args, "arg", "`NAME=VALUE`: .prism: a kernel argument (repeatable)")
	fs.Var(&o.buffers, "buffer", "`NAME=INIT:LEN[:TYPE]`: .prism: a global buffer (repeatable)")
	fs.StringVar(&o.strategy, "schedule-strategy", "", "`graph|host|grid`: .adl: the schedule strategy")
	fs.StringVar(&o.memorder, "memorder", "", "`relaxed|ra|sc`: .adl: the memory order")
	fs.StringVar(&o.fixpoint, "fixpoint", "", "`simple|rotating`: .adl: the fixpoint strategy")
	fs.StringVar(&o.onrp, "onrp", "", "`true|false`: .adl: weak accesses of non-racing parameters")
	pos, err := frontend.ParseArgs(fs, args, "")
	if err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	var files, assigns []string
	for _, a := range pos {
		if strings.Contains(a, "=") {
			assigns = append(assigns, a)
		} else {
			files = append(files, a)
		}
	}
	if len(files) == 0 {
		return frontend.Usagef(env, "usage: weft validate FILE [NAME=VALUE ...] [flags] (weft help validate)")
	}
	dir := o.keep
	if dir == "" {
		d, err := os.MkdirTemp("", "weft-validate-")
		if err != nil {
			fmt.Fprintf(env.Stderr, "weft: %v\n", err)
			return 2
		}
		defer os.RemoveAll(d)
		dir = d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(env.Stderr, "weft: %v\n", err)
		return 2
	}
	v := &run{env: env, o: &o, dir: dir, source: files[0]}
	if o.gpu {
		if err := v.gpuAvailable(); err != nil {
			fmt.Fprintf(env.Stderr, "weft: %v\n", err)
			return 2
		}
	}
	switch ext := filepath.Ext(files[0]); ext {
	case ".weft":
		if len(files) != 1 {
			return frontend.Usagef(env, "usage: weft validate FILE.weft [NAME=VALUE ...] [flags]")
		}
		return v.weft(files[0], assigns)
	case ".prism":
		if len(files) != 1 || len(assigns) > 0 {
			return frontend.Usagef(env, "usage: weft validate FILE.prism [--blocks N] [--arg NAME=VALUE ...] [flags]")
		}
		return v.prism(files[0])
	case ".adl":
		if len(files) > 2 || len(assigns) > 0 {
			return frontend.Usagef(env, "usage: weft validate FILE.adl [INPUT.init] [flags]")
		}
		return v.audala(files[0], files[1:])
	default:
		return frontend.Usagef(env, "validate: %s: want a .weft, .prism or .adl file", files[0])
	}
}

// run is one validation.
type run struct {
	env  *frontend.Env
	o    *options
	dir  string
	bad  bool
	runs int
	// source is FILE: a diagnostic on a generated line the generator
	// marked "// weft:src NAME:LINE:COL" names it (locate)
	source string
	// --mutate totals
	mutantsTotal, mutantsKilled int
}

// verb runs a front end's verb, returning its status, stdout and stderr.
func (v *run) verb(ext, name string, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	fe := frontend.ForExt(ext)
	env := &frontend.Env{Stdout: &out, Stderr: &errb, Stdin: strings.NewReader("")}
	return fe.Verb(name)(env, args), out.String(), errb.String()
}

// step runs a verb that must succeed; on failure it prints its output and
// the verdict.
func (v *run) step(what, label, ext, name string, args ...string) (string, bool) {
	rc, out, errs := v.verb(ext, name, args...)
	if rc != 0 {
		fmt.Fprintf(v.env.Stdout, "%s: %s failed (weft %s %s)\n", label, what, name, strings.Join(args, " "))
		io.WriteString(v.env.Stdout, indent(out+errs))
		v.bad = true
		return out, false
	}
	return out, true
}

// target is a built program ready to run in the semantics: the file to
// run, its command line for a fresh output directory, and how to compare
// what it produced with weft run's outputs.
type target struct {
	label   string
	build   string // the build directory (mutants edit its files)
	file    string
	argv    func(out string) []string
	compare func(stdout, out string) (ok bool, verdict string)
	// compareWith compares the GPU's outputs with the semantics' (--gpu)
	compareWith func(semStdout, semOut, gpuStdout, gpuOut string) (ok bool, verdict string)
}

// semantics runs t in the CUDA-C semantics with weft check's race and
// deadlock checks; problems is the diagnostics text when it reported any.
func (v *run) semantics(t *target, out string, extra ...string) (stdout, problems string) {
	args := append([]string{t.file}, extra...)
	if v.o.sms != "" {
		args = append(args, "--sms", v.o.sms)
	}
	if argv := t.argv(out); len(argv) > 0 {
		args = append(append(args, "--"), argv...)
	}
	rc, so, errs := v.verb(".cu", "check", args...)
	if rc != 0 || strings.Contains(errs, "error[") || strings.Contains(errs, "warning[") {
		if strings.TrimSpace(errs) == "" {
			errs = fmt.Sprintf("exit status %d", rc)
		}
		return so, errs
	}
	return so, ""
}

// validate runs t and prints its verdict; then, with --mutate, its mutants.
func (v *run) validate(t *target) {
	out := filepath.Join(v.dir, "out-"+strconv.Itoa(v.runs))
	v.runs++
	if err := os.MkdirAll(out, 0o755); err != nil {
		fmt.Fprintf(v.env.Stdout, "%s: %v\n", t.label, err)
		v.bad = true
		return
	}
	stdout, problems := v.semantics(t, out)
	if problems != "" {
		fmt.Fprintf(v.env.Stdout, "%s: the semantics reported problems in %s:\n", t.label, t.file)
		io.WriteString(v.env.Stdout, indent(v.locate(problems)))
		v.bad = true
		if v.o.gpu {
			v.gpu(t, stdout, out, false)
		}
		return
	}
	ok, verdict := t.compare(stdout, out)
	fmt.Fprintf(v.env.Stdout, "%s: %s\n", t.label, verdict)
	if v.o.gpu {
		v.gpu(t, stdout, out, ok)
	}
	if !ok {
		v.bad = true
		return
	}
	if v.o.mutate {
		v.mutants(t)
	}
}

// diagAt matches the first line of a diagnostic or a note: FILE:LINE:COL:
// severity[CODE] or note:. Compiled on first use (issue 13, stop 44).
var diagAt = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\S+):(\d+):\d+: (error\[|warning\[|note: )`)
})

// locate adds, after each diagnostic located on a generated line that
// the generator marked with its source position ("// weft:src
// NAME:LINE:COL", cuda.Writer.Src), a line naming that position in FILE
// (issue 12, item 7).
func (v *run) locate(problems string) string {
	files := map[string][]string{}
	var b strings.Builder
	diagAt := diagAt()
	for _, l := range strings.SplitAfter(problems, "\n") {
		b.WriteString(l)
		m := diagAt.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		lines, ok := files[m[1]]
		if !ok {
			if data, err := os.ReadFile(m[1]); err == nil {
				lines = strings.Split(string(data), "\n")
			}
			files[m[1]] = lines
		}
		n, _ := strconv.Atoi(m[2])
		if n < 1 || n > len(lines) {
			continue
		}
		_, src, found := strings.Cut(lines[n-1], "// weft:src ")
		if !found {
			continue
		}
		src = strings.TrimSpace(src)
		if name, rest, ok := strings.Cut(src, ":"); ok && name == filepath.Base(v.source) {
			src = v.source + ":" + rest
		}
		if !strings.HasSuffix(l, "\n") {
			b.WriteString("\n")
		}
		b.WriteString("    = in the source: " + src + "\n")
	}
	return b.String()
}

func indent(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return ""
	}
	return "    " + strings.ReplaceAll(s, "\n", "\n    ") + "\n"
}

func (v *run) status() int {
	if v.bad {
		return 1
	}
	return 0
}

// compareText compares two outputs line by line.
func compareText(ref, got, what string) (bool, string) {
	return compareTextAs(ref, got, what, "generated program", "weft run")
}

// compareTextAs is compareText naming the two sides.
func compareTextAs(ref, got, what, gotName, refName string) (bool, string) {
	if ref == got {
		return true, fmt.Sprintf("match (%d lines of %s; no race or deadlock)", strings.Count(ref, "\n"), what)
	}
	rl, gl := strings.Split(ref, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(rl), len(gl)); i++ {
		var r, g string
		if i < len(rl) {
			r = rl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if r != g {
			w := max(len(gotName), len(refName)) + 1
			return false, fmt.Sprintf("mismatch at line %d of %s:\n    %-*s %s\n    %-*s %s", i+1, what, w, gotName+":", g, w, refName+":", r)
		}
	}
	return false, "mismatch"
}

// ---- .weft

func (v *run) weft(file string, assigns []string) int {
	src, ok := frontend.ReadSource(v.env, file)
	if !ok {
		return 2
	}
	p, sizeSets, err := driver.ProcInfo(src, v.o.proc)
	if err != nil {
		if le, ok := err.(*diag.ListError); ok {
			return frontend.Report(v.env, le.List, false)
		}
		return frontend.Usagef(v.env, "%v", err)
	}
	given := map[string]bool{}
	for _, a := range assigns {
		given[a[:strings.IndexByte(a, '=')]] = true
	}
	// The file's first `# run: NAME=VALUE ...` line (the convention of
	// examples/weft/exo) gives the data arguments not named on the command
	// line; sizes still come from the `# check:` lines the build checks.
	for _, a := range runLine(src.Src) {
		name := a[:strings.IndexByte(a, '=')]
		for _, q := range p.Params {
			if q.Name == name && !given[name] && q.Kind != interp.KindSize && !inSizes(sizeSets, name) {
				assigns = append(assigns, a)
				given[name] = true
			}
		}
	}
	if len(sizeSets) == 0 {
		sizeSets = []map[string]int64{{}}
	}
	for i, sizes := range sizeSets {
		all := append([]string{}, assigns...)
		var scalars []string // what the harness takes on its command line
		label := p.Name
		var extra []string
		for _, q := range p.Params {
			switch q.Kind {
			case interp.KindSize, interp.KindIndex:
				if s, ok := sizes[q.Name]; ok && !given[q.Name] {
					all = append(all, fmt.Sprintf("%s=%d", q.Name, s))
					extra = append(extra, fmt.Sprintf("%s=%d", q.Name, s))
				}
			case interp.KindTensor:
				if !given[q.Name] {
					all = append(all, q.Name+"=rand")
				}
			case interp.KindScalar:
				// A data scalar (`alpha: R @ DRAM`) not given: a value
				// every element type holds exactly, so the program and
				// its harness start from the same bits.
				if !given[q.Name] {
					v := "3"
					if q.Elem.IsFloat() {
						v = "0.75"
					}
					all = append(all, q.Name+"="+v)
				}
			}
		}
		var data []string // data scalars: the harness reads them at run time, weft build takes sizes only
		for _, a := range all {
			name := a[:strings.IndexByte(a, '=')]
			for _, q := range p.Params {
				switch {
				case q.Name != name:
				case q.Kind == interp.KindSize || q.Kind == interp.KindIndex:
					scalars = append(scalars, a)
				case q.Kind != interp.KindTensor && q.Kind != interp.KindWindow:
					data = append(data, a)
				}
			}
		}
		if len(sizeSets) > 1 {
			label += " (" + strings.Join(extra, " ") + ")"
		}
		d := filepath.Join(v.dir, fmt.Sprintf("%s.%d", p.Name, i))
		in, ref, build := filepath.Join(d, "in"), filepath.Join(d, "ref"), filepath.Join(d, "build")
		for _, sub := range []string{in, ref} {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				fmt.Fprintf(v.env.Stderr, "weft: %v\n", err)
				return 2
			}
		}
		runArgs := append([]string{file, "--proc", p.Name, "--inputs", in, "--out", ref}, all...)
		if v.o.seed != "" {
			runArgs = append(runArgs, "--seed", v.o.seed)
		}
		if _, ok := v.step("weft run", label, ".weft", "run", runArgs...); !ok {
			continue
		}
		buildArgs := append([]string{file, "-o", build, "--harness", "--proc", p.Name}, scalars...)
		if v.o.noCheck {
			buildArgs = append(buildArgs, "--no-check")
		}
		if _, ok := v.step("weft build", label, ".weft", "build", buildArgs...); !ok {
			continue
		}
		v.validate(&target{label: label, build: build, file: filepath.Join(build, "main.cu"),
			argv:    func(out string) []string { return append(append([]string{in, out}, scalars...), data...) },
			compare: func(_, out string) (bool, string) { return v.compareArrays(p, ref, out, build, sizes) },
			compareWith: func(_, semOut, _, gpuOut string) (bool, string) {
				return v.compareArraysAs(p, semOut, gpuOut, build, sizes, "the GPU", "the semantics")
			}})
	}
	return v.status()
}

func inSizes(sets []map[string]int64, name string) bool {
	for _, s := range sets {
		if _, ok := s[name]; ok {
			return true
		}
	}
	return false
}

// runLine returns the NAME=VALUE fields of the first `# run:` line of src.
func runLine(src []byte) []string {
	for _, line := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "# run:"); ok {
			var out []string
			for _, f := range strings.Fields(rest) {
				if strings.IndexByte(f, '=') > 0 {
					out = append(out, f)
				}
			}
			return out
		}
	}
	return nil
}

// compareArrays compares the .npy outputs of the generated program with
// weft run's.
func (v *run) compareArrays(p *interp.Proc, refDir, outDir, build string, sizes map[string]int64) (bool, string) {
	return v.compareArraysAs(p, refDir, outDir, build, sizes, "the generated program", "weft run")
}

// compareArraysAs is compareArrays naming the two sides gotName and refName.
func (v *run) compareArraysAs(p *interp.Proc, refDir, outDir, build string, sizes map[string]int64, gotName, refName string) (bool, string) {
	atol, why := tolerance(build, sizes)
	var notes []string
	for _, q := range p.Params {
		if q.Kind != interp.KindTensor && q.Kind != interp.KindScalar {
			continue
		}
		ref, err1 := readNpy(filepath.Join(refDir, q.Name+".npy"))
		got, err2 := readNpy(filepath.Join(outDir, q.Name+".npy"))
		if err1 != nil || err2 != nil {
			return false, fmt.Sprintf("mismatch: %s: %s wrote no readable %s.npy (%v)", q.Name, gotName, q.Name, firstErr(err2, err1))
		}
		if m := ref.Compare(got, 0, atol); m != nil {
			return false, fmt.Sprintf("mismatch: %s%v = %v in %s, %v in %s (%d elements differ%s; max abs difference %g)",
				q.Name, m.Index, m.Got, gotName, m.Want, refName, m.Count, why, m.MaxAbs)
		} else if d := ref.Compare(got, 0, 0); d != nil {
			notes = append(notes, fmt.Sprintf("%s within %.3g, max difference %.3g", q.Name, atol, d.MaxAbs))
		} else {
			notes = append(notes, q.Name+" bit for bit")
		}
	}
	return true, fmt.Sprintf("match (%s; no race or deadlock)", strings.Join(notes, ", "))
}

func firstErr(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func readNpy(path string) (*interp.Array, error) {
	r, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return interp.ReadNpy(r)
}

// tolerance is 0 (bit for bit) unless the generated code uses tensor-core
// instructions with tf32, bf16 or f16 inputs; then it is the bound of
// docs/cudac.md for inputs in [-1, 1) (A=rand): with K the reduction
// length (the size K, else the largest size), K (2^-10 + 2^-22 + K 2^-23):
// rounding of the inputs to the narrow type, and K additions in any order
// in binary32.
func tolerance(build string, sizes map[string]int64) (float64, string) {
	// the kernels' own files (weft_cuda.cuh, copied into every build,
	// defines the instruction templates whether they are used or not)
	files, _ := filepath.Glob(filepath.Join(build, "*.cu*"))
	tc := false
	for _, f := range files {
		if filepath.Base(f) == "weft_cuda.cuh" {
			continue
		}
		b, _ := os.ReadFile(f)
		for _, use := range []string{"mma.sync.aligned", "wgmma.mma_async", "mma_tf32", "wgmma_m64"} {
			tc = tc || bytes.Contains(b, []byte(use))
		}
	}
	if !tc {
		return 0, ""
	}
	k := float64(sizes["K"])
	if k == 0 {
		for _, s := range sizes {
			k = math.Max(k, float64(s))
		}
	}
	return k * (0x1p-10 + 0x1p-22 + k*0x1p-23), " beyond the tensor-core bound " + strconv.FormatFloat(k*(0x1p-10+0x1p-22+k*0x1p-23), 'g', 3, 64)
}

// ---- .prism

func (v *run) prism(file string) int {
	label := strings.TrimSuffix(filepath.Base(file), ".prism")
	if v.o.kernel != "" {
		label = v.o.kernel
	}
	var common []string
	for _, f := range [][2]string{{"kernel", v.o.kernel}, {"blocks", v.o.blocks}, {"threads", v.o.threads}} {
		if f[1] != "" {
			common = append(common, "--"+f[0], f[1])
		}
	}
	for _, a := range v.o.args {
		common = append(common, "--arg", a)
	}
	for _, b := range v.o.buffers {
		common = append(common, "--buffer", b)
	}
	ref, ok := v.step("weft run", label, ".prism", "run", append(append([]string{file}, common...), "--print", "1000000000")...)
	if !ok {
		return v.status()
	}
	build := filepath.Join(v.dir, "build")
	if _, ok := v.step("weft build", label, ".prism", "build", append([]string{file, "-o", build, "--harness"}, common...)...); !ok {
		return v.status()
	}
	v.validate(&target{label: label, build: build, file: filepath.Join(build, filepath.Base(strings.TrimSuffix(file, ".prism"))+".cu"),
		argv:    func(string) []string { return nil },
		compare: func(got, _ string) (bool, string) { return compareText(ref, got, "printed outputs") },
		compareWith: func(sem, _, got, _ string) (bool, string) {
			return compareTextAs(sem, got, "printed outputs", "GPU", "semantics")
		}})
	return v.status()
}

// ---- .adl

func (v *run) audala(file string, init []string) int {
	label := strings.TrimSuffix(filepath.Base(file), ".adl")
	var flags []string
	for _, f := range [][2]string{{"schedule-strategy", v.o.strategy}, {"memorder", v.o.memorder}, {"fixpoint", v.o.fixpoint}, {"onrp", v.o.onrp}} {
		if f[1] != "" {
			flags = append(flags, "--"+f[0]+"="+f[1])
			label += " " + f[0] + "=" + f[1]
		}
	}
	ref, ok := v.step("weft run", label, ".adl", "run", append(append([]string{file}, init...), "--dump", "--workers=1")...)
	if !ok {
		return v.status()
	}
	build := filepath.Join(v.dir, "build")
	if _, ok := v.step("weft build", label, ".adl", "build", append([]string{file, "-o", build}, flags...)...); !ok {
		return v.status()
	}
	cmp := audalaCompare(file, init)
	v.validate(&target{label: label, build: build, file: filepath.Join(build, filepath.Base(strings.TrimSuffix(file, ".adl"))+".cu"),
		argv:    func(string) []string { return append(append([]string{}, init...), "--dump") },
		compare: func(got, _ string) (bool, string) { return cmp(ref, got, "generated program", "weft run") },
		compareWith: func(sem, _, got, _ string) (bool, string) {
			return cmp(sem, got, "GPU", "semantics")
		}})
	return v.status()
}

// audalaCompare compares --dump outputs up to a renaming of the instances
// created during the run: the Command Constructor rule (seed 003 §4) only
// asks for an unused label, and the generated program's atomic counter
// numbers the instances one step creates in another order than weft run
// (docs/audala.md, "Validating: created instances"). dumpcmp only reports a
// match after checking an explicit renaming, so a wrong value still
// mismatches; without the program or the .init it compares the text.
func audalaCompare(file string, init []string) func(ref, got, gotName, refName string) (bool, string) {
	const what = "the --dump output"
	exact := func(ref, got, gotName, refName string) (bool, string) {
		return compareTextAs(ref, got, what, gotName, refName)
	}
	var diags diag.List
	src, err := os.ReadFile(file)
	if err != nil {
		return exact
	}
	prog := adlinterp.Load(diag.NewFile(file, src), &diags)
	if prog == nil {
		return exact
	}
	fixed := make([]int, len(prog.Structs))
	if len(init) == 1 {
		isrc, err := os.ReadFile(init[0])
		if err != nil {
			return exact
		}
		d := initfile.Parse(diag.NewFile(init[0], isrc), prog, &diags)
		if d == nil {
			return exact
		}
		copy(fixed, d.Counts)
	}
	return func(ref, got, gotName, refName string) (bool, string) {
		res := dumpcmp.Compare(prog, fixed, ref, got)
		if !res.OK || !res.Renamed && res.Match {
			return exact(ref, got, gotName, refName)
		}
		if res.Match {
			return true, fmt.Sprintf("match (%d lines of %s up to a renaming of the created instances; no race or deadlock)", strings.Count(ref, "\n"), what)
		}
		if res.Undecided && res.Line == 0 {
			return false, fmt.Sprintf("mismatch of %s: undecided, the search for a renaming of the created instances gave up after %d steps (docs/audala.md)", what, dumpcmp.Budget)
		}
		if res.Line > 0 {
			gl := strings.Split(got, "\n")[res.Line-1]
			return false, fmt.Sprintf("mismatch at line %d of %s under every renaming of the created instances:\n    %s: %s (%d such lines in this print, %s: %d)",
				res.Line, what, gotName, gl, res.GotCount, refName, res.RefCount)
		}
		_, msg := exact(ref, got, gotName, refName)
		if !res.Shape {
			return false, msg
		}
		return false, "mismatch of " + what + ": each print's values agree up to a renaming of the created instances, but no renaming makes the references agree; first textual difference " + strings.TrimPrefix(msg, "mismatch ")
	}
}
