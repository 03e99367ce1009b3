package sem

import (
	"weft.dev/weft/lang/cudac/lib"
	"weft.dev/weft/lang/cudac/syntax"
)

// <iostream>'s std::cout, std::cerr and std::clog with operator<< of the
// fundamental types, C strings, std::string and pointers, and std::endl
// (C++ [ostream.inserters.arithmetic]: a number is written as printf's
// %d/%u for integers and %g with precision 6 for floating values, the
// default format flags). The manipulators of <iomanip> and <ios>
// (std::fixed, std::setprecision, std::setw, ...) set the stream's format
// state (lib_sstream.go), which <sstream> and <fstream> streams share.
// The stream value is the stdio handle it writes to, or the handle of a
// stream object (lib_sstream.go).

const stdOstream = 4

var tOstream *Type

// initTOstream builds tOstream (tables.go).
func initTOstream() {
	t := structOf("std::ostream", "__fd", tLong)
	t.std = stdOstream
	tOstream = t
}

var ostreams map[string]int64

// initOstreams builds ostreams (tables.go).
func initOstreams() {
	ostreams = map[string]int64{"std::cout": lib.Stdout, "std::cerr": lib.Stderr, "std::clog": lib.Stderr}
}

// Value kinds of __ostream_put.
const (
	osInt = iota
	osUint
	osFloat
	osCStr
	osChar
	osBool
	osPtr
	osString
	osEndl
	osManip    // a manipulator without an argument (the value is its number)
	osSetPrec  // std::setprecision(n)
	osSetWidth // std::setw(n)
	osSetFill  // std::setfill(c)
)

func initLibIostream() {
	builtinSigs["__ostream_put"] = sig(tLong, hostSide, tAny, tAny, tAny)
	defb("__ostream_put", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		f := m.fmtOf(a[0])
		switch a[2] {
		case osManip, osSetPrec, osSetWidth, osSetFill:
			applyManip(f, a[2], a[1])
			return ok(a[0])
		}
		s, good := m.formatValue(t, f, a[1], a[2], pos)
		if !good {
			return 0, stFault
		}
		if o := m.iosOf(a[0]); o != nil {
			m.writeObj(o, []byte(s), pos)
			return ok(a[0])
		}
		if !m.writeStream(t, a[0], []byte(s), pos) {
			return 0, stFault
		}
		if a[2] == osEndl && a[0] == lib.Stdout {
			m.out.Flush()
		}
		return ok(a[0])
	})
}

// ostreamPut compiles s << x for an output stream s.
func (c *compiler) ostreamPut(e *syntax.Binary) (*Type, bool) {
	in, out, isStream := c.isStreamExpr(e.X)
	if !isStream {
		return nil, false
	}
	pos := e.Pos
	c.stdHostOnly(pos)
	if in && !out {
		c.errorf(pos, "C0302", "operator<< on an input stream (%s)", c.typeOf(e.X, true))
	}
	c.streamHandle(e.X, pos)
	if c.manipulator(e.Y, pos) {
		return tOstream, true
	}
	if n, ok := e.Y.(*syntax.Name); ok && (n.Name == "std::endl" || n.Name == "std::flush") && c.lookup(n.Name) == nil {
		kind := int64(osEndl)
		if n.Name == "std::flush" {
			kind = osCStr
			c.emit(OpString, int32(c.literal("")), 0, pos)
		} else {
			c.emit(OpConst, 0, 0, pos)
		}
		c.emit(OpConst, 0, kind, pos)
		c.stdBuiltin("__ostream_put", 3, pos)
		return tOstream, true
	}
	ty := c.expr(e.Y)
	var kind int64
	_, charLit := e.Y.(*syntax.CharLitExpr) // 'x' is a char in C++
	switch {
	case charLit:
		kind = osChar
	case ty.Kind == Bool:
		kind = osBool
	case ty.Kind == Char || ty.Kind == SChar || ty.Kind == UChar:
		kind = osChar
	case ty.isInt() && ty.isSigned():
		kind = osInt
	case ty.isInt():
		kind = osUint
	case ty.isFloat():
		c.convert(ty, tDouble, pos)
		kind = osFloat
	case ty.Kind == Ptr && (ty.Elem.Kind == Char || ty.Elem.Kind == SChar || ty.Elem.Kind == UChar):
		kind = osCStr
	case ty.Kind == Ptr:
		kind = osPtr
	case c.isStd(ty, stdString):
		kind = osString
	default:
		c.errorf(syntax.PosOf(e.Y), "C0302", "operator<< of %s to an output stream is not modeled", ty)
	}
	c.emit(OpConst, 0, kind, pos)
	c.stdBuiltin("__ostream_put", 3, pos)
	return tOstream, true
}
