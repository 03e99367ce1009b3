package driver

import (
	"testing"

	"weft.dev/weft/diag"
)

// TestDiagnoseInto checks the build checker's handling of the
// generator's diagnostics (check_build.go, issue 13 stop 38): they are
// added to the check's list as the generator makes them; where the
// generator crashes, what it added is dropped and the crash is reported
// as W0901; a list with a limit gets the same result through a list of
// its own.
func TestDiagnoseInto(t *testing.T) {
	prior := &diag.Diagnostic{Severity: diag.Warning, Code: "W0001", Message: "before"}
	gen := func(crash bool) func(*diag.List) {
		return func(errs *diag.List) {
			errs.Errorf(diag.Pos{}, "W0903", "one")
			errs.Errorf(diag.Pos{}, "W0909", "two")
			if crash {
				panic("boom")
			}
		}
	}
	for _, limit := range []int{0, 10} {
		for _, crash := range []bool{false, true} {
			errs := &diag.List{Limit: limit}
			errs.Add(prior)
			diagnoseInto(errs, gen(crash))
			var codes []string
			for _, d := range errs.Diags {
				codes = append(codes, d.Code)
			}
			want := []string{"W0001", "W0903", "W0909"}
			if crash {
				want = []string{"W0001", "W0901"}
			}
			if len(codes) != len(want) {
				t.Errorf("limit %d, crash %v: codes %v, want %v", limit, crash, codes, want)
				continue
			}
			for i := range want {
				if codes[i] != want[i] {
					t.Errorf("limit %d, crash %v: codes %v, want %v", limit, crash, codes, want)
					break
				}
			}
		}
	}
}
