package gpucheck

import (
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// programFiles are the .weft programs of the repository's examples,
// benchmarks and test data (each may hold '---'-separated chunks).
func programFiles() []string {
	var files []string
	for _, dir := range []string{"../../../examples", "../../../bench/syncref/weft", "testdata", "../cudagen/testdata"} {
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".weft") {
				files = append(files, path)
			}
			return nil
		})
	}
	return files
}

// checkedChunk is one '---' chunk of a repository program that parses,
// with its GPU check.
type checkedChunk struct {
	path string
	file *syntax.File
	res  *Result
}

// checkedPrograms parses and checks every chunk of programFiles that
// parses (the corpus of the differential tests in this package).
func checkedPrograms(t *testing.T, l *lib.Library) []checkedChunk {
	var out []checkedChunk
	for _, path := range programFiles() {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, chunk := range strings.Split(string(src), "\n---\n") {
			var errs diag.List
			f := syntax.Parse(diag.NewFile(path, []byte(chunk)), &errs)
			if errs.HasErrors() {
				continue
			}
			out = append(out, checkedChunk{path, f, Check(f, Options{Lib: l}, &errs)})
		}
	}
	return out
}

// TestBodyAtMatchesMap checks the body list (bodies.go) against the map
// it replaced: on every .weft program of the repository, a map from each
// statement to the tiling recorded for it, built from the list, gives
// for every statement what Body gives and what BodyAt gives with one
// cursor shared over the statements asked in walk order, in reverse and
// shuffled; every cuda_threads iterator's body is its loop's.
func TestBodyAtMatchesMap(t *testing.T) {
	l := lib.MustStd()
	rng := rand.New(rand.NewSource(32))
	programs, bodies := 0, 0
	for _, c := range checkedPrograms(t, l) {
		path, r := c.path, c.res
		programs++
		want := map[syntax.Stmt]*coll.Tiling{}
		for _, b := range r.bodies.list {
			if _, dup := want[b.st]; dup {
				t.Fatalf("%s: a statement recorded twice", path)
			}
			want[b.st] = b.body
		}
		bodies += len(want)
		for _, d := range r.Devices {
			for _, it := range d.Iters {
				if got := r.Body(it.Loop); got != it.Body {
					t.Errorf("%s: Body of iterator %s's loop = %p, want %p", path, it.Name, got, it.Body)
				}
			}
		}
		for _, order := range stmtOrders(rng, r.Stmts) {
			cur := 0
			for _, st := range order {
				if got := r.BodyAt(st, &cur); got != want[st] {
					t.Fatalf("%s: BodyAt(%s) = %p, want %p", path, stmtText(st), got, want[st])
				}
				if got := r.Body(st); got != want[st] {
					t.Fatalf("%s: Body(%s) = %p, want %p", path, stmtText(st), got, want[st])
				}
			}
		}
	}
	t.Logf("%d programs, %d body tilings", programs, bodies)
	if programs < 50 || bodies < 200 {
		t.Errorf("the comparison exercised too little")
	}
}

// stmtOrders is stmts in source order, reversed and shuffled: the orders
// in which the cursor lookups (BodyAt, ScopeAt) are asked, so that a
// cursor that only works forwards fails.
func stmtOrders(rng *rand.Rand, stmts []syntax.Stmt) [][]syntax.Stmt {
	fwd := append([]syntax.Stmt(nil), stmts...)
	rev := append([]syntax.Stmt(nil), stmts...)
	slices.Reverse(rev)
	shuf := append([]syntax.Stmt(nil), stmts...)
	rng.Shuffle(len(shuf), func(i, j int) { shuf[i], shuf[j] = shuf[j], shuf[i] })
	return [][]syntax.Stmt{fwd, rev, shuf}
}
