package sem

import (
	"fmt"
	"reflect"

	"weft.dev/weft/lang/cudac/syntax"
)

// Group predicates that speak of the other thread (issue 16 §1): GPUVerify
// checks an annotation for an arbitrary pair of distinct threads, and
// __other_int(x) in it is x's value in the other thread of the pair. Its
// annotation header (bugle's annotations.h) defines the rest through it:
// __uniform_int(x) is x == __other_int(x), __distinct_int(x) is x !=
// __other_int(x), __all(x) is x & __other_bool(x), __exclusive(x) (and
// __at_most_one(x), its older name) is !__all(x), and __same_group compares
// the block indices with the other thread's.
//
// A run has every thread's values, so such an annotation is checked over
// the pairs of threads the run ran: when a thread evaluates it (its k-th
// evaluation of that annotation), it records the values the annotation
// needs and then evaluates the annotation once for each ordered pair it
// forms with a thread that already made its k-th evaluation there, either
// thread in the role of "this" thread, reading the recorded values. A
// false pair ends the run at the annotation: C0621, or C0620 for a
// kernel's precondition (the configuration is excluded). With
// --only-intra-group only pairs in one block count.
//
// What is recorded: the annotation is split into its skeleton (the
// operators above the predicates: && || ! ?: comparisons, arithmetic,
// casts, __implies) and leaves (maximal subexpressions with no predicate),
// and each leaf and each predicate's argument gets a slot. Slots whose
// expression cannot fault (no dereference, index, division or call other
// than an annotation) are evaluated at once; the others only where the
// thread's own evaluation reaches them (a leaf guarded by i < n && ... is
// not evaluated when i >= n). A pair that needs a slot one of its threads
// did not evaluate is not judged: never a false report.
//
// Pairs: with up to othFull threads at an evaluation, every pair; beyond,
// a thread is paired with the first othFirst and the last othLast earlier
// ones and with up to othSameTid earlier ones of its own thread index (in
// other blocks). A run judges at most maxOthChecks pairs.

// group predicate kinds
const (
	gpOther = iota
	gpUniform
	gpDistinct
	gpAll
	gpAtMostOne
	gpSameGroup
)

type groupPred struct {
	kind int
	t    *Type // the type of the recorded argument (and of __other_*)
}

var groupPreds map[string]groupPred

// initGroupPreds builds groupPreds (tables.go).
func initGroupPreds() {
	groupPreds = map[string]groupPred{
		"__other_int": {gpOther, tInt}, "__other_unsigned": {gpOther, tUInt}, "__other_bool": {gpOther, tBool},
		"__uniform_int": {gpUniform, tInt}, "__uniform_unsigned": {gpUniform, tUInt}, "__uniform_bool": {gpUniform, tBool},
		"__distinct_int": {gpDistinct, tInt}, "__distinct_unsigned": {gpDistinct, tUInt}, "__distinct_bool": {gpDistinct, tBool},
		"__all": {gpAll, tBool}, "__at_most_one": {gpAtMostOne, tBool}, "__exclusive": {gpAtMostOne, tBool},
		"__same_group": {gpSameGroup, nil},
	}
}

const (
	othFull      = 64
	othFirst     = 8
	othLast      = 16
	othSameTid   = 4
	maxOthChecks = 1 << 18
)

// othInfo is the compiler's view of one annotation with group predicates.
type othInfo struct {
	site  int // index in Program.pairSites
	slots []*othSlot
	slot  map[syntax.Expr]*othSlot // leaf or predicate call -> its slot
	pred  map[syntax.Expr]groupPred
}

type othSlot struct {
	idx  int
	e    syntax.Expr // the leaf, or the predicate's argument (nil: __same_group)
	leaf bool
	safe bool
	t    *Type // the value's type (a leaf's is known once compiled)
}

// hasGroupPred reports whether the syntax tree v mentions a group predicate.
func hasGroupPred(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return false
		}
		switch x := v.Interface().(type) {
		case *syntax.Name:
			return x.Name == "__same_group"
		case *syntax.Call:
			if n, ok := x.Fun.(*syntax.Name); ok {
				if _, ok := groupPreds[n.Name]; ok {
					return true
				}
			}
		}
		return hasGroupPred(v.Elem())
	case reflect.Struct:
		if v.Type() == posType {
			return false
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() && hasGroupPred(v.Field(i)) {
				return true
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			if hasGroupPred(v.Index(i)) {
				return true
			}
		}
	}
	return false
}

