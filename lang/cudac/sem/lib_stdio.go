package sem

import (
	"math"

	"weft.dev/weft/lang/cudac/lib"
)

// <stdio.h> streams and files (C11 7.21): stdout, stderr and stdin are the
// FILE* values 1, 2 and 3 (pointers into no object, so dereferencing one
// is an invalid-pointer error, as it is undefined in C); fopen returns
// handles from lib.FirstFile, into the run's confined file system
// (lib.FS). A failed fopen returns NULL and warns C0608 with the reason,
// so a program that checks for NULL behaves as on a real system and one
// that does not is told why.

var tFILEP *Type

// initTFILEP builds tFILEP (tables.go).
func initTFILEP() {
	tFILEP = ptrTo(tFILE)
}

// stdStreams are the FILE* objects of <stdio.h>.
var stdStreams map[string]int64

// initStdStreams builds stdStreams (tables.go).
func initStdStreams() {
	stdStreams = map[string]int64{"stdout": lib.Stdout, "stderr": lib.Stderr, "stdin": lib.Stdin}
}

func initLibStdio() {
	for name, s := range map[string]*bsig{
		"fopen":   sig(tFILEP, hostSide, tCharP, tCharP),
		"fclose":  sig(tInt, hostSide, tFILEP),
		"fread":   sig(tULong, hostSide, tVoidP, tULong, tULong, tFILEP),
		"fwrite":  sig(tULong, hostSide, tVoidP, tULong, tULong, tFILEP),
		"fgetc":   sig(tInt, hostSide, tFILEP),
		"getc":    sig(tInt, hostSide, tFILEP),
		"ungetc":  sig(tInt, hostSide, tInt, tFILEP),
		"fgets":   sig(tCharP, hostSide, tCharP, tInt, tFILEP),
		"fputs":   sig(tInt, hostSide, tCharP, tFILEP),
		"fputc":   sig(tInt, hostSide, tInt, tFILEP),
		"putc":    sig(tInt, hostSide, tInt, tFILEP),
		"feof":    sig(tInt, hostSide, tFILEP),
		"ferror":  sig(tInt, hostSide, tFILEP),
		"fseek":   sig(tInt, hostSide, tFILEP, tLong, tInt),
		"ftell":   sig(tLong, hostSide, tFILEP),
		"rewind":  sig(tVoid, hostSide, tFILEP),
		"getchar": sig(tInt, hostSide),
		"perror":  sig(tVoid, hostSide, tCharP),
	} {
		builtinSigs[name] = s
	}
	for name, v := range map[string]int64{"SEEK_SET": 0, "SEEK_CUR": 1, "SEEK_END": 2} {
		namedConsts[name] = v
	}
	defb("fopen", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		path, good := m.cstring(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		mode, good := m.cstring(t, a[1], pos)
		if !good {
			return 0, stFault
		}
		h, err := m.opts.Files.Open(path, mode)
		if err != nil {
			m.diags.Warnf(m.pos(pos), "C0608", "fopen(%q, %q) returns NULL: %v", path, mode, err)
			return ok(0)
		}
		return ok(uint64(h))
	})
	defb("fclose", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if _, good := m.file(t, a[0], pos); !good {
			return 0, stFault
		}
		if err := m.opts.Files.Close(int(a[0])); err != nil {
			m.diags.Warnf(m.pos(pos), "C0608", "fclose: %v", err)
			return ok(uint64(0xffffffff))
		}
		return ok(0)
	})
	defb("fread", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		f, good := m.file(t, a[3], pos)
		if !good {
			return 0, stFault
		}
		size, n := a[1], a[2]
		if size == 0 || n == 0 {
			return ok(0)
		}
		if size*n > 1<<30 {
			m.fault(t, pos, "C0607", "fread of %d x %d bytes", n, size)
			return 0, stFault
		}
		data := f.ReadN(int(size * n))
		items := uint64(len(data)) / size
		if items == 0 {
			return ok(0)
		}
		b, good := m.resolve(t, a[0], len(data), pos, true, false)
		if !good {
			return 0, stFault
		}
		copy(b, data)
		return ok(items)
	})
	defb("fwrite", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		size, n := a[1], a[2]
		if size == 0 || n == 0 {
			return ok(0)
		}
		if size*n > 1<<30 {
			m.fault(t, pos, "C0607", "fwrite of %d x %d bytes", n, size)
			return 0, stFault
		}
		b, good := m.resolve(t, a[0], int(size*n), pos, false, false)
		if !good {
			return 0, stFault
		}
		if !m.writeStream(t, a[3], b, pos) {
			return 0, stFault
		}
		return ok(n)
	})
	getc := func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		f, good := m.file(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		return ok(uint64(int64(f.Getc())))
	}
	defb("fgetc", getc)
	defb("getc", getc)
	defb("getchar", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(uint64(0xffffffffffffffff)) // stdin is empty: EOF
	})
	defb("ungetc", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		f, good := m.file(t, a[1], pos)
		if !good {
			return 0, stFault
		}
		if int32(a[0]) < 0 {
			return ok(uint64(0xffffffffffffffff))
		}
		f.Unget = int(byte(a[0]))
		f.EOF = false
		return ok(uint64(byte(a[0])))
	})
	defb("fgets", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		f, good := m.file(t, a[2], pos)
		if !good {
			return 0, stFault
		}
		n := int(int32(a[1]))
		if n <= 0 {
			return ok(0)
		}
		var line []byte
		for len(line) < n-1 {
			c := f.Getc()
			if c < 0 {
				break
			}
			line = append(line, byte(c))
			if c == '\n' {
				break
			}
		}
		if len(line) == 0 {
			return ok(0)
		}
		b, good := m.resolve(t, a[0], len(line)+1, pos, true, false)
		if !good {
			return 0, stFault
		}
		copy(b, line)
		b[len(line)] = 0
		return ok(a[0])
	})
	defb("fputs", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, good := m.cstring(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		if !m.writeStream(t, a[1], []byte(s), pos) {
			return 0, stFault
		}
		return ok(0)
	})
	putc := func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if !m.writeStream(t, a[1], []byte{byte(a[0])}, pos) {
			return 0, stFault
		}
		return ok(uint64(byte(a[0])))
	}
	defb("fputc", putc)
	defb("putc", putc)
	defb("feof", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[0] == lib.Stdin {
			return ok(1)
		}
		f, good := m.file(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		return ok(b2u(f.EOF))
	})
	defb("ferror", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[0] == lib.Stdout || a[0] == lib.Stderr || a[0] == lib.Stdin {
			return ok(0)
		}
		if _, good := m.file(t, a[0], pos); !good {
			return 0, stFault
		}
		return ok(0)
	})
	defb("fseek", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		f, good := m.file(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		if !f.SeekTo(int64(a[1]), int(int32(a[2]))) {
			return ok(uint64(0xffffffffffffffff))
		}
		return ok(0)
	})
	defb("ftell", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		f, good := m.file(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		return ok(uint64(f.Pos))
	})
	defb("rewind", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		f, good := m.file(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		f.SeekTo(0, 0)
		return ok(0)
	})
	defb("perror", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s := ""
		if a[0] != 0 {
			var good bool
			if s, good = m.cstring(t, a[0], pos); !good {
				return 0, stFault
			}
			s += ": "
		}
		m.writeStream(t, lib.Stderr, []byte(s+"error\n"), pos)
		return ok(0)
	})
}

