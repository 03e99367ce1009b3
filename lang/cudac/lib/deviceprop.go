package lib

import "sync"

// PropKind is the C type of a cudaDeviceProp field.
type PropKind uint8

const (
	PropInt  PropKind = iota // int
	PropUInt                 // unsigned int
	PropSize                 // size_t
	PropChar                 // char (name, luid: arrays)
	PropUUID                 // cudaUUID_t, 16 bytes
)

// PropField is one field of cudaDeviceProp: its name, C type, array
// length (0: a scalar), the cudaDevAttr number of each element (0: none)
// and its value on a device, one per element.
type PropField struct {
	Name  string
	Kind  PropKind
	Len   int
	Attrs []int
	Get   func(d *Device) []int64
}

func b2i(v bool) int64 {
	if v {
		return 1
	}
	return 0
}

func pi(name string, attr int, get func(d *Device) int64) PropField {
	return PropField{Name: name, Kind: PropInt, Attrs: []int{attr}, Get: func(d *Device) []int64 { return []int64{get(d)} }}
}

func pz(name string, attr int, get func(d *Device) int64) PropField {
	f := pi(name, attr, get)
	f.Kind = PropSize
	return f
}

func pu(name string, attr int, get func(d *Device) int64) PropField {
	f := pi(name, attr, get)
	f.Kind = PropUInt
	return f
}

func pc(name string, attr int, v int64) PropField {
	return pi(name, attr, func(*Device) int64 { return v })
}

// pa is an int array field of fixed values, the same on both modeled parts.
func pa(name string, attrs []int, v ...int64) PropField {
	return PropField{Name: name, Kind: PropInt, Len: len(v), Attrs: attrs, Get: func(*Device) []int64 { return v }}
}

