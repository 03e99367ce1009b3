package lib

import (
	"reflect"
	"testing"
)

// TestKnownQualsAreTheNamedBits pins each field of Library.Known to the
// bit of the qualitative timeline it names (the code generator tests sync
// timelines against them instead of looking the names up, issue 13, stop
// 34), and a name the library lacks to 0 (tests false, as a failed lookup
// did).
func TestKnownQualsAreTheNamedBits(t *testing.T) {
	l := MustStd()
	names := map[string]string{
		"TMAToSmem":   "tma_to_smem_async_qual",
		"TMAToGmem":   "tma_to_gmem_async_qual",
		"WmmaSmem":    "wmma_async_smem_qual",
		"WmmaRmemA":   "wmma_async_rmem_a_qual",
		"WmmaRmemD":   "wmma_async_rmem_d_qual",
		"CpAsync":     "Sm80_cp_async_qual",
		"InOrderRAM":  "cuda_in_order_ram_qual",
		"InOrderRMEM": "cuda_in_order_rmem_qual",
		"CPUInOrder":  "cpu_in_order_qual",
	}
	v := reflect.ValueOf(l.Known)
	if v.NumField() != len(names) {
		t.Fatalf("KnownQuals has %d fields, the test names %d", v.NumField(), len(names))
	}
	for field, name := range names {
		q := l.Quals[name]
		if q == nil {
			t.Fatalf("the standard library has no %s", name)
		}
		got := QualSet(v.FieldByName(field).Uint())
		if got != 1<<q.Index {
			t.Errorf("Known.%s = %b, want the bit of %s (%b)", field, got, name, QualSet(1)<<q.Index)
		}
		// Every sync timeline tests the same through the bit as through
		// the name.
		for _, tl := range l.Timelines {
			if (tl.FullSet&got != 0) != tl.FullSet.Has(q.Index) {
				t.Errorf("%s: Known.%s and %s disagree", tl.Name, field, name)
			}
		}
	}
	// A library without these timelines resolves them to 0.
	empty := knownQuals(map[string]*QualTL{"other": {Name: "other", Index: 3}})
	if empty != (KnownQuals{}) {
		t.Errorf("a library without the named timelines resolves %+v, want zeros", empty)
	}
}
