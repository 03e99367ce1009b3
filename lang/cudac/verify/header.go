package verify

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"weft.dev/weft/gpu"
)

// Header is what the comment lines at the top of a kernel-only file say, in
// GPUVerify's convention (its test suite: "//pass" or "//xfail:KIND", then
// "//--blockDim=64 --gridDim=[2,2] -DN=4 --no-inline"), with Weft's own
// flags ("--arg n=128", "--kernel=NAME") allowed on the same lines.
type Header struct {
	Expect      string    // "pass", "xfail:NOT_ALL_VERIFIED", ...; "" when absent
	Grid, Block *gpu.Dim3 // nil: not given
	Defines     []string  // -DNAME[=VALUE]
	WarpSync    int       // --warp-sync=N; 0: off
	IntraGroup  bool      // --only-intra-group: races between blocks are not looked for
	NoRaces     bool      // --only-divergence: barrier divergence only
	KernelArgs  []string  // --kernel-args=K,v1,...: the kernel, then a value per parameter ("*": any)
	Ignored     []string  // flags accepted that change nothing for a dynamic semantics
	Rest        []string  // Weft's own flags, for the driver
}

// ignoredFlags are GPUVerify options that steer its static verifier
// (inlining, invariant inference, abstractions, loop unwinding, solver
// time-outs, Boogie input): a run of the kernel means the same with or
// without them (docs/cudac.md, "Kernel-only verification").
var ignoredFlags = map[string]bool{
	"--no-inline": true, "--inline": true, "--equality-abstraction": true, "--no-infer": true,
	"--loop-unwind": true, "--boogie-file": true, "--adversarial-abstraction": true,
	"--array-equalities": true, "--asymmetric-asserts": true, "--no-benign": true,
	"--no-benign-tolerance": true, "--timeout": true, "--vcgen-timeout": true,
	"--clang-opt": true, "--opt-opt": true, "--bugle-opt": true, "--vcgen-opt": true,
	"--boogie-opt": true, "--verify": true, "--findbugs": true, "--math-int": true,
	"--no-barrier-access-checks": true, "--no-loop-predicate-invariants": true,
	"--no-smart-predication": true, "--no-source-loc-infer": true, "--no-uniformity-analysis": true,
	"--only-log": true, "--race-instrumenter": true, "--solver": true, "--silent": true,
	"--verbose": true, "--time": true, "--stop-at-opt": true, "--stop-at-gbpl": true,
	"--stop-at-bpl": true, "--stop-at-cbpl": true, "--memout": true, "--staged-inference": true,
	"--parallel-inference": true, "--infer-info": true, "--k-induction-depth": true,
	"--disable-axioms": true, "--relational-local-inv": true, "--gen-smt2": true,
	"--atomic": true, "--no-annotations": true, "--only-requires": true,
	"--invariants-as-candidates": true, "--warp-sync-check": true,
}

// headerLines is how many leading lines may hold the header.
const headerLines = 8

// ParseHeader reads the header of src. A flag it does not know is an error
// naming it; Weft's own flags are passed on in Rest.
func ParseHeader(src []byte) (Header, error) {
	var h Header
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for n := 0; sc.Scan() && n < headerLines; n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		if !strings.HasPrefix(line, "//") {
			break
		}
		body := strings.TrimSpace(strings.TrimPrefix(line, "//"))
		low := strings.ToLower(body)
		if n == 0 && (low == "pass" || strings.HasPrefix(low, "xfail")) {
			h.Expect = body
			continue
		}
		if !strings.HasPrefix(body, "-") {
			continue // GPUVerify's expected-output lines and prose
		}
		if err := h.flags(strings.Fields(body)); err != nil {
			return h, err
		}
	}
	return h, nil
}

// flags interprets the flags of one header line.
func (h *Header) flags(fs []string) error {
	for i := 0; i < len(fs); i++ {
		f := fs[i]
		if strings.HasPrefix(f, "-D") && len(f) > 2 {
			h.Defines = append(h.Defines, f[2:])
			continue
		}
		if !strings.HasPrefix(f, "--") {
			return fmt.Errorf("unexpected %q (flags start with --, defines with -D)", f)
		}
		name, val, hasVal := strings.Cut(f, "=")
		switch name {
		case "--blockDim", "--local_size", "--gridDim", "--num_groups":
			d, err := ParseDim(val)
			if err != nil {
				return fmt.Errorf("%s: %v", name, err)
			}
			if name == "--blockDim" || name == "--local_size" {
				h.Block = &d
			} else {
				h.Grid = &d
			}
		case "--warp-sync":
			n, err := strconv.Atoi(val)
			if !hasVal || err != nil || n < 1 || n > 1024 {
				return fmt.Errorf("--warp-sync=%s: want a warp size from 1 to 1024", val)
			}
			h.WarpSync = n
		case "--only-intra-group":
			h.IntraGroup = true
		case "--only-divergence":
			h.NoRaces = true
		case "--kernel-args":
			h.KernelArgs = strings.Split(val, ",")
			if !hasVal || h.KernelArgs[0] == "" {
				return fmt.Errorf("--kernel-args=%s: want KERNEL,VALUE,... (* for any)", val)
			}
		default:
			if ignoredFlags[name] {
				h.Ignored = append(h.Ignored, f)
				continue
			}
			// Weft's own flags; "--arg n=1" takes the next word
			h.Rest = append(h.Rest, f)
			if name == "--arg" && !hasVal && i+1 < len(fs) {
				i++
				h.Rest = append(h.Rest, fs[i])
			}
		}
	}
	return nil
}

// ParseDim reads a launch extent in GPUVerify's forms "64", "[64,64]",
// "[2,2,2]" or Weft's "64,64".
func ParseDim(s string) (gpu.Dim3, error) {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "[") {
		if !strings.HasSuffix(t, "]") {
			return gpu.Dim3{}, fmt.Errorf("bad extent %q: unclosed [", s)
		}
		t = t[1 : len(t)-1]
	}
	return gpu.ParseDim3(t)
}
