package syntax

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"weft.dev/weft/diag"
	"weft.dev/weft/pyscan"
)

// genProc writes a proc with nd decorators (each with a comment), np
// parameters, na allocations and assignments, calls with 0 to 3
// keyword arguments, loops, ifs and with blocks: enough of each kind to
// outgrow the parser's arena (arena.go) when a file has several.
func genProc(r *rand.Rand, i int) string {
	var b strings.Builder
	for d := range r.IntN(6) {
		fmt.Fprintf(&b, "@deco%d(%d)  # c%d_%d\n", d, i, i, d)
	}
	fmt.Fprintf(&b, "def p%d(", i)
	np := r.IntN(11)
	for k := range np {
		if k > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "a%d_%d: f32[%d, n%d] @ DRAM", i, k, k+1, k)
	}
	b.WriteString("):\n")
	for s := range 1 + r.IntN(8) {
		switch r.IntN(6) {
		case 0:
			fmt.Fprintf(&b, "    t%d: f32[%d] @ DRAM\n", s, s+2)
		case 1:
			fmt.Fprintf(&b, "    x[%d, %d] = y[%d] + %d\n", s, i, s+1, s*i)
		case 2:
			b.WriteString("    f(a, b")
			for k := range r.IntN(4) {
				fmt.Fprintf(&b, ", k%d=%d", k, k+s)
			}
			b.WriteString(")\n")
		case 3:
			fmt.Fprintf(&b, "    for i%d in seq(0, %d):\n        x[i%d] = 1.0\n", s, s+1, s)
		case 4:
			fmt.Fprintf(&b, "    if t%d == %d:\n        x[%d] = %d.5\n", s, i, s, s)
		default:
			fmt.Fprintf(&b, "    with CudaDeviceFunction(blockDim=%d):\n        x[%d] = 2.0\n", 32*(s+1), s)
		}
	}
	return b.String()
}

// TestArenaOverflow parses files of 1 to 12 generated procs and compares
// each proc's tree with the tree of the same proc parsed alone: in the
// large file the later procs' nodes and lists come from the chunks and
// pools taken after the arena's arrays are used up, alone they come from
// the arena, and an element handed out twice or a list carved over
// another would make the trees differ. Each proc alone prints as its
// source (the generator writes the canonical form), and the file as its
// procs printed alone.
//
// Files of more than bigTokens tokens take a bigArena, the rest the
// parser's arena: the files and procs parsed must have both.
func TestArenaOverflow(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 2))
	var big, small int
	for round := range 60 {
		n := 1 + r.IntN(12)
		procs := make([]string, n)
		for i := range procs {
			procs[i] = genProc(r, i)
		}
		var errs diag.List
		src := []byte(strings.Join(procs, "\n\n"))
		count := func(src []byte) {
			if len(pyscan.New(diag.NewFile("", src), nil).Toks()) > bigTokens {
				big++
			} else {
				small++
			}
		}
		count(src)
		whole := Parse(diag.NewFile("all", src), &errs)
		if errs.Len() > 0 {
			t.Fatalf("round %d: %v", round, errs.Err())
		}
		if len(whole.Decls) != n {
			t.Fatalf("round %d: %d decls, want %d", round, len(whole.Decls), n)
		}
		var prints []string
		for i, src := range procs {
			count([]byte(src))
			one := Parse(diag.NewFile("one", []byte(src)), &errs)
			if errs.Len() > 0 || len(one.Decls) != 1 {
				t.Fatalf("round %d proc %d: %v", round, i, errs.Err())
			}
			if d := treeDiff(one.Decls[0], whole.Decls[i]); d != "" {
				t.Fatalf("round %d proc %d: tree differs in the file of %d procs (-alone +in file):\n%s", round, i, n, d)
			}
			prints = append(prints, strings.TrimSuffix(Print(one), "\n"))
			if prints[i] != strings.TrimSuffix(src, "\n") {
				t.Fatalf("round %d proc %d: printed\n%s\nwant (the source)\n%s", round, i, prints[i], src)
			}
		}
		if got, want := strings.TrimSuffix(Print(whole), "\n"), strings.Join(prints, "\n\n\n"); got != want {
			t.Fatalf("round %d: printed file differs from its procs printed alone:\n%s\n---\n%s", round, got, want)
		}
	}
	if big < 10 || small < 10 {
		t.Errorf("%d parses took a bigArena and %d the parser's arena: want 10 of each at least", big, small)
	}
}

