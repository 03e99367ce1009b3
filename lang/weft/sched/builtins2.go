package sched

import (
	"go.starlark.net/starlark"

	"weft.dev/weft/lang/weft/syntax"
)

// moreBuiltins binds the rewrites of dims.go, loops.go and vocab.go.
func (b *binding) moreBuiltins() map[string]builtinFn {
	m := map[string]builtinFn{
		"divide_dim": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var name allocArg
			var dim, q int
			if err := starlark.UnpackArgs("divide_dim", args, kwargs, "proc", p, "alloc", &name, "dim", &dim, "quotient", &q); err != nil {
				return nil, argErr("divide_dim", err, p)
			}
			return b.apply("divide_dim", p.proc, func(x *syntax.Proc) error { return b.ws.divideDim(x, name.name, dim, int64(q)) })
		},
		"mult_dim": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var name allocArg
			var hi, lo int
			if err := starlark.UnpackArgs("mult_dim", args, kwargs, "proc", p, "alloc", &name, "hi_dim", &hi, "lo_dim", &lo); err != nil {
				return nil, argErr("mult_dim", err, p)
			}
			return b.apply("mult_dim", p.proc, func(x *syntax.Proc) error { return b.ws.multDim(x, name.name, hi, lo) })
		},
		"pipeline_loop": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var loop selArg
			n := 1
			if err := starlark.UnpackArgs("pipeline_loop", args, kwargs, "proc", p, "loop", &loop, "n?", &n); err != nil {
				return nil, argErr("pipeline_loop", err, p)
			}
			return b.apply("pipeline_loop", p.proc, func(x *syntax.Proc) error { return b.ws.pipelineLoop(x, loop.text, n) })
		},
		"wrap_with_context": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var stmt selArg
			var ctx string
			count := 0
			if err := starlark.UnpackArgs("wrap_with_context", args, kwargs, "proc", p, "block", &stmt, "ctx", &ctx, "count?", &count); err != nil {
				return nil, argErr("wrap_with_context", err, p)
			}
			n := blockCount(count, &stmt)
			return b.apply("wrap_with_context", p.proc, func(x *syntax.Proc) error { return b.ws.wrapWithContext(x, stmt.text, n, ctx) })
		},
		"rewrite_expr": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var stmt selArg
			var old, new string
			count := 0
			if err := starlark.UnpackArgs("rewrite_expr", args, kwargs, "proc", p, "block", &stmt, "old", &old, "new", &new, "count?", &count); err != nil {
				return nil, argErr("rewrite_expr", err, p)
			}
			n := blockCount(count, &stmt)
			return b.apply("rewrite_expr", p.proc, func(x *syntax.Proc) error { return b.ws.rewriteExpr(x, stmt.text, n, old, new) })
		},

		"add_loop": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var blk selArg
			var name string
			var hi starlark.Value
			guard := false
			count := 0
			if err := starlark.UnpackArgs("add_loop", args, kwargs, "proc", p, "block", &blk, "iter", &name, "hi", &hi, "guard?", &guard, "count?", &count); err != nil {
				return nil, argErr("add_loop", err, p)
			}
			n, h := blockCount(count, &blk), starlarkText(hi)
			return b.apply("add_loop", p.proc, func(x *syntax.Proc) error { return b.ws.addLoop(x, blk.text, n, name, h, guard) })
		},
		"remove_loop":         b.loopOp("remove_loop", b.ws.removeLoop),
		"unroll_loop":         b.loopOp("unroll_loop", b.ws.unrollLoop),
		"lift_scope":          b.loopOp("lift_scope", b.ws.liftScope),
		"eliminate_dead_code": b.loopOp("eliminate_dead_code", b.ws.eliminateDeadCode),
		"join_loops":          b.pairOp("join_loops", b.ws.joinLoops),
		"fuse":                b.pairOp("fuse", b.ws.fuseLoops),
		"cut_loop":            b.loopExprOp("cut_loop", "cut", b.ws.cutLoop),
		"shift_loop":          b.loopExprOp("shift_loop", "new_lo", b.ws.shiftLoop),
		"mult_loops":          b.loopExprOp("mult_loops", "new_iter", b.ws.multLoops),
		"specialize": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var blk selArg
			var conds *starlark.List
			count := 0
			if err := starlark.UnpackArgs("specialize", args, kwargs, "proc", p, "block", &blk, "conds", &conds, "count?", &count); err != nil {
				return nil, argErr("specialize", err, p)
			}
			var cs []string
			for i := 0; i < conds.Len(); i++ {
				s, ok := starlark.AsString(conds.Index(i))
				if !ok {
					return nil, argErr("specialize", errorf(CodeArgs, "specialize: conds must be strings"))
				}
				cs = append(cs, s)
			}
			n := blockCount(count, &blk)
			return b.apply("specialize", p.proc, func(x *syntax.Proc) error { return b.ws.specialize(x, blk.text, n, cs) })
		},
		"insert_pass": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var where selArg
			before := false
			if err := starlark.UnpackArgs("insert_pass", args, kwargs, "proc", p, "where", &where, "before?", &before); err != nil {
				return nil, argErr("insert_pass", err, p)
			}
			return b.apply("insert_pass", p.proc, func(x *syntax.Proc) error { return b.ws.insertPass(x, where.text, before) })
		},
		"delete_pass": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			if err := starlark.UnpackArgs("delete_pass", args, kwargs, "proc", p); err != nil {
				return nil, argErr("delete_pass", err, p)
			}
			return b.apply("delete_pass", p.proc, b.ws.deletePass)
		},
		"delete_buffer": b.allocOp("delete_buffer", b.ws.deleteBuffer),
		"sink_alloc":    b.allocOp("sink_alloc", b.ws.sinkAlloc),
		"inline_window": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var name string
			if err := starlark.UnpackArgs("inline_window", args, kwargs, "proc", p, "window", &name); err != nil {
				return nil, argErr("inline_window", err, p)
			}
			return b.apply("inline_window", p.proc, func(x *syntax.Proc) error { return b.ws.inlineWindow(x, name) })
		},
		"resize_dim": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var name allocArg
			var dim int
			var size, off starlark.Value
			if err := starlark.UnpackArgs("resize_dim", args, kwargs, "proc", p, "alloc", &name, "dim", &dim, "size", &size, "offset", &off); err != nil {
				return nil, argErr("resize_dim", err, p)
			}
			sz, of := starlarkText(size), starlarkText(off)
			return b.apply("resize_dim", p.proc, func(x *syntax.Proc) error { return b.ws.resizeDim(x, name.name, dim, sz, of) })
		},
		"commute_expr": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var stmt selArg
			var e string
			if err := starlark.UnpackArgs("commute_expr", args, kwargs, "proc", p, "stmt", &stmt, "expr", &e); err != nil {
				return nil, argErr("commute_expr", err, p)
			}
			return b.apply("commute_expr", p.proc, func(x *syntax.Proc) error { return b.ws.commuteExpr(x, stmt.text, e) })
		},
		"bind_expr": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var stmt selArg
			var e, name string
			mem := "DRAM"
			if err := starlark.UnpackArgs("bind_expr", args, kwargs, "proc", p, "stmt", &stmt, "expr", &e, "new_name", &name, "memory?", &mem); err != nil {
				return nil, argErr("bind_expr", err, p)
			}
			return b.apply("bind_expr", p.proc, func(x *syntax.Proc) error { return b.ws.bindExpr(x, stmt.text, e, name, mem) })
		},

		"insert_window": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var where selArg
			var name, buf, mem string
			before := true
			if err := starlark.UnpackArgs("insert_window", args, kwargs, "proc", p, "where", &where, "name", &name, "buffer", &buf, "memory", &mem, "before?", &before); err != nil {
				return nil, argErr("insert_window", err, p)
			}
			return b.apply("insert_window", p.proc, func(x *syntax.Proc) error { return b.ws.insertWindow(x, where.text, name, buf, mem, before) })
		},
		"use_window": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var blk selArg
			var name string
			count := 0
			if err := starlark.UnpackArgs("use_window", args, kwargs, "proc", p, "block", &blk, "window", &name, "count?", &count); err != nil {
				return nil, argErr("use_window", err, p)
			}
			n := blockCount(count, &blk)
			return b.apply("use_window", p.proc, func(x *syntax.Proc) error { return b.ws.useWindow(x, blk.text, n, name) })
		},

		"copy_proc": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var name string
			if err := starlark.UnpackArgs("copy_proc", args, kwargs, "proc", p, "new_name", &name); err != nil {
				return nil, argErr("copy_proc", err, p)
			}
			if err := b.ws.copyProc(p.proc.name, name); err != nil {
				return nil, &opError{"copy_proc", err.(*schedError)}
			}
			b.res.Steps++
			return &Proc{ws: b.ws, name: name}, nil
		},
		"call_eqv": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var call selArg
			other := &procArg{b: b}
			if err := starlark.UnpackArgs("call_eqv", args, kwargs, "proc", p, "call", &call, "new_proc", other); err != nil {
				return nil, argErr("call_eqv", err, p, other)
			}
			return b.apply("call_eqv", p.proc, func(x *syntax.Proc) error { return b.ws.callEqv(x, call.text, other.proc.name) })
		},
		"inline": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var call selArg
			if err := starlark.UnpackArgs("inline", args, kwargs, "proc", p, "call", &call); err != nil {
				return nil, argErr("inline", err, p)
			}
			return b.apply("inline", p.proc, func(x *syntax.Proc) error { return b.ws.inlineCall(x, call.text) })
		},
		"extract_subproc": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var blk selArg
			var name string
			count := 0
			if err := starlark.UnpackArgs("extract_subproc", args, kwargs, "proc", p, "block", &blk, "name", &name, "count?", &count); err != nil {
				return nil, argErr("extract_subproc", err, p)
			}
			n := blockCount(count, &blk)
			v, err := b.apply("extract_subproc", p.proc, func(x *syntax.Proc) error { return b.ws.extractSubproc(x, blk.text, n, name) })
			if err != nil {
				return nil, err
			}
			return starlark.Tuple{v, &Proc{ws: b.ws, name: name}}, nil
		},
		"reuse_buffer": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var buf, repl allocArg
			if err := starlark.UnpackArgs("reuse_buffer", args, kwargs, "proc", p, "buf", &buf, "replace", &repl); err != nil {
				return nil, argErr("reuse_buffer", err, p)
			}
			return b.apply("reuse_buffer", p.proc, func(x *syntax.Proc) error { return b.ws.reuseBuffer(x, buf.name, repl.name) })
		},

		"set_precision": func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
			p := &procArg{b: b}
			var name allocArg
			var typ string
			if err := starlark.UnpackArgs("set_precision", args, kwargs, "proc", p, "alloc", &name, "typ", &typ); err != nil {
				return nil, argErr("set_precision", err, p)
			}
			return b.apply("set_precision", p.proc, func(x *syntax.Proc) error { return b.ws.setPrecision(x, name.name, typ) })
		},
	}
	return m
}

