package sched

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"go.starlark.net/resolve"
	"go.starlark.net/starlark"
	stsyntax "go.starlark.net/syntax"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// Options configure Run.
type Options struct {
	Lib *lib.Library
	// Print receives the output of the script's print() (default: discarded).
	Print io.Writer
	// MaxSteps bounds the Starlark execution (0: 10 million steps).
	MaxSteps uint64
	// Timeout and MaxMemory bound the script's wall time and heap growth
	// (0: DefaultTimeout, DefaultMemory; limits.go).
	Timeout   time.Duration
	MaxMemory uint64
	// Trace, when set, receives the rewritten proc after every rewrite,
	// headed by the script line and the operation (weft sched --trace).
	Trace io.Writer
}

// Result is the scheduled file.
type Result struct {
	File *syntax.File
	// Steps is the number of rewrites applied.
	Steps int
	// Reassociated lists the rewrites that let two reductions into the same
	// element commute: their floating-point results may differ by
	// reassociation (seed 000 §2.3 treats reductions as commuting, as Exo
	// does).
	Reassociated []string
}

// Run executes a schedule script over f (which must have parsed and checked
// without errors; it is not modified) and returns the rewritten file.
// Script errors and failed preconditions are added to errs; the Result
// then holds the file as it was after the last successful rewrite.
func Run(f *syntax.File, script *diag.File, opts Options, errs *diag.List) *Result {
	ws := newWorkspace(deepCopyFile(f), opts.Lib)
	res := &Result{File: ws.file}
	predeclared := starlark.StringDict{}
	for _, d := range ws.file.Decls {
		if p, ok := d.(*syntax.Proc); ok && !isInstrDecl(p) {
			predeclared[p.Name.Name] = &Proc{ws: ws, name: p.Name.Name}
		}
	}
	b := &binding{ws: ws, res: res, trace: opts.Trace, script: script.Name}
	for name, fn := range b.builtins() {
		predeclared[name] = starlark.NewBuiltin(name, fn)
	}
	for name, fn := range b.moreBuiltins() {
		predeclared[name] = starlark.NewBuiltin(name, fn)
	}
	// Exo's name for reorder_dim.
	predeclared["rearrange_dim"] = predeclared["reorder_dim"]
	out := opts.Print
	if out == nil {
		out = io.Discard
	}
	thread := &starlark.Thread{Name: "sched", Print: func(_ *starlark.Thread, msg string) { fmt.Fprintln(out, msg) }}
	steps := opts.MaxSteps
	if steps == 0 {
		steps = 10_000_000
	}
	thread.SetMaxExecutionSteps(steps)
	fopts := &stsyntax.FileOptions{TopLevelControl: true, GlobalReassign: true, While: true}
	b.thread = thread
	if nulByte(script, errs) {
		return res
	}
	timeout, mem := opts.Timeout, opts.MaxMemory
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	if mem == 0 {
		mem = DefaultMemory
	}
	for name, fn := range guardBuiltins(mem) {
		predeclared[name] = fn
	}
	stop := watch(thread, timeout, mem)
	err := execGuarded(fopts, thread, script, predeclared)
	stop()
	if err != nil {
		reportScriptError(err, script, errs)
	}
	res.Reassociated = ws.reassoc
	return res
}

// execGuarded parses, guards (guardFile), compiles and runs the script.
func execGuarded(fopts *stsyntax.FileOptions, thread *starlark.Thread, script *diag.File, predeclared starlark.StringDict) error {
	f, err := fopts.Parse(script.Name, script.Src, 0)
	if err != nil {
		return err
	}
	guardFile(f)
	prog, err := starlark.FileProgram(f, predeclared.Has)
	if err != nil {
		return err
	}
	_, err = prog.Init(thread, predeclared)
	return err
}

func deepCopyFile(f *syntax.File) *syntax.File {
	c := &syntax.File{Name: f.Name, Trailing: append([]string{}, f.Trailing...)}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *syntax.Proc:
			c.Decls = append(c.Decls, cloneProc(d))
		default:
			c.Decls = append(c.Decls, d)
		}
	}
	return c
}

// scriptPos converts a Starlark position to a diagnostic position.
func scriptPos(sf *diag.File, p stsyntax.Position) diag.Pos {
	if !p.IsValid() {
		return diag.Pos{File: sf}
	}
	return sf.At(sf.Offset(int(p.Line), int(p.Col)))
}

