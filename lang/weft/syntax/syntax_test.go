package syntax

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"weft.dev/weft/diag"
)

var ignorePos = cmp.Options{cmpopts.IgnoreTypes(diag.Pos{}), cmp.Exporter(func(reflect.Type) bool { return true })}

func parseOK(t *testing.T, name string, src []byte) *File {
	t.Helper()
	var errs diag.List
	f := Parse(diag.NewFile(name, src), &errs)
	if errs.Len() > 0 {
		t.Fatalf("%s: unexpected errors:\n%v", name, errs.Err())
	}
	return f
}

// roundTrip checks parse(print(parse(src))) == parse(src) and that printing
// is idempotent.
func roundTrip(t *testing.T, name string, src []byte) {
	t.Helper()
	f1 := parseOK(t, name, src)
	out1 := Print(f1)
	f2 := parseOK(t, name+" (printed)", []byte(out1))
	if d := treeDiff(f1.Decls, f2.Decls); d != "" || !cmp.Equal(f1.Trailing, f2.Trailing) {
		t.Errorf("%s: tree changed by print/parse (-want +got):\n%s\nprinted:\n%s", name, d, out1)
	}
	if out2 := Print(f2); out2 != out1 {
		t.Errorf("%s: printing is not idempotent:\nfirst:\n%s\nsecond:\n%s", name, out1, out2)
	}
}

// TestRoundTrip round-trips every .weft file in this package's testdata,
// the other Weft packages' testdata, the standard library and every example
// (recursively: examples/weft/gemm, sync, ...). Examples must parse.
func TestRoundTrip(t *testing.T) {
	var files []string
	for _, pat := range []string{"testdata/*.weft", "../*/testdata/*.weft", "../*/testdata/*/*.weft", "../lib/*.weft"} {
		m, _ := filepath.Glob(pat)
		files = append(files, m...)
	}
	examples := map[string]bool{}
	err := filepath.WalkDir("../../../examples/weft", func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".weft") {
			files = append(files, path)
			examples[path] = true
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// Chunked files hold many small programs separated by --- lines;
		// files whose cases carry ERROR markers are tested elsewhere.
		for i, chunk := range chunks(string(src)) {
			if strings.Contains(chunk, "# ERROR W01") || strings.Contains(chunk, "# ERROR S0") {
				continue
			}
			var errs diag.List
			Parse(diag.NewFile(f, []byte(chunk)), &errs)
			if errs.Len() > 0 {
				if examples[f] {
					t.Errorf("example %s does not parse: %v", f, errs.Diags[0])
				}
				continue // a checker test case with deliberate syntax errors
			}
			roundTrip(t, f+"#"+strconv.Itoa(i), []byte(chunk))
			n++
		}
	}
	if n < 20 {
		t.Fatalf("only %d programs round-tripped", n)
	}
}

func chunks(src string) []string {
	return regexp.MustCompile(`(?m)^---\s*$\n?`).Split(src, -1)
}

func TestConstructs(t *testing.T) {
	src, _ := os.ReadFile("testdata/constructs.weft")
	f := parseOK(t, "constructs.weft", src)
	if len(f.Decls) != 7 {
		t.Fatalf("got %d decls", len(f.Decls))
	}
	p := f.Decls[6].(*Proc)
	if p.Name.Name != "everything" || len(p.Params) != 6 {
		t.Fatalf("proc %s with %d params", p.Name.Name, len(p.Params))
	}
	if w := p.Params[5].Type; !w.Window || w.Elem.Name != "i32" {
		t.Errorf("window param parsed as %s", TypeString(w))
	}
	// Spot-check the Arrive with two barriers and the guide's old forms.
	out := Print(f)
	for _, want := range []string{
		"Arrive(Sm80_cp_async) >> cg, bar[cta]",
		"Await(bar[cta], cuda_in_order, ~0)",
		"win = smem[cta, 0:8] @ CUtensorMap(swizzle=128)",
		"for w in cuda_threads(0, 4, unit=N1 / Nw * cuda_warp):",
		"some_proc(N, A[i, :], (i + 1) % 8, i // 2, -(i - 1))",
		"X[128 * task + tid] += Y[128 * task + tid]  # a reduce",
		"            # Collective unit here: CTA of 128 threads\n",
		"# trailing comment\n",
		"elif k == 5:",
		"guarded: barrier(bar)[2] @ CudaMbarrier",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("printed output lacks %q:\n%s", want, out)
		}
	}
}

