package syncheck

import (
	"strconv"
	"strings"
	"unsafe"

	"weft.dev/weft/lang/weft/amir"
)

// The report's messages are built by appending to one byte buffer: the
// fixed text of a format, strings and decimal numbers (strconv). With
// fmt.Sprintf each W0609 message (formats of 300-600 bytes, every
// argument boxed into an interface) cost about 2.3 K instructions, and
// the thread, task and cell names as many again: rows 2 and 3 of the
// issue-13 table spent about 160 K instructions a check on their six
// messages (docs/weft-sync.md "Stop 32: ring32", "What is left"; stop
// 33). The text is byte for byte what fmt gave: appendf knows only the
// verbs the report uses, %s of a string and %d of an int.

// arg is one argument of appendf: a string (str), an integer (num,
// count) or the text "phase a/r of ring slot a%r" of arrive a on a ring
// of r mbarriers (phase; a string to fmt, made without one).
type arg struct {
	s    string
	n    int64
	ring int
	kind argKind
}

type argKind uint8

const (
	argStr argKind = iota
	argNum
	argPhase
)

func str(s string) arg   { return arg{s: s} }
func num(n int) arg      { return arg{n: int64(n), kind: argNum} }
func count(n int64) arg  { return arg{n: n, kind: argNum} }
func phase(a, r int) arg { return arg{n: int64(a), ring: r, kind: argPhase} }

// appendf appends format to b with each %s and %d replaced by the next
// argument, as fmt.Sprintf does for a string and an int. Any other verb,
// a verb whose argument has the other kind, or a count mismatch is a bug
// in the report's formats: it panics (the report tests render every
// format; TestAppendfMatchesSprintf compares with fmt).
func appendf(b []byte, format string, args ...arg) []byte {
	for {
		i := strings.IndexByte(format, '%')
		if i < 0 {
			if len(args) != 0 {
				panic("syncheck: appendf: too many arguments for " + strconv.Quote(format))
			}
			return append(b, format...)
		}
		b = append(b, format[:i]...)
		if i+1 >= len(format) || len(args) == 0 {
			panic("syncheck: appendf: bad format " + strconv.Quote(format))
		}
		a := args[0]
		switch format[i+1] {
		case 's':
			switch a.kind {
			case argStr:
				b = append(b, a.s...)
			case argPhase:
				b = appendPhase(b, int(a.n), a.ring)
			default:
				panic("syncheck: appendf: %s of a number in " + strconv.Quote(format))
			}
		case 'd':
			if a.kind != argNum {
				panic("syncheck: appendf: %d of a string in " + strconv.Quote(format))
			}
			b = appendNum(b, a.n)
		default:
			panic("syncheck: appendf: unsupported verb in " + strconv.Quote(format))
		}
		format, args = format[i+2:], args[1:]
	}
}

// appendCell appends the hazard's cell: the variable's name and, for an
// array, each index (a block of g > 1 indices as "i:i+g").
func appendCell(b []byte, p *amir.Program, h *amir.Hazard) []byte {
	b = append(b, p.Vars[h.Var].Name...)
	if len(h.Index) == 0 {
		return b
	}
	b = append(b, '[')
	for d, i := range h.Index {
		if d > 0 {
			b = append(b, ", "...)
		}
		g := 1
		if d < len(h.Block) {
			g = h.Block[d]
		}
		b = appendNum(b, int64(i))
		if g > 1 {
			b = append(b, ':')
			b = appendNum(b, int64(i+g))
		}
	}
	return append(b, ']')
}

// appendThreadName appends "thread t of task [...]", "threads [t, t+n)
// of task [...]" for n > 1, or "the CPU" for a negative task.
func appendThreadName(b []byte, p *amir.Program, coords []int, task, t, n int) []byte {
	switch {
	case task < 0:
		return append(b, "the CPU"...)
	case n > 1:
		b = append(b, "threads ["...)
		b = appendNum(b, int64(t))
		b = append(b, ", "...)
		b = appendNum(b, int64(t+n))
		b = append(b, ") of "...)
	default:
		b = append(b, "thread "...)
		b = appendNum(b, int64(t))
		b = append(b, " of "...)
	}
	return appendTaskName(b, p, coords)
}

