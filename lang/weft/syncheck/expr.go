package syncheck

import (
	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/syntax"
)

// names is a lexical scope of control names (loop iterators and size
// parameters) mapped to slots.
type names struct {
	parent *names
	// slots binds the scope's own names, each once (set). A scope binds a
	// loop variable or a call's few parameters: a slice scanned in place
	// of a map per scope, which was a twentieth of a small kernel's
	// Convert (issue 13, stop 26).
	slots []nameSlot
	// inl backs slots while the scope binds at most len(inl) names (a
	// loop variable): no slice per scope.
	inl [1]nameSlot
	// mask holds nameBit of each name of slots: lookup passes a scope
	// whose mask lacks the name's bit without comparing its names. The
	// lookups of a deep nest had compared the name with the binding of
	// every scope up to its own (shfl_xor's thirteen loops: ~5 K
	// instructions a check; issue 13, stop 47).
	mask uint64
}

// nameBit is name's bit of a names.mask: of its length and last byte,
// which tell apart most names of one scope chain (t4, t2, t1, s).
func nameBit(name string) uint64 {
	if len(name) == 0 {
		return 1
	}
	return 1 << ((uint(len(name))*7 + uint(name[len(name)-1])) & 63)
}

type nameSlot struct {
	name string
	// slot is an int32 beside ctl: a names is 64 bytes with its mask,
	// where 56 had been (convRoom's eight fit seven).
	slot int32
	// ctl: the name was made a control name when bound (bindControl).
	// The control names only grow (setControl), so it stays one; a
	// binding without it may be one or become one (isControlName).
	ctl bool
}

// child is a new scope inside n, from the converter's slab: a scope per
// block and per loop had been the most frequent object of a small
// kernel's Convert (issue 13, stop 28).
func (c *converter) child(n *names) *names {
	s := c.nameSlab.one(8, 128)
	s.parent = n
	return s
}

// set binds name to slot in this scope (replacing its binding here).
func (n *names) set(name string, slot int) { n.bind(name, slot, false) }

// bindControl is set of a name the converter makes a control name
// (setControl) with it: a loop's variable, a size parameter, an inlined
// call's hidden slot.
func (c *converter) bindControl(n *names, name string, slot int) {
	n.bind(name, slot, true)
	c.setControl(name)
}

func (n *names) bind(name string, slot int, ctl bool) {
	for i := range n.slots {
		if sameName(n.slots[i].name, name) {
			n.slots[i].slot, n.slots[i].ctl = int32(slot), ctl
			return
		}
	}
	if n.slots == nil {
		n.slots = n.inl[:0]
	}
	n.slots = append(n.slots, nameSlot{name, int32(slot), ctl})
	n.mask |= nameBit(name)
}

// own is name's slot in this scope alone (0 when it binds none, as a
// map's zero value was).
func (n *names) own(name string) int {
	for _, b := range n.slots {
		if sameName(b.name, name) {
			return int(b.slot)
		}
	}
	return 0
}

func (n *names) lookup(name string) (int, bool) {
	if b := n.find(name); b != nil {
		return int(b.slot), true
	}
	return 0, false
}

// find is the binding of name seen from n (nil: none).
func (n *names) find(name string) *nameSlot {
	bit := nameBit(name)
	for s := n; s != nil; s = s.parent {
		if s.mask&bit == 0 {
			continue // binds no name of name's bit (bind)
		}
		for i := range s.slots {
			if sameName(s.slots[i].name, name) {
				return &s.slots[i]
			}
		}
	}
	return nil
}

