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

// TestExoTKGemm pins the lowering of Exo's ThunderKittens-style GEMM
// instructions (exo_gpu.weft, exo_tma.go) on examples/weft/exo/
// tk_split_gemm.weft: N-D tensor maps built on the host, TMA helpers per
// rank, the multicast that each of the two CTAs issues for its half of
// the A box, the warp tiles of Sm90_TkRmemTileD (N / 2 = 32 registers per
// thread), the subset of the named producer warps, a one-iteration loop
// over the whole cluster, and the epilogue's SMEM reusing the freed
// operand rings.
func TestExoTKGemm(t *testing.T) {
	out, errs := generate(t, "../../../examples/weft/exo/tk_split_gemm.weft", Options{})
	if errs.HasErrors() {
		t.Fatalf("generation failed:\n%s", diagText(errs))
	}
	var all strings.Builder
	for _, f := range out.Files {
		all.Write(f.Data)
	}
	code := all.String()
	for _, want := range []string{
		"const uint64_t dims[4] = {(uint64_t)(L), (uint64_t)(M), (uint64_t)(S), (uint64_t)(K)};",
		"const uint32_t box[4] = {1, 64, 1, 32};",
		"weft_tensor_map_nd(&c_map, C, 4, 3, dims, box, 128);",
		"__device__ __forceinline__ void tma_load_tile_4d(void *smem, const CUtensorMap *map, uint64_t *bar, int c0, int c1, int c2, int c3) {",
		"template <int NCTA, int STRIDE, int ROWS, int D0>",
		"weft::mbarrier_expect_tx(&exo_full_0[(k) % 2], 16384); weft::tma_multicast_4d<2, 1, 64, 1>(&a_smem[k % 2 * 4096], 2048 * sizeof(a_smem[k % 2 * 4096]), reinterpret_cast<const CUtensorMap *>(&a_map), &exo_full_0[(k) % 2], l, 128 * mt, s, 32 * k);",
		"weft::tma_reduce_add_tile_3d(reinterpret_cast<const CUtensorMap *>(&c_map), &c_smem[j * 4096], l, 128 * mt, 128 * nt + 64 * exo_384thr_cn + 32 * j);",
		"[[maybe_unused]] float acc[32];",
		"if (int exo_warp2 = threadIdx.x / 32u; 0 <= exo_warp2 && exo_warp2 < 1) {  // CudaWarps(name=\"producer\"): warps [0, 1)",
		"if ([[maybe_unused]] int exo_768thr_pair = 0; 1) {",
		"weft::mbarrier_init(reinterpret_cast<uint64_t *>(exo_smem + 32) + exo_i, 768);  // empty", // (2 + 1 CTAs) x 256 consumers
		"for (int k0 = 0; k0 < 4; k0++) weft::wgmma_m64n64k8_f32_tf32(&acc[0],",
		"weft::tk_store_rs_cols_32<64>(&c_smem[(64 * exo_128thr_wg + 16 * exo_32thr_w) * 32], 4096, 32, &acc[0]);",
		"float *const c_smem = reinterpret_cast<float *>(exo_smem + 1024);",
		"static constexpr unsigned exo_smemBytes = 50176;",
	} {
		if !strings.Contains(code, want) {
			t.Errorf("tk_split_gemm: the generated code lacks %q", want)
		}
	}
}
