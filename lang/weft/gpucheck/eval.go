package gpucheck

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// consts evaluates compile-time integer expressions: literals, the file's
// global constants (`Mw, Nw = 96, 64`), NAME=VALUE sizes, and + - * / // %
// (seed 002 "cuda_threads Loops": hi must be a compile-time constant).
type consts struct {
	vals map[string]int64
	// local values, looked up before vals, the last first, and parent's
	// after: a unit's parameters and launch shape over the file's
	// constants (unitEnv.build), without copying them into a new map for
	// every unit expression (issue 13).
	local  []constVal
	parent *consts
	// hit is the constant of vals found last (name "": none), looked up
	// before the map: a file's few constants are each evaluated by its
	// launch, its loops and the later checkers' Eval, a hash each
	// (issue 13, stop 47: per_cta_alloc's NCTA, 160 instructions a
	// lookup). vals does not change after Check's start (fileConsts; no
	// reader writes into Result.Consts), so hit is always vals[name].
	hit constVal
}

type constVal struct {
	name string
	val  int64
}

// set records the file's constant name (made at the first: Check).
func (c *consts) set(name string, v int64) {
	if c.vals == nil {
		c.vals = map[string]int64{}
	}
	c.vals[name] = v
}

// lookup returns the value of the constant name.
func (c *consts) lookup(name string) (int64, bool) {
	for i := len(c.local) - 1; i >= 0; i-- {
		if c.local[i].name == name {
			return c.local[i].val, true
		}
	}
	if c.hit.name != "" && c.hit.name == name {
		return c.hit.val, true
	}
	if v, ok := c.vals[name]; ok {
		if name != "" {
			c.hit = constVal{name, v}
		}
		return v, true
	}
	if c.parent != nil {
		return c.parent.lookup(name)
	}
	return 0, false
}

func (c *consts) eval(e syntax.Expr) (int64, bool) {
	switch e := e.(type) {
	case *syntax.IntLit:
		return e.Value, true
	case *syntax.Name:
		return c.lookup(e.Name)
	case *syntax.Unary:
		if e.Op == "-" {
			v, ok := c.eval(e.X)
			return -v, ok
		}
		if e.Op == "~" {
			v, ok := c.eval(e.X)
			return ^v, ok
		}
	case *syntax.Binary:
		x, ok1 := c.eval(e.X)
		y, ok2 := c.eval(e.Y)
		if !ok1 || !ok2 {
			return 0, false
		}
		return check.ControlOp(e.Op, x, y)
	}
	return 0, false
}

// unitDecl is a collective unit as data: the library's (units.weft) or one
// the user's file defines with `name = CollUnit(domain=[...], box=[...])`.
type unitDecl struct {
	name   string
	params []string
	domain []syntax.Expr
	box    []syntax.Expr
	scale  int
	// fast is the unit's coordinates in closed form (unitfast.go): set
	// for the library's parameterless units that have one; fastP the
	// same for a parameterized one (unitparams.go).
	fast  *fastUnit
	fastP *paramUnit
}

// unitEnv resolves unit expressions (`cuda_warp`, `4 * cuda_thread`,
// `(N1 / Nw) * cuda_warp`, `cuda_threads_strided(2, 4)`, user units) to
// concrete coll.Units for one launch shape.
type unitEnv struct {
	decls map[string]*unitDecl // the file's CollUnit globals
	lib   map[string]*unitDecl // the library's units (libUnits), read-only
	c     *consts
	// symBuf is where the coordinates of the next units are carved
	// (syms): a unit is resolved for every loop and instruction call,
	// and an array each had been a tenth of the check's objects (issue
	// 13, stop 31).
	symBuf []coll.Sym
	// built are the parameterless units built so far (buildOnce): a
	// check resolves cuda_thread, cuda_warp and the like for every loop,
	// instruction call and uniform write of a device function, with the
	// same launch shape (issue 13, stop 32).
	//
	// built and named hold six each: the repository's programs build
	// and name six at most (the benchmark rows five), and twelve and
	// eight had been 816 bytes of every check's room, zeroed and never
	// touched, which kept the medium room in the 14336-byte size class
	// (issue 13, stop 44: 13568 now, TestRoomSizeClasses; a unit past
	// them is built again at each use, as before past the old sizes).
	//
	// The tables are the check's room's (a small room holds fewer:
	// room.go, stop 45) or its state's (unitArrays).
	built  []builtUnit
	nBuilt int
	// named are the units looked up by name so far (decl): a few names,
	// each asked for by every loop and call that uses it.
	named  []namedDecl
	nNamed int
	// params are the parameterized units built so far (paramOnce); a
	// small room has none, made at its first parameterized unit.
	params  []paramBuilt
	nParams int
}

