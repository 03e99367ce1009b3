package sem

import (
	"math"
	"strconv"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/lib"
	"weft.dev/weft/lang/cudac/syntax"
)

// <sstream> and <fstream>: std::ostringstream, istringstream, stringstream
// (C++17 [string.streams]) and std::ofstream, ifstream, fstream
// ([file.streams]), with the formatting state of <iomanip> shared by
// std::cout and std::cerr.
//
// A stream object is a 24-byte header (like std::string's, so the zeroed
// object of a member is a default-constructed stream) whose first word is
// its handle: iosBase | the index of its state in the machine
// (Machine.libst), made at construction (or first use, for a member).
// std::ostream and std::istream are the types of references: one bound to
// an object is the object's address; one bound to std::cout or std::cerr
// is a temporary header holding that stream's handle. A stream expression's value on the
// VM stack is a stream handle: lib.Stdout/lib.Stderr for std::cout and
// std::cerr, iosBase | index for an object, so operator<< and operator>>
// chain as they return the stream. A string stream keeps its characters
// with separate get and put positions ([stringbuf.members]: str(s) resets
// both to the start, so writing to ostringstream("abc") overwrites); a
// file stream is a file of the run's confined file system (lib.FS, the
// files fopen sees: same confinement, a failed open warns C0608 and sets
// failbit). Streams cannot be copied (C0302), as in C++.

const (
	stdStream  = 5 // a stream object (ostringstream ... fstream)
	stdIstream = 6 // the value of is >> x and getline: a stream handle
)

// stdinHandle is std::cin's handle (stdin's FILE* value).
const stdinHandle = lib.Stdin

// iosBase marks a stream handle of a stream object (index in the low bits).
const iosBase = uint64(0x7e) << 56

// streamClass is one of the six stream classes.
type streamClass struct {
	id            int
	name          string
	in, out, file bool
}

var streamClassList = []*streamClass{
	{0, "ostringstream", false, true, false},
	{1, "istringstream", true, false, false},
	{2, "stringstream", true, true, false},
	{3, "ofstream", false, true, true},
	{4, "ifstream", true, false, true},
	{5, "fstream", true, true, true},
	// the base classes, as the type of a reference (std::ostream& os):
	// bound to std::cout, std::cerr or any stream object
	{6, "ostream", false, true, false},
	{7, "istream", true, false, false},
}

// streamTypes are the class types, by the parser's flattened names.
var streamTypes = map[*Type]*streamClass{}

// tIstream is the type of an input-stream value (is >> x, getline).
var tIstream *Type

// initTIstream builds tIstream (tables.go).
func initTIstream() {
	t := structOf("std::istream", "__fd", tLong)
	t.std = stdIstream
	tIstream = t
}

func initLibSstream() {
	for _, cl := range streamClassList {
		t := structOf("std::"+cl.name, "__h", tLong, "__r1", tLong, "__r2", tLong)
		t.std, t.stdElem = stdStream, tChar
		streamTypes[t] = cl
		builtinTypedefs[cl.name] = t
	}
	// std::ios_base open modes and seek directions (libstdc++'s values)
	for _, ns := range []string{"std::ios::", "std::ios_base::"} {
		for name, v := range map[string]int64{"app": 1, "ate": 2, "binary": 4, "in": 8, "out": 16, "trunc": 32, "beg": 0, "cur": 1, "end": 2} {
			namedConsts[ns+name] = v
		}
	}
}

// ioFmt is a stream's formatting state ([ios.base], [std.manip]).
type ioFmt struct {
	prec       int
	width      int
	fill       byte
	fixed, sci bool
	left       bool
	base       int
	boolalpha  bool
	showpoint  bool
	uppercase  bool
}

func defaultFmt() *ioFmt { return &ioFmt{prec: 6, fill: ' ', base: 10} }

// iosObj is the state of one stream object.
type iosObj struct {
	cls        *streamClass
	buf        []byte // a string stream's characters
	gpos, ppos int
	fh         int // a file stream's open file (0: not open)
	path       string
	eof, fail  bool
	bad        bool
	gcount     int
	stored     bool // the last operator>> stored a value
	fmt        *ioFmt
}

// libState is the run-time state of the library models: the stream
// objects, the format state of std::cout and std::cerr, and the time
// sleep and usleep added to the wall clock (lib_posix.go).
type libState struct {
	objs      []*iosObj
	std       map[uint64]*ioFmt
	cin       *iosObj
	sleptNs   uint64
	limits    map[int64]int64   // cudaDeviceSetLimit (lib_deviceprop.go)
	strtok    uint64            // strtok's saved position (lib_cstring.go)
	statics   map[string]uint64 // the library's static objects (lib_cstring.go)
	stoStatus int               // the last std::stoi's outcome (lib_stoi.go)
	rand48    uint64            // the drand48 family's state (lib_rand48.go)
	rt        *rtState          // memory pools, stream attributes (lib_cudart_mem.go)
}

func (m *Machine) libSt() *libState {
	if m.libst == nil {
		m.libst = &libState{std: map[uint64]*ioFmt{}}
	}
	return m.libst
}

// iosOf returns the object of handle h (nil for std::cout and std::cerr).
func (m *Machine) iosOf(h uint64) *iosObj {
	if h == lib.Stdin {
		// std::cin reads the run's standard input, which is empty, as
		// scanf's is: every extraction fails at the end of the input
		st := m.libSt()
		if st.cin == nil {
			st.cin = &iosObj{cls: &streamClass{id: 7, name: "istream", in: true}, fmt: defaultFmt()}
		}
		return st.cin
	}
	if h&^0xffffffff != iosBase {
		return nil
	}
	st := m.libSt()
	i := int(uint32(h))
	if i >= len(st.objs) {
		return nil
	}
	return st.objs[i]
}

