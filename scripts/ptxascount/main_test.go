package main

import (
	"fmt"
	"strings"
	"testing"
)

// A kernel in nvdisasm -c's format: a loop (0x10-0x60) whose mbarrier wait
// retries out of line (0x80-0xa0, branching back into the loop), a spin
// loop there, and an unreachable self-branch after the EXIT (ptxas's
// end-of-function trap).
const sassListing = `	.target	sm_90a

//--------------------- .text.k  --------------------------
	.section	.text.k,"ax",@progbits
k:
.text.k:
        /*0000*/                   MOV R1, R2 ;
.L_x_0:
        /*0010*/                   HMMA.16816.F32 R4, R8, R12, R4 ;
        /*0020*/                   SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R1], R2 ;
        /*0030*/              @!P0 BRA ` + "`(.L_x_2)" + ` ;
.L_x_3:
%s        /*0040*/                   IADD3 R1, R1, 0x1, RZ ;
        /*0050*/                   ISETP.NE.AND P1, PT, R1, R3, PT ;
        /*0060*/               @P1 BRA ` + "`(.L_x_0)" + ` ;
        /*0070*/                   EXIT ;
.L_x_2:
        /*0080*/                   SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R1], R2 ;
        /*0090*/              @!P0 BRA ` + "`(.L_x_2)" + ` ;
        /*00a0*/                   BRA ` + "`(.L_x_3)" + ` ;
.L_x_4:
        /*00b0*/                   BRA ` + "`(.L_x_4)" + `;
        /*00c0*/                   NOP;
`

func loopSize(code []inst, l *loop) int {
	n := 0
	for i := range l.body {
		if code[i].op != "NOP" {
			n++
		}
	}
	return n
}

func TestFindLoops(t *testing.T) {
	code := parseSass(fmt.Sprintf(sassListing, ""))["k"]
	if got := countReal(code); got != 12 {
		t.Fatalf("countReal = %d, want 12", got)
	}
	roots := findLoops(code)
	// One loop, headed at 0x10: the 6 instructions from 0x10 to 0x60 and
	// the 3 of the out-of-line retry (it returns into the loop); the
	// branch from 0xa0 back to 0x40 is not a loop of its own (0x40 does not
	// dominate 0xa0), the self-branch at 0xb0 is unreachable.
	if len(roots) != 1 {
		t.Fatalf("%d outermost loops, want 1", len(roots))
	}
	l := roots[0]
	if code[l.header].addr != 0x10 || loopSize(code, l) != 9 {
		t.Errorf("loop at %#x of %d instructions, want 0x10 and 9", code[l.header].addr, loopSize(code, l))
	}
	if len(l.inner) != 1 || code[l.inner[0].header].addr != 0x80 || loopSize(code, l.inner[0]) != 2 {
		t.Errorf("inner loops %v, want the spin loop at 0x80 of 2 instructions", l.inner)
	}
	if got := formatLoops(code, roots); got != "none" {
		t.Errorf("formatLoops = %q, want none (every loop has at most %d instructions)", got, smallLoop)
	}
	// 20 more instructions in the loop body: printed, the spin loop not.
	pad := strings.Repeat("        /*0038*/                   IADD3 R2, R2, 0x1, RZ ;\n", 20)
	code = parseSass(fmt.Sprintf(sassListing, pad))["k"]
	if got := formatLoops(code, findLoops(code)); got != "29(HMMA 1)" {
		t.Errorf("formatLoops = %q, want 29(HMMA 1)", got)
	}
}

func TestParsePtxas(t *testing.T) {
	log := `ptxas info    : 4 bytes gmem
ptxas info    : Compiling entry function 'k1' for 'sm_80'
ptxas info    : Function properties for k1
    8 bytes stack frame, 12 bytes spill stores, 16 bytes spill loads
ptxas info    : Used 55 registers, used 0 barriers, 380 bytes cmem[0]
ptxas info    : Compiling entry function 'k2' for 'sm_80'
ptxas info    : Function properties for k2
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 168 registers, used 1 barriers
`
	got := parsePtxas(log)
	want := map[string]resources{"k1": {55, 12, 16}, "k2": {168, 0, 0}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("parsePtxas = %v, want %v", got, want)
	}
}

func TestPtxInstructions(t *testing.T) {
	// Inline asm is printed from column 0, a multi-line template keeps its
	// operand lines; a .func declaration has no body.
	ptx := `.extern .func (.param .b32 r) f(.param .b32 a);
.visible .entry k(
	.param .u64 k_param_0
)
{
	.reg .b32 	%r<4>;
	// begin inline asm
	{
	.reg .pred p;
mbarrier.try_wait.parity.shared::cta.b64 p, [%r1], %r2;
@!p bra $L1;
	}
	// end inline asm
$L__BB0_1:
	add.s32 	%r1, %r1, 1;
	@%p1 bra 	$L__BB0_1;
wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16
{%f1, %f2},
%rd1, %rd2, 1, 1, 1, 0, 0;
	ret;
}
.func (.param .b32 r) g(
	.param .b32 a
)
{
	mov.b32 	%r1, 0;
	ret;
}
`
	got := ptxInstructions(ptx)
	if got["k"] != 6 || got["g"] != 2 || len(got) != 2 {
		t.Errorf("ptxInstructions = %v, want k:6 g:2", got)
	}
}
