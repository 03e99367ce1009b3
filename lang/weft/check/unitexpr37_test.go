package check

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestUnitExprReturnsUnitBase: unitExpr returns the unit that unitBase
// finds for the same expression (stop 37: the check of `n * unit` reads
// that answer instead of asking unitBase, so its "cannot be scaled" error
// needs the two to agree), with the same diagnostics as a check that
// calls unitBase after unitExpr, on random unit expressions: every
// library unit, parameterized ones with good and bad arguments, unknown
// names, constants and a non-constant global, scaled by constants on
// either side, nested, with + and - in place of *.
func TestUnitExprReturnsUnitBase(t *testing.T) {
	l := lib.MustStd()
	var units []string
	for n := range l.Units {
		units = append(units, n)
	}
	sort.Strings(units)
	rng := rand.New(rand.NewSource(37))
	leaf := func() string {
		switch rng.Intn(8) {
		case 0:
			return fmt.Sprint(rng.Intn(5) - 1)
		case 1:
			return "N"
		case 2:
			return "G"
		case 3:
			return "nosuchunit"
		case 4:
			u := units[rng.Intn(len(units))]
			args := make([]string, rng.Intn(3))
			for i := range args {
				args[i] = fmt.Sprint(rng.Intn(4) - 1)
			}
			return u + "(" + strings.Join(args, ", ") + ")"
		default:
			return units[rng.Intn(len(units))]
		}
	}
	var expr func(depth int) string
	expr = func(depth int) string {
		if depth == 0 || rng.Intn(3) == 0 {
			return leaf()
		}
		op := []string{"*", "*", "*", "+", "-"}[rng.Intn(5)]
		return "(" + expr(depth-1) + " " + op + " " + expr(depth-1) + ")"
	}
	found, scaled := 0, 0
	for i := 0; i < 3000; i++ {
		src := expr(3)
		var perrs diag.List
		f := syntax.Parse(diag.NewFile("u.weft", []byte("N = 4\nG = 2.5\nU = "+src+"\n")), &perrs)
		if perrs.HasErrors() {
			t.Fatalf("%s: %v", src, perrs.Err())
		}
		e := f.Decls[len(f.Decls)-1].(*syntax.Global).Values[0]
		var errsA, errsB diag.List
		a := &checker{lib: l, errs: &errsA, prog: &Program{File: f, Lib: l, ByName: map[string]*Proc{}}, lean: true}
		a.declareGlobals(f)
		got := a.unitExpr(e)
		want := a.unitBase(e)
		if got != want {
			t.Fatalf("%s: unitExpr returned %v, unitBase %v", src, got, want)
		}
		// The diagnostics of the check before stop 37: unitExpr of the
		// scaled unit, then unitBase of it for the scale test.
		b := &checker{lib: l, errs: &errsB, prog: &Program{File: f, Lib: l, ByName: map[string]*Proc{}}, lean: true}
		b.declareGlobals(f)
		oldUnitExpr(b, e)
		if ga, gb := diagText(&errsA), diagText(&errsB); ga != gb {
			t.Fatalf("%s: diagnostics\n%s\nbefore stop 37:\n%s", src, ga, gb)
		}
		if got != nil {
			found++
		}
		if bin, ok := e.(*syntax.Binary); ok && bin.Op == "*" {
			scaled++
		}
	}
	if found < 500 || scaled < 500 {
		t.Fatalf("too few cases: %d with a unit, %d scaled", found, scaled)
	}
}

// oldUnitExpr is unitExpr as it was before stop 37 (its results are
// diagnostics only), for the comparison above.
func oldUnitExpr(c *checker, e syntax.Expr) {
	switch e := e.(type) {
	case *syntax.Name:
		if c.lib.Units[e.Name] != nil {
			return
		}
		if s := c.lookupQuiet(e.Name); s != nil && s.Kind == KindGlobal {
			return
		}
		c.errs.Errorf(e.Pos(), "W0220", "unknown collective unit %s%s", e.Name, didYouMean(e.Name, keys(c.lib.Units)))
	case *syntax.Call:
		u := c.lib.Units[e.FunName()]
		if u == nil {
			if e.FunName() == "CollUnit" {
				return
			}
			c.errs.Errorf(e.Pos(), "W0220", "unknown collective unit %s", describe(e.Fun))
			return
		}
		if len(u.Params) == 0 {
			c.errs.Errorf(e.Pos(), "W0220", "%s takes no arguments", u.Name)
			return
		}
		if len(e.Args) != len(u.Params) || len(e.Kwargs) > 0 {
			c.errs.Errorf(e.Pos(), "W0220", "%s takes %d arguments, got %d", u.Name, len(u.Params), len(e.Args)+len(e.Kwargs))
			return
		}
		for _, a := range e.Args {
			if v, ok := c.constValue(a); !ok || v <= 0 {
				c.errs.Errorf(a.Pos(), "W0220", "unit arguments must be positive integer constants")
			}
		}
	case *syntax.Binary:
		if e.Op != "*" {
			c.errs.Errorf(e.Pos(), "W0220", "a collective unit is scaled with n * unit")
			return
		}
		n, u := e.X, e.Y
		if _, ok := c.constValue(n); !ok {
			n, u = e.Y, e.X
		}
		v, ok := c.constValue(n)
		if !ok {
			c.errs.Errorf(e.Pos(), "W0220", "a collective unit is scaled by an integer constant")
			return
		}
		if v <= 0 {
			c.errs.Errorf(n.Pos(), "W0220", "scale factor must be positive, not %d", v)
		}
		oldUnitExpr(c, u)
		if base := c.unitBase(u); base != nil && base.Scale < 0 {
			c.errs.Errorf(e.Pos(), "W0220", "%s cannot be scaled (seed 000 Fig. 11)", base.Name)
		}
	case *syntax.BadExpr:
	default:
		c.errs.Errorf(e.Pos(), "W0220", "expected a collective unit, found %s", describe(e))
	}
}

func diagText(l *diag.List) string {
	var b strings.Builder
	for _, d := range l.Diags {
		fmt.Fprintf(&b, "%d %s %s\n", d.Pos.Offset, d.Code, d.Message)
	}
	return b.String()
}

// TestMemoriesByOwnName: the library enters each memory under its own
// name (aliases under theirs too), which alloc relies on when it takes
// the memory dataMemory resolved instead of looking up its name again
// (stop 37).
func TestMemoriesByOwnName(t *testing.T) {
	l := lib.MustStd()
	aliases := 0
	for n, m := range l.Memories {
		if l.Memories[m.Name] != m {
			t.Errorf("Memories[%q] is not the memory %s entered as %q", m.Name, m.Name, n)
		}
		if n != m.Name {
			aliases++
		}
	}
	if len(l.Memories) < 10 {
		t.Fatalf("only %d memories", len(l.Memories))
	}
	t.Logf("%d memories, %d aliases", len(l.Memories), aliases)
}