// iosObj is the object of handle h, faulting when h is std::cout or
// std::cerr, which have no such operation here.
func (m *Machine) iosObj(t *Thread, h uint64, pos int32) (*iosObj, bool) {
	if o := m.iosOf(h); o != nil {
		return o, true
	}
	m.fault(t, pos, "C0309", "this operation on std::cout or std::cerr is not modeled")
	return nil, false
}

// fmtOf is the format state of handle h.
func (m *Machine) fmtOf(h uint64) *ioFmt {
	if o := m.iosOf(h); o != nil {
		return o.fmt
	}
	st := m.libSt()
	f := st.std[h]
	if f == nil {
		f = defaultFmt()
		st.std[h] = f
	}
	return f
}

// handleOf reads (making it on first use) the handle of the stream object
// at p of class cl.
func (m *Machine) handleOf(t *Thread, p uint64, cl int, pos int32) (uint64, bool) {
	b, good := m.resolve(t, p, 8, pos, false, false)
	if !good {
		return 0, false
	}
	if h := loadN(b, 8); h != 0 {
		return h, true // an object's handle, or std::cout's bound to a reference
	}
	st := m.libSt()
	st.objs = append(st.objs, &iosObj{cls: streamClassList[cl], fmt: defaultFmt()})
	h := iosBase | uint64(len(st.objs)-1)
	if !m.store(t, p, mU64, h, pos) {
		return 0, false
	}
	return h, true
}

// readable is the unread input of o.
func (m *Machine) readable(o *iosObj) []byte {
	if o.cls.file {
		if f := m.opts.Files.File(o.fh); f != nil && f.Read {
			return f.Rest()
		}
		return nil
	}
	if o.gpos > len(o.buf) {
		return nil
	}
	return o.buf[o.gpos:]
}

// consume advances o's input by n bytes.
func (m *Machine) consume(o *iosObj, n int) {
	if o.cls.file {
		if f := m.opts.Files.File(o.fh); f != nil {
			f.Skip(n)
		}
		return
	}
	o.gpos += n
}

// writeObj writes b to stream object o.
func (m *Machine) writeObj(o *iosObj, b []byte, pos int32) {
	if o.fail || o.bad {
		return // the sentry fails: nothing is written
	}
	if o.cls.file {
		f := m.opts.Files.File(o.fh)
		if f == nil || !f.Write {
			o.bad = true
			return
		}
		if f.WriteB(b) != len(b) {
			m.diags.Warnf(m.pos(pos), "C0608", "write to %s failed (over 1 GiB)", f.Path)
			o.bad = true
		}
		return
	}
	end := o.ppos + len(b)
	if end > len(o.buf) {
		o.buf = append(o.buf, make([]byte, end-len(o.buf))...)
	}
	copy(o.buf[o.ppos:], b)
	o.ppos = end
}

// formatValue is the text of operator<< of value v of kind k under f
// ([ostream.inserters.arithmetic]: the printf conversion num_put uses).
func (m *Machine) formatValue(t *Thread, f *ioFmt, v uint64, k uint64, pos int32) (string, bool) {
	var s string
	switch k {
	case osInt, osUint:
		neg := k == osInt && int64(v) < 0
		switch f.base {
		case 16:
			s = strconv.FormatUint(v, 16) // hex and oct are of the unsigned value
			if f.uppercase {
				s = strings.ToUpper(s)
			}
		case 8:
			s = strconv.FormatUint(v, 8)
		default:
			if neg {
				s = strconv.FormatInt(int64(v), 10)
			} else {
				s = strconv.FormatUint(v, 10)
			}
		}
	case osFloat:
		x := math.Float64frombits(v)
		switch {
		case math.IsNaN(x):
			s = "nan"
			if math.Signbit(x) {
				s = "-nan"
			}
		case math.IsInf(x, 1):
			s = "inf"
		case math.IsInf(x, -1):
			s = "-inf"
		case f.fixed && f.sci:
			s = strconv.FormatFloat(x, 'x', -1, 64) // hexfloat
		case f.fixed:
			s = strconv.FormatFloat(x, 'f', f.prec, 64)
		case f.sci:
			s = strconv.FormatFloat(x, 'e', f.prec, 64)
		default:
			if f.showpoint {
				s = altFormatG(x, f.prec)
			} else {
				s = cFormatG("%."+strconv.Itoa(f.prec), "g", x)
			}
		}
		if f.uppercase {
			s = strings.ToUpper(s)
		}
	case osCStr:
		var good bool
		if s, good = m.cstring(t, v, pos); !good {
			return "", false
		}
	case osChar:
		s = string([]byte{byte(v)})
	case osBool:
		switch {
		case f.boolalpha && v != 0:
			s = "true"
		case f.boolalpha:
			s = "false"
		case v != 0:
			s = "1"
		default:
			s = "0"
		}
	case osPtr:
		s = "0x" + strconv.FormatUint(v, 16)
	case osString:
		b, _, good := m.stdBytes(t, v, 1, pos)
		if !good {
			return "", false
		}
		s = string(b)
	case osEndl:
		return "\n", true
	}
	// the field width applies to one output and is then reset ([ostream.formatted.reqmts])
	if w := f.width; w > len(s) {
		pad := strings.Repeat(string([]byte{f.fill}), w-len(s))
		if f.left {
			s += pad
		} else {
			s = pad + s
		}
	}
	f.width = 0
	return s, true
}

