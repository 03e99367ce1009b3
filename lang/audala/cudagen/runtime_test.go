package cudagen

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/audala/initfile"
)

// TestInitReader compiles runtime.h's .init reader (host C++) with a small
// driver and checks that it reads what the Go reader reads, value for
// value, and rejects files that do not match the program. The generated
// programs cannot run without a GPU; this keeps their input path tested.
func TestInitReader(t *testing.T) {
	cxx, err := exec.LookPath("g++")
	if err != nil {
		if os.Getenv("WEFT_REQUIRE_NVCC") == "1" {
			t.Fatal("g++ not found (nvcc needs it too)")
		}
		t.Skip("g++ not found")
	}
	dir := t.TempDir()
	driver := `#include "runtime.h"
int main(int argc, char** argv) {
  static const char* const t0[] = {"Node", "Node", nullptr};
  static const char* const t1[] = {"Bool", "Nat", "Int", nullptr};
  static const char* const names[] = {"Edge", "Node"};
  static const int np[] = {2, 3};
  static const char* const* const types[] = {t0, t1};
  std::vector<AdlInitStruct> in;
  if (!adl_read_init(argv[1], 2, names, np, types, in)) return 3;
  for (auto& s : in) {
    printf("%s %u", s.name.c_str(), s.a);
    for (auto& c : s.cols) { printf(" ["); for (size_t i = 0; i < c.size(); i++) printf(i ? " %lld" : "%lld", c[i]); printf("]"); }
    printf("\n");
  }
  return 0;
}
`
	if err := os.WriteFile(filepath.Join(dir, "runtime.h"), []byte(runtimeH), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "d.cc"), []byte(driver), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "d")
	if out, err := exec.Command(cxx, "-std=c++17", "-Wall", "-Werror", "-o", bin, filepath.Join(dir, "d.cc")).CombinedOutput(); err != nil {
		t.Fatalf("g++: %v\n%s", err, out)
	}
	prog := loadSrc(t, "p.adl", "struct Node(reachable: Bool, n: Nat, i: Int) { s { } }\nstruct Edge(source: Node, target: Node) { }\ns\n")
	for i, c := range []struct {
		src string
		ok  bool
	}{
		{"ADL structures 2\nEdge Node Node\nNode Bool Nat Int\nEdge instances 2 3\n1 2\n2\nNode instances 2 2\n1 4294967295 -2147483648\n0 0 2147483647\n", true},
		{"ADL structures 2\nEdge Node Node\n\nNode Bool Nat Int\nEdge instances 0 0\n\nNode instances 1 4\n  1\t7 \r\n", true},
		{"ADL structures 2\nNode Bool Nat Int\nEdge Node Node\n", false},
		{"ADL structures 2\nEdge Node Node\nNode Bool Nat Nat\n", false},
		{"ADL structures 1\n", false},
		{"ADL structures 2\nEdge Node Node\nNode Bool Nat Int\nEdge instances 1 1\n1 1 1\nNode instances 1 1\n", false},
		{"ADL structures 2\nEdge Node Node\nNode Bool Nat Int\nEdge instances 3 2\n", false},
		{"ADL structures 2\nEdge Node Node\nNode Bool Nat Int\nEdge instances 2 2\n1 1\n", false},
	} {
		path := filepath.Join(dir, fmt.Sprintf("%d.init", i))
		os.WriteFile(path, []byte(c.src), 0o644)
		out, err := exec.Command(bin, path).Output()
		var diags diag.List
		d := initfile.Parse(diag.NewFile(path, []byte(c.src)), prog, &diags)
		if !c.ok {
			if err == nil || d != nil {
				t.Errorf("case %d: C++ accepted=%v, Go accepted=%v, want both to reject", i, err == nil, d != nil)
			}
			continue
		}
		if err != nil || d == nil {
			t.Fatalf("case %d: C++ err=%v, Go %v", i, err, diags.Err())
		}
		var want strings.Builder
		for _, s := range []string{"Edge", "Node"} {
			st := prog.StructByName(s)
			fmt.Fprintf(&want, "%s %d", s, d.Counts[st.Index])
			for pi, col := range d.Cols[st.Index] {
				var vs []string
				for _, v := range col {
					if st.Params[pi].Type.String() == "Int" {
						vs = append(vs, fmt.Sprint(v))
					} else {
						vs = append(vs, fmt.Sprint(uint32(v)))
					}
				}
				fmt.Fprintf(&want, " [%s]", strings.Join(vs, " "))
			}
			want.WriteString("\n")
		}
		if string(out) != want.String() {
			t.Errorf("case %d: C++ reader\n%s\nGo reader\n%s", i, out, want.String())
		}
	}
}