// paramArgs is the number of arguments a paramBuilt holds.
const paramArgs = 4

// paramBuilt is a parameterized unit d built for launch shape m with the
// arguments args[:len(d.params)].
type paramBuilt struct {
	d    *unitDecl
	m    coll.Machine
	args [paramArgs]int64
	u    coll.Unit
	err  error
}

// paramOnce is build(d, args, m) for a parameterized unit, built once
// per check for each of the first few argument lists and launch shapes
// (issue 13, stop 42): shfl_xor (row 15) resolves
// cuda_threads_strided(1, 2) for its strided loop and again for the
// instruction called in it (its unit 2 * cuda_threads_strided(1,
// laneMask) with laneMask = 2), each build naming the unit in a new
// string. build is a pure function of d, the arguments, m and the
// file's constants, which do not change after Check's start; its unit's
// coordinates are read only by the callers, as builtOnce's (resolve
// scales a copy of the box).
func (u *unitEnv) paramOnce(d *unitDecl, args []int64, m coll.Machine) (coll.Unit, error) {
	// Every argument list of d has its len(d.params) arguments
	// (resolve's arity test).
	n := len(args)
	for i := 0; i < u.nParams; i++ {
		if b := &u.params[i]; b.d == d && b.m == m && sameArgs(b.args[:n], args) {
			return b.u, b.err
		}
	}
	out, err := u.build(d, args, m)
	if u.params == nil && n <= paramArgs {
		u.params = make([]paramBuilt, len(unitArrays{}.params))
	}
	if u.nParams < len(u.params) && n <= paramArgs {
		b := &u.params[u.nParams]
		b.d, b.m, b.u, b.err = d, m, out, err
		copy(b.args[:], args)
		u.nParams++
	}
	return out, err
}

