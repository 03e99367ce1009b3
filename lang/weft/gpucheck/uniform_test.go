package gpucheck

import (
	"testing"

	"weft.dev/weft/lang/weft/lib"
)

// TestUniformThreadsMatchesLib checks uniformThreads (its answer kept
// in the variable, and no call for a memory that is not uniform; issue
// 13, stop 47) against the library's Memory.UniformThreads: on every
// program of the repository, each variable's answer, asked twice, is
// the library's. The diagnostics of a uniform register's later writes
// (testdata/timelines.weft) depend on the kept answer too.
func TestUniformThreadsMatchesLib(t *testing.T) {
	l := lib.MustStd()
	vars, uniform := 0, 0
	for _, p := range checkedPrograms(t, l) {
		r := p.res
		c := &checker{l: l, res: r, c: r.consts}
		for _, v := range r.Vars {
			var wn int64
			var wok bool
			if v.Type != nil {
				wn, wok = r.Memory(v).UniformThreads(v.Type.Mem, r.consts.eval)
			}
			for range 2 {
				if n, ok := c.uniformThreads(v); n != wn || ok != wok {
					t.Fatalf("%s: uniformThreads(%s) = %d, %v, want %d, %v", p.path, v.Name, n, ok, wn, wok)
				}
			}
			vars++
			if wok {
				uniform++
			}
		}
	}
	t.Logf("%d variables, %d uniform", vars, uniform)
	if vars < 100 || uniform < 3 {
		t.Errorf("the comparison exercised too little")
	}
}
