package sem

import (
	"fmt"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// Cooperative groups beyond one warp (CUDA Programming Guide, "Cooperative
// Groups", thread_block_tile and block_tile_memory):
//
//   - cg::block_tile_memory<MaxBlockSize> is the scratch a block gives
//     this_thread_block(scratch) so that it can be partitioned into tiles
//     larger than a warp (required before compute capability 8.0). The
//     model needs no scratch of the program's: the type is an opaque
//     object and this_thread_block(scratch) is this_thread_block().
//   - thread_block_tile<N> for N = 64, 128, 256, 512, 1024 is the group of
//     N consecutive threads (by linear id) of the block. sync() is a
//     barrier of exactly those threads (a named barrier of the tile, so a
//     thread of the tile that never arrives is a deadlock, C0502, and the
//     barrier orders the tile's accesses for the race checker);
//     thread_rank, num_threads/size, meta_group_rank and meta_group_size
//     are as for the small tiles; cg::reduce combines the warps' results
//     through the tile's barrier. The warp collectives (shfl*, any, all,
//     ballot) exist only on tiles of at most 32 threads in CUDA: on a
//     larger tile they are C0306, as nvcc rejects them.
//
// A tile's shfl, shfl_up, shfl_down and shfl_xor of a vector type (uint4,
// float2, ...) or of a struct of arithmetic fields shuffles each field,
// as CUDA's templates move any trivially copyable type in 32-bit pieces.

// cgTileBar is the first named-barrier id of the large tiles: tile k of the
// block synchronizes at cgTileBar+k (inline PTX uses ids 0-15).
const cgTileBar = 1 << 16

// maxTile is the largest thread_block_tile: a whole block.
const maxTile = 1024

// namedBarWhat names a named barrier in a deadlock report.
func namedBarWhat(id int) string {
	if id >= cgTileBar {
		return fmt.Sprintf("the sync() of tile %d of a thread_block_tile larger than a warp", id-cgTileBar)
	}
	return fmt.Sprintf("named barrier %d (barrier.cta.sync)", id)
}

var tCGTileMem *Type

// initTCGTileMem builds tCGTileMem (tables.go).
func initTCGTileMem() {
	t := structOf("cooperative_groups::block_tile_memory", "__opaque", tInt)
	tCGTileMem = t
}

// cgTileSync emits the sync of a tile whose size is on the stack.
func (c *compiler) cgTileSync(pos diag.Pos) {
	c.emit(OpBuiltin, c.builtinIndexOf("cg/tsync", pos), 1, pos)
	c.emit(OpPop, 0, 0, pos)
}

// cgBigReduce compiles cg::reduce over a tile of n > 32 threads: the warp
// butterfly (cgReduce) leaves each warp's result in every lane of it;
// every thread publishes it, the tile synchronizes, each thread combines
// the tile's warp results in warp order, and a second sync keeps the
// scratch until all have read it.
func (c *compiler) cgBigReduce(v int, n int, combine func(), pos diag.Pos) {
	c.emit(OpLocal, int32(v), 0, pos)
	c.emit(OpConst, 0, int64(n), pos)
	c.emit(OpBuiltin, c.builtinIndexOf("cg/bigput", pos), 2, pos)
	c.emit(OpPop, 0, 0, pos)
	c.emit(OpConst, 0, int64(n), pos)
	c.cgTileSync(pos)
	for k := 0; k < n/32; k++ {
		if k > 0 {
			c.emit(OpLocal, int32(v), 0, pos)
		}
		c.emit(OpConst, 0, int64(n), pos)
		c.emit(OpConst, 0, int64(k), pos)
		c.emit(OpBuiltin, c.builtinIndexOf("cg/bigget", pos), 2, pos)
		if k > 0 {
			combine()
		}
		c.emit(OpSetLocal, int32(v), 0, pos)
		c.emit(OpPop, 0, 0, pos)
	}
	c.emit(OpConst, 0, int64(n), pos)
	c.cgTileSync(pos)
}

// cgShflFields compiles a tile's shuffle of a struct value (a vector type
// or a struct of arithmetic fields): the address of the value is on the
// stack; each field is shuffled with the same source lane.
func (c *compiler) cgShflFields(vt *Type, slot int, name string, lane syntax.Expr, pos diag.Pos) *Type {
	for _, f := range vt.Fields {
		if !f.Type.isArith() {
			c.errorf(pos, "C0302", "%s of a value of type %s (field %s is not arithmetic)", name, vt, f.Name)
			return vt
		}
	}
	src := c.newSlot()
	c.emit(OpSetLocal, int32(src), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	ln := c.newSlot()
	at := c.expr(lane)
	c.convert(at, tInt, pos)
	c.emit(OpSetLocal, int32(ln), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	dst := c.newSlot()
	c.emit(OpTemp, 0, int64(vt.size), pos)
	c.emit(OpSetLocal, int32(dst), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	for _, f := range vt.Fields {
		c.emit(OpLocal, int32(dst), 0, pos)
		c.emit(OpConst, 0, int64(f.Offset), pos)
		c.emit(OpPtrAdd, 1, 0, pos)
		c.cgField(slot, 4, pos)
		c.emit(OpBuiltin, c.builtinIndexOf("cg/mask", pos), 1, pos)
		c.emit(OpLocal, int32(src), 0, pos)
		c.emit(OpConst, 0, int64(f.Offset), pos)
		c.emit(OpPtrAdd, 1, 0, pos)
		c.load(lval{t: f.Type, slot: -1}, pos)
		c.emit(OpLocal, int32(ln), 0, pos)
		c.cgField(slot, 4, pos)
		c.emit(OpBuiltin, c.builtinIndexOf("__"+name, pos), 4, pos)
		c.emit(OpStore, int32(memCode(f.Type)), 0, pos)
		c.emit(OpPop, 0, 0, pos)
	}
	c.emit(OpLocal, int32(dst), 0, pos)
	return vt
}

func initCgbig() {
	defb("cg/tsync", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		n := int(a[0])
		if t.block == nil {
			return ok(0)
		}
		if n <= 32 {
			var mask uint64 = fullMask
			if n > 0 && n < 32 {
				l := uint64(t.tid) % 32
				mask = ((uint64(1) << n) - 1) << (l / uint64(n) * uint64(n))
			}
			return builtinTable[builtinIndex["__syncwarp"]].fn(m, t, []uint64{mask}, pos)
		}
		t.syncs++
		return 0, m.namedArrive(t, cgTileBar+int(t.tid)/n, n, true, pos)
	})
	// cg/bigput(v, n): publish this thread's warp result in its tile's
	// scratch (one slot per warp of the tile; the lanes of a warp agree)
	defb("cg/bigput", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		b, n := t.block, int(a[1])
		if b == nil || n <= 0 {
			return ok(0)
		}
		if b.tileScratch == nil {
			b.tileScratch = map[int][]uint64{}
		}
		k := int(t.tid) / n
		s := b.tileScratch[k]
		if s == nil {
			s = make([]uint64, (n+31)/32)
			b.tileScratch[k] = s
		}
		s[int(t.tid)%n/32] = a[0]
		return ok(0)
	})
	// cg/bigget(n, w): warp w's result in this thread's tile
	defb("cg/bigget", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		b, n, w := t.block, int(a[0]), int(a[1])
		if b == nil || n <= 0 {
			return ok(0)
		}
		s := b.tileScratch[int(t.tid)/n]
		if w >= len(s) {
			return ok(0)
		}
		return ok(s[w])
	})
}
