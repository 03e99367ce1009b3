package syncheck

import (
	"sort"
	"testing"
	"unsafe"

	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/gpucheck"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestHasKnownMatchesQual: fenceOrdersThreads tests the library's known
// qualifier bits (hasKnown) where it had resolved each qualifier by name
// (qual); both must answer alike for every sync timeline of the library,
// and for qualifiers at and past the 32 an amir.QualSet holds, which
// qual refuses.
func TestHasKnownMatchesQual(t *testing.T) {
	l := lib.MustStd()
	c := &converter{lib: l}
	byName := func(tl *lib.SyncTL, names ...string) bool {
		for _, n := range names {
			if x, ok := c.qual(n); ok && amir.QualSet(tl.FullSet).Has(x) {
				return true
			}
		}
		return false
	}
	k := l.Known
	names := make([]string, 0, len(l.Timelines))
	for n := range l.Timelines {
		names = append(names, n)
	}
	sort.Strings(names)
	generic, wgmma := 0, 0
	for _, n := range names {
		tl := l.Timelines[n]
		g, w := byName(tl, "cuda_in_order_ram_qual", "cuda_in_order_rmem_qual"), byName(tl, "wmma_async_rmem_d_qual", "wmma_async_smem_qual")
		if got := hasKnown(tl, k.InOrderRAM|k.InOrderRMEM); got != g {
			t.Errorf("%s: hasKnown(in order) = %v, by name %v", n, got, g)
		}
		if got := hasKnown(tl, k.WmmaRmemD|k.WmmaSmem); got != w {
			t.Errorf("%s: hasKnown(wgmma) = %v, by name %v", n, got, w)
		}
		if g {
			generic++
		}
		if w {
			wgmma++
		}
	}
	if generic == 0 || wgmma == 0 {
		t.Fatalf("the library's timelines exercise neither side: %d in order, %d wgmma", generic, wgmma)
	}
	// Qualifiers past an amir.QualSet: a bit at 32 or 40 is refused, as
	// qual refuses their indices.
	tl := &lib.SyncTL{FullSet: 1<<32 | 1<<40}
	if hasKnown(tl, 1<<32|1<<40) {
		t.Error("hasKnown accepts a qualifier at index 32 or more")
	}
	if !hasKnown(&lib.SyncTL{FullSet: 1 << 31}, 1<<31) {
		t.Error("hasKnown refuses the qualifier at index 31")
	}
}

// TestCompileMatchesIntExpr: compile gives what intExpr, affineForm and
// linearOf gave for the same expression (the window ends and extents
// that take it): the same verdict, a form of the same content (nil where
// none), the same linear form and the same values, for affine
// expressions, constants, control names shadowing a constant, and
// expressions that are not affine (products of slots, modulos, floor
// divisions).
func TestCompileMatchesIntExpr(t *testing.T) {
	n := func(s string) *syntax.Name { return &syntax.Name{Name: s} }
	k := func(v int64) *syntax.IntLit { return &syntax.IntLit{Value: v} }
	b := func(op string, x, y syntax.Expr) *syntax.Binary { return &syntax.Binary{Op: op, X: x, Y: y} }
	exprs := []syntax.Expr{
		n("i"), k(7), n("N"), n("M"), n("undefined"),
		b("+", n("i"), k(1)),
		b("+", b("*", k(2), n("i")), n("j")),
		b("*", n("N"), n("i")),
		b("%", n("i"), k(2)),
		b("-", k(1), b("%", n("i"), k(2))),
		b("*", n("i"), n("j")),
		b("//", b("+", n("i"), n("N")), k(4)),
		b("-", b("*", n("M"), k(3)), n("j")),
		&syntax.Unary{Op: "-", X: b("+", n("i"), k(5))},
	}
	fresh := func() (*converter, *names) {
		gpu := &gpucheck.Result{Consts: map[string]int64{"N": 8, "M": 5}}
		c := &converter{res: gpu, p: &amir.Program{}, out: &Program{}}
		sc := &names{}
		for _, v := range []string{"i", "j", "M"} { // M: a loop variable shadowing the constant
			sc.set(v, c.slot(v))
			c.setControl(v)
		}
		return c, sc
	}
	envs := [][]int{{0, 0, 0}, {3, 5, 2}, {-7, 4, 9}}
	affine := 0
	for _, e := range exprs {
		c1, sc1 := fresh()
		f1, ok1 := c1.intExpr(sc1, e)
		var a1 *amir.Affine
		if ok1 {
			a1 = c1.affineForm(sc1, e)
		}
		l1 := c1.linearOf(e)
		c2, sc2 := fresh()
		f2, a2, l2, ok2 := c2.compile(sc2, e)
		s := syntax.ExprString(e)
		if ok1 != ok2 {
			t.Errorf("%s: ok %v, compile %v", s, ok1, ok2)
			continue
		}
		if (a1 == nil) != (a2 == nil) || a1 != nil && !sameAffine(a1, a2) {
			t.Errorf("%s: form %v, compile %v", s, a1, a2)
		}
		if l1.String() != l2.String() {
			t.Errorf("%s: linear %s, compile %s", s, l1, l2)
		}
		if a1 != nil {
			affine++
		}
		if !ok1 {
			continue
		}
		for _, env := range envs {
			if x, y := f1(env), f2(env); x != y {
				t.Errorf("%s at %v: %d, compile %d", s, env, x, y)
			}
		}
	}
	if affine == 0 || affine == len(exprs) {
		t.Fatalf("%d of %d expressions affine: both kinds must be exercised", affine, len(exprs))
	}
}

// TestFullRoomSizeClass: fullRoom is one allocation of the 9472-byte size
// class (six to a span; room.go), not past it, and not back in the
// 8192-byte class, one to a span, whose every allocation refills the
// allocator's cache. An object with pointers past 512 bytes carries an
// 8-byte header (Go 1.22's allocation headers): fullRoom had been 9472
// bytes, one object of the 9728-byte class (issue 13, stop 45). The
// tinyRoom is one of the 9472-byte class too (stop 46: with its
// statements with side structs; it had been of the 6784-byte class).
func TestFullRoomSizeClass(t *testing.T) {
	const header = 8
	if n := unsafe.Sizeof(fullRoom{}) + header; n <= 8192 || n > 9472 {
		t.Errorf("fullRoom and its header are %d bytes, outside the 9472-byte size class (8192, 9472]", n)
	}
	if n := unsafe.Sizeof(tinyRoom{}) + header; n <= 8192 || n > 9472 {
		t.Errorf("tinyRoom and its header are %d bytes, outside the 9472-byte size class (8192, 9472]", n)
	}
}
