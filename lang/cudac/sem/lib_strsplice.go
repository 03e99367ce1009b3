package sem

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// std::string::erase, insert and replace (C++17 [string.erase],
// [string.insert], [string.replace]), the editing members NVIDIA-style
// helper headers use to build file paths. All three are one operation:
// replace the characters [pos, pos+count) by a source, which is another
// string, a C string (all of it or its first n characters) or n copies of
// a character. As in libstdc++, a pos past size() throws
// std::out_of_range; exceptions thrown by the library are not modeled, so
// that is C0403 at the call. count is clamped to the characters there are.

// Source kinds of __str_splice.
const (
	spliceStr  = 0 // a std::string (address)
	spliceCstr = 1 // a C string, n = -1: up to its terminator
	spliceFill = 2 // n copies of a character
)

// strSplice compiles s.erase/insert/replace(args) on the std::string
// whose address recv pushes; false when the argument list is not one of
// the modeled forms (the caller reports it).
func (c *compiler) strSplice(name string, args []syntax.Expr, recv func(), pos diag.Pos) bool {
	ulong := func(e syntax.Expr) { c.convert(c.expr(e), tULong, pos) }
	konst := func(v int64) { c.emit(OpConst, 0, v, pos) }
	// src pushes the source (kind, value, n) from args, which is one of
	// (str), (cstr), (cstr, n), (n, ch)
	src := func(a []syntax.Expr) bool {
		switch len(a) {
		case 1:
			at := c.typeOf(a[0], true)
			switch {
			case c.isStd(at, stdString):
				c.expr(a[0])
				konst(-1)
				konst(spliceStr)
			case at.Kind == Ptr:
				c.expr(a[0])
				konst(-1)
				konst(spliceCstr)
			default:
				return false
			}
		case 2:
			at := c.typeOf(a[0], true)
			switch {
			case at.Kind == Ptr:
				c.expr(a[0])
				ulong(a[1])
				konst(spliceCstr)
			case at.isInt():
				c.convert(c.expr(a[1]), tChar, pos)
				ulong(a[0])
				konst(spliceFill)
			default:
				return false
			}
		default:
			return false
		}
		return true
	}
	// check the form before emitting anything
	switch {
	case name == "erase" && len(args) <= 2:
	case name == "insert" && (len(args) == 2 || len(args) == 3):
	case name == "replace" && (len(args) == 3 || len(args) == 4):
	default:
		return false
	}
	if name == "erase" {
		for _, a := range args {
			if !c.typeOf(a, true).isInt() {
				return false // erase(iterator): not modeled
			}
		}
	} else if name == "insert" && !c.typeOf(args[0], true).isInt() {
		return false
	}
	save, slots := len(c.code), c.nslots
	recv()
	switch name {
	case "erase":
		if len(args) > 0 {
			ulong(args[0])
		} else {
			konst(0)
		}
		if len(args) > 1 {
			ulong(args[1])
		} else {
			konst(-1)
		}
		konst(0)
		konst(0)
		konst(spliceFill)
	case "insert":
		ulong(args[0])
		konst(0)
		if !src(args[1:]) {
			c.code, c.nslots = c.code[:save], slots
			return false
		}
	case "replace":
		ulong(args[0])
		ulong(args[1])
		if !src(args[2:]) {
			c.code, c.nslots = c.code[:save], slots
			return false
		}
	}
	konst(map[string]int64{"erase": 0, "insert": 1, "replace": 2}[name])
	c.stdBuiltin("__str_splice", 7, pos)
	return true
}

func initLibStrsplice() {
	builtinSigs["__str_splice"] = sig(tVoidP, hostSide, tAny, tAny, tAny, tAny, tAny, tAny, tAny)
	// __str_splice(s, pos, count, src, n, kind, op) replaces [pos,
	// pos+count) of the string at s and returns s
	defb("__str_splice", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		b, size, good := m.stdBytes(t, a[0], 1, pos)
		if !good {
			return 0, stFault
		}
		at, count, n := a[1], a[2], a[4]
		if at > size {
			m.fault(t, pos, "C0403", "std::string::%s at position %d of a string of size %d (out_of_range)", [...]string{"erase", "insert", "replace"}[a[6]%3], at, size)
			return 0, stFault
		}
		if count > size-at {
			count = size - at
		}
		var more []byte
		switch a[5] {
		case spliceStr:
			s, _, good := m.stdBytes(t, a[3], 1, pos)
			if !good {
				return 0, stFault
			}
			more = append(more, s...)
		case spliceCstr:
			if n == ^uint64(0) {
				s, good := m.cstring(t, a[3], pos)
				if !good {
					return 0, stFault
				}
				more = []byte(s)
			} else if n > 0 {
				if n >= 1<<31 {
					m.fault(t, pos, "C0403", "std::string::%s of %d characters exceeds the model's 2 GiB objects", [...]string{"erase", "insert", "replace"}[a[6]%3], n)
					return 0, stFault
				}
				s, good := m.resolve(t, a[3], int(n), pos, false, false)
				if !good {
					return 0, stFault
				}
				more = append(more, s...)
			}
		default:
			if n >= 1<<31 {
				m.fault(t, pos, "C0403", "std::string::%s of %d characters exceeds the model's 2 GiB objects", [...]string{"erase", "insert", "replace"}[a[6]%3], n)
				return 0, stFault
			}
			for i := uint64(0); i < n; i++ {
				more = append(more, byte(a[3]))
			}
		}
		out := make([]byte, 0, size-count+uint64(len(more)))
		out = append(out, b[:at]...)
		out = append(out, more...)
		out = append(out, b[at+count:]...)
		if !m.stdSetBytes(t, a[0], out, uint64(len(out)), 1, true, pos) {
			return 0, stFault
		}
		return ok(a[0])
	})
}
