package ptx

import (
	"fmt"
	"math"
	"strings"

	"github.com/x448/float16"
)

// TF32 is cvt.rna.tf32.f32 (ptx.md §1.5, PTX ISA "cvt"): round the binary32
// value x to 10 explicit mantissa bits, to nearest with ties away from zero,
// keeping the binary32 layout with the low 13 bits zero. Adding half an ulp
// of tf32 (bit 12) to the magnitude and truncating is that rounding, since
// the format is sign-magnitude; a carry into the exponent rounds the largest
// finite values to infinity. NaN and infinity keep their top bits. With
// satfinite an infinite result from a finite input is the largest finite
// tf32 instead.
func TF32(x uint32, satfinite bool) uint32 {
	exp := x >> 23 & 0xff
	if exp == 0xff {
		if x&0x7fffff != 0 {
			return x&0xffffe000 | 0x400000 // a NaN stays a NaN
		}
		return x
	}
	r := (x + 0x1000) & 0xffffe000
	if satfinite && r>>23&0xff == 0xff {
		return x&0x80000000 | 0x7f7fe000
	}
	return r
}

// MmaShape is one modeled mma.sync form.
type MmaShape struct {
	M, N, K      int
	In           string // tf32, f16 or bf16
	ARegs, BRegs int
}

// MmaShapeOf recognizes the modeled forms of mma.sync: D (f32) = A B + C (f32)
// with A row-major and B column-major.
func MmaShapeOf(op string) (MmaShape, bool) {
	switch op {
	case "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32":
		return MmaShape{16, 8, 8, "tf32", 4, 2}, true
	case "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32":
		return MmaShape{16, 8, 4, "tf32", 2, 1}, true
	case "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32":
		return MmaShape{16, 8, 16, "f16", 4, 2}, true
	case "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32":
		return MmaShape{16, 8, 16, "bf16", 4, 2}, true
	}
	return MmaShape{}, false
}

// AElem is the element of A that half h (0: low, 1: high 16 bits; always 0
// for tf32) of A register r of lane holds (ptx.md §1.1-1.3, the PTX ISA's
// "Matrix Fragments for mma.m16n8k8 / m16n8k4 / m16n8k16").
func (s MmaShape) AElem(lane, r, h int) (row, col int) {
	g, t := lane>>2, lane&3
	if s.In == "tf32" {
		// a0: (g, t), a1: (g+8, t), a2: (g, t+4), a3: (g+8, t+4)
		return g + 8*(r&1), t + 4*(r>>1)
	}
	// register j holds a_{2j}, a_{2j+1}: rows g (j even) / g+8 (j odd),
	// columns 2t + h (+8 for j >= 2)
	return g + 8*(r&1), 2*t + h + 8*(r>>1)
}

// BElem is the element (k, n) of B that half h of B register r of lane holds.
func (s MmaShape) BElem(lane, r, h int) (k, n int) {
	g, t := lane>>2, lane&3
	if s.In == "tf32" {
		return t + 4*r, g
	}
	return 2*t + h + 8*r, g
}

// CElem is the element of the 16x8 C/D tile held by f32 register i of lane.
func CElem(lane, i int) (row, col int) {
	g, t := lane>>2, lane&3
	return g + 8*(i>>1), 2*t + i&1
}

// input decodes one A or B element: a tf32 operand is the top 19 bits of
// the register (the ISA leaves the low 13 bits unused), f16 and bf16 are
// the half h of the register.
func (s MmaShape) input(reg uint32, h int) float64 {
	switch s.In {
	case "tf32":
		return float64(math.Float32frombits(reg & 0xffffe000))
	case "f16":
		return float64(float16.Frombits(uint16(reg >> (16 * h))).Float32())
	default:
		return float64(math.Float32frombits(reg >> (16 * h) << 16))
	}
}

