package dumpcmp_test

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/audala/check"
	"weft.dev/weft/lang/audala/dumpcmp"
	"weft.dev/weft/lang/audala/interp"
)

const src = `struct Node (next : Node, v : Int) {
  grow { Node n := Node(next, v); }
}
grow < Node.print
`

func load(t testing.TB) *check.Program {
	var diags diag.List
	p := interp.Load(diag.NewFile("t.adl", []byte(src)), &diags)
	if p == nil {
		t.Fatal(diags)
	}
	return p
}

// dump formats Node lines: next[i], v[i] for labels 1..len.
func dump(next, v []int) string {
	var b strings.Builder
	for i := range next {
		fmt.Fprintf(&b, "Node(%d): next=%d, v=%d\n", i+1, next[i], v[i])
	}
	return b.String()
}

func TestCompare(t *testing.T) {
	p := load(t)
	for _, c := range []struct {
		name     string
		fixed    int
		ref, got string
		want     dumpcmp.Result
	}{
		{"equal", 0, dump([]int{2, 0}, []int{1, 2}), dump([]int{2, 0}, []int{1, 2}), dumpcmp.Result{OK: true, Match: true}},
		// Created 2..4 renamed 2->3, 3->4, 4->2.
		{"renamed", 1, dump([]int{2, 3, 4, 0}, []int{0, 1, 2, 3}), dump([]int{3, 0, 4, 2}, []int{0, 3, 1, 2}),
			dumpcmp.Result{OK: true, Match: true, Renamed: true}},
		// The same renaming with one value wrong.
		{"wrong value", 1, dump([]int{2, 3, 4, 0}, []int{0, 1, 2, 3}), dump([]int{3, 0, 4, 2}, []int{0, 3, 1, 9}),
			dumpcmp.Result{OK: true, Shape: true, Line: 4, GotCount: 1, RefCount: 0}},
		// Swapping .init instances 1 and 2 is no allowed renaming...
		{"fixed swapped", 2, dump([]int{2, 0}, []int{0, 0}), dump([]int{0, 1}, []int{0, 0}),
			dumpcmp.Result{OK: true, Shape: true, Line: 1, GotCount: 1, RefCount: 0}},
		// ... but is one of created instances.
		{"created swapped", 0, dump([]int{2, 0}, []int{0, 0}), dump([]int{0, 1}, []int{0, 0}),
			dumpcmp.Result{OK: true, Match: true, Renamed: true}},
		// Two 3-cycles against two 3-cycles numbered otherwise: colour
		// refinement cannot split them, the search individualises.
		{"two cycles", 0, dump([]int{2, 3, 1, 5, 6, 4}, []int{7, 7, 7, 7, 7, 7}), dump([]int{4, 3, 5, 6, 2, 1}, []int{7, 7, 7, 7, 7, 7}),
			dumpcmp.Result{OK: true, Match: true, Renamed: true}},
		// Two 3-cycles against one 6-cycle: every instance looks alike
		// to colour refinement, yet no renaming exists.
		{"cycles 3+3 vs 6", 0, dump([]int{2, 3, 1, 5, 6, 4}, []int{7, 7, 7, 7, 7, 7}), dump([]int{2, 3, 4, 5, 6, 1}, []int{7, 7, 7, 7, 7, 7}),
			dumpcmp.Result{OK: true, Shape: true}},
		// An instance that existed at the first print may not be exchanged
		// with one created after it.
		{"across prints", 0, "Node(1): next=0, v=5\nNode(1): next=0, v=7\nNode(2): next=0, v=5\n", "Node(1): next=0, v=5\nNode(1): next=0, v=5\nNode(2): next=0, v=7\n",
			dumpcmp.Result{OK: true, Shape: true}},
		{"extra line", 0, dump([]int{0}, []int{1}), dump([]int{0, 0}, []int{1, 1}), dumpcmp.Result{OK: true, Line: 2, GotCount: 2, RefCount: 1}},
		{"not a print line", 0, dump([]int{0}, []int{1}), "hello\n", dumpcmp.Result{}},
		{"unknown param", 0, dump([]int{0}, []int{1}), "Node(1): next=0, w=1\n", dumpcmp.Result{}},
	} {
		if got := dumpcmp.Compare(p, []int{c.fixed}, c.ref, c.got); got != c.want {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}

// permuted renames the created labels (above fixed) of a Node dump by a
// random permutation and prints it in label order again.
func permuted(next, v []int, fixed int, rng *rand.Rand) string {
	n := len(next)
	pi := make([]int, n+1) // old label -> new
	for i := range pi {
		pi[i] = i
	}
	perm := rng.Perm(n - fixed)
	for i, j := range perm {
		pi[fixed+1+i] = fixed + 1 + j
	}
	nn, nv := make([]int, n), make([]int, n)
	for l := 1; l <= n; l++ {
		nn[pi[l]-1], nv[pi[l]-1] = pi[next[l-1]], v[l-1]
	}
	return dump(nn, nv)
}

// TestCompareLarge: 1000 created instances (forests of chains with few
// distinct values), randomly renamed, match; one value changed, not.
func TestCompareLarge(t *testing.T) {
	p := load(t)
	rng := rand.New(rand.NewSource(1))
	const n, fixed = 1000, 100
	next, v := forest(n, rng)
	ref, got := dump(next, v), permuted(next, v, fixed, rng)
	t0 := time.Now()
	r := dumpcmp.Compare(p, []int{fixed}, ref, got)
	t.Logf("%d instances: %v", n, time.Since(t0))
	if !r.Match || !r.Renamed {
		t.Fatalf("renamed: %+v", r)
	}
	lines := strings.Split(got, "\n")
	i := n - 1
	lines[i] = lines[i][:len(lines[i])-1] + "9"
	if r := dumpcmp.Compare(p, []int{fixed}, ref, strings.Join(lines, "\n")); r.Match || r.Line != n {
		t.Fatalf("mutant: %+v", r)
	}
}

// forest: each label points to an earlier one (or null) and has a value
// in 0..2, so many instances are alike.
func forest(n int, rng *rand.Rand) (next, v []int) {
	next, v = make([]int, n), make([]int, n)
	for l := 1; l <= n; l++ {
		if l > 1 && rng.Intn(4) != 0 {
			next[l-1] = 1 + rng.Intn(l-1)
		}
		v[l-1] = rng.Intn(3)
	}
	return next, v
}

// TestCompareBudget: 20000 created instances in 3-cycles, all alike and
// randomly renamed: following references cannot pair instances on cycles,
// and individualising them one cycle at a time needs more than Budget:
// Undecided, a mismatch, not a match. The same number of instances in a
// forest (pairByRefs) matches.
func TestCompareBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds")
	}
	p := load(t)
	rng := rand.New(rand.NewSource(2))
	next, v := forest(20000, rng)
	t0 := time.Now()
	r := dumpcmp.Compare(p, []int{0}, dump(next, v), permuted(next, v, 0, rng))
	t.Logf("20000 instances, forest: %v", time.Since(t0))
	if want := (dumpcmp.Result{OK: true, Match: true, Renamed: true}); r != want {
		t.Fatalf("forest: got %+v, want %+v", r, want)
	}
	for l := 1; l <= len(next); l++ {
		next[l-1], v[l-1] = l+1, 7
		if l%3 == 0 {
			next[l-1] = l - 2
		}
	}
	next = next[:19998]
	v = v[:19998]
	t0 = time.Now()
	r = dumpcmp.Compare(p, []int{0}, dump(next, v), permuted(next, v, 0, rng))
	t.Logf("19998 instances, 3-cycles: %v", time.Since(t0))
	if want := (dumpcmp.Result{OK: true, Shape: true, Undecided: true}); r != want {
		t.Fatalf("cycles: got %+v, want %+v", r, want)
	}
}
