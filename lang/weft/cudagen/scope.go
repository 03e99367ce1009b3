package cudagen

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"weft.dev/weft/lang/weft/check"

	"weft.dev/weft/cuda"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/syntax"
)

type symKind int

const (
	kSize symKind = iota
	kIndex
	kBool
	kScalar // scalar data (f32 x, possibly in a memory)
	kTensor // tensor or window data
	kBarrier
	kIter
	kStride
)

// sym is one name in scope.
type sym struct {
	path   string // the warp code path of a cuda_threads iterator
	name   string
	c      string // C expression naming it
	kind   symKind
	elem   string
	dims   []syntax.Expr
	window bool
	mem    string
	memArg []int64
	// preArrive: a CudaMbarrierPreArrive(pre) barrier (lowered as a
	// CudaMbarrier ring, ring.go).
	preArrive bool
	device    bool // declared inside a CudaDeviceFunction
	param     bool
	ptr       bool // host scalar data parameter passed by pointer
	order     int
	decl      syntax.Node

	// device allocations
	tileThreads int // tile thread count of the allocation scope (seed 002 Rule 2/4)
	smemOff     int
	// smemEnd is the SMEM top after the allocation, smemPrevTop the top
	// before it (its offset, before alignment): a free of the allocation
	// on top pops it.
	smemEnd, smemPrevTop int

	// cuda_threads iterators: tile thread counts before and after the loop
	t0, t1    int
	threadsIt bool
	ctaSel    bool // the iterator selects a CTA of the cluster
	iterID    int
	// tIter is the iterator's id in the tilings of its body: iterID, or
	// the GPU checker's id when the loop's tiling is the checker's
	// (shared.go).
	tIter int

	bar        *barState
	aliasOf    *alias // window statements
	constVal   *int64 // an inlined proc's constant size argument
	scalarized bool   // every dimension is distributed: a single register
	tmap       bool
}

type scope struct {
	parent *scope
	list   []*sym // in order of declaration; a name declared again shadows
	// names indexes list once it is long (a CPU proc's locals); the
	// block scopes of device code hold a few names, or none, and are
	// searched in place (issue 13: a map per block was a tenth of the
	// generator's time in weft check).
	names map[string]*sym
	// inl backs list while the scope holds at most len(inl) names (a
	// loop's iterator, a block's allocation): no slice per scope.
	inl [2]*sym
}

// scopeIndexAt is the length at which a scope indexes its names.
const scopeIndexAt = 16

func newScope(parent *scope) *scope { return &scope{parent: parent} }

// newScope is newScope(parent) from a chunk of scopes: device code makes
// a scope per block and per loop, most of which hold a name or none, and
// an allocation each was a tenth of the generator's objects in weft check
// (issue 13). The scopes live as long as the Generate.
func (g *gen) newScope(parent *scope) *scope {
	if len(g.scopeBuf) == 0 {
		g.scopeBuf = make([]scope, 16)
	}
	s := &g.scopeBuf[0]
	g.scopeBuf = g.scopeBuf[1:]
	s.parent = parent
	return s
}

func (s *scope) lookup(name string) *sym {
	for ; s != nil; s = s.parent {
		if s.names != nil {
			if v := s.names[name]; v != nil {
				return v
			}
			continue
		}
		for i := len(s.list) - 1; i >= 0; i-- {
			if s.list[i].name == name {
				return s.list[i]
			}
		}
	}
	return nil
}

func (s *scope) add(v *sym) *sym {
	if s.list == nil {
		s.list = s.inl[:0]
	}
	s.list = append(s.list, v)
	switch {
	case s.names != nil:
		s.names[v.name] = v
	case len(s.list) == scopeIndexAt:
		s.names = make(map[string]*sym, 2*scopeIndexAt)
		for _, w := range s.list {
			s.names[w.name] = w // later declarations overwrite earlier ones
		}
	}
	return v
}

