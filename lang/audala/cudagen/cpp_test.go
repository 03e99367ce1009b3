package cudagen

import (
	"strings"
	"testing"

	"weft.dev/weft/diag"
)

// TestInlineCpp: `$$` lines are copied where AuDaLaC puts them (its
// grammar's GlobalCpp and Stat::InlineCpp): the global ones at the start
// of the global declarations, after the includes and macros and before
// the runtime's arrays; statements in place in the step body, with the
// text after `$$` verbatim.
func TestInlineCpp(t *testing.T) {
	for _, st := range []Strategy{Graph, Host, Grid} {
		var diags diag.List
		src := Generate(load(t, "cpp_lines"), Options{Strategy: st, ONRP: true}, &diags)
		if src == "" {
			t.Fatalf("%v: %v", st, diags.Err())
		}
		lines := strings.Split(src, "\n")
		at := func(text string) int {
			for i, l := range lines {
				if l == text {
					return i
				}
			}
			t.Fatalf("%v: no line %q in the output", st, text)
			return -1
		}
		macros := at("#define ADL_REL_ORDER cuda::memory_order_release")
		head := at("// $$ lines of cpp_lines.adl (inline C++, copied verbatim)")
		inc := at("#include <cstdio> // (also in the runtime; harmless)")
		decl := at("__device__ unsigned user_roots = 0; // counted by the $$ statement below")
		arrays := at("// Structure of arrays (spec §5.3): one 32-bit array per parameter,")
		if !(macros < head && head+1 == inc && inc+1 == decl && decl < arrays) {
			t.Errorf("%v: global $$ lines at %d, %d (macros %d, arrays %d)", st, inc, decl, macros, arrays)
		}
		exec := at("__device__ __forceinline__ void exec_Node_count(const uint32_t self, bool* stable, [[maybe_unused]] int lvl) {")
		stmt := at("        atomicAdd(&user_roots, 1u);")
		end := exec
		for end < len(lines) && lines[end] != "}" {
			end++
		}
		if !(exec < stmt && stmt < end) || !strings.Contains(lines[stmt-1], "}") {
			t.Errorf("%v: $$ statement at line %d, not after the write in exec_Node_count (%d..%d):\n%s", st, stmt, exec, end, strings.Join(lines[exec:end+1], "\n"))
		}
	}
}
