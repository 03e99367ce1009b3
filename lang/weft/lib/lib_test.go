package lib

import (
	"fmt"
	"strings"
	"testing"

	"weft.dev/weft/diag"
)

func TestStdLoads(t *testing.T) {
	l, err := Std()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"DRAM", "CudaGmemLinear", "CudaSmemLinear", "CudaRmem", "Sm80_RmemMatrixA", "Sm80_RmemMatrixB", "Sm80_RmemMatrixD", "Sm90_SmemSwizzled", "Sm90_RmemMatrixA", "Sm90_RmemMatrixD", "CudaGridConstant", "CudaBasicDeviceVisible", "CudaBasicSmem", "CudaDeviceVisibleAtomicity16B", "CudaDeviceVisibleLinear", "CudaSmemAtomicity16B"} {
		if l.Memories[n] == nil {
			t.Errorf("memory %s missing", n)
		}
	}
	for _, n := range []string{"CudaDeviceBarrier", "CudaMbarrier", "CudaCommitGroup", "CudaClusterSync", "CudaEvent"} {
		if l.Barriers[n] == nil {
			t.Errorf("barrier memory %s missing", n)
		}
	}
	if l.Windows["CUtensorMap"] != l.Windows["Sm90_tensorMap"] || l.Windows["CUtensorMap"] == nil {
		t.Error("CUtensorMap must alias Sm90_tensorMap")
	}
	distinct := 0
	for n, u := range l.Units {
		if u.Name == n {
			distinct++
		}
	}
	if distinct != 13 {
		t.Errorf("%d units, want the 13 of Fig. 11", distinct)
	}
	if l.Units["cta_in_cluster"] != l.Units["cuda_cta_in_cluster"] {
		t.Error("cta_in_cluster (seed 000 §2.2) must alias cuda_cta_in_cluster")
	}
	if got := l.String(); !strings.Contains(got, "library(") {
		t.Error(got)
	}
}

func TestDerivesFrom(t *testing.T) {
	l := MustStd()
	cases := []struct {
		m, base string
		want    bool
	}{
		{"CudaSmemLinear", "CudaBasicSmem", true},
		{"CudaSmemLinear", "CudaDeviceVisibleLinear", true},
		{"CudaSmemLinear", "CudaBasicDeviceVisible", true},
		{"CudaSmemLinear", "CudaSmemLinear", true},
		{"CudaGmemLinear", "CudaBasicSmem", false},
		{"CudaGmemLinear", "CudaDeviceVisibleLinear", true},
		{"CudaRmem", "CudaBasicDeviceVisible", false},
		{"Sm90_SmemSwizzled", "CudaSmemAtomicity16B", true},
		{"Sm90_SmemSwizzled", "CudaDeviceVisibleLinear", false},
		{"DRAM", "CudaGmemLinear", false},
	}
	for _, c := range cases {
		if got := l.Memories[c.m].DerivesFrom(c.base); got != c.want {
			t.Errorf("%s.DerivesFrom(%s) = %v, want %v", c.m, c.base, got, c.want)
		}
	}
	if !l.Barriers["CudaMbarrier"].DerivesFrom("CudaDeviceBarrier") || l.Barriers["CudaEvent"].DerivesFrom("CudaDeviceBarrier") {
		t.Error("barrier derivation wrong")
	}
}

// TestFig15 checks the qualitative timelines and their order (seed 000
// Fig. 15).
func TestFig15(t *testing.T) {
	l := MustStd()
	want := "cpu_in_order_qual:cpu cpu_cuda_stream_qual:strm cuda_in_order_rmem_qual:cuda1 cuda_in_order_ram_qual:cuda2 Sm80_cp_async_qual:Sm80 tma_to_smem_async_qual:tmaS tma_to_gmem_async_qual:tmaG wmma_async_rmem_a_qual:wgA wmma_async_rmem_d_qual:wgD wmma_async_smem_qual:wgS wmma_zero_qual:wg0"
	var got []string
	for i, q := range l.QualOrder {
		if q.Index != i {
			t.Errorf("%s has index %d at position %d", q.Name, q.Index, i)
		}
		got = append(got, q.Name+":"+q.Abbrev)
	}
	if g := strings.Join(got, " "); g != want {
		t.Errorf("Fig. 15:\n got %s\nwant %s", g, want)
	}
}

