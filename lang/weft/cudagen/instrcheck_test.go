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

// TestInstrCheckMatchesFill is the differential test of instrCheck (an
// instruction call in a pass that formats no text checks its template's
// placeholders without filling them): on every .weft program of the
// repository (each chunk) and on variants with one line deleted, CheckOnly
// generation reports exactly the diagnostics it reports when every
// template is filled (fillAlways) and every expression of a discarded
// statement formatted (textAlways, exprCtx.noText), as before stop 29.
func TestInstrCheckMatchesFill(t *testing.T) {
	l := lib.MustStd()
	run := func(f *syntax.File, prog *check.Program, fill bool) (s string) {
		fillAlways, textAlways = fill, fill
		defer func() {
			fillAlways, textAlways = false, false
			if r := recover(); r != nil {
				s = fmt.Sprintf("panic: %v", r)
			}
		}()
		var errs diag.List
		Generate(f, l, Options{CheckOnly: true, Prog: prog}, &errs)
		errs.Sort()
		var b strings.Builder
		diag.WriteText(&b, errs.Diags)
		return b.String()
	}
	variants, withInstrDiags := 0, 0
	forEachProgramVariant(t, func(name, text string) {
		var perrs diag.List
		f := syntax.Parse(diag.NewFile(name, []byte(text)), &perrs)
		if perrs.HasErrors() {
			return
		}
		var cerrs diag.List
		prog := check.Check(f, l, &cerrs)
		got, want := run(f, prog, false), run(f, prog, true)
		variants++
		if strings.Contains(want, codeInstr) {
			withInstrDiags++
		}
		if got != want {
			t.Errorf("%s: without filling templates\n%s\nfilling them\n%s", name, got, want)
		}
	})
	t.Logf("%d programs and variants, %d with %s diagnostics", variants, withInstrDiags, codeInstr)
	if variants < 1000 || withInstrDiags < 10 {
		t.Errorf("the comparison exercised too little")
	}
}

// TestPlaceholderSet checks placeholderSet.has on the keys instrCall
// fills: every parameter's value and type, a window's indexed keys below
// their counts and not at them, the barrier only with one, expect_tx
// always, and a parameter whose name is another's prefix.
func TestPlaceholderSet(t *testing.T) {
	win := &winArg{strides: []string{"1", "8"}, starts: []string{"0", "i", "j"}}
	ps := placeholderSet{params: []phParam{{name: "dst", win: win}, {name: "n"}, {name: "dst_s"}}}
	for key, want := range map[string]bool{
		"dst": true, "dst_t": true, "n": true, "n_t": true, "dst_s": true, "dst_s_t": true,
		"dst_stride0": true, "dst_stride1": true, "dst_stride2": false, "dst_stride01": false, "dst_stride": false,
		"dst_idx2": true, "dst_idx3": false, "dst_wdim1": true, "dst_wdim2": false,
		"dst_coords": true, "dst_rank": true, "n_coords": false, "n_stride0": false,
		"bar": false, "expect_tx": true, "m": false, "dst_x": false, "dst_stride-1": false,
	} {
		if got := ps.has(key); got != want {
			t.Errorf("has(%q) = %v, want %v", key, got, want)
		}
	}
	ps.bar = true
	if !ps.has("bar") {
		t.Errorf("has(bar) with a barrier = false")
	}
	ps2 := placeholderSet{params: []phParam{{name: "bar"}}}
	if !ps2.has("bar") {
		t.Errorf("a parameter named bar: has(bar) = false")
	}
}
