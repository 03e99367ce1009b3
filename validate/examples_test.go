package validate_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/frontend"
	"weft.dev/weft/validate"

	_ "weft.dev/weft/lang/audala/driver"
	_ "weft.dev/weft/lang/cudac/driver"
	_ "weft.dev/weft/lang/prism/driver"
	_ "weft.dev/weft/lang/weft/driver"
)

// example is one validation of an example with its inputs and the exact
// verdict lines (issue 12, item 8: every example in CI).
type example struct {
	args  []string
	want  string // stdout, exactly; a line ending in "..." matches by prefix
	rc    int
	heavy bool // skipped under -short
}

const ex = "../examples/"

var examples = []example{
	{args: []string{ex + "weft/vector_add.weft"}, want: "vector_add: match (X bit for bit, Y bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/gemv_smem.weft"}, want: "gemv_smem: match (A bit for bit, x bit for bit, y bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/gemv_cuda.weft"}, want: "gemv_cuda: match (A bit for bit, x bit for bit, y bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/gemm_seq.weft"}, want: "gemm: match (A bit for bit, B bit for bit, C bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/gemv_seq.weft"}, want: "gemv: match (A bit for bit, x bit for bit, y bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/matmul_seq.weft"}, want: "matmul: match (A bit for bit, B bit for bit, C bit for bit; no race or deadlock)"},
	// matmul_bt_seq's check line asks for 256 x 512 x 256 (33.5 M
	// multiply-adds, 28 s of interpretation): a sequential program's
	// generated C is the same at any size, so the suite runs it smaller.
	{args: []string{ex + "weft/matmul_bt_seq.weft", "M=64", "N=128", "K=64"}, want: "matmul_bt: match (A bit for bit, B bit for bit, C bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/gemm/xgemm_sm80.weft"}, want: "xgemm_Sm80_fence: match (A bit for bit, B bit for bit, C within 0.0314, max difference 0.0022; no race or deadlock)"},
	{args: []string{ex + "weft/gemm/xgemm_sm90.weft"}, want: "xgemm_Sm90_wgmma: match (A bit for bit, B bit for bit, C within 0.258, max difference 0.0162; no race or deadlock)", heavy: true},
	{args: []string{ex + "weft/sync/cp_async_simple.weft"}, want: "Sm80_cp_async_simple: match (src bit for bit, out bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/sync/cp_async_ring.weft"}, want: "cp_async_ring: match (A bit for bit, y bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/sync/mbarrier_ring.weft"}, want: "mbarrier_ring: match (x bit for bit, y bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/sync/smem_sum.weft"}, want: "smem_sum: match (gmem bit for bit, out bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/sync/smem_sum_mbarrier.weft"}, want: "smem_sum_mbarrier: match (gmem bit for bit, out bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/sync/sync_warp_cta.weft"}, want: "sync_warp_cta: match (out bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/sync/smem_matmul.weft"}, want: "smem_matmul: match (A bit for bit, B bit for bit, C bit for bit; no race or deadlock)", heavy: true},
	{args: []string{ex + "weft/sync/xgemm_Sm80_fence.weft"}, heavy: true, want: `xgemm_Sm80_fence (M=192 N=256 K=64): match (A bit for bit, B bit for bit, C within 0.063, max difference 0.003; no race or deadlock)
xgemm_Sm80_fence (M=384 N=512 K=32): match (A bit for bit, B bit for bit, C within 0.0314, max difference 0.00244; no race or deadlock)`},
	{args: []string{ex + "weft/sync/xgemm_Sm90_ring.weft"}, want: "xgemm_Sm90_ring: match (A bit for bit, B bit for bit, C within 0.258, max difference 0.0162; no race or deadlock)", heavy: true},

	// Exo's printed dialect (issue 19): data arguments from each file's
	// `# run:` line.
	{args: []string{ex + "weft/exo/config_implicit.weft"}, want: "config_implicit: match (x bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/exo/config_scale.weft"}, want: "config_scale: match (src bit for bit, dst bit for bit, scale bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/exo/externs.weft"}, want: "externs: match (x bit for bit, y bit for bit, result bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/exo/par_loop.weft"}, want: "par_loop: match (A bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/exo/real_scale.weft"}, want: "real_scale: match (x bit for bit, y bit for bit, alpha bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/exo/ring_add.weft"}, want: "ring_add: match (A bit for bit, B bit for bit, C bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/exo/avx2_fma.weft"}, want: "avx2_fma: match (x bit for bit, y bit for bit; no race or deadlock)"}, // host AVX2/FMA (<immintrin.h>)
	{args: []string{ex + "weft/exo/size_product.weft"}, want: "size_product: match (arr bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/exo/tma_ring_gemm.weft"}, want: "tma_ring_gemm: match (A bit for bit, B bit for bit, C bit for bit; no race or deadlock)", heavy: true},
	// clusters of more than one CTA (lang/cudac/sem/cluster.go): remote
	// mbarrier arrives in a cluster of 4, TMA multicast in a cluster of 2
	{args: []string{ex + "weft/exo/multicast_arrive.weft"}, want: "multicast_arrive: match (A bit for bit, C bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/exo/tk_split_gemm.weft"}, want: "tk_split_gemm: match (A bit for bit, B bit for bit, C bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/exo/tk_gemm_1cta.weft"}, want: "tk_gemm_1cta: match (A bit for bit, B bit for bit, C bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/exo/tma_tester.weft"}, want: "tma_tester: match (d_x bit for bit, d_y bit for bit, d_sum bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/exo/rmem_uniform.weft"}, want: "rmem_uniform: match (h_src bit for bit, h_dst bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/exo/rmem_uniform_grid_constant.weft"}, want: "rmem_uniform_grid_constant: match (h_src bit for bit, h_dst bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/exo/shfl_xor.weft"}, want: "shfl_xor: match (h_A bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/exo/gemv_warp_coop_8.weft"}, want: "gemv_warp_coop_8: match (d_A bit for bit, d_x bit for bit, d_y bit for bit; no race or deadlock)"},
	{args: []string{ex + "weft/exo/tk_ping_pong_gemm.weft"}, want: "tk_ping_pong_gemm: match (A bit for bit, B bit for bit, C bit for bit; no race or deadlock)"},

	{args: []string{ex + "prism/fig6_tf32.prism", "--arg", "A=ones:128", "--arg", "B=iota:64", "--arg", "C=zeros:128", "--arg", "M=16", "--arg", "N=8", "--arg", "K=8"},
		want: "fig6_tf32: match (1 lines of printed outputs; no race or deadlock)"},
	{args: []string{ex + "prism/fig13_async.prism", "--blocks", "2", "--arg", "src=iota:256", "--arg", "dst=zeros:256"},
		want: "fig13_async: match (1 lines of printed outputs; no race or deadlock)"},
	{args: []string{ex + "prism/fig2_mma.prism", "--arg", "out=zeros:128"}, want: "fig2_mma: match (1 lines of printed outputs; no race or deadlock)"},
	{args: []string{ex + "prism/fig8_split.prism", "--blocks", "2", "--arg", "out=zeros:8"}, want: "fig8_split: match (1 lines of printed outputs; no race or deadlock)"},
	{args: []string{ex + "prism/b1_tf32.prism", "--arg", "A=ones:128", "--arg", "B=iota:64", "--arg", "C=zeros:128", "--arg", "M=16", "--arg", "N=8", "--arg", "K=8"},
		want: "b1_tf32: match (1 lines of printed outputs; no race or deadlock)"},
	{args: []string{ex + "prism/b2_sgemm.prism", "--blocks", "2", "--arg", "A=ones:2048", "--arg", "B=iota:1024", "--arg", "C=zeros:8192", "--arg", "M=128", "--arg", "N=64", "--arg", "K=16", "--arg", "alpha=1", "--arg", "beta=0"},
		want: "b2_sgemm: match (1 lines of printed outputs; no race or deadlock)"},
	// The look-back scan polls a volatile flag behind __threadfence: strong
	// accesses and the fences' release/acquire (lang/cudac/sem/fence.go).
	{args: []string{ex + "prism/b3_scan.prism", "--blocks", "2", "--arg", "n=32768", "--arg", "x=ones:32768", "--arg", "block_idx_counter=zeros:1", "--arg", "block_infos=zeros:4"},
		want: "b3_scan: match (2 lines of printed outputs; no race or deadlock)"},
	{args: []string{ex + "prism/b4_cub.prism", "--blocks", "2", "--arg", "src=iota:512", "--arg", "dst=zeros:512", "--arg", "scratch=zeros:512"},
		want: "b4_cub: match (2 lines of printed outputs; no race or deadlock)"},
	{args: []string{ex + "prism/p6_broader_call.prism", "--arg", "x=iota:128", "--arg", "y=zeros:128"}, want: "p6_broader_call: match (1 lines of printed outputs; no race or deadlock)"},
	{args: []string{ex + "prism/warp_scan.prism", "--arg", "x=zeros:64"}, want: "warp_scan: match (1 lines of printed outputs; no race or deadlock)"},
	{args: []string{ex + "prism/b5_hgemm.prism", "--arg", "M=128", "--arg", "N=256", "--arg", "K=256", "--arg", "C=zeros:32768", "--buffer", "A=iota%7:32768:bf16", "--buffer", "B=iota%5:65536:bf16", "--arg", "tensorMapA=tma:A,128,256,128,64,128", "--arg", "tensorMapB=tma:B,256,256,256,64,128"},
		want: "b5_hgemm: match (1 lines of printed outputs; no race or deadlock)"},
}

