package ptx

import (
	"fmt"
	"strings"
)

// Kind is the model an instruction runs with.
type Kind uint8

const (
	KNone             Kind = iota
	KMov                   // mov.{u32,b32,s32,u64,b64} d, a: a register, special register or immediate
	KCvtTF32               // cvt.rna{.satfinite}.tf32.f32 d, a
	KBra                   // bra{.uni} label
	KBarSync               // barrier{.cta}.sync{.aligned} / bar{.cta}.sync id{, count}
	KBarArrive             // barrier{.cta}.arrive{.aligned} / bar.arrive id, count
	KNop                   // fences and setmaxnreg: no effect on the values or the order the model checks
	KCpAsync               // cp.async.{ca,cg}.shared{::cta}.global [d], [s], size{, src-size}
	KCpCommit              // cp.async.commit_group
	KCpWait                // cp.async.wait_group N
	KCpWaitAll             // cp.async.wait_all
	KCpMbarArrive          // cp.async.mbarrier.arrive{.noinc}.shared{::cta}.b64 [bar]
	KMbarInit              // mbarrier.init.shared{::cta}.b64 [bar], count
	KMbarArrive            // mbarrier.arrive{.sem}{.scope}.shared{::cta}.b64 state, [bar]{, count}
	KMbarExpectArrive      // mbarrier.arrive.expect_tx... state, [bar], tx
	KMbarTestWait          // mbarrier.test_wait.parity... p, [bar], parity
	KMbarTryWait           // mbarrier.try_wait.parity... p, [bar], parity{, hint}
	KMma                   // mma.sync.aligned.m16n8k{4,8}.row.col.f32.tf32.tf32.f32, m16n8k16 .f32.{f16,bf16}
	KSetp                  // setp.{eq,ne,lt,le,gt,ge}.{b32,u32,s32,b64,u64,s64} p, a, b
	KLdmatrix              // ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared{::cta}.b16 {d...}, [addr]
	KWgmma                 // wgmma.mma_async.sync.aligned.m64nNk{8,16}.f32.{tf32,bf16,f16} (descriptors in shared memory)
	KWgmmaFence            // wgmma.fence, commit_group: no effect on values in the model (wgmma completes at issue)
	KWgmmaWait             // wgmma.wait_group N
	KTmaLoad               // cp.async.bulk.tensor.Nd.shared::cluster.global.tile.mbarrier::complete_tx::bytes [d], [map, {c}], [bar]
	KTmaStore              // cp.async.bulk.tensor.Nd.global.shared::cta{.tile}.bulk_group [map, {c}], [s]
	KTmaReduce             // cp.reduce.async.bulk.tensor.Nd.global.shared::cta.add.tile.bulk_group [map, {c}], [s]
	KBulkGroup             // cp.async.bulk.commit_group, wait_group{.read} N: the model completes bulk copies at issue
	KMbarTx                // mbarrier.expect_tx / complete_tx [bar], tx
	KClusterArrive         // barrier.cluster.arrive{.release|.relaxed}{.aligned}
	KClusterWait           // barrier.cluster.wait{.acquire}{.aligned}
	KMapa                  // mapa{.shared::cluster}.u32 d, a, rank
	KLdShared              // ld{.sem.scope}.shared{::cta,::cluster}.{b,u,s}{32,64}/.f32/.f64 d, [a]
	KStShared              // st{.sem.scope}.shared{::cta,::cluster}.type [a], v
	KAtomShared            // atom{.sem.scope}.shared{::cta,::cluster}.add.{u32,s32,u64} d, [a], v; red: no d
	KVop4                  // {vadd4,vsub4,vavrg4,vabsdiff4,vmin4,vmax4}.dtype.atype.btype{.sat|.add} d, a, b, c (default selectors and mask; Vop4)
)

var kindNames = [...]string{"none", "mov", "cvt.tf32", "bra", "barrier.sync", "barrier.arrive", "nop",
	"cp.async", "cp.async.commit_group", "cp.async.wait_group", "cp.async.wait_all", "cp.async.mbarrier.arrive",
	"mbarrier.init", "mbarrier.arrive", "mbarrier.arrive.expect_tx", "mbarrier.test_wait", "mbarrier.try_wait", "mma.sync",
	"setp", "ldmatrix", "wgmma.mma_async", "wgmma.fence", "wgmma.wait_group",
	"cp.async.bulk.tensor (load)", "cp.async.bulk.tensor (store)", "cp.reduce.async.bulk.tensor", "cp.async.bulk group",
	"mbarrier.expect_tx/complete_tx", "barrier.cluster.arrive", "barrier.cluster.wait", "mapa",
	"ld.shared", "st.shared", "atom.shared", "vop4"}