func TestOldSyncForms(t *testing.T) {
	src := "def f():\n    Arrive(cuda_classic, my_mbarrier[team], 1)\n    x[2]: f32 @ CudaRmem\n"
	f := parseOK(t, "old.weft", []byte(src))
	out := Print(f)
	want := "def f():\n    Arrive(cuda_classic, 1) >> my_mbarrier[team]\n    x: f32[2] @ CudaRmem\n"
	if out != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestErrors checks testdata/errors.weft: chunks separated by ---, each line
// that must produce an error carries `# ERROR CODE "regexp"`.
func TestErrors(t *testing.T) {
	src, err := os.ReadFile("testdata/errors.weft")
	if err != nil {
		t.Fatal(err)
	}
	marker := regexp.MustCompile(`# ERROR (\w+) "([^"]*)"`)
	for i, chunk := range chunks(string(src)) {
		var errs diag.List
		file := diag.NewFile("errors.weft", []byte(chunk))
		Parse(file, &errs)
		type want struct {
			line int
			code string
			re   *regexp.Regexp
		}
		var wants []want
		for ln, text := range strings.Split(chunk, "\n") {
			if m := marker.FindStringSubmatch(text); m != nil {
				wants = append(wants, want{ln + 1, m[1], regexp.MustCompile(m[2])})
			}
		}
		got := map[int]bool{}
		for _, w := range wants {
			found := false
			for j, d := range errs.Diags {
				if d.Pos.Line() == w.line && d.Code == w.code && w.re.MatchString(d.Message) {
					found = true
					got[j] = true
				}
			}
			if !found {
				t.Errorf("chunk %d line %d: want %s %q; got %v", i, w.line, w.code, w.re, errs.Diags)
			}
		}
		for j, d := range errs.Diags {
			if !got[j] {
				t.Errorf("chunk %d: unexpected %v", i, d.Error())
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, pat := range []string{"testdata/*.weft"} {
		m, _ := filepath.Glob(pat)
		for _, file := range m {
			src, _ := os.ReadFile(file)
			for _, c := range chunks(string(src)) {
				f.Add(c)
			}
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		var errs diag.List
		file := Parse(diag.NewFile("fuzz.weft", []byte(src)), &errs)
		if errs.Len() > 0 {
			return
		}
		// Whatever parses cleanly must round-trip.
		out := Print(file)
		var errs2 diag.List
		f2 := Parse(diag.NewFile("fuzz2.weft", []byte(out)), &errs2)
		if errs2.Len() > 0 {
			t.Fatalf("printed form does not parse: %v\n%s", errs2.Err(), out)
		}
		if d := treeDiff(file.Decls, f2.Decls); d != "" {
			t.Fatalf("round trip changed the tree:\n%s\nprinted:\n%s", d, out)
		}
	})
}

// TestExoForms: Exo's printed forms keep their spelling through Print
// (free(x), chained >>, parenthesized ring_buffer_by annotations, configs),
// so Exo's output reprints token for token.
func TestExoForms(t *testing.T) {
	src, _ := os.ReadFile("testdata/exo.weft")
	f := parseOK(t, "exo.weft", src)
	if out := Print(f); out != string(src) {
		t.Errorf("not reprinted as written:\n%s", out)
	}
	cfg := f.Decls[0].(*Config)
	if cfg.Name.Name != "ConfigAB" || len(cfg.Fields) != 2 || cfg.Fields[0].Type.Elem.Name != "R" {
		t.Errorf("config parsed as %+v", cfg)
	}
	p := f.Decls[1].(*Proc)
	raw := p.Body[6].(*Alloc).Type
	if len(raw.DimAnns) != 2 || raw.DimAnns[0] != nil || ExprString(raw.DimAnns[1]) != "ring_buffer_by(depth=6)" {
		t.Errorf("dimension annotations %v", raw.DimAnns)
	}
	if a := p.Body[8].(*Arrive); !a.Chained || len(a.Barriers) != 2 {
		t.Errorf("chained arrive parsed as %+v", a)
	}
	if fr := p.Body[3].(*Free); !fr.Paren {
		t.Errorf("free(t) parsed as %+v", fr)
	}
}

// TestStringRoundTrip: Print spells every string value so that Parse reads
// back the same value (FuzzParse found "\x10" printed as strconv.Quote
// writes it, which the scanner reads as four characters), and plain
// strings as before.
func TestStringRoundTrip(t *testing.T) {
	for _, v := range []string{"producer", "a\"b", `back\slash`, "tab\there", "nl\nx", "\x10", "\a\b\f\v\x00", "\xff\xfe", "é", "cr\rx", "q'q", `\x10`} {
		f := &File{Decls: []Decl{&Global{Names: []*Name{{Name: "A"}}, Values: []Expr{&StringLit{Value: v}}}}}
		out := Print(f)
		var errs diag.List
		g := Parse(diag.NewFile("s.weft", []byte(out)), &errs)
		if errs.HasErrors() {
			t.Errorf("%q printed as %q does not parse: %v", v, out, errs.Err())
			continue
		}
		if got := g.Decls[0].(*Global).Values[0].(*StringLit).Value; got != v {
			t.Errorf("%q printed as %q reads back as %q", v, out, got)
		}
	}
	f := &File{Decls: []Decl{&Global{Names: []*Name{{Name: "A"}}, Values: []Expr{&StringLit{Value: "producer"}}}}}
	if out := Print(f); out != "A = \"producer\"\n" {
		t.Errorf("plain string printed as %q", out)
	}
}

// TestSmallDecimal checks the parser's fast path for integer literals
// against strconv on the cases around its bounds.
func TestSmallDecimal(t *testing.T) {
	for _, s := range []string{"0", "7", "00", "01", "10", "1_0", "0x1f", "0b11", "0o17", "999999999999999999", "1000000000000000000",
		"9223372036854775807", "9223372036854775808", "12a", ""} {
		v, ok := smallDecimal(s)
		want, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 0, 64)
		if ok && (err != nil || v != want) {
			t.Errorf("smallDecimal(%q) = %d, want %d (%v)", s, v, want, err)
		}
		if wantOK := err == nil && len(s) <= 18 && !strings.ContainsAny(s, "_xbo") && (s == "0" || s[0] != '0'); ok != wantOK {
			t.Errorf("smallDecimal(%q) ok = %v, want %v", s, ok, wantOK)
		}
	}
}

// TestSmallFloat checks the parser's fast path for float literals
// against strconv: the same float64 bits wherever it answers, and an
// answer for the forms it takes (digits and one point, 15 digits at
// most), on cases around its bounds and on random digit strings whose
// quotients round both ways.
func TestSmallFloat(t *testing.T) {
	cases := []string{"1.0", "0.5", "3.", ".5", "0.1", "0.3", "1.5e3", "1e5", "1_0.5", "1.2.3", ".", "", "a.1", "00.25",
		"123456789012345.", ".123456789012345", "1234567890123456.", ".1234567890123456", "999999999999999.9", "99999999999999.9",
		"0.000000000000001", "9007199254740.993", "2.225", "1.7976931348623157"}
	r := rand.New(rand.NewPCG(42, 1))
	for range 20000 {
		n := 1 + r.IntN(16)
		b := make([]byte, n)
		for i := range b {
			b[i] = byte('0' + r.IntN(10))
		}
		pt := r.IntN(n + 1)
		cases = append(cases, string(b[:pt])+"."+string(b[pt:]))
	}
	for _, s := range cases {
		v, ok := smallFloat(s)
		want, err := strconv.ParseFloat(s, 64)
		if ok && (err != nil || math.Float64bits(v) != math.Float64bits(want)) {
			t.Errorf("smallFloat(%q) = %v, want %v (%v)", s, v, want, err)
		}
		digits := len(s) - strings.Count(s, ".")
		if wantOK := err == nil && strings.Count(s, ".") == 1 && digits >= 1 && digits <= 15 && !strings.ContainsAny(s, "_eE"); ok != wantOK {
			t.Errorf("smallFloat(%q) ok = %v, want %v", s, ok, wantOK)
		}
	}
}