// sameName is a == b for the names of control variables (loop
// iterators, size parameters), a few bytes long, compared in place: the
// names of one scope chain differ mostly in their last byte (t4, t2,
// t1), and each comparison of two of the same length had called the
// runtime's memequal (a few dozen instructions; shfl_xor's lookups
// made over a hundred per Convert; issue 13, stop 41). Longer names
// are compared as strings.
func sameName(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) > 8 {
		return a == b
	}
	for i := 0; i < len(a); i++ {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func floorDiv(x, y int) int {
	if y == 0 {
		return 0
	}
	q := x / y
	if (x%y != 0) && ((x < 0) != (y < 0)) {
		q--
	}
	return q
}

func floorMod(x, y int) int {
	if y == 0 {
		return 0
	}
	return x - floorDiv(x, y)*y
}

// intExpr compiles a control expression (Fig. 6 C-INT, C-READ, C-AFF; Weft
// also has % and the bitwise complement ~n of Await counts). Integer
// division rounds toward -inf, as in the interpreter.
func (c *converter) intExpr(sc *names, e syntax.Expr) (amir.IntExpr, bool) {
	if f, ok := c.affine(sc, e); ok {
		return f, true
	}
	return c.intTree(sc, e)
}

// affineForm is e as amir.Affine when it is affine in the slots (constants
// folded), for the machine's inline window evaluation; nil otherwise.
func (c *converter) affineForm(sc *names, e syntax.Expr) *amir.Affine {
	// Within one access (the memo is cleared at its start) neither the
	// scope's names nor the control names change, so a form is a
	// function of (sc, e). The newest entry first: an operand of a
	// binary expression is asked for again right after its compilation
	// (foldConst, modForm) made it.
	n := len(c.affMemo)
	for j := 1; j <= n; j++ {
		if m := &c.affMemo[(c.affNext+n-j)%n]; m.sc == sc && m.e == e && e != nil {
			return m.a
		}
	}
	return c.newAffineForm(sc, e)
}

// newAffineForm is affineForm without the lookup, remembering the form.
// The compilation of an expression (affine) takes it: it is the first to
// ask for each expression, so its lookups never found one and were, at
// four interface comparisons each, a third of its forms' cost (shfl_xor:
// 70 per check; issue 13, stop 34: conv34).
func (c *converter) newAffineForm(sc *names, e syntax.Expr) *amir.Affine {
	l := c.linearOf(e)
	a := c.affineFormOf(sc, l)
	c.affMemo[c.affNext] = affMemo{e: e, sc: sc, a: a}
	c.affNext = (c.affNext + 1) % len(c.affMemo)
	return a
}

// affMemo is one remembered affine form (converter.affMemo).
type affMemo struct {
	e  syntax.Expr
	sc *names
	a  *amir.Affine
}

// affineFormOf is affineForm without the memo, from e's linear form l.
func (c *converter) affineFormOf(sc *names, l linear) *amir.Affine {
	if len(l.terms) == 0 && l.k >= 0 && l.k < len(c.constAff) {
		// A constant's form, made once per conversion: the machine
		// reads window forms by content only (a statement's grid start,
		// whose form is keyed by identity, is exec's own).
		if c.constAff[l.k] == nil {
			c.constAff[l.k] = c.newAffine(l.k, 0)
		}
		return c.constAff[l.k]
	}
	if len(l.terms) == 0 && !slotAffOff {
		return c.bigConstForm(l.k)
	}
	if len(l.terms) == 1 && l.k == 0 && l.terms[0].c == 1 {
		// A slot's form 1·slot (a loop variable as an index: shfl_xor's
		// rmemA[t4, t2, t1, s]), made once per conversion as the
		// constants' are, for the same reason: the form the general
		// path below makes, one term {slot, 1} and K = 0, and forms are
		// read by content only (a form per index had been a slab
		// object and its term; issue 13, stop 44).
		slot, ok := sc.lookup(l.terms[0].atom)
		if !ok {
			return nil
		}
		if slot >= 0 && slot < len(c.slotAff) && !slotAffOff {
			return c.slotForm(slot)
		}
		a := c.newAffine(0, 1)
		a.Terms = append(a.Terms, amir.Term{Slot: slot, Coef: 1})
		return a
	}
	a := c.newAffine(l.k, len(l.terms))
	for _, t := range l.terms {
		slot, ok := sc.lookup(t.atom)
		if !ok {
			return nil
		}
		a.Terms = append(a.Terms, amir.Term{Slot: slot, Coef: t.c})
	}
	// Sorted by slot, as the machine's plans expect a deterministic form:
	// an insertion sort (the forms have a few terms), which orders them as
	// sort.Slice did, without its two allocations per form.
	ts := a.Terms
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && ts[j].Slot < ts[j-1].Slot; j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
	return a
}

// slotAffOff makes affineFormOf make each slot's form, and each
// constant's past constAff, anew, without slotAff and bigAff (set by the
// test that compares the two ways).
var slotAffOff bool

// bigConstForm is the form of constant k past constAff, shared as
// constAff's are: the first len(bigAff) such constants of a conversion
// (extents and bounds of 64 or 256: rmem_uniform's and shfl_xor's made
// a form for each; issue 13, stop 46), then one form each.
func (c *converter) bigConstForm(k int) *amir.Affine {
	for i := range c.nBigAff {
		if c.bigAff[i].K == k {
			return c.bigAff[i]
		}
	}
	a := c.newAffine(k, 0)
	if c.nBigAff < len(c.bigAff) {
		c.bigAff[c.nBigAff] = a
		c.nBigAff++
	}
	return a
}

// slotForm is slotAff's form of slot (0 <= slot < len(slotAff)), made
// at its first use.
func (c *converter) slotForm(slot int) *amir.Affine {
	if c.slotAff[slot] == nil {
		a := c.newAffine(0, 1)
		a.Terms = append(a.Terms, amir.Term{Slot: slot, Coef: 1})
		c.slotAff[slot] = a
	}
	return c.slotAff[slot]
}

// slotIndex is window's answer for a point index of dimension d of
// variable v that is the name bound to slot (sc.lookup), when that is a
// control name and slotAff holds the slot (a loop variable): the form
// 1·slot, env[slot] compiled and alignment 1, what compile gives through
// linearOf's atom, affineFormOf's slot form and affineExpr. ok is false
// for any other, which window compiles. The three steps had been ~80
// instructions of each such index (shfl_xor: twenty a check; issue 13,
// stop 46).
func (c *converter) slotIndex(v, d int, b *nameSlot) (amir.Window, bool) {
	slot := int(b.slot)
	if slotAffOff || slot < 0 || slot >= len(c.slotAff) || !b.ctl && !c.isControlName(b.name) {
		return amir.Window{}, false
	}
	c.noteGran(v, d, 1)
	return amir.Window{Lo: c.slotExpr(slot), LoAff: c.slotForm(slot)}, true
}

// newAffine takes an Affine with room for n terms from the converter's
// slabs: a small kernel's Convert made about 350 objects for its affine
// forms, one Affine and one term slice each (issue 13, stop 26). Forms
// are never changed once made, and live as long as the Program.
func (c *converter) newAffine(k, n int) *amir.Affine {
	a := c.affSlab.one(8, 64)
	a.K = k
	if n > 0 {
		a.Terms = c.termSlab.take(n, 16, 128)[:0]
	}
	return a
}

// constExprs are the compiled constants 0..len-1, made once: each
// constant index or bound of a small kernel had made its own closure (a
// fifth of Convert's objects; issue 13, stop 26).
var constExprs = func() (t [256]amir.IntExpr) {
	for i := range t {
		k := i
		t[i] = func([]int) int { return k }
	}
	return
}()

// constExpr is the compiled constant k.
func constExpr(k int) amir.IntExpr {
	if k >= 0 && k < len(constExprs) {
		return constExprs[k]
	}
	return func([]int) int { return k }
}

// constExpr is the package's constExpr, a constant past its table made
// once per conversion: the extents and bounds of a kernel repeat a few
// such constants (shfl_xor: six closures a check; issue 13, stop 38).
func (c *converter) constExpr(k int) amir.IntExpr {
	if k >= 0 && k < len(constExprs) {
		return constExprs[k]
	}
	for _, x := range c.bigConsts {
		if x.k == k {
			return x.f
		}
	}
	f := constExpr(k)
	c.bigConsts = append(c.bigConsts, bigConst{k, f})
	return f
}

// bigConst is a compiled constant past constExprs (converter.constExpr).
type bigConst struct {
	k int
	f amir.IntExpr
}

// slotExprs0 are the compiled expressions env[s] of the slots 0..len-1,
// made once: a small kernel's slots are a few loop variables and
// parameters, and a closure each was made per conversion (issue 13, stop
// 29).
var slotExprs0 = func() (t [64]amir.IntExpr) {
	for i := range t {
		s := i
		t[i] = func(env []int) int { return env[s] }
	}
	return
}()

// slotExpr is the compiled expression env[s], one closure per slot.
func (c *converter) slotExpr(s int) amir.IntExpr {
	if s >= 0 && s < len(slotExprs0) {
		return slotExprs0[s]
	}
	if s >= len(c.slotExprs) {
		t := make([]amir.IntExpr, max(s+1, 2*len(c.slotExprs), len(c.p.Slots)))
		copy(t, c.slotExprs)
		c.slotExprs = t
	}
	if c.slotExprs[s] == nil {
		c.slotExprs[s] = func(env []int) int { return env[s] }
	}
	return c.slotExprs[s]
}

// affine compiles an expression that is affine in the slots (constants
// folded) to one flat function: index expressions are evaluated in the
// hot path of the machine.
func (c *converter) affine(sc *names, e syntax.Expr) (amir.IntExpr, bool) {
	af := c.newAffineForm(sc, e)
	if af == nil {
		return nil, false
	}
	return c.affineExpr(af), true
}

// affineExpr is the compiled form af.
func (c *converter) affineExpr(af *amir.Affine) amir.IntExpr {
	// The form's terms are read in place (forms are never changed once
	// made): no copy per compiled expression.
	terms := af.Terms
	k := af.K
	switch len(terms) {
	case 0:
		return c.constExpr(k)
	case 1:
		s0, c0 := terms[0].Slot, terms[0].Coef
		if c0 == 1 {
			if k == 0 {
				return c.slotExpr(s0)
			}
			return func(env []int) int { return k + env[s0] }
		}
		return func(env []int) int { return k + c0*env[s0] }
	case 2:
		s0, c0, s1, c1 := terms[0].Slot, terms[0].Coef, terms[1].Slot, terms[1].Coef
		return func(env []int) int { return k + c0*env[s0] + c1*env[s1] }
	}
	return func(env []int) int {
		v := k
		for _, t := range terms {
			v += t.Coef * env[t.Slot]
		}
		return v
	}
}

// compile is intExpr(sc, e) with e's affine form (nil where not affine)
// and linear form, which its caller would otherwise ask affineForm and
// lin for at once: a window's ends and a variable's extents. They are
// what those would give: the form and the linear form intExpr's affine
// makes and remembers (newAffineForm), which affineForm and lin find
// in the memo within an access (or, evicted, make again alike). Not
// remembering e's own entry changes only which older entries the memo
// still holds, each one valid within the access (affineForm). Its store
// and the two lookups had been a tenth of shfl_xor's Convert (issue 13,
// stop 41).
func (c *converter) compile(sc *names, e syntax.Expr) (amir.IntExpr, *amir.Affine, linear, bool) {
	l := c.linearOf(e)
	if af := c.affineFormOf(sc, l); af != nil {
		return c.affineExpr(af), af, l, true
	}
	f, ok := c.intTree(sc, e)
	return f, nil, l, ok
}

func (c *converter) intTree(sc *names, e syntax.Expr) (amir.IntExpr, bool) {
	switch e := e.(type) {
	case *syntax.IntLit:
		v := int(e.Value)
		return func([]int) int { return v }, true
	case *syntax.Name:
		if slot, ok := sc.lookup(e.Name); ok {
			return func(env []int) int { return env[slot] }, true
		}
		if v, ok := c.constOf(e.Name); ok {
			x := int(v)
			return func([]int) int { return x }, true
		}
		return nil, false
	case *syntax.Unary:
		x, ok := c.intExpr(sc, e.X)
		if !ok {
			return nil, false
		}
		switch e.Op {
		case "-":
			return func(env []int) int { return -x(env) }, true
		case "+":
			return x, true
		case "~":
			return func(env []int) int { return ^x(env) }, true
		}
	case *syntax.Binary:
		x, ok1 := c.intExpr(sc, e.X)
		y, ok2 := c.intExpr(sc, e.Y)
		if !ok1 || !ok2 {
			return nil, false
		}
		if f := c.foldConst(sc, e, x, y); f != nil {
			return f, true
		}
		switch e.Op {
		case "+":
			return func(env []int) int { return x(env) + y(env) }, true
		case "-":
			return func(env []int) int { return x(env) - y(env) }, true
		case "*":
			return func(env []int) int { return x(env) * y(env) }, true
		case "/", "//":
			return func(env []int) int { return floorDiv(x(env), y(env)) }, true
		case "%":
			return func(env []int) int { return floorMod(x(env), y(env)) }, true
		}
	}
	return nil, false
}

// modTest compiles e, a == b or a != b, as one closure when a is
// x % m for an affine x and constant m > 0 and b is a constant k: the
// parity guard `t % 2 == 0` of a loop's threads, which the machine
// evaluates once per thread, had been four closure calls (the
// comparison, the modulus, the slot, the constant) where this is one,
// or two for an x of more than one slot (issue 13, stop 44: 2.7 K
// instructions of an rmem_uniform check). The value is boolExpr's: the
// floor modulus, by a mask for a power of two (x & (m-1) is x's floor
// modulus by m = 2^j for every x). nil: not such a test.
func (c *converter) modTest(sc *names, e *syntax.Binary) amir.BoolExpr {
	if (e.Op != "==" && e.Op != "!=") || modTestOff {
		return nil
	}
	a, ok := e.X.(*syntax.Binary)
	if !ok || a.Op != "%" {
		return nil
	}
	// The forms intExpr would compile each operand from (affine).
	kf, mf := c.newAffineForm(sc, e.Y), c.newAffineForm(sc, a.Y)
	if kf == nil || len(kf.Terms) != 0 || mf == nil || len(mf.Terms) != 0 || mf.K <= 0 {
		return nil
	}
	xf := c.newAffineForm(sc, a.X)
	if xf == nil {
		return nil
	}
	k, m, eq := kf.K, mf.K, e.Op == "=="
	if m&(m-1) == 0 {
		m--
		if len(xf.Terms) == 1 && xf.Terms[0].Coef == 1 && xf.K == 0 {
			s := xf.Terms[0].Slot
			return func(env []int) bool { return (env[s]&m == k) == eq }
		}
		x := c.affineExpr(xf)
		return func(env []int) bool { return (x(env)&m == k) == eq }
	}
	x := c.affineExpr(xf)
	return func(env []int) bool { return (floorMod(x(env), m) == k) == eq }
}

// modTestOff makes boolExpr compile every comparison apart, without
// modTest and slotCmp (set by the tests that compare the two ways).
var modTestOff bool

// slotCmp compiles e, x OP k for a comparison OP, an x of one slot (a
// multiple of it plus a constant) and a constant k, as one closure: a
// loop's guards (`k >= 1`, `k1 == 0`, `k < K`) had been three closure
// calls a evaluation (the comparison, x's and the constant's) where
// this is one (issue 13, stop 44). The value is boolExpr's: x's form's
// (affineExpr's K + Coef*env[Slot]) compared with the constant. nil: not
// such a comparison.
func (c *converter) slotCmp(sc *names, e *syntax.Binary) amir.BoolExpr {
	switch e.Op {
	case "==", "!=", "<", "<=", ">", ">=":
	default:
		return nil
	}
	if modTestOff {
		return nil
	}
	kf := c.newAffineForm(sc, e.Y)
	if kf == nil || len(kf.Terms) != 0 {
		return nil
	}
	xf := c.newAffineForm(sc, e.X)
	if xf == nil || len(xf.Terms) != 1 {
		return nil
	}
	s, a, b, k := xf.Terms[0].Slot, xf.Terms[0].Coef, xf.K, kf.K
	switch e.Op {
	case "==":
		return func(env []int) bool { return b+a*env[s] == k }
	case "!=":
		return func(env []int) bool { return b+a*env[s] != k }
	case "<":
		return func(env []int) bool { return b+a*env[s] < k }
	case "<=":
		return func(env []int) bool { return b+a*env[s] <= k }
	case ">":
		return func(env []int) bool { return b+a*env[s] > k }
	}
	return func(env []int) bool { return b+a*env[s] >= k }
}

// boolExpr compiles a guard (Fig. 6 B-CONST, B-LOG, B-REL).
func (c *converter) boolExpr(sc *names, e syntax.Expr) (amir.BoolExpr, bool) {
	switch e := e.(type) {
	case *syntax.BoolLit:
		v := e.Value
		return func([]int) bool { return v }, true
	case *syntax.Unary:
		if e.Op == "not" {
			x, ok := c.boolExpr(sc, e.X)
			if !ok {
				return nil, false
			}
			return func(env []int) bool { return !x(env) }, true
		}
	case *syntax.Binary:
		switch e.Op {
		case "and", "or":
			x, ok1 := c.boolExpr(sc, e.X)
			y, ok2 := c.boolExpr(sc, e.Y)
			if !ok1 || !ok2 {
				return nil, false
			}
			if e.Op == "and" {
				return func(env []int) bool { return x(env) && y(env) }, true
			}
			return func(env []int) bool { return x(env) || y(env) }, true
		}
		if f := c.modTest(sc, e); f != nil {
			return f, true
		}
		if f := c.slotCmp(sc, e); f != nil {
			return f, true
		}
		x, ok1 := c.intExpr(sc, e.X)
		y, ok2 := c.intExpr(sc, e.Y)
		if !ok1 || !ok2 {
			return nil, false
		}
		switch e.Op {
		case "==":
			return func(env []int) bool { return x(env) == y(env) }, true
		case "!=":
			return func(env []int) bool { return x(env) != y(env) }, true
		case "<":
			return func(env []int) bool { return x(env) < y(env) }, true
		case "<=":
			return func(env []int) bool { return x(env) <= y(env) }, true
		case ">":
			return func(env []int) bool { return x(env) > y(env) }, true
		case ">=":
			return func(env []int) bool { return x(env) >= y(env) }, true
		}
	}
	return nil, false
}

// linear is an affine form Σ coef·atom + k over opaque atoms (names and
// non-linear subexpressions, keyed by their printed form). It is used only
// to prove that accesses are aligned to a block size (granularity), and
// for the affine forms of windows (affineForm).
//
// terms are sorted by atom, each atom once; a term whose coefficient is 0
// stays only where a product by 0 made it (the forms of the map this
// replaced, which affineForm sees: issue 13, Convert was a quarter of a
// small check's time, mostly these maps).
type linear struct {
	k     int
	terms []linTerm
}

type linTerm struct {
	atom string
	c    int
}

func gcd(a, b int) int {
	if a < 0 {
		a = -a
	}
	if b < 0 {
		b = -b
	}
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// align is the largest g such that the form is a multiple of g for every
// value of its atoms (0 means the form is identically 0).
func (l linear) align() int {
	g := l.k
	for _, t := range l.terms {
		g = gcd(g, t.c)
	}
	if g < 0 {
		g = -g
	}
	return g
}

// sub is l - o. An atom of o's is dropped when its coefficient becomes 0;
// l's other terms are kept as they are.
func (l linear) sub(o linear) linear {
	var buf []linTerm
	if len(l.terms)+len(o.terms) > 0 {
		buf = make([]linTerm, 0, len(l.terms)+len(o.terms))
	}
	return l.subTo(buf, o)
}

// subTo is sub with the result's terms in buf (empty, with room for
// len(l.terms)+len(o.terms)).
func (l linear) subTo(buf []linTerm, o linear) linear { return l.mergeTo(buf, o, -1) }

func (c *converter) linearOf(e syntax.Expr) linear {
	switch e := e.(type) {
	case *syntax.IntLit:
		return linear{k: int(e.Value)}
	case *syntax.Name:
		// A control name first (a short list, c.ctrl): it is an atom
		// whether or not a constant has its name, and loop variables,
		// the commonest names of an index, then take no string-keyed
		// lookup in the file's constants (issue 13, stop 41).
		if !c.isControlName(e.Name) {
			if v, ok := c.constOf(e.Name); ok {
				return linear{k: int(v)}
			}
		}
		return c.atom(e.Name) // its printed form
	case *syntax.Unary:
		if e.Op == "-" {
			x := c.linearOf(e.X)
			return linear{}.subTo(c.linTerms(len(x.terms)), x)
		}
	case *syntax.Binary:
		x, y := c.linearOf(e.X), c.linearOf(e.Y)
		switch e.Op {
		case "+":
			return x.addTo(c.linTerms(len(x.terms)+len(y.terms)), y)
		case "-":
			return x.subTo(c.linTerms(len(x.terms)+len(y.terms)), y)
		case "*":
			if len(x.terms) == 0 {
				x, y = y, x
			}
			if len(y.terms) == 0 {
				// Scaled in place: x's terms are its own (each form
				// linearOf returns has terms of its own, from linTerms,
				// which only its caller reads), where a copy had taken
				// a fifth of shfl_xor's linear terms (issue 13, stop 46).
				for i := range x.terms {
					x.terms[i].c *= y.k
				}
				x.k *= y.k
				return x
			}
		}
	}
	return c.atom(syntax.ExprString(e))
}

// atom is the linear form 1·a of the atom printed a.
func (c *converter) atom(a string) linear {
	return linear{terms: append(c.linTerms(1), linTerm{a, 1})}
}

// addTo is l + o, the form sub(l, sub(linear{}, o)) gave (the sum had
// been those two merges, each with its terms; issue 13, stop 42): the
// inner sub negates o's terms and drops those with coefficient 0, so an
// atom of o alone is kept with its coefficient where it is not 0, and
// an atom of both is l's term unchanged where o's coefficient is 0 (o's
// term dropped), else the sum, dropped where it is 0; l's other terms
// are kept as they are. buf is as subTo's. TestAddToMatchesSubSub
// compares both.
func (l linear) addTo(buf []linTerm, o linear) linear { return l.mergeTo(buf, o, 1) }

// mergeTo is l + s·o for s = 1 (addTo) or -1 (subTo), its terms in buf:
// the forms merged by atom. An atom of l alone keeps its term; of o
// alone, s times its term where its coefficient is not 0; of both, the
// sum, dropped where it is 0, but for a sum (s = 1) whose term of o has
// coefficient 0, which keeps l's term (addTo).
func (l linear) mergeTo(buf []linTerm, o linear, s int) linear {
	r := linear{k: l.k + s*o.k, terms: buf}
	i, j := 0, 0
	for i < len(l.terms) || j < len(o.terms) {
		switch {
		case j == len(o.terms) || (i < len(l.terms) && l.terms[i].atom < o.terms[j].atom):
			r.terms = append(r.terms, l.terms[i])
			i++
		case i == len(l.terms) || o.terms[j].atom < l.terms[i].atom:
			if o.terms[j].c != 0 {
				r.terms = append(r.terms, linTerm{o.terms[j].atom, s * o.terms[j].c})
			}
			j++
		default:
			if s > 0 && o.terms[j].c == 0 {
				r.terms = append(r.terms, l.terms[i])
			} else if c := l.terms[i].c + s*o.terms[j].c; c != 0 {
				r.terms = append(r.terms, linTerm{l.terms[i].atom, c})
			}
			i++
			j++
		}
	}
	return r
}

// linTerms is an empty term slice with room for n terms, from the
// converter's buffer: linear forms are made for each index and bound and
// read at once (a form's terms are never changed once made), and their
// term slices were a sixth of a small kernel's Convert objects (issue 13,
// stop 26). No form outlives the conversion step that made it (the
// affine forms copy their terms), so the buffer is rewound at each
// access (stop 27); one that fills up mid-access is replaced, the forms
// in the old one staying valid.
func (c *converter) linTerms(n int) []linTerm {
	if n == 0 {
		return nil
	}
	l := len(c.linBuf)
	if cap(c.linBuf)-l < n {
		c.linBuf = make([]linTerm, 0, max(2*cap(c.linBuf), 8, n))
		l = 0
	}
	c.linBuf = c.linBuf[:l+n]
	return c.linBuf[l : l : l+n]
}

// slotsOf lists the slots of the control names in exprs (nil exprs are
// skipped), for the task-symmetry analysis of package amir.
func (c *converter) slotsOf(sc *names, exprs ...syntax.Expr) []int {
	return c.appendSlots(nil, sc, exprs...)
}

// appendSlots is slotsOf appending to out (an access's slots are gathered
// into one slice: a closure and a slice per index had been a tenth of a
// small kernel's Convert objects; issue 13, stop 26).
func (c *converter) appendSlots(out []int, sc *names, exprs ...syntax.Expr) []int {
	for _, e := range exprs {
		if e != nil {
			out = appendSlotsOf(out, sc, e)
		}
	}
	return out
}

func appendSlotsOf(out []int, sc *names, e syntax.Expr) []int {
	switch e := e.(type) {
	case *syntax.Name:
		if s, ok := sc.lookup(e.Name); ok {
			out = append(out, s)
		}
	case *syntax.Unary:
		out = appendSlotsOf(out, sc, e.X)
	case *syntax.Binary:
		out = appendSlotsOf(out, sc, e.X)
		out = appendSlotsOf(out, sc, e.Y)
	case *syntax.Slice:
		if e.Lo != nil {
			out = appendSlotsOf(out, sc, e.Lo)
		}
		if e.Hi != nil {
			out = appendSlotsOf(out, sc, e.Hi)
		}
	case *syntax.Index:
		out = appendSlotsOf(out, sc, e.X)
		for _, i := range e.Indices {
			out = appendSlotsOf(out, sc, i)
		}
	case *syntax.Call:
		for _, a := range e.Args {
			out = appendSlotsOf(out, sc, a)
		}
	}
	return out
}

// foldConst compiles x op k and k op x for a constant k into one closure:
// `k1 % 2` and `1 - k1 % 2` index double buffers on the machine's hot
// path. nil when neither operand is constant or op is not foldable.
func (c *converter) foldConst(sc *names, e *syntax.Binary, x, y amir.IntExpr) amir.IntExpr {
	if yc := c.affineForm(sc, e.Y); yc != nil && len(yc.Terms) == 0 {
		k := yc.K
		switch e.Op {
		case "+":
			return func(env []int) int { return x(env) + k }
		case "-":
			return func(env []int) int { return x(env) - k }
		case "*":
			return func(env []int) int { return x(env) * k }
		case "/", "//":
			return func(env []int) int { return floorDiv(x(env), k) }
		case "%":
			return func(env []int) int { return floorMod(x(env), k) }
		}
	}
	if xc := c.affineForm(sc, e.X); xc != nil && len(xc.Terms) == 0 {
		k := xc.K
		switch e.Op {
		case "+":
			return func(env []int) int { return k + y(env) }
		case "-":
			return func(env []int) int { return k - y(env) }
		case "*":
			return func(env []int) int { return k * y(env) }
		}
	}
	return nil
}

// modForm is e as amir.ModAffine when it is a % k, k2 + a % k, a % k + k2
// or k2 - a % k with a affine and k > 0 constant (double-buffer indices);
// nil otherwise. The machine evaluates it without closures.
func (c *converter) modForm(sc *names, e syntax.Expr) *amir.ModAffine {
	b, ok := e.(*syntax.Binary)
	if !ok {
		return nil
	}
	if b.Op == "%" {
		a := c.affineForm(sc, b.X)
		k := c.affineForm(sc, b.Y)
		if a == nil || k == nil || len(k.Terms) != 0 || k.K <= 0 {
			return nil
		}
		return &amir.ModAffine{Aff: *a, M: k.K, Sign: 1}
	}
	if b.Op != "+" && b.Op != "-" {
		return nil
	}
	if k := c.affineForm(sc, b.X); k != nil && len(k.Terms) == 0 {
		if f := c.modForm(sc, b.Y); f != nil {
			if b.Op == "-" {
				f.Sign, f.Add = -f.Sign, -f.Add
			}
			f.Add += k.K
			return f
		}
	}
	if k := c.affineForm(sc, b.Y); k != nil && len(k.Terms) == 0 {
		if f := c.modForm(sc, b.X); f != nil {
			if b.Op == "-" {
				f.Add -= k.K
			} else {
				f.Add += k.K
			}
			return f
		}
	}
	return nil
}
