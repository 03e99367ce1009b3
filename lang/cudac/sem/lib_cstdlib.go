package sem

import (
	"strings"

	"weft.dev/weft/lang/cudac/lib"
)

// Bindings of the C library functions of lang/cudac/lib (C11 7.21-7.24)
// and of main's arguments and environment.

func initLibCstdlib() {
	for name, s := range map[string]*bsig{
		"getenv":   sig(tCharP, hostSide, tCharP),
		"snprintf": sig(tInt, hostSide, tCharP, tULong, tCharP).va(),
		"strtol":   sig(tLong, hostSide, tCharP, ptrTo(tCharP), tInt),
		"strtoll":  sig(tLLong, hostSide, tCharP, ptrTo(tCharP), tInt),
		"strtoul":  sig(tULong, hostSide, tCharP, ptrTo(tCharP), tInt),
		"strtoull": sig(tULLong, hostSide, tCharP, ptrTo(tCharP), tInt),
		"strtod":   sig(tDouble, hostSide, tCharP, ptrTo(tCharP)),
		"strtof":   sig(tFloat, hostSide, tCharP, ptrTo(tCharP)),
		"atol":     sig(tLong, hostSide, tCharP),
		"atoll":    sig(tLLong, hostSide, tCharP),
		"strchr":   sig(tCharP, anySide, tCharP, tInt),
		"strrchr":  sig(tCharP, anySide, tCharP, tInt),
		"strstr":   sig(tCharP, anySide, tCharP, tCharP),
		"strncmp":  sig(tInt, anySide, tCharP, tCharP, tULong),
		"strncpy":  sig(tCharP, anySide, tCharP, tCharP, tULong),
		"strcat":   sig(tCharP, anySide, tCharP, tCharP),
		"strncat":  sig(tCharP, anySide, tCharP, tCharP, tULong),
		"strdup":   sig(tCharP, hostSide, tCharP),
		"memmove":  sig(tVoidP, anySide, tVoidP, tVoidP, tULong),
		"memchr":   sig(tVoidP, anySide, tVoidP, tInt, tULong),
		"toupper":  sig(tInt, anySide, tInt),
		"tolower":  sig(tInt, anySide, tInt),
		"isdigit":  sig(tInt, anySide, tInt),
		"isspace":  sig(tInt, anySide, tInt),
		"isalpha":  sig(tInt, anySide, tInt),
		"isalnum":  sig(tInt, anySide, tInt),
		"isupper":  sig(tInt, anySide, tInt),
		"islower":  sig(tInt, anySide, tInt),
		"isxdigit": sig(tInt, anySide, tInt),
	} {
		builtinSigs[name] = s
	}
	defb("getenv", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		name, good := m.cstring(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		if m.opts.Getenv == nil {
			return ok(0)
		}
		v, found := m.opts.Getenv(name)
		if !found {
			return ok(0)
		}
		return ok(m.runtimeString(v))
	})
	defb("snprintf", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, good := m.format(t, a[2], a[3:], pos)
		if !good || !m.putFormatted(t, a[0], a[1], s, pos) {
			return 0, stFault
		}
		return ok(uint64(len(s)))
	})
	strtoi := func(signed bool, bits int) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			s, good := m.cstring(t, a[0], pos)
			if !good {
				return 0, stFault
			}
			v, n, _ := lib.StrToInt([]byte(s), int(int32(a[2])), signed, bits)
			if !m.setEnd(t, a[1], a[0], n, pos) {
				return 0, stFault
			}
			return ok(v)
		}
	}
	defb("strtol", strtoi(true, 64))
	defb("strtoll", strtoi(true, 64))
	defb("strtoul", strtoi(false, 64))
	defb("strtoull", strtoi(false, 64))
	strtof := func(f32 bool) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			s, good := m.cstring(t, a[0], pos)
			if !good {
				return 0, stFault
			}
			v, n, _ := lib.StrToFloat([]byte(s))
			if f32 {
				v = float64(float32(v))
			}
			if !m.setEnd(t, a[1], a[0], n, pos) {
				return 0, stFault
			}
			return ok(bits(v))
		}
	}
	defb("strtod", strtof(false))
	defb("strtof", strtof(true))
	atoi := func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, good := m.cstring(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		v, _, _ := lib.StrToInt([]byte(s), 10, true, 64)
		return ok(v)
	}
	defb("atol", atoi)
	defb("atoll", atoi)
	find := func(last bool) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			s, good := m.cstring(t, a[0], pos)
			if !good {
				return 0, stFault
			}
			c := byte(a[1])
			if c == 0 {
				return ok(a[0] + uint64(len(s)))
			}
			i := strings.IndexByte(s, c)
			if last {
				i = strings.LastIndexByte(s, c)
			}
			if i < 0 {
				return ok(0)
			}
			return ok(a[0] + uint64(i))
		}
	}
	defb("strchr", find(false))
	defb("strrchr", find(true))
	defb("strstr", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, sub, good := m.cstrings(t, a[0], a[1], pos)
		if !good {
			return 0, stFault
		}
		i := strings.Index(s, sub)
		if i < 0 {
			return ok(0)
		}
		return ok(a[0] + uint64(i))
	})
	defb("strncmp", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		x, good := m.cstringN(t, a[0], int(a[2]), pos)
		if !good {
			return 0, stFault
		}
		y, good := m.cstringN(t, a[1], int(a[2]), pos)
		if !good {
			return 0, stFault
		}
		return ok(uint64(int64(strings.Compare(x, y))))
	})
	defb("strncpy", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		n := int(a[2])
		s, good := m.cstringN(t, a[1], n, pos)
		if !good {
			return 0, stFault
		}
		b, good := m.resolve(t, a[0], n, pos, true, false)
		if !good {
			return 0, stFault
		}
		copy(b, s)
		clear(b[len(s):]) // strncpy pads with zeros (C11 7.24.2.4)
		return ok(a[0])
	})
	cat := func(bounded bool) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			d, good := m.cstring(t, a[0], pos)
			if !good {
				return 0, stFault
			}
			var s string
			if bounded {
				s, good = m.cstringN(t, a[1], int(a[2]), pos)
			} else {
				s, good = m.cstring(t, a[1], pos)
			}
			if !good {
				return 0, stFault
			}
			b, good := m.resolve(t, a[0]+uint64(len(d)), len(s)+1, pos, true, false)
			if !good {
				return 0, stFault
			}
			copy(b, s)
			b[len(s)] = 0
			return ok(a[0])
		}
	}
	defb("strcat", cat(false))
	defb("strncat", cat(true))
	defb("strdup", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, good := m.cstring(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		p, st := m.alloc(t, uint64(len(s)+1), true, pos)
		if st != stDone {
			return p, st
		}
		b, good := m.resolve(t, p, len(s)+1, pos, true, false)
		if !good {
			return 0, stFault
		}
		copy(b, s)
		return ok(p)
	})
	defb("memmove", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[2] == 0 {
			return ok(a[0])
		}
		src, good := m.resolve(t, a[1], int(a[2]), pos, false, false)
		if !good {
			return 0, stFault
		}
		tmp := append([]byte(nil), src...)
		dst, good := m.resolve(t, a[0], int(a[2]), pos, true, false)
		if !good {
			return 0, stFault
		}
		copy(dst, tmp)
		return ok(a[0])
	})
	defb("memchr", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[2] == 0 {
			return ok(0)
		}
		b, good := m.resolve(t, a[0], int(a[2]), pos, false, false)
		if !good {
			return 0, stFault
		}
		for i, c := range b {
			if c == byte(a[1]) {
				return ok(a[0] + uint64(i))
			}
		}
		return ok(0)
	})
	ctype := func(f func(c byte) uint64) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			if int32(a[0]) < 0 || int32(a[0]) > 255 {
				return ok(0)
			}
			return ok(f(byte(a[0])))
		}
	}
	defb("toupper", ctype(func(c byte) uint64 {
		if c >= 'a' && c <= 'z' {
			return uint64(c - 32)
		}
		return uint64(c)
	}))
	defb("tolower", ctype(func(c byte) uint64 {
		if c >= 'A' && c <= 'Z' {
			return uint64(c + 32)
		}
		return uint64(c)
	}))
	defb("isdigit", ctype(func(c byte) uint64 { return b2u(c >= '0' && c <= '9') }))
	defb("isspace", ctype(func(c byte) uint64 { return b2u(c == ' ' || (c >= '\t' && c <= '\r')) }))
	defb("isalpha", ctype(func(c byte) uint64 { return b2u(c|32 >= 'a' && c|32 <= 'z') }))
	defb("isalnum", ctype(func(c byte) uint64 { return b2u(c|32 >= 'a' && c|32 <= 'z' || c >= '0' && c <= '9') }))
	defb("isupper", ctype(func(c byte) uint64 { return b2u(c >= 'A' && c <= 'Z') }))
	defb("islower", ctype(func(c byte) uint64 { return b2u(c >= 'a' && c <= 'z') }))
	defb("isxdigit", ctype(func(c byte) uint64 { return b2u(c >= '0' && c <= '9' || c|32 >= 'a' && c|32 <= 'f') }))
}

