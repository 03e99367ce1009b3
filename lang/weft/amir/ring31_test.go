package amir_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/weft/amir"
)

// widenedAwaits is the three-ring pipeline of three_rings_exo.weft
// (chunk 1) with A's Awaits by one thread in rounds 0-5 and by 16 threads
// from round 6 on: the 16 threads of A's round-6 Await of CtoA[0, 6] wait
// on the mbarrier whose previous phase thread 0 alone awaited (round 0),
// and threads 1-15 are not ordered after that Await (rule 6; the chain
// through CtoA[0, 6] itself does not count: on hardware that wait may
// return at once).
const widenedAwaits = `# check: T=1
my_warps = [CudaWarpConfig("A", 2), CudaWarpConfig("B", 2), CudaWarpConfig("C", 8)]


@proc
def three_rings(T: size):
    with CudaDeviceFunction(warp_config=my_warps):
        for task in cuda_tasks(0, T):
            AtoB: barrier[2, 27 @ ring_buffer_by(6)] @ CudaMbarrierPreArrive(2)
            BtoC: barrier[2, 28 @ ring_buffer_by(6)] @ CudaMbarrierPreArrive(3)
            CtoA: barrier[2, 26 @ ring_buffer_by(6)] @ CudaMbarrierPreArrive(1)
            for n in seq(0, 25):
                with CudaWarps(name="B"):
                    for w in cuda_threads(0, 2, unit=cuda_warp):
                        Await(AtoB[w, n], cuda_in_order, 0)
                        Arrive(cuda_in_order, 1) >> BtoC[w, n + 3]
                with CudaWarps(name="C"):
                    for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                        with CudaWarps(2, 4):
                            Await(BtoC[wg, n], cuda_in_order, 0)
                    for wg in cuda_threads(0, 2, unit=cuda_warpgroup):
                        with CudaWarps(2, 4):
                            Arrive(cuda_in_order, 1) >> CtoA[wg, n + 1]
                with CudaWarps(name="A"):
                    if n < 6:
                        for tid in cuda_threads(0, 2, unit=cuda_thread):
                            Await(CtoA[tid, n], cuda_in_order, 0)
                    else:
                        for h in cuda_threads(0, 2, unit=16 * cuda_thread):
                            Await(CtoA[h, n], cuda_in_order, 0)
                    for tid in cuda_threads(0, 2, unit=cuda_thread):
                        Arrive(cuda_in_order, 1) >> AtoB[tid, n + 2]
`

// TestHWSelfAwaitedWidened: hwSelfAwaited (stop 31) passes rule 6 for an
// Await only when its whole collective awaited the previous phase; a
// collective that widens from one thread to 16 is checked (and rejected)
// as with the stale shortcuts off, so the reports and their occurrence
// counts agree.
func TestHWSelfAwaitedWidened(t *testing.T) {
	defer amir.HWNoStale(false)
	path := filepath.Join(t.TempDir(), "widened.weft")
	if err := os.WriteFile(path, []byte(widenedAwaits), 0o644); err != nil {
		t.Fatal(err)
	}
	fe := frontend.ForExt(".weft")
	run := func() string {
		var out, errb bytes.Buffer
		env := &frontend.Env{Stdout: &out, Stderr: &errb, Stdin: bytes.NewReader(nil)}
		fe.Check(env, []string{path, "--json", "T=1"})
		return out.String() + errb.String()
	}
	amir.HWNoStale(false)
	fast := run()
	amir.HWNoStale(true)
	plain := run()
	if fast != plain {
		t.Fatalf("with hwSelfAwaited:\n%s\nwithout:\n%s", fast, plain)
	}
	if !strings.Contains(plain, "await of a stale phase at T=1: thread 1 of task") {
		t.Fatalf("the widened Await (rule 6) is not rejected:\n%s", plain)
	}
}