// constValue folds e to an integer using the global constants and, if sc is
// given, nothing else (sizes are runtime values).
func (g *gen) constValue(e syntax.Expr, sc *scope) (int64, bool) {
	switch e := e.(type) {
	case *syntax.IntLit:
		return e.Value, true
	case *syntax.Name:
		if sc != nil {
			if v := sc.lookup(e.Name); v != nil {
				if v.constVal != nil {
					return *v.constVal, true
				}
				return 0, false
			}
		}
		v, ok := g.consts.get(e.Name)
		return v, ok
	case *syntax.Unary:
		x, ok := g.constValue(e.X, sc)
		if !ok {
			return 0, false
		}
		switch e.Op {
		case "-":
			return -x, true
		case "~":
			return ^x, true
		}
	case *syntax.Binary:
		// The right operand is not folded once the left one is not
		// constant: the fold is pure (lookups only), and exprPrec asks it
		// of every binary node of an index (t4 * 4 + t2 * 2 + t1 + s * 64),
		// so a whole subtree's names were looked up again at each level
		// (issue 13, stop 31: a tenth of the generator on shfl_xor).
		x, ok := g.constValue(e.X, sc)
		if !ok {
			return 0, false
		}
		y, ok := g.constValue(e.Y, sc)
		if !ok {
			return 0, false
		}
		return check.ControlOp(e.Op, x, y)
	}
	return 0, false
}

// unit evaluates a collective unit expression: a name, `k * unit`, or a
// parameterized unit call (seed 000 Fig. 11).
func (g *gen) unit(e syntax.Expr, sc *scope) (coll.Unit, error) { return g.unitTo(e, sc, true) }

// unitOK is unit for a caller that reads only whether it succeeded (an
// instruction's unit, which may name the instruction's parameters: the
// message of each such failure had been formatted for nothing, issue 13).
func (g *gen) unitOK(e syntax.Expr, sc *scope) (coll.Unit, bool) {
	u, err := g.unitTo(e, sc, false)
	return u, err == nil
}

// errNoUnit is unitTo's failure without a message.
var errNoUnit = errors.New("not a collective unit")

// unitTo is unit; msg false leaves its own failures unformatted.
func (g *gen) unitTo(e syntax.Expr, sc *scope, msg bool) (coll.Unit, error) {
	switch e := e.(type) {
	case *syntax.Name:
		if u, ok := coll.LookupUnit(e.Name); ok {
			return u, nil
		}
		if !msg {
			return coll.Unit{}, errNoUnit
		}
		return coll.Unit{}, fmt.Errorf("%s is not a collective unit", e.Name)
	case *syntax.Binary:
		if e.Op == "*" {
			if k, ok := g.constValue(e.X, sc); ok {
				u, err := g.unitTo(e.Y, sc, msg)
				if err != nil {
					return u, err
				}
				return u.Scaled(int(k))
			}
			if k, ok := g.constValue(e.Y, sc); ok {
				u, err := g.unitTo(e.X, sc, msg)
				if err != nil {
					return u, err
				}
				return u.Scaled(int(k))
			}
		}
	case *syntax.Call:
		var args []int
		for _, a := range e.Args {
			k, ok := g.constValue(a, sc)
			if !ok {
				if !msg {
					return coll.Unit{}, errNoUnit
				}
				return coll.Unit{}, fmt.Errorf("arguments of %s must be constants", e.FunName())
			}
			args = append(args, int(k))
		}
		return coll.StridedUnit(e.FunName(), args)
	}
	if !msg {
		return coll.Unit{}, errNoUnit
	}
	return coll.Unit{}, fmt.Errorf("%s is not a collective unit", syntax.ExprString(e))
}

// exprCtx says how names print.
type exprCtx struct {
	g      *gen
	sc     *scope
	device bool
	// assigning is set while the target of a plain `=` is lowered: that
	// use of a scalar is a write, not a read (facts.read).
	assigning bool
	// noText is set where the caller discards the text (a statement of
	// CheckOnly's discarding writer): the expression is walked for its
	// facts and diagnostics alone, making the same calls in the same
	// order, and its operators, indices and literals are not formatted
	// (issue 13, stop 29: the text was a tenth of the generator under
	// weft check). Results are then "" or a name's C text.
	noText bool
}