// sameArgs reports whether a and b, of one length, are equal.
func sameArgs(a, b []int64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// namedDecl is one decl lookup.
type namedDecl struct {
	name string
	d    *unitDecl
}

// builtUnit is a parameterless unit built for one launch shape, scaled by
// k (0: not scaled).
type builtUnit struct {
	d   *unitDecl
	k   int
	m   coll.Machine
	u   coll.Unit
	err error
}

// builtOnce is the unit d, scaled by k (0: not scaled), for launch shape
// m, built once per check (up to len(u.built) of them; more are built
// each time): build and Scaled are pure functions of d, k, m and the
// file's constants, which do not change after Check's start, and the
// unit's coordinates are its own, read only by the callers (Scaled and
// coll copy them to change or keep them).
func (u *unitEnv) builtOnce(d *unitDecl, k int, m coll.Machine, f func() (coll.Unit, error)) (coll.Unit, error) {
	for i := 0; i < u.nBuilt; i++ {
		if b := &u.built[i]; b.d == d && b.k == k && b.m == m {
			return b.u, b.err
		}
	}
	out, err := f()
	if u.nBuilt < len(u.built) {
		u.built[u.nBuilt] = builtUnit{d, k, m, out, err}
		u.nBuilt++
	}
	return out, err
}

// buildOnce is build(d, nil, m), once per check (builtOnce).
func (u *unitEnv) buildOnce(d *unitDecl, m coll.Machine) (coll.Unit, error) {
	return u.builtOnce(d, 0, m, func() (coll.Unit, error) { return u.build(d, nil, m) })
}

// scaledOnce is k * d, as resolve evaluates `k * name` for a
// parameterless unit d named name (build, then Scaled), once per check
// (builtOnce): a kernel scales cuda_thread by the same few counts in
// every loop nest.
func (u *unitEnv) scaledOnce(d *unitDecl, k int, m coll.Machine) (coll.Unit, error) {
	if k < 1 {
		// Scaled's own error, without a key that could be confused with
		// an unscaled unit's (k = 0).
		base, err := u.buildOnce(d, m)
		if err != nil {
			return coll.Unit{}, err
		}
		return base.Scaled(k)
	}
	return u.builtOnce(d, k, m, func() (coll.Unit, error) {
		base, err := u.buildOnce(d, m)
		if err != nil {
			return coll.Unit{}, err
		}
		return u.scaled(base, k)
	})
}

// symChunk is the number of coordinates carved from one array.
const symChunk = 16

// syms returns n zero coordinates of their own (capacity n).
func (u *unitEnv) syms(n int) []coll.Sym {
	if len(u.symBuf) < n {
		u.symBuf = make([]coll.Sym, max(n, symChunk))
	}
	out := u.symBuf[:n:n]
	u.symBuf = u.symBuf[n:]
	return out
}

// libUnitDecls caches the library's units as unitDecls, per *lib.Library:
// they are the same for every check, and building them for each was a
// visible part of a small kernel's `weft check` (issue 13).
var libUnitDecls sync.Map // *lib.Library -> map[string]*unitDecl

func libUnits(l *lib.Library) map[string]*unitDecl {
	if l == nil {
		return nil
	}
	// The library of the last lookup first: a process checks against
	// one library (the standard one), and the sync.Map's interface-keyed
	// lookup was 400 instructions of every check (stop 35).
	if e := lastLibUnits.Load(); e != nil && e.l == l {
		return e.m
	}
	if m, ok := libUnitDecls.Load(l); ok {
		mm := m.(map[string]*unitDecl)
		lastLibUnits.Store(&libUnitsEntry{l, mm})
		return mm
	}
	m := make(map[string]*unitDecl, len(l.Units))
	for name, d := range l.Units {
		ud := &unitDecl{name: name, params: d.Params, domain: d.Domain, box: d.Box, scale: d.Scale}
		ud.fast = compileFast(ud)
		ud.fastP = compileParams(ud)
		m[name] = ud
	}
	libUnitDecls.Store(l, m)
	lastLibUnits.Store(&libUnitsEntry{l, m})
	return m
}

// libUnitsEntry is one library's units (libUnits).
type libUnitsEntry struct {
	l *lib.Library
	m map[string]*unitDecl
}

// lastLibUnits is the entry libUnits returned last.
var lastLibUnits atomic.Pointer[libUnitsEntry]

// decl returns the unit named name: the file's shadows the library's.
// The first names asked are kept (u.named) and searched in place, not
// hashed again (issue 13, stop 32); the maps do not change after Check's
// start.
func (u *unitEnv) decl(name string) *unitDecl {
	for i := 0; i < u.nNamed; i++ {
		if u.named[i].name == name {
			return u.named[i].d
		}
	}
	d, ok := u.decls[name]
	if !ok {
		d = u.lib[name]
	}
	if u.nNamed < len(u.named) {
		u.named[u.nNamed] = namedDecl{name, d}
		u.nNamed++
	}
	return d
}

func newUnitEnv(l *lib.Library, f *syntax.File, c *consts) *unitEnv {
	e := new(struct {
		u unitEnv
		a unitArrays
	})
	u := &e.u
	u.built, u.named, u.params = e.a.built[:], e.a.named[:], e.a.params[:]
	initUnitEnv(u, l, f, c)
	return u
}

// initUnitEnv sets *u, which is zero (its callers' new objects), to the
// unit environment of f: its fields are set, not a 1.7 KB literal
// copied over it (the built units' table is most of it; stop 35).
func initUnitEnv(u *unitEnv, l *lib.Library, f *syntax.File, c *consts) {
	// decls is made at the file's first CollUnit: most files declare
	// none, and lookups read a nil map.
	u.lib, u.c = libUnits(l), c
	for _, d := range f.Decls {
		g, ok := d.(*syntax.Global)
		if !ok || len(g.Names) != 1 || len(g.Values) != 1 {
			continue
		}
		call, ok := g.Values[0].(*syntax.Call)
		if !ok || call.FunName() != "CollUnit" {
			continue
		}
		ud := &unitDecl{name: g.Names[0].Name, scale: -1}
		for _, k := range call.Kwargs {
			switch k.Name.Name {
			case "domain":
				if l, ok := k.Value.(*syntax.List); ok {
					ud.domain = l.Elems
				}
			case "box":
				if l, ok := k.Value.(*syntax.List); ok {
					ud.box = l.Elems
				}
			case "scale":
				if v, ok := c.eval(k.Value); ok {
					ud.scale = int(v)
				}
			case "params":
				if l, ok := k.Value.(*syntax.List); ok {
					for _, e := range l.Elems {
						if s, ok := e.(*syntax.StringLit); ok {
							ud.params = append(ud.params, s.Value)
						}
					}
				}
			}
		}
		if u.decls == nil {
			u.decls = map[string]*unitDecl{}
		}
		u.decls[ud.name] = ud
	}
}

// isUnit reports whether e names a collective unit (possibly scaled).
func (u *unitEnv) isUnit(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.Name:
		return u.decl(e.Name) != nil
	case *syntax.Call:
		return u.decl(e.FunName()) != nil
	case *syntax.Binary:
		return e.Op == "*" && u.isUnit(e.Y)
	}
	return false
}

