package interp

import (
	"math"

	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// Exo's configs, stride() and extern functions (issue 19; the static rules
// are in package check, file exo.go).

// configState is the value of every config field during one run: configs
// are module-level state with a sequential meaning, shared by every frame
// of the run. A field never written has no value (reading it is W0802).
type configState struct {
	vals map[string]float64
}

func (fr *frame) config() *configState {
	for fr.parent != nil {
		fr = fr.parent
	}
	if fr.cfg == nil {
		fr.cfg = &configState{vals: map[string]float64{}}
	}
	return fr.cfg
}

// configKey returns "Config.field" for a config field access, or "".
func configKey(e syntax.Expr) string {
	a, ok := e.(*syntax.Attr)
	if !ok {
		return ""
	}
	n, ok := a.X.(*syntax.Name)
	if !ok {
		return ""
	}
	return n.Name + "." + a.Name.Name
}

// configElem is the declared data type of a config field ("" when the
// field is a control value or bool, or the config is not declared).
func (c *compiler) configElem(key string) (elem string, declared bool) {
	for _, d := range c.prog.file.Decls {
		cd, ok := d.(*syntax.Config)
		if !ok || cd.Name == nil {
			continue
		}
		for _, f := range cd.Fields {
			if f.Name != nil && f.Type != nil && f.Type.Elem != nil && cd.Name.Name+"."+f.Name.Name == key {
				if lib.IsDataType(f.Type.Elem.Name) {
					return lib.ResolveElem(f.Type.Elem.Name), true
				}
				return "", true
			}
		}
	}
	return "", false
}

// configRead compiles a read of a config field as a float64 (control
// values and bools are stored exactly).
func (c *compiler) configRead(e syntax.Expr) func(*frame) float64 {
	key := configKey(e)
	pos := e.Pos()
	return func(fr *frame) float64 {
		v, ok := fr.config().vals[key]
		if !ok {
			fail(fr, pos, CodeUninit, "read of config field %s before any write", key)
		}
		return v
	}
}

// configWrite compiles `Config.field = e`.
func (c *compiler) configWrite(s *syntax.Assign) func(*frame) {
	key := configKey(s.LHS)
	if key == "" {
		c.errorf(s.LHS.Pos(), CodeUnsupported, "cannot assign to %s", syntax.ExprString(s.LHS))
		return nil
	}
	var val func(*frame) float64
	elem, declared := c.configElem(key)
	switch {
	case c.isBool(s.RHS):
		cond := c.cond(s.RHS)
		val = func(fr *frame) float64 {
			if cond(fr) {
				return 1
			}
			return 0
		}
	case declared && elem == "", !declared && c.typeOf(s.RHS) == Invalid && isControlLike(s.RHS):
		f := c.ctrl(s.RHS).func_()
		val = func(fr *frame) float64 { return float64(f(fr)) }
	default:
		t := F32
		if elem != "" {
			t = ParseElem(elem)
		}
		rhs := c.data(s.RHS, join(t, c.typeOf(s.RHS)))
		val = func(fr *frame) float64 { return round(t, rhs(fr)) }
	}
	return func(fr *frame) { fr.config().vals[key] = val(fr) }
}

// isControlLike reports whether an untyped right-hand side is a control
// expression (integers, control variables, config fields, stride()) rather
// than data (a float literal or extern call).
func isControlLike(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.IntLit, *syntax.Name, *syntax.Attr:
		return true
	case *syntax.Call:
		return e.FunName() == "stride"
	case *syntax.Unary:
		return e.Op == "-" && isControlLike(e.X)
	case *syntax.Binary:
		return isControlLike(e.X) && isControlLike(e.Y)
	}
	return false
}

// stride compiles stride(x, d): the element stride of dimension d of the
// tensor or window x.
func (c *compiler) stride(e *syntax.Call) cexpr {
	if len(e.Args) != 2 {
		c.errorf(e.Pos(), CodeUnsupported, "stride takes a tensor and a dimension")
		return konst(0)
	}
	n, ok := e.Args[0].(*syntax.Name)
	var s *sym
	if ok {
		s = c.lookup(n.Name)
	}
	d, dok := e.Args[1].(*syntax.IntLit)
	if s == nil || s.kind != symBuf || !dok || d.Value < 0 || int(d.Value) >= s.rank {
		c.errorf(e.Pos(), CodeUnsupported, "bad stride expression %s", syntax.ExprString(e))
		return konst(0)
	}
	slot, dim := s.slot, int(d.Value)
	return cexpr{slot: -1, fn: func(fr *frame) int64 { return int64(fr.bufs[slot].strides[dim]) }}
}

// extern compiles a call of one of lib.Externs, computed in float64 and
// rounded to t.
func (c *compiler) extern(ext *lib.Extern, args []func(*frame) float64, t Elem) func(*frame) float64 {
	return func(fr *frame) float64 {
		vals := make([]float64, len(args))
		for i, a := range args {
			vals[i] = a(fr)
		}
		v := ext.Eval(vals)
		if t.IsFloat() {
			return round(t, v)
		}
		return wrapInt(t, int64(math.Trunc(v)))
	}
}
