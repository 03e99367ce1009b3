package lib

import (
	"fmt"
	"sync"
)

// Device is the GPU a run models: what cudaGetDeviceProperties and
// cudaDeviceGetAttribute answer, and the limits launches are checked
// against. Values are NVIDIA's published figures for the part.
type Device struct {
	Name                 string
	Major, Minor         int
	SMs                  int
	ClockKHz             int
	MemClockKHz          int
	MemBusWidth          int
	GlobalMem            uint64
	L2Bytes              int
	SmemPerBlock         int // default (without opting in)
	SmemPerBlockOptin    int
	SmemPerSM            int
	RegsPerBlock         int
	RegsPerSM            int
	MaxThreadsPerSM      int
	MaxBlocksPerSM       int
	ConstMem             int
	MaxClusterSize       int // portable cluster size (0: no clusters)
	CooperativeLaunch    bool
	ConcurrentKernels    bool
	ComputeMode          int
	PCIBus, PCIDevice    int
	PCIDomain            int
	MaxPersistingL2Bytes int
	ECC                  bool   // ECC memory enabled (the data-center default)
	AsyncEngines         int    // copy engines that overlap kernels (asyncEngineCount)
	MemSyncDomains       int    // cudaDevAttrMemSyncDomainCount
	DeferredMapping      bool   // deferredMappingCudaArraySupported
	GpuPCIID             uint32 // PCI device ID << 16 | vendor ID 0x10de (gpuPciDeviceID)
}

// H100 is an H100 SXM5 80 GB (compute capability 9.0): the default.
// MaxPersistingL2Bytes is what an H100 80GB HBM3 reported (stop 31's
// GPU run of deviceprop_01): 32768000 bytes, 31.25 MiB.
var H100 = Device{
	Name: "NVIDIA H100 80GB HBM3", Major: 9, Minor: 0, SMs: 132, ClockKHz: 1980000, MemClockKHz: 2619000,
	MemBusWidth: 5120, GlobalMem: 80 << 30, L2Bytes: 50 << 20, SmemPerBlock: 48 << 10, SmemPerBlockOptin: 227 << 10,
	SmemPerSM: 228 << 10, RegsPerBlock: 65536, RegsPerSM: 65536, MaxThreadsPerSM: 2048, MaxBlocksPerSM: 32,
	ConstMem: 64 << 10, MaxClusterSize: 8, CooperativeLaunch: true, ConcurrentKernels: true, MaxPersistingL2Bytes: 32768000,
	ECC: true, AsyncEngines: 3, MemSyncDomains: 4, DeferredMapping: true, GpuPCIID: 0x2330<<16 | 0x10de,
}

// A100 is an A100 SXM4 80 GB (compute capability 8.0).
var A100 = Device{
	Name: "NVIDIA A100-SXM4-80GB", Major: 8, Minor: 0, SMs: 108, ClockKHz: 1410000, MemClockKHz: 1593000,
	MemBusWidth: 5120, GlobalMem: 80 << 30, L2Bytes: 40 << 20, SmemPerBlock: 48 << 10, SmemPerBlockOptin: 163 << 10,
	SmemPerSM: 164 << 10, RegsPerBlock: 65536, RegsPerSM: 65536, MaxThreadsPerSM: 2048, MaxBlocksPerSM: 32,
	ConstMem: 64 << 10, CooperativeLaunch: true, ConcurrentKernels: true, MaxPersistingL2Bytes: 30 << 20,
	ECC: true, AsyncEngines: 3, MemSyncDomains: 1, GpuPCIID: 0x20b2<<16 | 0x10de,
}

// Devices are the modeled devices by their --device name.
var Devices = map[string]*Device{"h100": &H100, "a100": &A100}

// DeviceByName returns the device named (h100, a100).
func DeviceByName(name string) (*Device, error) {
	if d, ok := Devices[name]; ok {
		return d, nil
	}
	return nil, fmt.Errorf("unknown device %q (want h100 or a100)", name)
}