// resolve evaluates the unit expression e for machine m.
func (u *unitEnv) resolve(e syntax.Expr, m coll.Machine) (coll.Unit, error) {
	switch e := e.(type) {
	case *syntax.Name:
		d := u.decl(e.Name)
		if d == nil {
			return coll.Unit{}, fmt.Errorf("%s is not a collective unit", e.Name)
		}
		if len(d.params) > 0 {
			return coll.Unit{}, fmt.Errorf("collective unit %s takes %d arguments (%s)", e.Name, len(d.params), strings.Join(d.params, ", "))
		}
		if out, ok := u.fastOnce(d, 0, m); ok {
			return out, nil
		}
		return u.buildOnce(d, m)
	case *syntax.Call:
		d := u.decl(e.FunName())
		if d == nil {
			return coll.Unit{}, fmt.Errorf("%s is not a collective unit", exprString(e.Fun))
		}
		if len(e.Args) != len(d.params) || len(e.Kwargs) > 0 {
			return coll.Unit{}, fmt.Errorf("collective unit %s takes %d arguments (%s)", d.name, len(d.params), strings.Join(d.params, ", "))
		}
		// The arguments on the stack for up to four (build keeps none).
		var abuf [4]int64
		args := abuf[:0]
		for _, a := range e.Args {
			v, ok := u.c.eval(a)
			if !ok {
				return coll.Unit{}, fmt.Errorf("argument %s of %s must be a compile-time constant", exprString(a), d.name)
			}
			args = append(args, v)
		}
		return u.paramOnce(d, args, m)
	case *syntax.Binary:
		if e.Op == "*" {
			scale, unit := e.X, e.Y
			// d is the unit's declaration where the unit is a name: a
			// name on the left is looked up once, for isUnit's test and
			// the unit (issue 13, stop 47: decl had run twice for every
			// `cuda_thread * 4`; a second lookup finds what the first
			// kept).
			var d *unitDecl
			if n, ok := e.X.(*syntax.Name); ok {
				if d = u.decl(n.Name); d != nil {
					// `cuda_thread * 4`, as Exo's GPU branch also writes it
					// (its tests): the product commutes.
					scale, unit = e.Y, e.X
				}
			} else if u.isUnit(e.X) {
				scale, unit = e.Y, e.X
			}
			k, ok := u.c.eval(scale)
			if !ok {
				return coll.Unit{}, fmt.Errorf("unit scale %s must be a compile-time constant", exprString(scale))
			}
			if n, ok := unit.(*syntax.Name); ok {
				if d == nil {
					d = u.decl(n.Name)
				}
				if d != nil && len(d.params) == 0 {
					// resolve(unit) is buildOnce(d, m) here.
					if k >= 1 {
						if out, ok := u.fastOnce(d, int(k), m); ok {
							return out, nil
						}
					}
					return u.scaledOnce(d, int(k), m)
				}
			}
			base, err := u.resolve(unit, m)
			if err != nil {
				return coll.Unit{}, err
			}
			return u.scaled(base, int(k))
		}
	}
	return coll.Unit{}, fmt.Errorf("%s is not a collective unit", exprString(e))
}

