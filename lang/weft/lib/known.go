package lib

// KnownQuals are the qualitative timelines (Fig. 15) the code generator
// tests sync timelines against by name when it lowers Fence, Arrive and
// Await (cudagen/sync.go), each as the QualSet of its one bit, or 0 when
// the library has no timeline of that name. Load resolves them once: the
// generator had looked each name up in Library.Quals, through a short list
// of names compared in place, up to a dozen times per Fence of every weft
// check (issue 13, stop 34: a tenth of the CheckOnly pass on
// per_cta_alloc). A QualSet of 0 tests false, as a missing name did.
type KnownQuals struct {
	TMAToSmem   QualSet // tma_to_smem_async_qual
	TMAToGmem   QualSet // tma_to_gmem_async_qual
	WmmaSmem    QualSet // wmma_async_smem_qual
	WmmaRmemA   QualSet // wmma_async_rmem_a_qual
	WmmaRmemD   QualSet // wmma_async_rmem_d_qual
	CpAsync     QualSet // Sm80_cp_async_qual
	InOrderRAM  QualSet // cuda_in_order_ram_qual
	InOrderRMEM QualSet // cuda_in_order_rmem_qual
	// CPUInOrder is read by the sync checker's conversion (the host's
	// timeline of a device function's fences; issue 13, stop 35).
	CPUInOrder QualSet // cpu_in_order_qual
}

// knownNames pairs each field of KnownQuals with its timeline's name:
// the one list knownQuals resolves and Bit answers from.
var knownNames = [...]struct {
	name  string
	field func(*KnownQuals) *QualSet
}{
	{"tma_to_smem_async_qual", func(k *KnownQuals) *QualSet { return &k.TMAToSmem }},
	{"tma_to_gmem_async_qual", func(k *KnownQuals) *QualSet { return &k.TMAToGmem }},
	{"wmma_async_smem_qual", func(k *KnownQuals) *QualSet { return &k.WmmaSmem }},
	{"wmma_async_rmem_a_qual", func(k *KnownQuals) *QualSet { return &k.WmmaRmemA }},
	{"wmma_async_rmem_d_qual", func(k *KnownQuals) *QualSet { return &k.WmmaRmemD }},
	{"Sm80_cp_async_qual", func(k *KnownQuals) *QualSet { return &k.CpAsync }},
	{"cuda_in_order_ram_qual", func(k *KnownQuals) *QualSet { return &k.InOrderRAM }},
	{"cuda_in_order_rmem_qual", func(k *KnownQuals) *QualSet { return &k.InOrderRMEM }},
	{"cpu_in_order_qual", func(k *KnownQuals) *QualSet { return &k.CPUInOrder }},
}

// knownQuals resolves KnownQuals from quals.
func knownQuals(quals map[string]*QualTL) KnownQuals {
	var k KnownQuals
	for _, n := range knownNames {
		if q := quals[n.name]; q != nil {
			*n.field(&k) = 1 << q.Index
		}
	}
	return k
}

// Bit is the field of k that names timeline name (ok false: name is none
// of KnownQuals'). The sync checker's conversion asks it before a lookup
// in Library.Quals (issue 13, stop 47: a map lookup is ~140 instructions,
// this a few compares of lengths).
func (k *KnownQuals) Bit(name string) (QualSet, bool) {
	for i := range knownNames {
		if knownNames[i].name == name {
			return *knownNames[i].field(k), true
		}
	}
	return 0, false
}

// StreamSyncSets are the full and temporal sets of the fences that
// bracket a device function (the sync checker's conversion): those of
// cuda_stream_sync, each with cuda_temporal's temporal set, 0 where the
// library has no such timeline. Load resolves them once: the two
// lookups by name had been made for every device function of every
// check (issue 13, stop 47).
type StreamSyncSets struct {
	Full, Temp QualSet
}

// streamSyncSets resolves StreamSyncSets from timelines.
func streamSyncSets(timelines map[string]*SyncTL) StreamSyncSets {
	var s StreamSyncSets
	if cs := timelines["cuda_stream_sync"]; cs != nil {
		s.Full, s.Temp = cs.FullSet, cs.TemporalSet
	}
	if ct := timelines["cuda_temporal"]; ct != nil {
		s.Full |= ct.TemporalSet
		s.Temp |= ct.TemporalSet
	}
	return s
}