// callPos moves a call frame's position (Starlark reports the open
// parenthesis) back to the start of the callee's name.
func callPos(sf *diag.File, p stsyntax.Position) diag.Pos {
	pos := scriptPos(sf, p)
	off := pos.Offset
	if off < len(sf.Src) && sf.Src[off] == '(' {
		for off > 0 && isIdentByte(sf.Src[off-1]) {
			off--
		}
	}
	return sf.At(off)
}

func isIdentByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.'
}

// opError is a failed scheduling operation, with the script position of
// its call.
type opError struct {
	op  string
	err *schedError
}

func (e *opError) Error() string { return e.err.msg }

func reportScriptError(err error, sf *diag.File, errs *diag.List) {
	var serr stsyntax.Error
	var rerrs resolve.ErrorList
	var eerr *starlark.EvalError
	switch {
	case errors.As(err, &serr):
		errs.Errorf(scriptPos(sf, serr.Pos), CodeScript, "schedule script: %s", serr.Msg)
	case errors.As(err, &rerrs):
		for _, e := range rerrs {
			errs.Errorf(scriptPos(sf, e.Pos), CodeScript, "schedule script: %s", e.Msg)
		}
	case errors.As(err, &eerr):
		// The innermost frame in the script is where the error happened.
		var pos stsyntax.Position
		for i := 0; i < len(eerr.CallStack); i++ {
			fr := eerr.CallStack.At(i)
			if fr.Pos.Filename() == sf.Name {
				pos = fr.Pos
				break
			}
		}
		var oe *opError
		if errors.As(err, &oe) {
			d := errs.Errorf(callPos(sf, pos), oe.err.code, "%s", oe.err.msg)
			d.Notes = append(d.Notes, oe.err.notes...)
			return
		}
		errs.Errorf(callPos(sf, pos), CodeScript, "schedule script: %s", eerr.Msg)
	default:
		errs.Errorf(diag.Pos{File: sf}, CodeScript, "schedule script: %v", err)
	}
}

// Proc is a proc of the workspace as a Starlark value. print(p) shows its
// canonical text; p.name is its name.
type Proc struct {
	ws   *workspace
	name string
}

func (p *Proc) String() string {
	d, _, err := p.ws.proc(p.name)
	if err != nil {
		return "<proc " + p.name + " (gone)>"
	}
	text := syntax.Print(&syntax.File{Decls: []syntax.Decl{d}})
	return strings.TrimRight(text, "\n")
}
func (p *Proc) Type() string          { return "proc" }
func (p *Proc) Freeze()               {}
func (p *Proc) Truth() starlark.Bool  { return true }
func (p *Proc) Hash() (uint32, error) { return starlark.String(p.name).Hash() }
func (p *Proc) Attr(name string) (starlark.Value, error) {
	switch name {
	case "name":
		return starlark.String(p.name), nil
	case "find", "find_loop", "find_alloc", "body":
		return p.method(name), nil
	}
	return nil, nil
}
func (p *Proc) AttrNames() []string {
	return []string{"body", "find", "find_alloc", "find_loop", "name"}
}

type binding struct {
	ws     *workspace
	res    *Result
	trace  io.Writer
	script string
	thread *starlark.Thread
}

// selArg is a statement selector argument: a cursor pattern string or a
// Cursor (passed on to the rewrite as its token, see cursor.go). count is
// the block length of a block cursor (0 for a pattern).
type selArg struct {
	text  string
	count int
}

func (a *selArg) Unpack(v starlark.Value) error {
	switch v := v.(type) {
	case starlark.String:
		a.text = string(v)
		return nil
	case *Cursor:
		// A dead cursor is reported by the rewrite's lookup (W0954).
		a.text = v.token()
		a.count = v.count
		return nil
	}
	return fmt.Errorf("want a cursor pattern (string) or a cursor, got %s", v.Type())
}

// blockCount is the count of a block operation: explicit, else the block
// cursor's length, else 1.
func blockCount(explicit int, s *selArg) int {
	if explicit > 0 {
		return explicit
	}
	if s.count > 0 {
		return s.count
	}
	return 1
}

// allocArg is an allocation name or a cursor at an allocation.
type allocArg struct{ name string }

func (a *allocArg) Unpack(v starlark.Value) error {
	switch v := v.(type) {
	case starlark.String:
		a.name = string(v)
		return nil
	case *Cursor:
		if v.dead != "" {
			return errorf(CodeNoMatch, "the cursor no longer points at a statement: %s", v.dead)
		}
		al, ok := v.stmt.(*syntax.Alloc)
		if !ok {
			return errorf(CodeNoMatch, "the cursor points at %s, not an allocation", stmtKind(v.stmt)).at(v.stmt, "this statement")
		}
		a.name = al.Name.Name
		return nil
	}
	return fmt.Errorf("want an allocation name or a cursor, got %s", v.Type())
}