// audalaExamples: every AuDaLa example under every schedule strategy and
// memory order, on a device with 2 SMs (the persistent grids of the
// generated code then have 16 blocks instead of 1056; the program is the
// same for any device).
func audalaExamples() []example {
	var out []example
	for _, p := range []struct{ name, init, lines string }{
		{"prefix_sum", "prefix_sum.init", "16"}, {"reachability", "", "16"}, {"scc_colouring", "scc_colouring.init", "19"}} {
		for _, s := range []string{"graph", "host", "grid"} {
			for _, mo := range []string{"relaxed", "ra", "sc"} {
				args := []string{ex + "audala/" + p.name + ".adl"}
				if p.init != "" {
					args = append(args, ex+"audala/"+p.init)
				}
				args = append(args, "--sms", "2", "--schedule-strategy", s, "--memorder", mo)
				out = append(out, example{args: args, heavy: mo != "relaxed",
					want: p.name + " schedule-strategy=" + s + " memorder=" + mo + ": match (" + p.lines + " lines of the --dump output; no race or deadlock)"})
			}
		}
	}
	return out
}

// TestExamples validates the examples (issue 12, items 7 and 8).
func TestExamples(t *testing.T) {
	for _, e := range append(examples, audalaExamples()...) {
		e := e
		name := strings.TrimSuffix(filepath.Base(e.args[0]), filepath.Ext(e.args[0]))
		for i, a := range e.args {
			if a == "--schedule-strategy" || a == "--memorder" {
				name += "/" + e.args[i+1]
			}
		}
		t.Run(name, func(t *testing.T) {
			if e.heavy && testing.Short() {
				t.Skip("seconds of interpretation")
			}
			var out, errb bytes.Buffer
			rc := validate.Main(&frontend.Env{Stdout: &out, Stderr: &errb}, e.args)
			if rc != e.rc || !matchLines(out.String(), e.want) {
				t.Errorf("status %d (want %d)\n%s%s--- want:\n%s", rc, e.rc, out.String(), errb.String(), e.want)
			}
		})
	}
}

