package cudagen

import (
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestSharedFnOnlyWhenEqual checks sharedFn's guard (shared.go; issue 13,
// stop 36): CheckOnly takes the GPU checker's DeviceFunction only when it
// holds the arguments the generator read. Each device function's record
// is replaced by one of another launch shape (a record that does not fit
// the generator's reading of the call); CheckOnly must still report what
// a full generation reports (none here: each loop fits its own kernel),
// which it does not when it takes the record as it is.
func TestSharedFnOnlyWhenEqual(t *testing.T) {
	const src = `
@proc
def k64():
    with CudaDeviceFunction(blockDim=64):
        for task in cuda_tasks(0, 1):
            for t in cuda_threads(0, 64, unit=cuda_thread):
                pass

@proc
def k2():
    with CudaDeviceFunction(clusterDim=2, blockDim=32):
        for task in cuda_tasks(0, 1):
            for c in cuda_threads(0, 2, unit=cuda_cta_in_cluster):
                pass
`
	l := lib.MustStd()
	var errs diag.List
	f := syntax.Parse(diag.NewFile("sharedfn.weft", []byte(src)), &errs)
	prog := check.Check(f, l, &errs)
	gpu := gpucheck.Check(f, gpucheck.Options{Lib: l, Prog: prog}, &errs)
	if errs.HasErrors() || len(gpu.Devices) != 2 {
		t.Fatalf("front end: %v, %d device functions", errs.Diags, len(gpu.Devices))
	}
	full := generateDiags(f, l, Options{Prog: prog})
	if full != "" {
		t.Fatalf("a full generation reports\n%s", full)
	}
	if quick := generateDiags(f, l, Options{CheckOnly: true, Prog: prog, GPU: gpu}); quick != full {
		t.Fatalf("CheckOnly reports\n%s", quick)
	}
	for _, fn := range []coll.DeviceFunction{
		{BlockDim: 32, ClusterDim: 1, BlocksPerSM: 1},
		{BlockDim: 64, ClusterDim: 2, BlocksPerSM: 1},
		{BlockDim: 32, ClusterDim: 1, BlocksPerSM: 2},
	} {
		for i := range gpu.Devices {
			saved := gpu.Devices[i].Fn
			stale := fn
			gpu.Devices[i].Fn = &stale
			if quick := generateDiags(f, l, Options{CheckOnly: true, Prog: prog, GPU: gpu}); quick != full {
				t.Errorf("device function %d with the record %+v: CheckOnly reports\n%s", i, fn, quick)
			}
			gpu.Devices[i].Fn = saved
		}
	}
}
