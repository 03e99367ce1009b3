package syncheck

import "weft.dev/weft/lang/weft/amir"

// The converter's statements are allocated a source statement's worth at
// a time: an assignment's reads, its write, an instruction argument's
// checks and records are each one object (group, put), and a statement
// with a side struct (amir.Ctl, amir.Event) is one object with it
// (withCtl, withEvent). A statement per object had been a third of a
// small kernel's Convert objects, and a slab shared by all statements
// wasted its tail (issue 13, stops 27 and 31).

// group makes room for the next n statements put emits, in one object.
func (c *converter) group(n int) {
	c.grp = nil
	if n > 0 {
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

// withCtl is s with side struct ctl (a KLoop, KIf or KAlloc).
func withCtl(s amir.Stmt, ctl amir.Ctl) *amir.Stmt {
	o := &ctlStmt{s: s, c: ctl}
	o.s.Ctl = &o.c
	return &o.s
}

// withEvent is s with side struct ev (a KFence, KArrive or KAwait).
func withEvent(s amir.Stmt, ev amir.Event) *amir.Stmt {
	o := &eventStmt{s: s, e: ev}
	o.s.Event = &o.e
	return &o.s
}
