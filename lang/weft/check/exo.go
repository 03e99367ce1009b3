package check

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// This file gives Exo's printed dialect its meaning where it goes beyond the
// seeds' core syntax (issue 19): configs, stride(x, d), extern functions
// and boolean comparisons. docs/weft-reference.md ("Coming from Exo") lists
// each form.

// Config is an Exo configuration: module-level state with named fields that
// procs read and write sequentially (`ConfigAB.a = 1.0`, `x = ConfigAB.a`).
type Config struct {
	Name string
	Pos  diag.Pos
	Decl *syntax.Config // nil for a config inferred from its uses
	// Implicit: the file does not declare the config (Exo prints procs
	// without the Python class that declares it); its fields' kinds were
	// inferred from their first use.
	Implicit bool
	Fields   map[string]*ConfigField
	Order    []*ConfigField // declaration (or first-use) order
}

// ConfigField is one field: a control value (KindIndex, KindSize,
// KindStride), a KindBool, or scalar data (KindScalar with Elem).
type ConfigField struct {
	Config *Config
	Name   string
	Kind   Kind
	Elem   string
	Pos    diag.Pos
}

// Qualified is "Config.field".
func (f *ConfigField) Qualified() string { return f.Config.Name + "." + f.Name }

// declareConfigs declares the file's `@config class` declarations.
func (c *checker) declareConfigs(f *syntax.File) {
	for _, d := range f.Decls {
		cd, ok := d.(*syntax.Config)
		if !ok || cd.Name == nil {
			continue
		}
		if len(cd.Decorators) != 1 || exprName(cd.Decorators[0]) != "config" {
			c.errs.Errorf(cd.Pos(), "W0229", "a class declares a config: write @config before it")
		}
		name := cd.Name.Name
		if prev := c.prog.Configs[name]; prev != nil {
			c.errs.Errorf(cd.Name.Pos(), "W0202", "config %s is declared twice", name).Note(prev.Pos, "first declaration is here")
			continue
		}
		if g := c.globals.get(name); g != nil {
			c.errs.Errorf(cd.Name.Pos(), "W0202", "config %s has the name of a module-level value", name).Note(g.Pos, "the value is declared here")
			continue
		}
		cfg := &Config{Name: name, Pos: cd.Name.Pos(), Decl: cd, Fields: map[string]*ConfigField{}}
		for _, fd := range cd.Fields {
			if fd == nil || fd.Name == nil || fd.Type == nil || fd.Type.Elem == nil {
				continue
			}
			if prev := cfg.Fields[fd.Name.Name]; prev != nil {
				c.errs.Errorf(fd.Name.Pos(), "W0202", "field %s.%s is declared twice", name, fd.Name.Name).Note(prev.Pos, "first declaration is here")
				continue
			}
			fl := &ConfigField{Config: cfg, Name: fd.Name.Name, Pos: fd.Name.Pos()}
			t := fd.Type
			if t.Dims != nil || t.Window || t.Guard != nil {
				c.errs.Errorf(t.Pos(), "W0229", "config field %s.%s must be a scalar (Exo configs hold scalars)", name, fd.Name.Name)
			}
			if t.Mem != nil && exprName(t.Mem) != "DRAM" {
				c.errs.Errorf(t.Mem.Pos(), "W0229", "config fields live in DRAM (CPU state)")
			}
			switch e := t.Elem.Name; {
			case e == "size", e == "index", e == "stride", e == "bool":
				fl.Kind = map[string]Kind{"size": KindSize, "index": KindIndex, "stride": KindStride, "bool": KindBool}[e]
			case lib.IsDataType(e):
				fl.Kind, fl.Elem = KindScalar, lib.ResolveElem(e)
			default:
				c.errs.Errorf(t.Elem.Pos(), "W0203", "unknown type %s for config field %s.%s", e, name, fd.Name.Name)
				continue
			}
			cfg.Fields[fl.Name] = fl
			cfg.Order = append(cfg.Order, fl)
		}
		if c.prog.Configs == nil {
			c.prog.Configs = map[string]*Config{}
		}
		c.prog.Configs[name] = cfg
	}
}

