package sem

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/gpu"
	"weft.dev/weft/lang/cudac/lib"
	"weft.dev/weft/lang/cudac/syntax"
)

// CUDA runtime API beyond streams and copies (cudart.go): stream-ordered
// allocation, kernels as values (cudaFuncSetAttribute, occupancy,
// cudaLaunchKernelEx with its launch attributes), device attributes of
// the modeled device (lib.Device, default H100), and the driver types of
// <cuda.h> that host code names.

var (
	tCUtensorMap = func() *Type {
		t := structOf("CUtensorMap", "opaque", arrayOf(tULLong, 16))
		t.align = 64
		return t
	}()
	tClusterDim    = structOf("cudaLaunchAttributeClusterDim", "x", tUInt, "y", tUInt, "z", tUInt)
	tLaunchAttrVal = func() *Type {
		t := &Type{Kind: Struct, Name: "cudaLaunchAttributeValue", Union: true}
		for _, f := range []struct {
			n string
			t *Type
		}{{"pad", arrayOf(tChar, 64)}, {"accessPolicyWindow", tAccessPolicyWd}, {"clusterDim", tClusterDim}, {"cooperative", tInt}, {"priority", tInt},
			{"programmaticStreamSerializationAllowed", tInt}, {"syncPolicy", tInt}} {
			t.Fields = append(t.Fields, &FieldInfo{Name: f.n, Type: f.t})
		}
		layoutStruct(t)
		return t
	}()
	tLaunchAttr   = structOf("cudaLaunchAttribute", "id", tInt, "pad", arrayOf(tChar, 4), "val", tLaunchAttrVal)
	tLaunchConfig = structOf("cudaLaunchConfig_t", "gridDim", tDim3, "blockDim", tDim3, "dynamicSmemBytes", tULong,
		"stream", tLong, "attrs", ptrTo(tLaunchAttr), "numAttrs", tUInt)
)

// cudaLaunchAttributeID and cudaFuncAttribute values (driver_types.h).
const (
	launchAttrCooperative = 2
	launchAttrCluster     = 4
	funcAttrMaxDynSmem    = 8
)

// DriverTypeNames are the <cuda.h> and runtime type names host code uses
// (the parser knows them as typedef names).
var driverTypedefs map[string]*Type

// initDriverTypedefs builds driverTypedefs (tables.go).
func initDriverTypedefs() {
	driverTypedefs = map[string]*Type{
		"CUresult": tInt, "cuuint32_t": tUInt, "cuuint64_t": tULong, "CUtensorMap": tCUtensorMap,
		"CUtensorMapDataType": tInt, "CUtensorMapInterleave": tInt, "CUtensorMapSwizzle": tInt,
		"CUtensorMapL2promotion": tInt, "CUtensorMapFloatOOBfill": tInt, "cudaDriverEntryPointQueryResult": tInt,
		"cudaDeviceAttr": tInt, "cudaFuncAttribute": tInt, "cudaLaunchConfig_t": tLaunchConfig,
		"cudaLaunchAttribute": tLaunchAttr, "cudaLaunchAttributeValue": tLaunchAttrVal, "cudaLaunchAttributeID": tInt,
		"CUdevice": tInt, "CUstream": tLong, "cudaMemPool_t": tLong,
	}
}