// altFormatG is printf's "%#.pg" (C11 7.21.6.1: the style of %e or %f
// by the exponent, trailing zeros kept, always a decimal point).
func altFormatG(x float64, p int) string {
	if p == 0 {
		p = 1
	}
	e := strconv.FormatFloat(x, 'e', p-1, 64)
	exp, _ := strconv.Atoi(e[strings.IndexByte(e, 'e')+1:])
	var s string
	if exp < -4 || exp >= p {
		s = e
		if !strings.Contains(s, ".") {
			s = strings.Replace(s, "e", ".e", 1)
		}
	} else {
		s = strconv.FormatFloat(x, 'f', p-1-exp, 64)
		if !strings.Contains(s, ".") {
			s += "."
		}
	}
	return s
}

// Manipulators ([std.manip], [basefield.manip], [floatfield.manip]): the
// names as the parser leaves them (std:: flattened), each setting a
// format flag. setprecision, setw and setfill take an argument.
var manipulators map[string]int

// initManipulators builds manipulators (tables.go).
func initManipulators() {
	manipulators = map[string]int{
		"fixed": 1, "scientific": 2, "defaultfloat": 3, "hexfloat": 4, "hex": 5, "dec": 6, "oct": 7,
		"left": 8, "right": 9, "boolalpha": 10, "noboolalpha": 11, "showpoint": 12, "noshowpoint": 13,
		"uppercase": 14, "nouppercase": 15,
	}
}

var manipCalls map[string]uint64

// initManipCalls builds manipCalls (tables.go).
func initManipCalls() {
	manipCalls = map[string]uint64{"setprecision": osSetPrec, "setw": osSetWidth, "setfill": osSetFill}
}

func applyManip(f *ioFmt, k, v uint64) {
	switch k {
	case osSetPrec:
		f.prec = int(int32(v))
		if f.prec < 0 {
			f.prec = 6
		}
	case osSetWidth:
		f.width = int(int32(v))
	case osSetFill:
		f.fill = byte(v)
	case osManip:
		switch v {
		case 1:
			f.fixed, f.sci = true, false
		case 2:
			f.fixed, f.sci = false, true
		case 3:
			f.fixed, f.sci = false, false
		case 4:
			f.fixed, f.sci = true, true
		case 5:
			f.base = 16
		case 6:
			f.base = 10
		case 7:
			f.base = 8
		case 8:
			f.left = true
		case 9:
			f.left = false
		case 10, 11:
			f.boolalpha = v == 10
		case 12, 13:
			f.showpoint = v == 12
		case 14, 15:
			f.uppercase = v == 14
		}
	}
}

// Kinds of __istream_get's target ([istream.formatted.arithmetic]).
const (
	isSigned = iota
	isUnsigned
	isFloat32
	isFloat64
	isChar
	isBool
	isString
	isCStr
)

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// streamGet is operator>> of a target of kind k and size bytes at p:
// leading white space skipped, the longest number (or word) read; on no
// conversion failbit, and 0 stored for a number (C++11 [facet.num.get.virtuals]);
// reaching the end of the input sets eofbit.
func (m *Machine) streamGet(t *Thread, o *iosObj, p uint64, k, size int, pos int32) bool {
	o.stored = false
	if o.fail || o.bad || o.eof {
		o.fail = true // the sentry fails on a stream that is not good
		return true
	}
	o.stored = true
	in := m.readable(o)
	i := 0
	for i < len(in) && isSpace(in[i]) {
		i++
	}
	if i == len(in) {
		m.consume(o, i)
		o.eof, o.fail, o.stored = true, true, false
		return true
	}
	rest := in[i:]
	var n int
	storeInt := func(v uint64) bool {
		return m.store(t, p, map[int]int{1: mU8, 2: mU16, 4: mU32, 8: mU64}[size], v, pos)
	}
	switch k {
	case isSigned, isUnsigned, isBool:
		v, used, over := lib.StrToInt(rest, o.fmt.base, k != isUnsigned, size*8)
		n = used
		if k == isBool {
			if used == 0 || (v != 0 && v != 1) {
				o.fail = true
				v = 0
				if used > 0 {
					v = 1
				}
			}
		} else if used == 0 {
			o.fail, v = true, 0
		} else if over {
			o.fail = true
		}
		if !storeInt(v) {
			return false
		}
	case isFloat32, isFloat64:
		v, used, rangeErr := lib.StrToFloat(rest)
		n = used
		if used == 0 {
			o.fail, v = true, 0
		}
		if k == isFloat32 {
			f := float32(v)
			if used > 0 && (rangeErr || math.IsInf(float64(f), 0) && !math.IsInf(v, 0)) {
				o.fail = true
			}
			if !m.store(t, p, mU32, uint64(math.Float32bits(f)), pos) {
				return false
			}
		} else {
			if rangeErr {
				o.fail = true
			}
			if !m.store(t, p, mU64, math.Float64bits(v), pos) {
				return false
			}
		}
	case isChar:
		n = 1
		if !storeInt(uint64(rest[0])) {
			return false
		}
	case isString, isCStr:
		for n < len(rest) && !isSpace(rest[n]) {
			n++
		}
		if k == isString {
			if !m.stdSetBytes(t, p, rest[:n], uint64(n), 1, true, pos) {
				return false
			}
		} else {
			b, good := m.resolve(t, p, n+1, pos, true, false)
			if !good {
				return false
			}
			copy(b, rest[:n])
			b[n] = 0
		}
	}
	if i+n == len(in) && k != isChar {
		o.eof = true // a number or word ends only by looking past it; a char does not look
	}
	m.consume(o, i+n)
	return true
}