// C precedence levels (higher binds tighter).
func prec(op string) int {
	switch op {
	case "or":
		return 1
	case "and":
		return 2
	case "==", "!=":
		return 4
	case "<", "<=", ">", ">=":
		return 5
	case "+", "-":
		return 6
	case "*", "/", "//", "%":
		return 7
	}
	return 0
}

func cop(op string) string {
	switch op {
	case "or":
		return "||"
	case "and":
		return "&&"
	case "//":
		return "/"
	}
	return op
}

// expr prints e as a C expression.
func (x *exprCtx) expr(e syntax.Expr) string { return x.exprPrec(e, 0) }

func (x *exprCtx) exprPrec(e syntax.Expr, outer int) string {
	switch e := e.(type) {
	case *syntax.IntLit:
		if x.noText {
			return ""
		}
		return strconv.FormatInt(e.Value, 10)
	case *syntax.FloatLit:
		if x.noText {
			return ""
		}
		s := e.Text
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return s + "f"
	case *syntax.BoolLit:
		if e.Value {
			return "true"
		}
		return "false"
	case *syntax.Name:
		return x.name(e)
	case *syntax.Unary:
		op := e.Op
		if op == "not" {
			op = "!"
		}
		s := x.exprPrec(e.X, 8)
		if x.noText {
			return ""
		}
		s = op + s
		if outer > 8 {
			return "(" + s + ")"
		}
		return s
	case *syntax.Binary:
		if x.noText && x.g.single {
			// Folding is text alone here: a constant subexpression's
			// leaves are literals, global constants and inlined
			// parameters bound to constants (constValue), whose walk
			// reports nothing and changes nothing CheckOnly reads (a
			// constant parameter is a device name: no capture; the single
			// pass records no facts of names read). So its children are
			// walked as a non-constant's are, without constValue at each
			// level: the fold went down the left spine again at every
			// node of an index (issue 13, stop 36). A pass that records
			// facts (weft build's first) still folds, as its text does.
			x.exprPrec(e.X, 0)
			x.exprPrec(e.Y, 0)
			return ""
		}
		if c, ok := x.g.constValue(e, x.sc); ok && prec(e.Op) >= 6 {
			// Constant subexpressions (M1 / Mw) are folded, as Exo's
			// simplify does.
			if x.noText {
				return ""
			}
			if c < 0 && outer > 0 {
				return "(" + strconv.FormatInt(c, 10) + ")"
			}
			return strconv.FormatInt(c, 10)
		}
		p := prec(e.Op)
		l := x.exprPrec(e.X, p)
		r := x.exprPrec(e.Y, p+1)
		if x.noText {
			return ""
		}
		s := l + " " + cop(e.Op) + " " + r
		if p < outer || p == 0 {
			return "(" + s + ")"
		}
		return s
	case *syntax.Index:
		return x.access(e)
	case *syntax.Attr:
		return x.configRef(e)
	case *syntax.Call:
		return x.call(e)
	}
	x.g.errorf(e, codeUnsupported, "cannot lower expression %s to C", syntax.ExprString(e))
	return "0"
}

func (x *exprCtx) name(n *syntax.Name) string {
	v := x.sc.lookup(n.Name)
	if v == nil {
		if k, ok := x.g.consts.get(n.Name); ok {
			if x.noText {
				return ""
			}
			return strconv.FormatInt(k, 10)
		}
		x.g.errorf(n, codeName, "unknown name %s", n.Name)
		return cuda.Ident(n.Name)
	}
	if x.device && !v.device {
		x.g.capture(v)
	}
	// Which iterators and scalars are read (facts.used, facts.read) is
	// read only into text (a [[maybe_unused]] attribute, device.go's
	// threadsLoop and devAlloc, both under !g.discard), and no pass of
	// CheckOnly formats text: its single pass does not record them (issue
	// 13, stop 35: two map writes per name a kernel reads).
	if x.g.pass == 1 && !x.g.single {
		if v.threadsIt {
			x.g.facts.used.put(usedKey{v.decl.Pos().Offset, v.path}, true)
		}
		if v.decl != nil && !x.assigning {
			x.g.facts.read.put(v.decl.Pos().Offset, true)
		}
	}
	switch v.kind {
	case kScalar:
		if v.ptr && !(x.device && !v.device) {
			// A CPU scalar parameter is a pointer; the kernel receives
			// its value in the argument struct.
			return "*" + v.c
		}
		if len(v.dims) > 0 {
			break
		}
		return v.c
	case kTensor, kBarrier:
		x.g.errorf(n, codeUnsupported, "%s is a tensor; index it", n.Name)
	}
	return v.c
}

