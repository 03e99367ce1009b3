package lib

import (
	"strconv"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/syntax"
)

// Instr is an instruction declaration (seed 000 §3.3 and Fig. 2 `g`): a Weft
// proc whose body is the instruction's sequential behaviour, with an @instr
// header.
type Instr struct {
	Name string
	Proc *syntax.Proc
	// TL is the instruction timeline: a sync timeline with instr=True
	// (cuda_in_order, Sm80_cp_async, ...). CPU reports whether it is a CPU
	// instruction (tl=cpu_in_order), the t flag of Fig. 2.
	TL   string
	CPU  bool
	Unit syntax.Expr // collective unit that executes one call
	CUDA string      // CUDA template, {param} replaced by arguments
	// PlainCUDA: every placeholder of CUDA ("{", bytes other than braces,
	// "}"; trimmed) is a parameter's name p or p_t, or expect_tx: the
	// code generator fills each whatever the call's arguments, so the
	// template itself cannot make a call fail (its diagnostics-only walk,
	// cudagen/walk.go, reads this instead of scanning the template at
	// every call; issue 13, stop 37).
	PlainCUDA bool
	// WGMMA: CUDA contains "wgmma_m64n", a wgmma's template, whose filled
	// text the code generator checks (the walk leaves its calls to the
	// pass): found once here, not in the template at every call (issue
	// 13, stop 47).
	WGMMA bool
	// Barrier is the barrier memory π_z the instruction completes on
	// (`instr(...) >> z` needs z in a memory derived from it); "" if the
	// instruction does not complete on a barrier.
	Barrier string
	// BarrierUnits are the distributed collective units of the completion
	// barrier (the τ_u* next to π_z in Fig. 2's `g`): an instruction that
	// completes on the barriers of several CTAs (TMA multicast signals the
	// mbarrier at the same offset in every destination CTA) declares
	// barrier_units=[cuda_cta_in_cluster] and takes `>> bar[:]`.
	BarrierUnits []syntax.Expr
	// Template are the names of the instruction's template parameters
	// (`@instr(..., template=["smem_box", "swizzle"])`): keyword arguments
	// of each call that are compile-time constants (integers or tuples of
	// integers), not parameters of the behaviour, as Exo's instr classes
	// take them in instance() (Exo's printed calls pass them by keyword).
	Template []string
	// Access holds the per-parameter access qualities of data parameters,
	// by parameter name, in parameter order in AccessOrder.
	Access      map[string]*Access
	AccessOrder []*Access
}

// Access is the τ_a of one data parameter (seed 000 Fig. 2).
type Access struct {
	Param      string
	Index      int    // parameter position
	Elem       string // data type
	Mem        string // memory type ("" accepts any memory)
	Window     bool
	OutOfOrder bool
	Convergent bool
	Init       string   // initial qualitative timeline
	Ext        []string // extended qualitative timeline set
	Atomic     []string // atomic qualitative timeline set
	Units      []syntax.Expr
	// InitGiven and ExtGiven record an explicit @access init= / ext=.
	// Without them, a parameter with no memory annotation takes its
	// timelines from the argument's memory at each call (ArgQuals).
	InitGiven, ExtGiven bool
	// Mode is the access mode found in the behaviour body (seed 000 §5.2.3):
	// "r" read-only, "w" write-only, "rw" read-write, "" not accessed.
	Mode string
}

// IsInstr reports whether p carries an @instr decorator.
func IsInstr(p *syntax.Proc) bool {
	for _, d := range p.Decorators {
		if decoName(d) == "instr" {
			return true
		}
	}
	return false
}

func decoName(d syntax.Expr) string {
	switch d := d.(type) {
	case *syntax.Name:
		return d.Name
	case *syntax.Call:
		return d.FunName()
	}
	return ""
}

// IsDataType reports whether name is a data type of seed 000 Fig. 10 (plus
// bf16, which instructions need), the element types of data parameters
// (appendix A Fig. 10), or Exo's generic R. A switch, not a map of the
// names: every parameter and allocation of a check asks, and a map lookup
// hashed the name (stop 37).
func IsDataType(name string) bool {
	switch name {
	case "f16", "bf16", "f32", "f64", "i8", "ui8", "ui16", "i32", RealType:
		return true
	}
	return false
}

