package sem

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// <fstream>: a file stream opens its file in the run's confined file
// system with the fopen mode its openmode stands for (C++17
// [filebuf.members], Table 112); a file outside the working directory and
// the paths named on the command line, a missing input or a mode without
// an fopen equivalent fails the open: failbit, is_open() false, and a
// C0608 warning saying why, as for fopen. A file still open at exit is
// written then (the destructor's close).

// Open-mode bits (libstdc++'s values, as namedConsts gives std::ios::*).
const (
	iosApp    = 1
	iosAte    = 2
	iosBinary = 4
	iosIn     = 8
	iosOut    = 16
	iosTrunc  = 32
)

// fopenMode is the fopen mode of openmode mode, or "" when there is none.
func fopenMode(mode int) string {
	b := ""
	if mode&iosBinary != 0 {
		b = "b"
	}
	switch mode &^ (iosBinary | iosAte) {
	case iosIn:
		return "r" + b
	case iosOut, iosOut | iosTrunc:
		return "w" + b
	case iosOut | iosApp, iosApp:
		return "a" + b
	case iosIn | iosOut:
		return "r+" + b
	case iosIn | iosOut | iosTrunc:
		return "w+" + b
	case iosIn | iosOut | iosApp, iosIn | iosApp:
		return "a+" + b
	}
	return ""
}

func initLibFstream() {
	for name, s := range map[string]*bsig{
		"__ios_open":  sig(tInt, hostSide, tAny, tAny, tAny, tAny, tAny),
		"__ios_close": sig(tInt, hostSide, tAny),
		"__ios_seek":  sig(tLong, hostSide, tAny, tAny, tAny, tAny),
	} {
		builtinSigs[name] = s
	}
	defb("__ios_open", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// (handle, path, path is a std::string, mode or -1, class)
		o, good := m.iosObj(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		var path string
		if a[2] == 1 {
			b, _, good := m.stdBytes(t, a[1], 1, pos)
			if !good {
				return 0, stFault
			}
			path = string(b)
		} else {
			s, good := m.cstring(t, a[1], pos)
			if !good {
				return 0, stFault
			}
			path = s
		}
		cl := streamClassList[a[4]]
		mode := int(int64(a[3]))
		switch {
		case mode < 0 && cl.in && cl.out:
			mode = iosIn | iosOut
		case mode < 0 && cl.in:
			mode = iosIn
		case mode < 0:
			mode = iosOut
		case cl.in && !cl.out:
			mode |= iosIn // basic_ifstream::open ORs in ios::in
		case cl.out && !cl.in:
			mode |= iosOut
		}
		if m.opts.Files.File(o.fh) != nil {
			o.fail = true // already open ([filebuf.members]: open fails)
			return ok(0)
		}
		fm := fopenMode(mode)
		if fm == "" {
			m.diags.Warnf(m.pos(pos), "C0608", "std::%s open of %q fails: open mode %#x has no fopen equivalent", cl.name, path, mode)
			o.fail = true
			return ok(0)
		}
		h, err := m.opts.Files.Open(path, fm)
		if err != nil {
			m.diags.Warnf(m.pos(pos), "C0608", "std::%s open of %q fails: %v", cl.name, path, err)
			o.fail = true
			return ok(0)
		}
		o.fh, o.path = h, path
		o.eof, o.fail, o.bad = false, false, false // C++11: a successful open clears the state
		if mode&iosAte != 0 {
			if f := m.opts.Files.File(h); f != nil {
				f.SeekTo(0, 2)
			}
		}
		return ok(0)
	})
	defb("__ios_close", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		o, good := m.iosObj(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		if m.opts.Files.File(o.fh) == nil {
			o.fail = true // closing a stream that is not open fails
			return ok(0)
		}
		if err := m.opts.Files.Close(o.fh); err != nil {
			m.diags.Warnf(m.pos(pos), "C0608", "std::%s close of %q: %v", o.cls.name, o.path, err)
			o.fail = true
		}
		o.fh = 0
		return ok(0)
	})
	defb("__ios_seek", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// seekg/seekp(off, dir): C++11 clears eofbit first; a position
		// outside the contents is failbit
		o, good := m.iosObj(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		off, dir := int64(a[1]), int(int32(a[2]))
		o.eof = false
		if o.fail || o.bad {
			return ok(a[0])
		}
		if o.cls.file {
			f := m.opts.Files.File(o.fh)
			if f == nil || !f.SeekTo(off, dir) {
				o.fail = true
			}
			return ok(a[0])
		}
		cur := o.gpos
		if a[3] == 1 {
			cur = o.ppos
		}
		var base int64
		switch dir {
		case 0:
		case 1:
			base = int64(cur)
		case 2:
			base = int64(len(o.buf))
		}
		p := base + off
		if p < 0 || p > int64(len(o.buf)) {
			o.fail = true
			return ok(a[0])
		}
		if a[3] == 1 {
			o.ppos = int(p)
		} else {
			o.gpos = int(p)
		}
		return ok(a[0])
	})
}

// streamOpen compiles the opening of a file stream whose handle is on the
// stack (consumed) from (path[, mode]); it pushes a value.
func (c *compiler) streamOpen(cl *streamClass, args []syntax.Expr, pos diag.Pos) {
	c.stringArg(args[0], pos)
	if len(args) == 2 {
		c.convert(c.expr(args[1]), tLong, pos)
	} else {
		c.emit(OpConst, 0, -1, pos)
	}
	c.emit(OpConst, 0, int64(cl.id), pos)
	c.stdBuiltin("__ios_open", 5, pos)
}

// fileMethod compiles is_open, open and close of a file stream.
func (c *compiler) fileMethod(cl *streamClass, name string, args []syntax.Expr, recv func(), nargs func(lo, hi int) bool, pos diag.Pos) *Type {
	switch name {
	case "is_open":
		if !nargs(0, 0) {
			return tBool
		}
		recv()
		c.emit(OpConst, 0, 4, pos)
		c.stdBuiltin("__ios_state", 2, pos)
		return tBool
	case "open":
		if !nargs(1, 2) {
			return tVoid
		}
		recv()
		c.streamOpen(cl, args, pos)
		return tVoid
	}
	if !nargs(0, 0) {
		return tVoid
	}
	recv()
	c.stdBuiltin("__ios_close", 1, pos)
	return tVoid
}
