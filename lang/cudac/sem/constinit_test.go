package sem_test

import (
	"fmt"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/cudac/sem"
)

// TestConstInitAsData pins that a table of integer constants is
// initialized by one copy (constinit.go), not by code per element, and
// that a table with a floating element keeps the element-wise code: the
// initializer's code of a 2 000-row table stays a handful of instructions
// in the first case and grows with the table in the second. (Its bytes
// are pinned against g++ by testdata/braces.cu.)
func TestConstInitAsData(t *testing.T) {
	rows := func(elem string) string {
		var b strings.Builder
		b.WriteString("struct R { unsigned a; int b[3]; };\nconst struct R table[] = {\n")
		for i := 0; i < 2000; i++ {
			fmt.Fprintf(&b, "  {%d, {%d, -%d, %s}},\n", i, i*3, i, elem)
		}
		b.WriteString("};\nint main() { return table[1999].b[1] == -1999 ? 0 : 1; }\n")
		return b.String()
	}
	initLen := func(src string) int {
		var diags diag.List
		prog := sem.Load(diag.NewFile("t.cu", []byte(src)), &diags)
		if diags.HasErrors() {
			t.Fatalf("diagnostics: %v", diags.Diags)
		}
		if prog.Init == nil {
			t.Fatal("no initializer code")
		}
		return len(prog.Init.Code)
	}
	if n := initLen(rows("7")); n > 20 {
		t.Errorf("integer table: %d initializer instructions, want a copy (at most 20)", n)
	}
	// (a cast: 7.5f itself would be a narrowing conversion, C0302)
	if n := initLen(rows("(int)7.5f")); n < 2000 {
		t.Errorf("table with a float element: %d initializer instructions, want the element-wise code (at least 2000)", n)
	}
}
