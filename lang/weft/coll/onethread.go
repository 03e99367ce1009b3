package coll

// One thread matched against one thread of the whole machine, without
// aligning shapes (issue 13, stop 38: docs/weft-sync.md "Stop 38:
// static38").
//
// Distributed memory analysis asks, of every use of a register (native
// unit cuda_thread), whether the collective owning its shard is one
// native unit: the chain's last tiling Matches cuda_thread. That tiling
// holds one thread, and on a machine without clusters cuda_thread's
// domain is every thread of the machine in one dimension. The general
// match (resolve, alignTo, the box against the tile, the starts'
// alignment) then always succeeds: a tiling's dimensions form a
// divisibility chain whose extents multiply to M.Threads(), so the
// unit's one dimension at pitch 1 splits along them (its pitches add
// none), the box of 1 splits into ones, the tile of a one-thread
// collective is 1 in every dimension, so box and tile agree, and a box
// of 1 is aligned at every start (startsAligned). The match's answer
// is nil; TestOneThreadMatch compares the two on random nests.

// OneThreadOf reports that t.Matches(u) is nil, known without the
// match: t is a collective of one thread, and u is one thread (a box of
// 1) of a domain of every thread of the machine (cuda_thread without
// clusters). False says nothing: the caller asks Matches.
func (t *Tiling) OneThreadOf(u *Unit) bool {
	if t.threads != 1 || len(u.Domain) != 1 || len(u.Box) != 1 {
		return false
	}
	d, ok1 := symValue(u.Domain[0], t.M)
	b, ok2 := symValue(u.Box[0], t.M)
	return ok1 && ok2 && b == 1 && d == t.M.Threads()
}
