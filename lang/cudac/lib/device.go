package lib

import "fmt"

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
	MaxPersistingL2Bytes int
}

// H100 is an H100 SXM5 80 GB (compute capability 9.0): the default.
var H100 = Device{
	Name: "NVIDIA H100 80GB HBM3", Major: 9, Minor: 0, SMs: 132, ClockKHz: 1980000, MemClockKHz: 2619000,
	MemBusWidth: 5120, GlobalMem: 80 << 30, L2Bytes: 50 << 20, SmemPerBlock: 48 << 10, SmemPerBlockOptin: 227 << 10,
	SmemPerSM: 228 << 10, RegsPerBlock: 65536, RegsPerSM: 65536, MaxThreadsPerSM: 2048, MaxBlocksPerSM: 32,
	ConstMem: 64 << 10, MaxClusterSize: 8, CooperativeLaunch: true, ConcurrentKernels: true, MaxPersistingL2Bytes: 31 << 20,
}

// A100 is an A100 SXM4 80 GB (compute capability 8.0).
var A100 = Device{
	Name: "NVIDIA A100-SXM4-80GB", Major: 8, Minor: 0, SMs: 108, ClockKHz: 1410000, MemClockKHz: 1593000,
	MemBusWidth: 5120, GlobalMem: 80 << 30, L2Bytes: 40 << 20, SmemPerBlock: 48 << 10, SmemPerBlockOptin: 163 << 10,
	SmemPerSM: 164 << 10, RegsPerBlock: 65536, RegsPerSM: 65536, MaxThreadsPerSM: 2048, MaxBlocksPerSM: 32,
	ConstMem: 64 << 10, CooperativeLaunch: true, ConcurrentKernels: true, MaxPersistingL2Bytes: 30 << 20,
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

// Device attribute numbers (cudaDeviceAttr, driver_types.h of CUDA 12).
var AttrNumbers = map[string]int{
	"cudaDevAttrMaxThreadsPerBlock": 1, "cudaDevAttrMaxBlockDimX": 2, "cudaDevAttrMaxBlockDimY": 3,
	"cudaDevAttrMaxBlockDimZ": 4, "cudaDevAttrMaxGridDimX": 5, "cudaDevAttrMaxGridDimY": 6, "cudaDevAttrMaxGridDimZ": 7,
	"cudaDevAttrMaxSharedMemoryPerBlock": 8, "cudaDevAttrTotalConstantMemory": 9, "cudaDevAttrWarpSize": 10,
	"cudaDevAttrMaxPitch": 11, "cudaDevAttrMaxRegistersPerBlock": 12, "cudaDevAttrClockRate": 13,
	"cudaDevAttrTextureAlignment": 14, "cudaDevAttrGpuOverlap": 15, "cudaDevAttrMultiProcessorCount": 16,
	"cudaDevAttrKernelExecTimeout": 17, "cudaDevAttrIntegrated": 18, "cudaDevAttrCanMapHostMemory": 19,
	"cudaDevAttrComputeMode": 20, "cudaDevAttrConcurrentKernels": 31, "cudaDevAttrEccEnabled": 32,
	"cudaDevAttrPciBusId": 33, "cudaDevAttrPciDeviceId": 34, "cudaDevAttrMemoryClockRate": 36,
	"cudaDevAttrGlobalMemoryBusWidth": 37, "cudaDevAttrL2CacheSize": 38, "cudaDevAttrMaxThreadsPerMultiProcessor": 39,
	"cudaDevAttrAsyncEngineCount": 40, "cudaDevAttrUnifiedAddressing": 41, "cudaDevAttrComputeCapabilityMajor": 75,
	"cudaDevAttrComputeCapabilityMinor": 76, "cudaDevAttrStreamPrioritiesSupported": 78,
	"cudaDevAttrGlobalL1CacheSupported": 79, "cudaDevAttrLocalL1CacheSupported": 80,
	"cudaDevAttrMaxSharedMemoryPerMultiprocessor": 81, "cudaDevAttrMaxRegistersPerMultiprocessor": 82,
	"cudaDevAttrManagedMemory": 83, "cudaDevAttrIsMultiGpuBoard": 84, "cudaDevAttrConcurrentManagedAccess": 89,
	"cudaDevAttrComputePreemptionSupported": 90, "cudaDevAttrCooperativeLaunch": 95,
	"cudaDevAttrMaxSharedMemoryPerBlockOptin": 97, "cudaDevAttrMaxPersistingL2CacheSize": 108,
	"cudaDevAttrMaxBlocksPerMultiprocessor": 106, "cudaDevAttrReservedSharedMemoryPerBlock": 111,
	"cudaDevAttrClusterLaunch": 120, "cudaDevAttrMemoryPoolsSupported": 115,
}

// Attribute returns the value of cudaDeviceGetAttribute for attribute
// number attr; ok is false for an attribute this model does not know.
func (d *Device) Attribute(attr int) (int, bool) {
	b := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	switch attr {
	case 1:
		return 1024, true
	case 2, 3:
		return 1024, true
	case 4:
		return 64, true
	case 5:
		return 1<<31 - 1, true
	case 6, 7:
		return 65535, true
	case 8:
		return d.SmemPerBlock, true
	case 9:
		return d.ConstMem, true
	case 10:
		return 32, true
	case 11:
		return 1<<31 - 1, true
	case 12:
		return d.RegsPerBlock, true
	case 13:
		return d.ClockKHz, true
	case 14:
		return 512, true
	case 15, 31, 41, 78, 79, 80, 83, 89, 90, 115:
		return 1, true
	case 16:
		return d.SMs, true
	case 17, 18, 32, 84:
		return 0, true
	case 19:
		return 1, true
	case 20:
		return d.ComputeMode, true
	case 33:
		return d.PCIBus, true
	case 34:
		return d.PCIDevice, true
	case 36:
		return d.MemClockKHz, true
	case 37:
		return d.MemBusWidth, true
	case 38:
		return d.L2Bytes, true
	case 39:
		return d.MaxThreadsPerSM, true
	case 40:
		return 3, true
	case 75:
		return d.Major, true
	case 76:
		return d.Minor, true
	case 81:
		return d.SmemPerSM, true
	case 82:
		return d.RegsPerSM, true
	case 95:
		return b(d.CooperativeLaunch), true
	case 97:
		return d.SmemPerBlockOptin, true
	case 106:
		return d.MaxBlocksPerSM, true
	case 108:
		return d.MaxPersistingL2Bytes, true
	case 111:
		return 1024, true
	case 120:
		return b(d.MaxClusterSize > 0), true
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
