package sem

// POSIX random numbers beside rand(): rand_r (glibc's algorithm: three
// steps of the rand() LCG, 11 + 10 + 10 bits) and the 48-bit family
// drand48, lrand48, mrand48 and srand48 (POSIX: X' = (0x5DEECE66D X +
// 0xB) mod 2^48, X initially 0 as glibc has it; srand48 sets the high 32
// bits to the seed and the low 16 to 0x330E). The sequences are those
// glibc gives, so a program seeded as on Linux prints the same numbers.

const (
	rand48A    = 0x5DEECE66D
	rand48C    = 0xB
	rand48Mask = 1<<48 - 1
)

func (m *Machine) rand48Next() uint64 {
	st := m.libSt() // (X is 0 until seeded, as in glibc)
	st.rand48 = (rand48A*st.rand48 + rand48C) & rand48Mask
	return st.rand48
}

func initLibRand48() {
	for name, s := range map[string]*bsig{
		"rand_r":  sig(tInt, hostSide, ptrTo(tUInt)),
		"drand48": sig(tDouble, hostSide),
		"lrand48": sig(tLong, hostSide),
		"mrand48": sig(tLong, hostSide),
		"srand48": sig(tVoid, hostSide, tLong),
	} {
		builtinSigs[name] = s
	}
	defb("rand_r", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		v, good := m.load(t, a[0], mU32, pos)
		if !good {
			return 0, stFault
		}
		next := uint32(v)
		step := func(mod uint32) uint32 {
			next = next*1103515245 + 12345
			return next / 65536 % mod
		}
		r := step(2048)
		r = r<<10 ^ step(1024)
		r = r<<10 ^ step(1024)
		if !m.store(t, a[0], mU32, uint64(next), pos) {
			return 0, stFault
		}
		return ok(uint64(r))
	})
	defb("drand48", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(bits(float64(m.rand48Next()) / (1 << 48)))
	})
	defb("lrand48", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(m.rand48Next() >> 17)
	})
	defb("mrand48", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(uint64(int64(int32(uint32(m.rand48Next() >> 16)))))
	})
	defb("srand48", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		st := m.libSt()
		st.rand48 = uint64(uint32(a[0]))<<16 | 0x330E
		return ok(0)
	})
}