func (k Kind) String() string { return kindNames[k] }

func has(mods []string, m string) bool {
	for _, x := range mods {
		if x == m {
			return true
		}
	}
	return false
}

// classify finds the model of in and checks its operands.
func classify(in *Inst, p *Program) error {
	m := in.Mods
	bad := func(format string, args ...any) error {
		return &Error{in.Line, in.Op + ": " + fmt.Sprintf(format, args...)}
	}
	nargs := func(lo, hi int) error {
		if len(in.Args) < lo || len(in.Args) > hi {
			if lo == hi {
				return bad("wants %d operands, has %d", lo, len(in.Args))
			}
			return bad("wants %d to %d operands, has %d", lo, hi, len(in.Args))
		}
		return nil
	}
	mem := func(i int) error {
		if in.Args[i].Kind != OMem || len(in.Args[i].Elems) != 0 {
			return bad("operand %d must be an [address]", i+1)
		}
		return nil
	}
	switch {
	case m[0] == "mov" && len(m) == 2 && strings.Contains("u32 b32 s32 u64 b64 s64 u16 b16", m[1]):
		in.Kind = KMov
		return nargs(2, 2)
	case in.Op == "cvt.rna.tf32.f32" || in.Op == "cvt.rna.satfinite.tf32.f32":
		in.Kind = KCvtTF32
		return nargs(2, 2)
	case m[0] == "bra" && (len(m) == 1 || len(m) == 2 && m[1] == "uni"):
		in.Kind = KBra
		if err := nargs(1, 1); err != nil {
			return err
		}
		t, ok := p.Labels[in.Args[0].Name]
		if in.Args[0].Kind != OReg || !ok {
			return bad("no label %s in this asm statement", in.Args[0].Name)
		}
		in.Target = t
		return nil
	case (m[0] == "barrier" || m[0] == "bar") && len(m) >= 2:
		rest := m[1:]
		if rest[0] == "cta" {
			rest = rest[1:]
		}
		if len(rest) > 0 && rest[len(rest)-1] == "aligned" {
			rest = rest[:len(rest)-1]
		}
		if len(rest) == 1 && rest[0] == "sync" {
			in.Kind = KBarSync
			return nargs(1, 2)
		}
		if len(rest) == 1 && rest[0] == "arrive" {
			in.Kind = KBarArrive
			return nargs(2, 2)
		}
	case m[0] == "fence" && (has(m, "proxy") || has(m, "mbarrier_init")) || m[0] == "setmaxnreg":
		in.Kind = KNop
		return nil
	case m[0] == "cp" && len(m) >= 2 && m[1] == "async":
		switch {
		case len(m) >= 5 && (m[2] == "ca" || m[2] == "cg") && strings.HasPrefix(m[3], "shared") && m[4] == "global":
			in.Kind = KCpAsync
			if err := nargs(3, 4); err != nil {
				return err
			}
			if err := mem(0); err != nil {
				return err
			}
			return mem(1)
		case in.Op == "cp.async.commit_group":
			in.Kind = KCpCommit
			return nargs(0, 0)
		case in.Op == "cp.async.wait_group":
			in.Kind = KCpWait
			if err := nargs(1, 1); err != nil {
				return err
			}
			if in.Args[0].Kind != OImm && in.Args[0].Kind != ORef {
				return bad("the group count is an immediate")
			}
			return nil
		case in.Op == "cp.async.wait_all":
			in.Kind = KCpWaitAll
			return nargs(0, 0)
		case len(m) >= 5 && m[2] == "mbarrier" && m[3] == "arrive":
			in.Kind = KCpMbarArrive
			if err := nargs(1, 1); err != nil {
				return err
			}
			return mem(0)
		}
	case m[0] == "mbarrier" && len(m) >= 3:
		switch m[1] {
		case "init":
			in.Kind = KMbarInit
			if err := nargs(2, 2); err != nil {
				return err
			}
			return mem(0)
		case "arrive":
			if has(m, "expect_tx") {
				in.Kind = KMbarExpectArrive
				if err := nargs(3, 3); err != nil {
					return err
				}
			} else {
				in.Kind = KMbarArrive
				if err := nargs(2, 3); err != nil {
					return err
				}
			}
			return mem(1)
		case "test_wait", "try_wait":
			if !has(m, "parity") {
				return bad("only the .parity form is modeled")
			}
			in.Kind = KMbarTestWait
			if m[1] == "try_wait" {
				in.Kind = KMbarTryWait
			}
			if err := nargs(3, 4); err != nil {
				return err
			}
			return mem(1)
		}
	case m[0] == "mma" && has(m, "sync"):
		sh, ok := MmaShapeOf(in.Op)
		if !ok {
			return bad("no model for this mma shape and type (modeled: m16n8k8 and m16n8k4 .row.col.f32.tf32.tf32.f32, m16n8k16 .row.col.f32.{f16,bf16}.{f16,bf16}.f32)")
		}
		in.Kind = KMma
		if err := nargs(4, 4); err != nil {
			return err
		}
		want := [4]int{4, sh.ARegs, sh.BRegs, 4}
		for i, w := range want {
			if in.Args[i].Kind != OVec || len(in.Args[i].Elems) != w {
				return bad("operand %d must be a vector of %d registers", i+1, w)
			}
		}
		return nil
	}
	switch {
	case vop4Ops[m[0]]:
		if len(m) < 4 || len(m) > 5 || !isU32S32(m[1]) || !isU32S32(m[2]) || !isU32S32(m[3]) || len(m) == 5 && m[4] != "sat" && m[4] != "add" {
			return bad("modeled as %s.dtype.atype.btype{.sat|.add} with .u32 or .s32 types", m[0])
		}
		in.Kind = KVop4
		if err := nargs(4, 4); err != nil {
			return err
		}
		for _, a := range in.Args {
			if a.Kind == OMem || a.Kind == OVec {
				return bad("operands are registers or immediates")
			}
		}
		return nil
	case m[0] == "setp" && len(m) == 3 && strings.Contains("eq ne lt le gt ge", m[1]) && strings.Contains("b32 u32 s32 b64 u64 s64", m[2]):
		in.Kind = KSetp
		return nargs(3, 3)
	case m[0] == "ldmatrix" && ldmatrixOp(m) != "":
		in.Kind = KLdmatrix
		if err := nargs(2, 2); err != nil {
			return err
		}
		n := map[string]int{"x1": 1, "x2": 2, "x4": 4}[m[4]]
		if in.Args[0].Kind != OVec || len(in.Args[0].Elems) != n {
			return bad("operand 1 must be a vector of %d registers", n)
		}
		return mem(1)
	case m[0] == "wgmma" && len(m) >= 2 && m[1] == "mma_async":
		sh, ok := WgmmaShapeOf(in.Op)
		if !ok {
			return bad("no model for this wgmma shape and type (modeled: m64nNk8 .f32.tf32.tf32, m64nNk16 .f32.bf16.bf16 and .f32.f16.f16, N a multiple of 8 up to 256, A in shared memory or registers)")
		}
		in.Kind = KWgmma
		// ptx.md §6.1: d, a-desc, b-desc, scale-d, imm-scale-a, imm-scale-b
		// and for bf16/f16 imm-trans-a, imm-trans-b; with A in registers
		// ({a regs}) there is no imm-trans-a
		regA := len(in.Args) > 1 && in.Args[1].Kind == OVec
		want := 6
		if sh.In != "tf32" {
			want = 8
			if regA {
				want = 7
			}
		}
		if err := nargs(want, want); err != nil {
			return err
		}
		if in.Args[0].Kind != OVec || len(in.Args[0].Elems) != sh.N/2 {
			return bad("operand 1 must be a vector of %d accumulator registers", sh.N/2)
		}
		if regA && len(in.Args[1].Elems) != 4 {
			return bad("operand 2 (A in registers) must be a vector of 4 registers")
		}
		return nil
	case in.Op == "wgmma.fence.sync.aligned" || in.Op == "wgmma.commit_group.sync.aligned":
		in.Kind = KWgmmaFence
		return nargs(0, 0)
	case in.Op == "wgmma.wait_group.sync.aligned":
		in.Kind = KWgmmaWait
		return nargs(1, 1)
	case m[0] == "cp" && tensorRank(m) > 0:
		return classifyTMA(in, nargs, bad)
	case in.Op == "cp.async.bulk.commit_group" || in.Op == "cp.async.bulk.wait_group" || in.Op == "cp.async.bulk.wait_group.read":
		in.Kind = KBulkGroup
		if m[3] == "commit_group" {
			return nargs(0, 0)
		}
		return nargs(1, 1)
	case m[0] == "mbarrier" && len(m) >= 3 && (m[1] == "expect_tx" || m[1] == "complete_tx"):
		in.Kind = KMbarTx
		if err := nargs(2, 2); err != nil {
			return err
		}
		return mem(0)
	case m[0] == "barrier" && len(m) >= 3 && m[1] == "cluster" && (m[2] == "arrive" || m[2] == "wait"):
		in.Kind = KClusterArrive
		if m[2] == "wait" {
			in.Kind = KClusterWait
		}
		return nargs(0, 0)
	case m[0] == "mapa" && (len(m) == 2 || len(m) == 3 && m[1] == "shared::cluster") && (m[len(m)-1] == "u32" || m[len(m)-1] == "u64"):
		in.Kind = KMapa
		return nargs(3, 3)
	case m[0] == "ld" || m[0] == "st" || m[0] == "atom" || m[0] == "red":
		return classifyMem(in, bad, nargs, mem)
	}
	return bad("no model for this PTX instruction in Weft's CUDA-C semantics")
}

