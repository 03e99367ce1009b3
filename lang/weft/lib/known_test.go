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

// TestStreamSyncSets pins Library.StreamSync to the sets of the two
// timelines it is resolved from (cuda_stream_sync's full and temporal
// sets, each with cuda_temporal's temporal set), the sync checker's
// device function fences (issue 13, stop 47), and a library without
// them to zeros.
func TestStreamSyncSets(t *testing.T) {
	l := MustStd()
	cs, ct := l.Timelines["cuda_stream_sync"], l.Timelines["cuda_temporal"]
	if cs == nil || ct == nil {
		t.Fatal("the standard library has no cuda_stream_sync or cuda_temporal")
	}
	want := StreamSyncSets{Full: cs.FullSet | ct.TemporalSet, Temp: cs.TemporalSet | ct.TemporalSet}
	if l.StreamSync != want || want.Full == 0 {
		t.Errorf("StreamSync = %+v, want %+v", l.StreamSync, want)
	}
	if s := streamSyncSets(map[string]*SyncTL{"other": {Name: "other", FullSet: 4}}); s != (StreamSyncSets{}) {
		t.Errorf("a library without the two timelines resolves %+v, want zeros", s)
	}
	if s := streamSyncSets(map[string]*SyncTL{"cuda_temporal": {TemporalSet: 6}}); s != (StreamSyncSets{Full: 6, Temp: 6}) {
		t.Errorf("cuda_temporal alone resolves %+v", s)
	}
}

// TestKnownBit: Bit answers each field of KnownQuals for its timeline's
// name (a library whose fields are all distinct bits, so a name paired
// with the wrong field shows), and no other name.
func TestKnownBit(t *testing.T) {
	var k KnownQuals
	v := reflect.ValueOf(&k).Elem()
	for i := 0; i < v.NumField(); i++ {
		v.Field(i).SetUint(1 << i)
	}
	if len(knownNames) != v.NumField() {
		t.Fatalf("knownNames has %d names, KnownQuals %d fields", len(knownNames), v.NumField())
	}
	want := map[string]QualSet{
		"tma_to_smem_async_qual": k.TMAToSmem, "tma_to_gmem_async_qual": k.TMAToGmem,
		"wmma_async_smem_qual": k.WmmaSmem, "wmma_async_rmem_a_qual": k.WmmaRmemA,
		"wmma_async_rmem_d_qual": k.WmmaRmemD, "Sm80_cp_async_qual": k.CpAsync,
		"cuda_in_order_ram_qual": k.InOrderRAM, "cuda_in_order_rmem_qual": k.InOrderRMEM,
		"cpu_in_order_qual": k.CPUInOrder,
	}
	for name, w := range want {
		if got, ok := k.Bit(name); !ok || got != w {
			t.Errorf("Bit(%s) = %b %v, want %b", name, got, ok, w)
		}
	}
	for _, name := range []string{"", "cuda_in_order", "cpu_in_order_qual_", "CPU_IN_ORDER_QUAL"} {
		if got, ok := k.Bit(name); ok {
			t.Errorf("Bit(%q) = %b, want none", name, got)
		}
	}
}
