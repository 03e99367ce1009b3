package check

import (
	"strconv"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// control checks a control expression (seed 000 Fig. 1 CExpr): integers,
// control variables, + and -, c * n, c / n and c % n with n a constant.
func (c *checker) control(e syntax.Expr) {
	switch e := e.(type) {
	case nil, *syntax.BadExpr:
	case *syntax.IntLit:
	case *syntax.Name:
		c.controlName(e, c.lookup(e))
	case *syntax.Binary:
		switch e.Op {
		case "+", "-", "*", "/", "//", "%":
			c.control(e.X)
			c.control(e.Y)
			c.controlBinary(e)
		default:
			c.errs.Errorf(e.Pos(), "W0206", "expected an integer, found a %s comparison or logical operation", e.Op)
		}
	case *syntax.Unary:
		if e.Op == "-" {
			c.control(e.X)
		} else if _, ok := c.constValue(e); !ok {
			c.errs.Errorf(e.Pos(), "W0205", "operator %s is not quasi-affine", e.Op)
		}
	case *syntax.Index:
		c.errs.Errorf(e.Pos(), "W0206", "control expressions cannot read data (%s)", describe(e))
	case *syntax.Attr:
		c.configRead(e, KindIndex)
	case *syntax.Call:
		if isStride(e) {
			c.strideExpr(e)
			return
		}
		c.errs.Errorf(e.Pos(), "W0206", "expected a control expression, found %s", describe(e))
	default:
		c.errs.Errorf(e.Pos(), "W0206", "expected a control expression, found %s", describe(e))
	}
}

// controlName is control's check of a name e whose symbol is sym (nil:
// undefined).
func (c *checker) controlName(e *syntax.Name, sym *Symbol) {
	switch {
	case sym == nil:
		c.errs.Errorf(e.Pos(), "W0201", "undefined: %s%s", e.Name, didYouMean(e.Name, c.namesInScope()))
	case sym.Kind.Control():
	case sym.Kind == KindGlobal:
		c.errs.Errorf(e.Pos(), "W0206", "%s is not an integer constant", e.Name)
	default:
		c.errs.Errorf(e.Pos(), "W0206", "%s is %s, not a control value (control expressions use sizes, indices, iterators and constants)", e.Name, sym.Kind.A())
	}
}

// controlBinary is control's check of e (+ - * / // %) after its
// operands': * and the divisions need a constant operand.
func (c *checker) controlBinary(e *syntax.Binary) {
	switch e.Op {
	case "*":
		// CPU code may multiply two sizes or indices, as Exo's LoopIR
		// does (its scheduling operations print shapes such as
		// R[(n + 1) * (1 + m)] and indices i * m + j; issue 19): CPU
		// code needs no affine analysis. Device code stays
		// quasi-affine (seed 000 Fig. 1 CExpr): the collective and
		// synchronization analyses read its indices as affine forms.
		// (device first, then the right factor, where the constant
		// usually is: static reports nothing, so the order of the
		// tests changes no answer, only how many are asked; stop 41.)
		if c.device && !c.static(e.Y) && !c.static(e.X) {
			c.errs.Errorf(e.Pos(), "W0205", "control expression is not quasi-affine: one factor of * must be a constant (device code indices, bounds and shapes are quasi-affine; CPU code may multiply sizes)")
		}
	case "/", "//", "%":
		if v, ok := c.constValue(e.Y); (ok && v <= 0) || (!ok && !c.static(e.Y)) {
			c.errs.Errorf(e.Pos(), "W0205", "control expression is not quasi-affine: %s needs a positive constant divisor", e.Op)
		}
	}
}

// boolean checks a boolean expression (seed 000 Fig. 1 BExpr).
func (c *checker) boolean(e syntax.Expr) {
	switch e := e.(type) {
	case nil, *syntax.BadExpr:
	case *syntax.BoolLit:
	case *syntax.Name:
		sym := c.lookup(e)
		switch {
		case sym == nil:
			c.errs.Errorf(e.Pos(), "W0201", "undefined: %s%s", e.Name, didYouMean(e.Name, c.namesInScope()))
		case sym.Kind != KindBool:
			c.errs.Errorf(e.Pos(), "W0208", "%s is %s, not a bool", e.Name, sym.Kind.A())
		}
	case *syntax.Binary:
		switch e.Op {
		case "and", "or":
			c.boolean(e.X)
			c.boolean(e.Y)
		case "==", "!=", "<", "<=", ">", ">=":
			if c.boolOperands(e) {
				// b == True, False == True: booleans compare too (Exo).
				c.boolean(e.X)
				c.boolean(e.Y)
				return
			}
			c.control(e.X)
			c.control(e.Y)
		default:
			c.errs.Errorf(e.Pos(), "W0208", "expected a condition, found an arithmetic expression")
		}
	case *syntax.Attr:
		c.configRead(e, KindBool)
	case *syntax.Unary:
		if e.Op == "not" {
			c.boolean(e.X)
		} else {
			c.errs.Errorf(e.Pos(), "W0208", "expected a condition, found an arithmetic expression")
		}
	default:
		c.errs.Errorf(e.Pos(), "W0208", "expected a condition, found %s", describe(e))
	}
}

// data checks a data expression (seed 000 Fig. 1 DExpr).
func (c *checker) data(e syntax.Expr) {
	switch e := e.(type) {
	case nil, *syntax.BadExpr:
	case *syntax.IntLit, *syntax.FloatLit:
	case *syntax.Name, *syntax.Index:
		if sym := c.access(e, false); sym != nil {
			c.permit(sym, 'r', e.Pos())
		}
	case *syntax.Binary:
		switch e.Op {
		case "+", "-", "*", "/":
			c.data(e.X)
			c.data(e.Y)
		default:
			c.errs.Errorf(e.Pos(), "W0207", "operator %s is not a data operation (data expressions use + - * /)", e.Op)
		}
	case *syntax.Unary:
		if e.Op == "-" {
			c.data(e.X)
		} else {
			c.errs.Errorf(e.Pos(), "W0207", "operator %s is not a data operation", e.Op)
		}
	case *syntax.Attr:
		c.configRead(e, KindScalar)
	case *syntax.Call:
		c.externCall(e)
	default:
		c.errs.Errorf(e.Pos(), "W0207", "expected a data expression, found %s", describe(e))
	}
}

// access resolves a scalar data access x or x[i, j] (a point in every
// dimension) for reading or writing.
func (c *checker) access(e syntax.Expr, write bool) *Symbol {
	switch e := e.(type) {
	case *syntax.Name:
		sym := c.lookup(e)
		if sym == nil {
			if write {
				c.errs.Errorf(e.Pos(), "W0201", "undefined: %s (allocate it first, e.g. `%s: f32 @ CudaRmem`; a window statement needs an interval, y[0:n])", e.Name, e.Name)
			} else {
				c.errs.Errorf(e.Pos(), "W0201", "undefined: %s%s", e.Name, didYouMean(e.Name, c.namesInScope()))
			}
			return nil
		}
		if !sym.Kind.Data() {
			c.notData(e, sym, write)
			return nil
		}
		if sym.Rank() > 0 {
			c.errs.Errorf(e.Pos(), "W0209", "%s has %d dimensions: index it", e.Name, sym.Rank())
			return nil
		}
		return sym
	case *syntax.Index:
		base, dims := c.window(e.X)
		if base == nil {
			return nil
		}
		if !base.Kind.Data() {
			if n, ok := e.X.(*syntax.Name); ok {
				c.notData(n, base, write)
			}
			return nil
		}
		if len(e.Indices) != len(dims) {
			c.errs.Errorf(e.Pos(), "W0209", "%s has %d dimensions, indexed with %d", describe(e.X), len(dims), len(e.Indices))
			return nil
		}
		for i, ix := range e.Indices {
			if sl, ok := ix.(*syntax.Slice); ok {
				c.errs.Errorf(sl.Pos(), "W0209", "a window is not a value: %s needs a point index in dimension %d", describe(e.X), i)
				continue
			}
			c.pointBound(ix, dims[i], base, i)
		}
		return base
	case *syntax.BadExpr:
		return nil
	}
	if write {
		c.errs.Errorf(e.Pos(), "W0217", "cannot assign to %s", describe(e))
	} else {
		c.errs.Errorf(e.Pos(), "W0207", "expected a data access, found %s", describe(e))
	}
	return nil
}

func (c *checker) notData(n *syntax.Name, sym *Symbol, write bool) {
	if write {
		c.errs.Errorf(n.Pos(), "W0217", "cannot assign to %s: it is %s, not data", n.Name, sym.Kind.A())
	} else if sym.Kind == KindBarrier {
		c.errs.Errorf(n.Pos(), "W0207", "%s is a barrier: barriers are not data", n.Name)
	} else {
		c.errs.Errorf(n.Pos(), "W0207", "%s is %s: control values are not data (seed 000 §3.1)", n.Name, sym.Kind.A())
	}
}

// window resolves x, x[w*] or x[w*][w*] to its symbol and the shape of the
// window: point indices drop a dimension, slices keep hi - lo.
func (c *checker) window(e syntax.Expr) (*Symbol, []syntax.Expr) {
	switch e := e.(type) {
	case *syntax.Name:
		sym := c.lookup(e)
		if sym == nil {
			c.errs.Errorf(e.Pos(), "W0201", "undefined: %s%s", e.Name, didYouMean(e.Name, c.namesInScope()))
			return nil, nil
		}
		return sym, sym.Dims
	case *syntax.Index:
		base, dims := c.window(e.X)
		if base == nil {
			return nil, nil
		}
		if !base.Kind.Data() && base.Kind != KindBarrier {
			c.errs.Errorf(e.X.Pos(), "W0209", "%s is %s: it cannot be indexed", describe(e.X), base.Kind.A())
			return nil, nil
		}
		if len(e.Indices) != len(dims) {
			c.errs.Errorf(e.Pos(), "W0209", "%s has %d dimensions, indexed with %d", describe(e.X), len(dims), len(e.Indices))
			return nil, nil
		}
		// One dimension per slice, in a slice of that length from the
		// checker's slab (nil for none, as the appends to a nil slice
		// before stop 41 left it).
		n := 0
		for _, ix := range e.Indices {
			if _, ok := ix.(*syntax.Slice); ok {
				n++
			}
		}
		var out []syntax.Expr
		if n > 0 {
			out = c.exprSlab(n)[:0]
		}
		for i, ix := range e.Indices {
			if sl, ok := ix.(*syntax.Slice); ok {
				if c.symOnly {
					// The slice's own checks (control) without its
					// extent and bounds, which only report.
					c.control(sl.Lo)
					c.control(sl.Hi)
					out = append(out, sl)
					continue
				}
				out = append(out, c.slice(sl, dims[i], base, i))
			} else if c.symOnly {
				c.control(ix)
			} else {
				c.pointBound(ix, dims[i], base, i)
			}
		}
		return base, out
	case *syntax.BadExpr:
		return nil, nil
	case *syntax.Attr:
		// x.name[i]: Weft has no attributes on data (Exo's printed x.T is
		// not a tensor); a config field is a scalar and cannot be indexed.
		if f := c.configField(e, KindScalar); f != nil {
			c.errs.Errorf(e.Pos(), "W0209", "%s is a scalar config field: it cannot be indexed", f.Qualified())
		}
		return nil, nil
	}
	return nil, nil
}

// slice checks lo:hi against dimension dim and returns its extent.
func (c *checker) slice(sl *syntax.Slice, dim syntax.Expr, base *Symbol, i int) syntax.Expr {
	lo, hi := sl.Lo, sl.Hi
	// An omitted lo is 0: the range and value of the literal 0 the
	// checker made for it before stop 41 (it was never kept). A bound
	// given is checked (control) and ranged in one walk (controlExact);
	// an omitted hi is the dimension, ranged only.
	lr, lOK := [2]int64{0, 0}, true
	if lo != nil {
		lr, lOK = c.controlExact(lo)
	}
	var hr [2]int64
	var hOK bool
	if hi != nil {
		hr, hOK = c.controlExact(hi)
	} else {
		hi = dim
		hr, hOK = c.exactRange(hi)
	}
	d, dOK := c.constValue(dim)
	switch {
	case lOK && lr[0] < 0:
		c.errs.Errorf(sl.Pos(), "W0210", "window %s of %s starts below 0 (at %d)", describe(sl), base.Name, lr[0])
	case hOK && dOK && hr[1] > d:
		c.errs.Errorf(sl.Pos(), "W0210", "window %s of %s ends at %d, beyond dimension %d of size %d", describe(sl), base.Name, hr[1], i, d)
	}
	// One evaluation of each bound serves the test and the extent
	// (constValue reads the scopes and reports nothing, so asking twice,
	// as before stop 40, gave the same values).
	lv, ok := int64(0), true
	if lo != nil {
		lv, ok = c.constValue(lo)
	}
	if ok {
		if hv, ok := c.constValue(hi); ok {
			if lv > hv {
				c.errs.Errorf(sl.Pos(), "W0210", "window %s of %s is empty backwards (%d > %d)", describe(sl), base.Name, lv, hv)
			}
			return c.intLit(hv - lv)
		}
	}
	if sl.Lo == nil {
		return hi
	}
	return &syntax.Binary{Op: "-", X: hi, Y: lo}
}

// pointBound checks a point index ix as a control expression (control)
// and reports it where it statically leaves [0, dim).
func (c *checker) pointBound(ix, dim syntax.Expr, base *Symbol, i int) {
	r, ok := c.controlExact(ix)
	if !ok {
		return
	}
	d, dOK := c.constValue(dim)
	if r[0] < 0 || (dOK && r[1] >= d) {
		bound := "?"
		if dOK {
			bound = itoa(d)
		}
		if r[0] == r[1] {
			c.errs.Errorf(ix.Pos(), "W0210", "index %d is out of bounds of dimension %d of %s (size %s)", r[0], i, base.Name, bound)
		} else {
			c.errs.Errorf(ix.Pos(), "W0210", "index %s ranges over [%d, %d], out of bounds of dimension %d of %s (size %s)", describe(ix), r[0], r[1], i, base.Name, bound)
		}
	}
}

// constValue folds an integer constant expression: literals, integer
// globals, + - * / // % and unary - ~ (Python semantics: floor division,
// non-negative remainder for positive divisors).
func (c *checker) constValue(e syntax.Expr) (int64, bool) {
	switch e := e.(type) {
	case *syntax.IntLit:
		return e.Value, true
	case *syntax.Name:
		// Only declareGlobals makes a KindConst symbol, and it enters
		// each in prog.Consts, made for the first: with no Consts no
		// name is a constant, and the lookup (a miss in both tables for
		// a unit's name, cuda_thread * 4, each loop; stop 42) is not
		// made.
		if c.prog.Consts == nil {
			return 0, false
		}
		if s := c.lookupQuiet(e.Name); s != nil && s.Kind == KindConst {
			return s.Value, true
		}
	case *syntax.Unary:
		v, ok := c.constValue(e.X)
		if !ok {
			return 0, false
		}
		switch e.Op {
		case "-":
			return -v, true
		case "~":
			return ^v, true
		}
	case *syntax.Binary:
		x, ok1 := c.constValue(e.X)
		y, ok2 := c.constValue(e.Y)
		if !ok1 || !ok2 {
			return 0, false
		}
		return arith(e.Op, x, y)
	}
	return 0, false
}

func arith(op string, x, y int64) (int64, bool) { return ControlOp(op, x, y) }

// ControlOp applies a binary operator of control expressions (seed 000
// §3.1): + - * and floor division and modulo (Python's // and %, which
// the Exo object code prints); ok is false for another operator or a zero
// divisor. Every Weft package that evaluates control expressions uses it,
// so they agree on negative operands.
func ControlOp(op string, x, y int64) (int64, bool) {
	switch op {
	case "+":
		return x + y, true
	case "-":
		return x - y, true
	case "*":
		return x * y, true
	case "/", "//":
		if y == 0 {
			return 0, false
		}
		return FloorDiv(x, y), true
	case "%":
		if y == 0 {
			return 0, false
		}
		return x - FloorDiv(x, y)*y, true
	}
	return 0, false
}

// FloorDiv is x / y rounded toward negative infinity (y != 0).
func FloorDiv(x, y int64) int64 {
	q := x / y
	if (x%y != 0) && ((x < 0) != (y < 0)) {
		q--
	}
	return q
}

// rangeOf is the static [min, max] of a control expression over the
// enclosing loops' iterators, when every iterator has constant bounds.
func (c *checker) rangeOf(e syntax.Expr) ([2]int64, bool) {
	r, _, ok := c.interval(e, nil)
	return r, ok
}

// exactRange is rangeOf where interval arithmetic is exact (each iterator
// occurs once and no % wraps), so a bound violation is a real one.
func (c *checker) exactRange(e syntax.Expr) ([2]int64, bool) {
	c.resetSeen()
	r, exact, ok := c.interval(e, &c.seen)
	return c.exactOf(r, exact, ok)
}

// controlExact is control(e) followed by exactRange(e), in one walk
// (controlRange; stop 42: a point index was walked twice, its names
// looked up twice).
func (c *checker) controlExact(e syntax.Expr) ([2]int64, bool) {
	c.resetSeen()
	r, exact, ok := c.controlRange(e, &c.seen)
	return c.exactOf(r, exact, ok)
}

// resetSeen empties c.seen for a walk recording iterator occurrences.
// The occurrences are in a list the checker reuses, not a map per call
// (issue 13: that map was a visible part of checking a kernel).
func (c *checker) resetSeen() {
	if c.seen == nil {
		c.seen = c.scratch().seen[:0]
	}
	c.seen = c.seen[:0]
}

// exactOf is exactRange's answer for the interval r (exact, ok) of a walk
// that recorded its iterator occurrences in c.seen: r where no iterator
// occurs twice.
func (c *checker) exactOf(r [2]int64, exact, ok bool) ([2]int64, bool) {
	if !ok || !exact {
		return r, false
	}
	if len(c.seen) > 32 {
		// Many occurrences: a map, not a quadratic scan.
		once := make(map[*Symbol]bool, len(c.seen))
		for _, s := range c.seen {
			if once[s] {
				return r, false
			}
			once[s] = true
		}
		return r, true
	}
	for i, s := range c.seen {
		for _, t := range c.seen[:i] {
			if s == t {
				return r, false
			}
		}
	}
	return r, true
}

// controlRange is control(e) and then interval(e, seen), in one walk:
// control's reports, in its order, and interval's answer. Why it is
// both: interval reports nothing and changes nothing (it appends to
// seen); control changes neither the scopes nor an iterator's range,
// which are all interval reads, so interval's answer after control is
// its answer at any point of control's walk; each node interval ranges
// (literals, names, unary -, + - * / // %) is one control walks into,
// and controlRange ranges it there, from the same lookup (a name's
// symbol: lookup and interval's lookupQuiet are both find), with
// interval's own rules (nameInterval, binaryInterval). Any other node is
// control's alone and interval has no range for it. Nothing in control
// walks a range (c.seen is only this walk's).
func (c *checker) controlRange(e syntax.Expr, seen *[]*Symbol) (r [2]int64, exact, ok bool) {
	switch e := e.(type) {
	case *syntax.IntLit:
		return [2]int64{e.Value, e.Value}, true, true
	case *syntax.Name:
		sym := c.lookup(e)
		c.controlName(e, sym)
		return nameInterval(sym, seen)
	case *syntax.Binary:
		switch e.Op {
		case "+", "-", "*", "/", "//", "%":
			x, ex, ok1 := c.controlRange(e.X, seen)
			y, ey, ok2 := c.controlRange(e.Y, seen)
			c.controlBinary(e)
			if !ok1 || !ok2 {
				return r, false, false
			}
			return binaryInterval(e.Op, x, y, ex && ey)
		}
	case *syntax.Unary:
		if e.Op == "-" {
			x, ex, ok := c.controlRange(e.X, seen)
			return [2]int64{-x[1], -x[0]}, ex, ok
		}
	}
	c.control(e)
	return r, false, false
}

// interval is the static range of e; exact reports that interval
// arithmetic gave it exactly but for repeated iterators, whose
// occurrences it appends to seen (nil: not recorded).
func (c *checker) interval(e syntax.Expr, seen *[]*Symbol) (r [2]int64, exact, ok bool) {
	switch e := e.(type) {
	case *syntax.IntLit:
		return [2]int64{e.Value, e.Value}, true, true
	case *syntax.Name:
		return nameInterval(c.lookupQuiet(e.Name), seen)
	case *syntax.Unary:
		if e.Op == "-" {
			x, ex, ok := c.interval(e.X, seen)
			return [2]int64{-x[1], -x[0]}, ex, ok
		}
	case *syntax.Binary:
		x, ex, ok1 := c.interval(e.X, seen)
		y, ey, ok2 := c.interval(e.Y, seen)
		if !ok1 || !ok2 {
			return r, false, false
		}
		return binaryInterval(e.Op, x, y, ex && ey)
	}
	return r, false, false
}

// nameInterval is interval's answer for a name whose symbol is s (nil:
// none): a constant's value, or a loop iterator's range while it has one
// (appended to seen where seen is not nil).
func nameInterval(s *Symbol, seen *[]*Symbol) (r [2]int64, exact, ok bool) {
	if s == nil {
		return r, false, false
	}
	if s.Kind == KindConst {
		return [2]int64{s.Value, s.Value}, true, true
	}
	if s.hasRng && s.Kind == KindIter {
		if seen != nil {
			*seen = append(*seen, s)
		}
		return s.rng, true, true
	}
	return r, false, false
}

// binaryInterval is interval's answer for x op y, exact when both
// operands' ranges are.
func binaryInterval(op string, x, y [2]int64, exact bool) (r [2]int64, ex, ok bool) {
	switch op {
	case "+":
		return [2]int64{x[0] + y[0], x[1] + y[1]}, exact, true
	case "-":
		return [2]int64{x[0] - y[1], x[1] - y[0]}, exact, true
	case "*":
		a, b, c2, d := x[0]*y[0], x[0]*y[1], x[1]*y[0], x[1]*y[1]
		exact = exact && (x[0] == x[1] || y[0] == y[1])
		return [2]int64{min(a, b, c2, d), max(a, b, c2, d)}, exact, true
	case "/", "//":
		if y[0] != y[1] || y[0] <= 0 {
			return r, false, false
		}
		return [2]int64{FloorDiv(x[0], y[0]), FloorDiv(x[1], y[0])}, exact, true
	case "%":
		if y[0] != y[1] || y[0] <= 0 {
			return r, false, false
		}
		k := y[0]
		if FloorDiv(x[0], k) == FloorDiv(x[1], k) {
			lo, _ := arith("%", x[0], k)
			hi, _ := arith("%", x[1], k)
			return [2]int64{lo, hi}, exact, true
		}
		return [2]int64{0, k - 1}, false, true
	}
	return r, false, false
}

// rangeUndo is an iterator's range before a guard narrowed it.
type rangeUndo struct {
	s      *Symbol
	rng    [2]int64
	hasRng bool
}

// narrow refines the iterator ranges by a guard `i < n`, `i <= n`,
// `i >= n`, `i > n` (and conjunctions), for the then-branch of an if,
// recording each range it changes in c.narrowed; unnarrow restores them
// after the branch. Loops in the branch set their iterators' ranges,
// which nothing reads after the loop (an iterator's symbol is its
// loop's alone).
func (c *checker) narrow(cond syntax.Expr) {
	var walk func(e syntax.Expr)
	walk = func(e syntax.Expr) {
		b, ok := e.(*syntax.Binary)
		if !ok {
			return
		}
		if b.Op == "and" {
			walk(b.X)
			walk(b.Y)
			return
		}
		n, ok := b.X.(*syntax.Name)
		if !ok {
			return
		}
		s := c.lookupQuiet(n.Name)
		if s == nil || !s.hasRng {
			return
		}
		r := s.rng
		v, isConst := c.constValue(b.Y)
		if !isConst {
			return
		}
		switch b.Op {
		case "<":
			r[1] = min(r[1], v-1)
		case "<=":
			r[1] = min(r[1], v)
		case ">":
			r[0] = max(r[0], v+1)
		case ">=":
			r[0] = max(r[0], v)
		case "==":
			r = [2]int64{max(r[0], v), min(r[1], v)}
		}
		c.narrowed = append(c.narrowed, rangeUndo{s, s.rng, s.hasRng})
		if r[0] > r[1] {
			s.hasRng = false // dead branch: nothing to check
			return
		}
		s.rng = r
	}
	walk(cond)
}

// unnarrow restores the ranges narrow changed since c.narrowed had
// length mark, latest first.
func (c *checker) unnarrow(mark int) {
	for i := len(c.narrowed) - 1; i >= mark; i-- {
		u := c.narrowed[i]
		u.s.rng, u.s.hasRng = u.rng, u.hasRng
	}
	c.narrowed = c.narrowed[:mark]
}

// unitExpr checks a collective unit expression (seed 000 Fig. 11):
// a unit name, a parameterized unit call, or n * unit for a scalable unit.
// It returns unitBase(e), the library unit under the expression's scale
// factors, from the lookups it made: n * unit asked unitBase for it after
// checking, a second lookup of the unit by name and a second evaluation of
// each factor per loop (stop 37). Where it returns early on an error it
// asks unitBase, so that the errors that depend on the base stay the same.
func (c *checker) unitExpr(e syntax.Expr) *lib.Unit {
	switch e := e.(type) {
	case *syntax.Name:
		if u := c.unit(e.Name); u != nil {
			return u
		}
		if s := c.lookupQuiet(e.Name); s != nil && s.Kind == KindGlobal {
			if c.proc != nil {
				c.use(e, s)
			}
			return nil
		}
		c.errs.Errorf(e.Pos(), "W0220", "unknown collective unit %s%s", e.Name, didYouMean(e.Name, keys(c.lib.Units)))
	case *syntax.Call:
		u := c.unit(e.FunName())
		if u == nil {
			if e.FunName() == "CollUnit" {
				return nil
			}
			c.errs.Errorf(e.Pos(), "W0220", "unknown collective unit %s", describe(e.Fun))
			return nil
		}
		if len(u.Params) == 0 {
			c.errs.Errorf(e.Pos(), "W0220", "%s takes no arguments", u.Name)
			return u
		}
		if len(e.Args) != len(u.Params) || len(e.Kwargs) > 0 {
			c.errs.Errorf(e.Pos(), "W0220", "%s takes %d arguments, got %d", u.Name, len(u.Params), len(e.Args)+len(e.Kwargs))
			return u
		}
		for _, a := range e.Args {
			if v, ok := c.constValue(a); !ok || v <= 0 {
				c.errs.Errorf(a.Pos(), "W0220", "unit arguments must be positive integer constants")
			}
		}
		return u
	case *syntax.Binary:
		if e.Op != "*" {
			c.errs.Errorf(e.Pos(), "W0220", "a collective unit is scaled with n * unit")
			return c.unitBase(e)
		}
		// unitBase's choice of the factor: X when X is not a constant.
		n, u := e.X, e.Y
		v, ok := c.constValue(n)
		if !ok {
			n, u = e.Y, e.X
			v, ok = c.constValue(n)
		}
		if !ok {
			c.errs.Errorf(e.Pos(), "W0220", "a collective unit is scaled by an integer constant")
			return c.unitBase(e)
		}
		if v <= 0 {
			c.errs.Errorf(n.Pos(), "W0220", "scale factor must be positive, not %d", v)
		}
		base := c.unitExpr(u)
		if base != nil && base.Scale < 0 {
			c.errs.Errorf(e.Pos(), "W0220", "%s cannot be scaled (seed 000 Fig. 11)", base.Name)
		}
		return base
	case *syntax.BadExpr:
	default:
		c.errs.Errorf(e.Pos(), "W0220", "expected a collective unit, found %s", describe(e))
	}
	return nil
}

// unit is c.lib.Units[name], remembering its last answer (lastLookup): a
// kernel's loops name one unit again and again (cuda_thread in 8 of row
// 15's 9 units), and comparing the name with the last one is a fraction
// of a map lookup (stop 41).
func (c *checker) unit(name string) *lib.Unit { return c.lastUnit.get(c.lib.Units, name) }

// lastLookup is a map lookup by name that remembers its last question
// and answer. The library's maps are complete once it is loaded
// (lib.Load) and only read after, so the answer for a name equal to the
// last is the last answer.
type lastLookup[V any] struct {
	name string
	v    V
	ok   bool // there was a question
}

func (m *lastLookup[V]) get(tab map[string]V, name string) V {
	if m.ok && name == m.name {
		return m.v
	}
	v := tab[name]
	*m = lastLookup[V]{name, v, true}
	return v
}

// unitBase is the library unit under e's scale factors (nil: none);
// unitExpr returns it while checking.
func (c *checker) unitBase(e syntax.Expr) *lib.Unit {
	switch e := e.(type) {
	case *syntax.Name:
		return c.unit(e.Name)
	case *syntax.Call:
		return c.unit(e.FunName())
	case *syntax.Binary:
		if _, ok := c.constValue(e.X); ok {
			return c.unitBase(e.Y)
		}
		return c.unitBase(e.X)
	}
	return nil
}

// describe renders an expression for a message.
func describe(e syntax.Expr) string {
	switch e := e.(type) {
	case *syntax.Name:
		return e.Name
	case *syntax.IntLit:
		return e.Text
	case *syntax.FloatLit:
		return "the number " + e.Text
	case *syntax.StringLit:
		return "a string"
	case *syntax.BoolLit:
		return "a bool"
	case *syntax.Call:
		return "a call of " + describe(e.Fun)
	case *syntax.List:
		return "a list"
	case *syntax.Tuple:
		return "a tuple"
	case *syntax.Slice:
		lo, hi := "", ""
		if e.Lo != nil {
			lo = exprString(e.Lo)
		}
		if e.Hi != nil {
			hi = exprString(e.Hi)
		}
		return lo + ":" + hi
	case *syntax.Index, *syntax.Binary, *syntax.Unary, *syntax.Attr:
		return exprString(e)
	}
	return "an expression"
}

func exprString(e syntax.Expr) string { return syntax.ExprString(e) }

// indices checks the window coordinates of a barrier access z[w*] (seed 000
// Fig. 1 ZExpr): one point or interval per dimension.
func (c *checker) indices(sym *Symbol, idx []syntax.Expr, at diag.Pos, barrier bool) {
	if len(idx) != len(sym.Dims) {
		c.errs.Errorf(at, "W0209", "%s has %d dimensions, indexed with %d", sym.Name, len(sym.Dims), len(idx))
		return
	}
	for i, ix := range idx {
		if sl, ok := ix.(*syntax.Slice); ok {
			c.slice(sl, sym.Dims[i], sym, i)
			continue
		}
		c.pointBound(ix, sym.Dims[i], sym, i)
	}
}

// static reports whether e is fixed for each call: a constant, or, inside
// an instruction's behaviour, an expression of the instruction's control
// parameters. Instruction calls are instantiated with constant sizes (the
// seeds pass size=4, K=MMA_K), so a body may scale or divide by them, e.g.
// a shuffle's lane / lane_mask.
func (c *checker) static(e syntax.Expr) bool {
	if _, ok := c.constValue(e); ok {
		return true
	}
	if c.proc == nil || c.proc.Instr == nil {
		return false
	}
	switch e := e.(type) {
	case *syntax.Name:
		s := c.lookupQuiet(e.Name)
		return s != nil && s.Param >= 0 && (s.Kind == KindSize || s.Kind == KindIndex || s.Kind == KindStride)
	case *syntax.Binary:
		switch e.Op {
		case "+", "-", "*", "/", "//", "%":
			return c.static(e.X) && c.static(e.Y)
		}
	case *syntax.Unary:
		return e.Op == "-" && c.static(e.X)
	}
	return false
}
