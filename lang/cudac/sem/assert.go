package sem

// assert as C and CUDA define it.
//
// Host code: C11 7.2.1.1, a false assert writes a message and calls
// abort(): the run ends with C0602 at the assert.
//
// Device code (CUDA C++ Programming Guide, "Assertion"): a false assert
// in a kernel prints
//
//	file:line: function: block: [x,y,z], thread: [x,y,z] Assertion `expr` failed.
//
// to stderr, the kernel stops, and the next synchronizing runtime call (and
// every runtime call after it) returns cudaErrorAssert (710): the context is
// corrupted, a "sticky" error, until cudaDeviceReset. The semantics does the
// same so that programs that test for cudaErrorAssert (the assertion
// samples) run as on a GPU, and reports the failure as a positioned
// warning C0602 so that it is never missed. Threads of the block that fail
// in the same round of the schedule print too (on a GPU every thread of the
// warp that reaches the failing assert prints before the trap takes
// effect); the kernel's other blocks do not run, nor does device work
// queued after it.
//
// A kernel-only run (weft check of a kernel file, no main) has nobody to
// observe the error: there a failed assert is the error C0602, as on the
// host.

import (
	"fmt"
	"strings"

	"weft.dev/weft/gpu"
	"weft.dev/weft/lang/cudac/syntax"
)

// cudaErrorAssert and the other errors that leave the context unusable
// (the "sticky" errors of the CUDA runtime API's cudaError enum).
const cudaErrorAssert = 710

func initAssert() {
	for code, nt := range map[int][2]string{
		700: {"cudaErrorIllegalAddress", "an illegal memory access was encountered"},
		702: {"cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
		710: {"cudaErrorAssert", "device-side assert triggered"},
		714: {"cudaErrorHardwareStackError", "hardware stack error"},
		715: {"cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
		716: {"cudaErrorMisalignedAddress", "misaligned address"},
		717: {"cudaErrorInvalidAddressSpace", "operation not supported on global/shared address space"},
		718: {"cudaErrorInvalidPc", "invalid program counter"},
		719: {"cudaErrorLaunchFailure", "unspecified launch failure"},
		214: {"cudaErrorECCUncorrectable", "uncorrectable ECC error encountered"},
	} {
		cudaErrors[code] = nt[0]
		cudaErrorText[code] = nt[1]
		namedConsts[nt[0]] = int64(code)
	}
	builtinSigs["__assert_device"] = sig(tVoid, anySide, tAny, tCharP, tCharP)
	defb("__assert_device", assertBuiltin)
}

// assertCall compiles assert(e): the condition, then the text CUDA's
// message quotes (the function's signature and the expression as
// written).
func (c *compiler) assertCall(e *syntax.Call) *Type {
	pos := e.Pos
	if len(e.Args) != 1 {
		c.errorf(pos, "C0304", "assert takes 1 argument, %d given", len(e.Args))
		for _, a := range e.Args {
			c.typeOf(a, true)
		}
		c.emit(OpConst, 0, 0, pos)
		return tVoid
	}
	c.cond(e.Args[0])
	fn := "?"
	if c.fn != nil {
		fn = prettyFunc(c.fn)
	}
	c.emit(OpString, int32(c.literal(fn)), 0, pos)
	c.emit(OpString, int32(c.literal(assertText(e))), 0, pos)
	c.emit(OpBuiltin, c.builtinIndexOf("__assert_device", pos), 3, pos)
	return tVoid
}

// prettyFunc is GCC's __PRETTY_FUNCTION__ of fn as CUDA's assert message
// shows it: "void k(int*, int)".
func prettyFunc(fn *Function) string {
	if fn.Type == nil || fn.Type.Kind != Func {
		return fn.Name
	}
	var ps []string
	for _, p := range fn.Type.Params {
		ps = append(ps, p.String())
	}
	ret := "void"
	if fn.Type.Elem != nil {
		ret = fn.Type.Elem.String()
	}
	return fmt.Sprintf("%s %s(%s)", ret, fn.Name, strings.Join(ps, ", "))
}

// assertText is the argument of assert(...) as written in the source:
// from after the call's '(' to before its ')' (the expression the macro
// stringizes); "?" where the call does not come from one file's text.
func assertText(e *syntax.Call) string {
	f, r := e.Pos.File, e.RParen
	if f == nil || r.File != f || r.Offset > len(f.Src) || e.Pos.Offset >= r.Offset {
		return "?"
	}
	s := string(f.Src[e.Pos.Offset:r.Offset])
	i := strings.IndexByte(s, '(')
	if i < 0 || !strings.HasPrefix(strings.TrimSpace(s[:i]), "assert") {
		return "?"
	}
	return strings.Join(strings.Fields(s[i+1:]), " ")
}

func assertBuiltin(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
	if a[0] != 0 {
		return ok(0)
	}
	expr, _ := m.cstring(t, a[2], pos)
	if t == nil || t.host || t.block == nil || m.kernelOnly {
		m.fault(t, pos, "C0602", "assertion `%s` failed", expr)
		return 0, stFault
	}
	fn, _ := m.cstring(t, a[1], pos)
	g := t.block.grid
	at := m.pos(pos)
	line, _ := at.File.LineCol(at.Offset)
	d3 := func(v gpu.Dim3) string { return fmt.Sprintf("[%d,%d,%d]", v.X, v.Y, v.Z) }
	msg := fmt.Sprintf("%s:%d: %s: block: %s, thread: %s Assertion `%s` failed.\n", at.File.Name, line, fn, d3(t.block.idx), d3(t.idx), expr)
	m.out.Flush()
	if m.opts.Stderr != nil {
		m.opts.Stderr.Write([]byte(msg))
	}
	if !g.aborted {
		g.aborted = true
		m.diags.Warnf(at, "C0602", "device assertion `%s` failed (thread %s of block %s, kernel %s): the kernel is aborted and the CUDA runtime returns cudaErrorAssert from now on", expr, dimStr(t.idx, g.bdim), dimStr(t.block.idx, g.gdim), g.fn.Name)
		if m.sticky == 0 {
			m.sticky = cudaErrorAssert
		}
	}
	return 0, stFault
}

// stickyResult is what runtime call name returns once the context holds a
// sticky error; ok false where the call still does its work (the error
// strings, cudaDeviceReset, calls that return no cudaError_t).
func (m *Machine) stickyResult(name string) (uint64, bool) {
	switch name {
	case "cudaGetErrorString", "cudaGetErrorName", "cudaDeviceReset":
		return 0, false
	}
	if s := builtinSigs[name]; s != nil && s.ret != tInt {
		return 0, false
	}
	m.lastErr = m.sticky
	return uint64(m.sticky), true
}

// funcName is the value of C99's predefined identifier __func__ (C11
// 6.4.2.2: the function's name; a member's or template's unqualified
// name, as GCC gives it) and of GCC's __FUNCTION__ and __PRETTY_FUNCTION__
// (the signature, as assert's message shows it).
func (c *compiler) funcName(name string) (string, bool) {
	if c.fn == nil || name != "__func__" && name != "__FUNCTION__" && name != "__PRETTY_FUNCTION__" {
		return "", false
	}
	if name == "__PRETTY_FUNCTION__" {
		return prettyFunc(c.fn), true
	}
	n := c.fn.Name
	if i := strings.IndexByte(n, '<'); i > 0 {
		n = n[:i]
	}
	if i := strings.LastIndex(n, "::"); i >= 0 {
		n = n[i+2:]
	}
	return n, true
}