// configField resolves `Config.field` for a read (want is the kind the
// context needs: KindIndex for control, KindBool, KindScalar for data) or a
// write (want is the kind of the value written). A config the file does
// not declare is declared implicitly by its uses: each field takes the kind
// of its first use, and a warning says so once per config.
func (c *checker) configField(a *syntax.Attr, want Kind) *ConfigField {
	n, ok := a.X.(*syntax.Name)
	if !ok {
		c.errs.Errorf(a.Pos(), "W0230", "%s: Weft has no attributes except config fields (Config.field)", describe(a))
		return nil
	}
	if sym := c.lookupQuiet(n.Name); sym != nil {
		if sym.Kind.Data() {
			c.errs.Errorf(a.Pos(), "W0230", "%s: Weft tensors have no attributes; index the tensor itself (%s[i, j]) or take a window (%s[lo:hi, ...])", describe(a), n.Name, n.Name)
		} else {
			c.errs.Errorf(a.Pos(), "W0229", "%s is %s, not a config", n.Name, sym.Kind.A())
		}
		return nil
	}
	if c.where == codeCUDA || c.where == codeAsync {
		c.errs.Errorf(a.Pos(), "W0229", "%s: configs are CPU state; read them in CPU code and pass the value as an argument", describe(a))
		return nil
	}
	cfg := c.prog.Configs[n.Name]
	if cfg == nil {
		cfg = &Config{Name: n.Name, Pos: n.Pos(), Implicit: true, Fields: map[string]*ConfigField{}}
		if c.prog.Configs == nil {
			c.prog.Configs = map[string]*Config{}
		}
		c.prog.Configs[n.Name] = cfg
		c.errs.Add(&diag.Diagnostic{Severity: diag.Warning, Code: "W0229", Pos: n.Pos(),
			Message: "config " + n.Name + " is not declared: its fields' types are inferred from their uses (declare it with @config class " + n.Name + ": field: type)"})
	}
	f := cfg.Fields[a.Name.Name]
	if f == nil {
		if !cfg.Implicit {
			c.errs.Errorf(a.Name.Pos(), "W0229", "config %s has no field %s", cfg.Name, a.Name.Name)
			return nil
		}
		f = &ConfigField{Config: cfg, Name: a.Name.Name, Kind: want, Pos: a.Name.Pos()}
		if want == KindScalar {
			f.Elem = "f32"
		}
		cfg.Fields[f.Name] = f
		cfg.Order = append(cfg.Order, f)
	}
	if c.prog.Fields == nil {
		c.prog.Fields = map[*syntax.Attr]*ConfigField{}
	}
	c.prog.Fields[a] = f
	return f
}

// guessKind is the kind of value e denotes, without reporting anything: it
// types an implicit config field from the value first written to it.
func (c *checker) guessKind(e syntax.Expr) Kind {
	switch e := e.(type) {
	case *syntax.FloatLit, *syntax.Index:
		return KindScalar
	case *syntax.IntLit:
		return KindIndex
	case *syntax.BoolLit:
		return KindBool
	case *syntax.Name:
		if s := c.lookupQuiet(e.Name); s != nil {
			switch {
			case s.Kind.Data():
				return KindScalar
			case s.Kind == KindBool, s.Kind == KindStride:
				return s.Kind
			}
			return KindIndex
		}
	case *syntax.Attr:
		if n, ok := e.X.(*syntax.Name); ok {
			if cfg := c.prog.Configs[n.Name]; cfg != nil && cfg.Fields[e.Name.Name] != nil {
				return cfg.Fields[e.Name.Name].Kind
			}
		}
		return KindScalar
	case *syntax.Call:
		if e.FunName() == "stride" {
			return KindStride
		}
		return KindScalar
	case *syntax.Unary:
		if e.Op == "not" {
			return KindBool
		}
		return c.guessKind(e.X)
	case *syntax.Binary:
		switch e.Op {
		case "and", "or", "==", "!=", "<", "<=", ">", ">=":
			return KindBool
		}
		x, y := c.guessKind(e.X), c.guessKind(e.Y)
		if x == KindScalar || y == KindScalar {
			return KindScalar
		}
		return x
	}
	return KindIndex
}

// configWrite checks `Config.field = e`.
func (c *checker) configWrite(s *syntax.Assign, a *syntax.Attr) {
	if s.Mem != nil {
		c.errs.Errorf(s.Mem.Pos(), "W0217", "only a window statement `x = y[...] @ Window` takes a memory")
	}
	f := c.configField(a, c.guessKind(s.RHS))
	if f == nil {
		c.anyExpr(s.RHS)
		return
	}
	switch {
	case f.Kind == KindBool:
		c.boolean(s.RHS)
	case f.Kind.Control():
		c.control(s.RHS)
	default:
		c.data(s.RHS)
	}
}

