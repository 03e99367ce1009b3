package check

import (
	"fmt"
	"strings"
	"testing"
)

// TestLoopOptionsEachMode (stop 31, rev31): every loop mode takes only
// its own keyword options (loopOption: pragma_unroll for seq, unit for
// cuda_threads, none for par and cuda_tasks), each refused with W0211
// "<mode> loop has no option <name>" elsewhere. testdata/device.weft
// covers seq's refusal of unit only; a loopOption that let cuda_threads,
// par or cuda_tasks take any option (mutants N3, N4 of
// docs/weft-sync.md "Stop 31: rev31") failed no test.
func TestLoopOptionsEachMode(t *testing.T) {
	opts := map[string]string{"pragma_unroll": "4", "unit": "cuda_warp", "bogus": "1"}
	takes := map[string]string{"seq": "pragma_unroll", "cuda_threads": "unit"}
	for _, mode := range []string{"seq", "par", "cuda_tasks", "cuda_threads"} {
		for _, name := range []string{"pragma_unroll", "unit", "bogus"} {
			// seq and par on the host, the others where they belong
			// (a cuda_threads loop in a task of the device function).
			loop := fmt.Sprintf("for i in %s(0, 8, %s=%s):\n", mode, name, opts[name])
			var src string
			switch mode {
			case "seq", "par":
				src = "def f():\n    " + loop + "        pass\n"
			case "cuda_tasks":
				src = "def f():\n    with CudaDeviceFunction(blockDim=256):\n        " + loop + "            pass\n"
			default:
				src = "def f():\n    with CudaDeviceFunction(blockDim=256):\n        for t in cuda_tasks(0, 4):\n            " + loop + "                pass\n"
			}
			_, errs := checkSrc("opt.weft", src)
			want := fmt.Sprintf("%s loop has no option %s", mode, name)
			got := false
			for _, d := range errs.Diags {
				if d.Code == "W0211" && strings.Contains(d.Message, want) {
					got = true
				}
			}
			if got != (takes[mode] != name) {
				t.Errorf("%s with %s: refused %v, want %v; diagnostics:\n%s", mode, name, got, !got, dump(errs))
			}
		}
	}
}

// TestCallEnvLastBindingWins (stop 31, rev31): a callee's control
// parameters bind the call's arguments in a list searched from its end
// (callEnv, 1a122b0), where the map it replaced kept the last binding of
// a name. A proc that declares n twice (W0202) and sizes x by n is
// checked against its second argument: g(4, 8, a) with a of 4 elements
// is a W0216 mismatch (dimension 0 is 8). A search from the list's start
// (mutant C5) binds n to 4 and reports no mismatch.
func TestCallEnvLastBindingWins(t *testing.T) {
	src := "def g(n: size, n: size, x: f32[n] @ DRAM):\n    pass\n\ndef f(a: f32[4] @ DRAM):\n    g(4, 8, a)\n"
	_, errs := checkSrc("dup.weft", src)
	var dup, mismatch bool
	for _, d := range errs.Diags {
		dup = dup || d.Code == "W0202"
		mismatch = mismatch || d.Code == "W0216" && strings.Contains(d.Message, "is 8, the argument's is 4")
	}
	if !dup || !mismatch {
		t.Fatalf("want W0202 and W0216 (dimension 0 of x is 8); got:\n%s", dump(errs))
	}
}