// file returns the open file of FILE* p, faulting on anything else.
func (m *Machine) file(t *Thread, p uint64, pos int32) (*lib.File, bool) {
	if f := m.opts.Files.File(int(p)); f != nil && p>>32 == 0 {
		return f, true
	}
	switch p {
	case 0:
		m.fault(t, pos, "C0405", "null FILE* passed to a stdio function")
	case lib.Stdout, lib.Stderr, lib.Stdin:
		m.fault(t, pos, "C0309", "this stdio function is not modeled on stdin, stdout or stderr")
	default:
		m.fault(t, pos, "C0405", "invalid or closed FILE*")
	}
	return nil, false
}

// writeStream writes b to stdout, stderr or an open file.
func (m *Machine) writeStream(t *Thread, p uint64, b []byte, pos int32) bool {
	switch p {
	case lib.Stdout:
		m.out.Write(b)
		return true
	case lib.Stderr:
		m.out.Flush()
		if m.opts.Stderr != nil {
			m.opts.Stderr.Write(b)
		}
		return true
	}
	f, good := m.file(t, p, pos)
	if !good {
		return false
	}
	if f.WriteB(b) != len(b) {
		m.diags.Warnf(m.pos(pos), "C0608", "write to %s failed (not opened for writing, or over 1 GiB)", f.Path)
	}
	return true
}

