package sem

import (
	"fmt"
	"strings"

	"weft.dev/weft/lang/cudac/lib"
)

// cudaDeviceProp is laid out from lib.PropFields (CUDA 12's field order
// with CUDA 13's additions), so every field a program reads exists with
// its C type, and cudaGetDeviceProperties fills each from the modeled
// device (--device) with the value cudaDeviceGetAttribute answers for
// the matching cudaDevAttr.

var tUUID *Type

// initUUID builds tUUID (tables.go).
func initUUID() {
	tUUID = structOf("cudaUUID_t", "bytes", arrayOf(tChar, 16))
}

var tDeviceProp *Type

// initDeviceProp builds tDeviceProp from lib.PropFields (tables.go).
func initDeviceProp() {
	var fields []any
	for _, f := range lib.PropFields() {
		var t *Type
		switch f.Kind {
		case lib.PropInt:
			t = tInt
		case lib.PropUInt:
			t = tUInt
		case lib.PropSize:
			t = tULong
		case lib.PropChar:
			t = tChar
		case lib.PropUUID:
			t = tUUID
		}
		if f.Len > 0 {
			t = arrayOf(t, f.Len)
		}
		fields = append(fields, f.Name, t)
	}
	tDeviceProp = structOf("cudaDeviceProp", fields...)
}

// fillDeviceProp writes the properties of d into b, a cudaDeviceProp.
func fillDeviceProp(b []byte, d *lib.Device) {
	clear(b)
	copy(b[:255], d.Name)
	for _, f := range lib.PropFields() {
		if f.Get == nil {
			continue
		}
		fi := tDeviceProp.field(f.Name)
		es := fi.Type.size
		if fi.Type.Kind == Array {
			es = fi.Type.Elem.size
		}
		for i, v := range f.Get(d) {
			storeN(b[fi.Offset+i*es:], es, uint64(v))
		}
	}
}

// getDeviceProperties is cudaGetDeviceProperties (and CUDA 12's _v2,
// which the header's macro calls): the one device, ordinal 0.
func getDeviceProperties(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
	if int32(a[1]) != 0 {
		return m.apiError(101), stDone // cudaErrorInvalidDevice: one device
	}
	b, good := m.resolve(t, a[0], tDeviceProp.size, pos, true, false)
	if !good {
		return 0, stFault
	}
	fillDeviceProp(b, m.opts.Device)
	return ok(0)
}

// Device management calls around the properties (CUDA Runtime API,
// "Device Management"): the machine has one device, ordinal 0.
//
//   - cudaMemGetInfo: total is the device's memory; free is total less
//     the device allocations the program holds (a real context also
//     reserves some memory for itself; the model does not).
//   - cudaDeviceGetPCIBusId / cudaDeviceGetByPCIBusId: the device's
//     domain:bus:device.function string of the modeled PCI location.
//   - cudaDeviceCanAccessPeer: there is no peer (device 1 is invalid;
//     a device is not its own peer).
//   - cudaDeviceGetLimit / cudaDeviceSetLimit: the documented defaults of
//     cudaLimit*, and what the program set; the limits are recorded, not
//     enforced (device printf and malloc are not bounded by them).
//   - cudaChooseDevice: device 0.

// deviceLimits are cudaLimit's enumerators and their default values.
var deviceLimits map[string][2]int64

// initDeviceLimits builds deviceLimits (tables.go).
func initDeviceLimits() {
	deviceLimits = map[string][2]int64{
		"cudaLimitStackSize": {0, 1024}, "cudaLimitPrintfFifoSize": {1, 1 << 20}, "cudaLimitMallocHeapSize": {2, 8 << 20},
		"cudaLimitDevRuntimeSyncDepth": {3, 2}, "cudaLimitDevRuntimePendingLaunchCount": {4, 2048},
		"cudaLimitMaxL2FetchGranularity": {5, 32}, "cudaLimitPersistingL2CacheSize": {6, 0},
	}
}

func (m *Machine) pciBusID() string {
	d := m.opts.Device
	return fmt.Sprintf("%04x:%02x:%02x.0", d.PCIDomain, d.PCIBus, d.PCIDevice)
}