// access prints a point access x[i, j] (reads and writes).
func (x *exprCtx) access(e *syntax.Index) string {
	n, ok := e.X.(*syntax.Name)
	if !ok {
		x.g.errorf(e, codeUnsupported, "cannot lower nested indexing %s", syntax.ExprString(e))
		return "0"
	}
	v := x.sc.lookup(n.Name)
	if v == nil || (v.kind != kTensor && v.kind != kScalar) {
		x.g.errorf(n, codeName, "%s is not a tensor", n.Name)
		return "0"
	}
	if x.device && !v.device {
		x.g.capture(v)
	}
	indices := e.Indices
	for v.aliasOf != nil {
		indices = compose(v.aliasOf, indices)
		v = v.aliasOf.base
		if x.device && !v.device {
			x.g.capture(v)
		}
	}
	if len(indices) != len(v.dims) {
		x.g.errorf(e, codeName, "%s has %d dimensions, indexed with %d", n.Name, len(v.dims), len(indices))
		return "0"
	}
	for _, i := range indices {
		if _, ok := i.(*syntax.Slice); ok {
			x.g.errorf(i, codeUnsupported, "a window of %s cannot be used as a value", n.Name)
			return "0"
		}
	}
	if !x.device && x.g.memSpace(v.mem) != "dram" && x.g.memSpace(v.mem) != "grid_constant" {
		x.g.errorf(e, codeMemory, "%s is in %s, which CPU code cannot access", n.Name, v.mem)
	}
	idx := x.g.stripDist(x, v, indices, e)
	if frag := fragmentThreads(v.mem); frag > 0 {
		x.g.errorf(e, codeMemory, "%s is in %s: only instructions access matrix fragments", n.Name, v.mem)
		return "0"
	}
	dims := v.dims[len(v.dims)-len(idx):]
	if len(idx) == 0 {
		if len(v.dims) == 0 || v.scalarized {
			return v.c
		}
		if x.noText {
			return ""
		}
		return v.c + "[0]"
	}
	if x.noText {
		x.linear(idx, dims)
		if x.g.memSpace(v.mem) == "smem" && isSwizzled(v.mem) {
			x.g.swizzledRef(v, "") // it records the helper
		}
		return ""
	}
	ref := v.c + "[" + x.linear(idx, dims) + "]"
	if x.g.memSpace(v.mem) == "smem" && isSwizzled(v.mem) {
		// An element of swizzled SMEM at its swizzled address (Exo's
		// Sm90_SmemSwizzled is readable and writable in CUDA code).
		return x.g.swizzledRef(v, ref)
	}
	return ref
}

// linear prints the row-major offset of idx in a tensor of dims.
func (x *exprCtx) linear(idx []syntax.Expr, dims []syntax.Expr) string {
	// Horner form i0 * d1 * d2 + i1 * d2 + i2, folded where constant.
	if x.noText {
		x.linearWalk(idx, dims)
		return ""
	}
	var terms []string
	for k, i := range idx {
		t := x.exprPrec(i, 6)
		if c, ok := x.g.constValue(i, x.sc); ok && c == 0 {
			continue
		}
		stride := int64(1)
		var symb []string
		for _, d := range dims[k+1:] {
			if c, ok := x.g.constValue(d, x.sc); ok {
				stride *= c
			} else {
				symb = append(symb, x.exprPrec(d, 7))
			}
		}
		if stride != 1 {
			symb = append([]string{strconv.FormatInt(stride, 10)}, symb...)
		}
		if len(symb) > 0 {
			t = x.exprPrec(i, 7) + " * " + strings.Join(symb, " * ")
		}
		terms = append(terms, t)
	}
	if len(terms) == 0 {
		return "0"
	}
	return strings.Join(terms, " + ")
}