// configRead checks a read of Config.field where a value of kind want
// (KindIndex: control, KindBool, KindScalar: data) is needed.
func (c *checker) configRead(a *syntax.Attr, want Kind) {
	f := c.configField(a, want)
	if f == nil {
		return
	}
	ok := f.Kind == want || (want == KindIndex && f.Kind.Control())
	if !ok {
		code, what := "W0206", "a control value"
		switch want {
		case KindBool:
			code, what = "W0208", "a bool"
		case KindScalar:
			code, what = "W0207", "data"
		}
		c.errs.Errorf(a.Pos(), code, "%s is %s, not %s", f.Qualified(), f.Kind.A(), what).Note(f.Pos, "the field is declared (or first used) here")
	}
}

// strideExpr checks stride(x, d): the stride of dimension d of tensor or
// window x, a control value (Exo's stride expression).
func (c *checker) strideExpr(call *syntax.Call) {
	if len(call.Args) != 2 || len(call.Kwargs) != 0 {
		c.errs.Errorf(call.Pos(), "W0213", "stride takes a tensor and a dimension: stride(x, d)")
		return
	}
	n, ok := call.Args[0].(*syntax.Name)
	if !ok {
		c.errs.Errorf(call.Args[0].Pos(), "W0214", "stride of %s: expected a tensor or window name", describe(call.Args[0]))
		return
	}
	sym := c.lookup(n)
	switch {
	case sym == nil:
		c.errs.Errorf(n.Pos(), "W0201", "undefined: %s%s", n.Name, didYouMean(n.Name, c.namesInScope()))
		return
	case !sym.Kind.Data() || sym.Rank() == 0:
		c.errs.Errorf(n.Pos(), "W0214", "stride of %s: it is %s, not a tensor or window", n.Name, sym.Kind.A())
		return
	}
	d, ok := c.constValue(call.Args[1])
	if !ok || d < 0 || d >= int64(sym.Rank()) {
		c.errs.Errorf(call.Args[1].Pos(), "W0214", "stride dimension must be a constant in [0, %d) for %s", sym.Rank(), n.Name)
	}
}

// isStride reports whether e is a call of stride.
func isStride(e syntax.Expr) bool {
	call, ok := e.(*syntax.Call)
	return ok && call.FunName() == "stride"
}

// externCall checks a call of an extern function (sin, select, relu, ...)
// in a data expression: each argument is scalar data.
func (c *checker) externCall(call *syntax.Call) {
	name := call.FunName()
	ext := lib.Externs[name]
	if ext == nil {
		if c.prog.Lookup(name) != nil {
			c.errs.Errorf(call.Pos(), "W0207", "%s is a proc: procs are called as statements and return nothing", name)
		} else {
			c.errs.Errorf(call.Pos(), "W0207", "expected a data expression, found %s (extern functions: %s)", describe(call), lib.ExternNames())
		}
		for _, a := range call.Args {
			c.anyExpr(a)
		}
		return
	}
	if len(call.Args) != ext.Arity || len(call.Kwargs) != 0 {
		c.errs.Errorf(call.Pos(), "W0213", "%s takes %d argument(s), got %d", name, ext.Arity, len(call.Args)+len(call.Kwargs))
	}
	for _, a := range call.Args {
		c.data(a)
	}
	if c.prog.Externs == nil {
		c.prog.Externs = map[*syntax.Call]*lib.Extern{}
	}
	c.prog.Externs[call] = ext
}

// boolOperands reports whether a comparison == or != compares booleans
// (`b == True`, `False == True`, `(N < 10 and M < 4) == True`) rather than
// integers.
func (c *checker) boolOperands(e *syntax.Binary) bool {
	if e.Op != "==" && e.Op != "!=" {
		return false
	}
	return c.guessKind(e.X) == KindBool || c.guessKind(e.Y) == KindBool
}

// controlParamMem accepts `@ DRAM` on a control parameter: Exo prints
// `s: stride @ DRAM` and `b: bool @ DRAM` (scalars passed by value); any
// other memory is an error.
func controlParamMem(t *syntax.Type) bool {
	return t.Mem != nil && exprName(t.Mem) == "DRAM"
}