// getline is std::getline(is, s, delim) ([string.io]): characters up to
// delim (extracted, not stored) or the end (eofbit); none at all is
// failbit.
func (m *Machine) getline(t *Thread, o *iosObj, p uint64, delim byte, pos int32) bool {
	if o.fail || o.bad || o.eof {
		o.fail = true
		return true
	}
	in := m.readable(o)
	n := 0
	for n < len(in) && in[n] != delim {
		n++
	}
	line := append([]byte(nil), in[:n]...)
	used := n
	if n < len(in) {
		used++ // the delimiter
	} else {
		o.eof = true
		if n == 0 {
			o.fail = true
		}
	}
	m.consume(o, used)
	o.gcount = used
	return m.stdSetBytes(t, p, line, uint64(len(line)), 1, true, pos)
}

func initLibSstream2() {
	for name, s := range map[string]*bsig{
		"__ios_h":       sig(tLong, hostSide, tAny, tAny),
		"__ios_ok":      sig(tInt, hostSide, tAny),
		"__ios_std_obj": sig(tVoidP, hostSide, tAny),
		"__ios_stored":  sig(tInt, hostSide, tAny),
		"__istream_get": sig(tLong, hostSide, tAny, tAny, tAny, tAny),
		"__getline":     sig(tLong, hostSide, tAny, tAny, tAny),
		"__ios_str":     sig(tVoidP, hostSide, tAny, tAny),
		"__ios_setstr":  sig(tVoid, hostSide, tAny, tAny, tAny),
		"__ios_state":   sig(tInt, hostSide, tAny, tAny),
		"__ios_rw":      sig(tLong, hostSide, tAny, tAny, tAny, tAny),
		"__ios_get":     sig(tInt, hostSide, tAny, tAny),
		"__ios_prec":    sig(tLong, hostSide, tAny, tAny, tAny),
		"__ios_ignore":  sig(tLong, hostSide, tAny, tAny, tAny),
	} {
		builtinSigs[name] = s
	}
	builtinSigs["std::ios::sync_with_stdio"] = sig(tInt, hostSide, tInt).def(1)
	defb("std::ios::sync_with_stdio", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(1) // streams and stdio share one buffer here: always in sync
	})
	defb("__ios_h", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		h, good := m.handleOf(t, a[0], int(a[1]), pos)
		if !good {
			return 0, stFault
		}
		return ok(h)
	})
	defb("__ios_std_obj", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		names := map[uint64]string{lib.Stdout: "std::cout", lib.Stderr: "std::cerr", lib.Stdin: "std::cin"}
		p := m.staticObj(names[a[0]], 24, pos)
		if !m.store(t, p, mU64, a[0], pos) {
			return 0, stFault
		}
		return ok(p)
	})
	defb("__ios_ok", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// explicit operator bool: !fail() ([iostate.flags])
		if o := m.iosOf(a[0]); o != nil && (o.fail || o.bad) {
			return ok(0)
		}
		return ok(1)
	})
	defb("__ios_stored", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		o := m.iosOf(a[0])
		return ok(b2u(o != nil && o.stored))
	})
	defb("__istream_get", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		o := m.iosOf(a[0])
		if o == nil {
			m.fault(t, pos, "C0309", "operator>> on an output stream")
			return 0, stFault
		}
		if !m.streamGet(t, o, a[1], int(a[2]), int(a[3]), pos) {
			return 0, stFault
		}
		return ok(a[0])
	})
	defb("__getline", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		o := m.iosOf(a[0])
		if o == nil {
			m.fault(t, pos, "C0309", "std::getline from an output stream")
			return 0, stFault
		}
		if !m.getline(t, o, a[1], byte(a[2]), pos) {
			return 0, stFault
		}
		return ok(a[0])
	})
	defb("__ios_str", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// str(): a copy of the characters ([stringbuf.members])
		o, good := m.iosObj(t, a[1], pos)
		if !good {
			return 0, stFault
		}
		if !m.stdSetBytes(t, a[0], o.buf, uint64(len(o.buf)), 1, true, pos) {
			return 0, stFault
		}
		return ok(a[0])
	})
	defb("__ios_setstr", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// str(s): the characters of s, both positions at the start
		o, good := m.iosObj(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		var s []byte
		if a[2] == 1 {
			b, _, good := m.stdBytes(t, a[1], 1, pos)
			if !good {
				return 0, stFault
			}
			s = b
		} else {
			str, good := m.cstring(t, a[1], pos)
			if !good {
				return 0, stFault
			}
			s = []byte(str)
		}
		o.buf = append([]byte(nil), s...)
		o.gpos, o.ppos = 0, 0
		return ok(0)
	})
	defb("__ios_state", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		o := m.iosOf(a[0])
		if o == nil {
			return ok(b2u(a[1] == 0 || a[1] == 4)) // std::cout is good
		}
		switch a[1] {
		case 0: // good
			return ok(b2u(!o.eof && !o.fail && !o.bad))
		case 1:
			return ok(b2u(o.eof))
		case 2:
			return ok(b2u(o.fail || o.bad))
		case 3:
			return ok(b2u(o.bad))
		case 4: // is_open
			return ok(b2u(m.opts.Files.File(o.fh) != nil))
		case 5: // clear
			o.eof, o.fail, o.bad = false, false, false
		case 6: // gcount
			return ok(uint64(o.gcount))
		case 7: // tellg
			if o.fail || o.bad {
				return ok(^uint64(0))
			}
			if o.cls.file {
				if f := m.opts.Files.File(o.fh); f != nil {
					return ok(uint64(f.Pos))
				}
				return ok(^uint64(0))
			}
			return ok(uint64(o.gpos))
		case 8: // tellp
			if o.fail || o.bad {
				return ok(^uint64(0))
			}
			if o.cls.file {
				if f := m.opts.Files.File(o.fh); f != nil {
					return ok(uint64(f.Pos))
				}
				return ok(^uint64(0))
			}
			return ok(uint64(o.ppos))
		}
		return ok(0)
	})
	defb("__ios_rw", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// read(p, n) (a[3] = 0) and write(p, n) (a[3] = 1): unformatted
		// ([istream.unformatted], [ostream.unformatted])
		o, good := m.iosObj(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		n := int(int64(a[2]))
		if n < 0 {
			m.fault(t, pos, "C0403", "negative count %d", n)
			return 0, stFault
		}
		if a[3] == 1 {
			b, good := m.resolve(t, a[1], n, pos, false, false)
			if !good {
				return 0, stFault
			}
			m.writeObj(o, append([]byte(nil), b...), pos)
			return ok(a[0])
		}
		o.gcount = 0
		if o.fail || o.bad || o.eof {
			o.fail = true
			return ok(a[0])
		}
		in := m.readable(o)
		k := min(n, len(in))
		if k > 0 {
			b, good := m.resolve(t, a[1], k, pos, true, false)
			if !good {
				return 0, stFault
			}
			copy(b, in[:k])
		}
		m.consume(o, k)
		o.gcount = k
		if k < n {
			o.eof, o.fail = true, true
		}
		return ok(a[0])
	})
	defb("__ios_get", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// get() (a[1] = 0) and peek() (a[1] = 1): the next character or EOF
		o, good := m.iosObj(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		o.gcount = 0
		if o.fail || o.bad || o.eof {
			o.fail = true
			return ok(^uint64(0))
		}
		in := m.readable(o)
		if len(in) == 0 {
			o.eof = true
			if a[1] == 0 {
				o.fail = true
			}
			return ok(^uint64(0))
		}
		if a[1] == 0 {
			m.consume(o, 1)
			o.gcount = 1
		}
		return ok(uint64(in[0]))
	})
	defb("__ios_ignore", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		o, good := m.iosObj(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		o.gcount = 0
		if o.fail || o.bad || o.eof {
			o.fail = true
			return ok(a[0])
		}
		in := m.readable(o)
		n, delim := int64(a[1]), int32(a[2])
		k := 0
		for int64(k) < n && k < len(in) {
			k++
			if delim >= 0 && int32(in[k-1]) == delim&0xff {
				break
			}
		}
		if int64(k) < n && k == len(in) && (k == 0 || delim < 0 || int32(in[k-1]) != delim&0xff) {
			o.eof = true
		}
		m.consume(o, k)
		o.gcount = k
		return ok(a[0])
	})
	defb("__ios_prec", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// precision(n) / width(n) (a[2] = 0 / 1): the old value; a
		// negative n only reads it
		f := m.fmtOf(a[0])
		old := &f.prec
		if a[2] == 1 {
			old = &f.width
		}
		v := *old
		if n := int64(a[1]); n >= 0 {
			*old = int(n)
		}
		return ok(uint64(v))
	})
}

