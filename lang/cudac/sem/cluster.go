package sem

import (
	"fmt"
	"sort"

	"weft.dev/weft/gpu"
	"weft.dev/weft/lang/cudac/ptx"
)

// Thread block clusters (PTX ISA "Cluster of Cooperative Thread Arrays",
// ptx.md §7): a launch with a cluster dimension (cudaLaunchKernelEx's
// cudaLaunchAttributeClusterDimension) groups its CTAs into clusters whose
// CTAs are co-scheduled. The scheduler starts every CTA of a cluster
// together and runs them interleaved: a CTA whose threads can only wait at
// barrier.cluster.wait or on an mbarrier is set aside (bsCluster) and the
// other CTAs of its cluster run; a release by one CTA (the last arrival at
// the cluster barrier, a remote mbarrier arrive, a multicast TMA completing
// bytes) makes the waiters of another runnable again. When no CTA of the
// cluster can move, that is a deadlock (C0502) with every waiter's position.
//
// Distributed shared memory (ptx.md §7 "mapa"): the shared window
// (asm.go) has the same layout in every CTA of a grid, and a shared::cluster
// address is (rank+1)<<clusterRankShift | offset, the offset in CTA rank's
// window; a shared::cta address (rank bits zero) names the executing CTA.
//
// Happens-before: the vector clocks of split synchronization (asm.go) are
// indexed by the thread's index in its cluster (rank*threads + tid), so a
// barrier.cluster arrive(.release)/wait(.acquire) or an mbarrier arrive on
// another CTA's barrier orders accesses across the CTAs of a cluster
// (ptx.md §8 item 7), and nothing else does.

// clusterRankShift places the rank of a shared::cluster address above any
// window offset (a CTA has at most 228 KB of shared memory).
const clusterRankShift = 24

// maxClusterCTAs is the largest cluster (16 with the non-portable size
// attribute on sm_90; CUDA Programming Guide, "Thread Block Clusters").
const maxClusterCTAs = 16

// clusterRun is one cluster of a launch with clusters of more than one CTA.
type clusterRun struct {
	id     int32
	blocks []*blockRun // by rank
	execs  []*blockExec
	bar    clusterBar
	done   int // CTAs that finished
}

// clusterDim is g's cluster shape (1x1x1 without clusters).
func (g *gridRun) clusterDim() gpu.Dim3 {
	return gpu.Dim3{X: max(g.cluster.X, 1), Y: max(g.cluster.Y, 1), Z: max(g.cluster.Z, 1)}
}

// clustered reports a launch with clusters of more than one CTA.
func (g *gridRun) clustered() bool { return g.clusterDim().Size() > 1 }

// clusterOf is the linear cluster id and rank of block bi.
func (g *gridRun) clusterOf(bi int32) (int32, int32) {
	cd := g.clusterDim()
	b := g.gdim.Unlinear(int(bi))
	nx, ny := g.gdim.X/cd.X, g.gdim.Y/cd.Y
	id := b.X/cd.X + nx*(b.Y/cd.Y+ny*(b.Z/cd.Z))
	rank := b.X%cd.X + cd.X*(b.Y%cd.Y+cd.Y*(b.Z%cd.Z))
	return int32(id), int32(rank)
}

// clusterBlocks lists the linear block ids of cluster id by rank.
func (g *gridRun) clusterBlocks(id int32) []int32 {
	cd := g.clusterDim()
	nx, ny := g.gdim.X/cd.X, g.gdim.Y/cd.Y
	cx, cy, cz := int(id)%nx, int(id)/nx%ny, int(id)/nx/ny
	out := make([]int32, 0, cd.Size())
	for r := 0; r < cd.Size(); r++ {
		in := cd.Unlinear(r)
		x, y, z := cx*cd.X+in.X, cy*cd.Y+in.Y, cz*cd.Z+in.Z
		out = append(out, int32(x+g.gdim.X*(y+g.gdim.Y*z)))
	}
	return out
}

// clusterCheck is why a cluster shape cannot be launched on g's grid, or "".
func clusterCheck(g *gridRun) string {
	if !g.clustered() {
		return ""
	}
	cd := g.clusterDim()
	switch {
	case cd.Size() > maxClusterCTAs:
		return fmt.Sprintf("a cluster of %d CTAs exceeds the limit of %d", cd.Size(), maxClusterCTAs)
	case g.gdim.X%cd.X != 0 || g.gdim.Y%cd.Y != 0 || g.gdim.Z%cd.Z != 0:
		return fmt.Sprintf("grid %dx%dx%d is not a multiple of the cluster dimension %dx%dx%d", g.gdim.X, g.gdim.Y, g.gdim.Z, cd.X, cd.Y, cd.Z)
	}
	return ""
}

