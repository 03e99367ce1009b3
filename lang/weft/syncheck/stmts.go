package syncheck

import "weft.dev/weft/lang/weft/amir"

// The converter's statements are allocated a source statement's worth at
// a time: an assignment's reads, its write, an instruction argument's
// checks and records are each one object (group, next), and a statement
// with a side struct (amir.Ctl, amir.Event) is one object with it
// (newCtl, newEvent; those from slabs sized by the proc's count). A
// statement per object had been a third of a small kernel's Convert
// objects, and a slab shared by all statements wasted its tail (issue 13,
// stops 27 and 31).

// group makes room for the next n statements next emits, in one object:
// the first groups of a proc from convRoom's statements (stmtRoom), the
// later ones from one chunk (groupChunk).
func (c *converter) group(n int) {
	if n > 0 && n <= len(c.stmtRoom) {
		c.grp = c.stmtRoom[:n:n]
		c.stmtRoom = c.stmtRoom[n:]
		return
	}
	c.groupChunk(n)
}

// groupChunk is group past the room's statements: from one chunk made
// at the room's first overflow, sized by the statements the proc's
// accesses are expected to take still (groupEstimate), else alone. A
// group per allocation had been ten of shfl_xor's Convert objects and
// five of rmem_uniform's (issue 13, stop 46); a group the chunk cannot
// hold is made alone, as before.
func (c *converter) groupChunk(n int) {
	c.grp = nil
	if n <= 0 {
		return
	}
	if !c.chunkMade {
		c.chunkMade = true
		// The statements handed out so far are the room's (this is its
		// first overflow). The file's accesses are bounded by six
		// statements per statement of the proc's own (an assignment of
		// one read takes seven): a small proc of a file of many had
		// been given a chunk for all of them.
		k := min(c.groupEstimate(), 6*c.procStmts) - (c.roomStmts - len(c.stmtRoom))
		if k > n && !groupChunkOff {
			c.stmtChunk = make([]amir.Stmt, k)
		}
	}
	if n <= len(c.stmtChunk) {
		c.grp = c.stmtChunk[:n:n]
		c.stmtChunk = c.stmtChunk[n:]
		return
	}
	c.grp = make([]amir.Stmt, n)
}

// groupChunkOff makes group allocate each group past the room alone
// (tests).
var groupChunkOff bool

// groupEstimate is the statements the groups of the file's accesses
// take (gpucheck's): five for a write (an assignment's or an argument's
// checks, clears and record), two for a read, none for an exempt
// variable's or a barrier's. Reads a statement repeats and atomic
// arguments take fewer; accesses of other procs are counted too.
func (c *converter) groupEstimate() int {
	n := 0
	for _, a := range c.res.Accesses {
		if v := a.Var; v == nil || v.Barrier || c.exempt(v) {
			continue
		}
		if a.Write {
			n += 5
		} else if a.Read {
			n += 2
		}
	}
	return n
}

// next pushes the next statement of the room group made (one alone
// when there is none left) and returns it, zero but for its kind, source
// and synchronization statement: its caller sets its other fields in
// place. The room is zero (group's statements are each handed out once,
// from a zeroed dataRoom or a new slice). A statement built as a value
// and copied in (208 bytes, twice: into the argument, then into the
// room) had been a fortieth of per_cta_alloc's Convert (issue 13, stop
// 41).
func (c *converter) next(k amir.Kind, src, sync int) *amir.Stmt {
	if len(c.grp) == 0 {
		c.grp = make([]amir.Stmt, 1)
	}
	p := &c.grp[0]
	c.grp = c.grp[1:]
	p.Kind, p.Src, p.Sync = k, src, sync
	c.push(p)
	return p
}

// check pushes check k (KCheckReads, KCheckMutates) of a by the threads
// ex at level lv, accepting quals, protecting what (next).
func (c *converter) check(k amir.Kind, a *amir.Access, ex *amir.Exec, lv amir.Level, quals amir.QualSet, what amir.AccessKind, src int) *amir.Stmt {
	s := c.next(k, src, -1)
	s.Acc, s.Exec, s.Level, s.Quals, s.What = a, *ex, lv, quals, what
	return s
}

// record pushes record k (KRecordRead, KRecordMutate) of a by the
// threads ex at level lv on timeline q (next).
func (c *converter) record(k amir.Kind, a *amir.Access, ex *amir.Exec, lv amir.Level, q amir.Qual, src, sync int) *amir.Stmt {
	s := c.next(k, src, sync)
	s.Acc, s.Exec, s.Level, s.Q = a, *ex, lv, q
	return s
}

// clearAcc pushes clear k (KClearReads, KClearMutates) of a (next).
func (c *converter) clearAcc(k amir.Kind, a *amir.Access, src int) {
	c.next(k, src, -1).Acc = a
}

// ctlStmt and eventStmt are a statement and its side struct, one object.
type ctlStmt struct {
	s amir.Stmt
	c amir.Ctl
}

type eventStmt struct {
	s amir.Stmt
	e amir.Event
}

// newCtl is a statement of kind k with its side struct (a KLoop, KIf
// or KAlloc), from the slab sized by the proc's count of them (sizeOf),
// zero but for its kind, source and Sync (-1): its caller sets the other
// fields in place (next) and pushes it. Those sizeOf does not count
// (inlined procs', hidden reverse barriers') take chunks of 4: a chunk
// twice the count had wasted 8 KB of a three-ring chunk's Convert.
func (c *converter) newCtl(k amir.Kind, src int) (*amir.Stmt, *amir.Ctl) {
	o := c.ctlSlab.one(4, 4)
	o.s.Kind, o.s.Src, o.s.Sync = k, src, -1
	o.s.Ctl = &o.c
	return &o.s, &o.c
}

// newEvent is newCtl for a statement with an amir.Event (a KFence,
// KArrive or KAwait).
func (c *converter) newEvent(k amir.Kind, src, sync int) (*amir.Stmt, *amir.Event) {
	o := c.evSlab.one(4, 4)
	o.s.Kind, o.s.Src, o.s.Sync = k, src, sync
	o.s.Event = &o.e
	return &o.s, &o.e
}
