package verify

import (
	"reflect"
	"strings"
	"testing"

	"weft.dev/weft/diag"
)

func TestExtractInstances(t *testing.T) {
	src := "template <typename T, int N> __global__ void k(T *a) { a.template get<int>(); }\n" +
		"template __global__ void k<float, 0>(float *a);\n" +
		"extern template __global__ void k<pair<int, int>, 3>(pair<int, int> *);\n" +
		"template struct S<int>;\n"
	f, got := extractInstances(diag.NewFile("f.cu", []byte(src)))
	want := map[string][]string{"k": {"float, 0", "pair<int, int>, 3"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("instances %q, want %q", got, want)
	}
	out := string(f.Src)
	if len(out) != len(src) || strings.Count(out, "\n") != strings.Count(src, "\n") {
		t.Fatalf("positions moved:\n%s", out)
	}
	for _, keep := range []string{"a.template get<int>()", "template struct S<int>;", "template <typename T, int N>"} {
		if !strings.Contains(out, keep) {
			t.Errorf("%q blanked out:\n%s", keep, out)
		}
	}
	if strings.Contains(out, "k<float, 0>") || strings.Contains(out, "pair<int, int>, 3>") || strings.Contains(out, "extern") {
		t.Errorf("instantiations left:\n%s", out)
	}
}