// scriptLine is the innermost script position of the running call, for
// --trace.
func (b *binding) scriptLine() string {
	if b.thread == nil {
		return b.script
	}
	stack := b.thread.CallStack()
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i].Pos.Filename() == b.script {
			return fmt.Sprintf("%s:%d", b.script, stack[i].Pos.Line)
		}
	}
	return b.script
}

type builtinFn = func(*starlark.Thread, *starlark.Builtin, starlark.Tuple, []starlark.Tuple) (starlark.Value, error)

// procArg accepts a Proc value or a proc name.
type procArg struct {
	b    *binding
	proc *Proc
	err  *schedError // an unknown proc name, kept for its code
}

func (a *procArg) Unpack(v starlark.Value) error {
	switch v := v.(type) {
	case *Proc:
		a.proc = v
		return nil
	case starlark.String:
		if _, _, err := a.b.ws.proc(string(v)); err != nil {
			a.err = err.(*schedError)
			return err
		}
		a.proc = &Proc{ws: a.b.ws, name: string(v)}
		return nil
	}
	return fmt.Errorf("want a proc or a proc name, got %s", v.Type())
}

// apply runs one rewrite on a copy of the proc and commits it on success.
func (b *binding) apply(op string, p *Proc, f func(q *syntax.Proc) error) (starlark.Value, error) {
	d, i, err := b.ws.proc(p.name)
	if err != nil {
		return nil, &opError{op, err.(*schedError)}
	}
	w := b.ws
	cmap := map[syntax.Stmt]syntax.Stmt{}
	q := cloneProcRec(d, cmap)
	w.cmap, w.fwd, w.cdecl = cmap, map[syntax.Stmt]syntax.Stmt{}, i
	w.pendingProcs = nil
	err = f(q)
	fwd := w.fwd
	w.cmap, w.fwd = nil, nil
	if err != nil {
		w.pendingProcs = nil
		se, ok := err.(*schedError)
		if !ok {
			se = errorf(CodeArgs, "%s: %v", op, err)
		}
		return nil, &opError{op, se}
	}
	w.file.Decls[i] = q
	w.class(i)
	for _, np := range w.pendingProcs {
		w.file.Decls = append(w.file.Decls, np)
		w.class(len(w.file.Decls) - 1)
	}
	w.pendingProcs = nil
	if op == "add_assert" {
		w.newClass(i)
	}
	line := b.scriptLine()
	w.forwardCursors(i, q, cmap, fwd, fmt.Sprintf("%s (%s)", op, line))
	p.name = q.Name.Name
	b.res.Steps++
	if b.trace != nil {
		fmt.Fprintf(b.trace, "# %s: %s\n%s\n\n", line, op, p.String())
	}
	return p, nil
}

// argErr wraps an argument unpacking error.
func argErr(op string, err error, p ...*procArg) error {
	if len(p) > 0 && p[0].err != nil {
		return &opError{op, p[0].err}
	}
	var se *schedError
	if errors.As(err, &se) {
		return &opError{op, se}
	}
	return &opError{op, errorf(CodeArgs, "%v", err)}
}

// weftValue converts a Starlark int or string to a Weft expression.
func weftValue(op, what string, v starlark.Value) (syntax.Expr, error) {
	switch v := v.(type) {
	case starlark.Int:
		n, ok := v.Int64()
		if !ok {
			return nil, errorf(CodeArgs, "%s: %s=%s is out of range", op, what, v)
		}
		if n < 0 {
			return &syntax.Unary{Op: "-", X: intLit(-n)}, nil
		}
		return intLit(n), nil
	case starlark.String:
		e, err := parseExpr(string(v))
		if err != nil {
			return nil, errorf(CodeArgs, "%s: %s: %v", op, what, err)
		}
		return e, nil
	case starlark.Bool:
		return &syntax.BoolLit{Value: bool(v)}, nil
	}
	return nil, errorf(CodeArgs, "%s: %s must be an int or a string, got %s", op, what, v.Type())
}

