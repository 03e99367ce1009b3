package amir

import "weft.dev/weft/lang/weft/coll"

// The ascending table (issue 13, stop 36, grid36). Every machine had
// built the list 0, 1, ..., n-1 twice over: New enumerated each dense
// shape's threads (coll.AppendThreadsTo, ~13 instructions a thread: 3.4 K
// of per_cta_alloc's 31 K machine for its 256-thread CTA), and the rigid
// forms' consecutive patterns filled a machine-owned ascending list
// (prepareRigid, 2.5 K there). Both lists are read only once made (New's
// thread lists are only indexed and ranged over; a pattern is never
// written, rigid.go), so they are prefixes of one package-level table
// computed once from constants (common invariant 4 allows such tables):
// no allocation and no fill a check.

// ascTableLen bounds the lists served from the table: a CTA has at most
// 1024 threads, a cluster of four 4096; longer lists are made per machine.
const ascTableLen = 4096

var ascTable = func() *[ascTableLen]int32 {
	var t [ascTableLen]int32
	for i := range t {
		t[i] = int32(i)
	}
	return &t
}()

// noAscShapes (tests) makes New enumerate every shape's threads, dense
// ones too.
var noAscShapes = false

// ascPrefix returns 0, 1, ..., n-1 from the table (read only), or nil
// when n is larger than the table.
func ascPrefix(n int) []int32 {
	if n < 0 || n > ascTableLen {
		return nil
	}
	return ascTable[:n:n]
}

// denseLen returns n when collective c's threads, in AppendThreadsTo's
// order, are exactly 0, 1, ..., n-1, and 0 otherwise. Its runs are
// sorted by decreasing stride (coll.Collective): they list 0..n-1 in
// order when the start is 0 and, leaving out runs of one thread, the
// last run's stride is 1 and each run's stride is the next one's stride
// times its count.
func denseLen(c *coll.Collective) int {
	if c.Start != 0 || c.N < 0 || c.N > coll.MaxRuns {
		return 0
	}
	n := 1
	for i := c.N - 1; i >= 0; i-- {
		r := c.Runs[i]
		if r.Count == 1 {
			continue // one thread of the run: any stride
		}
		if r.Count <= 0 || r.Stride != n {
			return 0
		}
		n *= r.Count
	}
	return n
}