// Compilation.

// isObject reports whether e denotes an object: in memory, or a variable
// kept in a slot.
func (c *compiler) isObject(e syntax.Expr) bool {
	if n, ok := e.(*syntax.Name); ok {
		if s := c.lookup(n.Name); s != nil && s.kind == symSlot {
			return true
		}
	}
	return c.addressable(e)
}

func (c *compiler) streamClassOf(t *Type) *streamClass {
	if t == nil || t.Kind != Struct || t.std != stdStream {
		return nil
	}
	return streamTypes[t]
}

// isStreamExpr reports whether e is a stream (an object, std::cout, or
// the value of a chained << or >>), and whether it reads and writes.
func (c *compiler) isStreamExpr(e syntax.Expr) (in, out, ok bool) {
	t := c.typeOf(e, true)
	switch {
	case t == tOstream:
		return false, true, true
	case t == tIstream:
		return true, false, true
	}
	if cl := c.streamClassOf(t); cl != nil {
		return cl.in, cl.out, true
	}
	return false, false, false
}

// streamHandle pushes the handle of stream expression e.
func (c *compiler) streamHandle(e syntax.Expr, pos diag.Pos) {
	t := c.typeOf(e, true)
	cl := c.streamClassOf(t)
	if cl == nil {
		c.expr(e)
		return
	}
	if c.addressable(e) {
		c.lvalue(e)
	} else {
		// a class value is its object's address: the stream a call
		// returned by reference (a user's operator<<), or a temporary
		c.expr(e)
	}
	c.emit(OpConst, 0, int64(cl.id), pos)
	c.stdBuiltin("__ios_h", 2, pos)
}

// streamTruth converts a stream value of type t on the stack to its
// explicit operator bool, !fail() (if (f), while (is >> x), !f); other
// values are left as they are.
func (c *compiler) streamTruth(t *Type, pos diag.Pos) *Type {
	if cl := c.streamClassOf(t); cl != nil {
		c.emit(OpConst, 0, int64(cl.id), pos)
		c.stdBuiltin("__ios_h", 2, pos)
	} else if t != tOstream && t != tIstream {
		return t
	}
	c.stdBuiltin("__ios_ok", 1, pos)
	return tInt
}

// manipulator compiles y when it is an output manipulator, with the
// stream handle on the stack, and reports whether it was one.
func (c *compiler) manipulator(y syntax.Expr, pos diag.Pos) bool {
	switch y := y.(type) {
	case *syntax.Name:
		id, ok := manipulators[y.Name]
		if !ok || c.lookup(y.Name) != nil {
			return false
		}
		c.emit(OpConst, 0, int64(id), pos)
		c.emit(OpConst, 0, osManip, pos)
	case *syntax.Call:
		n, ok := y.Fun.(*syntax.Name)
		if !ok {
			return false
		}
		k, ok := manipCalls[n.Name]
		if !ok || c.lookup(n.Name) != nil || c.funcs[n.Name] != nil {
			return false
		}
		if len(y.Args) != 1 {
			c.errorf(y.Pos, "C0304", "std::%s takes 1 argument, %d given", n.Name, len(y.Args))
			c.emit(OpConst, 0, 0, pos)
		} else {
			c.convert(c.expr(y.Args[0]), tLong, pos)
		}
		c.emit(OpConst, 0, int64(k), pos)
	default:
		return false
	}
	c.stdBuiltin("__ostream_put", 3, pos)
	return true
}