func hasGroup(e syntax.Expr) bool { return hasGroupPred(reflect.ValueOf(e)) }

// safeExpr reports whether evaluating e cannot fault: it reads no memory
// through a pointer, divides by nothing and calls no function other than
// an annotation.
func safeExpr(e syntax.Expr) bool {
	safe := true
	walkAST(reflect.ValueOf(e), 0, func(n any) bool {
		if !safe {
			return true
		}
		switch x := n.(type) {
		case *syntax.Index:
			safe = false
			return true
		case *syntax.Unary:
			if x.Op == "*" || x.Op == "++" || x.Op == "--" {
				safe = false
				return true
			}
		case *syntax.Member:
			if x.Arrow {
				safe = false
				return true
			}
		case *syntax.Binary:
			switch x.Op {
			case "/", "%", "=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=", ",":
				safe = false
				return true
			}
		case *syntax.Call:
			fn, ok := x.Fun.(*syntax.Name)
			if !ok {
				safe = false
				return true
			}
			_, pure := annotPure[fn.Name]
			if !pure && !accessPredicates[fn.Name] && fn.Name != "__implies" {
				safe = false
				return true
			}
		}
		return false
	})
	return safe
}

// othAnalyze splits e into skeleton, predicates and leaves; false when a
// predicate sits where the skeleton cannot hold it (under an index, a
// call, an assignment: the annotation is then not evaluated).
func (in *othInfo) analyze(e syntax.Expr) bool {
	if !hasGroup(e) {
		s := &othSlot{idx: len(in.slots), e: e, leaf: true, safe: safeExpr(e)}
		in.slots = append(in.slots, s)
		in.slot[e] = s
		return true
	}
	switch x := e.(type) {
	case *syntax.Name:
		if x.Name == "__same_group" {
			in.pred[e] = groupPreds[x.Name]
			return true
		}
	case *syntax.Call:
		n, ok := x.Fun.(*syntax.Name)
		if !ok {
			return false
		}
		if gp, ok := groupPreds[n.Name]; ok {
			if gp.kind == gpSameGroup {
				if len(x.Args) != 0 {
					return false
				}
				in.pred[e] = gp
				return true
			}
			if len(x.Args) != 1 {
				return false
			}
			if hasGroup(x.Args[0]) {
				// nested: the argument is judged for the pair in
				// both orders (__other_int(e) is e with the roles
				// of the two threads swapped)
				in.pred[e] = gp
				return in.analyze(x.Args[0])
			}
			s := &othSlot{idx: len(in.slots), e: x.Args[0], safe: safeExpr(x.Args[0]), t: gp.t}
			in.slots = append(in.slots, s)
			in.slot[e] = s
			in.pred[e] = gp
			return true
		}
		if n.Name == "__implies" && len(x.Args) == 2 {
			return in.analyze(x.Args[0]) && in.analyze(x.Args[1])
		}
	case *syntax.Binary:
		switch x.Op {
		case "||", "&&", "|", "^", "&", "==", "!=", "<", ">", "<=", ">=", "<<", ">>", "+", "-", "*", "/", "%":
			return in.analyze(x.X) && in.analyze(x.Y)
		}
	case *syntax.Unary:
		switch x.Op {
		case "!", "-", "+", "~":
			return !x.Post && in.analyze(x.X)
		}
	case *syntax.Cond:
		return in.analyze(x.C) && in.analyze(x.X) && in.analyze(x.Y)
	case *syntax.Cast:
		return x.Args == nil && in.analyze(x.X)
	}
	return false
}

// groupAnnot reports whether e is an annotation condition the pair
// evaluation handles.
func groupAnnot(e syntax.Expr) bool {
	if !hasGroup(e) {
		return false
	}
	in := &othInfo{slot: map[syntax.Expr]*othSlot{}, pred: map[syntax.Expr]groupPred{}}
	return in.analyze(e)
}

