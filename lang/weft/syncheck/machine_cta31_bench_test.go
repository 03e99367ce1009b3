package syncheck

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// BenchmarkSmallMachine is the abstract machine alone (amir.New and Run,
// after Convert) on the per-CTA allocation rows and the CudaRmemUniform
// rows of bench/syncref (issue 13, stop 31: their machine share), and
// Convert with its Program.Finish for comparison. The rows' sed scripts
// are map.tsv's (the sed command runs them). SMALLMACHINE_FILE adds a
// file of one's own, run with NCTA=1 (stop 31 compared per_cta_alloc
// with an 8-row variant of it: 8.3 K instructions of machine a row).
func BenchmarkSmallMachine(b *testing.B) {
	oneThread := `s/CudaRmemUniform(64)/CudaRmemUniform(1)/; s/unit=64 \* cuda_thread/unit=cuda_thread/; s/cuda_threads(0, 64)/cuda_threads(0, 1)/; s/g \* 64 + t/g + t/; s/\[0:4\]/[0:256]/g; s/f32\[4\]/f32[256]/g; s/cuda_threads(0, 4,/cuda_threads(0, 256,/; s/(4, d_src/(256, d_src/`
	swz := `s/@ CudaSmemLinear/@ Sm90_SmemSwizzled(128, )/`
	for _, tc := range []struct {
		name, path string
		sizes      map[string]int64
		sed        string
	}{
		{"per_cta_alloc_1", "../../../bench/syncref/weft/per_cta_alloc.weft", map[string]int64{"NCTA": 1}, ""},
		{"per_cta_alloc_2", "../../../bench/syncref/weft/per_cta_alloc.weft", map[string]int64{"NCTA": 2}, ""},
		{"per_cta_alloc_swz_2", "../../../bench/syncref/weft/per_cta_alloc.weft", map[string]int64{"NCTA": 2}, swz},
		{"rmem_one_thread", "../../../examples/weft/exo/rmem_uniform.weft", nil, oneThread},
		{"rmem_gmem", "../../../examples/weft/exo/rmem_uniform.weft", nil, ""},
		{"rmem_grid_constant", "../../../examples/weft/exo/rmem_uniform_grid_constant.weft", nil, ""},
		{"file", os.Getenv("SMALLMACHINE_FILE"), map[string]int64{"NCTA": 1}, ""},
	} {
		if tc.path == "" {
			continue
		}
		data, err := os.ReadFile(tc.path)
		if err != nil {
			b.Fatal(err)
		}
		if tc.sed != "" {
			cmd := exec.Command("sed", tc.sed)
			cmd.Stdin = strings.NewReader(string(data))
			if data, err = cmd.Output(); err != nil {
				b.Fatal(err)
			}
		}
		l := lib.MustStd()
		var errs diag.List
		f := syntax.Parse(diag.NewFile(tc.name+".weft", data), &errs)
		check.Check(f, l, &errs)
		gpu := gpucheck.Check(f, gpucheck.Options{Lib: l, Sizes: tc.sizes}, &errs)
		if errs.HasErrors() {
			b.Fatalf("%s: %v", tc.name, errs.Diags)
		}
		var p *syntax.Proc
		for _, d := range f.Decls {
			if q, ok := d.(*syntax.Proc); ok && !lib.IsInstr(q) && hasDevice(q.Body) {
				p = q
			}
		}
		prog := Convert(f, p, gpu, l, &errs)
		vals := make([]int, len(prog.SizeParams))
		for i, n := range prog.SizeParams {
			vals[i] = int(tc.sizes[n])
		}
		b.Run(tc.name+"/run", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				amir.New(prog.AMIR, amir.Config{}).Run(vals)
			}
		})
		b.Run(tc.name+"/convert", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var errs diag.List
				Convert(f, p, gpu, l, &errs)
			}
		})
	}
}
