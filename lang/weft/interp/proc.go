package interp

import (
	"fmt"
	"math"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/syntax"
)

// Kind classifies a parameter.
type Kind uint8

const (
	KindSize    Kind = iota // size: a positive control integer
	KindIndex               // index or stride: a control integer
	KindBool                // bool
	KindScalar              // a data scalar (f32 ...), passed by reference
	KindTensor              // a tensor f32[M, K]
	KindWindow              // a window [f32][M, K]
	KindBarrier             // a barrier: no sequential meaning
)

// Param is one parameter of a proc.
type Param struct {
	Name string
	Kind Kind
	Elem Elem          // data element type (KindScalar, KindTensor, KindWindow)
	Dims []syntax.Expr // declared shape (KindTensor, KindWindow)
	Pos  diag.Pos

	slot int     // frame slot: ints for control kinds, bufs for data kinds
	dims []cexpr // Dims compiled in the proc's own frame
}

// IsArray reports whether the parameter takes an array.
func (p *Param) IsArray() bool { return p.Kind == KindTensor || p.Kind == KindWindow }

// Proc is a compiled proc.
type Proc struct {
	Name   string
	Decl   *syntax.Proc
	Params []*Param

	prog   *Program
	nInts  int
	nBufs  int
	entry  func(fr *frame) // checks argument shapes, then runs the body
	failed bool
}

// frame is one activation of a proc.
type frame struct {
	ints   []int64
	bufs   []*view
	parent *frame
	site   diag.Pos // the call statement in parent
	depth  int
	budget *int64       // loop iterations and allocated elements left (Options.MaxSteps)
	cfg    *configState // config fields (root frame only; see frame.config)
}

// view is a tensor, a window into one, or a scalar (rank 0).
type view struct {
	mem     *cells
	off     int
	shape   []int
	strides []int
	elem    Elem
	name    string
}

// RuntimeError is a diagnostic raised while running (W08xx).
type RuntimeError struct{ Diag *diag.Diagnostic }

func (e *RuntimeError) Error() string { return e.Diag.Error() }

// fail aborts the run with a diagnostic at pos; each enclosing call adds a
// "called from here" note.
func fail(fr *frame, pos diag.Pos, code, format string, args ...any) {
	d := &diag.Diagnostic{Severity: diag.Error, Code: code, Pos: pos, Message: fmt.Sprintf(format, args...)}
	for f := fr; f != nil && f.parent != nil; {
		// A recursive call repeats one site: say it once, with a count.
		n := 1
		for f.parent.parent != nil && f.parent.site == f.site {
			f = f.parent
			n++
		}
		if n == 1 {
			d.Note(f.site, "called from here")
		} else {
			d.Note(f.site, "called from here (%d nested calls)", n)
		}
		f = f.parent
	}
	panic(&RuntimeError{Diag: d})
}

// maxDepth bounds the call depth: Weft procs do not recurse (a proc is
// inlined by codegen), so a deeper stack is a recursive call.
const maxDepth = 200

// Shape evaluates the declared shape of array parameter name for the given
// control arguments (sizes, indices; bools as 0/1).
func (p *Proc) Shape(name string, ctrl map[string]int64) ([]int, error) {
	fr := &frame{ints: make([]int64, p.nInts), bufs: make([]*view, p.nBufs)}
	var prm *Param
	for _, q := range p.Params {
		switch {
		case q.Name == name:
			prm = q
		case q.Kind == KindSize || q.Kind == KindIndex || q.Kind == KindBool:
			if v, ok := ctrl[q.Name]; ok {
				fr.ints[q.slot] = v
			}
		}
	}
	if prm == nil || !prm.IsArray() && prm.Kind != KindScalar {
		return nil, fmt.Errorf("%s has no array parameter %s", p.Name, name)
	}
	var shape []int
	err := catch(func() {
		for i, d := range prm.dims {
			for _, q := range p.Params {
				if (q.Kind == KindSize || q.Kind == KindIndex) && usesName(prm.Dims[i], q.Name) {
					if _, ok := ctrl[q.Name]; !ok {
						panic(fmt.Errorf("the shape of %s needs %s: give %s=VALUE", name, q.Name, q.Name))
					}
				}
			}
			n := d.eval(fr)
			if n < 0 {
				panic(fmt.Errorf("dimension %d of %s is %d", i, name, n))
			}
			shape = append(shape, int(n))
		}
	})
	return shape, err
}