// Mma computes the warp's D fragments from every lane's A, B and C
// registers (a[lane], b[lane]: the 32-bit registers in operand order; c:
// binary32 bits). Precision model (doc.go): each product is exact in
// binary64, the K products of an element are added to C in k order in
// binary64, and the sum is rounded once to binary32.
func (s MmaShape) Mma(a, b [][]uint32, c [][4]uint32) [][4]uint32 {
	A := make([]float64, s.M*s.K)
	B := make([]float64, s.K*s.N)
	halves := 2
	if s.In == "tf32" {
		halves = 1
	}
	for lane := 0; lane < 32; lane++ {
		for r := 0; r < s.ARegs; r++ {
			for h := 0; h < halves; h++ {
				i, k := s.AElem(lane, r, h)
				A[i*s.K+k] = s.input(a[lane][r], h)
			}
		}
		for r := 0; r < s.BRegs; r++ {
			for h := 0; h < halves; h++ {
				k, j := s.BElem(lane, r, h)
				B[k*s.N+j] = s.input(b[lane][r], h)
			}
		}
	}
	d := make([][4]uint32, 32)
	for lane := 0; lane < 32; lane++ {
		for i := 0; i < 4; i++ {
			row, col := CElem(lane, i)
			sum := float64(math.Float32frombits(c[lane][i]))
			for k := 0; k < s.K; k++ {
				sum += A[row*s.K+k] * B[k*s.N+col]
			}
			d[lane][i] = math.Float32bits(float32(sum))
		}
	}
	return d
}

// ErrorBound is the bound docs/cudac.md states for comparing an mma result
// computed by a GPU with Mma's: |gpu - model| <= ErrorBound(k) * sum_k
// |a_k b_k| (+ |c|), for K accumulated products in binary32 with any order
// and any intermediate rounding: K+1 roundings of relative size 2^-24 each.
func ErrorBound(k int) float64 { return float64(k+1) * 0x1p-24 }

// WgmmaShape is one modeled wgmma.mma_async form: D (64 x N, f32) = A (64 x
// K) B (K x N) (+ D), B read from shared memory through a descriptor, A
// through a descriptor or from registers (ptx.md §6.1).
type WgmmaShape struct {
	N, K int
	In   string // tf32, bf16 or f16
}

// WgmmaShapeOf recognizes wgmma.mma_async.sync.aligned.m64nNkK.f32.T.T.
func WgmmaShapeOf(op string) (WgmmaShape, bool) {
	var n, k int
	var in, in2 string
	parts := strings.Split(op, ".")
	if len(parts) != 8 || parts[0] != "wgmma" || parts[1] != "mma_async" || parts[2] != "sync" || parts[3] != "aligned" || parts[5] != "f32" {
		return WgmmaShape{}, false
	}
	if c, err := fmt.Sscanf(parts[4], "m64n%dk%d", &n, &k); c != 2 || err != nil {
		return WgmmaShape{}, false
	}
	in, in2 = parts[6], parts[7]
	if in != in2 || n < 8 || n > 256 || n%8 != 0 || parts[4] != fmt.Sprintf("m64n%dk%d", n, k) {
		return WgmmaShape{}, false
	}
	switch {
	case in == "tf32" && k == 8, (in == "bf16" || in == "f16") && k == 16:
		return WgmmaShape{N: n, K: k, In: in}, true
	}
	return WgmmaShape{}, false
}

// ElemBytes is the size of an A or B element in shared memory.
func (s WgmmaShape) ElemBytes() int {
	if s.In == "tf32" {
		return 4
	}
	return 2
}

// Decode turns the raw bits of one A or B element into its value.
func (s WgmmaShape) Decode(bits uint32) float64 {
	switch s.In {
	case "tf32":
		return float64(math.Float32frombits(bits & 0xffffe000))
	case "f16":
		return float64(float16.Frombits(uint16(bits)).Float32())
	}
	return float64(math.Float32frombits(bits << 16))
}

// AccElem is the element of the 64 x N accumulator that register i of
// thread tid (0..127) of the warpgroup holds (ptx.md §6.2: the PTX ISA's
// "wgmma D fragment" figure): warp w owns rows 16w..16w+15, and each group
// of 4 registers covers an 8-column slab as mma.m16n8's C does.
func AccElem(tid, i int) (row, col int) {
	w, lane := tid/32, tid%32
	g, t := lane>>2, lane&3
	return 16*w + g + 8*((i>>1)&1), 8*(i>>2) + 2*t + i&1
}

// Desc is a decoded wgmma shared-memory matrix descriptor (ptx.md §6.3,
// PTX ISA "Matrix Descriptor Format").
type Desc struct {
	Start, LBO, SBO uint64 // byte addresses / offsets in the shared window
	Swizzle         int    // 0 (none), 32, 64 or 128 bytes
}

// DecodeDesc reads the 64-bit descriptor.
func DecodeDesc(d uint64) Desc {
	sw := [4]int{0, 128, 64, 32}[d>>62]
	return Desc{Start: (d & 0x3fff) << 4, LBO: (d >> 16 & 0x3fff) << 4, SBO: (d >> 32 & 0x3fff) << 4, Swizzle: sw}
}