// ldmatrixOp is the opcode of the modeled ldmatrix forms that m spells, or
// "" (m8n8, x1/x2/x4, optional .trans, .shared or .shared::cta, .b16).
func ldmatrixOp(m []string) string {
	if len(m) < 6 || m[1] != "sync" || m[2] != "aligned" || m[3] != "m8n8" {
		return ""
	}
	if m[4] != "x1" && m[4] != "x2" && m[4] != "x4" {
		return ""
	}
	rest := m[5:]
	if rest[0] == "trans" {
		rest = rest[1:]
	}
	if len(rest) != 2 || (rest[0] != "shared" && rest[0] != "shared::cta") || rest[1] != "b16" {
		return ""
	}
	return strings.Join(m, ".")
}

// tensorRank is N of a cp{.reduce}.async.bulk.tensor.Nd opcode, or 0.
func tensorRank(m []string) int {
	i := 1
	if len(m) > 1 && m[1] == "reduce" {
		i = 2
	}
	if len(m) < i+4 || m[i] != "async" || m[i+1] != "bulk" || m[i+2] != "tensor" {
		return 0
	}
	d := m[i+3]
	if len(d) == 2 && d[1] == 'd' && d[0] >= '1' && d[0] <= '5' {
		return int(d[0] - '0')
	}
	return 0
}