// textAlways makes every expression formatted, noText or not (the
// differential test TestInstrCheckMatchesFill; never set otherwise).
var textAlways = false

// linearWalk is linear under noText: the same lowerings of the indices
// and the symbolic extents, in the same order, no text.
//
// It walks each expression once, where linear walks an index twice (at
// precedence 6, and at 7 as a factor) and the later extents once per
// nonzero index: a walk of the same expression in the same scope reports
// the same diagnostics, which errorf reports once (its key is the
// position, code and text), and its other effects (captures, the facts of
// names read) are sets, so the walks after the first change nothing.
// What is walked, first walks in linear's order: every index, and each
// non-constant extent after the first index that is not constant 0 (issue
// 13, stop 35).
func (x *exprCtx) linearWalk(idx []syntax.Expr, dims []syntax.Expr) {
	extents := false // the extents have been walked
	for k, i := range idx {
		x.exprPrec(i, 6)
		if extents {
			continue
		}
		if c, ok := x.g.constValue(i, x.sc); ok && c == 0 {
			continue
		}
		extents = true
		for _, d := range dims[k+1:] {
			if _, ok := x.g.constValue(d, x.sc); !ok {
				x.exprPrec(d, 7)
			}
		}
	}
}

// size prints the product of dims.
func (x *exprCtx) size(dims []syntax.Expr) string {
	c := int64(1)
	var symb []string
	for _, d := range dims {
		if k, ok := x.g.constValue(d, x.sc); ok {
			c *= k
		} else {
			symb = append(symb, x.exprPrec(d, 7))
		}
	}
	if c != 1 || len(symb) == 0 {
		symb = append([]string{strconv.FormatInt(c, 10)}, symb...)
	}
	return strings.Join(symb, " * ")
}

func (g *gen) memSpace(mem string) string {
	if mem == "" {
		return "dram"
	}
	if m := g.memory(mem); m != nil {
		return m.Space
	}
	return ""
}

func isSwizzled(mem string) bool { return mem == "Sm90_SmemSwizzled" }

// fragmentThreads is the number of threads that hold one matrix tile of a
// register-fragment memory (the last two dims become one dim of
// rows*cols/threads registers per thread), 0 for ordinary memories.
func fragmentThreads(mem string) int {
	switch mem {
	case "Sm80_RmemMatrixA", "Sm80_RmemMatrixB", "Sm80_RmemMatrixD", "Sm90_TkRmemTileD":
		// Sm90_TkRmemTileD: a warp's 16 x N slice of a wgmma accumulator.
		return 32
	case "Sm90_RmemMatrixA", "Sm90_RmemMatrixD":
		return 128
	}
	return 0
}

