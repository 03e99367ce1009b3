package ptx

// The four-way byte SIMD video instructions (PTX ISA, "Integer Arithmetic
// Instructions: SIMD video instructions", vadd4 ... vmax4): each of the
// four byte lanes of a and b, sign- or zero-extended by .atype and
// .btype, is combined by the operation (saturated to a byte by .sat);
// then either merged into c (the mask's lanes from the result, the others
// from c's bytes) or, with .add, summed into c. Selectors other than the
// defaults (.asel = .b3210: a's bytes; .bsel = .b7654: b's bytes) and
// masks other than .b3210 are not modeled: an operand with a suffix does
// not parse as a register.

var vop4Ops = map[string]bool{"vadd4": true, "vsub4": true, "vavrg4": true, "vabsdiff4": true, "vmin4": true, "vmax4": true}

func isU32S32(t string) bool { return t == "u32" || t == "s32" }

// lane4 is byte i of x, sign-extended when signed.
func lane4(x uint32, i int, signed bool) int64 {
	b := uint8(x >> (8 * i))
	if signed {
		return int64(int8(b))
	}
	return int64(b)
}

// Vop4 computes op.dtype.atype.btype{.sat|.add} (mods as Inst.Mods: op,
// dtype, atype, btype, and the optional sat or add) of a, b and c.
func Vop4(mods []string, a, b, c uint32) uint32 {
	op := mods[0]
	sat, add := len(mods) == 5 && mods[4] == "sat", len(mods) == 5 && mods[4] == "add"
	dSigned, aSigned, bSigned := mods[1] == "s32", mods[2] == "s32", mods[3] == "s32"
	var t [4]int64
	for i := range t {
		va, vb := lane4(a, i, aSigned), lane4(b, i, bSigned)
		switch op {
		case "vadd4":
			t[i] = va + vb
		case "vsub4":
			t[i] = va - vb
		case "vavrg4":
			// rounds halves up for a non-negative sum, down otherwise
			if va+vb >= 0 {
				t[i] = (va + vb + 1) >> 1
			} else {
				t[i] = (va + vb) >> 1
			}
		case "vabsdiff4":
			t[i] = va - vb
			if t[i] < 0 {
				t[i] = -t[i]
			}
		case "vmin4":
			t[i] = min(va, vb)
		case "vmax4":
			t[i] = max(va, vb)
		}
		if sat {
			if dSigned {
				t[i] = min(max(t[i], -128), 127)
			} else {
				t[i] = min(max(t[i], 0), 255)
			}
		}
	}
	if add {
		// the accumulate: c plus each lane's result (as a 32-bit integer)
		d := c
		for _, x := range t {
			d += uint32(x)
		}
		return d
	}
	// the merge: every lane (mask .b3210) from the result's low byte
	var d uint32
	for i, x := range t {
		d |= uint32(uint8(x)) << (8 * i)
	}
	return d
}