// checkTree rewrites e for the pair evaluation: each leaf reads its slot
// in "this" thread's record, each predicate becomes __weft_oth_pred.
func (in *othInfo) checkTree(e syntax.Expr) syntax.Expr {
	pos := syntax.PosOf(e)
	lit := func(v int) syntax.Expr { return &syntax.IntLitExpr{Pos: pos, Value: uint64(v), Type: "int"} }
	if s, ok := in.slot[e]; ok && s.leaf {
		return &syntax.Call{Pos: pos, Fun: &syntax.Name{Pos: pos, Name: "__weft_oth_leaf"}, Args: []syntax.Expr{lit(s.idx)}}
	}
	if gp, ok := in.pred[e]; ok {
		idx := -1
		if s := in.slot[e]; s != nil {
			idx = s.idx
		}
		args := []syntax.Expr{lit(gp.kind), lit(idx)}
		if x, ok := e.(*syntax.Call); ok && idx < 0 && len(x.Args) == 1 {
			args = append(args, in.checkTree(x.Args[0]), &syntax.Name{Pos: pos, Name: x.Fun.(*syntax.Name).Name})
		}
		return &syntax.Call{Pos: pos, Fun: &syntax.Name{Pos: pos, Name: "__weft_oth_pred"}, Args: args}
	}
	switch x := e.(type) {
	case *syntax.Call: // __implies
		return &syntax.Call{Pos: x.Pos, Fun: x.Fun, Args: []syntax.Expr{in.checkTree(x.Args[0]), in.checkTree(x.Args[1])}, RParen: x.RParen}
	case *syntax.Binary:
		return &syntax.Binary{Pos: x.Pos, Op: x.Op, X: in.checkTree(x.X), Y: in.checkTree(x.Y)}
	case *syntax.Unary:
		return &syntax.Unary{Pos: x.Pos, Op: x.Op, X: in.checkTree(x.X)}
	case *syntax.Cond:
		return &syntax.Cond{Pos: x.Pos, C: in.checkTree(x.C), X: in.checkTree(x.X), Y: in.checkTree(x.Y)}
	case *syntax.Cast:
		return &syntax.Cast{Pos: x.Pos, Type: x.Type, X: in.checkTree(x.X)}
	}
	return e
}

// othRecordSlot evaluates a slot's expression and stores it in the
// thread's record; the value stays on the stack when keep.
func (c *compiler) othRecordSlot(s *othSlot, keep bool) {
	pos := syntax.PosOf(s.e)
	t := c.expr(s.e)
	if s.leaf {
		s.t = t
	} else {
		c.convert(t, s.t, pos)
	}
	c.emit(OpConst, 0, int64(s.idx), pos)
	c.emit(OpBuiltin, builtinIndex["__oth_put"], 2, pos)
	if !keep {
		c.emit(OpPop, 0, 0, pos)
	}
}

// truth turns the value of type t on the stack into 0 or 1 for a jump.
func (c *compiler) othTruth(t *Type, e syntax.Expr) {
	if t != nil && t.isFloat() {
		c.emit(OpConst, 0, int64(bits(0)), syntax.PosOf(e))
		c.emit(OpFNe, 0, 0, syntax.PosOf(e))
	}
}

// othVisit records the slots that are not evaluated at once, as far as
// the thread's own evaluation of e reaches them: an operand that decides
// (&&, ||, __implies, ?:) and is a leaf is evaluated with the thread's
// own value and skips what it makes irrelevant.
func (c *compiler) othVisit(in *othInfo, e syntax.Expr) {
	if s, ok := in.slot[e]; ok {
		if !s.safe && s.e != nil {
			c.othRecordSlot(s, false)
		}
		return
	}
	if _, ok := in.pred[e]; ok {
		if x, ok := e.(*syntax.Call); ok && len(x.Args) == 1 {
			c.othVisit(in, x.Args[0]) // nested
		}
		return
	}
	// decide: the leaf operand's own value on the stack
	decide := func(x syntax.Expr) bool {
		s, ok := in.slot[x]
		if !ok || !s.leaf {
			return false
		}
		if s.safe {
			c.emit(OpConst, 0, int64(s.idx), syntax.PosOf(x))
			c.emit(OpBuiltin, builtinIndex["__oth_own"], 1, syntax.PosOf(x))
		} else {
			c.othRecordSlot(s, true)
		}
		c.othTruth(s.t, x)
		return true
	}
	guarded := func(x, y syntax.Expr, jump Op) {
		if decide(x) {
			skip := c.emit(jump, 0, 0, syntax.PosOf(x))
			c.othVisit(in, y)
			c.patch(skip)
			return
		}
		c.othVisit(in, x)
		c.othVisit(in, y)
	}
	switch x := e.(type) {
	case *syntax.Call: // __implies
		guarded(x.Args[0], x.Args[1], OpJz)
	case *syntax.Binary:
		switch x.Op {
		case "&&":
			guarded(x.X, x.Y, OpJz)
		case "||":
			guarded(x.X, x.Y, OpJnz)
		default:
			c.othVisit(in, x.X)
			c.othVisit(in, x.Y)
		}
	case *syntax.Unary:
		c.othVisit(in, x.X)
	case *syntax.Cast:
		c.othVisit(in, x.X)
	case *syntax.Cond:
		if decide(x.C) {
			toElse := c.emit(OpJz, 0, 0, x.Pos)
			c.othVisit(in, x.X)
			done := c.emit(OpJmp, 0, 0, x.Pos)
			c.patch(toElse)
			c.othVisit(in, x.Y)
			c.patch(done)
			return
		}
		c.othVisit(in, x.C)
		c.othVisit(in, x.X)
		c.othVisit(in, x.Y)
	}
}