// parWrites checks the body of a par loop in CPU code (Exo's OpenMP loop):
// its iterations run in parallel, so each must write its own elements.
// Every write or reduce of data declared outside the loop must index some
// dimension with an expression of the iterator (A[i, j], out[c, y_i + 32 *
// y]); a scalar, a config field, or an element the iterator does not pick
// is written by every iteration (W0211). Calls in the body are not
// analysed: their writes are the callee's.
func (c *checker) parWrites(loop *syntax.For, it *Symbol, body []syntax.Stmt) {
	for _, st := range body {
		switch st := st.(type) {
		case *syntax.Assign:
			if c.proc.Windows[st] {
				continue
			}
			var base *syntax.Name
			var idx []syntax.Expr
			switch l := st.LHS.(type) {
			case *syntax.Name:
				base = l
			case *syntax.Index:
				base, _ = l.X.(*syntax.Name)
				idx = l.Indices
			case *syntax.Attr:
				c.errs.Errorf(st.LHS.Pos(), "W0211", "par loop: every iteration writes %s (configs are shared by the iterations)", describe(st.LHS)).Note(loop.Pos(), "the par loop")
				continue
			}
			if base == nil {
				continue
			}
			sym := c.proc.Uses[base]
			if sym == nil || sym.Pos.Offset > loop.Pos().Offset {
				continue // declared inside the loop: one per iteration
			}
			picked := false
			for _, ix := range idx {
				picked = picked || c.mentions(ix, it)
			}
			if !picked {
				c.errs.Errorf(st.LHS.Pos(), "W0211", "par loop: every iteration writes %s; index it with %s so the iterations write disjoint elements", describe(st.LHS), it.Name).Note(loop.Pos(), "the par loop")
			}
		case *syntax.For:
			c.parWrites(loop, it, st.Body)
		case *syntax.If:
			c.parWrites(loop, it, st.Then)
			c.parWrites(loop, it, st.Else)
		case *syntax.With:
			c.parWrites(loop, it, st.Body)
		}
	}
}

// mentions reports whether e reads the symbol sym.
func (c *checker) mentions(e syntax.Expr, sym *Symbol) bool {
	switch e := e.(type) {
	case *syntax.Name:
		return c.proc.Uses[e] == sym
	case *syntax.Binary:
		return c.mentions(e.X, sym) || c.mentions(e.Y, sym)
	case *syntax.Unary:
		return c.mentions(e.X, sym)
	case *syntax.Slice:
		return e.Lo != nil && c.mentions(e.Lo, sym) || e.Hi != nil && c.mentions(e.Hi, sym)
	}
	return false
}

// dimAnnotations checks the size annotations of a type's dimensions: only
// `ring_buffer_by(depth)` (also `ring_buffer_by(depth=d)`), with a positive
// constant depth, on the dimensions of a barrier allocation (Exo's GPU
// branch: the barrier array is indexed by a logical count and stored in
// depth slots). It records the depth of each dimension (0: none).
func (c *checker) dimAnnotations(t *syntax.Type, sym *Symbol) {
	if t.DimAnns == nil {
		return
	}
	for i, ann := range t.DimAnns {
		if ann == nil {
			continue
		}
		if sym == nil || sym.Kind != KindBarrier {
			c.errs.Errorf(ann.Pos(), "W0203", "a size annotation (@ ring_buffer_by) applies only to the dimensions of a barrier allocation")
			return
		}
		arg := RingBufferDepth(ann)
		if arg == nil {
			c.errs.Errorf(ann.Pos(), "W0203", "expected ring_buffer_by(depth) as the size annotation, found %s", describe(ann))
			continue
		}
		d, ok := c.constValue(arg)
		if !ok || d <= 0 {
			c.errs.Errorf(arg.Pos(), "W0203", "ring_buffer_by depth must be a positive integer constant")
			continue
		}
		if sym.RingDepth == nil {
			sym.RingDepth = make([]int64, len(t.Dims))
		}
		if i < len(sym.RingDepth) {
			sym.RingDepth[i] = d
		}
	}
}

// RingBufferDepth returns the depth expression of a size annotation
// `ring_buffer_by(depth)` or `ring_buffer_by(depth=d)`, or nil for any
// other annotation.
func RingBufferDepth(ann syntax.Expr) syntax.Expr {
	call, ok := ann.(*syntax.Call)
	if !ok || call.FunName() != "ring_buffer_by" {
		return nil
	}
	switch {
	case len(call.Args) == 1 && len(call.Kwargs) == 0:
		return call.Args[0]
	case len(call.Args) == 0 && len(call.Kwargs) == 1 && call.Kwargs[0].Name.Name == "depth":
		return call.Kwargs[0].Value
	}
	return nil
}