func initLibStdio2() {
	for name, s := range map[string]*bsig{
		"fscanf": sig(tInt, hostSide, tFILEP, tCharP).va(),
		"sscanf": sig(tInt, hostSide, tCharP, tCharP).va(),
		"scanf":  sig(tInt, hostSide, tCharP).va(),
	} {
		builtinSigs[name] = s
	}
	defb("fscanf", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[0] == lib.Stdin {
			return ok(uint64(0xffffffffffffffff)) // stdin is empty
		}
		f, good := m.file(t, a[0], pos)
		if !good {
			return 0, stFault
		}
		format, good := m.cstring(t, a[1], pos)
		if !good {
			return 0, stFault
		}
		n, used, st := m.scanInto(t, f.Rest(), format, a[2:], pos)
		if st != stDone {
			return 0, st
		}
		f.Skip(used)
		if f.Pos >= len(f.Data) {
			f.EOF = true
		}
		return ok(n)
	})
	defb("sscanf", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		s, format, good := m.cstrings(t, a[0], a[1], pos)
		if !good {
			return 0, stFault
		}
		n, _, st := m.scanInto(t, []byte(s), format, a[2:], pos)
		return n, st
	})
	defb("scanf", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(uint64(0xffffffffffffffff)) // stdin is empty: EOF
	})
}

// scanInto runs lib.Scan and stores its assignments through the pointer
// arguments; it returns scanf's result and the bytes consumed.
func (m *Machine) scanInto(t *Thread, in []byte, format string, ptrs []uint64, pos int32) (uint64, int, status) {
	items, used, count, eof := lib.Scan(in, format)
	if eof {
		return uint64(0xffffffffffffffff), used, stDone
	}
	if len(items) > len(ptrs) {
		m.fault(t, pos, "C0607", "scanf format has %d conversions but only %d pointer arguments", len(items), len(ptrs))
		return 0, 0, stFault
	}
	for k, it := range items {
		p := ptrs[k]
		switch it.Kind {
		case 'i', 'u', 'n':
			b, good := m.resolve(t, p, it.Size, pos, true, false)
			if !good {
				return 0, 0, stFault
			}
			storeN(b, it.Size, it.Int)
		case 'f':
			b, good := m.resolve(t, p, it.Size, pos, true, false)
			if !good {
				return 0, 0, stFault
			}
			if it.Size == 8 {
				storeN(b, 8, bits(it.Float))
			} else {
				storeN(b, 4, uint64(math.Float32bits(float32(it.Float))))
			}
		case 's', 'c':
			n := len(it.Str)
			if it.Kind == 's' {
				n++
			}
			b, good := m.resolve(t, p, n, pos, true, false)
			if !good {
				return 0, 0, stFault
			}
			copy(b, it.Str)
			if it.Kind == 's' {
				b[len(it.Str)] = 0
			}
		}
	}
	return uint64(count), used, stDone
}