// classifyTMA checks the tensor forms of cp.async.bulk: a load into shared
// memory completing on an mbarrier (optionally multicast), a store, and a
// reduce-add into global memory.
func classifyTMA(in *Inst, nargs func(lo, hi int) error, bad func(string, ...any) error) error {
	m := in.Mods
	n := tensorRank(m)
	tensorOp := func(i int) error {
		if in.Args[i].Kind != OMem || len(in.Args[i].Elems) != n {
			return bad("operand %d must be [tensorMap, {%d coordinates}]", i+1, n)
		}
		return nil
	}
	plainMem := func(i int) error {
		if in.Args[i].Kind != OMem || len(in.Args[i].Elems) != 0 {
			return bad("operand %d must be an [address]", i+1)
		}
		return nil
	}
	rest := strings.Join(m[5:], ".")
	if m[1] == "reduce" {
		rest = strings.Join(m[6:], ".")
	}
	switch {
	case m[1] != "reduce" && strings.HasPrefix(rest, "shared::cluster.global") && strings.Contains(rest, "mbarrier::complete_tx::bytes") && !strings.Contains(rest, "im2col"):
		in.Kind = KTmaLoad
		hi := 3
		if strings.Contains(rest, "multicast::cluster") {
			hi = 4
		}
		if err := nargs(hi, hi); err != nil {
			return err
		}
		if err := plainMem(0); err != nil {
			return err
		}
		if err := tensorOp(1); err != nil {
			return err
		}
		return plainMem(2)
	case m[1] != "reduce" && strings.HasPrefix(rest, "global.shared::cta") && strings.HasSuffix(rest, "bulk_group"):
		in.Kind = KTmaStore
	case m[1] == "reduce" && strings.HasPrefix(rest, "global.shared::cta.add") && strings.HasSuffix(rest, "bulk_group"):
		in.Kind = KTmaReduce
	case strings.Contains(rest, "im2col"):
		// the im2col load mode (PTX ISA "Tensor Access Modes": a bounding box
		// in the spatial dimensions walked with the map's channel and pixel
		// ranges and the instruction's im2col offsets) is not modeled: name it
		return bad("the im2col mode of the tensor copy is not modeled (only the tile mode: cuTensorMapEncodeTiled maps)")
	default:
		return bad("no model for this form of the tensor copy (modeled: tile loads completing on an mbarrier, optionally multicast; tile stores and reduce-add with bulk groups)")
	}
	if err := nargs(2, 2); err != nil {
		return err
	}
	if err := tensorOp(0); err != nil {
		return err
	}
	return plainMem(1)
}