// TestFig16 checks every row of seed 000 Fig. 16: transitivity, the "full"
// cells and the "temp." cells, in the figure's column order.
func TestFig16(t *testing.T) {
	l := MustStd()
	// Columns: cpu strm cuda1 cuda2 Sm80 tmaS tmaG wgA wgD wgS wg0;
	// F = full, t = temp., . = empty.
	rows := []struct {
		name  string
		trans bool
		cells string
	}{
		{"empty_sync_tl", false, "..........."},
		{"cpu_in_order", true, "F.........."},
		{"cuda_stream_sync", true, ".F........."},
		{"cuda_in_order", true, ".tFFttttttt"},
		{"cuda_temporal", false, ".tttttttttt"},
		{"Sm80_cp_async", false, "....F......"},
		{"Sm80_generic", false, "..FFFtttttt"},
		{"tma_to_smem_async", false, ".....F....."},
		{"tma_to_gmem_async", false, "......F...."},
		{"wmma_async_smem", false, ".........F."},
		{"wmma_fence_1", false, "..F....FF.."},
		{"wmma_fence_2", false, ".......FF.."},
		{"wmma_async", false, ".......FFF."},
		{"cuda_async_proxy", false, ".....FF..F."},
		{"cuda_async_proxy_wmma", false, ".....FFFFF."},
		{"cuda_generic_and_async", false, ".tFFFFFttFt"},
	}
	names := map[string]bool{}
	for _, r := range rows {
		names[r.name] = true
		s := l.Timelines[r.name]
		if s == nil {
			t.Errorf("sync timeline %s missing", r.name)
			continue
		}
		var b strings.Builder
		for _, q := range l.QualOrder {
			switch s.Cell(q) {
			case "full":
				b.WriteByte('F')
			case "temp.":
				b.WriteByte('t')
			default:
				b.WriteByte('.')
			}
		}
		if b.String() != r.cells || s.Transitive != r.trans {
			t.Errorf("%s: cells %s trnstv %v, want %s %v", r.name, b.String(), s.Transitive, r.cells, r.trans)
		}
		if s.FullSet&^s.TemporalSet != 0 {
			t.Errorf("%s: full set not inside temporal set", r.name)
		}
	}
	for n, s := range l.Timelines {
		if s.Name == n && !names[n] {
			t.Errorf("sync timeline %s is not in Fig. 16", n)
		}
	}
	// Aliases the seeds print.
	for alias, real := range map[string]string{"cuda_classic": "cuda_in_order", "wgmma_async": "wmma_async", "cuda_generic_and_async_proxy": "cuda_generic_and_async"} {
		if l.Timelines[alias] != l.Timelines[real] {
			t.Errorf("%s should alias %s", alias, real)
		}
	}
	// Instruction and async-block timelines.
	var instr, async []string
	for _, n := range sortedKeys(l.Timelines) {
		s := l.Timelines[n]
		if s.Name != n {
			continue
		}
		if s.Instr {
			instr = append(instr, n)
		}
		if s.AsyncBlock {
			async = append(async, n)
		}
	}
	if g := strings.Join(instr, " "); g != "Sm80_cp_async cpu_in_order cuda_in_order tma_to_gmem_async tma_to_smem_async wmma_async" {
		t.Errorf("instruction timelines: %s", g)
	}
	if g := strings.Join(async, " "); g != "Sm80_cp_async tma_to_gmem_async tma_to_smem_async wmma_async" {
		t.Errorf("CudaAsync timelines: %s", g)
	}
	// implements relations (seed 002 "Sm80_generic = cuda_classic | Sm80_cp_async").
	g, io, cp := l.Timelines["Sm80_generic"], l.Timelines["cuda_in_order"], l.Timelines["Sm80_cp_async"]
	if !g.ImplementsSecond(cp) || g.ImplementsSecond(io) || !g.ImplementsFirst(cp) {
		t.Error("implements relations of Sm80_generic wrong")
	}
	if !io.ImplementsFirst(l.Timelines["empty_sync_tl"]) || cp.ImplementsFirst(io) {
		t.Error("implements relations of cuda_in_order wrong")
	}
}