// threads is the unit `n * cuda_thread` for m, as resolve evaluates that
// expression (the file's cuda_thread shadows the library's), without
// building it: the writers of a uniform memory (CudaRmemUniform(n)) are
// checked against it at every write (issue 13, stop 31: three syntax
// nodes per write).
//
// Its closed form first, as resolve takes it for `n * cuda_thread`
// (fastOnce of the scaled unit: the loops of a uniform memory's writers
// have built it; issue 13, stop 46), else the unit built and scaled.
func (u *unitEnv) threads(n int64, m coll.Machine) (coll.Unit, error) {
	if n >= 1 {
		if d := u.decl(defaultUnit.(*syntax.Name).Name); d != nil && len(d.params) == 0 {
			if out, ok := u.fastOnce(d, int(n), m); ok {
				return out, nil
			}
		}
	}
	base, err := u.resolve(defaultUnit, m)
	if err != nil {
		return coll.Unit{}, err
	}
	return u.scaled(base, int(n))
}

// build evaluates a unit's domain and box for m (concrete coordinates).
func (u *unitEnv) build(d *unitDecl, args []int64, m coll.Machine) (coll.Unit, error) {
	if d.fast != nil && args == nil && !unitFastOff {
		if out, ok := u.buildFast(d, m); ok {
			return out, nil
		}
	}
	// The launch shape shadows the file's constants, and the parameters
	// shadow both.
	// The environment lives on the stack for units of up to two
	// parameters (all of the library's): build runs for every unit
	// expression of a check (issue 13).
	var buf [4]constVal
	local := append(buf[:0], constVal{"blockDim", int64(m.BlockDim)}, constVal{"clusterDim", int64(m.ClusterDim)})
	name := d.name
	if len(args) > 0 {
		// The name as fmt.Sprint and strings.Join wrote it, in one
		// buffer: a parameterized unit is built for every loop or call
		// that names it (issue 13).
		var nb [64]byte
		buf := append(append(nb[:0], name...), '(')
		for i, a := range args {
			local = append(local, constVal{d.params[i], a})
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = strconv.AppendInt(buf, a, 10)
		}
		name = string(append(buf, ')'))
	}
	env := &consts{local: local, parent: u.c}
	// A parameterized library unit's coordinates in closed form
	// (unitparams.go), for its arguments.
	var pf *paramUnit
	if len(args) > 0 && len(args) == len(d.params) && !unitFastOff {
		pf = d.fastP
	}
	if len(d.domain) == 0 || len(d.domain) != len(d.box) {
		return coll.Unit{}, fmt.Errorf("collective unit %s: domain and box must have the same, nonzero length", name)
	}
	out := coll.Unit{Name: name, ScaledDim: d.scale}
	// Domain and Box in one array, each with its own capacity (an
	// append to either copies).
	n := len(d.domain)
	syms := u.syms(2 * n)
	out.Domain, out.Box = syms[:0:n], syms[n:n:2*n]
	for i := range d.domain {
		var dv int64
		var ok bool
		if pf != nil {
			dv, ok = pf.domain[i].eval(m, args)
		} else {
			dv, ok = env.eval(d.domain[i])
		}
		if !ok || dv < 1 {
			return coll.Unit{}, fmt.Errorf("collective unit %s: domain coordinate %s is not a positive integer for blockDim=%d, clusterDim=%d", name, exprString(d.domain[i]), m.BlockDim, m.ClusterDim)
		}
		out.Domain = append(out.Domain, coll.Const(int(dv)))
		if n, ok := d.box[i].(*syntax.Name); ok && n.Name == "_" {
			out.Box = append(out.Box, coll.AnySym)
			continue
		}
		var bv int64
		if pf != nil {
			bv, ok = pf.box[i].eval(m, args)
		} else {
			bv, ok = env.eval(d.box[i])
		}
		if !ok || bv < 1 {
			return coll.Unit{}, fmt.Errorf("collective unit %s: box coordinate %s is not a positive integer", name, exprString(d.box[i]))
		}
		out.Box = append(out.Box, coll.Const(int(bv)))
	}
	if d.scale >= len(out.Box) {
		out.ScaledDim = -1
	}
	return out, nil
}

