package sem

// POSIX pieces CUDA samples use (<sys/utsname.h>, <unistd.h>,
// <sys/mman.h>), deterministic like the rest of a run:
//
//   - the wall clock (gettimeofday) is the virtual clock, one nanosecond
//     per interpreted instruction (lib_misc.go), plus the time sleep and
//     usleep slept: a sleep advances the wall clock without running
//     instructions, so it neither costs steps nor counts as CPU time
//     (clock() is processor time, C11 7.27.2.1, and does not advance);
//   - uname answers fixed values of a modeled Linux x86-64 machine
//     (utsnameFields); getpid is 4242, gethostname "weft";
//   - mmap of anonymous memory (MAP_ANONYMOUS, fd -1) is a zeroed host
//     allocation of whole 4 KiB pages, munmap frees it; a file mapping is
//     C0309 (read the file with fread or an std::ifstream).

// utsnameFields are struct utsname's members (glibc x86-64 with
// _GNU_SOURCE, as g++ compiles: six char[65]) and their values.
var utsnameFields = []struct{ name, value string }{
	{"sysname", "Linux"}, {"nodename", "weft"}, {"release", "6.1.0-weft"},
	{"version", "#1 SMP weft virtual machine"}, {"machine", "x86_64"}, {"domainname", "(none)"},
}

var tUtsname *Type

// initTUtsname builds tUtsname (tables.go).
func initTUtsname() {
	var fields []any
	for _, f := range utsnameFields {
		fields = append(fields, f.name, arrayOf(tChar, 65))
	}
	tUtsname = structOf("utsname", fields...)
}

const pageBytes = 4096

// wallNs is the wall clock in nanoseconds: the virtual clock plus sleeps.
func (m *Machine) wallNs() uint64 {
	if m.libst == nil {
		return m.steps
	}
	return m.steps + m.libst.sleptNs
}

func initLibPosix() {
	builtinTypedefs["utsname"] = tUtsname
	for name, s := range map[string]*bsig{
		"uname":       sig(tInt, hostSide, tAny),
		"sleep":       sig(tUInt, hostSide, tUInt),
		"usleep":      sig(tInt, hostSide, tUInt),
		"getpid":      sig(tInt, hostSide),
		"gethostname": sig(tInt, hostSide, tCharP, tULong),
		"mmap":        sig(tVoidP, hostSide, tVoidP, tULong, tInt, tInt, tInt, tLong),
		"munmap":      sig(tInt, hostSide, tVoidP, tULong),
	} {
		builtinSigs[name] = s
	}
	defb("uname", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		b, good := m.resolve(t, a[0], tUtsname.size, pos, true, false)
		if !good {
			return 0, stFault
		}
		clear(b)
		for i, f := range utsnameFields {
			copy(b[i*65:], f.value)
		}
		return ok(0)
	})
	defb("sleep", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		m.libSt().sleptNs += uint64(uint32(a[0])) * 1e9
		return ok(0) // the whole time slept: no signals interrupt it
	})
	defb("usleep", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		m.libSt().sleptNs += uint64(uint32(a[0])) * 1e3
		return ok(0)
	})
	defb("getpid", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(4242)
	})
	defb("gethostname", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		const name = "weft"
		n := int(a[1])
		if n <= len(name) {
			// POSIX: truncated and unterminated when it does not fit;
			// glibc then fails with ENAMETOOLONG
			if n > 0 {
				b, good := m.resolve(t, a[0], n, pos, true, false)
				if !good {
					return 0, stFault
				}
				copy(b, name)
			}
			return ok(^uint64(0))
		}
		b, good := m.resolve(t, a[0], len(name)+1, pos, true, false)
		if !good {
			return 0, stFault
		}
		copy(b, name+"\x00")
		return ok(0)
	})
	defb("mmap", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		const mapAnonymous, mapFixed = 0x20, 0x10
		length, flags, fd := a[1], int32(a[3]), int32(a[4])
		if flags&mapAnonymous == 0 || fd != -1 {
			m.fault(t, pos, "C0309", "mmap of a file (fd %d) is not modeled: read the file with fread or an std::ifstream (anonymous mappings are modeled)", fd)
			return 0, stFault
		}
		if flags&mapFixed != 0 {
			m.fault(t, pos, "C0309", "mmap with MAP_FIXED is not modeled (the model chooses addresses)")
			return 0, stFault
		}
		if length == 0 || length >= 1<<31 {
			return ok(^uint64(0)) // EINVAL / ENOMEM: MAP_FAILED
		}
		return m.alloc(t, (length+pageBytes-1)/pageBytes*pageBytes, true, pos)
	})
	defb("munmap", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		id := a[0] >> 32
		if a[0] != 0 && id < uint64(len(m.objs)) && uint32(a[0]) == 0 && !m.objs[id].Freed &&
			(a[1]+pageBytes-1)/pageBytes*pageBytes < uint64(len(m.objs[id].Data)) {
			m.fault(t, pos, "C0309", "munmap of part of a mapping is not modeled (unmap the whole mapping)")
			return 0, stFault
		}
		if _, st := m.free(t, a[0], SpaceHost, "munmap", pos); st != stDone {
			return 0, st
		}
		return ok(0)
	})
}
