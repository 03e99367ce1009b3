package sem

// Peer device memory access (CUDA Runtime API, "Peer Device Memory
// Access", cudaMemcpyPeer) on the model's one device, ordinal 0, which is
// no peer of itself (cudaDeviceCanAccessPeer answers 0, lib_deviceprop.go):
//
//   - cudaDeviceEnablePeerAccess(peer, flags): flags other than 0 are
//     cudaErrorInvalidValue, whatever the peer; an invalid ordinal is
//     cudaErrorInvalidDevice; device 0 itself, which
//     cudaDeviceCanAccessPeer says the current device cannot access as a
//     peer, is cudaErrorPeerAccessUnsupported (217). The Runtime API lists
//     cudaErrorInvalidDevice for that case, but the driver's
//     cuCtxEnablePeerAccess documents CUDA_ERROR_PEER_ACCESS_UNSUPPORTED
//     for it, and that is what an H100 answered (CUDA 13.0, driver 580,
//     bench/gpu/cudac.sh run of stop 31: "0 0 217 101 1 705 101").
//   - cudaDeviceDisablePeerAccess(peer): an invalid ordinal is
//     cudaErrorInvalidDevice; device 0's access was never enabled (it
//     cannot be): cudaErrorPeerAccessNotEnabled.
//   - cudaMemcpyPeer(dst, dstDevice, src, srcDevice, n) and
//     cudaMemcpyPeerAsync(..., stream): with both ordinals 0 a copy
//     between two device allocations, as cudaMemcpy/cudaMemcpyAsync with
//     cudaMemcpyDeviceToDevice (the same checks); another ordinal is
//     cudaErrorInvalidDevice.
//   - cudaMemPoolSetAccess(pool, descs, count) / cudaMemPoolGetAccess:
//     the device's one pool (lib_cudart_mem.go) is read-write to device 0,
//     its owner, and to nothing else; a descriptor that asks for that
//     access is accepted, any other (another location, another flag) is
//     refused. The Runtime API lists only cudaErrorInvalidValue, but the
//     H100 of stop 31's GPU run answered cudaErrorInvalidDevice both for a
//     device location whose ordinal is no device (id 1 on a one-GPU
//     machine) and for revoking the owner's access (flags
//     cudaMemAccessFlagsProtNone for device 0): the model answers so; any
//     other descriptor (another location type, another flag) is
//     cudaErrorInvalidValue. cudaMemPoolGetAccess of a location other than
//     device 0 is cudaErrorInvalidValue (as the H100 answered for id 1).

func initLibCudartPeer() {
	for name, v := range map[string]int64{"cudaErrorPeerAccessAlreadyEnabled": 704, "cudaErrorPeerAccessNotEnabled": 705,
		"cudaErrorPeerAccessUnsupported": 217} {
		namedConsts[name] = v
	}
	for code, name := range map[int]string{704: "cudaErrorPeerAccessAlreadyEnabled", 705: "cudaErrorPeerAccessNotEnabled", 217: "cudaErrorPeerAccessUnsupported"} {
		cudaErrors[code] = name
	}
	for code, text := range map[int]string{704: "peer access is already enabled", 705: "peer access has not been enabled", 217: "peer access is not supported between these two devices"} {
		cudaErrorText[code] = text
	}
	for name, s := range map[string]*bsig{
		"cudaDeviceEnablePeerAccess":  sig(tInt, hostSide, tInt, tUInt),
		"cudaDeviceDisablePeerAccess": sig(tInt, hostSide, tInt),
		"cudaMemcpyPeer":              sig(tInt, hostSide, tVoidP, tInt, tVoidP, tInt, tULong),
		"cudaMemcpyPeerAsync":         sig(tInt, hostSide, tVoidP, tInt, tVoidP, tInt, tULong, tLong).def(0),
		"cudaMemPoolSetAccess":        sig(tInt, hostSide, tLong, ptrTo(tMemAccessDesc), tULong),
		"cudaMemPoolGetAccess":        sig(tInt, hostSide, tIntP, tLong, ptrTo(tMemLocation)),
	} {
		builtinSigs[name] = s
	}
	defb("cudaDeviceEnablePeerAccess", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[1] != 0 {
			return m.apiError(1), stDone
		}
		if int32(a[0]) != 0 {
			return m.apiError(101), stDone
		}
		return m.apiError(217), stDone
	})
	defb("cudaDeviceDisablePeerAccess", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if int32(a[0]) != 0 {
			return m.apiError(101), stDone
		}
		return m.apiError(705), stDone
	})
	peerCopy := func(sync bool) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			if int32(a[1]) != 0 || int32(a[3]) != 0 {
				return m.apiError(101), stDone
			}
			var s uint64
			if !sync {
				s = a[5]
			}
			return m.memcpyAPI(t, a[0], a[2], int(a[4]), 3, s, sync, pos)
		}
	}
	// location reads a cudaMemLocation: whether it is a device
	// (cudaMemLocationTypeDevice) and its id
	location := func(m *Machine, t *Thread, loc uint64, pos int32) (dev bool, id int32, good bool) {
		typ, good := m.load(t, loc+uint64(tMemLocation.field("type").Offset), mI32, pos)
		if !good {
			return false, 0, false
		}
		i, good := m.load(t, loc+uint64(tMemLocation.field("id").Offset), mI32, pos)
		return typ == 1, int32(i), good
	}
	isOwner := func(m *Machine, t *Thread, loc uint64, pos int32) (bool, bool) {
		dev, id, good := location(m, t, loc, pos)
		return good && dev && id == 0, good
	}
	defb("cudaMemPoolSetAccess", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if m.poolOf(a[0]) == nil {
			return m.apiError(1), stDone
		}
		for i := uint64(0); i < a[2]; i++ {
			d := a[1] + i*uint64(tMemAccessDesc.size)
			dev, id, good := location(m, t, d+uint64(tMemAccessDesc.field("location").Offset), pos)
			if !good {
				return 0, stFault
			}
			fl, good := m.load(t, d+uint64(tMemAccessDesc.field("flags").Offset), mI32, pos)
			if !good {
				return 0, stFault
			}
			switch {
			case dev && id != 0:
				return m.apiError(101), stDone // no such device
			case dev && fl == 0: // cudaMemAccessFlagsProtNone: the owner's access cannot be revoked
				return m.apiError(101), stDone
			case !dev || fl != 3: // cudaMemAccessFlagsProtReadWrite
				return m.apiError(1), stDone
			}
		}
		return ok(0)
	})
	defb("cudaMemPoolGetAccess", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if m.poolOf(a[1]) == nil {
			return m.apiError(1), stDone
		}
		owner, good := isOwner(m, t, a[2], pos)
		if !good {
			return 0, stFault
		}
		if !owner {
			return m.apiError(1), stDone
		}
		if !m.store(t, a[0], mI32, 3, pos) {
			return 0, stFault
		}
		return ok(0)
	})
	defb("cudaMemcpyPeer", peerCopy(true))
	defb("cudaMemcpyPeerAsync", peerCopy(false))
}
