package sem

import (
	"fmt"

	"weft.dev/weft/lang/cudac/syntax"
)

// grid_group (CUDA Programming Guide, "Grid Synchronization"): this_grid()
// and grid.sync(), the barrier of every thread of a grid, for kernels
// launched with cudaLaunchCooperativeKernel (whose blocks are all resident).
// The scheduler runs blocks one at a time; a block whose threads all wait
// at grid.sync is set aside, and when every block of the grid waits the
// grid's epoch advances and all of them go on. Accesses of different blocks
// separated by a grid.sync are ordered (seg.gepoch). A block that finished,
// or waits elsewhere, while others wait at grid.sync is a deadlock (C0502).

func (c *compiler) gridMethod(m *syntax.Member, e *syntax.Call) *Type {
	pos := m.Pos
	want := map[string]int{"sync": 0, "thread_rank": 0, "size": 0, "num_threads": 0, "block_rank": 0, "num_blocks": 0, "is_valid": 0}
	n, known := want[m.Name]
	if !known {
		c.errorf(pos, "C0309", "grid_group::%s is not modeled", m.Name)
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	if len(e.Args) != n {
		c.errorf(pos, "C0304", "%s takes no arguments", m.Name)
	}
	c.cgRecv(m)
	if m.Name == "sync" {
		c.emit(OpBuiltin, c.builtinIndexOf("cg/gridsync", pos), 0, pos)
		return tVoid
	}
	c.emit(OpConst, 0, map[string]int64{"thread_rank": 0, "size": 1, "num_threads": 1, "block_rank": 2, "num_blocks": 3, "is_valid": 4}[m.Name], pos)
	c.emit(OpBuiltin, c.builtinIndexOf("cg/gridinfo", pos), 1, pos)
	if m.Name == "thread_rank" || m.Name == "size" || m.Name == "num_threads" {
		return tULLong
	}
	return tUInt
}

func initGridsync() {
	defb("cg/gridsync", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if g := t.block.grid; !g.cooperative {
			// CUDA Programming Guide, "Grid Synchronization": only a
			// cooperative launch guarantees that all blocks are resident
			m.fault(t, pos, "C0607", "grid.sync() in kernel %s, which was not launched with cudaLaunchCooperativeKernel (or the cooperative launch attribute)", g.fn.Name)
			return 0, stFault
		}
		t.state, t.waitPos = tsGrid, pos
		t.syncs++
		return 0, stBlocked
	})
	defb("cg/gridinfo", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		g := t.block.grid
		nt, nb := uint64(g.bdim.Size()), uint64(g.gdim.Size())
		switch a[0] {
		case 0:
			return ok(uint64(t.block.id)*nt + uint64(t.tid))
		case 1:
			return ok(nt * nb)
		case 2:
			return ok(uint64(t.block.id))
		case 3:
			return ok(nb)
		}
		return ok(1)
	})
}

// atGridSync reports whether every thread of b waits at grid.sync.
func atGridSync(b *blockRun) bool {
	for _, t := range b.threads {
		if t.state != tsGrid {
			return false
		}
	}
	return true
}

// releaseGrid lets every block of waiting go on past grid.sync.
func (m *Machine) releaseGrid(g *gridRun, waiting []*blockExec) {
	g.gepoch++
	for _, e := range waiting {
		for _, t := range e.b.threads {
			t.stack = append(t.stack, 0)
			t.state = tsRunning
		}
		e.b.epoch++ // a grid barrier is also a block barrier
		e.rebuild()
	}
}

// gridDeadlock reports blocks waiting at grid.sync that the others will
// never join.
func (m *Machine) gridDeadlock(g *gridRun, waiting []*blockExec, done, parked int) {
	var ids []int
	for _, e := range waiting {
		ids = append(ids, int(e.b.id))
	}
	why := fmt.Sprintf("%d blocks finished", done)
	if parked > 0 {
		why += fmt.Sprintf(" and %d blocks spin", parked)
	}
	d := m.diags.Errorf(m.pos(waiting[0].b.threads[0].waitPos), "C0502", "deadlock in kernel %s: blocks %v wait at grid.sync() while %s without reaching it", g.fn.Name, ids, why)
	d.Note(m.pos(waiting[0].b.threads[0].waitPos), "block %d waits here", waiting[0].b.id)
	m.failed = true
	m.faultSeen = true
}
