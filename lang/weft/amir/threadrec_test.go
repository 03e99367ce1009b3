package amir

import (
	"fmt"
	"math/rand"
	"testing"
)

// TestThreadRecordsMatchSequential: addThreadRecords (one walk for the
// records of all threads of a per-thread record statement) leaves the same
// list, in the same order, and creates the same records as addRecord once
// per thread in order. Random lists mix records of the statement's threads
// and of others, other sources, stamps, grants and arrive counts.
func TestThreadRecordsMatchSequential(t *testing.T) {
	b := newBuilder(64)
	b.slot("y")
	p := b.build()
	rng := rand.New(rand.NewSource(1))
	for iter := 0; iter < 3000; iter++ {
		gs := threads{task: 1, start: int32(rng.Intn(40)), shape: shWarp}
		s := &Stmt{Kind: KRecordRead, Src: 1 + rng.Intn(2), Q: Qual(rng.Intn(2)), Level: FullyOrdered}
		var pends []pend
		if rng.Intn(2) == 0 {
			pends = []pend{{cell: 0, count: int32(rng.Intn(3))}}
		}
		stamp := int32(rng.Intn(3))
		// The same random list in two machines.
		build := func() (*Machine, int32) {
			m := New(p, Config{})
			m.Run(nil)
			m.free = -1
			m.recs.reset()
			r2 := rand.New(rand.NewSource(int64(iter)))
			head := int32(-1)
			for n := r2.Intn(80); n > 0; n-- {
				r := record{next: head, src: int32(1 + r2.Intn(2)), q: Qual(r2.Intn(2)), level: FullyOrdered,
					creator: threads{task: int32(1 + r2.Intn(2)), start: int32(r2.Intn(100))}, stamp: int32(r2.Intn(3))}
				if r2.Intn(8) == 0 {
					r.creator.shape = shWarp
				}
				r.reach = r.creator.task
				if r2.Intn(4) == 0 {
					r.grants = []grant{{th: gs}}
				}
				switch r2.Intn(3) {
				case 0:
					r.pend = []pend{{cell: 0, count: int32(r2.Intn(3))}}
				case 1:
					r.pend = []pend{{cell: 1, count: 0}}
				}
				head = m.takeRecord()
				*m.rec(head) = r
			}
			return m, head
		}
		m1, h1 := build()
		m2, h2 := build()
		var v1, v2 uint64
		m1.addThreadRecords(&h1, &v1, s, gs, pends, stamp, -1)
		for _, o := range m2.shapes[gs.shape] {
			m2.addRecord(&h2, &v2, s, threads{task: gs.task, start: gs.start + o}, pends, stamp)
		}
		l1, l2 := dumpList(m1, h1), dumpList(m2, h2)
		if l1 != l2 || m1.res.Stats.Records != m2.res.Stats.Records || (v1 == 0) != (v2 == 0) {
			t.Fatalf("iter %d: one walk (%d records):\n%s\nper thread (%d records):\n%s", iter, m1.res.Stats.Records, l1, m2.res.Stats.Records, l2)
		}
	}
}

func dumpList(m *Machine, h int32) string {
	s := ""
	for ; h >= 0; h = m.rec(h).next {
		r := m.rec(h)
		s += fmt.Sprintf("%d %+v %d %d %d %v %v\n", r.src, r.creator, r.q, r.stamp, r.reach, r.grants, r.pend)
	}
	return s
}
