package cudagen

import (
	"fmt"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// TestSinglePassMatchesTwoPasses is the differential test of CheckOnly's
// single pass (single.go): on every .weft program of the repository (each
// chunk of the '---'-separated ones) and on variants with one line deleted
// (which break syncs, shapes and declarations in many ways), the single
// pass reports exactly the diagnostics of the two passes it replaces, and it does stand alone on most programs.
func TestSinglePassMatchesTwoPasses(t *testing.T) {
	l := lib.MustStd()
	variants, singles, withDiags, singleDiags := 0, 0, 0, 0
	forEachProgramVariant(t, func(name, text string) {
		single, two, used, ok := compareCheckOnly(t, l, name, text)
		if !ok {
			return
		}
		variants++
		if used {
			singles++
		}
		if two != "" {
			withDiags++
			if used {
				singleDiags++
			}
		}
		if single != two {
			t.Errorf("%s: the single pass reports\n%s\ntwo passes\n%s", name, single, two)
		}
	})
	t.Logf("%d programs and variants, %d checked by the single pass alone; %d with generator diagnostics, %d of them by the single pass alone",
		variants, singles, withDiags, singleDiags)
	if singles < variants/2 || singles == variants || withDiags < 50 || singleDiags < withDiags/2 {
		t.Errorf("the comparison exercised too little")
	}
}

// compareCheckOnly runs CheckOnly generation of text as one pass and as two,
// returning each one's diagnostics (or panic) as text; ok is false when
// text does not parse.
func compareCheckOnly(t *testing.T, l *lib.Library, name, text string) (single, two string, used, ok bool) {
	var perrs diag.List
	f := syntax.Parse(diag.NewFile(name, []byte(text)), &perrs)
	if perrs.HasErrors() {
		return "", "", false, false
	}
	var cerrs diag.List
	prog := check.Check(f, l, &cerrs)
	run := func(twoPass bool) (s string, used bool) {
		var errs diag.List
		defer func() {
			if r := recover(); r != nil {
				s = fmt.Sprintf("panic: %v", r)
			}
		}()
		_, used = runPasses(f, l, Options{CheckOnly: true, Prog: prog}, &errs, twoPass)
		// Sorted as weft check prints them (frontend.Report): the single
		// pass reports the diagnostics of allocations whose distributed
		// dimensions come later at the end (single.go).
		errs.Sort()
		var b strings.Builder
		diag.WriteText(&b, errs.Diags)
		return b.String(), used
	}
	single, used = run(false)
	two, _ = run(true)
	return single, two, used, true
}

// TestScopeLookup checks the scope's search in place against a map, below
// and above the length at which it indexes its names, with shadowing
// within a scope and across scopes.
func TestScopeLookup(t *testing.T) {
	outer := newScope(nil)
	ref := map[string]*sym{}
	for i := 0; i < 3*scopeIndexAt; i++ {
		inner := newScope(outer)
		innerRef := map[string]*sym{}
		for j := 0; j <= i; j++ {
			v := &sym{name: fmt.Sprintf("n%d", (i*7+j*3)%11)}
			inner.add(v)
			innerRef[v.name] = v
		}
		for k := 0; k < 12; k++ {
			name := fmt.Sprintf("n%d", k)
			want := innerRef[name]
			if want == nil {
				want = ref[name]
			}
			if got := inner.lookup(name); got != want {
				t.Fatalf("scope of %d names: lookup(%s) = %p, want %p", i+1, name, got, want)
			}
		}
		v := &sym{name: fmt.Sprintf("n%d", i%13)}
		outer.add(v)
		ref[v.name] = v
	}
}
