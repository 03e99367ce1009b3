package coll_test

import (
	"fmt"

	"weft.dev/weft/lang/weft/coll"
)

// The guide's cuda_threads_cxx figure: 8 x 16 threads of a 256-thread CTA,
// and the C++ each iterator lowers to.
func ExampleTiling_CudaThreads() {
	cta, _ := coll.DeviceTiling(coll.Machine{BlockDim: 256, ClusterDim: 1})
	u16, _ := coll.CudaThread.Scaled(16)
	m, _ := cta.CudaThreads(0, 8, u16)
	n, _ := m.CudaThreads(1, 16, coll.CudaThread)
	for _, env := range [][]int{{0, 0}, {2, 0}, {7, 15}} {
		cm, cn := m.Collective(env), n.Collective(env)
		fmt.Printf("m=%d: %s  n=%d: %s\n", env[0], cm.String(), env[1], cn.String())
	}
	fmt.Println(m.Lowering().CExpr("threadIdx.x", 256), m.Lowering().CGuard("m"))
	fmt.Println(n.Lowering().CExpr("threadIdx.x", 256), n.Lowering().CGuard("n"))
	// Output:
	// m=0: [0,15]  n=0: [0,0]
	// m=2: [32,47]  n=0: [32,32]
	// m=7: [112,127]  n=15: [127,127]
	// (threadIdx.x / 16) m < 8
	// (threadIdx.x % 16) 1
}

// Seed 002: CudaWarps(3, 4) under a warpgroup loop.
func ExampleTiling_CudaWarps() {
	cta, _ := coll.DeviceTiling(coll.Machine{BlockDim: 256, ClusterDim: 1})
	wg, _ := cta.CudaThreads(0, 2, coll.CudaWarpgroup)
	w, _ := wg.CudaWarps(3, 4)
	for i := 0; i < 2; i++ {
		c := w.Collective([]int{i})
		fmt.Printf("wg=%d: %s (%s)\n", i, c.String(), w.Describe())
	}
	// Output:
	// wg=0: [96,127] (a warp of 32)
	// wg=1: [224,255] (a warp of 32)
}

// The dimension operators O_m (seed 000 Definition 4.2) of derivations on
// the one-dimensional paths (a CTA alone: threads1d.go, warps1d.go) and
// the general ones (a cluster of two). Since stop 45 a tiling keeps only
// its own operator's dimension and box and Ops rebuilds the list from
// the parents; this output was printed by the tiling's stored list before
// that change (issue 13, stop 45), so the rebuild is pinned to it.
func ExampleTiling_Ops() {
	for _, cd := range []int{1, 2} {
		cta, _ := coll.DeviceTiling(coll.Machine{BlockDim: 256, ClusterDim: cd})
		u16, _ := coll.CudaThread.Scaled(16)
		m, _ := cta.CudaThreads(0, 8, u16)
		n, _ := m.CudaThreads(1, 16, coll.CudaThread)
		wg, _ := cta.CudaThreads(2, 2, coll.CudaWarpgroup)
		w, _ := wg.CudaWarps(3, 4)
		lane, _ := w.CudaThreads(3, 32, coll.CudaThread)
		named, _ := cta.NamedWarps("producer", 2, 4)
		nl, _ := named.CudaThreads(5, 2, coll.CudaWarp)
		tl := []*coll.Tiling{cta, m, n, wg, w, lane, named, nl}
		if cd > 1 {
			cl, _ := cta.CudaThreads(4, 2, coll.CudaCtaInCluster)
			tl = append(tl, cl)
		}
		for _, t := range tl {
			fmt.Printf("%d %+v\n", cd, t.Ops())
		}
	}
	// Output:
	// 1 []
	// 1 [{Iter:0 Dim:0 Offset:0 Box:16 Count:8}]
	// 1 [{Iter:0 Dim:0 Offset:0 Box:16 Count:8} {Iter:1 Dim:0 Offset:0 Box:1 Count:16}]
	// 1 [{Iter:2 Dim:0 Offset:0 Box:128 Count:2}]
	// 1 [{Iter:2 Dim:0 Offset:0 Box:128 Count:2} {Iter:-1 Dim:0 Offset:3 Box:1 Count:1}]
	// 1 [{Iter:2 Dim:0 Offset:0 Box:128 Count:2} {Iter:-1 Dim:0 Offset:3 Box:1 Count:1} {Iter:3 Dim:0 Offset:0 Box:1 Count:32}]
	// 1 [{Iter:-1 Dim:0 Offset:2 Box:2 Count:1}]
	// 1 [{Iter:-1 Dim:0 Offset:2 Box:2 Count:1} {Iter:5 Dim:0 Offset:0 Box:32 Count:2}]
	// 2 []
	// 2 [{Iter:0 Dim:1 Offset:0 Box:16 Count:8}]
	// 2 [{Iter:0 Dim:1 Offset:0 Box:16 Count:8} {Iter:1 Dim:1 Offset:0 Box:1 Count:16}]
	// 2 [{Iter:2 Dim:1 Offset:0 Box:128 Count:2}]
	// 2 [{Iter:2 Dim:1 Offset:0 Box:128 Count:2} {Iter:-1 Dim:1 Offset:3 Box:1 Count:1}]
	// 2 [{Iter:2 Dim:1 Offset:0 Box:128 Count:2} {Iter:-1 Dim:1 Offset:3 Box:1 Count:1} {Iter:3 Dim:1 Offset:0 Box:1 Count:32}]
	// 2 [{Iter:-1 Dim:1 Offset:2 Box:2 Count:1}]
	// 2 [{Iter:-1 Dim:1 Offset:2 Box:2 Count:1} {Iter:5 Dim:1 Offset:0 Box:32 Count:2}]
	// 2 [{Iter:4 Dim:0 Offset:0 Box:256 Count:2}]
}