func initLibCudart() {
	for name, t := range driverTypedefs {
		builtinTypedefs[name] = t
	}
	// cuda_runtime.h's C++ overload cudaEventCreate(event, flags) is
	// cudaEventCreateWithFlags (Runtime API, "C++ API Routines"); the
	// model's events take no flags
	builtinSigs["cudaEventCreate"] = sig(tInt, hostSide, tStreamP, tUInt).def(0)
	for name, v := range lib.AttrNumbers() {
		namedConsts[name] = int64(v)
	}
	for name, v := range map[string]int64{
		"cudaFuncAttributeMaxDynamicSharedMemorySize": funcAttrMaxDynSmem, "cudaFuncAttributePreferredSharedMemoryCarveout": 9,
		"cudaFuncAttributeClusterDimMustBeSet": 10, "cudaFuncAttributeRequiredClusterWidth": 11,
		"cudaFuncAttributeRequiredClusterHeight": 12, "cudaFuncAttributeRequiredClusterDepth": 13,
		"cudaFuncAttributeNonPortableClusterSizeAllowed": 14, "cudaFuncAttributeClusterSchedulingPolicyPreference": 15,
		"cudaLaunchAttributeIgnore": 0, "cudaLaunchAttributeAccessPolicyWindow": 1, "cudaLaunchAttributeCooperative": launchAttrCooperative,
		"cudaLaunchAttributeSynchronizationPolicy": 3, "cudaLaunchAttributeClusterDimension": launchAttrCluster,
		"cudaLaunchAttributeClusterSchedulingPolicyPreference": 5, "cudaLaunchAttributeProgrammaticStreamSerialization": 6,
		"cudaLaunchAttributeProgrammaticEvent": 7, "cudaLaunchAttributePriority": 8,
		"CUDA_SUCCESS": 0, "cudaEnableDefault": 0, "cudaEnableLegacyStream": 1, "cudaEnablePerThreadDefaultStream": 2,
		"cudaDriverEntryPointSuccess": 0, "cudaDriverEntryPointSymbolNotFound": 1, "cudaDriverEntryPointVersionNotSufficent": 2,
		"CU_TENSOR_MAP_DATA_TYPE_UINT8": 0, "CU_TENSOR_MAP_DATA_TYPE_UINT16": 1, "CU_TENSOR_MAP_DATA_TYPE_UINT32": 2,
		"CU_TENSOR_MAP_DATA_TYPE_INT32": 3, "CU_TENSOR_MAP_DATA_TYPE_UINT64": 4, "CU_TENSOR_MAP_DATA_TYPE_INT64": 5,
		"CU_TENSOR_MAP_DATA_TYPE_FLOAT16": 6, "CU_TENSOR_MAP_DATA_TYPE_FLOAT32": 7, "CU_TENSOR_MAP_DATA_TYPE_FLOAT64": 8,
		"CU_TENSOR_MAP_DATA_TYPE_BFLOAT16": 9, "CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ": 10, "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32": 11,
		"CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ": 12, "CU_TENSOR_MAP_INTERLEAVE_NONE": 0, "CU_TENSOR_MAP_INTERLEAVE_16B": 1,
		"CU_TENSOR_MAP_INTERLEAVE_32B": 2, "CU_TENSOR_MAP_SWIZZLE_NONE": 0, "CU_TENSOR_MAP_SWIZZLE_32B": 1,
		"CU_TENSOR_MAP_SWIZZLE_64B": 2, "CU_TENSOR_MAP_SWIZZLE_128B": 3, "CU_TENSOR_MAP_L2_PROMOTION_NONE": 0,
		"CU_TENSOR_MAP_L2_PROMOTION_L2_64B": 1, "CU_TENSOR_MAP_L2_PROMOTION_L2_128B": 2, "CU_TENSOR_MAP_L2_PROMOTION_L2_256B": 3,
		"CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE": 0, "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA": 1,
		"cudaErrorInvalidDevice": 101, "cudaErrorNotReady": 600, "cudaErrorInvalidDeviceFunction": 98,
		"cudaErrorNoDevice": 100, "cudaErrorInsufficientDriver": 35, "cudaErrorLaunchOutOfResources": 701,
		"cudaErrorNotSupported": 801, "cudaErrorInvalidResourceHandle": 400,
	} {
		namedConsts[name] = v
	}
	for code, name := range map[int]string{101: "cudaErrorInvalidDevice", 98: "cudaErrorInvalidDeviceFunction", 801: "cudaErrorNotSupported", 701: "cudaErrorLaunchOutOfResources"} {
		cudaErrors[code] = name
	}
	for code, text := range map[int]string{101: "invalid device ordinal", 98: "invalid device function", 801: "operation not supported", 701: "too many resources requested for launch"} {
		cudaErrorText[code] = text
	}
	for name, s := range map[string]*bsig{
		"cudaMallocAsync":                               sig(tInt, hostSide, tVoidPP, tULong, tLong),
		"cudaFreeAsync":                                 sig(tInt, hostSide, tVoidP, tLong),
		"cudaDeviceGetAttribute":                        sig(tInt, hostSide, tIntP, tInt, tInt),
		"cudaFuncSetAttribute":                          sig(tInt, hostSide, tAny, tInt, tInt),
		"cudaFuncSetCacheConfig":                        sig(tInt, hostSide, tAny, tInt),
		"cudaDeviceSetCacheConfig":                      sig(tInt, hostSide, tInt),
		"cudaOccupancyMaxActiveBlocksPerMultiprocessor": sig(tInt, hostSide, tIntP, tAny, tInt, tULong),
		"cudaGetDriverEntryPointByVersion":              sig(tInt, hostSide, tCharP, tVoidPP, tUInt, tULong, tIntP),
		"cudaGetDriverEntryPoint":                       sig(tInt, hostSide, tCharP, tVoidPP, tULong, tIntP).def(0),
		"cudaDriverGetVersion":                          sig(tInt, hostSide, tIntP),
		"cudaRuntimeGetVersion":                         sig(tInt, hostSide, tIntP),
		"__launch_attrs":                                sig(tInt, hostSide, tAny, tAny),
		"__launch_result":                               sig(tInt, hostSide),
	} {
		builtinSigs[name] = s
	}
	defb("cudaMallocAsync", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// from the device's default pool (lib_cudart_mem.go)
		return m.poolAlloc(t, m.poolOf(1), a[0], a[1], a[2], pos)
	})
	defb("cudaFreeAsync", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// the free is a stream operation: it happens after the work
		// queued before it in the stream (a later use is a use after free)
		s := m.streamOf(a[1])
		if s == nil {
			return ok(400)
		}
		if a[0] == 0 {
			return ok(0)
		}
		if a[0]>>32 >= uint64(len(m.objs)) || m.objs[a[0]>>32].Space != SpaceDevice || uint32(a[0]) != 0 {
			m.fault(t, pos, "C0406", "cudaFreeAsync of a pointer that is not a device allocation")
			return 0, stFault
		}
		m.enqueue(s, &devOp{kind: opFree, dst: a[0], pos: pos})
		return ok(0)
	})
	defb("cudaDeviceGetAttribute", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if int32(a[2]) != 0 {
			return ok(101)
		}
		v, known := m.opts.Device.Attribute(int(int32(a[1])))
		if !known {
			m.fault(t, pos, "C0309", "cudaDeviceGetAttribute: attribute %d is not modeled", int32(a[1]))
			return 0, stFault
		}
		if !m.store(t, a[0], mI32, uint64(int64(v)), pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaFuncSetAttribute", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		fn, _, good := m.funcOfPtr(a[0])
		if !good || fn == nil || !fn.Global {
			return ok(98)
		}
		v := int(int32(a[2]))
		switch int32(a[1]) {
		case funcAttrMaxDynSmem:
			if v < 0 || v > m.opts.Device.SmemPerBlockOptin {
				return ok(1)
			}
			if m.maxDynSmem == nil {
				m.maxDynSmem = map[*Function]int{}
			}
			m.maxDynSmem[fn] = v
		case 9, 10, 11, 12, 13, 14, 15:
			// carveout and cluster preferences: performance hints
		default:
			return ok(1)
		}
		return ok(0)
	})
	defb("cudaFuncSetCacheConfig", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) { return ok(0) })
	defb("cudaDeviceSetCacheConfig", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) { return ok(0) })
	defb("cudaOccupancyMaxActiveBlocksPerMultiprocessor", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		fn, _, good := m.funcOfPtr(a[1])
		if !good || fn == nil || !fn.Global {
			return ok(98)
		}
		n := m.opts.Device.ActiveBlocksPerSM(int(int32(a[2])), int(a[3])+m.staticShared())
		if !m.store(t, a[0], mI32, uint64(n), pos) {
			return 0, stFault
		}
		return ok(0)
	})
	entry := func(m *Machine, t *Thread, name uint64, out uint64, status uint64, pos int32) (uint64, status) {
		s, good := m.cstring(t, name, pos)
		if !good {
			return 0, stFault
		}
		res := uint64(1) // cudaDriverEntryPointSymbolNotFound
		var p uint64
		if b, found := driverEntryPoints[s]; found {
			if bp, found := builtinPtr(b); found {
				p, res = bp, 0
			}
		}
		if !m.store(t, out, mU64, p, pos) {
			return 0, stFault
		}
		if status != 0 && !m.store(t, status, mI32, res, pos) {
			return 0, stFault
		}
		return ok(0)
	}
	defb("cudaGetDriverEntryPointByVersion", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return entry(m, t, a[0], a[1], a[4], pos)
	})
	defb("cudaGetDriverEntryPoint", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return entry(m, t, a[0], a[1], a[3], pos)
	})
	version := func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if !m.store(t, a[0], mI32, 12080, pos) {
			return 0, stFault
		}
		return ok(0)
	}
	defb("cudaDriverGetVersion", version)
	defb("cudaRuntimeGetVersion", version)
	defb("__launch_attrs", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// a[0]: the cudaLaunchConfig_t*, a[1]: the kernel pointer
		b, good := m.resolve(t, a[0], tLaunchConfig.size, pos, false, true)
		if !good {
			return 0, stFault
		}
		m.nextLaunch = launchExtra{set: true}
		attrs := loadN(b[tLaunchConfig.field("attrs").Offset:], 8)
		n := int(loadN(b[tLaunchConfig.field("numAttrs").Offset:], 4))
		if n > 0 {
			ab, good := m.resolve(t, attrs, n*tLaunchAttr.size, pos, false, true)
			if !good {
				return 0, stFault
			}
			for i := 0; i < n; i++ {
				at := ab[i*tLaunchAttr.size:]
				val := at[tLaunchAttr.field("val").Offset:]
				switch int32(loadN(at, 4)) {
				case launchAttrCluster:
					m.nextLaunch.cluster = gpu.Dim3{X: int(loadN(val, 4)), Y: int(loadN(val[4:], 4)), Z: int(loadN(val[8:], 4))}
				case launchAttrCooperative:
					m.nextLaunch.cooperative = loadN(val, 4) != 0
				}
			}
		}
		return ok(0)
	})
	defb("__launch_result", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		e := m.launchErr
		m.launchErr = 0
		if e != 0 {
			m.lastErr = 0 // returned here instead (cudaLaunchKernelEx)
		}
		return ok(uint64(e))
	})
}

