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
	}
	return m
}
