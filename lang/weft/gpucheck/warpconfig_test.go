package gpucheck

import (
	"fmt"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestWarpConfigArgs checks the warp_config's constant arguments (stop
// 38: an argument's name is made only for the message): a count that is
// not a compile-time constant is reported at the argument, with its
// parameter's name, once; constant ones configure the warps.
func TestWarpConfigArgs(t *testing.T) {
	src := `my_warps = [CudaWarpConfig("A", 2), CudaWarpConfig("B", K, setmaxnreg_dec=R), CudaWarpConfig("C", 1, setmaxnreg_inc=240)]

@proc
def p(K: size, R: size):
    with CudaDeviceFunction(warp_config=my_warps):
        for task in cuda_tasks(0, 1):
            pass
`
	var errs diag.List
	f := syntax.Parse(diag.NewFile("w.weft", []byte(src)), &errs)
	if errs.HasErrors() {
		t.Fatal(errs.Err())
	}
	Check(f, Options{Lib: lib.MustStd()}, &errs)
	var got []string
	for _, d := range errs.Diags {
		got = append(got, fmt.Sprintf("%s %d:%d %s", d.Code, d.Pos.Line(), d.Pos.Col(), d.Message))
	}
	want := []string{
		codeDeviceConst + " 1:57 CudaWarpConfig count must be a compile-time constant, not K",
		codeDeviceConst + " 1:75 CudaWarpConfig setmaxnreg_dec must be a compile-time constant, not R",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
