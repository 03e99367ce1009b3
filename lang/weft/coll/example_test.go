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
