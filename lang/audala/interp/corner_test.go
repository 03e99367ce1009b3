package interp

import (
	"bytes"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/audala/check"
)

func compileSrc(t *testing.T, src string) *check.Program {
	t.Helper()
	var diags diag.List
	prog := Load(diag.NewFile("t.adl", []byte(src)), &diags)
	if prog == nil || diags.HasErrors() {
		t.Fatalf("%v\n%s", diags.Err(), src)
	}
	return prog
}

// runSrc runs src on the .init text init ("" for none) and returns the
// machine, the print output and the run error.
func runSrc(t *testing.T, src, init string, c config, maxIter int) (*Machine, string, error) {
	t.Helper()
	prog := compileSrc(t, src)
	var out bytes.Buffer
	var data *initfileData
	if init != "" {
		data = parseInit(t, prog, init)
	}
	m := New(prog, data, withMax(withOut(c.options(), &out), maxIter))
	err := m.Run()
	return m, out.String(), err
}

// TestCornerCases are the semantic corner cases of spec AT-7, in both
// semantics.
func TestCornerCases(t *testing.T) {
	for _, c := range configs {
		name := c.sem.String()
		if c.workers > 1 {
			name += "-par"
		}
		if c.lockstep {
			name += "-lockstep"
		}
		t.Run(name, func(t *testing.T) { cornerCases(t, c) })
	}
}

func cornerCases(t *testing.T, c config) {
	// 1. Null skip: only null instances; the write is dropped, so the
	// fixpoint is stable after one iteration and x stays 0.
	m, out, err := runSrc(t, "struct A(x: Nat) { s { x := 5; } }\nFix(s) < A.print\n", "", c, 10)
	if err != nil || m.Stats.Iterations != 1 || out != "" {
		t.Errorf("AT-7.1: err=%v iterations=%d out=%q", err, m.Stats.Iterations, out)
	}
	if m.Value(m.prog.Structs[0].Params[0], 0) != 0 {
		t.Errorf("AT-7.1: null instance parameter changed")
	}

	// 2. Same-value writes do not clear stability.
	m, _, err = runSrc(t, "struct A(x: Nat) { mk { A a := A(3); } s { x := x; } }\nmk < Fix(s)\n", "", c, 10)
	if err != nil || m.Stats.Iterations != 1 {
		t.Errorf("AT-7.2: err=%v iterations=%d, want 1", err, m.Stats.Iterations)
	}

	// 3. A constructor clears stability: Fix never terminates.
	_, _, err = runSrc(t, "struct A(x: Nat) { s { A a := A(1); } }\nFix(s)\n", "", c, 5)
	if re, ok := err.(*RuntimeError); !ok || re.Code != "A0203" || re.Pos.String() != "t.adl:2:1" {
		t.Errorf("AT-7.3: err=%v, want A0203 at t.adl:2:1", err)
	}

	// 4. New instances do not execute the creating step: A < A gives
	// null+1, then 4 instances.
	src4 := "struct A(x: Nat) { s { A a := A(x + 1); } }\n"
	m, _, _ = runSrc(t, src4+"s\n", "", c, 0)
	if n := m.Count(m.prog.Structs[0]); n != 2 {
		t.Errorf("AT-7.4: %d instances after one call, want 2", n)
	}
	m, out, _ = runSrc(t, src4+"s < s < A.print\n", "", c, 0)
	if n := m.Count(m.prog.Structs[0]); n != 4 {
		t.Errorf("AT-7.4: %d instances after two calls, want 4", n)
	}
	// Labels are given in creation order; with several workers the two
	// creations of the second call may come in either order.
	if lines := strings.Split(out, "\n"); len(lines) != 4 || lines[0] != "A(1): x=1" {
		t.Errorf("AT-7.4: print output %q", out)
	}
	if c.workers == 1 && out != "A(1): x=1\nA(2): x=1\nA(3): x=2\n" {
		t.Errorf("AT-7.4: sequential print output %q", out)
	}

	// 5. Parameters of a just-created instance read in the same step give
	// the constructor arguments.
	m, out, err = runSrc(t, "struct A(x: Nat, y: Nat) { s { A a := A(7, 0); y := a.x; } }\ns < s < A.print\n", "", c, 0)
	if err != nil || !strings.HasPrefix(out, "A(1): x=7, y=7\n") {
		t.Errorf("AT-7.5: err=%v out=%q", err, out)
	}

	// 6. A change inside an inner Fix forces another outer iteration:
	// outer 2 iterations; inner 4 (x 0->1->2->3, then stable) and 1.
	init6 := "ADL structures 1\nA Nat Nat\nA instances 1 1\n0 0\n"
	m, _, err = runSrc(t, "struct A(x: Nat, y: Nat) { inc { if x < 3 then { x := x + 1; } } keep { y := y; } }\nFix(Fix(inc) < keep)\n", init6, c, 0)
	if err != nil || m.Stats.Iterations != 7 {
		t.Errorf("AT-7.6: err=%v iterations=%d, want 2+4+1", err, m.Stats.Iterations)
	}

	// 7. prev.val through null yields 0.
	init7 := "ADL structures 1\nP Int P\nP instances 1 1\n5 0\n"
	_, out, err = runSrc(t, "struct P(val: Int, prev: P) { s { val := prev.val + 1; } }\ns < P.print\n", init7, c, 0)
	if err != nil || out != "P(1): val=1, prev=0\n" {
		t.Errorf("AT-7.7: err=%v out=%q", err, out)
	}

	// 8. Short-circuit: the right operand would divide by zero.
	init8 := "ADL structures 1\nA Nat Bool Bool\nA instances 1 1\n0\n"
	_, out, err = runSrc(t, "struct A(x: Nat, b: Bool, c: Bool) { s { b := x != 0 && 10 / x > 1; c := x == 0 || 10 % x == 0; } }\ns < A.print\n", init8, c, 0)
	if err != nil || out != "A(1): x=0, b=0, c=1\n" {
		t.Errorf("AT-7.8: err=%v out=%q", err, out)
	}
	// ... and without short-circuit it does (A0202 at the operator).
	_, _, err = runSrc(t, "struct A(x: Nat, b: Bool, c: Bool) { s { b := x == 0 && 10 / x > 1; } }\ns\n", init8, c, 0)
	if re, ok := err.(*RuntimeError); !ok || re.Code != "A0202" || re.Pos.String() != "t.adl:1:60" {
		t.Errorf("AT-7.8: err=%v, want A0202 at t.adl:1:60", err)
	}

	// 9. Write conflict: every node nominates itself as its set's pivot;
	// afterwards all nodes see one single value, one of those written.
	const n = 3000
	var b initText
	nodes := make([]string, n)
	for i := range nodes {
		nodes[i] = "1"
	}
	b.section("Node", "Set Node", n, n, nodes)
	b.section("Set", "Node", 0, 1, nil)
	m, _, err = runSrc(t, `struct Set(pivot: Node) { }
struct Node(set: Set, seen: Node) {
  nominate { set.pivot := this; }
  look { seen := set.pivot; }
}
nominate < look
`, b.String(), c, 0)
	if err != nil {
		t.Fatal(err)
	}
	seen := m.prog.Structs[1].Params[1]
	first := m.Value(seen, 1)
	if first < 1 || first > n {
		t.Errorf("AT-7.9: pivot %d is not a node", first)
	}
	for l := 2; l <= n; l++ {
		if v := m.Value(seen, l); v != first {
			t.Fatalf("AT-7.9: node %d sees pivot %d, node 1 sees %d", l, v, first)
		}
	}
}