// othAnnot compiles the condition e of an annotation (encl) that has group
// predicates: it records the thread's values, judges the pairs, and
// leaves 1 on the stack (a false pair has ended the run). It returns false,
// emitting nothing, when e is not of a form the pair evaluation handles.
func (c *compiler) othAnnot(encl *pairEncl, e syntax.Expr) bool {
	in := &othInfo{slot: map[syntax.Expr]*othSlot{}, pred: map[syntax.Expr]groupPred{}}
	if !in.analyze(e) {
		return false
	}
	in.site = len(c.prog.pairSites)
	c.prog.pairSites = append(c.prog.pairSites, &pairSite{encl: encl, oth: true, nslot: len(in.slots)})
	pos := syntax.PosOf(e)
	site := int64(in.site)
	builtin := func(name string, n int64) { c.emit(OpBuiltin, builtinIndex[name], n, pos) }
	c.emit(OpConst, 0, site, pos)
	builtin("__oth_reset", 1)
	c.emit(OpPop, 0, 0, pos)
	unsafe := false
	for _, s := range in.slots {
		if s.e == nil {
			continue
		}
		if s.safe {
			c.othRecordSlot(s, false)
		} else {
			unsafe = true
		}
	}
	if unsafe {
		c.othVisit(in, e)
	}
	for _, s := range in.slots {
		if s.t == nil {
			// a leaf only the visit compiles has its type now; one
			// never compiled reads as int
			s.t = tInt
		}
	}
	c.emit(OpConst, 0, site, pos)
	builtin("__oth_begin", 1)
	c.emit(OpPop, 0, 0, pos)
	top := c.here()
	c.emit(OpConst, 0, site, pos)
	builtin("__oth_next", 1)
	end := c.emit(OpJz, 0, 0, pos)
	saved := c.ann.oth
	c.ann.oth = in
	c.cond(in.checkTree(e))
	c.ann.oth = saved
	c.emit(OpConst, 0, site, pos)
	c.emit(OpBuiltin, builtinIndex["__oth_verdict"], 2, encl.at)
	c.emit(OpPop, 0, 0, pos)
	c.emit(OpJmp, int32(top), 0, pos)
	c.patch(end)
	c.emit(OpConst, 0, site, pos)
	builtin("__oth_end", 1)
	return true
}

// othCall compiles the calls checkTree writes; nil for any other name.
func (c *compiler) othCall(name string, e *syntax.Call) *Type {
	in := c.ann.oth
	if in == nil || (name != "__weft_oth_leaf" && name != "__weft_oth_pred") {
		return nil
	}
	arg := func(i int) int64 { return int64(e.Args[i].(*syntax.IntLitExpr).Value) }
	get := func(which string, idx int64) {
		c.emit(OpConst, 0, idx, e.Pos)
		c.emit(OpBuiltin, builtinIndex[which], 1, e.Pos)
	}
	if name == "__weft_oth_leaf" {
		i := arg(0)
		get("__oth_self", i)
		return in.slots[i].t
	}
	kind, i := int(arg(0)), int64(int32(arg(1)))
	if len(e.Args) == 4 {
		// nested: the argument's value in this order and in the
		// swapped one
		gp := groupPreds[e.Args[3].(*syntax.Name).Name]
		value := func(swap bool) {
			if swap {
				get("__oth_swap", 0)
				c.emit(OpPop, 0, 0, e.Pos)
			}
			c.convert(c.expr(e.Args[2]), gp.t, e.Pos)
			if swap {
				get("__oth_swap", 0)
				c.emit(OpPop, 0, 0, e.Pos)
			}
		}
		if kind == gpOther {
			value(true)
			return gp.t
		}
		value(false)
		value(true)
	} else {
		switch kind {
		case gpOther:
			get("__oth_other", i)
			return in.slots[i].t
		case gpSameGroup:
			get("__oth_same", int64(in.site))
			return tInt
		}
		get("__oth_self", i)
		get("__oth_other", i)
	}
	switch kind {
	case gpUniform:
		c.emit(OpEq, 0, 0, e.Pos)
	case gpDistinct:
		c.emit(OpNe, 0, 0, e.Pos)
	case gpAll:
		c.emit(OpAnd, 0, 0, e.Pos)
	case gpAtMostOne:
		c.emit(OpAnd, 0, 0, e.Pos)
		c.emit(OpLNot, 0, 0, e.Pos)
	}
	return tInt
}

