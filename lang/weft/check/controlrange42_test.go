package check

import (
	"fmt"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestControlExact: controlExact (one walk, stop 42) reports what control
// reports and answers what exactRange answers, on index expressions of
// every node kind control and interval treat differently: literals,
// constants, iterators with and without a range, repeated iterators,
// sizes, data, undefined names, unary - and ~, the arithmetic operators
// (with zero, negative and non-constant divisors), comparisons, calls and
// config fields, in CPU and device code.
func TestControlExact(t *testing.T) {
	exprs := []string{
		"3", "N", "i", "j", "k", "n", "x", "nope", "-i", "~3", "not i",
		"i + j", "i - 2 * j", "i * j", "n * i", "i * n", "i * 4 + j",
		"i + i", "2 * i - i", "i / 2", "i // 2", "i % 4", "(i + 8) % 4",
		"i % 0", "i / -2", "i % n", "i / n", "(i + j) * 3 - N // 2",
		"i < j", "i and j", "f(i)", "cfg.a", "x[i]", "-(i * 2 + 1)",
		"N % 3 + i * (N // 4)", "j * j",
	}
	for _, device := range []bool{false, true} {
		for _, src := range exprs {
			e := parseIndex(t, src)
			var l1, l2 diag.List
			c1, c2 := exactChecker(&l1, device), exactChecker(&l2, device)
			c1.control(e)
			r1, ok1 := c1.exactRange(e)
			r2, ok2 := c2.controlExact(e)
			if r1 != r2 && (ok1 || ok2) || ok1 != ok2 {
				t.Errorf("%s (device %v): control+exactRange %v %v, controlExact %v %v", src, device, r1, ok1, r2, ok2)
			}
			if a, b := fmt.Sprint(messages(&l1)), fmt.Sprint(messages(&l2)); a != b {
				t.Errorf("%s (device %v): control reports %s, controlExact %s", src, device, a, b)
			}
		}
	}
}

func messages(l *diag.List) []string {
	var out []string
	for _, d := range l.Diags {
		out = append(out, d.Pos.String()+" "+d.Code+" "+d.Message)
	}
	return out
}

// parseIndex returns the index of `x[src] = 1.0` in a proc body.
func parseIndex(t *testing.T, src string) syntax.Expr {
	t.Helper()
	var errs diag.List
	f := syntax.Parse(diag.NewFile("t.weft", []byte("def p():\n    x["+src+"] = 1.0\n")), &errs)
	for _, d := range f.Decls {
		if p, ok := d.(*syntax.Proc); ok {
			return p.Body[0].(*syntax.Assign).LHS.(*syntax.Index).Indices[0]
		}
	}
	t.Fatalf("no proc for %s", src)
	return nil
}

// exactChecker is a checker inside a proc with a constant N = 12,
// iterators i in [0, 7], j in [1, 3] and k without a range, a size n and
// a tensor x.
func exactChecker(l *diag.List, device bool) *checker {
	c := &checker{lib: lib.MustStd(), errs: l, prog: &Program{Consts: map[string]int64{"N": 12}}, lean: true, device: device}
	c.proc = &Proc{Name: "p"}
	c.globals.set("N", &Symbol{Name: "N", Kind: KindConst, Value: 12, Param: -1})
	c.names.set("i", &Symbol{Name: "i", Kind: KindIter, Param: -1, rng: [2]int64{0, 7}, hasRng: true})
	c.names.set("j", &Symbol{Name: "j", Kind: KindIter, Param: -1, rng: [2]int64{1, 3}, hasRng: true})
	c.names.set("k", &Symbol{Name: "k", Kind: KindIter, Param: -1})
	c.names.set("n", &Symbol{Name: "n", Kind: KindSize, Param: 0})
	c.names.set("x", &Symbol{Name: "x", Kind: KindTensor, Param: -1, Elem: "f32"})
	return c
}

// TestConstValueNoConsts: with no Consts (no module-level constant) a
// name is no constant and constValue answers without a lookup (stop 42);
// with Consts made it looks the name up. Both answer alike for every
// kind of symbol but a constant, and the constant is found with Consts.
func TestConstValueNoConsts(t *testing.T) {
	var l diag.List
	c := exactChecker(&l, true)
	for _, src := range []string{"i", "j", "k", "n", "x", "nope", "i + 1", "-n", "n * 2"} {
		e := parseIndex(t, src)
		c.prog.Consts = nil
		v1, ok1 := c.constValue(e)
		c.prog.Consts = map[string]int64{}
		v2, ok2 := c.constValue(e)
		if v1 != v2 || ok1 != ok2 || ok1 {
			t.Errorf("%s: without Consts %d %v, with %d %v", src, v1, ok1, v2, ok2)
		}
	}
	c.prog.Consts = map[string]int64{"N": 12}
	if v, ok := c.constValue(parseIndex(t, "N * 2")); v != 24 || !ok {
		t.Errorf("N * 2 = %d %v", v, ok)
	}
}

// TestLoopBoundRange: a loop's bounds are ranged while they are checked,
// before the iterator is declared (stop 42). An iterator named like the
// module-level constant i = 4 shadows it and is refused (W0202, stop 44:
// no shadowing), so it is never declared and x[i] is the constant's
// index 4, out of bounds like x[j]'s range [0, 3] of the loop over j,
// ranged early.
func TestLoopBoundRange(t *testing.T) {
	src := "i = 4\n@proc\ndef p():\n    x: f32[2] @ DRAM\n    for i in seq(0, i):\n        x[i] = 0.0\n    for j in seq(0, 4):\n        x[j] = 0.0\n"
	var errs diag.List
	f := syntax.Parse(diag.NewFile("t.weft", []byte(src)), &errs)
	Lean(f, lib.MustStd(), &errs)
	var lines []int
	shadow := 0
	for _, d := range errs.Diags {
		switch d.Code {
		case "W0210":
			lines = append(lines, d.Pos.Line())
		case "W0202":
			if d.Pos.Line() == 5 && d.Pos.Col() == 9 {
				shadow++
			}
		}
	}
	if len(lines) != 2 || lines[0] != 6 || lines[1] != 8 || shadow != 1 {
		t.Errorf("bounds reports on lines %v, want [6 8], and W0202 at 5:9 %d times, want 1: %v", lines, shadow, messages(&errs))
	}
}

// TestKnownMemory: the memory an allocation or a parameter records as
// Memory's answer (knownMemory, stop 42) is the library's map's answer
// for the symbol's Mem, for every name of a memory in the library,
// aliases included (whose Mem is the memory's own name).
func TestKnownMemory(t *testing.T) {
	l := lib.MustStd()
	n := 0
	for name := range l.Memories {
		src := "def p(a: f32[16, 16] @ " + name + "):\n    x: f32[16, 16] @ " + name + "\n"
		var errs diag.List
		f := syntax.Parse(diag.NewFile("t.weft", []byte(src)), &errs)
		sp := f.Decls[0].(*syntax.Proc)
		c := &checker{lib: l, errs: &errs, prog: &Program{}, lean: true}
		c.proc = &Proc{Name: "p"}
		c.where = codeCPU
		syms := []*Symbol{c.paramSymbol(sp.Params[0], 0, false)}
		c.alloc(sp.Body[0].(*syntax.Alloc))
		syms = append(syms, c.names.get("x"))
		for _, s := range syms {
			if s == nil || s.memOf == nil {
				continue
			}
			n++
			if s.mem != l.Memories[s.Mem] || s.memKey != s.Mem || s.memOf != l {
				t.Errorf("%s: %s records %v for %s, the library has %v", name, s.Name, s.mem, s.Mem, l.Memories[s.Mem])
			}
		}
	}
	if n < len(l.Memories) {
		t.Errorf("%d symbols recorded a memory, for %d memories", n, len(l.Memories))
	}
}