// exprString prints an expression compactly for messages.
func exprString(e syntax.Expr) string {
	switch e := e.(type) {
	case nil:
		return ""
	case *syntax.Name:
		return e.Name
	case *syntax.IntLit:
		return e.Text
	case *syntax.FloatLit:
		return e.Text
	case *syntax.StringLit:
		return fmt.Sprintf("%q", e.Value)
	case *syntax.BoolLit:
		if e.Value {
			return "True"
		}
		return "False"
	case *syntax.Binary:
		return exprString(e.X) + " " + e.Op + " " + exprString(e.Y)
	case *syntax.Unary:
		if e.Op == "not" {
			return "not " + exprString(e.X)
		}
		return e.Op + exprString(e.X)
	case *syntax.Index:
		var s []string
		for _, i := range e.Indices {
			s = append(s, exprString(i))
		}
		return exprString(e.X) + "[" + strings.Join(s, ", ") + "]"
	case *syntax.Slice:
		return exprString(e.Lo) + ":" + exprString(e.Hi)
	case *syntax.Call:
		var s []string
		for _, a := range e.Args {
			s = append(s, exprString(a))
		}
		for _, k := range e.Kwargs {
			s = append(s, k.Name.Name+"="+exprString(k.Value))
		}
		return exprString(e.Fun) + "(" + strings.Join(s, ", ") + ")"
	case *syntax.Attr:
		return exprString(e.X) + "." + e.Name.Name
	case *syntax.List:
		var s []string
		for _, a := range e.Elems {
			s = append(s, exprString(a))
		}
		return "[" + strings.Join(s, ", ") + "]"
	case *syntax.Tuple:
		var s []string
		for _, a := range e.Elems {
			s = append(s, exprString(a))
		}
		return "(" + strings.Join(s, ", ") + ")"
	}
	return "?"
}

// ExprString prints an expression compactly (for reports of other packages).
func ExprString(e syntax.Expr) string { return exprString(e) }

// StartPos is the position of the first character of e (a binary
// expression's own position is its operator).
func StartPos(e syntax.Expr) diag.Pos {
	for {
		switch x := e.(type) {
		case *syntax.Binary:
			e = x.X
			continue
		case *syntax.Index:
			e = x.X
			continue
		case *syntax.Attr:
			e = x.X
			continue
		case *syntax.Call:
			e = x.Fun
			continue
		}
		return e.Pos()
	}
}