// AttrNumbers returns the cudaDeviceAttr enumerators (driver_types.h of
// CUDA 13, which keeps CUDA 12's numbers;
// cudaDevAttrCooperativeMultiDeviceLaunch is CUDA 12's name of 96), built
// on first use (issue 13, stop 44).
var AttrNumbers = sync.OnceValue(func() map[string]int {
	return map[string]int{
		"cudaDevAttrMaxThreadsPerBlock": 1, "cudaDevAttrMaxBlockDimX": 2, "cudaDevAttrMaxBlockDimY": 3,
		"cudaDevAttrMaxBlockDimZ": 4, "cudaDevAttrMaxGridDimX": 5, "cudaDevAttrMaxGridDimY": 6,
		"cudaDevAttrMaxGridDimZ": 7, "cudaDevAttrMaxSharedMemoryPerBlock": 8, "cudaDevAttrTotalConstantMemory": 9,
		"cudaDevAttrWarpSize": 10, "cudaDevAttrMaxPitch": 11, "cudaDevAttrMaxRegistersPerBlock": 12,
		"cudaDevAttrClockRate": 13, "cudaDevAttrTextureAlignment": 14, "cudaDevAttrGpuOverlap": 15,
		"cudaDevAttrMultiProcessorCount": 16, "cudaDevAttrKernelExecTimeout": 17, "cudaDevAttrIntegrated": 18,
		"cudaDevAttrCanMapHostMemory": 19, "cudaDevAttrComputeMode": 20, "cudaDevAttrMaxTexture1DWidth": 21,
		"cudaDevAttrMaxTexture2DWidth": 22, "cudaDevAttrMaxTexture2DHeight": 23, "cudaDevAttrMaxTexture3DWidth": 24,
		"cudaDevAttrMaxTexture3DHeight": 25, "cudaDevAttrMaxTexture3DDepth": 26,
		"cudaDevAttrMaxTexture2DLayeredWidth": 27, "cudaDevAttrMaxTexture2DLayeredHeight": 28,
		"cudaDevAttrMaxTexture2DLayeredLayers": 29, "cudaDevAttrSurfaceAlignment": 30,
		"cudaDevAttrConcurrentKernels": 31, "cudaDevAttrEccEnabled": 32, "cudaDevAttrPciBusId": 33,
		"cudaDevAttrPciDeviceId": 34, "cudaDevAttrTccDriver": 35, "cudaDevAttrMemoryClockRate": 36,
		"cudaDevAttrGlobalMemoryBusWidth": 37, "cudaDevAttrL2CacheSize": 38,
		"cudaDevAttrMaxThreadsPerMultiProcessor": 39, "cudaDevAttrAsyncEngineCount": 40,
		"cudaDevAttrUnifiedAddressing": 41, "cudaDevAttrMaxTexture1DLayeredWidth": 42,
		"cudaDevAttrMaxTexture1DLayeredLayers": 43, "cudaDevAttrMaxTexture2DGatherWidth": 45,
		"cudaDevAttrMaxTexture2DGatherHeight": 46, "cudaDevAttrMaxTexture3DWidthAlt": 47,
		"cudaDevAttrMaxTexture3DHeightAlt": 48, "cudaDevAttrMaxTexture3DDepthAlt": 49, "cudaDevAttrPciDomainId": 50,
		"cudaDevAttrTexturePitchAlignment": 51, "cudaDevAttrMaxTextureCubemapWidth": 52,
		"cudaDevAttrMaxTextureCubemapLayeredWidth": 53, "cudaDevAttrMaxTextureCubemapLayeredLayers": 54,
		"cudaDevAttrMaxSurface1DWidth": 55, "cudaDevAttrMaxSurface2DWidth": 56, "cudaDevAttrMaxSurface2DHeight": 57,
		"cudaDevAttrMaxSurface3DWidth": 58, "cudaDevAttrMaxSurface3DHeight": 59, "cudaDevAttrMaxSurface3DDepth": 60,
		"cudaDevAttrMaxSurface1DLayeredWidth": 61, "cudaDevAttrMaxSurface1DLayeredLayers": 62,
		"cudaDevAttrMaxSurface2DLayeredWidth": 63, "cudaDevAttrMaxSurface2DLayeredHeight": 64,
		"cudaDevAttrMaxSurface2DLayeredLayers": 65, "cudaDevAttrMaxSurfaceCubemapWidth": 66,
		"cudaDevAttrMaxSurfaceCubemapLayeredWidth": 67, "cudaDevAttrMaxSurfaceCubemapLayeredLayers": 68,
		"cudaDevAttrMaxTexture1DLinearWidth": 69, "cudaDevAttrMaxTexture2DLinearWidth": 70,
		"cudaDevAttrMaxTexture2DLinearHeight": 71, "cudaDevAttrMaxTexture2DLinearPitch": 72,
		"cudaDevAttrMaxTexture2DMipmappedWidth": 73, "cudaDevAttrMaxTexture2DMipmappedHeight": 74,
		"cudaDevAttrComputeCapabilityMajor": 75, "cudaDevAttrComputeCapabilityMinor": 76,
		"cudaDevAttrMaxTexture1DMipmappedWidth": 77, "cudaDevAttrStreamPrioritiesSupported": 78,
		"cudaDevAttrGlobalL1CacheSupported": 79, "cudaDevAttrLocalL1CacheSupported": 80,
		"cudaDevAttrMaxSharedMemoryPerMultiprocessor": 81, "cudaDevAttrMaxRegistersPerMultiprocessor": 82,
		"cudaDevAttrManagedMemory": 83, "cudaDevAttrIsMultiGpuBoard": 84, "cudaDevAttrMultiGpuBoardGroupID": 85,
		"cudaDevAttrHostNativeAtomicSupported": 86, "cudaDevAttrSingleToDoublePrecisionPerfRatio": 87,
		"cudaDevAttrPageableMemoryAccess": 88, "cudaDevAttrConcurrentManagedAccess": 89,
		"cudaDevAttrComputePreemptionSupported": 90, "cudaDevAttrCanUseHostPointerForRegisteredMem": 91,
		"cudaDevAttrCooperativeLaunch": 95, "cudaDevAttrMaxSharedMemoryPerBlockOptin": 97,
		"cudaDevAttrCanFlushRemoteWrites": 98, "cudaDevAttrHostRegisterSupported": 99,
		"cudaDevAttrPageableMemoryAccessUsesHostPageTables": 100, "cudaDevAttrDirectManagedMemAccessFromHost": 101,
		"cudaDevAttrMaxBlocksPerMultiprocessor": 106, "cudaDevAttrMaxPersistingL2CacheSize": 108,
		"cudaDevAttrMaxAccessPolicyWindowSize": 109, "cudaDevAttrSparseCudaArraySupported": 112,
		"cudaDevAttrHostRegisterReadOnlySupported": 113, "cudaDevAttrTimelineSemaphoreInteropSupported": 114,
		"cudaDevAttrMemoryPoolsSupported": 115, "cudaDevAttrGPUDirectRDMASupported": 116,
		"cudaDevAttrGPUDirectRDMAFlushWritesOptions": 117, "cudaDevAttrGPUDirectRDMAWritesOrdering": 118,
		"cudaDevAttrMemoryPoolSupportedHandleTypes": 119, "cudaDevAttrClusterLaunch": 120,
		"cudaDevAttrDeferredMappingCudaArraySupported": 121, "cudaDevAttrIpcEventSupport": 125,
		"cudaDevAttrMemSyncDomainCount": 126, "cudaDevAttrNumaConfig": 130, "cudaDevAttrNumaId": 131,
		"cudaDevAttrMpsEnabled": 133, "cudaDevAttrHostNumaId": 134, "cudaDevAttrD3D12CigSupported": 135,
		"cudaDevAttrVulkanCigSupported": 138, "cudaDevAttrGpuPciDeviceId": 139, "cudaDevAttrGpuPciSubsystemId": 140,
		"cudaDevAttrHostNumaMemoryPoolsSupported": 142, "cudaDevAttrHostNumaMultinodeIpcSupported": 143,
		"cudaDevAttrHostMemoryPoolsSupported": 144, "cudaDevAttrOnlyPartialHostNativeAtomicSupported": 147,
		"cudaDevAttrAtomicReductionSupported": 148, "cudaDevAttrLocalityDomainCount": 149,
		"cudaDevAttrOversizedSharedMemoryPerBlock": 150, "cudaDevAttrCigStreamsSupported": 151,
		"cudaDevAttrLocalityDomainMultiprocessorCount": 157, "cudaDevAttrTensorMapLargeTensorMinSize": 160,
		"cudaDevAttrCooperativeMultiDeviceLaunch": 96, "cudaDevAttrReservedSharedMemoryPerBlock": 111,
	}
})