// KMajorAddr is the shared-window address of element (mn, k) of a K-major
// operand (K contiguous in 16-byte chunks of 16/elem elements), ptx.md
// §6.3: without swizzle the 8-row core matrices are 128 bytes, SBO apart
// along MN and LBO apart along K; with a 32/64/128-byte swizzle a row holds
// 2/4/8 chunks and the 16-byte chunk index is XORed with address bits 7..9
// (§5.3), on the absolute address.
func (d Desc) KMajorAddr(mn, k, elem int) uint64 {
	per := 16 / elem
	chunk, in := uint64(k/per), uint64(k%per*elem)
	r := uint64(mn % 8)
	if d.Swizzle == 0 {
		return d.Start + r*16 + uint64(mn/8)*d.SBO + chunk*d.LBO + in
	}
	w := uint64(d.Swizzle / 16)
	a := d.Start + r*w*16 + uint64(mn/8)*d.SBO + chunk*16 + in
	return Swizzle(a, d.Swizzle)
}

// MNMajorAddr is the shared-window address of element (mn, k) of an
// MN-major ("transposed", imm-trans = 1, f16/bf16 only) operand, ptx.md
// §6.3: MN is contiguous in 16-byte chunks of T = 16/elem elements and each
// k is one 16-byte row of a core matrix. With a 32/64/128-byte swizzle an
// 8-deep K slice is an atom of W = 2/4/8 chunks by 8 rows (layout
// ((T,W,m),(8,k)):((1,T,LBO),(W·T,SBO))): LBO steps between atoms along MN,
// SBO between 8-deep K groups, then the swizzle on the absolute address.
// Without swizzle (((T,1,m),(8,k)):((1,T,SBO),(T,LBO))) the two offsets
// swap roles: SBO steps along MN by T elements, LBO along K by 8.
func (d Desc) MNMajorAddr(mn, k, elem int) uint64 {
	per := 16 / elem
	in := uint64(mn % per * elem)
	kr, kg := uint64(k%8), uint64(k/8)
	if d.Swizzle == 0 {
		return d.Start + in + uint64(mn/per)*d.SBO + kr*16 + kg*d.LBO
	}
	w := d.Swizzle / 16
	chunk, atom := uint64(mn/per%w), uint64(mn/per/w)
	a := d.Start + in + chunk*16 + atom*d.LBO + kr*uint64(w)*16 + kg*d.SBO
	return Swizzle(a, d.Swizzle)
}

// AFragElem is the element (row, k) of A that element i of the A registers
// of thread tid (0..127) holds in the register-A form of wgmma (ptx.md
// §6.2: per warp the mma.sync A fragment, rows offset by 16w). For
// bf16/f16 the four registers hold elements 2j (low half) and 2j+1 (high
// half); for tf32 element i is register i.
func (s WgmmaShape) AFragElem(tid, i int) (row, k int) {
	w, lane := tid/32, tid%32
	g, t := lane>>2, lane&3
	if s.In == "tf32" {
		return 16*w + g + 8*(i&1), t + 4*(i>>1)
	}
	return 16*w + g + 8*((i>>1)&1), 2*t + i&1 + 8*(i>>2)
}

// Swizzle applies the 32/64/128-byte swizzle of TMA and wgmma to a byte
// address (ptx.md §5.3): the 16-byte chunk index (bits 4..) is XORed with
// bits 7.. of the address, 1, 2 or 3 bits wide.
func Swizzle(a uint64, mode int) uint64 {
	switch mode {
	case 32:
		return a ^ (a>>7&1)<<4
	case 64:
		return a ^ (a>>7&3)<<4
	case 128:
		return a ^ (a>>7&7)<<4
	}
	return a
}

// Wgmma computes the 64 x N product of A (64 x K, row m at a[m*K:]) and B
// given as N x K (b[n*K:]), plus c (64 x N, row-major) when accumulate, with
// the precision model of Mma, and returns D row-major as binary32 bits.
func (s WgmmaShape) Wgmma(a, b, c []float64, accumulate bool) []uint32 {
	d := make([]uint32, 64*s.N)
	for m := 0; m < 64; m++ {
		for n := 0; n < s.N; n++ {
			sum := 0.0
			if accumulate {
				sum = c[m*s.N+n]
			}
			for k := 0; k < s.K; k++ {
				sum += a[m*s.K+k] * b[n*s.K+k]
			}
			d[m*s.N+n] = math.Float32bits(float32(sum))
		}
	}
	return d
}