// RealType is Exo's generic real `R`: a data type of unspecified precision
// that Exo resolves with set_precision and otherwise compiles as float
// (its C code generator's default). Printed procs keep R where no
// precision was set, so Weft resolves it the same way: R is f32.
const RealType = "R"

// TemplateParams returns the template parameter names declared by p's
// @instr decorator (nil for a proc or an instruction without them), for
// binding calls without loading the library.
func TemplateParams(p *syntax.Proc) []string {
	for _, d := range p.Decorators {
		c, ok := d.(*syntax.Call)
		if !ok || decoName(d) != "instr" {
			continue
		}
		k := c.Kwarg("template")
		if k == nil {
			return nil
		}
		var out []string
		if lst, ok := k.Value.(*syntax.List); ok {
			for _, e := range lst.Elems {
				if s, ok := e.(*syntax.StringLit); ok {
					out = append(out, s.Value)
				}
			}
		}
		return out
	}
	return nil
}

// ResolveElem returns the concrete data type a type name stands for: f32
// for Exo's R, the name itself otherwise.
func ResolveElem(name string) string {
	if name == RealType {
		return "f32"
	}
	return name
}

// ParseInstr interprets the decorators of an instruction proc against the
// library l (for its timelines, units and memories) and reports problems in
// errs (W0245-W0249). It returns nil if p has no @instr decorator.
func ParseInstr(p *syntax.Proc, l *Library, errs *diag.List) *Instr {
	var head *syntax.Call
	var accesses []*syntax.Call
	for _, d := range p.Decorators {
		switch decoName(d) {
		case "instr":
			c, ok := d.(*syntax.Call)
			if !ok {
				errs.Errorf(d.Pos(), "W0245", "@instr needs tl=, unit= and cuda=")
				return &Instr{Name: p.Name.Name, Proc: p, Access: map[string]*Access{}}
			}
			if head != nil {
				errs.Errorf(d.Pos(), "W0245", "second @instr decorator")
				continue
			}
			head = c
		case "access":
			c, ok := d.(*syntax.Call)
			if !ok {
				errs.Errorf(d.Pos(), "W0246", "@access needs a parameter name")
				continue
			}
			accesses = append(accesses, c)
		case "proc":
			errs.Errorf(d.Pos(), "W0245", "an instruction cannot also be a @proc")
		default:
			errs.Errorf(d.Pos(), "W0245", "unknown decorator on instruction %s", p.Name.Name)
		}
	}
	if head == nil {
		return nil
	}
	in := &Instr{Name: p.Name.Name, Proc: p}
	for _, a := range head.Args {
		errs.Errorf(a.Pos(), "W0245", "@instr takes keyword arguments tl=, unit= and cuda=")
	}
	for _, k := range head.Kwargs {
		switch k.Name.Name {
		case "tl":
			n, ok := k.Value.(*syntax.Name)
			var tl *SyncTL
			if ok {
				tl = l.Timelines[n.Name]
			}
			if tl == nil || !tl.Instr {
				errs.Errorf(k.Value.Pos(), "W0245", "tl= must be an instruction timeline (%s)", instrTLs(l))
				continue
			}
			in.TL = tl.Name
			in.CPU = tl.Name == "cpu_in_order"
		case "unit":
			in.Unit = k.Value
		case "barrier":
			n, ok := k.Value.(*syntax.Name)
			if !ok || l.Barriers[n.Name] == nil {
				errs.Errorf(k.Value.Pos(), "W0245", "barrier= must be a barrier memory (CudaMbarrier, CudaCommitGroup, ...)")
				continue
			}
			in.Barrier = l.Barriers[n.Name].Name
		case "barrier_units":
			lst, ok := k.Value.(*syntax.List)
			if !ok {
				errs.Errorf(k.Value.Pos(), "W0245", "barrier_units= must be a list of collective units")
				continue
			}
			in.BarrierUnits = lst.Elems
		case "template":
			lst, ok := k.Value.(*syntax.List)
			if !ok {
				errs.Errorf(k.Value.Pos(), "W0245", "template= must be a list of strings (the template parameter names)")
				continue
			}
			for _, e := range lst.Elems {
				s, ok := e.(*syntax.StringLit)
				if !ok {
					errs.Errorf(e.Pos(), "W0245", "template= must be a list of strings (the template parameter names)")
					continue
				}
				in.Template = append(in.Template, s.Value)
			}
		case "cuda":
			s, ok := k.Value.(*syntax.StringLit)
			if !ok {
				errs.Errorf(k.Value.Pos(), "W0245", "cuda= must be a string (the CUDA template)")
				continue
			}
			in.CUDA = s.Value
		default:
			errs.Errorf(k.Pos(), "W0245", "@instr has no parameter %s (tl, unit, cuda, barrier, barrier_units, template)", k.Name.Name)
		}
	}
	if in.TL == "" && head.Kwarg("tl") == nil {
		errs.Errorf(head.Pos(), "W0245", "@instr needs tl= (its instruction timeline)")
	}
	if in.Unit == nil {
		errs.Errorf(head.Pos(), "W0245", "@instr needs unit= (the collective unit of one call)")
		in.Unit = &syntax.Name{Name: "cuda_thread"}
	}
	if head.Kwarg("cuda") == nil {
		errs.Errorf(head.Pos(), "W0245", "@instr needs cuda= (its CUDA template)")
	}
	async := false
	if tl := l.Timelines[in.TL]; tl != nil {
		async = tl.AsyncBlock
	}
	// The data parameters' Accesses in one array, AccessOrder and
	// Access made for them (stop 44: an allocation each, and the list's
	// and the map's growth, at every instruction of the library's load).
	nData := 0
	for _, prm := range p.Params {
		if t := prm.Type; t != nil && t.Elem != nil && IsDataType(t.Elem.Name) {
			nData++
		}
	}
	var accs []Access
	in.Access = make(map[string]*Access, nData)
	if nData > 0 {
		accs = make([]Access, 0, nData)
		in.AccessOrder = make([]*Access, 0, nData)
	}
	for i, prm := range p.Params {
		t := prm.Type
		if t == nil || t.Elem == nil || !IsDataType(t.Elem.Name) {
			continue
		}
		accs = append(accs, Access{Param: prm.Name.Name, Index: i, Elem: ResolveElem(t.Elem.Name), Window: t.Window, OutOfOrder: async})
		a := &accs[len(accs)-1]
		if t.Mem != nil {
			if n, ok := t.Mem.(*syntax.Name); ok {
				a.Mem = n.Name
			} else if c, ok := t.Mem.(*syntax.Call); ok {
				a.Mem = c.FunName()
			}
		}
		a.Init = defaultInit(in.TL, l.Memories[a.Mem])
		in.Access[a.Param] = a
		in.AccessOrder = append(in.AccessOrder, a)
	}
	for _, c := range accesses {
		if len(c.Args) != 1 {
			errs.Errorf(c.Pos(), "W0246", "@access takes one parameter name and keyword qualities")
			continue
		}
		n, ok := c.Args[0].(*syntax.Name)
		if !ok {
			errs.Errorf(c.Args[0].Pos(), "W0246", "@access takes a parameter name")
			continue
		}
		a := in.Access[n.Name]
		if a == nil {
			errs.Errorf(n.Pos(), "W0246", "%s is not a data parameter of %s", n.Name, in.Name)
			continue
		}
		for _, k := range c.Kwargs {
			switch k.Name.Name {
			case "out_of_order", "convergent":
				b, ok := k.Value.(*syntax.BoolLit)
				if !ok {
					errs.Errorf(k.Value.Pos(), "W0246", "%s= must be True or False", k.Name.Name)
					continue
				}
				if k.Name.Name == "out_of_order" {
					a.OutOfOrder = b.Value
				} else {
					a.Convergent = b.Value
				}
			case "init":
				if q := qualName(k.Value, l, errs); q != "" {
					a.Init = q
					a.InitGiven = true
				}
			case "ext", "atomic":
				lst, ok := k.Value.(*syntax.List)
				if !ok {
					errs.Errorf(k.Value.Pos(), "W0246", "%s= must be a list of qualitative timelines", k.Name.Name)
					continue
				}
				var qs []string
				for _, e := range lst.Elems {
					if q := qualName(e, l, errs); q != "" {
						qs = append(qs, q)
					}
				}
				if k.Name.Name == "ext" {
					a.Ext = qs
					a.ExtGiven = true
				} else {
					a.Atomic = qs
				}
			case "units":
				lst, ok := k.Value.(*syntax.List)
				if !ok {
					errs.Errorf(k.Value.Pos(), "W0246", "units= must be a list of collective units")
					continue
				}
				a.Units = lst.Elems
			default:
				errs.Errorf(k.Pos(), "W0246", "@access has no quality %s (out_of_order, convergent, init, ext, atomic, units)", k.Name.Name)
			}
		}
	}
	// The extended set defaults to the initial timeline alone (seed 000
	// Fig. 20: T_ext ⊇ the access's own timeline): a list of one each,
	// carved from one array.
	var exts []string
	for _, a := range in.AccessOrder {
		if a.Ext == nil && a.Init != "" {
			if len(exts) == cap(exts) {
				exts = make([]string, 0, len(in.AccessOrder))
			}
			exts = append(exts, a.Init)
			a.Ext = exts[len(exts)-1 : len(exts) : len(exts)]
		}
	}
	if len(in.AccessOrder) > 0 {
		w := newModeWalk(p)
		for _, a := range in.AccessOrder {
			a.Mode = w.mode(a.Index)
		}
	}
	in.PlainCUDA = plainTemplate(in.CUDA, p.Params)
	in.WGMMA = strings.Contains(in.CUDA, "wgmma_m64n")
	return in
}