// Attribute returns the value of cudaDeviceGetAttribute for attribute
// number attr; ok is false for an attribute this model does not know (a
// reserved number). Every attribute that mirrors a cudaDeviceProp field
// answers that field's value (PropFields), so the two APIs agree.
func (d *Device) Attribute(attr int) (int, bool) {
	for _, f := range PropFields() {
		for i, a := range f.Attrs {
			if a == attr && a != 0 {
				return int(f.Get(d)[i]), true
			}
		}
	}
	switch attr {
	case 98: // cudaDevAttrCanFlushRemoteWrites: no remote writes to flush
		return 0, true
	case 126: // cudaDevAttrMemSyncDomainCount
		return d.MemSyncDomains, true
	case 135, 138, 142, 144, 147, 148, 151:
		// D3D12/Vulkan CIG, host NUMA and host memory pools, partial
		// host atomics, atomic reductions, CIG streams: not on a Linux
		// x86 host of these parts
		return 0, true
	case 149: // cudaDevAttrLocalityDomainCount: one domain
		return 1, true
	case 150: // cudaDevAttrOversizedSharedMemoryPerBlock: none beyond the opt-in
		return 0, true
	case 157: // cudaDevAttrLocalityDomainMultiprocessorCount
		return d.SMs, true
	}
	return 0, false
}

// ActiveBlocksPerSM is the occupancy answer of
// cudaOccupancyMaxActiveBlocksPerMultiprocessor for a block of threads
// threads using smem bytes of shared memory (static plus dynamic), limited
// by threads, blocks and shared memory per SM (registers are not modeled:
// the interpreter does not allocate them, so this is an upper bound).
func (d *Device) ActiveBlocksPerSM(threads, smem int) int {
	if threads <= 0 || threads > 1024 {
		return 0
	}
	warps := (threads + 31) / 32
	n := d.MaxThreadsPerSM / (warps * 32)
	if n > d.MaxBlocksPerSM {
		n = d.MaxBlocksPerSM
	}
	if smem > 0 {
		per := smem + 1024 // the runtime reserves 1 KB per block (cudaDevAttrReservedSharedMemoryPerBlock)
		if s := d.SmemPerSM / per; s < n {
			n = s
		}
	}
	return n
}