// startCluster starts every CTA of the cluster of block bi.
func (m *Machine) startCluster(g *gridRun, bi int32, ctx *accessCtx) *clusterRun {
	id, _ := g.clusterOf(bi)
	cl := &clusterRun{id: id}
	for r, b := range g.clusterBlocks(id) {
		e := m.startBlock(g, b, ctx)
		e.b.cl, e.b.rank = cl, int32(r)
		cl.blocks = append(cl.blocks, e.b)
		cl.execs = append(cl.execs, e)
	}
	return cl
}

// hbIdx is t's index in the vectors of split synchronization: its index in
// its cluster (its tid without clusters).
func (t *Thread) hbIdx() int32 {
	if b := t.block; b != nil && b.cl != nil {
		return b.rank*int32(len(b.threads)) + t.tid
	}
	return t.tid
}

// peer is the CTA of rank r in t's cluster (t's own block for its rank),
// or nil.
func (t *Thread) peer(r uint64) *blockRun {
	b := t.block
	if b.cl == nil {
		if r == 0 {
			return b
		}
		return nil
	}
	if r >= uint64(len(b.cl.blocks)) {
		return nil
	}
	return b.cl.blocks[r]
}

// sameCluster reports whether block id is a CTA of b's cluster.
func (b *blockRun) sameCluster(id int32) bool {
	if b.cl == nil {
		return false
	}
	for _, p := range b.cl.blocks {
		if p.id == id {
			return true
		}
	}
	return false
}

// ownerOf is the CTA of t's cluster whose shared memory p points into.
func (m *Machine) ownerOf(t *Thread, p uint64) *blockRun {
	id := p >> 32
	if id == 0 || id >= uint64(len(m.objs)) || m.objs[id].Space != SpaceShared {
		return t.block
	}
	o := m.objs[id]
	if o.Block == t.block.id || t.block.cl == nil {
		return t.block
	}
	for _, b := range t.block.cl.blocks {
		if b.id == o.Block {
			return b
		}
	}
	return t.block
}

// live counts the threads of the CTAs that have not exited.
func liveThreads(bs []*blockRun) int {
	n := 0
	for _, b := range bs {
		for _, u := range b.threads {
			if u.state != tsDone {
				n++
			}
		}
	}
	return n
}

// mapa (PTX ISA "Data Movement and Conversion Instructions: mapa", ptx.md
// §7): the address of the corresponding location in CTA rank of the
// cluster. With .shared::cluster the operand is a shared::cta or
// shared::cluster address and so is the result; without it both are
// generic addresses of shared memory.
func (m *Machine) mapa(t *Thread, st *asmState, in *ptx.Inst, pos int32) status {
	a := st.read(t, in.Args[1])
	r := st.read(t, in.Args[2])
	dst := t.peer(r)
	if dst == nil {
		m.fault(t, pos, "C0405", "%s: CTA rank %d is not in the cluster of %d CTAs", in.Op, r, t.clusterSize())
		return stFault
	}
	if len(in.Mods) == 3 {
		st.write(in.Args[0], (r+1)<<clusterRankShift|a&(1<<clusterRankShift-1))
		return stDone
	}
	// generic: the same shared variable and offset in CTA rank
	win, good := m.sharedAddr(t, a, pos)
	if !good {
		return stFault
	}
	p, good := m.windowPtr(t, dst, win, pos)
	if !good {
		return stFault
	}
	st.write(in.Args[0], p)
	return stDone
}