// driverEntryPoints maps driver functions that cudaGetDriverEntryPoint*
// can return to the builtins that model them (an unmodeled one yields
// cudaDriverEntryPointSymbolNotFound, as from a driver without it).
var driverEntryPoints = map[string]string{}

// launchExtra is what cudaLaunchKernelEx's attributes add to the next
// launch: the cluster shape and cooperative launch.
type launchExtra struct {
	set         bool
	cluster     gpu.Dim3
	cooperative bool
}

// staticShared is the bytes of static __shared__ variables of the program
// (an upper bound of any kernel's).
func (m *Machine) staticShared() int {
	n := 0
	for _, g := range m.prog.Shared {
		n += g.Type.size
	}
	return n
}

// launchEx compiles cudaLaunchKernelEx(&config, kernel, args...) (the C++
// template of cuda_runtime.h): a launch of the kernel named by the second
// argument with the configuration's grid, block, dynamic shared memory and
// stream, and its launch attributes.
func (c *compiler) launchEx(e *syntax.Call) *Type {
	pos := e.Pos
	if len(e.Args) < 2 {
		c.errorf(pos, "C0304", "cudaLaunchKernelEx takes a configuration, a kernel and its arguments")
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	var fn *Function
	if n, ok := e.Args[1].(*syntax.Name); ok && c.lookup(n.Name) == nil {
		fn = c.funcs[n.Name]
	}
	if fn == nil || !fn.Global {
		c.errorf(syntax.PosOf(e.Args[1]), "C0308", "cudaLaunchKernelEx needs the name of a __global__ function as its second argument")
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	ct := c.expr(e.Args[0])
	if ct.Kind != Ptr || ct.Elem != tLaunchConfig {
		c.errorf(syntax.PosOf(e.Args[0]), "C0302", "cudaLaunchKernelEx needs a cudaLaunchConfig_t*, not %s", ct)
	}
	slot := c.newSlot()
	c.emit(OpSetLocal, int32(slot), 0, pos)
	c.emit(OpConst, 0, int64(c.fnPtr(fn)), pos)
	c.emit(OpBuiltin, c.builtinIndexOf("__launch_attrs", pos), 2, pos)
	c.emit(OpPop, 0, 0, pos)
	field := func(name string, off int, mc int32) {
		c.emit(OpLocal, int32(slot), 0, pos)
		c.emit(OpConst, 0, int64(tLaunchConfig.field(name).Offset+off), pos)
		c.emit(OpPtrAdd, 1, 0, pos)
		c.emit(OpLoad, mc, 0, pos)
	}
	for _, f := range []string{"gridDim", "blockDim"} {
		for k := 0; k < 3; k++ {
			field(f, 4*k, mU32)
		}
	}
	field("dynamicSmemBytes", 0, mU64)
	field("stream", 0, mU64)
	n := c.args(fn, &syntax.Call{Pos: pos, Args: e.Args[2:]})
	c.emit(OpLaunch, int32(c.funcIndex(fn)), int64(n), pos)
	c.emit(OpPop, 0, 0, pos)
	c.emit(OpBuiltin, c.builtinIndexOf("__launch_result", pos), 0, pos)
	return tInt
}

var _ = diag.Pos{}