// Run time.

// othRec is one thread's values at one evaluation of an annotation.
type othRec struct {
	vals       []uint64
	have       []bool
	block, tid int32
}

// othGroup are the records of one evaluation (the k-th) of one annotation.
type othGroup struct {
	recs  []*othRec
	byTid map[int32][]int
}

// othCur is a thread's evaluation in progress.
type othCur struct {
	site         int32
	rec          *othRec
	partners     []*othRec
	next         int
	subj, other  *othRec
	inconclusive bool
}

func (m *Machine) othTop(t *Thread) *othCur {
	s := m.pairs.othCur[t]
	if len(s) == 0 {
		return nil
	}
	return s[len(s)-1]
}

// othPartners chooses the earlier records of g a new record r is paired
// with (see the top of the file).
func (m *Machine) othPartners(g *othGroup, r *othRec) []*othRec {
	var out []*othRec
	ok := func(p *othRec) bool { return p != r && (!m.pairs.intra || p.block == r.block) }
	n := len(g.recs)
	if n <= othFull {
		for _, p := range g.recs {
			if ok(p) {
				out = append(out, p)
			}
		}
		return out
	}
	seen := map[int]bool{}
	add := func(i int) {
		if !seen[i] && ok(g.recs[i]) {
			seen[i] = true
			out = append(out, g.recs[i])
		}
	}
	for i := 0; i < othFirst; i++ {
		add(i)
	}
	for i := n - othLast; i < n; i++ {
		add(i)
	}
	same := g.byTid[r.tid]
	for k := len(same) - 1; k >= 0 && k >= len(same)-othSameTid; k-- {
		add(same[k])
	}
	if m.pairs.intra && len(out) == 0 {
		// blocks run one after another: the block's own first threads
		for i := n - 1; i >= 0 && len(out) < othFirst; i-- {
			add(i)
		}
	}
	return out
}