// TestOverflow: integers are 32-bit and overflow is an error (A0201) at
// the operator, not a silent wrap.
func TestOverflow(t *testing.T) {
	for _, tc := range []struct{ src, pos string }{
		{"struct A(x: Int) { s { x := 2147483647 + 1; } }\nA.s\n", "t.adl:1:29"}, // Nat 2147483648 does not fit Int,
		{"struct A(x: Nat) { s { x := 0 - 1; } }\nA.s\n", "t.adl:1:31"},
		{"struct A(x: Int) { s { x := -2147483647 - 2; } }\nA.s\n", "t.adl:1:41"},
		{"struct A(x: Nat) { s { x := 65536 * 65536; } }\nA.s\n", "t.adl:1:35"},
	} {
		for _, c := range configs[:1] {
			init := "ADL structures 1\nA " + map[bool]string{true: "Int", false: "Nat"}[strings.Contains(tc.src, "x: Int")] + "\nA instances 0 1\n"
			_, _, err := runSrc(t, tc.src, init, c, 0)
			if re, ok := err.(*RuntimeError); !ok || re.Code != "A0201" || re.Pos.String() != tc.pos {
				t.Errorf("%s: err=%v, want A0201 at %s", tc.src, err, tc.pos)
			}
		}
	}
}

// TestArithErrors: the exact diagnostic of each failing operator, the
// same from the batched evaluation (the default order) and the
// per-instance one (label order); the lowest failing label is reported.
// Instance 1 of three is fine, instances 2 and 3 fail.
func TestArithErrors(t *testing.T) {
	for _, tc := range []struct{ typ, expr, code, pos, msg string }{
		{"Int", "2147483647 + x", "A0201", "t.adl:1:64", "integer overflow: 2147483647 + 1 = 2147483648 does not fit Int"},
		{"Nat", "x - 2", "A0201", "t.adl:1:55", "integer overflow: 1 - 2 = -1 does not fit Nat"},
		{"Int", "-2147483647 - x", "A0201", "t.adl:1:65", "integer overflow: -2147483647 - 2 = -2147483649 does not fit Int"},
		{"Nat", "65536 * (x * 65536)", "A0201", "t.adl:1:59", "integer overflow: 65536 * 65536 = 4294967296 does not fit Nat"},
		{"Nat", "(x + 4294967293) * (x + 4294967293)", "A0201", "t.adl:1:70", "integer overflow: 4294967294 * 4294967294 does not fit Nat"},
		{"Int", "7 / (2 - x)", "A0202", "t.adl:1:55", "division by zero in 7 / 0"},
		{"Int", "7 % (2 - x)", "A0202", "t.adl:1:55", "division by zero in 7 % 0"},
		{"Int", "(-2147483647 - 1) / (0 - x)", "A0201", "t.adl:1:71", "integer overflow: -2147483648 / -1 = 2147483648 does not fit Int"},
	} {
		src := "struct A(x: " + tc.typ + ", y: " + tc.typ + ") { s { if x > 0 then { y := " + tc.expr + "; } } }\nA.s\n"
		prog := compileSrc(t, src)
		init := "ADL structures 1\nA " + tc.typ + " " + tc.typ + "\nA instances 3 3\n0 0\n1 0\n2 0\n"
		for _, ord := range []Order{BatchOrder, LabelOrder} {
			m := New(prog, parseInit(t, prog, init), Options{Workers: 1, Order: ord})
			err := m.Run()
			re, ok := err.(*RuntimeError)
			if !ok || re.Code != tc.code || re.Pos.String() != tc.pos || re.Msg != tc.msg {
				t.Errorf("%s, %v order: err=%v, want %s at %s: %s", tc.expr, ord, err, tc.code, tc.pos, tc.msg)
			}
		}
	}
}