func initLibDeviceprop() {
	for name, v := range deviceLimits {
		namedConsts[name] = v[0]
	}
	builtinTypedefs["cudaLimit"] = tInt
	cudaErrors[215] = "cudaErrorUnsupportedLimit"
	cudaErrorText[215] = "limit is not supported on this architecture"
	for name, s := range map[string]*bsig{
		"cudaGetDeviceProperties_v2": sig(tInt, hostSide, ptrTo(tDeviceProp), tInt),
		"cudaMemGetInfo":             sig(tInt, hostSide, ptrTo(tULong), ptrTo(tULong)),
		"cudaDeviceGetPCIBusId":      sig(tInt, hostSide, tCharP, tInt, tInt),
		"cudaDeviceGetByPCIBusId":    sig(tInt, hostSide, tIntP, tCharP),
		"cudaDeviceCanAccessPeer":    sig(tInt, hostSide, tIntP, tInt, tInt),
		"cudaDeviceGetLimit":         sig(tInt, hostSide, ptrTo(tULong), tInt),
		"cudaDeviceSetLimit":         sig(tInt, hostSide, tInt, tULong),
		"cudaChooseDevice":           sig(tInt, hostSide, tIntP, tVoidP),
	} {
		builtinSigs[name] = s
	}
	defb("cudaGetDeviceProperties_v2", getDeviceProperties)
	defb("cudaMemGetInfo", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		total := m.opts.Device.GlobalMem
		var used uint64
		for _, o := range m.objs {
			if o != nil && o.Space == SpaceDevice && o.Heap && !o.Freed {
				used += uint64(len(o.Data))
			}
		}
		free := uint64(0)
		if used < total {
			free = total - used
		}
		if !m.store(t, a[0], mU64, free, pos) || !m.store(t, a[1], mU64, total, pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaDeviceGetPCIBusId", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if int32(a[2]) != 0 {
			return m.apiError(101), stDone
		}
		id := m.pciBusID()
		n := int(int32(a[1]))
		if n <= 0 {
			return m.apiError(1), stDone // cudaErrorInvalidValue
		}
		k := min(n-1, len(id))
		b, good := m.resolve(t, a[0], k+1, pos, true, false)
		if !good {
			return 0, stFault
		}
		copy(b, id[:k])
		b[k] = 0
		return ok(0)
	})
	defb("cudaDeviceGetByPCIBusId", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		id, good := m.cstring(t, a[1], pos)
		if !good {
			return 0, stFault
		}
		if !strings.EqualFold(id, m.pciBusID()) && !strings.EqualFold("0000:"+id, m.pciBusID()) {
			return m.apiError(101), stDone
		}
		if !m.store(t, a[0], mI32, 0, pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaDeviceCanAccessPeer", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if int32(a[1]) != 0 || int32(a[2]) != 0 {
			return m.apiError(101), stDone
		}
		if !m.store(t, a[0], mI32, 0, pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaDeviceGetLimit", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		v, known := m.deviceLimit(int64(int32(a[1])))
		if !known {
			return m.apiError(215), stDone // cudaErrorUnsupportedLimit
		}
		if !m.store(t, a[0], mU64, uint64(v), pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaDeviceSetLimit", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		l := int64(int32(a[0]))
		if _, known := m.deviceLimit(l); !known {
			return m.apiError(215), stDone
		}
		st := m.libSt()
		if st.limits == nil {
			st.limits = map[int64]int64{}
		}
		st.limits[l] = int64(a[1])
		return ok(0)
	})
	defb("cudaChooseDevice", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if !m.store(t, a[0], mI32, 0, pos) {
			return 0, stFault
		}
		return ok(0)
	})
}

// deviceLimit is the current value of cudaLimit l.
func (m *Machine) deviceLimit(l int64) (int64, bool) {
	if m.libst != nil {
		if v, set := m.libst.limits[l]; set {
			return v, true
		}
	}
	for _, v := range deviceLimits {
		if v[0] == l {
			return v[1], true
		}
	}
	return 0, false
}