// PropFields returns cudaDeviceProp in the order of CUDA 12's driver_types.h,
// with the fields CUDA 13 removed (clockRate, deviceOverlap,
// kernelExecTimeoutEnabled, computeMode, maxTexture1DLinear,
// memoryClockRate, singleToDoublePrecisionPerfRatio,
// cooperativeMultiDeviceLaunch) kept, so programs written against either
// version compile, and CUDA 13's NUMA and PCI-ID fields added before the
// reserved tail. Values are NVIDIA's published figures for each part (the
// texture and surface limits are those of compute capability 8.x and 9.0,
// CUDA C++ Programming Guide, "Features and Technical Specifications");
// the PCI location (domain, bus, device 0), UUID and LUID (zero) and NUMA
// ids (-1: no NUMA node) are fixed values of a modeled machine, not read
// from hardware. Built on first use, not at every weft process's start
// (issue 13, stop 44).
var PropFields = sync.OnceValue(func() []PropField {
	return []PropField{
		{Name: "name", Kind: PropChar, Len: 256},
		{Name: "uuid", Kind: PropUUID},
		{Name: "luid", Kind: PropChar, Len: 8},
		pu("luidDeviceNodeMask", 0, func(*Device) int64 { return 0 }),
		pz("totalGlobalMem", 0, func(d *Device) int64 { return int64(d.GlobalMem) }),
		pz("sharedMemPerBlock", 8, func(d *Device) int64 { return int64(d.SmemPerBlock) }),
		pi("regsPerBlock", 12, func(d *Device) int64 { return int64(d.RegsPerBlock) }),
		pc("warpSize", 10, 32),
		pz("memPitch", 11, func(*Device) int64 { return 1<<31 - 1 }),
		pc("maxThreadsPerBlock", 1, 1024),
		pa("maxThreadsDim", []int{2, 3, 4}, 1024, 1024, 64),
		pa("maxGridSize", []int{5, 6, 7}, 1<<31-1, 65535, 65535),
		pi("clockRate", 13, func(d *Device) int64 { return int64(d.ClockKHz) }),
		pz("totalConstMem", 9, func(d *Device) int64 { return int64(d.ConstMem) }),
		pi("major", 75, func(d *Device) int64 { return int64(d.Major) }),
		pi("minor", 76, func(d *Device) int64 { return int64(d.Minor) }),
		pz("textureAlignment", 14, func(*Device) int64 { return 512 }),
		pz("texturePitchAlignment", 51, func(*Device) int64 { return 32 }),
		pc("deviceOverlap", 15, 1),
		pi("multiProcessorCount", 16, func(d *Device) int64 { return int64(d.SMs) }),
		pc("kernelExecTimeoutEnabled", 17, 0), // no display watchdog on a data-center part
		pc("integrated", 18, 0),
		pc("canMapHostMemory", 19, 1),
		pi("computeMode", 20, func(d *Device) int64 { return int64(d.ComputeMode) }),
		pc("maxTexture1D", 21, 131072),
		pc("maxTexture1DMipmap", 77, 32768),
		pc("maxTexture1DLinear", 69, 1<<28),
		pa("maxTexture2D", []int{22, 23}, 131072, 65536),
		pa("maxTexture2DMipmap", []int{73, 74}, 32768, 32768),
		pa("maxTexture2DLinear", []int{70, 71, 72}, 131072, 65000, 2097120),
		pa("maxTexture2DGather", []int{45, 46}, 32768, 32768),
		pa("maxTexture3D", []int{24, 25, 26}, 16384, 16384, 16384),
		pa("maxTexture3DAlt", []int{47, 48, 49}, 8192, 8192, 32768),
		pc("maxTextureCubemap", 52, 32768),
		pa("maxTexture1DLayered", []int{42, 43}, 32768, 2048),
		pa("maxTexture2DLayered", []int{27, 28, 29}, 32768, 32768, 2048),
		pa("maxTextureCubemapLayered", []int{53, 54}, 32768, 2046),
		pc("maxSurface1D", 55, 32768),
		pa("maxSurface2D", []int{56, 57}, 131072, 65536),
		pa("maxSurface3D", []int{58, 59, 60}, 16384, 16384, 16384),
		pa("maxSurface1DLayered", []int{61, 62}, 32768, 2048),
		pa("maxSurface2DLayered", []int{63, 64, 65}, 32768, 32768, 2048),
		pc("maxSurfaceCubemap", 66, 32768),
		pa("maxSurfaceCubemapLayered", []int{67, 68}, 32768, 2046),
		pz("surfaceAlignment", 30, func(*Device) int64 { return 512 }),
		pi("concurrentKernels", 31, func(d *Device) int64 { return b2i(d.ConcurrentKernels) }),
		pi("ECCEnabled", 32, func(d *Device) int64 { return b2i(d.ECC) }),
		pi("pciBusID", 33, func(d *Device) int64 { return int64(d.PCIBus) }),
		pi("pciDeviceID", 34, func(d *Device) int64 { return int64(d.PCIDevice) }),
		pi("pciDomainID", 50, func(d *Device) int64 { return int64(d.PCIDomain) }),
		pc("tccDriver", 35, 0),
		pi("asyncEngineCount", 40, func(d *Device) int64 { return int64(d.AsyncEngines) }),
		pc("unifiedAddressing", 41, 1),
		pi("memoryClockRate", 36, func(d *Device) int64 { return int64(d.MemClockKHz) }),
		pi("memoryBusWidth", 37, func(d *Device) int64 { return int64(d.MemBusWidth) }),
		pi("l2CacheSize", 38, func(d *Device) int64 { return int64(d.L2Bytes) }),
		pi("persistingL2CacheMaxSize", 108, func(d *Device) int64 { return int64(d.MaxPersistingL2Bytes) }),
		pi("maxThreadsPerMultiProcessor", 39, func(d *Device) int64 { return int64(d.MaxThreadsPerSM) }),
		pc("streamPrioritiesSupported", 78, 1),
		pc("globalL1CacheSupported", 79, 1),
		pc("localL1CacheSupported", 80, 1),
		pz("sharedMemPerMultiprocessor", 81, func(d *Device) int64 { return int64(d.SmemPerSM) }),
		pi("regsPerMultiprocessor", 82, func(d *Device) int64 { return int64(d.RegsPerSM) }),
		pc("managedMemory", 83, 1),
		pc("isMultiGpuBoard", 84, 0),
		pc("multiGpuBoardGroupID", 85, 0),
		pc("hostNativeAtomicSupported", 86, 0), // an x86 host over PCIe/NVLink-less links
		pc("singleToDoublePrecisionPerfRatio", 87, 2),
		pc("pageableMemoryAccess", 88, 0),
		pc("concurrentManagedAccess", 89, 1),
		pc("computePreemptionSupported", 90, 1),
		pc("canUseHostPointerForRegisteredMem", 91, 1),
		pi("cooperativeLaunch", 95, func(d *Device) int64 { return b2i(d.CooperativeLaunch) }),
		pi("cooperativeMultiDeviceLaunch", 96, func(d *Device) int64 { return b2i(d.CooperativeLaunch) }),
		pz("sharedMemPerBlockOptin", 97, func(d *Device) int64 { return int64(d.SmemPerBlockOptin) }),
		pc("pageableMemoryAccessUsesHostPageTables", 100, 0),
		pc("directManagedMemAccessFromHost", 101, 0),
		pi("maxBlocksPerMultiProcessor", 106, func(d *Device) int64 { return int64(d.MaxBlocksPerSM) }),
		pc("accessPolicyMaxWindowSize", 109, 134213632),
		pz("reservedSharedMemPerBlock", 111, func(*Device) int64 { return 1024 }),
		pc("hostRegisterSupported", 99, 1),
		pc("sparseCudaArraySupported", 112, 1),
		pc("hostRegisterReadOnlySupported", 113, 1),
		pc("timelineSemaphoreInteropSupported", 114, 1),
		pc("memoryPoolsSupported", 115, 1),
		pc("gpuDirectRDMASupported", 116, 1),
		pu("gpuDirectRDMAFlushWritesOptions", 117, func(*Device) int64 { return 1 }),
		pc("gpuDirectRDMAWritesOrdering", 118, 100), // cudaGPUDirectRDMAWritesOrderingOwner
		pu("memoryPoolSupportedHandleTypes", 119, func(*Device) int64 { return 1 }),
		pi("deferredMappingCudaArraySupported", 121, func(d *Device) int64 { return b2i(d.DeferredMapping) }),
		pc("ipcEventSupported", 125, 1),
		pi("clusterLaunch", 120, func(d *Device) int64 { return b2i(d.MaxClusterSize > 0) }),
		pc("unifiedFunctionPointers", 0, 0),
		pc("deviceNumaConfig", 130, 0), // cudaDeviceNumaConfigNone
		pc("deviceNumaId", 131, -1),
		pc("mpsEnabled", 133, 0),
		pc("hostNumaId", 134, -1),
		pu("gpuPciDeviceID", 139, func(d *Device) int64 { return int64(d.GpuPCIID) }),
		pu("gpuPciSubsystemID", 140, func(*Device) int64 { return 0 }),
		pc("hostNumaMultinodeIpcSupported", 143, 0),
		{Name: "reserved", Kind: PropInt, Len: 56},
	}
})