// WarpConfigParams are CudaWarpConfig's parameters, in positional order.
var WarpConfigParams = [4]string{"name", "count", "setmaxnreg_dec", "setmaxnreg_inc"}

// WarpConfigArgs binds a CudaWarpConfig(...) call the way Exo's
// constructor does: positional arguments in the order of WarpConfigParams,
// then keyword arguments by name (Exo prints
// `CudaWarpConfig(name='A', count=2, setmaxnreg_dec=None, setmaxnreg_inc=None)`).
// `None` leaves a register count unset (nil). problems describes each
// binding error with its position; name and count are required.
// check, gpucheck and cudagen all read warp configurations through it.
func WarpConfigArgs(call *syntax.Call) (args [4]syntax.Expr, problems []BindProblem) {
	if len(call.Args) > len(args) {
		problems = append(problems, BindProblem{Pos: call.Args[len(args)].Pos(), Msg: "CudaWarpConfig takes at most 4 arguments (name, count, setmaxnreg_dec, setmaxnreg_inc)"})
	}
	for i, a := range call.Args {
		if i < len(args) {
			args[i] = a
		}
	}
	for _, k := range call.Kwargs {
		i := -1
		for j, p := range WarpConfigParams {
			if p == k.Name.Name {
				i = j
			}
		}
		switch {
		case i < 0:
			problems = append(problems, BindProblem{Pos: k.Pos(), Msg: "CudaWarpConfig has no parameter " + k.Name.Name + " (name, count, setmaxnreg_dec, setmaxnreg_inc)"})
		case args[i] != nil:
			problems = append(problems, BindProblem{Pos: k.Pos(), Msg: "CudaWarpConfig argument " + k.Name.Name + " given twice"})
		default:
			args[i] = k.Value
		}
	}
	for i := range args {
		if n, ok := args[i].(*syntax.Name); ok && n.Name == "None" && i >= 2 {
			args[i] = nil
		}
	}
	for i := 0; i < 2; i++ {
		if args[i] == nil {
			problems = append(problems, BindProblem{Pos: call.Pos(), Msg: "CudaWarpConfig needs a " + WarpConfigParams[i]})
		}
	}
	return args, problems
}

// exoKwargs checks the keyword arguments of Exo's printed instruction
// calls that bind no parameter (BindArgs skips them): template arguments
// are integer constants or tuples of them, and a type binding `p=T` names
// the element type of the argument bound to the data parameter p.
func (c *checker) exoKwargs(call *syntax.Call, params []*syntax.Param, template []string, bound []syntax.Expr) {
	for _, k := range call.Kwargs {
		switch {
		case isTemplateKwarg(k, template):
			vals := []syntax.Expr{k.Value}
			if t, ok := k.Value.(*syntax.Tuple); ok {
				vals = t.Elems
			}
			for _, v := range vals {
				var scratch diag.List
				saved := c.errs
				c.errs = &scratch
				c.control(v)
				c.errs = saved
				if _, ok := c.constValue(v); !ok {
					c.errs.Errorf(v.Pos(), "W0214", "template argument %s of %s must be an integer constant or a tuple of them", k.Name.Name, call.FunName())
				}
			}
		case isTypeBinding(k, params):
			want := lib.ResolveElem(k.Value.(*syntax.Name).Name)
			for i, p := range params {
				if p.Name.Name != k.Name.Name || bound[i] == nil {
					continue
				}
				if sym := c.windowSym(bound[i]); sym != nil && sym.Elem != want {
					c.errs.Errorf(k.Value.Pos(), "W0214", "%s=%s, but the argument %s of %s is %s", k.Name.Name, k.Value.(*syntax.Name).Name, describe(bound[i]), call.FunName(), sym.Elem)
				}
			}
		}
	}
}

// windowSym resolves the tensor an argument reads, without reporting: the
// symbol window returns, with window's lookups (Proc.Uses) but not its
// window extents and static bounds checks, which only report (and were a
// quarter of checking a GEMM's instruction calls; issue 13).
func (c *checker) windowSym(e syntax.Expr) *Symbol {
	saved, savedOnly := c.errs, c.symOnly
	var quiet diag.List
	c.errs, c.symOnly = &quiet, true
	sym, _ := c.window(e)
	c.errs, c.symOnly = saved, savedOnly
	return sym
}
