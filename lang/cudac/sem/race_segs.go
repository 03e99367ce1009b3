package sem

// segTable holds the race detector's segments (race.go) in chunks of
// segChunk, so that the table grows without copying and gcSegs compacts
// it in place: a wide grid's run makes a segment per thread, and the
// copies of a growing flat table, with the new table of each collection,
// were most of the memory such a run touched (issue 15 item 7).
//
// Group segments (issue 15 item 7, third pass). The segments of a block's
// threads in one stretch between barriers differ only in the thread: the
// agent, clock, block, barrier epochs and cluster are the block's. Such a
// segment is not stored: its index is segGrp | g<<segTidBits | tid, where
// group g holds the fields the threads share (tid 0, ctid the cluster
// base), and get puts the thread back. A wide grid of small threads
// (asyncAPI: 16 million threads, one segment each) kept a 40-byte
// segment per thread, most of the memory its check touched; a group is
// one per block and stretch. A thread whose block has more threads than
// segTidBits can number (Options.LargeBlocks), a host thread, or any
// thread once the groups' index space is full, gets an explicit segment,
// as before. Both encodings describe the same segment, so no verdict
// depends on which one a thread got; an index is a segment's identity
// only within one encoding, and a thread uses one index per segment.
type segTable struct {
	chunks [][]seg
	n      int
	grp    [][]seg // group segments (tid 0; ctid the base of the block)
	ng     int
	// gcSegs' tables: a bit per live segment and group, and the live
	// ones before each word of bits
	live, glive []uint64
	rank, grank []uint32
	tmp         seg // ref's group segment
}

const segChunkBits = 16
const segChunk = 1 << segChunkBits

const (
	segGrp      = 1 << 31 // the index of a group segment
	segTidBits  = 10      // a thread of a block of up to 1024 threads, CUDA's limit
	segTidMask  = 1<<segTidBits - 1
	grpMax      = 1 << (31 - segTidBits) // groups the index space can number
	grpGCMinDef = 1 << 18                // the group table's size below which it triggers no collection
)

// get returns segment i.
func (st *segTable) get(i uint32) seg {
	if i&segGrp == 0 {
		return st.chunks[i>>segChunkBits][i&(segChunk-1)]
	}
	g := (i &^ segGrp) >> segTidBits
	s := st.grp[g>>segChunkBits][g&(segChunk-1)]
	tid := int32(i & segTidMask)
	s.tid = tid
	s.ctid += tid
	return s
}

// ref returns a pointer to segment i: into the table for an explicit
// segment, to st.tmp, valid until the next call, for a group segment. (A
// segment returned by value was copied twice, and the copies' overlapping
// stores and loads stalled: a fifth of simpleStreams' check; raceCheck
// looks a group segment up with group instead.)
func (st *segTable) ref(i uint32) *seg {
	if i&segGrp == 0 {
		return &st.chunks[i>>segChunkBits][i&(segChunk-1)]
	}
	g := (i &^ segGrp) >> segTidBits
	s := &st.tmp
	*s = st.grp[g>>segChunkBits][g&(segChunk-1)]
	tid := int32(i & segTidMask)
	s.tid = tid
	s.ctid += tid
	return s
}

// group returns the group of group segment i and its thread.
func (st *segTable) group(i uint32) (*seg, int32) {
	g := (i &^ segGrp) >> segTidBits
	return &st.grp[g>>segChunkBits][g&(segChunk-1)], int32(i & segTidMask)
}

// at returns explicit segment i.
func (st *segTable) at(i uint32) *seg {
	return &st.chunks[i>>segChunkBits][i&(segChunk-1)]
}

// gat returns group g.
func (st *segTable) gat(g uint32) *seg {
	return &st.grp[g>>segChunkBits][g&(segChunk-1)]
}

// add appends s and returns its index.
func (st *segTable) add(s seg) uint32 {
	if st.n == len(st.chunks)*segChunk {
		st.chunks = append(st.chunks, make([]seg, segChunk))
	}
	i := uint32(st.n)
	st.chunks[i>>segChunkBits][i&(segChunk-1)] = s
	st.n++
	return i
}

// addGrp appends group s and returns its number.
func (st *segTable) addGrp(s seg) uint32 {
	if st.ng == len(st.grp)*segChunk {
		st.grp = append(st.grp, make([]seg, segChunk))
	}
	g := uint32(st.ng)
	st.grp[g>>segChunkBits][g&(segChunk-1)] = s
	st.ng++
	return g
}

// truncate keeps the first n segments and ng groups, and one spare chunk
// of each. The dropped entries of the kept chunks are zeroed, so that an
// index the collector failed to renumber would name a host access at
// clock 0, ordered before everything, and not the segment it named
// (TestLazyCells relies on it to see such a failure).
func (st *segTable) truncate(n, ng int) {
	trunc := func(chunks [][]seg, old, n int) [][]seg {
		keep := min(n/segChunk+2, len(chunks))
		for i := n; i < min(old, keep*segChunk); {
			c := chunks[i>>segChunkBits]
			j := i & (segChunk - 1)
			k := min(segChunk, j+old-i)
			clear(c[j:k])
			i += k - j
		}
		clear(chunks[keep:])
		return chunks[:keep]
	}
	st.chunks = trunc(st.chunks, st.n, n)
	st.grp = trunc(st.grp, st.ng, ng)
	st.n, st.ng = n, ng
}