func TestScalarInstrs(t *testing.T) {
	l := MustStd()
	in := l.Instr("cuda_fma_f32")
	if in == nil {
		t.Fatal("cuda_fma_f32 missing")
	}
	if in.TL != "cuda_in_order" || in.CUDA != "{dst} += {a} * {b};" || len(in.AccessOrder) != 3 {
		t.Errorf("cuda_fma_f32 = %+v", in)
	}
	modes := ""
	for _, a := range in.AccessOrder {
		modes += a.Param + ":" + a.Mode + ":" + a.Init + " "
	}
	if modes != "dst:rw:cuda_in_order_ram_qual a:r:cuda_in_order_ram_qual b:r:cuda_in_order_ram_qual " {
		t.Errorf("modes: %s", modes)
	}
	if in := l.Instr("cuda_copy_bf16"); in == nil || in.Access["dst"].Mode != "w" || in.Access["src"].Mode != "r" {
		t.Errorf("cuda_copy_bf16 = %+v", in)
	}
	for _, ty := range []string{"f16", "bf16", "f32", "f64", "i32"} {
		for _, op := range []string{"copy", "zero", "neg", "add", "sub", "mul", "reduce_add", "fma"} {
			if l.Instr("cuda_"+op+"_"+ty) == nil {
				t.Errorf("cuda_%s_%s missing", op, ty)
			}
		}
	}
}

func TestLoadErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"X = Bogus(a=1)\n", `W0241.*unknown library declaration kind "Bogus"`},
		{"q = QualTL(abbrev=1)\n", `W0243.*abbrev= of QualTL must be a string`},
		{"s = SyncTL(full=[nope])\n", `W0244.*nope is not a qualitative timeline`},
		{"m = DataMemory(space=\"vram\")\n", `W0243.*space must be`},
		{"m = DataMemory(space=\"smem\", base=[n])\n", `W0244.*base n is not a data memory`},
		{"m = DataMemory(space=\"smem\", color=1)\n", `W0243.*DataMemory has no field color`},
		{"a = DataMemory(space=\"smem\")\na = DataMemory(space=\"smem\")\n", `W0240.*defined twice`},
		{"a = b\n", `W0244.*not a library declaration`},
		{"@instr(tl=nope, unit=cuda_thread, cuda=\"\")\ndef f(x: f32):\n    x = 1.0\n", `W0245.*tl= must be an instruction timeline`},
		{"@instr(unit=cuda_thread, cuda=\"\")\n@access(y, out_of_order=True)\ndef f(x: f32):\n    x = 1.0\n", `W0245.*needs tl=`},
	}
	for _, c := range cases {
		_, err := Load(diag.NewFile("t.weft", []byte(c.src)))
		if err == nil {
			t.Errorf("%q: no error, want %s", c.src, c.want)
			continue
		}
		if !regexpMatch(c.want, err.Error()) {
			t.Errorf("%q: error %v, want %s", c.src, err, c.want)
		}
	}
}

// TestParseInstrDefaults checks the τ_a defaults of seed 000 Fig. 2 and the
// access modes of §5.2.3 on a user-declared instruction.
func TestParseInstrDefaults(t *testing.T) {
	src := `@instr(tl=Sm80_cp_async, unit=cuda_thread, cuda="cp.async {smem} {gmem}")
@access(gmem, convergent=True, ext=[Sm80_cp_async_qual, cuda_in_order_ram_qual], atomic=[Sm80_cp_async_qual], units=[cuda_thread])
def cp(size: size, smem: [f32][size] @ CudaSmemLinear, gmem: [f32][size] @ CudaGmemLinear, acc: f32 @ CudaRmem):
    for i in seq(0, size):
        smem[i] = gmem[i]
        acc += gmem[i]
`
	l := MustStd()
	var errs diag.List
	f := syntaxParse(t, src)
	in := ParseInstr(f, l, &errs)
	if errs.Len() > 0 {
		t.Fatal(errs.Err())
	}
	if in.TL != "Sm80_cp_async" || in.CPU || syntaxString(in.Unit) != "cuda_thread" || in.CUDA != "cp.async {smem} {gmem}" {
		t.Errorf("header %+v", in)
	}
	got := ""
	for _, a := range in.AccessOrder {
		got += fmt.Sprintf("%s:%d:%s:%s:%s:ooo=%v:cvg=%v:init=%s:ext=%v:atomic=%v:units=%d\n", a.Param, a.Index, a.Elem, a.Mem, a.Mode, a.OutOfOrder, a.Convergent, a.Init, a.Ext, a.Atomic, len(a.Units))
	}
	want := `smem:1:f32:CudaSmemLinear:w:ooo=true:cvg=false:init=Sm80_cp_async_qual:ext=[Sm80_cp_async_qual]:atomic=[]:units=0
gmem:2:f32:CudaGmemLinear:r:ooo=true:cvg=true:init=Sm80_cp_async_qual:ext=[Sm80_cp_async_qual cuda_in_order_ram_qual]:atomic=[Sm80_cp_async_qual]:units=1
acc:3:f32:CudaRmem:rw:ooo=true:cvg=false:init=Sm80_cp_async_qual:ext=[Sm80_cp_async_qual]:atomic=[]:units=0
`
	if got != want {
		t.Errorf("accesses:\n%s\nwant:\n%s", got, want)
	}
	// In-order instructions: registers vs memory.
	f2 := syntaxParse(t, "@instr(tl=cuda_in_order, unit=cuda_warp, cuda=\"\")\ndef z(r: [f32][16, 8] @ Sm80_RmemMatrixD, g: f32[4] @ CudaGmemLinear):\n    r[0, 0] = g[0]\n")
	in2 := ParseInstr(f2, l, &errs)
	if in2.Access["r"].Init != "cuda_in_order_rmem_qual" || in2.Access["g"].Init != "cuda_in_order_ram_qual" || in2.Access["r"].OutOfOrder {
		t.Errorf("in-order defaults: %+v %+v", in2.Access["r"], in2.Access["g"])
	}
	if IsInstr(f2) != true {
		t.Error("IsInstr")
	}
}