// setEnd stores s+n into *end (strtol's endptr) when end is not null.
func (m *Machine) setEnd(t *Thread, end, s uint64, n int, pos int32) bool {
	if end == 0 {
		return true
	}
	b, good := m.resolve(t, end, 8, pos, true, false)
	if !good {
		return false
	}
	storeN(b, 8, s+uint64(n))
	return true
}

// cstringN reads at most n bytes of a string (up to its terminator).
func (m *Machine) cstringN(t *Thread, p uint64, n int, pos int32) (string, bool) {
	if n == 0 {
		return "", true
	}
	id := p >> 32
	if id == 0 || id >= uint64(len(m.objs)) {
		m.fault(t, pos, "C0405", "invalid string pointer")
		return "", false
	}
	o := m.objs[id]
	off := int(int32(uint32(p)))
	if o.Freed {
		m.fault(t, pos, "C0404", "use of %s after it was freed", o.describe())
		return "", false
	}
	end := off
	for end < len(o.Data) && end-off < n && o.Data[end] != 0 {
		end++
	}
	if end-off < n && end >= len(o.Data) {
		// unterminated within the object: the general path reports it
		return m.cstring(t, p, pos)
	}
	if off < 0 || off > len(o.Data) {
		return m.cstring(t, p, pos)
	}
	if _, good := m.resolve(t, p, end-off, pos, false, false); !good && end > off {
		return "", false
	}
	return string(o.Data[off:end]), true
}

// argv builds main's (argc, argv) in host memory: the strings of
// Options.Args and a null-terminated array of pointers to them (C11
// 5.1.2.2.1).
func (m *Machine) argv() (uint64, uint64) {
	args := m.opts.Args
	if len(args) == 0 {
		args = []string{"a.out"}
	}
	arr := m.newObject(8*(len(args)+1), SpaceHost, "argv", -1)
	arr.init.setAll()
	for i, s := range args {
		o := m.newObject(len(s)+1, SpaceHost, "argv string", -1)
		copy(o.Data, s)
		o.init.setAll()
		storeN(arr.Data[8*i:], 8, ptrOf(o, 0))
	}
	return uint64(len(args)), ptrOf(arr, 0)
}
