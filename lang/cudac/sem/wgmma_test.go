package sem_test

import (
	"fmt"
	"strings"
	"testing"

	"weft.dev/weft/lang/cudac/sem"
)

// The wgmma forms beyond K-major shared-memory operands (issue 12): A from
// registers and transposed (MN-major) operands, ptx.md §6.1-6.3. Each case
// is a kernel that lays A (64 x K) and B (K x N) out as the PTX ISA's
// fragment and descriptor layouts say, runs one wgmma.mma_async with
// scale-d false, and prints D; the test compares every element with
// D = A*B computed here. The inputs are small integers, so every product
// and sum is exact and the comparison is bit for bit.
type wgmmaCase struct {
	name     string
	typ      string // f16, bf16, tf32
	n        int
	regA     bool
	ta, tb   int // imm-trans-a, imm-trans-b
	swA, swB int // swizzle of the shared-memory operands: 0, 32, 64, 128
	scaleA   int // imm-scale-a
}

func av(m, k int) float64 { return float64((m+2*k)%5 - 2) }
func bv(k, n int) float64 { return float64((3*n+k)%7 - 3) }

// wgmmaSrc is the CUDA program of c.
func wgmmaSrc(c wgmmaCase) string {
	k := 16
	elem := 2
	if c.typ == "tf32" {
		k, elem = 8, 4
	}
	var b strings.Builder
	fmt.Fprintf(&b, `#include <stdio.h>
#include <stdint.h>
#include <cuda_fp16.h>
__device__ uint32_t swz(uint32_t a, int sw) {
  if (sw == 128) return a ^ ((a >> 7) & 7) << 4;
  if (sw == 64) return a ^ ((a >> 7) & 3) << 4;
  if (sw == 32) return a ^ ((a >> 7) & 1) << 4;
  return a;
}
__device__ uint64_t desc(uint32_t addr, uint32_t lbo, uint32_t sbo, int sw) {
  uint64_t mode = sw == 128 ? 1 : sw == 64 ? 2 : sw == 32 ? 3 : 0;
  return (uint64_t)((addr & 0x3FFFF) >> 4) | (uint64_t)(lbo >> 4) << 16 | (uint64_t)(sbo >> 4) << 32 | mode << 62;
}
__device__ float av(int m, int k) { return (float)((m + 2 * k) %% 5 - 2); }
__device__ float bv(int k, int n) { return (float)((3 * n + k) %% 7 - 3); }
__device__ uint32_t bits(float x) {
  if (%[1]d == 4) return __float_as_uint(x);          // tf32: the binary32 bits
  if (%[2]d) return __half_as_ushort(__float2half(x)); // f16
  return __float_as_uint(x) >> 16;                    // bf16: exact for small integers
}
// store element (mn, k) of a 'rows' x K operand at its address in the layout
__device__ void put(char *smem, uint32_t base, uint32_t off, int mn, int k, int trans, int sw, uint32_t lbo, uint32_t sbo, float x) {
  const int E = %[1]d, T = 16 / E;
  uint32_t a;
  if (!trans) { // K-major (ptx.md 6.3)
    if (sw == 0) a = base + off + (mn %% 8) * 16 + (mn / 8) * sbo + (k / T) * lbo + (k %% T) * E;
    else a = swz(base + off + (mn %% 8) * sw + (mn / 8) * sbo + (k / T) * 16 + (k %% T) * E, sw);
  } else {      // MN-major
    if (sw == 0) a = base + off + (mn %% T) * E + (mn / T) * sbo + (k %% 8) * 16 + (k / 8) * lbo;
    else a = swz(base + off + (mn %% T) * E + ((mn / T) %% (sw / 16)) * 16 + (mn / T / (sw / 16)) * lbo + (k %% 8) * sw + (k / 8) * sbo, sw);
  }
  a -= base;
  if (E == 4) *(uint32_t *)(smem + a) = bits(x);
  else *(unsigned short *)(smem + a) = (unsigned short)bits(x);
}
`, elem, map[bool]int{true: 1}[c.typ == "f16"])
	// Offsets: for K-major without swizzle the core matrices are 128 bytes
	// (SBO along MN, LBO along K); for MN-major without swizzle SBO steps
	// MN by T elements, LBO K by 8; swizzled K-major rows of sw bytes and
	// 8-row groups 8*sw apart (SBO); swizzled MN-major atoms of 8 K rows
	// (SBO between K groups 8*sw, LBO between MN atoms).
	lboSbo := func(trans, sw, rows int) (lbo, sbo int) {
		switch {
		case trans == 0 && sw == 0: // 128-byte core matrices, K chunks after all MN groups
			return rows * 16, 128
		case trans == 0: // LBO unused
			return 16, 8 * sw
		case sw == 0: // 128-byte core matrices of T MN elements by 8 k, MN groups first
			return rows / (16 / elem) * 128, 128
		default: // atoms of 8 k rows by sw bytes: K groups next to each other, then MN atoms
			return 8 * sw * (k / 8), 8 * sw
		}
	}
	aL, aS := lboSbo(c.ta, c.swA, 64)
	bL, bS := lboSbo(c.tb, c.swB, c.n)
	fmt.Fprintf(&b, `__global__ void kern(float *out) {
  extern __shared__ __align__(1024) char smem[];
  uint32_t base = (uint32_t)__cvta_generic_to_shared(smem);
  int tid = threadIdx.x;
  for (int i = tid; i < 64 * %[1]d; i += 128) put(smem, base, 0, i / %[1]d, i %% %[1]d, %[2]d, %[3]d, %[4]d, %[5]d, av(i / %[1]d, i %% %[1]d));
  for (int i = tid; i < %[6]d * %[1]d; i += 128) put(smem, base, 16384, i / %[1]d, i %% %[1]d, %[7]d, %[8]d, %[9]d, %[10]d, bv(i %% %[1]d, i / %[1]d));
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  uint64_t da = desc(base, %[4]d, %[5]d, %[3]d), db = desc(base + 16384, %[9]d, %[10]d, %[8]d);
  (void)da;
  int w = tid / 32, g = tid %% 32 / 4, t = tid %% 4;
  uint32_t a[4];
  for (int j = 0; j < 4; j++) {
    if (%[11]d == 4) { a[j] = bits(av(16 * w + g + 8 * (j & 1), t + 4 * (j >> 1))); continue; }
    uint32_t lo = bits(av(16 * w + g + 8 * (j & 1), 2 * t + 8 * (j >> 1)));
    uint32_t hi = bits(av(16 * w + g + 8 * (j & 1), 2 * t + 1 + 8 * (j >> 1)));
    a[j] = lo | hi << 16;
  }
  float d[%[12]d];
  for (int i = 0; i < %[12]d; i++) d[i] = 0;
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
`, k, c.ta, c.swA, aL, aS, c.n, c.tb, c.swB, bL, bS, elem, c.n/2)
	// the instruction: d regs, then A (regs or descriptor), then B
	nd := c.n / 2
	var regs, cons []string
	for i := 0; i < nd; i++ {
		regs = append(regs, fmt.Sprintf("%%%d", i))
		cons = append(cons, fmt.Sprintf(`"+f"(d[%d])`, i))
	}
	op := fmt.Sprintf("wgmma.mma_async.sync.aligned.m64n%dk%d.f32.%s.%s", c.n, k, c.typ, c.typ)
	var aOp string
	var ins []string
	next := nd
	if c.regA {
		var ar []string
		for j := 0; j < 4; j++ {
			ar = append(ar, fmt.Sprintf("%%%d", next))
			ins = append(ins, fmt.Sprintf(`"r"(a[%d])`, j))
			next++
		}
		aOp = "{" + strings.Join(ar, ", ") + "}"
	} else {
		aOp = fmt.Sprintf("%%%d", next)
		ins = append(ins, `"l"(da)`)
		next++
	}
	bOp := fmt.Sprintf("%%%d", next)
	ins = append(ins, `"l"(db)`)
	imm := fmt.Sprintf("0, %d, 1", c.scaleA)
	if c.typ != "tf32" {
		if !c.regA {
			imm += fmt.Sprintf(", %d", c.ta)
		}
		imm += fmt.Sprintf(", %d", c.tb)
	}
	fmt.Fprintf(&b, "  asm volatile(\"%s {%s}, %s, %s, %s;\" : %s : %s);\n", op, strings.Join(regs, ", "), aOp, bOp, imm, strings.Join(cons, ", "), strings.Join(ins, ", "))
	fmt.Fprintf(&b, `  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  for (int i = 0; i < %[1]d; i++) {
    int row = 16 * w + g + 8 * ((i >> 1) & 1), col = 8 * (i >> 2) + 2 * t + (i & 1);
    out[row * %[2]d + col] = d[i];
  }
}
int main() {
  float *d, h[64 * %[2]d];
  cudaMalloc(&d, sizeof h);
  kern<<<1, 128, 32768>>>(d);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 64 * %[2]d; i++) printf("%%g\n", h[i]);
  return 0;
}
`, nd, c.n)
	return b.String()
}