func (b *binding) builtins() map[string]builtinFn {
	return map[string]builtinFn{
		"proc": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			if err := starlark.UnpackPositionalArgs("proc", args, kwargs, 1, p); err != nil {
				return nil, argErr("proc", err, p)
			}
			return p.proc, nil
		},
		"divide_loop": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var loop selArg
			tail := "cut"
			var factor int
			var names *starlark.List
			perfect := false
			if err := starlark.UnpackArgs("divide_loop", args, kwargs, "proc", p, "loop", &loop, "factor", &factor, "names", &names, "tail?", &tail, "perfect?", &perfect); err != nil {
				return nil, argErr("divide_loop", err, p)
			}
			if perfect {
				// Exo's spelling of tail="perfect".
				tail = "perfect"
			}
			if names.Len() != 2 {
				return nil, argErr("divide_loop", fmt.Errorf("divide_loop: names must be [outer, inner], got %d names", names.Len()))
			}
			o, ok1 := starlark.AsString(names.Index(0))
			in, ok2 := starlark.AsString(names.Index(1))
			if !ok1 || !ok2 {
				return nil, argErr("divide_loop", fmt.Errorf("divide_loop: names must be two strings"))
			}
			return b.apply("divide_loop", p.proc, func(q *syntax.Proc) error {
				return b.ws.divideLoop(q, loop.text, int64(factor), o, in, tail)
			})
		},
		"reorder_loops": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var loop selArg
			if err := starlark.UnpackArgs("reorder_loops", args, kwargs, "proc", p, "loop", &loop); err != nil {
				return nil, argErr("reorder_loops", err, p)
			}
			return b.apply("reorder_loops", p.proc, func(q *syntax.Proc) error { return b.ws.reorderLoops(q, loop.text) })
		},
		"fission": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var stmt selArg
			lifts := 1
			if err := starlark.UnpackArgs("fission", args, kwargs, "proc", p, "stmt", &stmt, "n_lifts?", &lifts); err != nil {
				return nil, argErr("fission", err, p)
			}
			return b.apply("fission", p.proc, func(q *syntax.Proc) error { return b.ws.fissionN(q, stmt.text, lifts) })
		},
		"expand_dim": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var name allocArg
			var size, index starlark.Value
			if err := starlark.UnpackArgs("expand_dim", args, kwargs, "proc", p, "alloc", &name, "size", &size, "index", &index); err != nil {
				return nil, argErr("expand_dim", err, p)
			}
			sz, ix := starlarkText(size), starlarkText(index)
			return b.apply("expand_dim", p.proc, func(q *syntax.Proc) error { return b.ws.expandDim(q, name.name, sz, ix) })
		},
		"lift_alloc": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var name allocArg
			lifts := 1
			if err := starlark.UnpackArgs("lift_alloc", args, kwargs, "proc", p, "alloc", &name, "n_lifts?", &lifts); err != nil {
				return nil, argErr("lift_alloc", err, p)
			}
			return b.apply("lift_alloc", p.proc, func(q *syntax.Proc) error {
				if lifts < 1 {
					return errorf(CodeArgs, "lift_alloc: n_lifts=%d must be at least 1", lifts)
				}
				for k := 0; k < lifts; k++ {
					if err := b.ws.liftAlloc(q, name.name); err != nil {
						return err
					}
				}
				return nil
			})
		},
		"reorder_dim": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var name allocArg
			var perm *starlark.List
			if err := starlark.UnpackArgs("reorder_dim", args, kwargs, "proc", p, "alloc", &name, "perm", &perm); err != nil {
				return nil, argErr("reorder_dim", err, p)
			}
			var ps []int
			for i := 0; i < perm.Len(); i++ {
				k, err := starlark.AsInt32(perm.Index(i))
				if err != nil {
					return nil, argErr("reorder_dim", fmt.Errorf("reorder_dim: perm must be a list of ints"))
				}
				ps = append(ps, k)
			}
			return b.apply("reorder_dim", p.proc, func(q *syntax.Proc) error { return b.ws.reorderDim(q, name.name, ps) })
		},
		"reorder_stmts": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var stmt selArg
			if err := starlark.UnpackArgs("reorder_stmts", args, kwargs, "proc", p, "stmt", &stmt); err != nil {
				return nil, argErr("reorder_stmts", err, p)
			}
			return b.apply("reorder_stmts", p.proc, func(q *syntax.Proc) error { return b.ws.reorderStmts(q, stmt.text) })
		},
		"set_loop_mode": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var loop selArg
			var mode, unit string
			unroll := -1
			if err := starlark.UnpackArgs("set_loop_mode", args, kwargs, "proc", p, "loop", &loop, "mode", &mode, "unit?", &unit, "pragma_unroll?", &unroll); err != nil {
				return nil, argErr("set_loop_mode", err, p)
			}
			return b.apply("set_loop_mode", p.proc, func(q *syntax.Proc) error {
				return b.ws.setLoopMode(q, loop.text, mode, unit, int64(unroll))
			})
		},
		"wrap_device_function": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var stmt selArg
			count := 0
			var blockDim, clusterDim, blocksPerSM, warpConfig starlark.Value
			if err := starlark.UnpackArgs("wrap_device_function", args, kwargs, "proc", p, "stmt", &stmt, "blockDim?", &blockDim,
				"clusterDim?", &clusterDim, "blocks_per_sm?", &blocksPerSM, "warp_config?", &warpConfig, "count?", &count); err != nil {
				return nil, argErr("wrap_device_function", err, p)
			}
			var kws []*syntax.Kwarg
			for _, kv := range []struct {
				name string
				v    starlark.Value
			}{{"blockDim", blockDim}, {"clusterDim", clusterDim}, {"blocks_per_sm", blocksPerSM}, {"warp_config", warpConfig}} {
				if kv.v == nil || kv.v == starlark.None {
					continue
				}
				e, err := weftValue("wrap_device_function", kv.name, kv.v)
				if err != nil {
					return nil, argErr("wrap_device_function", err, p)
				}
				kws = append(kws, &syntax.Kwarg{Name: &syntax.Name{Name: kv.name}, Value: e})
			}
			n := blockCount(count, &stmt)
			return b.apply("wrap_device_function", p.proc, func(q *syntax.Proc) error { return b.ws.wrapDeviceFunction(q, stmt.text, n, kws) })
		},
		"set_memory": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			if len(args) < 3 {
				return nil, argErr("set_memory", fmt.Errorf("set_memory: want (proc, name, memory, *memory_args), got %d arguments", len(args)))
			}
			p := &procArg{b: b}
			var name, mem string
			if err := starlark.UnpackPositionalArgs("set_memory", args[:3], kwargs, 3, p, &name, &mem); err != nil {
				return nil, argErr("set_memory", err, p)
			}
			var margs []syntax.Expr
			for i, a := range args[3:] {
				e, err := weftValue("set_memory", fmt.Sprintf("memory argument %d", i+1), a)
				if err != nil {
					return nil, argErr("set_memory", err, p)
				}
				margs = append(margs, e)
			}
			return b.apply("set_memory", p.proc, func(q *syntax.Proc) error { return b.ws.setMemory(q, name, mem, margs) })
		},
		"stage_mem": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var block selArg
			var window, newName, mem string
			count := 0
			accum := false
			if err := starlark.UnpackArgs("stage_mem", args, kwargs, "proc", p, "block", &block, "window", &window, "new_name", &newName, "memory", &mem, "count?", &count, "accum?", &accum); err != nil {
				return nil, argErr("stage_mem", err, p)
			}
			n := blockCount(count, &block)
			return b.apply("stage_mem", p.proc, func(q *syntax.Proc) error {
				return b.ws.stageMemAcc(q, block.text, n, window, newName, mem, accum)
			})
		},
		"replace": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var block selArg
			var instr string
			count := 0
			var bars *starlark.List
			if err := starlark.UnpackArgs("replace", args, kwargs, "proc", p, "block", &block, "instr", &instr, "count?", &count, "barriers?", &bars); err != nil {
				return nil, argErr("replace", err, p)
			}
			bs, err := stringList("replace", "barriers", bars)
			if err != nil {
				return nil, argErr("replace", err, p)
			}
			n := blockCount(count, &block)
			return b.apply("replace", p.proc, func(q *syntax.Proc) error { return b.ws.replaceBar(q, block.text, n, instr, bs) })
		},
		"insert_fence": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var where selArg
			var first, second string
			before := false
			if err := starlark.UnpackArgs("insert_fence", args, kwargs, "proc", p, "where", &where, "first", &first, "second", &second, "before?", &before); err != nil {
				return nil, argErr("insert_fence", err, p)
			}
			return b.apply("insert_fence", p.proc, func(q *syntax.Proc) error {
				a, err := b.ws.syncTL("insert_fence", first)
				if err != nil {
					return err
				}
				c, err := b.ws.syncTL("insert_fence", second)
				if err != nil {
					return err
				}
				return b.ws.insertSync(q, where.text, before, &syntax.Fence{First: a, Second: c})
			})
		},
		"insert_arrive": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var where selArg
			var tl, bar, cond string
			var n starlark.Value = starlark.MakeInt(1)
			before, reverse := false, false
			if err := starlark.UnpackArgs("insert_arrive", args, kwargs, "proc", p, "where", &where, "tl", &tl, "barrier", &bar, "n?", &n, "before?", &before, "reverse?", &reverse, "cond?", &cond); err != nil {
				return nil, argErr("insert_arrive", err, p)
			}
			ne, err := weftValue("insert_arrive", "n", n)
			if err != nil {
				return nil, argErr("insert_arrive", err, p)
			}
			return b.apply("insert_arrive", p.proc, func(q *syntax.Proc) error {
				t, err := b.ws.syncTL("insert_arrive", tl)
				if err != nil {
					return err
				}
				be, err := b.ws.barrierRef(q, "insert_arrive", bar)
				if err != nil {
					return err
				}
				return b.ws.insertSyncIf(q, where.text, before, cond, &syntax.Arrive{Reverse: reverse, TL: t, N: ne, Barriers: []syntax.Expr{be}})
			})
		},
		"insert_await": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var where selArg
			var bar, tl, cond string
			var n starlark.Value = starlark.MakeInt(0)
			before, reverse := false, false
			if err := starlark.UnpackArgs("insert_await", args, kwargs, "proc", p, "where", &where, "barrier", &bar, "tl", &tl, "n?", &n, "before?", &before, "reverse?", &reverse, "cond?", &cond); err != nil {
				return nil, argErr("insert_await", err, p)
			}
			ne, err := weftValue("insert_await", "n", n)
			if err != nil {
				return nil, argErr("insert_await", err, p)
			}
			return b.apply("insert_await", p.proc, func(q *syntax.Proc) error {
				t, err := b.ws.syncTL("insert_await", tl)
				if err != nil {
					return err
				}
				be, err := b.ws.barrierRef(q, "insert_await", bar)
				if err != nil {
					return err
				}
				return b.ws.insertSyncIf(q, where.text, before, cond, &syntax.Await{Reverse: reverse, Bar: be, TL: t, N: ne})
			})
		},
		"new_barrier": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var where selArg
			var name, mem string
			var dims *starlark.List
			before := true
			if err := starlark.UnpackArgs("new_barrier", args, kwargs, "proc", p, "where", &where, "name", &name, "memory", &mem, "dims?", &dims, "before?", &before); err != nil {
				return nil, argErr("new_barrier", err, p)
			}
			var ds []syntax.Expr
			if dims != nil {
				for i := 0; i < dims.Len(); i++ {
					e, err := weftValue("new_barrier", "dims", dims.Index(i))
					if err != nil {
						return nil, argErr("new_barrier", err, p)
					}
					ds = append(ds, e)
				}
			}
			return b.apply("new_barrier", p.proc, func(q *syntax.Proc) error { return b.ws.newBarrier(q, where.text, before, name, mem, ds) })
		},
		"simplify": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			if err := starlark.UnpackArgs("simplify", args, kwargs, "proc", p); err != nil {
				return nil, argErr("simplify", err, p)
			}
			return b.apply("simplify", p.proc, b.ws.simplify)
		},
		"rename": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var name string
			if err := starlark.UnpackArgs("rename", args, kwargs, "proc", p, "name", &name); err != nil {
				return nil, argErr("rename", err, p)
			}
			return b.apply("rename", p.proc, func(q *syntax.Proc) error { return b.ws.rename(q, name) })
		},
		"add_assert": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var cond string
			if err := starlark.UnpackArgs("add_assert", args, kwargs, "proc", p, "cond", &cond); err != nil {
				return nil, argErr("add_assert", err, p)
			}
			return b.apply("add_assert", p.proc, func(q *syntax.Proc) error { return b.ws.addAssert(q, cond) })
		},
	}
}

// starlarkText is the Weft text of an int or string argument.
func starlarkText(v starlark.Value) string {
	if s, ok := starlark.AsString(v); ok {
		return s
	}
	return v.String()
}

// stringList converts an optional Starlark list of strings.
func stringList(op, what string, l *starlark.List) ([]string, error) {
	if l == nil {
		return nil, nil
	}
	var out []string
	for i := 0; i < l.Len(); i++ {
		s, ok := starlark.AsString(l.Index(i))
		if !ok {
			return nil, errorf(CodeArgs, "%s: %s must be a list of strings", op, what)
		}
		out = append(out, s)
	}
	return out, nil
}
