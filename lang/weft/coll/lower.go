package coll

import (
	"fmt"
	"strconv"
)

// Lowering is what the code generator needs to lower one cuda_threads loop
// or CudaWarps block to C++ (seed 000 §4.2: `if (int y = f(threadIdx); g(y))`).
//
// For a cuda_threads loop the iterator's value in a thread with natural
// thread index x is
//
//	iter = (x % Mod - Off) / Div
//
// guarded by `iter < Bound` when Guard is set (the loop leaves threads of
// its scope idle). For 8 x 16 threads under blockDim=256 (seed 002
// cuda_threads_cxx): m = x / 16 guarded by m < 8, and n = x % 16 unguarded.
//
// For a CudaWarps block the warp w = (x % Mod - Off) / Div (Div is 32) must
// satisfy Lo <= w < Hi.
//
// OK is false when the scope's start is not a fixed offset modulo a power of
// the structure (possible only with unusual user-defined units); the checks
// remain exact, only this closed form is unavailable.
type Lowering struct {
	Iter          int
	Div, Mod, Off int
	Bound         int
	Lo, Hi        int
	Guard         bool
	OK            bool
}

// Lowering returns the lowering data of a KindThreads, KindWarps or
// KindNamedWarps tiling.
func (t *Tiling) Lowering() Lowering { return t.lower }

// Value computes the iterator (or warp) value of thread x, as the generated
// code would.
func (l Lowering) Value(x int) int { return (x%l.Mod - l.Off) / l.Div }

// CExpr prints the value as a C expression of the natural thread index
// named x (`threadIdx.x` when clusterDim = 1), dropping a modulus that is a
// multiple of the thread count xRange and a zero offset, as seed 002's
// figures print it: "(threadIdx.x / 16)", "(threadIdx.x % 16)".
func (l Lowering) CExpr(x string, xRange int) string {
	if l.Mod == 1 {
		return "0" // one iteration over the whole scope
	}
	v := x
	if l.Mod > 0 && xRange%l.Mod != 0 || l.Mod < xRange {
		v = x + " % " + strconv.Itoa(l.Mod)
		if l.Off == 0 && l.Div == 1 {
			return "(" + v + ")"
		}
		v = "(" + v + ")"
	}
	if l.Off != 0 {
		v = fmt.Sprintf("(%s - %d)", v, l.Off)
	}
	if l.Div != 1 {
		v = v + " / " + strconv.Itoa(l.Div)
	}
	return "(" + v + ")"
}

// CGuard prints the guard on the iterator variable name ("1" when none is
// needed, as the seed prints it).
func (l Lowering) CGuard(name string) string {
	if l.Iter < 0 {
		return fmt.Sprintf("%d <= %s && %s < %d", l.Lo, name, name, l.Hi)
	}
	if !l.Guard {
		return "1"
	}
	return fmt.Sprintf("%s < %d", name, l.Bound)
}
