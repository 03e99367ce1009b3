package sem

import (
	"strings"
	"time"
)

// More of <string.h> (C11 7.24): strtok (its saved position is the
// machine's, as the C library's is the process's), POSIX strtok_r,
// strspn, strcspn, strpbrk and strerror (glibc's texts for the errno
// values a run can see); and of <time.h> (C11 7.27): difftime, gmtime
// and localtime (UTC: the modeled machine's time zone), mktime, asctime
// and strftime over glibc's struct tm. time() is the wall clock's seconds
// (lib_posix.go), counted from the Unix epoch: a run starts at
// 1970-01-01 00:00:00 UTC, so dates are deterministic.

// tTm is glibc x86-64's struct tm.
var tTm *Type

// initTTm builds tTm (tables.go).
func initTTm() {
	tTm = structOf("tm", "tm_sec", tInt, "tm_min", tInt, "tm_hour", tInt, "tm_mday", tInt, "tm_mon", tInt,
		"tm_year", tInt, "tm_wday", tInt, "tm_yday", tInt, "tm_isdst", tInt, "tm_gmtoff", tLong, "tm_zone", tCharP)
}

// errnoText are strerror's texts (glibc) for the errno values of the
// modeled library.
var errnoText map[int]string

// initErrnoText builds errnoText (tables.go).
func initErrnoText() {
	errnoText = map[int]string{0: "Success", 1: "Operation not permitted", 2: "No such file or directory",
		5: "Input/output error", 9: "Bad file descriptor", 12: "Cannot allocate memory", 13: "Permission denied",
		17: "File exists", 20: "Not a directory", 21: "Is a directory", 22: "Invalid argument",
		28: "No space left on device", 33: "Numerical argument out of domain", 34: "Numerical result out of range",
		36: "File name too long"}
}

// strtokAt finds the next token of the string at p (delimiters delim):
// its address (0: none) and the address to continue from.
func (m *Machine) strtokAt(t *Thread, p uint64, delim string, pos int32) (tok, next uint64, good bool) {
	if p == 0 {
		return 0, 0, true
	}
	s, good := m.cstring(t, p, pos)
	if !good {
		return 0, 0, false
	}
	i := 0
	for i < len(s) && strings.IndexByte(delim, s[i]) >= 0 {
		i++
	}
	if i == len(s) {
		return 0, 0, true
	}
	j := i
	for j < len(s) && strings.IndexByte(delim, s[j]) < 0 {
		j++
	}
	if j == len(s) {
		return p + uint64(i), 0, true
	}
	if !m.store(t, p+uint64(j), mU8, 0, pos) {
		return 0, 0, false
	}
	return p + uint64(i), p + uint64(j) + 1, true
}

// staticObj is a library's static object of size bytes (one per run and
// name, as the C library's): the struct tm gmtime and localtime return.
func (m *Machine) staticObj(name string, size int, pos int32) uint64 {
	st := m.libSt()
	if st.statics == nil {
		st.statics = map[string]uint64{}
	}
	if p, ok := st.statics[name]; ok {
		return p
	}
	o := m.newObject(size, SpaceHost, name, pos)
	if o.init != nil {
		o.init.setAll()
	}
	p := ptrOf(o, 0)
	st.statics[name] = p
	return p
}

func (m *Machine) storeTm(t *Thread, p uint64, tm time.Time, pos int32) bool {
	vals := []int{tm.Second(), tm.Minute(), tm.Hour(), tm.Day(), int(tm.Month()) - 1, tm.Year() - 1900,
		int(tm.Weekday()), tm.YearDay() - 1, 0}
	for i, v := range vals {
		if !m.store(t, p+uint64(4*i), mI32, uint64(int64(v)), pos) {
			return false
		}
	}
	zone := m.runtimeString("GMT")
	return m.store(t, p+40, mU64, 0, pos) && m.store(t, p+48, mU64, zone, pos)
}

