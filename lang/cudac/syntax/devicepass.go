package syntax

import (
	"bytes"

	"weft.dev/weft/diag"
)

// ParseUnit preprocesses and parses one translation unit as nvcc compiles
// it: twice when its text tests __CUDA_ARCH__. nvcc's host pass leaves
// __CUDA_ARCH__ undefined and its device pass defines it (900 here, the
// model's H100), so "#if __CUDA_ARCH__ >= 700" inside a kernel selects the
// kernel's device code, which only the device pass sees (NVIDIA's
// simpleAWBarrier guards its whole kernel so). The unit is the host pass's
// declarations and host functions, and the device pass's __global__ and
// __device__ (not __host__) functions and function templates: the code
// each pass would have compiled. A __host__ __device__ function is the
// host pass's (one body serves both sides in the model). Diagnostics of
// the device pass that the host pass did not give are reported too.
func ParseUnit(f *diag.File, diags *diag.List, cfg Config) *File {
	loadTables()
	toks := PreprocessConfig(f, diags, cfg)
	if diags.HasErrors() {
		return nil
	}
	host := Parse(toks, diags)
	if diags.HasErrors() || !bytes.Contains(f.Src, []byte("__CUDA_ARCH__")) {
		return host
	}
	var ddiags diag.List
	dcfg := cfg
	dcfg.Defines = append(append([]string(nil), cfg.Defines...), "__CUDA_ARCH__=900")
	dtoks := PreprocessConfig(f, &ddiags, dcfg)
	var dev *File
	if !ddiags.HasErrors() {
		dev = Parse(dtoks, &ddiags)
	}
	if ddiags.HasErrors() {
		seen := map[string]bool{}
		for _, d := range diags.Diags {
			seen[d.Pos.String()+d.Code] = true
		}
		for _, d := range ddiags.Diags {
			if !seen[d.Pos.String()+d.Code] {
				diags.Add(d)
			}
		}
		return nil
	}
	deviceOnly := func(fd *FuncDecl) bool { return fd.Q.Global || fd.Q.Device && !fd.Q.Host }
	pick := func(h, d []*FuncDecl) []*FuncDecl {
		var out []*FuncDecl
		for _, fd := range h {
			if !deviceOnly(fd) {
				out = append(out, fd)
			}
		}
		for _, fd := range d {
			if deviceOnly(fd) {
				out = append(out, fd)
			}
		}
		return out
	}
	host.Funcs = pick(host.Funcs, dev.Funcs)
	host.Templates = pick(host.Templates, dev.Templates)
	host.Specs = pick(host.Specs, dev.Specs)
	return host
}