func TestWgmmaForms(t *testing.T) {
	cases := []wgmmaCase{
		{name: "f16 A in registers, B K-major 128B swizzle", typ: "f16", n: 16, regA: true, swB: 128, scaleA: 1},
		{name: "bf16 A in registers negated, B MN-major 128B swizzle", typ: "bf16", n: 16, regA: true, tb: 1, swB: 128, scaleA: -1},
		{name: "f16 A MN-major 64B swizzle, B MN-major 32B swizzle", typ: "f16", n: 16, ta: 1, swA: 64, tb: 1, swB: 32, scaleA: 1},
		{name: "bf16 A MN-major no swizzle, B MN-major no swizzle", typ: "bf16", n: 24, ta: 1, tb: 1, scaleA: 1},
		{name: "f16 A K-major no swizzle, B MN-major 128B swizzle, N=8", typ: "f16", n: 8, tb: 1, swB: 128, scaleA: 1},
		{name: "tf32 A in registers, B K-major 128B swizzle", typ: "tf32", n: 8, regA: true, swB: 128, scaleA: 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := wgmmaSrc(c)
			out, diags := run(src, "wgmma.cu", sem.Options{Check: true})
			if diags.Len() != 0 {
				t.Fatalf("diagnostics:\n%v\n%s", diags.Diags, src)
			}
			k := 16
			if c.typ == "tf32" {
				k = 8
			}
			var b strings.Builder
			for m := 0; m < 64; m++ {
				for n := 0; n < c.n; n++ {
					sum := 0.0
					for kk := 0; kk < k; kk++ {
						sum += float64(c.scaleA) * av(m, kk) * bv(kk, n)
					}
					fmt.Fprintf(&b, "%g\n", sum)
				}
			}
			if out != b.String() {
				got, want := strings.Split(out, "\n"), strings.Split(b.String(), "\n")
				for i := range want {
					if i >= len(got) || got[i] != want[i] {
						t.Fatalf("D element %d (row %d, col %d): got %q, want %q", i, i/c.n, i%c.n, got[min(i, len(got)-1)], want[i])
					}
				}
			}
		})
	}
}
