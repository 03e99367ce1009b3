package interp

import (
	"fmt"
	"sort"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/syntax"
)

// Options configure a Program.
type Options struct {
	// Procs resolves a called name that the file does not declare: the
	// standard library's instructions and helper procs. May be nil.
	Procs func(name string) *syntax.Proc
	// MaxSteps bounds the work of one Call: loop iterations plus allocated
	// elements plus calls (0: no bound). Exceeding it is diagnostic W0811.
	MaxSteps int64
	// MaxMemory bounds the bytes of the array arguments together (Bind)
	// and of each allocation (W0813); 0: DefaultMaxMemory.
	MaxMemory int64
}

// DefaultMaxMemory is the default of Options.MaxMemory (issue 14: every
// interpreter has a default limit, and a huge size is a diagnostic, not an
// out-of-memory crash). Elements take their type's width (cells).
const DefaultMaxMemory = 4 << 30

func (o *Options) maxMemory() int64 {
	if o.MaxMemory <= 0 {
		return DefaultMaxMemory
	}
	return o.MaxMemory
}

// Program is a parsed file ready to run. Procs are compiled on first use,
// together with every proc they call.
type Program struct {
	file     *syntax.File
	opts     Options
	decls    map[string]*syntax.Proc
	order    []*syntax.Proc
	globals  map[string]syntax.Expr
	consts   map[string]int64
	procs    map[*syntax.Proc]*Proc
	pending  []*Proc
	compErrs diag.List
}

// New prepares f (which should have parsed without errors) for running.
func New(f *syntax.File, opts Options) *Program {
	p := &Program{
		file:    f,
		opts:    opts,
		decls:   map[string]*syntax.Proc{},
		globals: map[string]syntax.Expr{},
		consts:  map[string]int64{},
		procs:   map[*syntax.Proc]*Proc{},
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *syntax.Proc:
			if _, dup := p.decls[d.Name.Name]; !dup {
				p.decls[d.Name.Name] = d
				p.order = append(p.order, d)
			}
		case *syntax.Global:
			if len(d.Values) == len(d.Names) {
				for i, n := range d.Names {
					p.globals[n.Name] = d.Values[i]
				}
			} else if len(d.Values) == 1 {
				if t, ok := d.Values[0].(*syntax.Tuple); ok && len(t.Elems) == len(d.Names) {
					for i, n := range d.Names {
						p.globals[n.Name] = t.Elems[i]
					}
				}
			}
		}
	}
	return p
}

// IsInstr reports whether decl is an instruction declaration (@instr).
func IsInstr(decl *syntax.Proc) bool {
	for _, d := range decl.Decorators {
		if c, ok := d.(*syntax.Call); ok {
			d = c.Fun
		}
		if n, ok := d.(*syntax.Name); ok && n.Name == "instr" {
			return true
		}
	}
	return false
}

// Main returns the proc to run: the one named name, or if name is "" the
// file's only proc that is not an instruction declaration. Compile errors of
// the proc and everything it calls are returned as a *diag.List error.
func (p *Program) Main(name string) (*Proc, error) {
	var decl *syntax.Proc
	if name != "" {
		decl = p.decls[name]
		if decl == nil {
			return nil, fmt.Errorf("no proc %q in %s (procs: %s)", name, p.file.Name, strings.Join(p.names(), ", "))
		}
	} else {
		var cands []*syntax.Proc
		for _, d := range p.order {
			if !IsInstr(d) {
				cands = append(cands, d)
			}
		}
		switch len(cands) {
		case 0:
			return nil, fmt.Errorf("%s declares no proc to run", p.file.Name)
		case 1:
			decl = cands[0]
		default:
			return nil, fmt.Errorf("%s declares several procs; choose one with --proc (procs: %s)", p.file.Name, strings.Join(p.names(), ", "))
		}
	}
	return p.Proc(decl)
}

func (p *Program) names() []string {
	var ns []string
	for _, d := range p.order {
		if !IsInstr(d) {
			ns = append(ns, d.Name.Name)
		}
	}
	sort.Strings(ns)
	return ns
}

// Proc compiles decl and every proc it calls.
func (p *Program) Proc(decl *syntax.Proc) (*Proc, error) {
	pr := p.procFor(decl)
	for len(p.pending) > 0 {
		q := p.pending[0]
		p.pending = p.pending[1:]
		compileBody(p, q)
	}
	if p.compErrs.HasErrors() {
		p.compErrs.Sort()
		return nil, p.compErrs.Err()
	}
	return pr, nil
}

// lookup returns the proc called name: the file's own first, then the
// library's.
func (p *Program) lookup(name string) *syntax.Proc {
	if d := p.decls[name]; d != nil {
		return d
	}
	if p.opts.Procs != nil {
		return p.opts.Procs(name)
	}
	return nil
}

// procFor returns the Proc of decl with its parameters resolved, queueing
// its body for compilation the first time.
func (p *Program) procFor(decl *syntax.Proc) *Proc {
	if pr := p.procs[decl]; pr != nil {
		return pr
	}
	pr := &Proc{Name: decl.Name.Name, Decl: decl, prog: p}
	p.procs[decl] = pr
	p.pending = append(p.pending, pr)
	return pr
}

// constant evaluates the global name as an integer constant (module-level
// `Mw, Nw = 96, 64`).
func (p *Program) constant(name string, depth int) (int64, bool) {
	if v, ok := p.consts[name]; ok {
		return v, true
	}
	e, ok := p.globals[name]
	if !ok || depth > 32 {
		return 0, false
	}
	v, ok := p.constExpr(e, depth+1)
	if ok {
		p.consts[name] = v
	}
	return v, ok
}

func (p *Program) constExpr(e syntax.Expr, depth int) (int64, bool) {
	switch e := e.(type) {
	case *syntax.IntLit:
		return e.Value, true
	case *syntax.Name:
		return p.constant(e.Name, depth)
	case *syntax.Unary:
		if e.Op == "-" {
			v, ok := p.constExpr(e.X, depth)
			return -v, ok
		}
	case *syntax.Binary:
		x, ok1 := p.constExpr(e.X, depth)
		y, ok2 := p.constExpr(e.Y, depth)
		if !ok1 || !ok2 {
			return 0, false
		}
		return intOp(e.Op, x, y)
	}
	return 0, false
}

// intOp applies a control operator (floor division and modulo, seed 000
// §3.1): check.ControlOp, shared with the checker.
func intOp(op string, x, y int64) (int64, bool) { return check.ControlOp(op, x, y) }
