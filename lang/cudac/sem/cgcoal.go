package sem

import (
	"math"
	mbits "math/bits"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Coalesced groups, labeled and binary partitions, and group reductions
// and scans (issue 15 item 2; CUDA C++ Programming Guide, "Cooperative
// Groups": coalesced_group, labeled_partition, binary_partition, reduce,
// inclusive_scan, exclusive_scan).
//
// A coalesced_group is the group object {kind 3, mask}: the lanes of one
// warp it holds. cg::coalesced_threads() is a warp rendezvous: it
// completes when no lane of the warp is still running, and its group is
// the lanes waiting at the same call (the threads that are converged
// there; lanes that exited or wait elsewhere are inactive). thread_rank is
// the number of group lanes below the caller, size the number of lanes;
// shfl(v, r) reads the lane of rank r (r >= size is C0630, undefined),
// shfl_up/shfl_down shift by ranks (a source outside the group gives the
// caller's value, as for tiles), ballot returns the votes in rank order
// (bit r for rank r), any/all vote over the group, sync is
// __syncwarp(mask). labeled_partition(g, label) is the coalesced group of
// the lanes of g with the same label (a match over g's mask),
// binary_partition(g, pred) the one with the same truth value.
// cg::reduce, inclusive_scan and exclusive_scan over a coalesced group or
// a tile combine the lanes' values in rank order with cg::plus, less,
// greater, bit_and, bit_or or bit_xor; an exclusive scan gives rank 0 a
// value-initialized T (0), whatever the operation, as CUDA 13's
// cooperative_groups/details/coalesced_scan.h does. Floating sums add in
// rank order, rounded to the type at each step.

// Warp operations of this file (t.warpOp; runtime.go).
const (
	wCoalesce = wMma + 1 + iota // coalesced_threads(): the lanes waiting at the same call
	wMatch                      // the lanes of the mask whose value equals the caller's
	wGroupOp                    // reduce/scan: wargs[2] = op | type<<4 | mode<<8
)

// group operation codes
const (
	gPlus = iota
	gLess
	gGreater
	gAnd
	gOr
	gXor
)

// value kinds and modes of wGroupOp
const (
	gvSigned = iota
	gvUnsigned
	gvF32
	gvF64
)

const (
	gmReduce = iota
	gmInclusive
	gmExclusive
)

var tCGCoal *Type

// initTCGCoal builds tCGCoal (tables.go).
func initTCGCoal() {
	tCGCoal = cgStruct("cooperative_groups::coalesced_group", cgCoal)
}

// groupMask pushes the lane mask of the group expression g (a tile or a
// coalesced group; a thread_block is rejected).
func (c *compiler) groupMask(g syntax.Expr, what string) bool {
	pos := syntax.PosOf(g)
	t := c.typeOf(g, false)
	switch t.cg {
	case cgTile:
		c.expr(g)
		c.emit(OpPop, 0, 0, pos)
		c.emit(OpConst, 0, int64(t.Len), pos)
		c.emit(OpBuiltin, c.builtinIndexOf("cg/mask", pos), 1, pos)
		return true
	case cgCoal:
		c.expr(g)
		c.emit(OpConst, 0, 4, pos)
		c.emit(OpPtrAdd, 1, 0, pos)
		c.emit(OpLoad, mU32, 0, pos)
		return true
	}
	c.errorf(pos, "C0309", "%s is modeled for thread_block_tile<N> and coalesced_group, not %s", what, t)
	return false
}

// cgCoalCall compiles the coalesced-group functions of cgCall; ok is false
// for other names.
func (c *compiler) cgCoalCall(name string, e *syntax.Call) (*Type, bool) {
	pos := e.Pos
	switch name {
	case "__cg_coalesced_threads":
		if len(e.Args) != 0 {
			c.errorf(pos, "C0304", "coalesced_threads takes no arguments")
		}
		c.emit(OpBuiltin, c.builtinIndexOf("cg/coalesce", pos), 0, pos)
		c.cgNew(tCGCoal, cgCoal, pos)
		return tCGCoal, true
	case "__cg_labeled_partition", "__cg_binary_partition":
		what := name[len("__cg_"):]
		if len(e.Args) != 2 {
			c.errorf(pos, "C0304", "%s takes a group and a %s", what, map[bool]string{true: "label", false: "predicate"}[what == "labeled_partition"])
			c.emit(OpConst, 0, 0, pos)
			return tInt, true
		}
		if !c.groupMask(e.Args[0], what) {
			c.emit(OpConst, 0, 0, pos)
			return tInt, true
		}
		lt := c.expr(e.Args[1])
		if !lt.isInt() && lt.Kind != Bool {
			c.errorf(syntax.PosOf(e.Args[1]), "C0302", "%s of a value of type %s (an integer is needed)", what, lt)
		}
		if what == "binary_partition" {
			c.emit(OpConst, 0, 0, pos)
			c.emit(OpNe, 0, 0, pos)
		}
		c.emit(OpBuiltin, c.builtinIndexOf("cg/match", pos), 2, pos)
		c.cgNew(tCGCoal, cgCoal, pos)
		return tCGCoal, true
	case "__cg_inclusive_scan", "__cg_exclusive_scan":
		mode := gmInclusive
		if name == "__cg_exclusive_scan" {
			mode = gmExclusive
		}
		return c.cgGroupOp(e, mode), true
	case "__cg_reduce":
		if len(e.Args) == 3 && c.typeOf(e.Args[0], false).cg == cgCoal {
			return c.cgGroupOp(e, gmReduce), true
		}
	}
	return nil, false
}

// cgGroupOp compiles reduce/inclusive_scan/exclusive_scan(g, v, op).
func (c *compiler) cgGroupOp(e *syntax.Call, mode int) *Type {
	pos := e.Pos
	what := map[int]string{gmReduce: "reduce", gmInclusive: "inclusive_scan", gmExclusive: "exclusive_scan"}[mode]
	if len(e.Args) != 3 && !(mode != gmReduce && len(e.Args) == 2) {
		c.errorf(pos, "C0304", "%s takes a group, a value and an operation", what)
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	var et *Type
	op := "plus"
	if len(e.Args) == 3 {
		ft := c.typeOf(e.Args[2], false)
		if ft.cg != cgFunctor {
			c.errorf(pos, "C0309", "%s is modeled with cg::plus, less, greater, bit_and, bit_or or bit_xor, not %s", what, ft)
			c.emit(OpConst, 0, 0, pos)
			return tInt
		}
		et = ft.vec
		op = ft.Name[len("cooperative_groups::"):]
		op = op[:len(op)-len(et.String())-2]
	}
	if !c.groupMask(e.Args[0], what) {
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	vt := c.expr(e.Args[1])
	if et == nil {
		et = vt
	}
	if !et.isArith() {
		c.errorf(pos, "C0302", "%s of a value of type %s", what, et)
		et = tInt
	}
	c.convert(vt, et, pos)
	kind := gvSigned
	switch {
	case et.Kind == Float || et.isHalf():
		kind = gvF32
		if et.isHalf() {
			c.errorf(pos, "C0309", "%s of %s is not modeled (float, double and integers are)", what, et)
		}
	case et.Kind == Double:
		kind = gvF64
	case !et.isSigned():
		kind = gvUnsigned
	}
	code := map[string]int{"plus": gPlus, "less": gLess, "greater": gGreater, "bit_and": gAnd, "bit_or": gOr, "bit_xor": gXor}[op]
	if code >= gAnd && kind >= gvF32 {
		c.errorf(pos, "C0302", "cooperative_groups::%s of %s", op, et)
	}
	c.emit(OpConst, 0, int64(code|kind<<4|mode<<8|et.size<<12), pos)
	c.emit(OpBuiltin, c.builtinIndexOf("cg/groupop", pos), 3, pos)
	return et
}

// cgCoalMethod compiles a member function of a coalesced_group.
func (c *compiler) cgCoalMethod(m *syntax.Member, e *syntax.Call) *Type {
	pos := m.Pos
	nargs := map[string]int{"sync": 0, "thread_rank": 0, "size": 0, "num_threads": 0, "meta_group_rank": 0, "meta_group_size": 0,
		"shfl": 2, "shfl_up": 2, "shfl_down": 2, "any": 1, "all": 1, "ballot": 1}
	if !c.cgArity(nargs, "coalesced_group", m, e) {
		return tInt
	}
	slot := c.cgRecv(m)
	mask := func() { c.cgField(slot, 4, pos) }
	switch m.Name {
	case "sync":
		mask()
		c.emit(OpBuiltin, c.builtinIndexOf("__syncwarp", pos), 1, pos)
		return tVoid
	case "thread_rank", "size", "num_threads", "meta_group_rank", "meta_group_size":
		mask()
		c.emit(OpConst, 0, map[string]int64{"thread_rank": 0, "size": 1, "num_threads": 1, "meta_group_rank": 2, "meta_group_size": 3}[m.Name], pos)
		c.emit(OpBuiltin, c.builtinIndexOf("cg/cinfo", pos), 2, pos)
		return tUInt
	case "any", "all", "ballot":
		mask()
		pt := c.expr(e.Args[0])
		c.convert(pt, tInt, pos)
		op := map[string]string{"any": "__any_sync", "all": "__all_sync", "ballot": "__ballot_sync"}[m.Name]
		c.emit(OpBuiltin, c.builtinIndexOf(op, pos), 2, pos)
		if m.Name == "ballot" {
			mask()
			c.emit(OpBuiltin, c.builtinIndexOf("cg/compact", pos), 2, pos)
			return tUInt
		}
		return tInt
	}
	// shfl, shfl_up, shfl_down: __shfl_sync(mask, v, source lane, 32)
	mask()
	vt := c.expr(e.Args[0])
	if !vt.isArith() {
		c.errorf(pos, "C0302", "%s of a value of type %s", m.Name, vt)
	}
	mask()
	at := c.expr(e.Args[1])
	c.convert(at, tInt, pos)
	c.emit(OpConst, 0, map[string]int64{"shfl": 0, "shfl_up": 1, "shfl_down": 2}[m.Name], pos)
	c.emit(OpBuiltin, c.builtinIndexOf("cg/srclane", pos), 3, pos)
	c.emit(OpConst, 0, 32, pos)
	c.emit(OpBuiltin, c.builtinIndexOf("__shfl", pos), 4, pos)
	return vt
}

// nthLane is the lane of rank r in mask (-1: none).
func nthLane(mask uint32, r int) int {
	for l := 0; l < 32; l++ {
		if mask&(1<<l) != 0 {
			if r == 0 {
				return l
			}
			r--
		}
	}
	return -1
}

func initCgcoal() {
	lane := func(t *Thread) int { return int(t.tid) % 32 }
	rank := func(mask uint32, l int) int { return mbits.OnesCount32(mask & (1<<l - 1)) }
	defb("cg/coalesce", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		t.state, t.warpOp, t.waitPos = tsWarp, wCoalesce, pos
		t.syncs++
		t.wargs = [4]uint64{}
		return 0, stBlocked
	})
	warp := func(op int) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			t.state, t.warpOp, t.waitPos = tsWarp, op, pos
			t.syncs++
			t.wargs = [4]uint64{}
			copy(t.wargs[:], a)
			return 0, stBlocked
		}
	}
	defb("cg/match", warp(wMatch))
	defb("cg/groupop", warp(wGroupOp))
	defb("cg/cinfo", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		mask := uint32(a[0])
		switch a[1] {
		case 0:
			return ok(uint64(rank(mask, lane(t))))
		case 1:
			return ok(uint64(mbits.OnesCount32(mask)))
		case 2:
			return ok(0)
		}
		return ok(1)
	})
	defb("cg/compact", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		b, mask := uint32(a[0]), uint32(a[1])
		var r uint64
		for l, k := 0, 0; l < 32; l++ {
			if mask&(1<<l) != 0 {
				if b&(1<<l) != 0 {
					r |= 1 << k
				}
				k++
			}
		}
		return ok(r)
	})
	// cg/srclane(mask, arg, kind): the lane a coalesced shfl (0: rank arg),
	// shfl_up (1) or shfl_down (2) reads
	defb("cg/srclane", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		mask, arg := uint32(a[0]), int(int32(a[1]))
		me := rank(mask, lane(t))
		size := mbits.OnesCount32(mask)
		switch a[2] {
		case 0:
			if arg < 0 || arg >= size {
				m.fault(t, pos, "C0630", "coalesced_group::shfl from rank %d of a group of %d threads (mask 0x%08x): undefined", arg, size, mask)
				m.warpUB = true
				return 0, stFault
			}
			return ok(uint64(nthLane(mask, arg)))
		case 1:
			if me-arg >= 0 && arg >= 0 {
				return ok(uint64(nthLane(mask, me-arg)))
			}
		default:
			if me+arg < size && arg >= 0 {
				return ok(uint64(nthLane(mask, me+arg)))
			}
		}
		return ok(uint64(lane(t)))
	})
}