// loopOp binds an operation of (proc, stmt).
func (b *binding) loopOp(op string, f func(*syntax.Proc, string) error) builtinFn {
	return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		p := &procArg{b: b}
		var s selArg
		if err := starlark.UnpackArgs(op, args, kwargs, "proc", p, "stmt", &s); err != nil {
			return nil, argErr(op, err, p)
		}
		return b.apply(op, p.proc, func(x *syntax.Proc) error { return f(x, s.text) })
	}
}

// pairOp binds an operation of (proc, loop1[, loop2]) where loop2, if
// given, must be the statement right after loop1.
func (b *binding) pairOp(op string, f func(*syntax.Proc, string) error) builtinFn {
	return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		p := &procArg{b: b}
		var s1, s2 selArg
		if err := starlark.UnpackArgs(op, args, kwargs, "proc", p, "loop1", &s1, "loop2?", &s2); err != nil {
			return nil, argErr(op, err, p)
		}
		return b.apply(op, p.proc, func(x *syntax.Proc) error {
			if s2.text != "" {
				c1, err := b.ws.find(x, s1.text)
				if err != nil {
					return err
				}
				c2, err := b.ws.find(x, s2.text)
				if err != nil {
					return err
				}
				if c1.block() != c2.block() || c2.idx() != c1.idx()+1 {
					return errorf(CodeLoop, "%s: the second loop must be the statement right after the first", op).at(c1.stmt, "the first loop").at(c2.stmt, "the second loop")
				}
			}
			return f(x, s1.text)
		})
	}
}

// loopExprOp binds an operation of (proc, stmt, value).
func (b *binding) loopExprOp(op, what string, f func(*syntax.Proc, string, string) error) builtinFn {
	return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		p := &procArg{b: b}
		var s selArg
		var v starlark.Value
		if err := starlark.UnpackArgs(op, args, kwargs, "proc", p, "loop", &s, what, &v); err != nil {
			return nil, argErr(op, err, p)
		}
		t := starlarkText(v)
		return b.apply(op, p.proc, func(x *syntax.Proc) error { return f(x, s.text, t) })
	}
}

// allocOp binds an operation of (proc, alloc).
func (b *binding) allocOp(op string, f func(*syntax.Proc, string) error) builtinFn {
	return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		p := &procArg{b: b}
		var a allocArg
		if err := starlark.UnpackArgs(op, args, kwargs, "proc", p, "alloc", &a); err != nil {
			return nil, argErr(op, err, p)
		}
		return b.apply(op, p.proc, func(x *syntax.Proc) error { return f(x, a.name) })
	}
}