// TestLoadUserLibrary loads a library made of other files.
func TestLoadUserLibrary(t *testing.T) {
	l, err := Load(diag.NewFile("a.weft", []byte("q1 = QualTL(abbrev=\"a\")\nq2 = QualTL(abbrev=\"b\")\ns = SyncTL(transitive=True, full=[q1], temp=[q2], instr=True)\nt = s\nm = DataMemory(space=\"smem\", cuda=\"rw\")\nn = DataMemory(base=[m], space=\"smem\")\n")))
	if err != nil {
		t.Fatal(err)
	}
	s := l.Timelines["t"]
	if s == nil || s.Name != "s" || s.FullSet != 1 || s.TemporalSet != 3 || !s.Transitive || s.Cell(l.Quals["q2"]) != "temp." {
		t.Errorf("sync timeline %+v", s)
	}
	if !l.Memories["n"].DerivesFrom("m") || l.Memories["m"].DerivesFrom("n") || !l.Memories["m"].CUDA.Can('w') || l.Memories["m"].CUDA.Can('c') {
		t.Error("memories")
	}
}

// FuzzLoad: no library text makes Load panic, and every problem it reports
// has a code and a position.
func FuzzLoad(f *testing.F) {
	for _, n := range []string{"memories.weft", "units.weft", "timelines.weft", "scalar.weft"} {
		src, _ := stdFiles.ReadFile(n)
		f.Add(string(src))
	}
	f.Add("s = SyncTL(full=[q])\nq = QualTL()\nm = DataMemory(base=[m], space=\"smem\")\n")
	f.Fuzz(func(t *testing.T, src string) {
		l, err := Load(diag.NewFile("fuzz.weft", []byte(src)))
		if l == nil {
			t.Fatal("nil library")
		}
		if le, ok := err.(*diag.ListError); ok {
			for _, d := range le.List.Diags {
				if d.Code == "" || !d.Pos.IsValid() {
					t.Fatalf("diagnostic without code or position: %v", d)
				}
			}
		}
	})
}

// BenchmarkLoadStd loads the embedded library from source (Std caches it;
// this is the cost of the first call).
func BenchmarkLoadStd(b *testing.B) {
	names := []string{"memories.weft", "units.weft", "timelines.weft", "scalar.weft"}
	var files []*diag.File
	for _, n := range names {
		src, _ := stdFiles.ReadFile(n)
		files = append(files, diag.NewFile(n, src))
	}
	for range b.N {
		if _, err := Load(files...); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAccessModesThroughWindows: writes through a window statement count
// for the windowed parameter.
func TestAccessModesThroughWindows(t *testing.T) {
	p := syntaxParse(t, `def f(n: size, a: f32[8], b: f32[8], c: f32[8], d: f32[8]):
    w = a[0:4]
    w[0] = b[1]
    v = w[1:3]
    v[0] += 1.0
    u = c[2:4]
    d[0] = u[0]
`)
	m := AccessModes(p)
	got := fmt.Sprintf("a=%s b=%s c=%s d=%s n=%s", m["a"], m["b"], m["c"], m["d"], m["n"])
	if got != "a=rw b=r c=r d=w n=" {
		t.Errorf("modes %s", got)
	}
}
