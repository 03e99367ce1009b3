package sem

import (
	"fmt"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Cooperative groups (cooperative_groups.h) as built-in objects mapped onto
// the barrier and warp machinery, so that races and barrier divergence are
// detected through them exactly as through the intrinsics they stand for
// (CUDA Programming Guide, "Cooperative Groups"):
//
//   - thread_block::sync() and cg::sync(block) are __syncthreads() at the
//     call's position (a divergent block.sync() is C0502);
//   - thread_block_tile<N> (N a power of two up to 32) is the aligned group
//     of N lanes of a warp: sync() is __syncwarp(tile mask), and shfl,
//     shfl_up, shfl_down, shfl_xor, any, all and ballot are the _sync
//     intrinsics with the tile's mask and width N;
//   - thread_rank(), size()/num_threads(), meta_group_rank() and
//     meta_group_size() are computed from the thread's linear id;
//   - cg::reduce(tile, v, op) is a butterfly of shfl_xor over the tile with
//     cg::plus, less, greater, bit_and, bit_or or bit_xor.
//
// A group object is a struct {int kind; int size;} (kind 0: the block, 1: a
// tile); thread_group holds either and dispatches at run time.

const (
	cgBlock = 1 + iota
	cgTile
	cgGroup
	cgFunctor
	cgGrid // grid_group (gridsync.go)
	cgCoal // coalesced_group (cgcoal.go)
)

var (
	tCGBlock = cgStruct("cooperative_groups::thread_block", cgBlock)
	tCGGroup = cgStruct("cooperative_groups::thread_group", cgGroup)
	tCGGrid  = cgStruct("cooperative_groups::grid_group", cgGrid)
	cgTiles  = map[int]*Type{}
	cgFuncs  = map[string]*Type{}
)

func cgStruct(name string, kind int) *Type {
	t := structOf(name, "__kind", tInt, "__size", tInt)
	t.cg = kind
	return t
}

func cgTileType(n int) *Type {
	if t := cgTiles[n]; t != nil {
		return t
	}
	t := cgStruct(fmt.Sprintf("cooperative_groups::thread_block_tile<%d>", n), cgTile)
	t.Len = n
	cgTiles[n] = t
	return t
}

// cgAssignable: a block or a tile may be stored in a thread_group.
func cgAssignable(to, from *Type) bool {
	return to.cg == cgGroup && (from.cg == cgBlock || from.cg == cgTile || from.cg == cgGroup)
}

func (c *compiler) cgType(te *syntax.TypeExpr) *Type {
	name := te.Name[len("__cg_"):]
	switch name {
	case "thread_block":
		return tCGBlock
	case "thread_group":
		return tCGGroup
	case "grid_group":
		return tCGGrid
	case "coalesced_group":
		return tCGCoal
	case "thread_block_tile":
		n := int64(32)
		if te.TArg != nil {
			v, ok := c.constExpr(te.TArg)
			if !ok {
				c.errorf(te.Pos, "C0313", "thread_block_tile size is not a constant")
			}
			n = v
		}
		if n < 1 || n > maxTile || n&(n-1) != 0 {
			c.errorf(te.Pos, "C0309", "thread_block_tile<%d>: the tile sizes are powers of two up to %d", n, maxTile)
			n = 32
		}
		return cgTileType(int(n))
	case "block_tile_memory":
		return tCGTileMem // cgbig.go
	case "plus", "less", "greater", "bit_and", "bit_or", "bit_xor":
		et := tInt
		if te.TArgType != nil {
			et = c.resolve(te.TArgType)
		}
		key := name + "<" + et.String() + ">"
		if t := cgFuncs[key]; t != nil {
			return t
		}
		t := structOf("cooperative_groups::"+key, "__op", tInt)
		t.cg, t.vec = cgFunctor, et
		cgFuncs[key] = t
		return t
	}
	switch name {
	case "multi_grid_group", "cluster_group":
		// already reported (C0309) where the name was written
	default:
		c.errorf(te.Pos, "C0309", "cooperative_groups::%s is not a modeled type", name)
	}
	return tInt
}

// cgNew pushes a new group object of type t with the kind and the size on
// the stack below it (consumed): size must already be pushed.
func (c *compiler) cgNew(t *Type, kind int64, pos diag.Pos) {
	c.emit(OpTemp, 0, int64(t.size), pos)
	c.emit(OpDup, 0, 0, pos)
	c.emit(OpConst, 0, kind, pos)
	c.emit(OpStore, mI32, 0, pos)
	c.emit(OpPop, 0, 0, pos)
	// size obj -> obj size obj -> obj size obj+4 -> obj obj+4 size
	c.emit(OpDupX1, 0, 0, pos)
	c.emit(OpConst, 0, 4, pos)
	c.emit(OpPtrAdd, 1, 0, pos)
	c.emit(OpSwap, 0, 0, pos)
	c.emit(OpStore, mI32, 0, pos)
	c.emit(OpPop, 0, 0, pos)
}

// cgCall compiles the free functions of cooperative_groups.
func (c *compiler) cgCall(name string, e *syntax.Call) *Type {
	pos := e.Pos
	if c.hostOnly() {
		c.errorf(pos, "C0307", "cooperative_groups::%s can only be called from device code", name[5:])
	}
	if t, ok := c.cgCoalCall(name, e); ok {
		return t
	}
	if t, ok := c.cgAsyncCall(name, e); ok {
		return t // memcpy_async, wait, wait_prior (cgasync.go)
	}
	switch name {
	case "__cg_this_thread_block":
		switch {
		case len(e.Args) == 1 && c.typeOf(e.Args[0], false) == tCGTileMem:
			// this_thread_block(scratch): the scratch is not needed (cgbig.go)
			c.lvalue(e.Args[0])
			c.emit(OpPop, 0, 0, pos)
		case len(e.Args) != 0:
			c.errorf(pos, "C0304", "this_thread_block takes no arguments, or a cooperative_groups::block_tile_memory")
		}
		c.emit(OpBuiltin, c.builtinIndexOf("cg/size", pos), 0, pos)
		c.cgNew(tCGBlock, 0, pos)
		return tCGBlock
	case "__cg_this_grid":
		if len(e.Args) != 0 {
			c.errorf(pos, "C0304", "this_grid takes no arguments")
		}
		c.emit(OpConst, 0, 0, pos)
		c.cgNew(tCGGrid, 2, pos)
		return tCGGrid
	case "__cg_tiled_partition":
		var t *Type
		switch {
		case len(e.Args) == 1 && len(e.TArgExpr) == 1 && e.TArgExpr[0] != nil:
			t = c.cgType(&syntax.TypeExpr{Kind: syntax.TNamed, Name: "__cg_thread_block_tile", Pos: pos, TArg: e.TArgExpr[0]})
			c.cgParent(e.Args[0])
			c.emit(OpConst, 0, int64(t.Len), pos)
		case len(e.Args) == 2 && len(e.TArgExpr) == 0:
			t = tCGGroup
			c.cgParent(e.Args[0])
			st := c.expr(e.Args[1])
			c.convert(st, tInt, pos)
		default:
			c.errorf(pos, "C0304", "tiled_partition takes a group and a size: tiled_partition<N>(g) or tiled_partition(g, n)")
			c.emit(OpConst, 0, 0, pos)
			return tInt
		}
		c.cgNew(t, 1, pos)
		return t
	case "__cg_sync":
		if len(e.Args) != 1 {
			c.errorf(pos, "C0304", "sync takes one group")
			c.emit(OpConst, 0, 0, pos)
			return tVoid
		}
		return c.cgMethod(c.typeOf(e.Args[0], false), &syntax.Member{Pos: pos, X: e.Args[0], Name: "sync"}, &syntax.Call{Pos: pos, RParen: e.RParen})
	case "__cg_reduce":
		return c.cgReduce(e)
	}
	c.errorf(pos, "C0309", "cooperative_groups::%s is not modeled as a function", name[5:])
	c.emit(OpConst, 0, 0, pos)
	return tInt
}

// cgParent evaluates the parent group of a partition (and drops it).
func (c *compiler) cgParent(g syntax.Expr) {
	t := c.expr(g)
	if t.cg != cgBlock && t.cg != cgTile && t.cg != cgGroup {
		c.errorf(syntax.PosOf(g), "C0302", "tiled_partition of %s, not a thread group", t)
	}
	c.emit(OpPop, 0, 0, syntax.PosOf(g))
}

// cgRecv leaves the address of the receiver group in a new slot.
func (c *compiler) cgRecv(m *syntax.Member) int {
	if m.Arrow {
		c.expr(m.X)
	} else {
		lv := c.lvalue(m.X)
		if lv.slot >= 0 {
			c.emit(OpConst, 0, 0, m.Pos)
		}
	}
	slot := c.newSlot()
	c.emit(OpSetLocal, int32(slot), 0, m.Pos)
	c.emit(OpPop, 0, 0, m.Pos)
	return slot
}

// cgField pushes field off (0: kind, 4: size) of the group in slot.
func (c *compiler) cgField(slot int, off int64, pos diag.Pos) {
	c.emit(OpLocal, int32(slot), 0, pos)
	c.emit(OpConst, 0, off, pos)
	c.emit(OpPtrAdd, 1, 0, pos)
	c.emit(OpLoad, mI32, 0, pos)
}

func (c *compiler) cgMethod(st *Type, m *syntax.Member, e *syntax.Call) *Type {
	pos := m.Pos
	if st.Kind == Ptr && m.Arrow {
		st = st.Elem
	}
	if c.hostOnly() {
		c.errorf(pos, "C0307", "%s::%s can only be called from device code", st, m.Name)
	}
	if st.cg == cgGrid {
		return c.gridMethod(m, e)
	}
	if st.cg == cgCoal {
		return c.cgCoalMethod(m, e)
	}
	if st.cg != cgBlock && st.cg != cgTile && st.cg != cgGroup {
		c.errorf(pos, "C0306", "no member function %s in %s", m.Name, st)
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	nargs := map[string]int{"sync": 0, "thread_rank": 0, "size": 0, "num_threads": 0, "meta_group_rank": 0, "meta_group_size": 0,
		"group_index": 0, "thread_index": 0, "group_dim": 0, "dim_threads": 0,
		"shfl": 2, "shfl_up": 2, "shfl_down": 2, "shfl_xor": 2, "any": 1, "all": 1, "ballot": 1}
	if !c.cgArity(nargs, st.String(), m, e) {
		return tInt
	}
	slot := c.cgRecv(m)
	kindAndSize := func() {
		c.cgField(slot, 0, pos)
		c.cgField(slot, 4, pos)
	}
	switch m.Name {
	case "sync":
		switch st.cg {
		case cgBlock:
			c.emit(OpBuiltin, c.builtinIndexOf("__syncthreads", pos), 0, pos)
		case cgTile:
			c.cgField(slot, 4, pos)
			c.emit(OpBuiltin, c.builtinIndexOf("cg/tsync", pos), 1, pos) // cgbig.go
		default:
			c.cgField(slot, 0, pos)
			jz := c.emit(OpJz, 0, 0, pos)
			c.cgField(slot, 4, pos)
			c.emit(OpBuiltin, c.builtinIndexOf("cg/tsync", pos), 1, pos)
			j := c.emit(OpJmp, 0, 0, pos)
			c.patch(jz)
			c.emit(OpBuiltin, c.builtinIndexOf("__syncthreads", pos), 0, pos)
			c.patch(j)
		}
		return tVoid
	case "thread_rank", "size", "num_threads", "meta_group_rank", "meta_group_size":
		kindAndSize()
		which := map[string]int64{"thread_rank": 0, "size": 1, "num_threads": 1, "meta_group_rank": 2, "meta_group_size": 3}[m.Name]
		c.emit(OpConst, 0, which, pos)
		c.emit(OpBuiltin, c.builtinIndexOf("cg/info", pos), 3, pos)
		return tUInt
	case "group_index", "thread_index", "group_dim", "dim_threads":
		if st.cg != cgBlock {
			c.errorf(pos, "C0306", "no member function %s in %s", m.Name, st)
		}
		regs := map[string][3]int{"group_index": sregs["blockIdx"], "thread_index": sregs["threadIdx"],
			"group_dim": sregs["blockDim"], "dim_threads": sregs["blockDim"]}[m.Name]
		c.emit(OpTemp, 0, int64(tDim3.size), pos)
		for k := 0; k < 3; k++ {
			c.emit(OpDup, 0, 0, pos)
			c.emit(OpConst, 0, int64(4*k), pos)
			c.emit(OpPtrAdd, 1, 0, pos)
			c.emit(OpSReg, int32(regs[k]), 0, pos)
			c.emit(OpStore, mU32, 0, pos)
			c.emit(OpPop, 0, 0, pos)
		}
		return tDim3
	}
	// warp collectives over the tile
	if st.cg == cgBlock {
		c.errorf(pos, "C0309", "thread_block::%s is not a CUDA operation (partition the block into tiles)", m.Name)
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	if st.cg == cgTile && st.Len > 32 {
		c.errorf(pos, "C0306", "no member function %s in %s: CUDA's warp collectives are members of tiles of at most 32 threads", m.Name, st)
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	if m.Name != "any" && m.Name != "all" && m.Name != "ballot" {
		if vt := c.typeOf(e.Args[0], false); vt.Kind == Struct && vt.cg == 0 && vt.std == 0 {
			c.expr(e.Args[0])
			return c.cgShflFields(vt, slot, m.Name, e.Args[1], pos) // cgbig.go
		}
	}
	c.cgField(slot, 4, pos)
	c.emit(OpBuiltin, c.builtinIndexOf("cg/mask", pos), 1, pos)
	switch m.Name {
	case "any", "all", "ballot":
		pt := c.expr(e.Args[0])
		c.convert(pt, tInt, pos)
		op := map[string]string{"any": "__any_sync", "all": "__all_sync", "ballot": "__ballot_sync"}[m.Name]
		c.emit(OpBuiltin, c.builtinIndexOf(op, pos), 2, pos)
		if m.Name == "ballot" {
			// relative to the tile: lane i of the tile is bit i
			c.cgField(slot, 4, pos)
			c.emit(OpBuiltin, c.builtinIndexOf("cg/base", pos), 1, pos)
			c.emit(OpShr, 0, 0, pos)
			return tUInt
		}
		return tInt
	}
	vt := c.expr(e.Args[0])
	if !vt.isArith() {
		c.errorf(pos, "C0302", "%s of a value of type %s", m.Name, vt)
	}
	at := c.expr(e.Args[1])
	c.convert(at, tInt, pos)
	c.cgField(slot, 4, pos)
	c.emit(OpBuiltin, c.builtinIndexOf("__"+m.Name, pos), 4, pos)
	return vt
}

// cgReduce compiles cg::reduce(tile, value, op) as a shfl_xor butterfly:
// every lane of the tile gets op over all lanes' values.
func (c *compiler) cgReduce(e *syntax.Call) *Type {
	pos := e.Pos
	if len(e.Args) != 3 {
		c.errorf(pos, "C0304", "reduce takes a tile, a value and an operation")
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	gt := c.typeOf(e.Args[0], false)
	ft := c.typeOf(e.Args[2], false)
	if gt.cg != cgTile || ft.cg != cgFunctor {
		c.errorf(pos, "C0309", "reduce is modeled for thread_block_tile<N> with cg::plus, less, greater, bit_and, bit_or or bit_xor, not %s and %s", gt, ft)
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	et := ft.vec
	op := ft.Name[len("cooperative_groups::"):]
	op = op[:len(op)-len(et.String())-2]
	v := c.newSlot()
	vt := c.expr(e.Args[1])
	c.convert(vt, et, pos)
	c.emit(OpSetLocal, int32(v), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	combine := func() {
		switch op {
		case "plus":
			c.convert(c.arith("+", et, et, pos), et, pos)
		case "bit_and", "bit_or", "bit_xor":
			if !et.isInt() {
				c.errorf(pos, "C0302", "cooperative_groups::%s of %s", op, et)
			}
			c.convert(c.arith(map[string]string{"bit_and": "&", "bit_or": "|", "bit_xor": "^"}[op], et, et, pos), et, pos)
		default:
			kind := "i"
			switch {
			case et.isFloat():
				kind = "f"
			case !et.isSigned():
				kind = "u"
			}
			mm := "min"
			if op == "greater" {
				mm = "max"
			}
			c.emit(OpBuiltin, c.builtinIndexOf(mm+"/"+kind, pos), 2, pos)
		}
	}
	n := min(gt.Len, 32)
	for off := n / 2; off >= 1; off /= 2 {
		c.emit(OpLocal, int32(v), 0, pos)
		c.emit(OpConst, 0, int64(n), pos)
		c.emit(OpBuiltin, c.builtinIndexOf("cg/mask", pos), 1, pos)
		c.emit(OpLocal, int32(v), 0, pos)
		c.emit(OpConst, 0, int64(off), pos)
		c.emit(OpConst, 0, int64(n), pos)
		c.emit(OpBuiltin, c.builtinIndexOf("__shfl_xor", pos), 4, pos)
		combine()
		c.emit(OpSetLocal, int32(v), 0, pos)
		c.emit(OpPop, 0, 0, pos)
	}
	if gt.Len > 32 {
		c.cgBigReduce(v, gt.Len, combine, pos) // cgbig.go
	}
	c.emit(OpLocal, int32(v), 0, pos)
	return et
}

func initCg() {
	lane := func(t *Thread) uint64 { return uint64(t.tid) % 32 }
	defb("cg/mask", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		n := a[0]
		if n == 0 || n >= 32 {
			return ok(fullMask)
		}
		return ok(((uint64(1) << n) - 1) << (lane(t) / n * n))
	})
	defb("cg/base", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		n := a[0]
		if n == 0 || n >= 32 {
			return ok(0)
		}
		return ok(lane(t) / n * n)
	})
	// cg/size: the number of threads of the block
	defb("cg/size", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if t.block == nil {
			return ok(1)
		}
		return ok(uint64(len(t.block.threads)))
	})
	// cg/info(kind, size, which): thread_rank, size, meta_group_rank, meta_group_size
	defb("cg/info", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		kind, size, which := a[0], a[1], a[2]
		nthreads := uint64(1)
		if t.block != nil {
			nthreads = uint64(len(t.block.threads))
		}
		if kind == 0 || size == 0 {
			switch which {
			case 0:
				return ok(uint64(t.tid))
			case 1:
				return ok(nthreads)
			case 2:
				return ok(0)
			}
			return ok(1)
		}
		switch which {
		case 0:
			return ok(uint64(t.tid) % size)
		case 1:
			return ok(size)
		case 2:
			return ok(uint64(t.tid) / size)
		}
		return ok((nthreads + size - 1) / size)
	})
}

// cgArity checks a call of the group member function m against nargs (the
// members modelled and their argument counts): an unmodelled member is
// C0309, a wrong count C0304; either emits a 0 in place of the call.
func (c *compiler) cgArity(nargs map[string]int, group string, m *syntax.Member, e *syntax.Call) bool {
	want, known := nargs[m.Name]
	switch {
	case !known:
		c.errorf(m.Pos, "C0309", "%s::%s is not modeled", group, m.Name)
	case len(e.Args) != want:
		c.errorf(m.Pos, "C0304", "%s takes %d arguments, %d given", m.Name, want, len(e.Args))
	default:
		return true
	}
	c.emit(OpConst, 0, 0, m.Pos)
	return false
}