// TestParserSize keeps a small file's arena (one allocation per parse)
// within the 3200-byte size class and a bigArena within the 6912-byte
// one. An object of more than 512 bytes with pointers takes an 8-byte
// header of the allocator: a parser of exactly 4096 bytes had been in
// the 4864-byte class (stop 45; stop 41, stop 42). The parser itself is
// a frame of the stack (TestParseAllocs).
func TestParserSize(t *testing.T) {
	const header = 8
	if n := unsafe.Sizeof(arena{}) + header; n > 3200 {
		t.Errorf("arena takes %d bytes, more than 3200", n)
	}
	if n := unsafe.Sizeof(bigArena{}) + header; n > 6912 {
		t.Errorf("bigArena takes %d bytes, more than 6912", n)
	}
}

// TestParseAllocs: a parse of a small file without strings or comments
// whose nodes fit its arena allocates the arena, the token array and
// the Name and IntLit slabs, not the parser (stop 45: nothing points
// into the parser, so it is a frame of the stack).
func TestParseAllocs(t *testing.T) {
	src := []byte("def f():\n    for i in seq(0, 4):\n        y[i] = 1\n")
	f := diag.NewFile("t", src)
	var errs diag.List
	if tree := Parse(f, &errs); errs.Len() > 0 || len(tree.Decls) != 1 {
		t.Fatalf("%v", errs.Err())
	}
	if n := testing.AllocsPerRun(20, func() { Parse(f, &errs) }); n != 4 {
		t.Errorf("a parse makes %v allocations, want 4", n)
	}
}

// TestParserEstimate parses files whose token estimate (pyscan.SizeOf,
// which chooses the parser's allocation) and token count (which chooses
// the arena) disagree both ways: long names make few tokens of many
// bytes (a parser alone, its arena allocated after the scan), short
// ones many tokens of few bytes (a small parser's arena unused, a
// bigArena taken). Each prints as its source, the canonical form (stop
// 45).
func TestParserEstimate(t *testing.T) {
	var long, dense strings.Builder
	long.WriteString("def long_names():\n")
	for i := range 12 {
		fmt.Fprintf(&long, "    a_rather_long_name_of_a_tensor_number_%d[i] = another_long_name_of_a_tensor_number_%d[i]\n", i, i)
	}
	dense.WriteString("def f(x: f32[4]):\n")
	for i := range 22 {
		fmt.Fprintf(&dense, "    x[%d] = x[%d]\n", i%4, (i+1)%4)
	}
	for _, c := range []struct {
		src      string
		estBig   bool // the estimate exceeds bigTokens
		countBig bool // the count does
	}{{long.String(), true, false}, {dense.String(), false, true}} {
		src := []byte(c.src)
		est := pyscan.SizeOf(src).Tokens() > bigTokens
		n := len(pyscan.New(diag.NewFile("", src), nil).Toks())
		if est != c.estBig || (n > bigTokens) != c.countBig {
			t.Fatalf("estimate %d (big %v), count %d (big %v): want big %v, %v\n%s", pyscan.SizeOf(src).Tokens(), est, n, n > bigTokens, c.estBig, c.countBig, src)
		}
		var errs diag.List
		tree := Parse(diag.NewFile("t", src), &errs)
		if errs.Len() > 0 {
			t.Fatal(errs.Err())
		}
		if got := Print(tree); got != c.src {
			t.Errorf("printed\n%s\nwant\n%s", got, c.src)
		}
	}
}
