package sem

import "math"

// runPure is the interpreter's inner loop for the private instructions that
// cannot fault, call or touch the machine: constants, locals, stack
// shuffles, integer and floating-point arithmetic, conversions, pointer
// offsets and forward jumps (and backward ones while the spin detector is
// off), reads of initialized locals under weft check (OpLocalU), special
// registers once t has them (Thread.sr) and pointers to the block's static
// shared variables once they exist. It runs them from pc until the first other instruction, the turn's
// limit (steps >= lim, the check runN makes before a private instruction)
// or a full operand stack, and returns where it stopped; runN then goes on
// with its own loop, which executes every instruction, so the two agree
// instruction by instruction and the schedule, the step count and every
// result are the same.
//
// Why a function of its own (issue 15 item 7, measured on a Sobol-style
// kernel and NVIDIA's SobolQRNG): in runN every value the loop keeps
// (pc, steps, the stack) is live across the calls of the memory accesses
// and builtins, so the compiler keeps it in memory and each private
// instruction paid loads and stores of them; here there is no call, so
// they stay in registers.
// pureOff makes runN run every instruction itself (TestPureSame).
var pureOff bool

func runPure(t *Thread, code []Instr, pc int, st, slots []uint64, base, steps, lim int, watch bool) (int, []uint64, int) {
	s := st[:cap(st)]
	sp := len(st) // the stack is s[:sp]
	for steps < lim {
		in := &code[pc]
		n := sp - 1
		switch in.Op {
		case OpConst:
			if sp == len(s) {
				return pc, s[:sp], steps
			}
			s[sp] = uint64(in.B)
			sp++
		case OpLocal:
			if sp == len(s) {
				return pc, s[:sp], steps
			}
			s[sp] = slots[base+int(in.A)]
			sp++
		case OpSetLocal:
			slots[base+int(in.A)] = s[n]
		case OpLocalU:
			i := base + int(in.A)
			if sp == len(s) || i/64 < len(t.undef) && t.undef[i/64]&(1<<(i%64)) != 0 {
				return pc, s[:sp], steps // uninitialized: runN warns (C0407)
			}
			s[sp] = slots[i]
			sp++
		case OpSetLocalU:
			i := base + int(in.A)
			slots[i] = s[n]
			if i/64 < len(t.undef) {
				t.undef[i/64] &^= 1 << (i % 64)
			}
		case OpSReg:
			if sp == len(s) || !t.srOK || uint(in.A) >= uint(len(t.sr)) {
				return pc, s[:sp], steps
			}
			s[sp] = t.sr[in.A]
			sp++
		case OpShared:
			b := t.block
			if sp == len(s) || b == nil || in.A < 0 || int(in.A) >= len(b.shared) || b.shared[in.A] == nil {
				return pc, s[:sp], steps // not made yet: sharedPtr makes it
			}
			s[sp] = ptrOf(b.shared[in.A], 0)
			sp++
		case OpPop:
			sp--
		case OpDup:
			if sp == len(s) {
				return pc, s[:sp], steps
			}
			s[sp] = s[n]
			sp++
		case OpDupX1:
			if sp == len(s) {
				return pc, s[:sp], steps
			}
			a, b := s[n-1], s[n]
			s[n-1], s[n], s[sp] = b, a, b
			sp++
		case OpSwap:
			s[n-1], s[n] = s[n], s[n-1]
		case OpAdd:
			s[n-1] += s[n]
			sp--
		case OpAddS:
			r := int64(int32(s[n-1])) + int64(int32(s[n]))
			if in.A != 32 || r != int64(int32(r)) {
				return pc, s[:sp], steps // 64 bits or an overflow: signedArith
			}
			s[n-1] = uint64(r)
			sp--
		case OpSubS:
			r := int64(int32(s[n-1])) - int64(int32(s[n]))
			if in.A != 32 || r != int64(int32(r)) {
				return pc, s[:sp], steps
			}
			s[n-1] = uint64(r)
			sp--
		case OpMulS:
			r := int64(int32(s[n-1])) * int64(int32(s[n]))
			if in.A != 32 || r != int64(int32(r)) {
				return pc, s[:sp], steps
			}
			s[n-1] = uint64(r)
			sp--
		case OpSub:
			s[n-1] -= s[n]
			sp--
		case OpMul:
			s[n-1] *= s[n]
			sp--
		case OpShl:
			s[n-1] <<= s[n] & 63
			sp--
		case OpSar:
			s[n-1] = uint64(int64(s[n-1]) >> (s[n] & 63))
			sp--
		case OpShr:
			s[n-1] >>= s[n] & 63
			sp--
		case OpAnd:
			s[n-1] &= s[n]
			sp--
		case OpOr:
			s[n-1] |= s[n]
			sp--
		case OpXor:
			s[n-1] ^= s[n]
			sp--
		case OpNeg:
			s[n] = -s[n]
		case OpCompl:
			s[n] = ^s[n]
		case OpLNot:
			s[n] = b2u(s[n] == 0)
		case OpEq:
			s[n-1] = b2u(s[n-1] == s[n])
			sp--
		case OpNe:
			s[n-1] = b2u(s[n-1] != s[n])
			sp--
		case OpSLt:
			s[n-1] = b2u(int64(s[n-1]) < int64(s[n]))
			sp--
		case OpSLe:
			s[n-1] = b2u(int64(s[n-1]) <= int64(s[n]))
			sp--
		case OpSGt:
			s[n-1] = b2u(int64(s[n-1]) > int64(s[n]))
			sp--
		case OpSGe:
			s[n-1] = b2u(int64(s[n-1]) >= int64(s[n]))
			sp--
		case OpULt:
			s[n-1] = b2u(s[n-1] < s[n])
			sp--
		case OpULe:
			s[n-1] = b2u(s[n-1] <= s[n])
			sp--
		case OpUGt:
			s[n-1] = b2u(s[n-1] > s[n])
			sp--
		case OpUGe:
			s[n-1] = b2u(s[n-1] >= s[n])
			sp--
		case OpFAdd:
			s[n-1] = bits(f64(s[n-1]) + f64(s[n]))
			sp--
		case OpFSub:
			s[n-1] = bits(f64(s[n-1]) - f64(s[n]))
			sp--
		case OpFMul:
			s[n-1] = bits(f64(s[n-1]) * f64(s[n]))
			sp--
		case OpFDiv:
			s[n-1] = bits(f64(s[n-1]) / f64(s[n]))
			sp--
		case OpFNeg:
			s[n] = bits(-f64(s[n]))
		case OpF32Add:
			s[n-1] = f32op(float32(f64(s[n-1])) + float32(f64(s[n])))
			sp--
		case OpF32Sub:
			s[n-1] = f32op(float32(f64(s[n-1])) - float32(f64(s[n])))
			sp--
		case OpF32Mul:
			s[n-1] = f32op(float32(f64(s[n-1])) * float32(f64(s[n])))
			sp--
		case OpF32Div:
			s[n-1] = f32op(float32(f64(s[n-1])) / float32(f64(s[n])))
			sp--
		case OpFEq:
			s[n-1] = b2u(f64(s[n-1]) == f64(s[n]))
			sp--
		case OpFNe:
			s[n-1] = b2u(f64(s[n-1]) != f64(s[n]))
			sp--
		case OpFLt:
			s[n-1] = b2u(f64(s[n-1]) < f64(s[n]))
			sp--
		case OpFLe:
			s[n-1] = b2u(f64(s[n-1]) <= f64(s[n]))
			sp--
		case OpFGt:
			s[n-1] = b2u(f64(s[n-1]) > f64(s[n]))
			sp--
		case OpFGe:
			s[n-1] = b2u(f64(s[n-1]) >= f64(s[n]))
			sp--
		case OpExt:
			// ext, inlined (it is too large for the compiler to inline)
			v := s[n]
			switch in.A {
			case 1:
				v = b2u(v != 0)
			case 8:
				if in.B != 0 {
					v = uint64(int64(int8(v)))
				} else {
					v = uint64(uint8(v))
				}
			case 16:
				if in.B != 0 {
					v = uint64(int64(int16(v)))
				} else {
					v = uint64(uint16(v))
				}
			case 32:
				if in.B != 0 {
					v = uint64(int64(int32(v)))
				} else {
					v = uint64(uint32(v))
				}
			}
			s[n] = v
		case OpI2F:
			s[n] = bits(float64(int64(s[n])))
		case OpU2F:
			s[n] = bits(float64(s[n]))
		case OpF2F32:
			s[n] = bits(float64(float32(f64(s[n]))))
		case OpPtrAdd:
			// as in runN: the offset saturates in its signed 32-bit field
			p := s[n-1]
			off := int64(int32(uint32(p))) + int64(s[n])*int64(in.A)
			off = min(max(off, math.MinInt32), math.MaxInt32)
			s[n-1] = p&^0xffffffff | uint64(uint32(int32(off)))
			sp--
		case OpJmp:
			if watch && int(in.A) <= pc {
				return pc, s[:sp], steps // a backward jump: the spin detector looks (runN)
			}
			pc = int(in.A) - 1
		case OpJz:
			if s[n] == 0 {
				if watch && int(in.A) <= pc {
					return pc, s[:sp], steps
				}
				pc = int(in.A) - 1
			}
			sp--
		case OpJnz:
			if s[n] != 0 {
				if watch && int(in.A) <= pc {
					return pc, s[:sp], steps
				}
				pc = int(in.A) - 1
			}
			sp--
		// fused pairs (vmfuse.go): two steps each
		case fSetPop:
			slots[base+int(in.A)] = s[n]
			sp--
			pc, steps = pc+1, steps+1
		case fSetUPop:
			i := base + int(in.A)
			slots[i] = s[n]
			if i/64 < len(t.undef) {
				t.undef[i/64] &^= 1 << (i % 64)
			}
			sp--
			pc, steps = pc+1, steps+1
		case fPopLocal:
			s[n] = slots[base+int(in.A)]
			pc, steps = pc+1, steps+1
		case fPopPop:
			sp -= 2
			pc, steps = pc+1, steps+1
		case fSwapSwap:
			pc, steps = pc+1, steps+1
		case fLocalConst:
			if sp+2 > len(s) {
				return pc, s[:sp], steps
			}
			s[sp], s[sp+1] = slots[base+int(in.A)], uint64(in.B)
			sp += 2
			pc, steps = pc+1, steps+1
		case fLocalLocal:
			if sp+2 > len(s) {
				return pc, s[:sp], steps
			}
			s[sp], s[sp+1] = slots[base+int(in.A)], slots[base+int(in.B)]
			sp += 2
			pc, steps = pc+1, steps+1
		case fExtSet:
			v := ext32(s[n], in.B)
			s[n] = v
			slots[base+int(in.A)] = v
			pc, steps = pc+1, steps+1
		case fExt32:
			s[n] = ext32(s[n], in.B)
			pc, steps = pc+1, steps+1
		case fConst:
			if sp == len(s) {
				return pc, s[:sp], steps
			}
			s[sp] = uint64(in.B)
			sp++
			pc, steps = pc+1, steps+1
		case fULtJz, fSLtJz:
			var c bool
			if in.Op == fULtJz {
				c = s[n-1] < s[n]
			} else {
				c = int64(s[n-1]) < int64(s[n])
			}
			if !c && watch && int(in.A) <= pc+1 {
				return pc, s[:sp], steps // a backward jump: runN, one by one
			}
			sp -= 2
			pc, steps = pc+1, steps+1
			if !c {
				pc = int(in.A) - 1
			}
		case fAddS32Ext:
			r := int64(int32(s[n-1])) + int64(int32(s[n]))
			if r != int64(int32(r)) {
				return pc, s[:sp], steps // an overflow: signedArith
			}
			s[n-1] = ext32(uint64(r), in.B)
			sp--
			pc, steps = pc+1, steps+1
		case fSubS32Ext:
			r := int64(int32(s[n-1])) - int64(int32(s[n]))
			if r != int64(int32(r)) {
				return pc, s[:sp], steps
			}
			s[n-1] = ext32(uint64(r), in.B)
			sp--
			pc, steps = pc+1, steps+1
		case fAndExt:
			s[n-1] = ext32(s[n-1]&s[n], in.B)
			sp--
			pc, steps = pc+1, steps+1
		case fOrExt:
			s[n-1] = ext32(s[n-1]|s[n], in.B)
			sp--
			pc, steps = pc+1, steps+1
		case fXorExt:
			s[n-1] = ext32(s[n-1]^s[n], in.B)
			sp--
			pc, steps = pc+1, steps+1
		case fAddExt:
			s[n-1] = ext32(s[n-1]+s[n], in.B)
			sp--
			pc, steps = pc+1, steps+1
		case fSubExt:
			s[n-1] = ext32(s[n-1]-s[n], in.B)
			sp--
			pc, steps = pc+1, steps+1
		case fMulExt:
			s[n-1] = ext32(s[n-1]*s[n], in.B)
			sp--
			pc, steps = pc+1, steps+1
		case fShlExt:
			s[n-1] = ext32(s[n-1]<<(s[n]&63), in.B)
			sp--
			pc, steps = pc+1, steps+1
		case fShrExt:
			s[n-1] = ext32(s[n-1]>>(s[n]&63), in.B)
			sp--
			pc, steps = pc+1, steps+1
		default:
			return pc, s[:sp], steps
		}
		pc++
		steps++
	}
	return pc, s[:sp], steps
}