func (m *Machine) loadTm(t *Thread, p uint64, pos int32) (time.Time, bool) {
	var v [6]int
	for i := range v {
		x, good := m.load(t, p+uint64(4*i), mI32, pos)
		if !good {
			return time.Time{}, false
		}
		v[i] = int(int32(x))
	}
	return time.Date(v[5]+1900, time.Month(v[4]+1), v[3], v[2], v[1], v[0], 0, time.UTC), true
}

// cStrftime formats tm with the conversions of C11 7.27.3.5 in the "C"
// locale; an unknown conversion is copied as written.
func cStrftime(f string, tm time.Time) string {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 == len(f) {
			b.WriteByte(f[i])
			continue
		}
		i++
		switch f[i] {
		case 'Y':
			b.WriteString(tm.Format("2006"))
		case 'y':
			b.WriteString(tm.Format("06"))
		case 'm':
			b.WriteString(tm.Format("01"))
		case 'd':
			b.WriteString(tm.Format("02"))
		case 'e':
			b.WriteString(tm.Format("_2"))
		case 'H':
			b.WriteString(tm.Format("15"))
		case 'I':
			b.WriteString(tm.Format("03"))
		case 'M':
			b.WriteString(tm.Format("04"))
		case 'S':
			b.WriteString(tm.Format("05"))
		case 'p':
			b.WriteString(tm.Format("PM"))
		case 'a':
			b.WriteString(tm.Format("Mon"))
		case 'A':
			b.WriteString(tm.Format("Monday"))
		case 'b', 'h':
			b.WriteString(tm.Format("Jan"))
		case 'B':
			b.WriteString(tm.Format("January"))
		case 'j':
			b.WriteString(strings.Repeat("0", 3-len(fmtInt(tm.YearDay()))) + fmtInt(tm.YearDay()))
		case 'Z':
			b.WriteString("GMT")
		case 'z':
			b.WriteString("+0000")
		case 'F':
			b.WriteString(tm.Format("2006-01-02"))
		case 'T':
			b.WriteString(tm.Format("15:04:05"))
		case 'D':
			b.WriteString(tm.Format("01/02/06"))
		case 'R':
			b.WriteString(tm.Format("15:04"))
		case 'c':
			b.WriteString(tm.Format("Mon Jan _2 15:04:05 2006"))
		case 'x':
			b.WriteString(tm.Format("01/02/06"))
		case 'X':
			b.WriteString(tm.Format("15:04:05"))
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case '%':
			b.WriteByte('%')
		default:
			b.WriteByte('%')
			b.WriteByte(f[i])
		}
	}
	return b.String()
}

func fmtInt(v int) string {
	if v == 0 {
		return "0"
	}
	neg := v < 0
	if neg {
		v = -v
	}
	var d []byte
	for v > 0 {
		d = append([]byte{byte('0' + v%10)}, d...)
		v /= 10
	}
	if neg {
		return "-" + string(d)
	}
	return string(d)
}

