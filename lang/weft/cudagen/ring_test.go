package cudagen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExoRings pins the lowering of Exo's ring-buffered, pre-arrived and
// multicast mbarriers (ring.go) on the corpus examples: the hardware
// mbarriers and their arrival counts, the phase parity from the ring index
// and the task epoch, the multicast CTA ranks, the cluster-scope waits and
// the shutdown cluster sync (left out with unsafe_no_shutdown_cluster_sync).
func TestExoRings(t *testing.T) {
	text := func(t *testing.T, path string) (string, string) {
		t.Helper()
		out, errs := generate(t, path, Options{})
		if errs.HasErrors() {
			t.Fatalf("generation failed:\n%s", diagText(errs))
		}
		var cuh, cu string
		for _, f := range out.Files {
			switch {
			case strings.HasSuffix(f.Name, ".cuh"):
				cuh = string(f.Data)
			case strings.HasSuffix(f.Name, ".cu"):
				cu = string(f.Data)
			}
		}
		return cuh, cu
	}
	cuh, _ := text(t, "../../../examples/weft/exo/ring_add.weft")
	for _, want := range []string{
		"weft::mbarrier_init(reinterpret_cast<uint64_t *>(exo_smem + 0) + exo_i, 32);  // raw",
		"weft::mbarrier_init(reinterpret_cast<uint64_t *>(exo_smem + 16) + exo_i, 128);  // war",
		"if (k >= 2) {",
		"weft::mbarrier_wait(&exo_war_1[(k - 2) % 2], (((k - 2) / 2) ^ (exo_syncState.exo_war_1_ep >> ((k - 2) % 2))) & 1u);",
		"weft::mbarrier_expect_tx(&exo_raw_0[(k) % 2], 8192);",
		"weft::mbarrier_arrive(&exo_war_1[(k + 2 - 2) % 2]);",
		"weft::cp_async<16>(&weft::swizzled<128>(",
		"exo_syncState.exo_raw_0_ep ^= 0x1u << exo_s;",
	} {
		if !strings.Contains(cuh, want) {
			t.Errorf("ring_add: the generated code lacks %q", want)
		}
	}
	src, err := os.ReadFile("../../../examples/weft/exo/multicast_arrive.weft")
	if err != nil {
		t.Fatal(err)
	}
	cuh, cu := text(t, "../../../examples/weft/exo/multicast_arrive.weft")
	for _, want := range []string{
		"exo_i, 128);  // raw", // (2 + 2 CTAs) x 32 threads
		"exo_i, 512);  // war", // (2 + 2 CTAs) x 128 threads
		"weft::mbarrier_wait_cluster(&exo_raw_0[",
		"weft::mbarrier_arrive_cluster(&exo_raw_0[(k) % 2], exo_320thr_cm * 2 + 1);",
		"weft::mbarrier_arrive_cluster(&exo_raw_0[(k) % 2], exo_160thr_cn * 1 + 2);",
	} {
		if !strings.Contains(cuh, want) {
			t.Errorf("multicast_arrive: the generated code lacks %q", want)
		}
	}
	if !strings.Contains(cu, "weft::cluster_sync();") {
		t.Errorf("multicast_arrive: no shutdown cluster sync")
	}
	unsafe := strings.Replace(string(src), "with CudaDeviceFunction(clusterDim=4,", "with CudaDeviceFunction(clusterDim=4, unsafe_no_shutdown_cluster_sync=True,", 1)
	path := filepath.Join(t.TempDir(), "unsafe.weft")
	if err := os.WriteFile(path, []byte(unsafe), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, cu := text(t, path); strings.Contains(cu, "cluster_sync") {
		t.Errorf("unsafe_no_shutdown_cluster_sync=True: the kernel still ends with a cluster sync")
	}
}
