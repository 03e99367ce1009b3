package sem

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/syntax"
)

// The implicitly defined copy constructor ([class.copy.ctor]p14): a
// class that declares no copy constructor copies its members one by
// one, each by its own copy constructor. sem copied such an object bit
// for bit, so `struct H { T m; }; H k = h;` ran no T copy constructor
// (and the copy's destructor later ran on an object its copy constructor
// never made). Where some member's class declares a copy constructor,
// the class gets one made as the program would write it,
// H(const H &__o) : m(__o.m), n(__o.n) {}, used wherever a copy
// constructor is (copy-initialization from an lvalue, by-value
// arguments, returns, catch by value). Not for classes with bases,
// virtual functions, array members of such classes or unions (still
// copied bit for bit).

// implicitCopyCtor is t's implicit copy constructor when it has work
// beyond a bitwise copy, else nil.
func (c *compiler) implicitCopyCtor(t *Type, pos diag.Pos) *Function {
	if c.implCopy == nil {
		c.implCopy = map[*Type]*Function{}
	}
	if fn, ok := c.implCopy[t]; ok {
		return fn
	}
	c.implCopy[t] = nil // also a guard against a class containing itself
	tag := tagOf(t)
	if t.Kind != Struct || t.std != 0 || t.cg != 0 || t.poly || t.Union || vbOf(t) != nil || len(t.bases) > 0 || t.base != nil || tag == "" || c.tags[0][tag] != t {
		return nil
	}
	need := false
	host, device := true, true
	for _, f := range t.Fields {
		ft := f.Type
		if ft.Kind == Array {
			if ec := elemClass(ft); ec.Kind == Struct && c.memberCopyCtor(ec, pos) != nil {
				return nil // an array of such members: not modeled
			}
			continue
		}
		if ft.Kind != Struct || ft.std != 0 || ft.Ref {
			continue
		}
		if cc := c.memberCopyCtor(ft, pos); cc != nil {
			need = true
			host, device = host && cc.Host, device && cc.Device
		}
	}
	if !need {
		return nil
	}
	name := tag + "::" + tag
	cls := &syntax.TypeExpr{Kind: syntax.TStruct, Name: tag, Pos: pos, Const: true}
	fd := &syntax.FuncDecl{Pos: pos, EndPos: pos, Name: name, Recv: tag, Ctor: true, Body: &syntax.Block{Pos: pos, End: pos},
		Type: &syntax.TypeExpr{Kind: syntax.TFunc, Pos: pos, Elem: &syntax.TypeExpr{Kind: syntax.TNamed, Name: "void", Pos: pos},
			Params: []*syntax.Param{{Name: "__o", Pos: pos, Type: &syntax.TypeExpr{Kind: syntax.TRef, Elem: cls, Pos: pos}}}}}
	for _, f := range t.Fields {
		fd.Inits = append(fd.Inits, &syntax.MemberInit{Pos: pos, Name: f.Name,
			Args: []syntax.Expr{&syntax.Member{Pos: pos, X: &syntax.Name{Pos: pos, Name: "__o"}, Name: f.Name}}})
	}
	fn := &Function{Name: name, decl: fd, defined: true, Host: host, Device: device}
	fn.Type = c.resolve(fd.Type)
	fn.PosIdx = c.pos(pos)
	c.prog.Funcs = append(c.prog.Funcs, fn)
	c.implCopy[t] = fn
	return fn
}

// memberCopyCtor is the copy constructor that copying a member of class
// t runs: its own declared one, or its implicit one with work to do.
func (c *compiler) memberCopyCtor(t *Type, pos diag.Pos) *Function {
	if first := c.ctorOf(t, 1); first != nil && first.decl != nil {
		ovs := c.overloads[first.decl.Name]
		if len(ovs) == 0 {
			ovs = []*Function{first}
		}
		for _, o := range ovs {
			if o.Type != nil && len(o.Type.Params) == 1 {
				if pt := o.Type.Params[0]; pt.Ref && !pt.rval && pt.Elem.Kind == Struct && pt.Elem.Name == t.Name {
					return o
				}
			}
		}
	}
	return c.implicitCopyCtor(t, pos)
}

// The implicitly defined copy assignment ([class.copy.assign]p12): a
// class that declares no operator= assigns its members one by one, each
// by its own. Where a member's class declares `operator=(const T&)`,
// `k = h;` calls it for that member (the others are copied bit for bit,
// as before). Not for classes with bases, virtual functions or arrays of
// such members.

// memberAssigns is, per field of t, the operator= that assigning it
// calls (nil: a bitwise copy); nil when t's implicit copy assignment has
// no such member.
func (c *compiler) memberAssigns(t *Type) []*Function {
	tag := tagOf(t)
	if t.Kind != Struct || t.std != 0 || t.cg != 0 || t.poly || t.Union || vbOf(t) != nil || len(t.bases) > 0 || t.base != nil || tag == "" || c.funcs[tag+"::operator="] != nil {
		return nil
	}
	ops := make([]*Function, len(t.Fields))
	need := false
	for i, f := range t.Fields {
		ft := f.Type
		if ft.Kind == Array {
			if ec := elemClass(ft); ec.Kind == Struct && ec.std == 0 && c.funcs[tagOf(ec)+"::operator="] != nil {
				return nil
			}
			continue
		}
		if ft.Kind != Struct || ft.std != 0 || ft.Ref || tagOf(ft) == "" {
			continue
		}
		op := c.funcs[tagOf(ft)+"::operator="]
		if op == nil {
			continue
		}
		if op.decl != nil && len(c.overloads[op.decl.Name]) > 1 {
			for _, o := range c.overloads[op.decl.Name] {
				if o.Type != nil && len(o.Type.Params) == 1 && o.Type.Params[0].Ref && !o.Type.Params[0].rval {
					op = o
				}
			}
		}
		if op.Type == nil || len(op.Type.Params) != 1 || !op.Type.Params[0].Ref || op.Type.Params[0].rval {
			return nil // operator=(T) or only a move assignment: not modeled
		}
		ops[i] = op
		need = true
	}
	if !need {
		return nil
	}
	return ops
}

// assignMembers assigns the object whose address is under the top of
// the stack from the one on top, member by member (ops: memberAssigns),
// leaving the destination's address.
func (c *compiler) assignMembers(t *Type, ops []*Function, pos diag.Pos) {
	src, dst := c.newSlot(), c.newSlot()
	c.emit(OpSetLocal, int32(src), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	c.emit(OpSetLocal, int32(dst), 0, pos)
	c.emit(OpPop, 0, 0, pos)
	for i, f := range t.Fields {
		c.emit(OpLocal, int32(dst), 0, pos)
		c.adjustPtr(f.Offset, pos)
		c.emit(OpLocal, int32(src), 0, pos)
		c.adjustPtr(f.Offset, pos)
		if op := ops[i]; op != nil {
			c.checkCallSpace(op, pos)
			c.emit(OpCall, int32(c.funcIndex(op)), 2, pos)
		} else {
			c.copyValue(f.Type, pos)
		}
		c.emit(OpPop, 0, 0, pos)
	}
	c.emit(OpLocal, int32(dst), 0, pos)
}