func initLibCstring() {
	builtinTypedefs["tm"] = tTm
	for name, s := range map[string]*bsig{
		"strtok":    sig(tCharP, hostSide, tCharP, tCharP),
		"strtok_r":  sig(tCharP, hostSide, tCharP, tCharP, ptrTo(tCharP)),
		"strspn":    sig(tULong, anySide, tCharP, tCharP),
		"strcspn":   sig(tULong, anySide, tCharP, tCharP),
		"strpbrk":   sig(tCharP, anySide, tCharP, tCharP),
		"strerror":  sig(tCharP, hostSide, tInt),
		"difftime":  sig(tDouble, hostSide, tLong, tLong),
		"gmtime":    sig(ptrTo(tTm), hostSide, ptrTo(tLong)),
		"localtime": sig(ptrTo(tTm), hostSide, ptrTo(tLong)),
		"mktime":    sig(tLong, hostSide, ptrTo(tTm)),
		"asctime":   sig(tCharP, hostSide, ptrTo(tTm)),
		"ctime":     sig(tCharP, hostSide, ptrTo(tLong)),
		"strftime":  sig(tULong, hostSide, tCharP, tULong, tCharP, ptrTo(tTm)),
		"setvbuf":   sig(tInt, hostSide, tFILEP, tCharP, tInt, tULong),
	} {
		builtinSigs[name] = s
	}
	for name, v := range map[string]int64{"_IOFBF": 0, "_IOLBF": 1, "_IONBF": 2} {
		namedConsts[name] = v
	}
	defb("strtok", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		delim, good := m.cstring(t, a[1], pos)
		if !good {
			return 0, stFault
		}
		st := m.libSt()
		p := a[0]
		if p == 0 {
			p = st.strtok
		}
		tok, next, good := m.strtokAt(t, p, delim, pos)
		if !good {
			return 0, stFault
		}
		st.strtok = next
		return ok(tok)
	})
	defb("strtok_r", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		delim, good := m.cstring(t, a[1], pos)
		if !good {
			return 0, stFault
		}
		p := a[0]
		if p == 0 {
			if p, good = m.load(t, a[2], mU64, pos); !good {
				return 0, stFault
			}
		}
		tok, next, good := m.strtokAt(t, p, delim, pos)
		if !good || !m.store(t, a[2], mU64, next, pos) {
			return 0, stFault
		}
		return ok(tok)
	})
	span := func(reject bool) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			s, set, good := m.cstrings(t, a[0], a[1], pos)
			if !good {
				return 0, stFault
			}
			n := 0
			for n < len(s) && (strings.IndexByte(set, s[n]) >= 0) != reject {
				n++
			}
			return ok(uint64(n))
		}
	}
	defb("strspn", span(false))
	defb("strcspn", span(true))
	defb("strpbrk", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, set, good := m.cstrings(t, a[0], a[1], pos)
		if !good {
			return 0, stFault
		}
		if i := strings.IndexAny(s, set); i >= 0 && set != "" {
			return ok(a[0] + uint64(i))
		}
		return ok(0)
	})
	defb("strerror", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		e := int(int32(a[0]))
		s, known := errnoText[e]
		if !known {
			s = "Unknown error " + fmtInt(e)
		}
		return ok(m.runtimeString(s))
	})
	defb("difftime", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(bits(float64(int64(a[0]) - int64(a[1]))))
	})
	tmOf := func(m *Machine, t *Thread, p uint64, pos int32) (uint64, status) {
		sec, good := m.load(t, p, mU64, pos)
		if !good {
			return 0, stFault
		}
		r := m.staticObj("struct tm of gmtime/localtime", tTm.size, pos)
		if !m.storeTm(t, r, time.Unix(int64(sec), 0).UTC(), pos) {
			return 0, stFault
		}
		return ok(r)
	}
	defb("gmtime", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) { return tmOf(m, t, a[0], pos) })
	defb("localtime", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) { return tmOf(m, t, a[0], pos) })
	defb("mktime", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		tm, good := m.loadTm(t, a[0], pos)
		if !good || !m.storeTm(t, a[0], tm, pos) { // normalized, with wday and yday
			return 0, stFault
		}
		return ok(uint64(tm.Unix()))
	})
	asc := func(tm time.Time) string { return tm.Format("Mon Jan _2 15:04:05 2006") + "\n" }
	defb("asctime", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		tm, good := m.loadTm(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		return ok(m.runtimeString(asc(tm)))
	})
	defb("ctime", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		sec, good := m.load(t, a[0], mU64, pos)
		if !good {
			return 0, stFault
		}
		return ok(m.runtimeString(asc(time.Unix(int64(sec), 0).UTC())))
	})
	defb("strftime", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		f, good := m.cstring(t, a[2], pos)
		if !good {
			return 0, stFault
		}
		tm, good := m.loadTm(t, a[3], pos)
		if !good {
			return 0, stFault
		}
		s := cStrftime(f, tm)
		if uint64(len(s))+1 > a[1] {
			return ok(0) // does not fit: 0, contents indeterminate
		}
		b, good := m.resolve(t, a[0], len(s)+1, pos, true, false)
		if !good {
			return 0, stFault
		}
		copy(b, s)
		b[len(s)] = 0
		return ok(uint64(len(s)))
	})
	defb("setvbuf", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		// output is written in program order whatever the buffering
		return ok(0)
	})
}
