package sched

import (
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

const patternSrc = `@proc
def f(N: size, x: f32[N] @ DRAM, y: f32[N] @ DRAM):
    assert N % 4 == 0
    acc: f32 @ DRAM
    acc = 0.0
    for i in seq(0, N):
        acc += x[i] * y[i]
        y[i] = acc
    for j in seq(0, N / 4):
        x[4 * j] = 1.0
    if N > 4:
        y[0] = 2.0
`

// TestPatterns pins the matching rules: the statements each pattern
// selects, by their canonical first line.
func TestPatterns(t *testing.T) {
	f := parseChecked(t, "p.weft", []byte(patternSrc))
	p := f.Decls[0].(*syntax.Proc)
	for _, tc := range []struct{ pat, want string }{
		{"for i in _", "for i in seq(0, N):"},
		{"for i in _:_", "for i in seq(0, N):"},
		{"for i in _: _", "for i in seq(0, N):"},
		{"i", "for i in seq(0, N):"},
		{"j", "for j in seq(0, N / 4):"},
		{"for _ in _ #1", "for j in seq(0, N / 4):"},
		{"for j in seq(0, N/4)", "for j in seq(0, N / 4):"},
		{"acc += _", "acc += x[i] * y[i]"},
		{"acc = _", "acc = 0.0"},
		{"acc: _", "acc: f32 @ DRAM"},
		{"acc : f32 @ _", "acc: f32 @ DRAM"},
		{"y[_] = _", "y[i] = acc"},
		{"y[_] = _ #1", "y[0] = 2.0"},
		{"x[4 * _] = _", "x[4 * j] = 1.0"},
		{"if _", "if N > 4:"},
		{"assert _", "assert N % 4 == 0"},
		{"_ #3", "for i in seq(0, N):"},
	} {
		c, err := find(p, tc.pat)
		if err != nil {
			t.Errorf("%q: %v", tc.pat, err)
			continue
		}
		if got := header(c.stmt); got != tc.want {
			t.Errorf("%q selects %q, want %q", tc.pat, got, tc.want)
		}
	}
	for _, tc := range []struct{ pat, err string }{
		{"", "empty pattern"},
		{"for i in (_", "unbalanced brackets"},
		{"x]", "unbalanced \"]\""},
		{"for i in _ #x", "want a match number"},
		{"x $ y", "unexpected character"},
		{"'abc", "unterminated string"},
		{"for k in _", "matches no statement"},
		{"y[_] = _ #2", "#2 is out of range"},
		{"for i in _(_", "unbalanced"},
	} {
		_, err := find(p, tc.pat)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: error %v, want %q", tc.pat, err, tc.err)
		}
	}
}

// FuzzPattern: no pattern text makes parsing or matching panic, and a
// parsed pattern is deterministic.
func FuzzPattern(f *testing.F) {
	for _, s := range []string{"for i in _", "for i in _:_", "i", "acc += _", "y[_] = _ #1", "acc: _", "x[4 * _] = _", "_", "#", "((", "'a", "_ #99999999999999999999", "for _ in _ #1"} {
		f.Add(s)
	}
	file := parseChecked(f, "p.weft", []byte(patternSrc))
	p := file.Decls[0].(*syntax.Proc)
	f.Fuzz(func(t *testing.T, text string) {
		pat, err := ParsePattern(text)
		if err != nil {
			return
		}
		var first []bool
		walkStmts(p.Body, func(s syntax.Stmt) { first = append(first, pat.Match(s)) })
		k := 0
		walkStmts(p.Body, func(s syntax.Stmt) {
			if pat.Match(s) != first[k] {
				t.Fatalf("%q: matching is not deterministic", text)
			}
			k++
		})
	})
}

// FuzzScript: no schedule script makes Run panic; every failure is a
// diagnostic with a code and a position in the script.
func FuzzScript(f *testing.F) {
	for _, s := range []string{
		`divide_loop(f, "i", 4, ["io", "ii"], tail = "guard")`,
		`reorder_stmts(f, "acc = _")`,
		`stage_mem(f, "for i in _", "x[0:N]", "xs", "DRAM")`,
		`replace(f, "acc += _", "cuda_fma_f32")`,
		`simplify(rename(f, "g"))`,
		`set_loop_mode(f, "j", "cuda_threads")`,
		`wrap_device_function(f, "i", blockDim = 32, count = 2)`,
		`print(f)`,
		`expand_dim(f, "acc", "N", "0")`,
		`lift_alloc(f, "acc")`,
		`fission(f, "acc += _")`,
		`reorder_dim(f, "acc", [])`,
		`add_assert(f, "N % 8 == 0")`,
		`x = [divide_loop(f, "j", k, ["a%d" % k, "b%d" % k]) for k in range(1, 3)]`,
		`c = f.find_loop("i"); print(c.body()[0].parent().next(), c.expand(after = 1)[1])`,
		`divide_dim(f, "acc", 0, 2); rearrange_dim(f, "acc", [0]); mult_dim(f, "acc", 0, 1)`,
		`pipeline_loop(f, f.find_loop("i"), 1)`,
		`rewrite_expr(f, "i", "i % 2", "1 - (i + 1) % 2")`,
		`wrap_with_context(f, f.body(), "CudaAsync(Sm80_cp_async)")`,
		`add_loop(f, "acc = _", "r", 2, guard = True); remove_loop(f, "r"); unroll_loop(f, "j")`,
		`cut_loop(f, "i", 1); shift_loop(f, "i #1", 0); join_loops(f, "i"); fuse(f, "i")`,
		`mult_loops(f, "i", "ij"); lift_scope(f, "for j in _"); specialize(f, "i", ["N > 2"])`,
		`insert_pass(f, "i"); delete_pass(f); eliminate_dead_code(f, "i")`,
		`delete_buffer(f, "acc"); sink_alloc(f, "acc"); resize_dim(f, "acc", 0, 1, 0)`,
		`commute_expr(f, "acc += _", "x[i] * 2.0"); bind_expr(f, "acc += _", "x[i]", "v"); inline_window(f, "w")`,
		`p, s = extract_subproc(f, "for j in _", "g"); c = copy_proc(s, "g2"); call_eqv(p, "g(_)", c); inline(p, "g2(_)")`,
		`reuse_buffer(f, "acc", "acc")`,
		`set_precision(f, "acc", "f64"); set_precision(f, f.find_alloc("acc"), "f16")`,
		// Guarded operators (guard.go).
		`x = [0] * 3; x *= 2; x += [1]; y = "a" * 4 + "b"; z = (1 << 40) * (1 << 40); print(sorted(range(3)), *x, **{"sep": ","})`,
		`def g(a, b = 2 * 3, *c, **d): return [a + b for _ in range(b) if a * b]
print(g(1, b = 4), (lambda q: q * 2)(3), {1: 2 + 3}[1], [1, 2][0:1] * 2)`,
	} {
		f.Add(s)
	}
	in := parseChecked(f, "p.weft", []byte(patternSrc))
	f.Fuzz(func(t *testing.T, script string) {
		var errs diag.List
		res := Run(in, diag.NewFile("s.star", []byte(script)), Options{Lib: lib.MustStd(), MaxSteps: 100000}, &errs)
		for _, d := range errs.Diags {
			if d.Code == "" || !d.Pos.IsValid() {
				t.Fatalf("diagnostic without code or position: %v", d)
			}
		}
		_ = syntax.Print(res.File)
	})
}