// appendTaskName appends "task [s=v, ...]": a task named by its
// cuda_tasks iterator values.
func appendTaskName(b []byte, p *amir.Program, coords []int) []byte {
	b = append(b, "task ["...)
	for i, v := range coords {
		if i < len(p.TaskSlots) {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = append(b, p.Slots[p.TaskSlots[i]]...)
			b = append(b, '=')
			b = appendNum(b, int64(v))
		}
	}
	return append(b, ']')
}

// appendPhase appends "phase a/r of ring slot a%r": arrive a's phase of
// a ring of r mbarriers.
func appendPhase(b []byte, a, r int) []byte {
	b = append(b, "phase "...)
	b = appendNum(b, int64(a/r))
	b = append(b, " of ring slot "...)
	return appendNum(b, int64(a%r))
}

// msgText holds the report's scratch buffer and its diagnostics' room
// (diagRoom; no state across checks). Each message is appended to the
// buffer and taken (take) as a string that shares its bytes: a copy per
// message (string(b)) had been 12 allocations and 4 K instructions of a
// check of the three-ring bug variants (issue 13, stop 42).
type msgText struct {
	b []byte
	// mark is where the text not yet taken starts: the bytes before it
	// belong to taken strings and are never written again.
	mark int
	ds   []diagRoom
	// nb holds the names of the hazard being reported (cut).
	nb []byte
}

// The buffer's sizes: its first chunk, the room take wants left for the
// next message (they are 100 to 800 bytes), else it starts the next
// chunk, of msgChunk bytes.
const (
	msgFirst = 2048
	msgRoom  = 1024
	msgChunk = 4096
)

// take returns the text appended since the last take, as a string over
// the buffer's bytes, as strings.Builder's String does. Those bytes are
// not changed later: append writes only at and past len(m.b), which
// never goes below mark (cut truncates to a length taken after the last
// take), and a chunk that append or take replaces is left as it is.
func (m *msgText) take() string {
	n := len(m.b) - m.mark
	if n == 0 {
		return ""
	}
	s := unsafe.String(&m.b[m.mark], n)
	m.mark = len(m.b)
	if cap(m.b)-len(m.b) < msgRoom {
		m.b, m.mark = make([]byte, 0, msgChunk), 0
	}
	return s
}

// cut returns the text appended since length n (not before the last
// take) as a string and drops it from the buffer: a thread, task or cell
// name that a message uses as an argument. The string is over the names
// buffer (nb): such a name is only appended into the messages of its
// hazard (appendf copies it), never kept, and report empties nb at each
// hazard, when its names are no longer used; bytes before len(nb) are not
// written until then, and a buffer that append replaces is left as it
// is. A string per name had been 12 allocations of a check of the
// three-ring bug variants (issue 13, stop 42).
func (m *msgText) cut(n int) string {
	k := len(m.nb)
	m.nb = append(m.nb, m.b[n:]...)
	m.b = m.b[:n]
	if len(m.nb) == k {
		return ""
	}
	return unsafe.String(&m.nb[k], len(m.nb)-k)
}

// appendNum appends n in decimal, as strconv.AppendInt(b, n, 10) does: a
// digit 0-9 (most of a report's numbers: arrive and phase counts, ring
// slots, task coordinates) as one byte, without strconv's call chain (50
// instructions a number; 3 K of a check of the three-ring bug variants,
// issue 13, stop 42). TestAppendNum compares both.
func appendNum(b []byte, n int64) []byte {
	if uint64(n) < 10 {
		return append(b, byte('0'+n))
	}
	return strconv.AppendInt(b, n, 10)
}