// istreamGet compiles is >> x for an input stream is.
func (c *compiler) istreamGet(e *syntax.Binary) (*Type, bool) {
	in, out, ok := c.isStreamExpr(e.X)
	if !ok {
		return nil, false
	}
	pos := e.Pos
	c.stdHostOnly(pos)
	if !in {
		c.errorf(pos, "C0302", "operator>> on an output stream (%s)", c.typeOf(e.X, true))
		_ = out
		c.emit(OpConst, 0, 0, pos)
		return tIstream, true
	}
	c.streamHandle(e.X, pos)
	if c.manipulator(e.Y, pos) { // is >> std::hex: the basefield for integers
		return tIstream, true
	}
	if !c.isObject(e.Y) {
		c.errorf(syntax.PosOf(e.Y), "C0303", "operator>> needs an object to read into")
		return tIstream, true
	}
	yt := c.typeOf(e.Y, false)
	var kind int
	switch {
	case yt.Kind == Bool:
		kind = isBool
	case yt.Kind == Char || yt.Kind == SChar || yt.Kind == UChar:
		kind = isChar
	case yt.isInt() && yt.isSigned():
		kind = isSigned
	case yt.isInt():
		kind = isUnsigned
	case yt.Kind == Float:
		kind = isFloat32
	case yt.Kind == Double:
		kind = isFloat64
	case c.isStd(yt, stdString):
		kind = isString
	case yt.Kind == Array && (yt.Elem.Kind == Char || yt.Elem.Kind == SChar || yt.Elem.Kind == UChar):
		kind = isCStr
	case yt.Kind == Ptr && (yt.Elem.Kind == Char || yt.Elem.Kind == SChar || yt.Elem.Kind == UChar):
		// operator>>(istream&, char*): a word into the buffer pointed to
		c.expr(e.Y)
		c.emit(OpConst, 0, isCStr, pos)
		c.emit(OpConst, 0, 0, pos)
		c.stdBuiltin("__istream_get", 4, pos)
		return tIstream, true
	default:
		c.errorf(syntax.PosOf(e.Y), "C0302", "operator>> into %s is not modeled", yt)
		return tIstream, true
	}
	size := yt.size
	lv := c.lvalue(e.Y)
	if lv.slot < 0 {
		c.emit(OpConst, 0, int64(kind), pos)
		c.emit(OpConst, 0, int64(size), pos)
		c.stdBuiltin("__istream_get", 4, pos)
		return tIstream, true
	}
	// a variable kept in a slot: read into a temporary, copied back when
	// the extraction stored (a failed sentry leaves the variable as it was)
	mc := int32(memCode(yt))
	tmp, sfd := c.newSlot(), c.newSlot()
	c.emit(OpTemp, 0, int64(size), pos)
	c.emit(OpSetLocal, int32(tmp), 0, pos)
	c.emit(OpConst, 0, int64(kind), pos)
	c.emit(OpConst, 0, int64(size), pos)
	c.stdBuiltin("__istream_get", 4, pos)
	c.emit(OpSetLocal, int32(sfd), 0, pos)
	c.stdBuiltin("__ios_stored", 1, pos)
	j := c.emit(OpJz, 0, 0, pos)
	c.emit(OpLocal, int32(tmp), 0, pos)
	c.emit(OpLoad, mc, 0, pos)
	c.emit(OpSetLocal, int32(lv.slot), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	c.patch(j)
	c.emit(OpLocal, int32(sfd), 0, pos)
	return tIstream, true
}

// streamCall compiles std::getline(is, s[, delim]) ([string.io]); other
// calls are not its business.
func (c *compiler) streamCall(name string, e *syntax.Call) (*Type, bool) {
	if name != "getline" && name != "std::getline" || len(e.Args) < 2 {
		return nil, false
	}
	in, _, ok := c.isStreamExpr(e.Args[0])
	if !ok {
		return nil, false
	}
	pos := e.Pos
	c.stdHostOnly(pos)
	if !in {
		c.errorf(pos, "C0302", "std::getline from an output stream")
	}
	if len(e.Args) > 3 {
		c.errorf(pos, "C0304", "std::getline takes 2 or 3 arguments, %d given", len(e.Args))
	}
	c.streamHandle(e.Args[0], pos)
	if st := c.typeOf(e.Args[1], false); !c.isStd(st, stdString) || !c.addressable(e.Args[1]) {
		c.errorf(syntax.PosOf(e.Args[1]), "C0302", "std::getline reads into a std::string, not %s", st)
		c.emit(OpConst, 0, 0, pos)
	} else {
		c.lvalue(e.Args[1])
	}
	if len(e.Args) >= 3 {
		c.convert(c.expr(e.Args[2]), tChar, pos)
	} else {
		c.emit(OpConst, 0, '\n', pos)
	}
	c.stdBuiltin("__getline", 3, pos)
	return tIstream, true
}

// streamConstruct initializes the stream object of type t whose address
// is on the stack (kept): a string stream from its initial string, a file
// stream from a path and an open mode.
func (c *compiler) streamConstruct(t *Type, args []syntax.Expr, pos diag.Pos) {
	cl := c.streamClassOf(t)
	c.stdHostOnly(pos)
	if cl.id >= 6 {
		c.errorf(pos, "C0309", "an std::%s object is not modeled (std::%s& binds to a stream; construct a string or file stream)", cl.name, cl.name)
		return
	}
	c.emit(OpDup, 0, 0, pos)
	c.emit(OpMemzero, 0, 24, pos)
	c.emit(OpPop, 0, 0, pos)
	if len(args) == 0 {
		// the state now, so a base reference bound to it later finds it
		c.emit(OpDup, 0, 0, pos)
		c.emit(OpConst, 0, int64(cl.id), pos)
		c.stdBuiltin("__ios_h", 2, pos)
		c.emit(OpPop, 0, 0, pos)
		return
	}
	if len(args) == 1 && c.streamClassOf(c.typeOf(args[0], true)) != nil {
		c.errorf(pos, "C0302", "std::%s cannot be copied", cl.name)
		return
	}
	if len(args) > 2 {
		c.errorf(pos, "C0304", "no constructor of std::%s takes %d arguments", cl.name, len(args))
		return
	}
	c.emit(OpDup, 0, 0, pos)
	c.emit(OpConst, 0, int64(cl.id), pos)
	c.stdBuiltin("__ios_h", 2, pos)
	if cl.file {
		c.streamOpen(cl, args, pos)
		c.emit(OpPop, 0, 0, pos)
		return
	}
	// basic_stringstream(const string& s, openmode): s is the contents
	c.stringArg(args[0], pos)
	c.stdBuiltin("__ios_setstr", 3, pos)
	c.emit(OpPop, 0, 0, pos)
	if len(args) == 2 {
		c.convert(c.expr(args[1]), tInt, pos) // the mode: ate/app are not modeled for string streams
		c.emit(OpPop, 0, 0, pos)
	}
}

// stdStreamAddr compiles &std::cout (std::cerr, std::clog, std::cin):
// the address of one header per run holding the stream's handle, so
// std::ostream *out = &std::cout works and compares equal each time.
func (c *compiler) stdStreamAddr(name string, pos diag.Pos) (*Type, bool) {
	var h int64
	var cl *streamClass
	if v, ok := ostreams[name]; ok {
		h, cl = v, streamClassList[6]
	} else if name == "std::cin" {
		h, cl = stdinHandle, streamClassList[7]
	} else {
		return nil, false
	}
	c.stdHostOnly(pos)
	c.emit(OpConst, 0, h, pos)
	c.stdBuiltin("__ios_std_obj", 1, pos)
	for t, k := range streamTypes {
		if k == cl {
			return ptrTo(t), true
		}
	}
	return nil, false
}

// streamBind initializes the temporary stream header on the stack (kept)
// that a reference std::ostream& or std::istream& binds to, from e: a
// stream value (std::cout, the result of << or >>) gives its handle.
func (c *compiler) streamBind(t *Type, e syntax.Expr, pos diag.Pos) bool {
	cl := c.streamClassOf(t)
	vt := c.typeOf(e, true)
	vin, vout, isStream := c.isStreamExpr(e)
	if !isStream || (vt != tOstream && vt != tIstream && cl.id < 6) {
		return false // (a stream object is copied only into a base reference's header)
	}
	if cl.out && !vout || cl.in && !vin {
		c.errorf(pos, "C0302", "cannot bind std::%s& to %s", cl.name, vt)
		return true
	}
	c.emit(OpDup, 0, 0, pos)
	c.emit(OpMemzero, 0, 24, pos)
	c.streamHandle(e, pos)
	c.emit(OpStore, int32(mU64), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	return true
}

// stringArg pushes a string argument (std::string or char*) and its kind
// (1: std::string).
func (c *compiler) stringArg(a syntax.Expr, pos diag.Pos) {
	at := c.typeOf(a, true)
	switch {
	case c.isStd(at, stdString):
		if c.addressable(a) {
			c.lvalue(a)
		} else {
			c.expr(a)
		}
		c.emit(OpConst, 0, 1, pos)
	case at.Kind == Ptr:
		c.expr(a)
		c.emit(OpConst, 0, 0, pos)
	default:
		c.errorf(syntax.PosOf(a), "C0302", "a string (std::string or char*) is needed, not %s", at)
		c.emit(OpConst, 0, 0, pos)
		c.emit(OpConst, 0, 0, pos)
	}
}

// streamMethod compiles a member function call on a stream object.
func (c *compiler) streamMethod(st *Type, m *syntax.Member, e *syntax.Call) *Type {
	pos := e.Pos
	c.stdHostOnly(pos)
	cl := c.streamClassOf(st)
	args := e.Args
	recv := func() {
		if st == tOstream || st == tIstream {
			c.expr(m.X)
			return
		}
		if m.Arrow {
			c.expr(m.X)
		} else if !c.addressable(m.X) {
			c.errorf(pos, "C0309", "a member call on a temporary std::%s is not modeled (name the stream)", cl.name)
			c.emit(OpConst, 0, 0, pos)
			return
		} else {
			c.lvalue(m.X)
		}
		c.emit(OpConst, 0, int64(cl.id), pos)
		c.stdBuiltin("__ios_h", 2, pos)
	}
	nargs := func(lo, hi int) bool {
		if len(args) < lo || len(args) > hi {
			c.errorf(pos, "C0304", "%s::%s takes %d to %d arguments, %d given", st, m.Name, lo, hi, len(args))
			c.emit(OpConst, 0, 0, pos)
			return false
		}
		return true
	}
	state := func(k int64) *Type {
		if !nargs(0, 0) {
			return tBool
		}
		recv()
		c.emit(OpConst, 0, k, pos)
		c.stdBuiltin("__ios_state", 2, pos)
		return tBool
	}
	switch m.Name {
	case "good":
		return state(0)
	case "eof":
		return state(1)
	case "fail":
		return state(2)
	case "bad":
		return state(3)
	case "flush":
		if !nargs(0, 0) {
			return st
		}
		recv()
		return tOstream
	case "precision", "width":
		if !nargs(0, 1) {
			return tLong
		}
		recv()
		if len(args) == 1 {
			c.convert(c.expr(args[0]), tLong, pos)
		} else {
			c.emit(OpConst, 0, -1, pos)
		}
		c.emit(OpConst, 0, map[string]int64{"precision": 0, "width": 1}[m.Name], pos)
		c.stdBuiltin("__ios_prec", 3, pos)
		return tLong
	}
	if cl == nil {
		c.errorf(pos, "C0309", "%s::%s is not modeled", st, m.Name)
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	switch m.Name {
	case "clear":
		if len(args) > 0 {
			c.errorf(pos, "C0309", "clear(state) is not modeled (clear() is)")
		}
		state(5)
		c.emit(OpPop, 0, 0, pos)
		c.emit(OpConst, 0, 0, pos)
		return tVoid
	case "gcount":
		state(6)
		return tLong
	case "str":
		if cl.file {
			break
		}
		if !nargs(0, 1) {
			return tString
		}
		if len(args) == 0 {
			c.emit(OpTemp, 0, 24, pos)
			c.emit(OpMemzero, 0, 24, pos)
			recv()
			c.stdBuiltin("__ios_str", 2, pos)
			return tString
		}
		recv()
		c.stringArg(args[0], pos)
		c.stdBuiltin("__ios_setstr", 3, pos)
		return tVoid
	case "read", "write":
		if m.Name == "read" && !cl.in || m.Name == "write" && !cl.out {
			break
		}
		if !nargs(2, 2) {
			return tOstream
		}
		recv()
		if at := c.expr(args[0]); at.Kind != Ptr {
			c.errorf(syntax.PosOf(args[0]), "C0302", "%s needs a pointer, not %s", m.Name, at)
		}
		c.convert(c.expr(args[1]), tLong, pos)
		c.emit(OpConst, 0, map[string]int64{"read": 0, "write": 1}[m.Name], pos)
		c.stdBuiltin("__ios_rw", 4, pos)
		if m.Name == "read" {
			return tIstream
		}
		return tOstream
	case "get", "peek":
		if !cl.in {
			break
		}
		if m.Name == "peek" || len(args) == 0 {
			if !nargs(0, 0) {
				return tInt
			}
			recv()
			c.emit(OpConst, 0, map[string]int64{"get": 0, "peek": 1}[m.Name], pos)
			c.stdBuiltin("__ios_get", 2, pos)
			return tInt
		}
		// get(char& c): the next character into c, the stream returned
		if !nargs(1, 1) {
			return tIstream
		}
		if !c.isObject(args[0]) {
			c.errorf(syntax.PosOf(args[0]), "C0303", "get(char&) needs an object")
			return tIstream
		}
		recv()
		sl := c.newSlot()
		c.emit(OpSetLocal, int32(sl), 0, pos)
		c.emit(OpConst, 0, 0, pos)
		c.stdBuiltin("__ios_get", 2, pos)
		cv := c.newSlot()
		c.emit(OpSetLocal, int32(cv), 0, pos)
		c.emit(OpPop, 0, 0, pos)
		// store only a character (not EOF)
		c.emit(OpLocal, int32(cv), 0, pos)
		c.emit(OpConst, 0, -1, pos)
		c.emit(OpEq, 0, 0, pos)
		j := c.emit(OpJnz, 0, 0, pos)
		lv := c.lvalue(args[0])
		c.emit(OpLocal, int32(cv), 0, pos)
		c.convert(tInt, lv.t, pos)
		if lv.slot >= 0 {
			c.emit(OpSetLocal, int32(lv.slot), 0, pos)
		} else {
			c.emit(OpStore, int32(memCode(lv.t)), 0, pos)
		}
		c.emit(OpPop, 0, 0, pos)
		c.patch(j)
		c.emit(OpLocal, int32(sl), 0, pos)
		return tIstream
	case "ignore":
		// ignore(n = 1, delim = EOF): up to n characters, through delim
		if !cl.in || !nargs(0, 2) {
			break
		}
		recv()
		if len(args) > 0 {
			c.convert(c.expr(args[0]), tLong, pos)
		} else {
			c.emit(OpConst, 0, 1, pos)
		}
		if len(args) > 1 {
			c.convert(c.expr(args[1]), tInt, pos)
		} else {
			c.emit(OpConst, 0, -1, pos)
		}
		c.stdBuiltin("__ios_ignore", 3, pos)
		return tIstream
	case "tellg", "tellp":
		state(map[string]int64{"tellg": 7, "tellp": 8}[m.Name])
		return tLong
	case "seekg", "seekp":
		if !nargs(1, 2) {
			return tIstream
		}
		recv()
		c.convert(c.expr(args[0]), tLong, pos)
		if len(args) == 2 {
			c.convert(c.expr(args[1]), tInt, pos)
		} else {
			c.emit(OpConst, 0, 0, pos)
		}
		c.emit(OpConst, 0, map[string]int64{"seekg": 0, "seekp": 1}[m.Name], pos)
		c.stdBuiltin("__ios_seek", 4, pos)
		if m.Name == "seekg" {
			return tIstream
		}
		return tOstream
	case "is_open", "open", "close":
		if !cl.file {
			break
		}
		return c.fileMethod(cl, m.Name, args, recv, nargs, pos)
	}
	c.errorf(m.Pos, "C0309", "std::%s::%s is not modeled", cl.name, m.Name)
	for _, a := range args {
		c.typeOf(a, true)
	}
	c.emit(OpConst, 0, 0, pos)
	return tInt
}