func usesName(e syntax.Expr, name string) bool {
	switch e := e.(type) {
	case *syntax.Name:
		return e.Name == name
	case *syntax.Binary:
		return usesName(e.X, name) || usesName(e.Y, name)
	case *syntax.Unary:
		return usesName(e.X, name)
	}
	return false
}

// catch runs f, turning a RuntimeError or error panic into an error.
func catch(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			switch r := r.(type) {
			case *RuntimeError:
				err = r
			case error:
				err = r
			default:
				panic(r)
			}
		}
	}()
	f()
	return nil
}

// Call runs the proc. args maps parameter names to values: int64 (or int)
// for size/index, bool, float64 for a data scalar, *Array for a tensor or
// window (modified in place). An error is a *RuntimeError (with a
// diagnostic) or an argument error.
func (p *Proc) Call(args map[string]any) error {
	budget := p.prog.opts.MaxSteps
	if budget <= 0 {
		budget = math.MaxInt64
	}
	fr := &frame{ints: make([]int64, p.nInts), bufs: make([]*view, p.nBufs), budget: &budget}
	for _, q := range p.Params {
		v, ok := args[q.Name]
		if !ok {
			if q.Kind == KindBarrier {
				continue
			}
			return &RuntimeError{Diag: &diag.Diagnostic{Code: CodeArgValue, Pos: q.Pos, Message: fmt.Sprintf("missing argument %s", q.Name)}}
		}
		bad := func(want string) error {
			return &RuntimeError{Diag: &diag.Diagnostic{Code: CodeArgShape, Pos: q.Pos, Message: fmt.Sprintf("argument %s is %T, want %s", q.Name, v, want)}}
		}
		switch q.Kind {
		case KindSize, KindIndex:
			switch v := v.(type) {
			case int64:
				fr.ints[q.slot] = v
			case int:
				fr.ints[q.slot] = int64(v)
			default:
				return bad("an integer")
			}
		case KindBool:
			b, ok := v.(bool)
			if !ok {
				return bad("a bool")
			}
			if b {
				fr.ints[q.slot] = 1
			}
		case KindScalar:
			switch v := v.(type) {
			case float64:
				fr.bufs[q.slot] = &view{mem: scalarCells(q.Elem, round(q.Elem, v)), elem: q.Elem, name: q.Name}
			case *Array:
				if len(v.Shape) != 0 || v.Elem != q.Elem {
					return bad(fmt.Sprintf("a %s scalar", q.Elem))
				}
				fr.bufs[q.slot] = arrayView(v, q.Name)
			default:
				return bad("a number")
			}
		case KindTensor, KindWindow:
			a, ok := v.(*Array)
			if !ok {
				return bad("an array")
			}
			if a.Elem != q.Elem {
				return &RuntimeError{Diag: &diag.Diagnostic{Code: CodeArgShape, Pos: q.Pos, Message: fmt.Sprintf("argument %s has element type %s, want %s", q.Name, a.Elem, q.Elem)}}
			}
			fr.bufs[q.slot] = arrayView(a, q.Name)
		}
	}
	return catch(func() { p.entry(fr) })
}

func arrayView(a *Array, name string) *view {
	v := &view{mem: a.mem, shape: a.Shape, strides: make([]int, len(a.Shape)), elem: a.Elem, name: name}
	s := 1
	for i := len(a.Shape) - 1; i >= 0; i-- {
		v.strides[i] = s
		s *= a.Shape[i]
	}
	return v
}
