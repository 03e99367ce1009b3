package sem

import "weft.dev/weft/lang/cudac/syntax"

// Class members named from outside the class body: member types of class
// template instances (typename X::Type, S<A>::Type; C++ [class.mem]) and
// static data members reached through an object (x.n; [class.static]).

// memberType resolves X::Member, X a class template instance or a typedef
// of one (typename BlockReduce::TempStorage): the instance's member
// typedef (C++ [class.mem]); ok is false for a standard container, whose
// member types lib_map.go knows. A name the instance does not declare is
// C0306.
func (c *compiler) memberType(te *syntax.TypeExpr) (*Type, bool) {
	ct := *te
	ct.Member = ""
	t := c.resolve(&ct)
	if t.Kind == Struct && t.std != 0 {
		return nil, false
	}
	if t.Kind == Struct && t.tmpl != nil {
		if mt := t.tmpl.types[te.Member]; mt != nil {
			return mt, true
		}
	}
	c.errorf(te.Pos, "C0306", "no member type %s in %s", te.Member, t)
	return tInt, true
}

// staticViaObject is the name of the static data member that x.m or p->m
// names (C++ [class.static]p1: a static member may be referred to through
// an object; the object expression is still evaluated, which here it is,
// for its effects), or nil when m is a non-static member or none.
func (c *compiler) staticViaObject(m *syntax.Member) *syntax.Name {
	t := c.typeOf(m.X, false)
	if t.Ref || m.Arrow && t.Kind == Ptr {
		t = t.Elem
	}
	if t.Kind != Struct || t.Name == "" || t.field(m.Name) != nil {
		return nil
	}
	name := tagOf(t) + "::" + m.Name
	if c.lookup(name) == nil {
		return nil
	}
	c.discard(m.X, m.Pos)
	return &syntax.Name{Pos: m.Pos, Name: name}
}