// plainTemplate reports whether every placeholder of tmpl is {p}, {p_t}
// for a parameter p of params, or {expect_tx} (Instr.PlainCUDA).
func plainTemplate(tmpl string, params []*syntax.Param) bool {
	for i := 0; i < len(tmpl); i++ {
		if tmpl[i] != '{' {
			continue
		}
		j := i + 1
		for j < len(tmpl) && tmpl[j] != '{' && tmpl[j] != '}' {
			j++
		}
		if j == len(tmpl) || tmpl[j] != '}' || j == i+1 {
			continue // no placeholder starts here
		}
		key := strings.TrimSpace(tmpl[i+1 : j])
		i = j
		if key == "expect_tx" {
			continue
		}
		found := false
		for _, prm := range params {
			if rest, ok := strings.CutPrefix(key, prm.Name.Name); ok && (rest == "" || rest == "_t") {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// ArgQuals returns T_init and T_ext (seed 000 Fig. 20) of parameter a of in
// at one call whose argument lives in memory m (nil: unknown or not a data
// memory). The initial qualitative timeline of an access depends on whether
// it touches registers or RAM (seed 000 §3.2, Fig. 15: cuda1 vs cuda2, and
// T_qin of Fig. 18 for plain statements). A parameter whose memory is
// declared fixes it (Sm80_RmemMatrixD parameters are rmem at every call); a
// parameter "@ any" (the scalar instructions) does not, so its default
// timeline is that of the argument's actual memory: otherwise
// cuda_fma_f32(acc, ...) on a register would record a RAM write that the
// thread's own `acc = 0.0` (rmem) is not ordered with. An explicit @access
// init= / ext= always wins.
func (in *Instr) ArgQuals(a *Access, m *Memory) (init string, ext []string) {
	init, ext = a.Init, a.Ext
	if a.Mem != "" || a.InitGiven {
		return init, ext
	}
	init = defaultInit(in.TL, m)
	if !a.ExtGiven {
		ext = nil
		if init != "" {
			ext = []string{init}
		}
	}
	return init, ext
}

// defaultInit is the initial qualitative timeline of a parameter when
// @access does not give one: the instruction timeline's own qualitative
// timeline, split by register vs memory for in-order CUDA (seed 000 §3.2).
func defaultInit(tl string, m *Memory) string {
	rmem := m != nil && m.Space == "rmem"
	switch tl {
	case "cpu_in_order":
		return "cpu_in_order_qual"
	case "cuda_in_order":
		if rmem {
			return "cuda_in_order_rmem_qual"
		}
		return "cuda_in_order_ram_qual"
	case "Sm80_cp_async":
		return "Sm80_cp_async_qual"
	case "tma_to_smem_async":
		return "tma_to_smem_async_qual"
	case "tma_to_gmem_async":
		return "tma_to_gmem_async_qual"
	case "wmma_async":
		if rmem {
			return "wmma_async_rmem_d_qual"
		}
		return "wmma_async_smem_qual"
	}
	return ""
}

func qualName(e syntax.Expr, l *Library, errs *diag.List) string {
	n, ok := e.(*syntax.Name)
	if ok {
		if q := l.Quals[n.Name]; q != nil {
			return q.Name
		}
	}
	errs.Errorf(e.Pos(), "W0246", "expected a qualitative timeline (seed 000 Fig. 15)")
	return ""
}

func instrTLs(l *Library) string {
	s := ""
	for _, n := range sortedKeys(l.Timelines) {
		if tl := l.Timelines[n]; tl.Instr && tl.Name == n {
			if s != "" {
				s += ", "
			}
			s += n
		}
	}
	return s
}

// AccessModes classifies each parameter of p by the accesses of its body
// (seed 000 §5.2.3): only read "r", written but never read or reduced "w",
// otherwise "rw". Arguments of nested calls count as read-write.
func AccessModes(p *syntax.Proc) map[string]string {
	modes := map[string]string{}
	for i, m := range ParamModes(p) {
		modes[p.Params[i].Name.Name] = m
	}
	return modes
}

// ParamModes is AccessModes by parameter position (the mode of
// p.Params[i] is its i-th): the walk records reads and writes as bits of
// the parameters they name, and window aliases in a short list, where
// four maps by name (read, written, alias and the result) were a large
// part of loading the library's instructions (issue 13, stop 44). Only
// parameters' modes are reported, so a name that is no parameter's needs
// no record; a name shared by two parameters marks both, as the maps by
// name did (TestParamModesByName compares it with that walk).
func ParamModes(p *syntax.Proc) []string {
	w := newModeWalk(p)
	modes := make([]string, len(p.Params))
	for i := range modes {
		modes[i] = w.mode(i)
	}
	return modes
}

// newModeWalk walks p's body.
func newModeWalk(p *syntax.Proc) modeWalk {
	w := modeWalk{params: p.Params}
	if n := len(p.Params); n > 64 {
		w.readMore, w.writtenMore = make([]uint64, (n-1)/64), make([]uint64, (n-1)/64)
	}
	w.stmts(p.Body)
	return w
}

// mode is the mode of parameter i once the walk is done.
func (w *modeWalk) mode(i int) string {
	var r, wr bool
	if i < 64 {
		r, wr = w.read>>i&1 != 0, w.written>>i&1 != 0
	} else {
		r, wr = w.readMore[i/64-1]>>(i%64)&1 != 0, w.writtenMore[i/64-1]>>(i%64)&1 != 0
	}
	switch {
	case wr && r:
		return "rw"
	case wr:
		return "w"
	case r:
		return "r"
	}
	return ""
}

// modeWalk is ParamModes' walk of a body: read and written hold a bit
// per parameter (readMore and writtenMore those past the first 64), alias
// the window statements' names, each with the root it windows (`w =
// x[...]`).
type modeWalk struct {
	params                []*syntax.Param
	read, written         uint64
	readMore, writtenMore []uint64
	alias                 []modeAlias
}

type modeAlias struct{ name, root string }

// mark records a read (r) and/or a write (wr) of the parameters named n.
func (w *modeWalk) mark(n string, r, wr bool) {
	for i, p := range w.params {
		if p.Name.Name == n {
			switch {
			case i < 64:
				if r {
					w.read |= 1 << i
				}
				if wr {
					w.written |= 1 << i
				}
			default:
				if r {
					w.readMore[i/64-1] |= 1 << (i % 64)
				}
				if wr {
					w.writtenMore[i/64-1] |= 1 << (i % 64)
				}
			}
		}
	}
}

// rootOf follows window aliases from n (alias chains are short; the walk
// is bounded).
func (w *modeWalk) rootOf(n string) string {
	for i := 0; i < 64; i++ {
		found := false
		for _, a := range w.alias {
			if a.name == n {
				n, found = a.root, true
				break
			}
		}
		if !found {
			break
		}
	}
	return n
}

func (w *modeWalk) setAlias(name, root string) {
	for i := range w.alias {
		if w.alias[i].name == name {
			w.alias[i].root = root
			return
		}
	}
	w.alias = append(w.alias, modeAlias{name, root})
}

func (w *modeWalk) expr(e syntax.Expr) {
	switch e := e.(type) {
	case *syntax.Name:
		w.mark(w.rootOf(e.Name), true, false)
	case *syntax.Index:
		w.expr(e.X)
		for _, i := range e.Indices {
			w.expr(i)
		}
	case *syntax.Slice:
		if e.Lo != nil {
			w.expr(e.Lo)
		}
		if e.Hi != nil {
			w.expr(e.Hi)
		}
	case *syntax.Binary:
		w.expr(e.X)
		w.expr(e.Y)
	case *syntax.Unary:
		w.expr(e.X)
	case *syntax.Call:
		for _, a := range e.Args {
			w.expr(a)
		}
		for _, k := range e.Kwargs {
			w.expr(k.Value)
		}
	case *syntax.List:
		for _, x := range e.Elems {
			w.expr(x)
		}
	case *syntax.Tuple:
		for _, x := range e.Elems {
			w.expr(x)
		}
	}
}

// modeRoot is the name an access or argument e is rooted at (x or
// x[...]) and its indices; "" for anything else.
func modeRoot(e syntax.Expr) (string, []syntax.Expr) {
	switch e := e.(type) {
	case *syntax.Name:
		return e.Name, nil
	case *syntax.Index:
		if n, ok := e.X.(*syntax.Name); ok {
			return n.Name, e.Indices
		}
	}
	return "", nil
}

func (w *modeWalk) stmts(ss []syntax.Stmt) {
	for _, s := range ss {
		switch s := s.(type) {
		case *syntax.Assign:
			if lhs, ok := s.LHS.(*syntax.Name); ok && s.Op == "=" && isWindowExpr(s.RHS, s.Mem != nil) {
				if src, idx := modeRoot(s.RHS); src != "" {
					w.setAlias(lhs.Name, w.rootOf(src))
					for _, i := range idx {
						w.expr(i)
					}
					continue
				}
			}
			name, idx := modeRoot(s.LHS)
			name = w.rootOf(name)
			for _, i := range idx {
				w.expr(i)
			}
			w.expr(s.RHS)
			if name != "" {
				w.mark(name, s.Op == "+=", true)
			}
		case *syntax.For:
			w.expr(s.Lo)
			w.expr(s.Hi)
			w.stmts(s.Body)
		case *syntax.If:
			w.expr(s.Cond)
			w.stmts(s.Then)
			w.stmts(s.Else)
		case *syntax.With:
			w.stmts(s.Body)
		case *syntax.CallStmt:
			for _, a := range s.Call.Args {
				if name, idx := modeRoot(a); name != "" {
					w.mark(w.rootOf(name), true, true)
					for _, i := range idx {
						w.expr(i)
					}
				} else {
					w.expr(a)
				}
			}
			for _, k := range s.Call.Kwargs {
				w.expr(k.Value)
			}
		case *syntax.Assert:
			w.expr(s.Cond)
		}
	}
}

// isWindowExpr reports whether e, on the right of `x = e`, makes x a
// window: it has an interval index, or the statement names a special
// window.
func isWindowExpr(e syntax.Expr, special bool) bool {
	ix, ok := e.(*syntax.Index)
	if !ok {
		return false
	}
	if special {
		return true
	}
	for _, i := range ix.Indices {
		if _, ok := i.(*syntax.Slice); ok {
			return true
		}
	}
	return isWindowExpr(ix.X, false)
}

// UnitFor returns the collective unit of one call of the instruction: its
// unit expression with each size or index parameter for which val gives a
// constant replaced by that constant. A unit may depend on the call
// (Exo's TMA multicast is executed by `ncta *
// cuda_warp_in_cluster_strided(cta_stride)`, one warp in each of the ncta
// CTAs whose slices it loads); a parameter val has no constant for stays a
// name, which the unit's evaluation reports as not constant.
func (in *Instr) UnitFor(val func(param string) (int64, bool)) syntax.Expr {
	if in.Unit == nil {
		return nil
	}
	params := map[string]bool{}
	for _, p := range in.Proc.Params {
		if p.Type != nil && p.Type.Elem != nil && (p.Type.Elem.Name == "size" || p.Type.Elem.Name == "index") && p.Type.Dims == nil {
			params[p.Name.Name] = true
		}
	}
	var sub func(e syntax.Expr) syntax.Expr
	sub = func(e syntax.Expr) syntax.Expr {
		switch e := e.(type) {
		case *syntax.Name:
			if params[e.Name] {
				if v, ok := val(e.Name); ok {
					return &syntax.IntLit{Text: strconv.FormatInt(v, 10), Value: v}
				}
			}
		case *syntax.Binary:
			return &syntax.Binary{Op: e.Op, X: sub(e.X), Y: sub(e.Y)}
		case *syntax.Unary:
			return &syntax.Unary{Op: e.Op, X: sub(e.X)}
		case *syntax.Call:
			c := *e
			c.Args = make([]syntax.Expr, len(e.Args))
			for i, a := range e.Args {
				c.Args[i] = sub(a)
			}
			return &c
		}
		return e
	}
	return sub(in.Unit)
}
