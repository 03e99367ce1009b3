package validate_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/frontend"
	"weft.dev/weft/validate"
)

// The mutation test of issue 12, item 8 (docs/validate.md, "Mutation
// test"): every synchronization statement of the generated code of the
// synchronization examples is deleted in turn and validated again. Each
// case pins, exactly, the kill line of every proc and the surviving
// mutants: each survivor is shown redundant in docs/validate.md, so a
// generator or model change that lets another deletion survive (or kills
// one of these) fails here and sends the change through that analysis
// again. scripts/mutation.sh runs this test verbosely (every mutant's
// line).
type mutationCase struct {
	args      []string // after validate --mutate --sms 1; {T} is the directory of the generated inputs
	summaries []string // the kill lines, exactly
	survivors []string // "FILE:LINE STATEMENT[ (source ...)]" of each surviving mutant, in order
	heavy     bool     // more than 10 s: skipped under -short
}

// The totals over mutationCases (docs/validate.md).
const (
	wantMutants = 151
	wantKilled  = 127
)

var mutationCases = []mutationCase{
	// Weft
	{args: []string{ex + "weft/gemv_smem.weft"},
		summaries: []string{"gemv_smem: 2 of 2 mutants killed (100%; 0 only under the run-ahead or a random schedule), 0 survived"}},
	{args: []string{ex + "weft/sync/cp_async_ring.weft"},
		summaries: []string{"cp_async_ring: 2 of 5 mutants killed (40%; 0 only under the run-ahead or a random schedule), 3 survived"},
		survivors: []string{
			"cp_async_ring.cuh:50 weft::barrier_cta_sync();",                                         // after an empty setup
			"cp_async_ring.cuh:88 weft::cp_async_wait_group<0>(); (source cp_async_ring.weft:39:17)", // only empty groups left
			"cp_async_ring.cuh:91 weft::barrier_cta_sync(); (source cp_async_ring.weft:40:13)",       // each thread its own column
		}},
	{args: []string{ex + "weft/sync/cp_async_simple.weft"},
		summaries: []string{"Sm80_cp_async_simple: 2 of 4 mutants killed (50%; 0 only under the run-ahead or a random schedule), 2 survived"},
		survivors: []string{
			"cp_async_simple.cuh:74 weft::barrier_cta_sync(); (source cp_async_simple.weft:26:13)", // followed by wait_all and a barrier
			"cp_async_simple.cuh:84 weft::barrier_cta_sync(); (source cp_async_simple.weft:32:13)", // ends the only task
		}},
	{args: []string{ex + "weft/sync/mbarrier_ring.weft"},
		summaries: []string{"mbarrier_ring: 5 of 6 mutants killed (83%; 0 only under the run-ahead or a random schedule), 1 survived"},
		survivors: []string{"mbarrier_ring.cuh:107 weft::barrier_cta_sync(); (source mbarrier_ring.weft:29:13)"}}, // ends the only task
	// a cluster of 4 CTAs (lang/cudac/sem/cluster.go): remote mbarrier
	// arrives and cluster barriers
	{args: []string{ex + "weft/exo/multicast_arrive.weft"},
		summaries: []string{"multicast_arrive: 11 of 13 mutants killed (85%; 0 only under the run-ahead or a random schedule), 2 survived"},
		survivors: []string{
			"multicast_arrive.cu:8 weft::cluster_sync();",          // every task already ends with one
			"multicast_arrive.cuh:75 weft::fence_mbarrier_init();", // the cluster barrier's arrive is a release
		}},
	{args: []string{ex + "weft/sync/smem_sum.weft"},
		summaries: []string{"smem_sum: 2 of 2 mutants killed (100%; 0 only under the run-ahead or a random schedule), 0 survived"}},
	{args: []string{ex + "weft/sync/smem_sum_mbarrier.weft"},
		summaries: []string{"smem_sum_mbarrier: 4 of 4 mutants killed (100%; 0 only under the run-ahead or a random schedule), 0 survived"}},
	{args: []string{ex + "weft/sync/sync_warp_cta.weft"},
		summaries: []string{"sync_warp_cta: 3 of 3 mutants killed (100%; 0 only under the run-ahead or a random schedule), 0 survived"}},
	{args: []string{ex + "weft/sync/xgemm_Sm80_fence.weft"}, heavy: true,
		summaries: []string{
			"xgemm_Sm80_fence (M=192 N=256 K=64): 2 of 2 mutants killed (100%; 0 only under the run-ahead or a random schedule), 0 survived",
			"xgemm_Sm80_fence (M=384 N=512 K=32): 2 of 2 mutants killed (100%; 0 only under the run-ahead or a random schedule), 0 survived",
		}},
	{args: []string{ex + "weft/sync/xgemm_Sm90_ring.weft"}, heavy: true,
		summaries: []string{"xgemm_Sm90_ring: 12 of 12 mutants killed (100%; 0 only under the run-ahead or a random schedule), 0 survived"}},
	{args: []string{ex + "weft/gemm/xgemm_sm80.weft"},
		summaries: []string{"xgemm_Sm80_fence: 2 of 2 mutants killed (100%; 0 only under the run-ahead or a random schedule), 0 survived"}},
	{args: []string{ex + "weft/gemm/xgemm_sm90.weft"}, heavy: true,
		summaries: []string{"xgemm_Sm90_wgmma: 14 of 14 mutants killed (100%; 0 only under the run-ahead or a random schedule), 0 survived"}},
	// Prism: K = 32 and 512 so that the k loops run more than once.
	{args: []string{ex + "prism/fig6_tf32.prism", "--arg", "A=ones:512", "--arg", "B=iota:256", "--arg", "C=zeros:128", "--arg", "M=16", "--arg", "N=8", "--arg", "K=32"},
		summaries: []string{"fig6_tf32: 6 of 8 mutants killed (75%; 0 only under the run-ahead or a random schedule), 2 survived"},
		survivors: []string{
			"fig6_tf32.cu:82 __syncwarp(); (source fig6_tf32.prism:11:5)",                                // each lane its own C elements
			"fig6_tf32.cu:143 prism_mbar_wait(prism_sync + 0, prism_w0); (source fig6_tf32.prism:85:21)", // one warp: mma.sync's rendezvous
		}},
	{args: []string{ex + "prism/fig13_async.prism", "--blocks", "2", "--arg", "src=iota:256", "--arg", "dst=zeros:256"},
		summaries: []string{"fig13_async: 4 of 4 mutants killed (100%; 0 only under the run-ahead or a random schedule), 0 survived"}},
	{args: []string{ex + "prism/b1_tf32.prism", "--arg", "A=ones:512", "--arg", "B=iota:256", "--arg", "C=zeros:128", "--arg", "M=16", "--arg", "N=8", "--arg", "K=32"},
		summaries: []string{"b1_tf32: 6 of 8 mutants killed (75%; 0 only under the run-ahead or a random schedule), 2 survived"},
		survivors: []string{
			"b1_tf32.cu:82 __syncwarp(); (source b1_tf32.prism:12:5)",
			"b1_tf32.cu:144 prism_mbar_wait(prism_sync + 0, prism_w0); (source b1_tf32.prism:85:21)",
		}},
	{args: []string{ex + "prism/b2_sgemm.prism", "--blocks", "2", "--arg", "A=ones:2048", "--arg", "B=iota:1024", "--arg", "C=zeros:8192", "--arg", "M=128", "--arg", "N=64", "--arg", "K=16", "--arg", "alpha=1", "--arg", "beta=0"},
		summaries: []string{"b2_sgemm: 7 of 7 mutants killed (100%; 1 only under the run-ahead or a random schedule), 0 survived"}},
	{args: []string{ex + "prism/p6_broader_call.prism", "--arg", "x=iota:128", "--arg", "y=zeros:128"},
		summaries: []string{"p6_broader_call: 0 of 1 mutants killed (0%; 0 only under the run-ahead or a random schedule), 1 survived"},
		survivors: []string{"p6_broader_call.cu:59 __syncwarp(); (source p6_broader_call.prism:30:21)"}}, // each lane its own y element
	{args: []string{ex + "prism/b5_hgemm.prism", "--arg", "M=128", "--arg", "N=256", "--arg", "K=512", "--arg", "C=zeros:32768", "--buffer", "A=iota%7:65536:bf16", "--buffer", "B=iota%5:131072:bf16", "--arg", "tensorMapA=tma:A,128,512,128,64,128", "--arg", "tensorMapB=tma:B,256,512,256,64,128"},
		heavy:     true,
		summaries: []string{"b5_hgemm: 26 of 31 mutants killed (84%; 0 only under the run-ahead or a random schedule), 5 survived"},
		survivors: []string{
			// the barrier after the split barriers' inits: the one after
			// the slot barriers' inits orders them too
			"b5_hgemm.cu:108 __syncthreads();",
			// the consumers' guards before their role-barrier arrives
			// (stop 31, docs/prism.md "Split barriers of a loop's roles"):
			// a consumer arrives on slot i again only after its wait for
			// full_i, which the producer arms after waiting for the phase
			// those arrivals complete
			"b5_hgemm.cu:249 prism_mbar_wait(prism_sync + 0, prism_ah[0] ^ 1u); (source b5_hgemm.prism:120:65)",
			"b5_hgemm.cu:263 prism_mbar_wait(prism_sync + 1, prism_ah[1] ^ 1u); (source b5_hgemm.prism:125:65)",
			"b5_hgemm.cu:277 prism_mbar_wait(prism_sync + 2, prism_ah[2] ^ 1u); (source b5_hgemm.prism:130:65)",
			"b5_hgemm.cu:291 prism_mbar_wait(prism_sync + 3, prism_ah[3] ^ 1u); (source b5_hgemm.prism:130:65)",
		}},
	// AuDaLa's grid strategy, on inputs larger than a block of instances
	// (mutationInputs), so that grid.sync orders accesses of different
	// blocks.
	{args: []string{"--schedule-strategy", "grid", ex + "audala/prefix_sum.adl", "{T}/prefix_sum.init"}, heavy: true,
		summaries: []string{"prefix_sum schedule-strategy=grid: 3 of 4 mutants killed (75%; 0 only under the run-ahead or a random schedule), 1 survived"},
		survivors: []string{"prefix_sum.cu:242 grid.sync();"}}, // after the write step
	{args: []string{"--schedule-strategy", "grid", ex + "audala/reachability.adl", "{T}/reachability.init"},
		summaries: []string{"reachability schedule-strategy=grid: 4 of 5 mutants killed (80%; 0 only under the run-ahead or a random schedule), 1 survived"},
		survivors: []string{"reachability.cu:243 grid.sync();"}}, // after adl_advance_all: rank 0's own flag write follows
	{args: []string{"--schedule-strategy", "grid", ex + "audala/scc_colouring.adl", "{T}/scc_colouring.init"}, heavy: true,
		summaries: []string{"scc_colouring schedule-strategy=grid: 8 of 12 mutants killed (67%; 2 only under the run-ahead or a random schedule), 4 survived"},
		survivors: []string{
			"scc_colouring.cu:285 grid.sync();", // after the init step
			"scc_colouring.cu:290 grid.sync();", // after setting the outer fixpoint's flag
			"scc_colouring.cu:312 grid.sync();", // after del_fwd_frontier_edges
			"scc_colouring.cu:342 grid.sync();", // after reset_fwd_bwd: it clears only a flag already cleared
		}},
}