func initOthers() {
	for _, name := range []string{"__oth_reset", "__oth_begin", "__oth_next", "__oth_end", "__oth_own", "__oth_self", "__oth_other", "__oth_same", "__oth_swap"} {
		builtinSigs[name] = sig(tLong, deviceSide, tAny)
	}
	builtinSigs["__oth_put"] = sig(tLong, deviceSide, tAny, tAny)
	builtinSigs["__oth_verdict"] = sig(tLong, deviceSide, tAny, tAny)
	for _, name := range []string{"__weft_oth_leaf", "__weft_oth_pred"} {
		builtinSigs[name] = sig(tInt, anySide).va()
	}
	defb("__oth_reset", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		n := m.prog.pairSites[a[0]].nslot
		r := &othRec{vals: make([]uint64, n), have: make([]bool, n), tid: t.tid}
		if t.block != nil {
			r.block = t.block.id
		}
		if m.pairs.othCur == nil {
			m.pairs.othCur = map[*Thread][]*othCur{}
		}
		m.pairs.othCur[t] = append(m.pairs.othCur[t], &othCur{site: int32(a[0]), rec: r})
		return ok(0)
	})
	defb("__oth_put", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if c := m.othTop(t); c != nil && int(a[1]) < len(c.rec.vals) {
			c.rec.vals[a[1]], c.rec.have[a[1]] = a[0], true
		}
		return ok(a[0])
	})
	defb("__oth_own", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if c := m.othTop(t); c != nil && int(a[0]) < len(c.rec.vals) {
			return ok(c.rec.vals[a[0]])
		}
		return ok(0)
	})
	defb("__oth_begin", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		c := m.othTop(t)
		if c == nil || t.block == nil {
			return ok(0)
		}
		site := int32(a[0])
		if t.visits == nil {
			t.visits = map[int32]int32{}
		}
		v := t.visits[site]
		t.visits[site] = v + 1
		if m.pairs.othRecs == nil {
			m.pairs.othRecs = map[pairKey]*othGroup{}
		}
		k := pairKey{site, v}
		g := m.pairs.othRecs[k]
		if g == nil {
			g = &othGroup{byTid: map[int32][]int{}}
			m.pairs.othRecs[k] = g
		}
		c.partners = m.othPartners(g, c.rec)
		if m.pairs.othChecks+2*len(c.partners) > maxOthChecks {
			c.partners = nil
			m.pairs.truncated = true
		}
		m.pairs.othChecks += 2 * len(c.partners)
		if m.pairs.n < maxPairRecs {
			g.byTid[c.rec.tid] = append(g.byTid[c.rec.tid], len(g.recs))
			g.recs = append(g.recs, c.rec)
			m.pairs.n++
		}
		return ok(0)
	})
	// yields 1 and selects the next ordered pair, or 0 at the end
	defb("__oth_next", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		c := m.othTop(t)
		if c == nil || c.next >= 2*len(c.partners) {
			return ok(0)
		}
		p := c.partners[c.next/2]
		if c.next%2 == 0 {
			c.subj, c.other = c.rec, p
		} else {
			c.subj, c.other = p, c.rec
		}
		c.next++
		c.inconclusive = false
		m.mver++ // the loop over the pairs is no spin (spin.go)
		return ok(1)
	})
	read := func(m *Machine, t *Thread, r func(*othCur) *othRec, i uint64) uint64 {
		c := m.othTop(t)
		if c == nil {
			return 0
		}
		rec := r(c)
		if rec == nil || int(i) >= len(rec.vals) || !rec.have[i] {
			c.inconclusive = true
			return 0
		}
		return rec.vals[i]
	}
	defb("__oth_self", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(read(m, t, func(c *othCur) *othRec { return c.subj }, a[0]))
	})
	defb("__oth_other", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return ok(read(m, t, func(c *othCur) *othRec { return c.other }, a[0]))
	})
	defb("__oth_swap", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if c := m.othTop(t); c != nil {
			c.subj, c.other = c.other, c.subj
		}
		return ok(0)
	})
	defb("__oth_same", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		c := m.othTop(t)
		if c == nil || c.subj == nil || c.other == nil {
			return ok(1)
		}
		return ok(b2u(c.subj.block == c.other.block))
	})
	defb("__oth_verdict", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		c := m.othTop(t)
		if a[0] != 0 || c == nil || c.inconclusive || t.block == nil {
			return ok(0)
		}
		site := m.prog.pairSites[a[1]]
		g := t.block.grid
		who := func(r *othRec) string {
			return fmt.Sprintf("thread %s of block %s", dimStr(delinear(int(r.tid), g.bdim), g.bdim), dimStr(delinear(int(r.block), g.gdim), g.gdim))
		}
		pair := fmt.Sprintf("when the other thread is %s", who(c.other))
		if c.subj != c.rec {
			pair = fmt.Sprintf("in %s when the other thread is %s", who(c.subj), who(c.other))
		}
		if site.encl.code == "C0620" {
			m.fault(t, pos, "C0620", "%s false %s: this launch and these inputs are outside what the kernel requires", site.encl.name, pair)
		} else {
			m.fault(t, pos, site.encl.code, "%s violated %s", site.encl.name, pair)
		}
		return 0, stFault
	})
	defb("__oth_end", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if s := m.pairs.othCur[t]; len(s) > 0 {
			m.pairs.othCur[t] = s[:len(s)-1]
		}
		return ok(1)
	})
}

// groupArity reports group predicates called with the wrong number of
// arguments in the annotation arguments args (C0304, as a C compiler
// reports a call that does not match the declaration).
func (c *compiler) groupArity(args []syntax.Expr) {
	walkAST(reflect.ValueOf(args), 0, func(n any) bool {
		x, ok := n.(*syntax.Call)
		if !ok {
			return false
		}
		if fn, ok := x.Fun.(*syntax.Name); ok {
			if gp, ok := groupPreds[fn.Name]; ok {
				want := 1
				if gp.kind == gpSameGroup {
					want = 0
				}
				if len(x.Args) != want {
					c.errorf(x.Pos, "C0304", "%s takes %d argument(s), %d given", fn.Name, want, len(x.Args))
				}
			}
		}
		return false
	})
}
