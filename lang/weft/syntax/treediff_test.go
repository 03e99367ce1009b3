package syntax

import (
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"weft.dev/weft/diag"
)

// treeDiff reports how two syntax trees differ, positions aside: "" when
// they are equal. The equality is a direct reflective walk (sameTree);
// go-cmp, whose slice comparison searches for an edit script and so
// compares subtrees pairwise at every level, took 111 s over the round-trip
// corpus, and is now asked only to explain a difference sameTree found.
func treeDiff(a, b any) string {
	if sameTree(reflect.ValueOf(a), reflect.ValueOf(b), map[[2]uintptr]bool{}) {
		return ""
	}
	if d := cmp.Diff(a, b, ignorePos); d != "" {
		return d
	}
	// The two walks disagree: say so rather than pass.
	return "trees differ (sameTree), but go-cmp reports no difference"
}

var posType = reflect.TypeOf(diag.Pos{})

// sameTree is reflect.DeepEqual with every diag.Pos ignored and unexported
// fields compared (what ignorePos asks of go-cmp). seen holds the pointer
// pairs being compared, so a cycle compares equal, as in DeepEqual.
func sameTree(x, y reflect.Value, seen map[[2]uintptr]bool) bool {
	if x.IsValid() != y.IsValid() {
		return false
	}
	if !x.IsValid() {
		return true
	}
	if x.Type() != y.Type() {
		return false
	}
	if x.Type() == posType {
		return true
	}
	switch x.Kind() {
	case reflect.Pointer:
		if x.IsNil() || y.IsNil() {
			return x.IsNil() == y.IsNil()
		}
		k := [2]uintptr{x.Pointer(), y.Pointer()}
		if k[0] == k[1] || seen[k] {
			return true
		}
		seen[k] = true
		return sameTree(x.Elem(), y.Elem(), seen)
	case reflect.Interface:
		if x.IsNil() || y.IsNil() {
			return x.IsNil() == y.IsNil()
		}
		return sameTree(x.Elem(), y.Elem(), seen)
	case reflect.Struct:
		for i := 0; i < x.NumField(); i++ {
			if !sameTree(x.Field(i), y.Field(i), seen) {
				return false
			}
		}
		return true
	case reflect.Slice:
		// go-cmp with these options treats a nil slice and an empty one as
		// different; so does this.
		if x.IsNil() != y.IsNil() || x.Len() != y.Len() {
			return false
		}
		fallthrough
	case reflect.Array:
		for i := 0; i < x.Len(); i++ {
			if !sameTree(x.Index(i), y.Index(i), seen) {
				return false
			}
		}
		return true
	case reflect.Map:
		if x.IsNil() != y.IsNil() || x.Len() != y.Len() {
			return false
		}
		it := x.MapRange()
		for it.Next() {
			v := y.MapIndex(it.Key())
			if !v.IsValid() || !sameTree(it.Value(), v, seen) {
				return false
			}
		}
		return true
	case reflect.Bool:
		return x.Bool() == y.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return x.Int() == y.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return x.Uint() == y.Uint()
	case reflect.Float32, reflect.Float64:
		return x.Float() == y.Float()
	case reflect.Complex64, reflect.Complex128:
		return x.Complex() == y.Complex()
	case reflect.String:
		return x.String() == y.String()
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return x.IsNil() && y.IsNil()
	}
	return false
}

// TestTreeDiff: the round-trip comparison ignores positions only. The same
// program parsed at other columns compares equal; a renamed variable, a
// changed constant, an extra statement and a changed operator each
// differ, and go-cmp agrees each time.
func TestTreeDiff(t *testing.T) {
	const src = "def f(a: f32[4] @ DRAM):\n    for i in seq(0, 4):\n        a[i] = a[i] + 1.0\n"
	base := parseOK(t, "base", []byte(src))
	moved := parseOK(t, "moved", []byte("\n\n"+strings.ReplaceAll(src, "    ", "  ")))
	if d := treeDiff(base.Decls, moved.Decls); d != "" {
		t.Fatalf("positions alone differ, want equal:\n%s", d)
	}
	for _, alt := range []string{
		strings.Replace(src, "for i", "for j", 1),
		strings.Replace(src, "seq(0, 4)", "seq(0, 3)", 1),
		src + "    a[0] = 2.0\n",
		strings.Replace(src, "+ 1.0", "* 1.0", 1),
	} {
		other := parseOK(t, "alt", []byte(alt))
		d := treeDiff(base.Decls, other.Decls)
		if d == "" || strings.Contains(d, "go-cmp reports no difference") {
			t.Errorf("want a go-cmp difference for\n%s\ngot %q", alt, d)
		}
	}
}