// mutationInputs writes the AuDaLa inputs of the mutation test to dir:
// a 2000-position prefix sum; a 512-node SCC graph (64 rings of 8 nodes,
// ring r > 0 entered from node 1); and for reachability 300 null edges
// ahead of the four its init step creates, so that those (Edge 301-304)
// run in block 1 and clear the fixpoint flag that thread 0 of block 0
// sets (with the program's own graph everything runs in block 0 and the
// grid.sync between the two is not exercised).
func mutationInputs(t *testing.T, dir string) {
	var ps strings.Builder
	const n = 2000
	fmt.Fprintf(&ps, "ADL structures 1\nPosition Int Position Int Position\nPosition instances %d %d\n", n, n)
	for k := 1; k <= n; k++ {
		fmt.Fprintf(&ps, "%d %d\n", k%10, k-1)
	}
	var edges [][2]int
	const rings, size = 64, 8
	for r := 0; r < rings; r++ {
		for i := 0; i < size; i++ {
			edges = append(edges, [2]int{r*size + i + 1, r*size + (i+1)%size + 1})
		}
		if r > 0 {
			edges = append(edges, [2]int{1, r*size + 1})
		}
	}
	var scc strings.Builder
	fmt.Fprintf(&scc, "ADL structures 2\nEdge Node Node Bool\nNode Node Node\nEdge instances %d %d\n", len(edges), len(edges))
	for _, e := range edges {
		fmt.Fprintf(&scc, "%d %d\n", e[0], e[1])
	}
	fmt.Fprintf(&scc, "Node instances 0 %d\n", rings*size)
	reach := "ADL structures 2\nEdge Node Node\nNode Bool\nEdge instances 300 300\n" + strings.Repeat("0 0\n", 300) + "Node instances 0 0\n"
	for name, text := range map[string]string{"prefix_sum.init": ps.String(), "scc_colouring.init": scc.String(), "reachability.init": reach} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestMutation runs the mutation test (scripts/mutation.sh: go test -v).
func TestMutation(t *testing.T) {
	dir := t.TempDir()
	mutationInputs(t, dir)
	mutants, killed, ran := 0, 0, 0
	for _, c := range mutationCases {
		c := c
		name := strings.TrimSuffix(filepath.Base(c.args[len(c.args)-1]), ".init")
		for _, a := range c.args {
			if strings.HasPrefix(a, ex) {
				name = strings.TrimSuffix(filepath.Base(a), filepath.Ext(a))
			}
		}
		t.Run(name, func(t *testing.T) {
			if c.heavy && testing.Short() {
				t.Skip("more than 10 s of interpretation")
			}
			args := []string{"--mutate", "--sms", "1"}
			for _, a := range c.args {
				args = append(args, strings.ReplaceAll(a, "{T}", dir))
			}
			var out, errb bytes.Buffer
			rc := validate.Main(&frontend.Env{Stdout: &out, Stderr: &errb}, args)
			t.Log("\n" + out.String() + errb.String())
			var summaries, survivors []string
			for _, l := range strings.Split(out.String(), "\n") {
				if strings.Contains(l, " mutants killed (") {
					summaries = append(summaries, l)
					var k, m int
					if i := strings.Index(l, ": "); i >= 0 {
						fmt.Sscanf(l[i+2:], "%d of %d mutants killed", &k, &m)
					}
					killed += k
					mutants += m
				}
				if rest, ok := strings.CutPrefix(l, "  mutant "); ok {
					if i := strings.Index(rest, ": survived ("); i >= 0 {
						survivors = append(survivors, rest[:i])
					}
				}
			}
			ran++
			if rc != 0 {
				t.Errorf("status %d, want 0 (the unmutated program must match)", rc)
			}
			if strings.Join(summaries, "\n") != strings.Join(c.summaries, "\n") {
				t.Errorf("kill lines:\n%s\nwant:\n%s", strings.Join(summaries, "\n"), strings.Join(c.summaries, "\n"))
			}
			if strings.Join(survivors, "\n") != strings.Join(c.survivors, "\n") {
				t.Errorf("survivors (each must be shown redundant in docs/validate.md):\n%s\nwant:\n%s", strings.Join(survivors, "\n"), strings.Join(c.survivors, "\n"))
			}
		})
	}
	if ran == len(mutationCases) {
		if mutants != wantMutants || killed != wantKilled {
			t.Errorf("%d of %d mutants killed, want %d of %d", killed, mutants, wantKilled, wantMutants)
		}
		t.Logf("all: %d of %d mutants killed (%.1f%%), %d survived", killed, mutants, 100*float64(killed)/float64(mutants), mutants-killed)
	}
}
