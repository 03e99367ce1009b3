package sem

// Fused instruction pairs for runPure (issue 15 item 7). The compiler's
// bytecode is a plain stack code: an assignment statement is OpSetLocal
// then OpPop, 32-bit arithmetic is followed by OpExt, a loop test is a
// comparison then OpJz. Counted on NVIDIA's SobolQRNG under weft check,
// the pairs below are about a third of the private instructions run; each
// is one dispatch in the fused form. A Function's fast code is its Code
// with some instructions replaced by the fused op of the pair they start;
// the instruction after keeps its own (possibly fused) form, so a jump to
// it still works. A fused op counts both instructions as steps, and
// runPure runs fused code only while two more steps fit in the turn, so
// turns, step counts and every result are those of the plain code.

const (
	fuseBase    Op = 200 + iota
	fSetPop        // OpSetLocal A; OpPop
	fSetUPop       // OpSetLocalU A; OpPop
	fPopLocal      // OpPop; OpLocal A
	fPopPop        // OpPop; OpPop
	fSwapSwap      // OpSwap; OpSwap
	fLocalConst    // OpLocal A; OpConst B
	fLocalLocal    // OpLocal A; OpLocal B
	fExtSet        // OpExt 32 B; OpSetLocal A
	fExt32         // OpExt 32 x; OpExt 32 B: the second alone decides
	fConst         // OpConst; OpExt: B is the converted constant
	fULtJz         // OpULt; OpJz A
	fSLtJz         // OpSLt; OpJz A
	fAddS32Ext     // OpAddS 32; OpExt 32 B
	fSubS32Ext     // OpSubS 32; OpExt 32 B
	fAndExt        // OpAnd; OpExt 32 B
	fOrExt         // OpOr; OpExt 32 B
	fXorExt        // OpXor; OpExt 32 B
	fAddExt        // OpAdd; OpExt 32 B
	fSubExt        // OpSub; OpExt 32 B
	fMulExt        // OpMul; OpExt 32 B
	fShlExt        // OpShl; OpExt 32 B
	fShrExt        // OpShr; OpExt 32 B
)

// fuseOff runs the plain code in runPure too (TestPureSame).
var fuseOff bool

// fastCode returns fn's fast code, making it at the first call (runs are
// single-threaded; a Program is not run by two goroutines at once).
func fastCode(fn *Function) []Instr {
	if fuseOff {
		return fn.Code
	}
	if fn.fast == nil {
		fn.fast = fuse(fn.Code)
	}
	return fn.fast
}

// fuse makes the fast form of code.
func fuse(code []Instr) []Instr {
	fast := make([]Instr, len(code))
	copy(fast, code)
	for i := 0; i+1 < len(code); i++ {
		a, b := code[i], code[i+1]
		f := &fast[i]
		switch {
		case a.Op == OpSetLocal && b.Op == OpPop:
			f.Op = fSetPop
		case a.Op == OpSetLocalU && b.Op == OpPop:
			f.Op = fSetUPop
		case a.Op == OpPop && b.Op == OpLocal:
			f.Op, f.A = fPopLocal, b.A
		case a.Op == OpPop && b.Op == OpPop:
			f.Op = fPopPop
		case a.Op == OpSwap && b.Op == OpSwap:
			f.Op = fSwapSwap
		case a.Op == OpLocal && b.Op == OpConst:
			f.Op, f.B = fLocalConst, b.B
		case a.Op == OpLocal && b.Op == OpLocal:
			f.Op, f.B = fLocalLocal, int64(b.A)
		case a.Op == OpExt && a.A == 32 && b.Op == OpSetLocal:
			f.Op, f.A, f.B = fExtSet, b.A, b2i(a.B != 0)
		case a.Op == OpExt && b.Op == OpExt && a.A == 32 && b.A == 32:
			f.Op, f.B = fExt32, b.B
		case a.Op == OpConst && b.Op == OpExt:
			f.Op, f.B = fConst, int64(ext(uint64(a.B), int(b.A), b.B != 0))
		case a.Op == OpULt && b.Op == OpJz:
			f.Op, f.A = fULtJz, b.A
		case a.Op == OpSLt && b.Op == OpJz:
			f.Op, f.A = fSLtJz, b.A
		case a.Op == OpAddS && a.A == 32 && b.Op == OpExt && b.A == 32:
			f.Op, f.B = fAddS32Ext, b.B
		case a.Op == OpSubS && a.A == 32 && b.Op == OpExt && b.A == 32:
			f.Op, f.B = fSubS32Ext, b.B
		case a.Op == OpAnd && b.Op == OpExt && b.A == 32:
			f.Op, f.B = fAndExt, b.B
		case a.Op == OpOr && b.Op == OpExt && b.A == 32:
			f.Op, f.B = fOrExt, b.B
		case a.Op == OpXor && b.Op == OpExt && b.A == 32:
			f.Op, f.B = fXorExt, b.B
		case a.Op == OpAdd && b.Op == OpExt && b.A == 32:
			f.Op, f.B = fAddExt, b.B
		case a.Op == OpSub && b.Op == OpExt && b.A == 32:
			f.Op, f.B = fSubExt, b.B
		case a.Op == OpMul && b.Op == OpExt && b.A == 32:
			f.Op, f.B = fMulExt, b.B
		case a.Op == OpShl && b.Op == OpExt && b.A == 32:
			f.Op, f.B = fShlExt, b.B
		case a.Op == OpShr && b.Op == OpExt && b.A == 32:
			f.Op, f.B = fShrExt, b.B
		}
	}
	return fast
}

// ext32 is ext(v, 32, signed).
func ext32(v uint64, signed int64) uint64 {
	if signed != 0 {
		return uint64(int64(int32(v)))
	}
	return uint64(uint32(v))
}