// releaseCoalesce completes the coalesced_threads() calls of warp lanes
// when no lane of the warp runs: each group is the lanes waiting at one
// call position.
func releaseCoalesce(lanes []*Thread) bool {
	for _, u := range lanes {
		if u.state == tsRunning {
			return false
		}
	}
	released := false
	var handled uint32
	for l, u := range lanes {
		if u.state != tsWarp || u.warpOp != wCoalesce || handled&(1<<l) != 0 {
			continue
		}
		var mask uint32
		for k, v := range lanes {
			if v.state == tsWarp && v.warpOp == wCoalesce && v.waitPos == u.waitPos {
				mask |= 1 << k
			}
		}
		handled |= mask
		for k, v := range lanes {
			if mask&(1<<k) != 0 {
				v.stack = append(v.stack, uint64(mask))
				v.state = tsRunning
			}
		}
		released = true
	}
	return released
}

// groupOpValue computes wMatch and wGroupOp for lane k of the lanes in
// mask.
func groupOpValue(lanes []*Thread, mask uint32, k int) uint64 {
	u := lanes[k]
	if u.warpOp == wMatch {
		var r uint64
		for j := range lanes {
			if mask&(1<<j) != 0 && lanes[j].wargs[1] == u.wargs[1] {
				r |= 1 << j
			}
		}
		return r
	}
	code := int(u.wargs[2])
	op, kind, mode, size := code&15, code>>4&15, code>>8&15, code>>12
	var acc uint64
	have := false
	comb := func(x, y uint64) uint64 {
		switch kind {
		case gvF32, gvF64:
			a, b := math.Float64frombits(x), math.Float64frombits(y)
			var r float64
			switch op {
			case gPlus:
				r = a + b
			case gLess:
				r = math.Min(a, b)
			default:
				r = math.Max(a, b)
			}
			if kind == gvF32 {
				r = float64(float32(r))
			}
			return math.Float64bits(r)
		}
		less := func() bool {
			if kind == gvSigned {
				return int64(x) < int64(y)
			}
			return x < y
		}
		var r uint64
		switch op {
		case gPlus:
			r = x + y
		case gLess:
			r = y
			if less() {
				r = x
			}
		case gGreater:
			r = x
			if less() {
				r = y
			}
		case gAnd:
			r = x & y
		case gOr:
			r = x | y
		default:
			r = x ^ y
		}
		if size < 8 {
			sh := uint(64 - 8*size)
			if kind == gvSigned {
				r = uint64(int64(r<<sh) >> sh)
			} else {
				r = r << sh >> sh
			}
		}
		return r
	}
	for j := range lanes {
		if mask&(1<<j) == 0 {
			continue
		}
		if mode == gmExclusive && j == k {
			break
		}
		v := lanes[j].wargs[1]
		if have {
			acc = comb(acc, v)
		} else {
			acc, have = v, true
		}
		if mode == gmInclusive && j == k {
			break
		}
	}
	if !have {
		acc = 0 // rank 0 of an exclusive scan: T{} (0, 0.0), whatever the operation
	}
	return acc
}

var _ = diag.Pos{}