// matchLines compares got with want line by line: "..." alone matches any
// rest, and a line ending in "..." (or starting with it) matches by prefix
// (suffix).
func matchLines(got, want string) bool {
	g := strings.Split(strings.TrimRight(got, "\n"), "\n")
	w := strings.Split(want, "\n")
	for i, wl := range w {
		if wl == "..." {
			return true
		}
		if i >= len(g) {
			return false
		}
		switch {
		case strings.HasSuffix(wl, "...") && strings.HasPrefix(wl, "    ..."):
			if !strings.HasSuffix(g[i], strings.TrimPrefix(wl, "    ...")) && !strings.Contains(g[i], strings.TrimSuffix(strings.TrimPrefix(wl, "    ..."), "...")) {
				return false
			}
		case strings.HasSuffix(wl, "..."):
			if !strings.HasPrefix(g[i], strings.TrimSuffix(wl, "...")) {
				return false
			}
		case strings.HasPrefix(wl, "    ..."):
			if !strings.HasSuffix(g[i], strings.TrimPrefix(wl, "    ...")) {
				return false
			}
		default:
			if g[i] != wl {
				return false
			}
		}
	}
	return len(g) == len(w)
}

// TestNestedFixGraph is the regression test of issue 12 item 6 through the
// graph model: AuDaLa's graph strategy with a nested Fix validates, and the
// generated program without the reset of the inner WHILE node's condition
// (what the generator emitted before) computes what the issue reports: the
// inner loops never run again after the first outer iteration, so Node(5)
// ends with fwd=bwd=5 where weft run gives 4.
func TestNestedFixGraph(t *testing.T) {
	dir := t.TempDir()
	adl, init := ex+"audala/scc_colouring.adl", ex+"audala/scc_colouring.init"
	var out, errb bytes.Buffer
	env := &frontend.Env{Stdout: &out, Stderr: &errb}
	if rc := validate.Main(env, []string{adl, init, "--keep", dir, "--sms", "2", "--schedule-strategy", "graph"}); rc != 0 {
		t.Fatalf("status %d\n%s%s", rc, out.String(), errb.String())
	}
	prog := filepath.Join(dir, "build", "scc_colouring.cu")
	src, err := os.ReadFile(prog)
	if err != nil {
		t.Fatal(err)
	}
	const reset = "  cudaGraphSetConditional(h, 1u);\n"
	if strings.Count(string(src), reset) != 1 {
		t.Fatalf("adl_fix_reset does not set the condition once:\n%s", src)
	}
	if err := os.WriteFile(prog, []byte(strings.Replace(string(src), reset, "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	if rc := frontend.ForExt(".cu").Verb("check")(env, []string{prog, "--sms", "2", "--", init, "--dump"}); rc != 0 {
		t.Fatalf("status %d\n%s", rc, errb.String())
	}
	if !strings.Contains(out.String(), "Node(5): fwd=5, bwd=5\n") {
		t.Errorf("without the reset, want the bug's Node(5): fwd=5, bwd=5; got\n%s", out.String())
	}
}

// TestMutate is the mutation test of one Prism example (issue 12, item 8),
// exactly: each synchronization statement deleted is caught, and the line
// names the statement's source position.
func TestMutate(t *testing.T) {
	var out, errb bytes.Buffer
	rc := validate.Main(&frontend.Env{Stdout: &out, Stderr: &errb}, []string{ex + "prism/fig13_async.prism", "--mutate", "--sms", "1",
		"--blocks", "2", "--arg", "src=iota:256", "--arg", "dst=zeros:256"})
	want := `fig13_async: match (1 lines of printed outputs; no race or deadlock)
  mutant fig13_async.cu:60 __syncthreads();: killed: error[C0501]: data race on an mbarrier in shared memory: mbarrier.arrive.shared.b64 by thread 1 of block 0 is not ordered after its mbarrier.init by thread 0 (a barrier after the init is missing)
  mutant fig13_async.cu:85 prism_cp_async_wait_all(); (source fig13_async.prism:17:25): killed: warning[C0407]: read of uninitialized shared memory prism_smem
  mutant fig13_async.cu:89 prism_mbar_arrive(prism_sync + 0); (source fig13_async.prism:21:17): killed: error[C0502]: deadlock in block 0 of kernel fig13_async: a barrier or mbarrier phase that threads wait for can never complete
  mutant fig13_async.cu:96 prism_mbar_wait(prism_sync + 0, prism_w0); (source fig13_async.prism:23:25): killed: error[C0501]: data race on shared memory prism_smem (byte 16): read by thread 0 of block 0 (kernel fig13_async) conflicts with an unordered write by thread 1 of block 0 (kernel fig13_async)
fig13_async: 4 of 4 mutants killed (100%; 0 only under the run-ahead or a random schedule), 0 survived`
	if rc != 0 || !matchLines(out.String(), want) {
		t.Errorf("status %d\n%s%s--- want:\n%s", rc, out.String(), errb.String(), want)
	}
}
