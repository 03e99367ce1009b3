package lib

import (
	"fmt"
	"testing"

	"weft.dev/weft/diag"
)

// TestArgQuals: T_init/T_ext (seed 000 Fig. 20) of a parameter "@ any"
// follow the argument's memory (register vs RAM); a declared memory or an
// explicit @access init=/ext= fixes them.
func TestArgQuals(t *testing.T) {
	l := MustStd()
	src := `@instr(tl=cuda_in_order, unit=cuda_thread, cuda="")
@access(c, init=cuda_in_order_ram_qual)
@access(d, ext=[cuda_in_order_ram_qual, cuda_in_order_rmem_qual])
def k(a: f32, r: f32 @ CudaRmem, c: f32, d: f32, g: f32 @ CudaGmemLinear):
    a = r
    c = d
    g = a
`
	var errs diag.List
	in := ParseInstr(syntaxParse(t, src), l, &errs)
	if errs.Len() > 0 {
		t.Fatal(errs.Err())
	}
	rmem, smem, gmem := l.Memories["CudaRmem"], l.Memories["CudaSmemLinear"], l.Memories["CudaGmemLinear"]
	got := ""
	for _, a := range in.AccessOrder {
		for _, m := range []*Memory{rmem, smem, gmem, nil} {
			init, ext := in.ArgQuals(a, m)
			got += fmt.Sprintf("%s %s %v; ", a.Param, init, ext)
		}
		got += "\n"
	}
	want := `a cuda_in_order_rmem_qual [cuda_in_order_rmem_qual]; a cuda_in_order_ram_qual [cuda_in_order_ram_qual]; a cuda_in_order_ram_qual [cuda_in_order_ram_qual]; a cuda_in_order_ram_qual [cuda_in_order_ram_qual]; 
r cuda_in_order_rmem_qual [cuda_in_order_rmem_qual]; r cuda_in_order_rmem_qual [cuda_in_order_rmem_qual]; r cuda_in_order_rmem_qual [cuda_in_order_rmem_qual]; r cuda_in_order_rmem_qual [cuda_in_order_rmem_qual]; 
c cuda_in_order_ram_qual [cuda_in_order_ram_qual]; c cuda_in_order_ram_qual [cuda_in_order_ram_qual]; c cuda_in_order_ram_qual [cuda_in_order_ram_qual]; c cuda_in_order_ram_qual [cuda_in_order_ram_qual]; 
d cuda_in_order_rmem_qual [cuda_in_order_ram_qual cuda_in_order_rmem_qual]; d cuda_in_order_ram_qual [cuda_in_order_ram_qual cuda_in_order_rmem_qual]; d cuda_in_order_ram_qual [cuda_in_order_ram_qual cuda_in_order_rmem_qual]; d cuda_in_order_ram_qual [cuda_in_order_ram_qual cuda_in_order_rmem_qual]; 
g cuda_in_order_ram_qual [cuda_in_order_ram_qual]; g cuda_in_order_ram_qual [cuda_in_order_ram_qual]; g cuda_in_order_ram_qual [cuda_in_order_ram_qual]; g cuda_in_order_ram_qual [cuda_in_order_ram_qual]; 
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