// stripDist removes the distributed indices of an access to a device
// allocation (seed 002 Rule 2/4 and 4/4): consume indices from the left
// while they are cuda_threads iterators whose tiling operators, permuted,
// chain the allocation's tile thread count down to the native unit's.
func (g *gen) stripDist(x *exprCtx, v *sym, idx []syntax.Expr, at syntax.Node) []syntax.Expr {
	if !v.device || v.decl == nil || v.kind == kBarrier {
		return idx
	}
	tn := g.nativeThreads(v.mem)
	if m := g.memory(v.mem); m != nil && m.Uniform != "" && len(v.memArg) > 0 && v.memArg[0] > 0 {
		// CudaRmemUniform(n): one shard per n threads, each of them
		// holding it in its registers (lib.Memory.Uniform).
		tn = int(v.memArg[0])
	}
	if tn == 0 {
		return idx
	}
	off := v.decl.Pos().Offset
	k := 0
	if v.tileThreads > tn {
		// The operators of a few leading indices, in place (an append
		// per index had been a tenth of the generator's objects on
		// shfl_xor; issue 13, stop 29).
		var opsBuf [4][2]int
		ops := opsBuf[:0]
		found := false
		cur := v.tileThreads
		for k < len(idx) {
			// A window over a whole distributed dimension (an instruction
			// argument spanning every shard, e.g. the 32 lanes of a shuffle
			// or the CTAs of a multicast) consumes it like an iterator.
			if sl, ok := idx[k].(*syntax.Slice); ok && k < len(v.dims) {
				e, ok := g.constValue(v.dims[k], x.sc)
				if !ok || e < 1 || cur%int(e) != 0 || cur/int(e) < tn || !g.fullSlice(sl, v.dims[k], x.sc) {
					break
				}
				// Its place in the chain is wherever a level of e threads
				// remains (Exo's rmemA[t4, :, t1, s]: a pair's dimension
				// before the index that selects the pair): a factor.
				ops = append(ops, [2]int{-int(e), 0})
				cur /= int(e)
				k++
				if chains(ops, v.tileThreads, tn) {
					found = true
					break
				}
				continue
			}
			n, ok := idx[k].(*syntax.Name)
			var it *sym
			if ok {
				it = x.sc.lookup(n.Name)
			}
			if it == nil || !it.threadsIt {
				break
			}
			cur = it.t1
			ops = append(ops, [2]int{it.t0, it.t1})
			k++
			if chains(ops, v.tileThreads, tn) {
				found = true
				break
			}
		}
		if !found {
			g.errorf(at, codeDist, "cannot deduce the distributed indices of %s: its allocation scope has %d threads, its memory %s is allocated per %d threads, and the leading indices are not cuda_threads iterators tiling %d down to %d",
				v.name, v.tileThreads, v.mem, tn, v.tileThreads, tn)
			return idx[k:]
		}
	}
	if prev, ok := g.facts.distDims.get(off); ok && g.pass == 1 && prev != k {
		g.pass1Errorf(at, codeDist, "%s is indexed with %d distributed indices here but %d elsewhere (seed 002 Rule 3/4)", v.name, k, prev)
	}
	g.facts.distDims.put(off, k)
	return idx[k:]
}

func (g *gen) fullSlice(s *syntax.Slice, dim syntax.Expr, sc *scope) bool {
	if s.Lo != nil {
		if c, ok := g.constValue(s.Lo, sc); !ok || c != 0 {
			return false
		}
	}
	if s.Hi == nil {
		return true
	}
	a, ok1 := g.constValue(s.Hi, sc)
	b, ok2 := g.constValue(dim, sc)
	return ok1 && ok2 && a == b
}

// chains reports whether the tiling operators (t0 -> t1), in some order,
// form a chain from ta to tn; an operator {-e, 0} (a whole-slice window)
// divides by e wherever it is placed.
func chains(ops [][2]int, ta, tn int) bool {
	var usedBuf [8]bool
	used := usedBuf[:0]
	if len(ops) <= len(usedBuf) {
		used = usedBuf[:len(ops)]
	} else {
		used = make([]bool, len(ops))
	}
	var walk func(cur, left int) bool
	walk = func(cur, left int) bool {
		if left == 0 {
			return cur == tn
		}
		for i, op := range ops {
			if used[i] {
				continue
			}
			next := -1
			switch {
			case op[0] < 0 && cur%(-op[0]) == 0:
				next = cur / -op[0]
			case op[0] == cur:
				next = op[1]
			}
			if next < 0 {
				continue
			}
			used[i] = true
			if walk(next, left-1) {
				return true
			}
			used[i] = false
		}
		return false
	}
	return walk(ta, len(ops))
}

// nativeThreads is the thread count of the memory's native unit on the
// current device function (0 for CPU-allocated memories).
func (g *gen) nativeThreads(mem string) int {
	m := g.memory(mem)
	if m == nil || m.NativeUnit == "" || g.curDev == nil {
		return 0
	}
	u, ok := coll.LookupUnit(m.NativeUnit)
	if !ok {
		return 0
	}
	n, err := u.Threads(g.curDev.m)
	if err != nil {
		return 0
	}
	return n
}
