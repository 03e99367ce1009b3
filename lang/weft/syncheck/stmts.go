package syncheck

import "weft.dev/weft/lang/weft/amir"

// The converter's statements are allocated a source statement's worth at
// a time: an assignment's reads, its write, an instruction argument's
// checks and records are each one object (group, put), and a statement
// with a side struct (amir.Ctl, amir.Event) is one object with it
// (withCtl, withEvent; those from slabs sized by the proc's count). A
// statement per object had been a third of a small kernel's Convert
// objects, and a slab shared by all statements wasted its tail (issue 13,
// stops 27 and 31).

// group makes room for the next n statements put emits, in one object:
// the first groups of a proc from convRoom's statements (stmtRoom).
func (c *converter) group(n int) {
	c.grp = nil
	if n > 0 {
		if n <= len(c.stmtRoom) {
			c.grp = c.stmtRoom[:n:n]
			c.stmtRoom = c.stmtRoom[n:]
			return
		}
		c.grp = make([]amir.Stmt, n)
	}
}

// put pushes s, from the room group made (or alone when there is none
// left).
func (c *converter) put(s amir.Stmt) {
	if len(c.grp) == 0 {
		c.grp = make([]amir.Stmt, 1)
	}
	p := &c.grp[0]
	c.grp = c.grp[1:]
	*p = s
	c.push(p)
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

// withCtl is s with side struct ctl (a KLoop, KIf or KAlloc), from the
// slab sized by the proc's count of them (sizeOf). Those it does not
// count (inlined procs', hidden reverse barriers') take chunks of 4: a
// chunk twice the count had wasted 8 KB of a three-ring chunk's Convert.
func (c *converter) withCtl(s amir.Stmt, ctl amir.Ctl) *amir.Stmt {
	o := c.ctlSlab.one(4, 4)
	o.s, o.c = s, ctl
	o.s.Ctl = &o.c
	return &o.s
}

// withEvent is s with side struct ev (a KFence, KArrive or KAwait), as
// withCtl.
func (c *converter) withEvent(s amir.Stmt, ev amir.Event) *amir.Stmt {
	o := c.evSlab.one(4, 4)
	o.s, o.e = s, ev
	o.s.Event = &o.e
	return &o.s
}
