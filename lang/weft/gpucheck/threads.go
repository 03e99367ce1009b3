package gpucheck

import "weft.dev/weft/lang/weft/coll"

// The tilings of a check's cuda_threads loops are made in stores of the
// check's own (issue 13, stop 37: docs/weft-sync.md "Stop 37:
// static37"): a small program's room holds them, a larger one's are one
// array sized by its count of loops (countStmts), instead of a 1.3 KB
// object a loop. coll.CudaThreadsIn makes a one-dimensional loop's
// tiling in one pass there (the loops of a CTA without clusters, every
// loop of rows e, 5 and 15 but shfl_xor's strided one, which it makes in
// one pass in an 888-byte store of its own: stop 46); any other
// derivation is the general one, which allocates its own. A store is
// used once or not at all: a declined one is offered to the next loop.
// The stores past a room's are one array, made at the first loop that
// finds the room's used (threadsLeft; stop 45).

// deriveThreads is t.CudaThreads(iter, count, u), in the check's next
// unused store.
func (c *checker) deriveThreads(t *coll.Tiling, iter, count int, u coll.Unit) (*coll.Tiling, error) {
	if len(c.threads) == 0 {
		if c.threadsLeft == 0 {
			// No store: a strided loop still derives in one pass, in
			// a store of its own (coll/threads2d.go).
			return t.CudaThreadsIn(iter, count, u, nil)
		}
		c.threads, c.threadsLeft = make([]coll.ThreadsStore, c.threadsLeft), 0
	}
	st := &c.threads[0]
	body, err := t.CudaThreadsIn(iter, count, u, st)
	if err == nil && body == st.Tiling() {
		c.threads = c.threads[1:]
	}
	return body, err
}