// clusterBarrier is barrier.cluster.arrive / wait (ptx.md §7): a split
// barrier of every thread of every CTA of the cluster; each thread arrives
// once per phase and its wait returns once every thread of the cluster that
// has not exited arrived. The arrivals release, the wait acquires, at
// cluster scope (ptx.md §8 item 7); .relaxed arrivals do not release.
func (m *Machine) clusterBarrier(t *Thread, in *ptx.Inst, pos int32) status {
	b := t.block
	cb, bs := b.clBar, []*blockRun{b}
	if b.cl != nil {
		cb, bs = &b.cl.bar, b.cl.blocks
	} else if cb == nil {
		b.clBar = &clusterBar{}
		cb = b.clBar
	}
	t.syncs++
	if in.Kind == ptx.KClusterArrive {
		if t.clPhase > cb.phase {
			m.fault(t, pos, "C0315", "%s: a thread arrives twice in one phase of the cluster barrier", in.Op)
			return stFault
		}
		t.clPhase = cb.phase + 1
		if len(in.Mods) < 4 || in.Mods[3] != "relaxed" {
			cb.vc = m.hbRelease(t, cb.vc)
		}
		cb.arrived++
		if cb.arrived >= liveThreads(bs) {
			m.clusterRelease(cb, bs)
		}
		return stDone
	}
	if t.clPhase == 0 || t.clPhase > cb.phase+1 {
		m.fault(t, pos, "C0315", "%s without a matching barrier.cluster.arrive", in.Op)
		return stFault
	}
	if t.clPhase <= cb.phase {
		m.hbAcquire(t, cb.done)
		return stDone
	}
	t.state, t.waitPos = tsCluster, pos
	return stBlocked
}

// clusterWaits reports whether a thread of b waits for something another
// CTA of its cluster may release.
func clusterWaits(b *blockRun) bool {
	if b.cl == nil {
		return false
	}
	for _, t := range b.threads {
		if t.state == tsCluster || t.state == tsMbar {
			return true
		}
	}
	return false
}

// clusterDeadlock reports CTAs of clusters none of whose threads can move.
func (m *Machine) clusterDeadlock(g *gridRun, waiting []*blockExec) {
	blocks := make([]*blockRun, 0, len(waiting))
	for _, e := range waiting {
		blocks = append(blocks, e.b)
	}
	sort.Slice(blocks, func(i, j int) bool { return blocks[i].id < blocks[j].id })
	id, _ := g.clusterOf(blocks[0].id)
	m.stalled(g, blocks, "C0502", fmt.Sprintf("deadlock in cluster %d of kernel %s: a cluster barrier or mbarrier phase that threads wait for can never complete", id, g.fn.Name))
}

// sharedMem runs ld, st, atom.add and red.add on shared memory (PTX ISA
// "ld", "st", "atom", "red"): through a shared::cluster address they access
// another CTA's shared memory (distributed shared memory, ptx.md §7). A
// form with a memory order, and atom/red, is a strong access for the race
// detector.
func (m *Machine) sharedMem(t *Thread, st *asmState, in *ptx.Inst, pos int32) status {
	ai := 1
	if in.Kind == ptx.KStShared || in.Mods[0] == "red" {
		ai = 0
	}
	p, good := m.addr(t, st, in.Args[ai], true, pos)
	if !good {
		return stFault
	}
	n := ptx.MemSize(in)
	if uint32(p)%uint32(n) != 0 {
		m.fault(t, pos, "C0403", "%s: a misaligned %d-byte access", in.Op, n)
		return stFault
	}
	write := in.Kind != ptx.KLdShared
	d, good := m.resolveA(t, p, n, pos, write, false, ptx.Strong(in))
	if !good {
		return stFault
	}
	old := loadN(d, n)
	if write {
		m.mver++ // a change another CTA may spin on (spin.go)
	}
	switch in.Kind {
	case ptx.KLdShared:
		st.write(in.Args[0], old)
	case ptx.KStShared:
		storeN(d, n, st.read(t, in.Args[1]))
	default:
		storeN(d, n, old+st.read(t, in.Args[ai+1]))
		if in.Mods[0] == "atom" {
			st.write(in.Args[0], old)
		}
	}
	return stDone
}

// clusterExit completes the phase of b's cluster barrier when a thread of
// b exited and every other thread that has not exited arrived (ptx.md §7:
// the wait returns once all non-exited threads arrived).
func (m *Machine) clusterExit(b *blockRun) {
	cb, bs := b.clBar, []*blockRun{b}
	if b.cl != nil {
		cb, bs = &b.cl.bar, b.cl.blocks
	}
	if cb == nil || cb.arrived == 0 || cb.arrived < liveThreads(bs) {
		return
	}
	m.clusterRelease(cb, bs)
}

// clusterRelease ends the phase of cb and releases its waiters.
func (m *Machine) clusterRelease(cb *clusterBar, bs []*blockRun) {
	cb.phase++
	cb.arrived = 0
	cb.done, cb.vc = cb.vc, nil
	for _, pb := range bs {
		for _, u := range pb.threads {
			if u.state == tsCluster {
				m.hbAcquire(u, cb.done)
				u.stack = append(u.stack, 0)
				u.state = tsRunning
				pb.wakeups = true
			}
		}
	}
	m.mver++ // parked CTAs look again
}