// MemSizes are the widths of the types ld/st/atom models accept.
var memSizes = map[string]int{"b32": 4, "u32": 4, "s32": 4, "f32": 4, "b64": 8, "u64": 8, "s64": 8, "f64": 8}

// MemSize is the access width of an ld/st/atom form's type suffix.
func MemSize(in *Inst) int { return memSizes[in.Mods[len(in.Mods)-1]] }

// Strong reports an ld/st/atom with a memory-order qualifier (.relaxed,
// .acquire, .release, .volatile) or an atom/red: a strong access (PTX ISA
// "Memory Consistency Model": morally strong accesses do not race).
func Strong(in *Inst) bool {
	if in.Kind == KAtomShared {
		return true
	}
	for _, x := range in.Mods[1:] {
		switch x {
		case "relaxed", "acquire", "release", "volatile":
			return true
		}
	}
	return false
}

// classifyMem checks ld, st, atom and red on the shared state space (PTX ISA
// "Data Movement and Conversion Instructions: ld, st", "Parallel
// Synchronization and Communication Instructions: atom, red"): the modeled
// forms are scalar accesses of 32 or 64 bits in shared::cta or
// shared::cluster (distributed shared memory), optionally with a memory
// order and scope, and atom/red .add on integers.
func classifyMem(in *Inst, bad func(string, ...any) error, nargs func(int, int) error, mem func(int) error) error {
	m := in.Mods
	space := ""
	op := ""
	if len(m) < 2 {
		// "red;", "ld;": no state space and no type
		return bad("needs its state space and type (ld/st/atom/red are modeled on .shared, .shared::cta and .shared::cluster)")
	}
	for _, x := range m[1 : len(m)-1] {
		switch x {
		case "shared", "shared::cta", "shared::cluster":
			space = x
		case "weak", "relaxed", "acquire", "release", "volatile", "cta", "cluster", "gpu", "sys", "global":
			if x == "global" {
				return bad("no model for this PTX instruction in Weft's CUDA-C semantics (ld/st/atom/red are modeled on .shared, .shared::cta and .shared::cluster)")
			}
		case "add":
			op = x
		default:
			return bad("no model for the qualifier .%s (modeled: scalar ld/st/atom.add/red.add of shared::cta or shared::cluster memory)", x)
		}
	}
	if space == "" {
		return bad("no model for this PTX instruction in Weft's CUDA-C semantics (ld/st/atom/red are modeled on .shared, .shared::cta and .shared::cluster)")
	}
	if memSizes[m[len(m)-1]] == 0 {
		return bad("no model for the type .%s (modeled: b32 u32 s32 f32 b64 u64 s64 f64)", m[len(m)-1])
	}
	switch m[0] {
	case "ld", "st":
		if op != "" {
			return bad("no model for this form")
		}
		if err := nargs(2, 2); err != nil {
			return err
		}
		in.Kind = KLdShared
		if m[0] == "st" {
			in.Kind = KStShared
			return mem(0)
		}
		return mem(1)
	}
	if op != "add" || m[len(m)-1][0] == 'f' || m[len(m)-1][0] == 'b' {
		return bad("no model for this form (modeled: .add on u32, s32, u64, s64)")
	}
	in.Kind = KAtomShared
	if m[0] == "red" {
		if err := nargs(2, 2); err != nil {
			return err
		}
		return mem(0)
	}
	if err := nargs(3, 3); err != nil {
		return err
	}
	return mem(1)
}
