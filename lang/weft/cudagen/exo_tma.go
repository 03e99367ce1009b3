package cudagen

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// Device helpers for the instructions of Exo's GPU branch
// (lang/weft/lib/exo_gpu.weft), written on demand like the wgmma shapes:
// TMA copies of a box of a tensor map of any rank (1 to 5; Exo's tk_gemm
// windows 3-D and 4-D maps), the cluster multicast load that ncta CTAs
// issue together, and the store of a ThunderKittens accumulator tile to
// swizzled SMEM.

// exoHelperName matches the calls the templates of exo_gpu.weft make.
// Compiled on first use, not at every process start (issue 13, stop 44).
var exoHelperName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`weft::((tma_load_tile|tma_store_tile|tma_reduce_add_tile|tma_multicast)_(\d)d|tk_store_rs_cols_32)\b`)
})

// exoHelpers adds the helpers code calls.
func (g *gen) exoHelpers(code string) {
	for _, m := range exoHelperName().FindAllStringSubmatch(code, -1) {
		name := m[1]
		if g.helpers[name] != "" {
			continue
		}
		if name == "tk_store_rs_cols_32" {
			put(&g.helpers, "swizzled", swizzledHelper)
			put(&g.helpers, name, tkStoreHelper)
			continue
		}
		rank, _ := strconv.Atoi(m[3])
		if rank < 1 || rank > 5 {
			continue
		}
		put(&g.helpers, name, tmaHelper(m[2], rank))
	}
}

// tmaHelper writes one TMA helper for tensor maps of the given rank. The
// coordinates come outermost first (Weft's index order); PTX takes them
// innermost first.
func tmaHelper(kind string, rank int) string {
	var params, coords, ops []string
	for i := 0; i < rank; i++ {
		params = append(params, "int c"+strconv.Itoa(i))
	}
	var b strings.Builder
	switch kind {
	case "tma_load_tile", "tma_multicast":
		// Operands: 0 smem, 1 map, 2 bar, 3.. coordinates (innermost
		// first), then the CTA mask for the multicast.
		for i := 0; i < rank; i++ {
			coords = append(coords, "%"+strconv.Itoa(3+i))
			ops = append(ops, fmt.Sprintf(`"r"(c%d)`, rank-1-i))
		}
		if kind == "tma_load_tile" {
			fmt.Fprintf(&b, "__device__ __forceinline__ void tma_load_tile_%dd(void *smem, const CUtensorMap *map, uint64_t *bar, %s) {\n", rank, strings.Join(params, ", "))
			fmt.Fprintf(&b, "  asm volatile(\n      \"cp.async.bulk.tensor.%dd.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%%0], [%%1, {%s}], [%%2];\"\n", rank, strings.Join(coords, ", "))
			fmt.Fprintf(&b, "      ::\"r\"(smem_u32(smem)), \"l\"(map), \"r\"(smem_u32(bar)), %s\n      : \"memory\");\n}\n", strings.Join(ops, ", "))
			return b.String()
		}
		// Exo's multicast: the collective is one warp in each of NCTA CTAs,
		// STRIDE apart in cluster rank (ncta * cuda_warp_in_cluster_strided(
		// cta_stride)). The CTA at position c of the collective loads rows
		// [c ROWS, (c + 1) ROWS) of dimension D0 of the box into the same
		// place of every CTA's SMEM (slice_bytes apart) and signals the
		// mbarrier at bar's offset in each of them.
		fmt.Fprintf(&b, "template <int NCTA, int STRIDE, int ROWS, int D0>\n")
		fmt.Fprintf(&b, "__device__ __forceinline__ void tma_multicast_%dd(void *smem, uint32_t slice_bytes, const CUtensorMap *map, uint64_t *bar, %s) {\n", rank, strings.Join(params, ", "))
		b.WriteString("  const uint32_t r = cluster_ctarank(), a = r / STRIDE, c = a % NCTA;\n")
		b.WriteString("  uint16_t mask = 0;\n")
		b.WriteString("#pragma unroll\n  for (int j = 0; j < NCTA; j++) mask |= (uint16_t)(1u << ((a - c + j) * STRIDE + r % STRIDE));\n")
		for i := 0; i < rank; i++ {
			fmt.Fprintf(&b, "  if (D0 == %d) c%d += (int)c * ROWS;\n", i, i)
		}
		b.WriteString("  smem = static_cast<char *>(smem) + c * slice_bytes;\n")
		fmt.Fprintf(&b, "  asm volatile(\n      \"cp.async.bulk.tensor.%dd.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%%0], [%%1, {%s}], [%%2], %%%d;\"\n", rank, strings.Join(coords, ", "), 3+rank)
		fmt.Fprintf(&b, "      ::\"r\"(smem_u32(smem)), \"l\"(map), \"r\"(smem_u32(bar)), %s, \"h\"(mask)\n      : \"memory\");\n}\n", strings.Join(ops, ", "))
		return b.String()
	default:
		// Stores and reductions: operands 0 map, 1 smem, 2.. coordinates.
		for i := 0; i < rank; i++ {
			coords = append(coords, "%"+strconv.Itoa(2+i))
			ops = append(ops, fmt.Sprintf(`"r"(c%d)`, rank-1-i))
		}
		op := "cp.async.bulk.tensor.%dd.global.shared::cta.bulk_group"
		if kind == "tma_reduce_add_tile" {
			op = "cp.reduce.async.bulk.tensor.%dd.global.shared::cta.add.tile.bulk_group"
		}
		fmt.Fprintf(&b, "__device__ __forceinline__ void %s_%dd(const CUtensorMap *map, const void *smem, %s) {\n", kind, rank, strings.Join(params, ", "))
		fmt.Fprintf(&b, "  asm volatile(\""+op+" [%%0, {%s}], [%%1];\"\n", rank, strings.Join(coords, ", "))
		fmt.Fprintf(&b, "      ::\"l\"(map), \"r\"(smem_u32(smem)), %s\n      : \"memory\");\n}\n", strings.Join(ops, ", "))
		return b.String()
	}
}

// tkStoreHelper stores a warp's 16 x N wgmma accumulator tile (the PTX ISA
// "wgmma D fragment" rows of one warp: lane l holds rows l / 4 and
// l / 4 + 8, columns 8 j + 2 (l % 4) and + 1 in registers 4 j .. 4 j + 3)
// to N / 32 column blocks of 16 x 32 in SMEM swizzled by 128 bytes: dst
// is the (unswizzled) address of block 0, row 0; blocks are stride0 and
// rows stride1 elements apart.
const tkStoreHelper = `template <int N, typename T>
__device__ __forceinline__ void tk_store_rs_cols_32(T *dst, int stride0, int stride1, const float *d) {
  const int l = threadIdx.x % 32, row = l / 4, col = 2 * (l % 4);
#pragma unroll
  for (int j = 0; j < N / 8; j++) {
    const int c = 8 * j + col, blk = c / 32, cc = c % 32;
    T *p = dst + blk * stride0 + row * stride1 + cc;
    swizzled<128>(p) = (T)d[4 * j];
    swizzled<128>(p + 1) = (T)d[4 * j + 1];
    swizzled<128>(p + 8 * stride1) = (T)d[4 * j + 2];
    swizzled<128>(p + 8 * stride1 + 1) = (T)d[4 * j + 3];
  }
}
`
