package syncheck

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/internal/expect"
)

// sm90Variant rewrites examples/weft/gemm/xgemm_sm90.weft: the ring size,
// the consumers' wait_group depth in the k-step loop and the producer's
// ReverseAwait lag (issue 4). Line numbers do not change.
func sm90Variant(t *testing.T, ring, wait int, lag string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(examplesDir, "gemm", "xgemm_sm90.weft"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	for _, r := range [][2]string{
		{"\nRING = 4\n", fmt.Sprintf("\nRING = %d\n", ring)},
		{"Await(cg, cuda_in_order, 1)", fmt.Sprintf("Await(cg, cuda_in_order, %d)", wait)},
		{"ReverseAwait(stage, tma_to_smem_async, ~RING)", "ReverseAwait(stage, tma_to_smem_async, ~" + lag + ")"},
	} {
		if !strings.Contains(s, r[0]) {
			t.Fatalf("xgemm_sm90.weft: %q not found", r[0])
		}
		s = strings.Replace(s, r[0], r[1], 1)
	}
	return s
}

// verdict is the distinct "LINE:COL:CODE" of the diagnostics, sorted.
func verdict(t *testing.T, name, src string) string {
	t.Helper()
	errs, runs := checkSource(t, name, src, Options{})
	if len(runs) == 0 {
		t.Fatalf("%s: no sync check run:\n%s", name, expect.List(errs))
	}
	errs.Sort()
	var got []string
	seen := map[string]bool{}
	for _, d := range errs.Diags {
		k := fmt.Sprintf("%d:%d:%s", d.Pos.Line(), d.Pos.Col(), d.Code)
		if !seen[k] {
			seen[k] = true
			got = append(got, k)
		}
	}
	return strings.Join(got, " ")
}

// TestSm90WaitGroupDepth: the producer refills slot j % RING after release
// j - RING, which the consumers make at iteration j - RING + 1 right after
// wait_group N, which has then completed the groups up to j - RING + 1 - N:
// the slot's last wgmma group (j - RING) is complete iff N <= 1, whatever
// RING is. The two
// consumer warpgroups share the unindexed commit group cg; before the
// per-thread commit-group queues, their interleaved arrives made N = 2
// pass (issue 4).
func TestSm90WaitGroupDepth(t *testing.T) {
	const war = "57:33:W0602 58:33:W0602" // the two TMA loads of the refill
	for _, ring := range []int{2, 3, 4} {
		for wait := 0; wait <= 3; wait++ {
			want := ""
			if wait >= 2 {
				want = war
			}
			name := fmt.Sprintf("xgemm_sm90 RING=%d wait_group %d", ring, wait)
			if got := verdict(t, name, sm90Variant(t, ring, wait, "RING")); got != want {
				t.Errorf("%s: got %q, want %q", name, got, want)
			}
		}
	}
}

// TestSm90ReverseLag: the consumer releases stage k1 - 1 at iteration k1,
// so the producer's ReverseAwait at iteration j with lag L pairs with the
// release made at consumer iteration j - L + 1. Lag 1 pairs with a release
// that comes after it in program order (W0608: on hardware the producer
// waits for a release that needs its own next load, a deadlock); lags 2 to
// RING = 4 are correct (2 and 3 wait longer than needed); lag 5 lets the
// producer refill a slot whose wgmma may still read it.
func TestSm90ReverseLag(t *testing.T) {
	cases := map[string]string{
		"1": "55:29:W0608 59:33:W0609 72:29:W0609 76:21:W0609",
		"2": "",
		"3": "",
		"4": "",
		"5": "57:33:W0602 57:33:W0604 58:33:W0602 58:33:W0604",
	}
	for lag, want := range cases {
		name := "xgemm_sm90 ReverseAwait lag " + lag
		if got := verdict(t, name, sm90Variant(t, 4, 1, lag)); got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
}

// TestSm90IndexedCommitGroup: indexing the commit group per warpgroup
// (seed 000 §2.2's cg[cta, wg], where the seed's queue identity already
// separates the warpgroups) gives the same verdicts as the unindexed one.
func TestSm90IndexedCommitGroup(t *testing.T) {
	for wait := 0; wait <= 3; wait++ {
		s := sm90Variant(t, 4, wait, "RING")
		s = strings.Replace(s, "cg: barrier @ CudaCommitGroup", "cg: barrier[2] @ CudaCommitGroup", 1)
		s = strings.Replace(s, ">> cg\n", ">> cg[wg]\n", 1)
		s = strings.ReplaceAll(s, "Await(cg, ", "Await(cg[wg], ")
		want := ""
		if wait >= 2 {
			want = "57:33:W0602 58:33:W0602"
		}
		name := fmt.Sprintf("xgemm_sm90 cg[wg] wait_group %d", wait)
		if got := verdict(t, name, s); got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
}
