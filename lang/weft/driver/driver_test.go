package driver

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"weft.dev/weft/cuda"
	"weft.dev/weft/diag"
	"weft.dev/weft/frontend"
	"weft.dev/weft/lang/weft/check"
	"weft.dev/weft/lang/weft/interp"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

const examples = "../../../examples/weft"

// TestExamplesRoundTrip: every example (including the sync and gemm
// subdirectories) round-trips through weft fmt: printing is idempotent and
// re-parsing the printed form prints the same text. The top-level examples
// are kept in canonical form.
func TestExamplesRoundTrip(t *testing.T) {
	n := 0
	err := filepath.WalkDir(examples, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".weft") {
			return err
		}
		n++
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var errs diag.List
		f := syntax.Parse(diag.NewFile(path, src), &errs)
		if errs.HasErrors() {
			t.Errorf("%s: %v", path, errs.Err())
			return nil
		}
		once := syntax.Print(f)
		f2 := syntax.Parse(diag.NewFile(path, []byte(once)), &errs)
		if errs.HasErrors() {
			t.Errorf("%s: printed form does not parse: %v", path, errs.Err())
			return nil
		}
		if twice := syntax.Print(f2); twice != once {
			t.Errorf("%s: printing is not idempotent", path)
		}
		if filepath.Dir(path) == examples && once != string(src) {
			t.Errorf("%s is not in canonical form: run weft fmt -w %s", path, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 4 {
		t.Fatalf("found %d examples, want at least 4", n)
	}
}

// TestExamplesRun: each top-level example runs with weft run and passes
// weft check (issue 2 item 8).
func TestExamplesRun(t *testing.T) {
	for _, tc := range []struct {
		file string
		args []string
	}{
		{"vector_add.weft", []string{"N=1024", "X=rand", "Y=rand"}},
		{"gemm_seq.weft", []string{"M=32", "N=48", "K=16", "A=rand", "B=rand"}},
		{"gemv_seq.weft", []string{"M=64", "K=32", "A=rand", "x=rand"}},
		{"gemv_cuda.weft", []string{"M=512", "K=32", "A=rand", "x=rand"}},
		{"gemv_smem.weft", []string{"M=256", "K=256", "A=rand", "x=rand"}},
	} {
		path := filepath.Join(examples, tc.file)
		var stdout, stderr bytes.Buffer
		env := &frontend.Env{Stdout: &stdout, Stderr: &stderr}
		if rc := runVerb(env, append([]string{path}, tc.args...)); rc != 0 {
			t.Errorf("weft run %s: exit %d\n%s", tc.file, rc, stderr.String())
		}
		if rc := checkVerb(env, []string{path}); rc != 0 {
			t.Errorf("weft check %s: exit %d\n%s", tc.file, rc, stderr.String())
		}
	}
}

func TestSplitAssignments(t *testing.T) {
	files, as := splitAssignments([]string{"a.weft", "N=4", "A=x.npy", "=3", "dir/b=c.weft"})
	if strings.Join(files, " ") != "a.weft =3 dir/b=c.weft" {
		t.Errorf("files = %q", files)
	}
	if len(as) != 2 || as[0] != [2]string{"N", "4"} || as[1] != [2]string{"A", "x.npy"} {
		t.Errorf("assignments = %q", as)
	}
}

// TestCheckSplit: weft check's checkSplit reads the arguments as
// splitAssignments does (the first file, the number of files, the
// assignments in order), within its buffer and past it; and a plain
// argument list is passed on as it is, unchanged (plainCheckArgs).
func TestCheckSplit(t *testing.T) {
	for _, pos := range [][]string{
		nil,
		{"a.weft"},
		{"a.weft", "N=4"},
		{"N=4", "a.weft", "M=0x10"},
		{"a.weft", "N=4", "A=x.npy", "=3", "dir/b=c.weft"},
		{"a=1", "b=2", "c=3", "d=4", "e=5", "f.weft", "g=6"},
		{"", "x", "1N=2"},
	} {
		files, as := splitAssignments(pos)
		var buf [4][2]string
		file, n, as2 := checkSplit(pos, &buf)
		first := ""
		if len(files) > 0 {
			first = files[0]
		}
		if file != first || n != len(files) || fmt.Sprint(as2) != fmt.Sprint(as) || len(as2) != len(as) {
			t.Errorf("%q: checkSplit = %q, %d, %q; splitAssignments = %q, %q", pos, file, n, as2, files, as)
		}
	}
	args := []string{"N=4", "a.weft"}
	pos, asJSON, quiet, ok := plainCheckArgs(args)
	if !ok || asJSON || quiet || len(pos) != 2 || &pos[0] != &args[0] {
		t.Errorf("plainCheckArgs(%q) = %q, %v, %v, %v: want args itself", args, pos, asJSON, quiet, ok)
	}
	if args[0] != "N=4" || args[1] != "a.weft" {
		t.Errorf("args changed: %q", args)
	}
	pos, _, quiet, ok = plainCheckArgs([]string{"N=4", "-q", "a.weft"})
	if !ok || !quiet || strings.Join(pos, " ") != "N=4 a.weft" {
		t.Errorf("plainCheckArgs with -q = %q, %v, %v", pos, quiet, ok)
	}
	// Switches around the positional run: pos is the run, in args.
	args = []string{"-q", "a.weft", "N=4", "--json"}
	pos, asJSON, quiet, ok = plainCheckArgs(args)
	if !ok || !quiet || !asJSON || strings.Join(pos, " ") != "a.weft N=4" || &pos[0] != &args[1] || cap(pos) != 2 {
		t.Errorf("plainCheckArgs(%q) = %q (cap %d), %v, %v, %v: want args[1:3]", args, pos, cap(pos), asJSON, quiet, ok)
	}
	if pos, _, _, ok = plainCheckArgs([]string{"-q", "--json"}); !ok || len(pos) != 0 {
		t.Errorf("plainCheckArgs of switches alone = %q, %v", pos, ok)
	}
}

// TestTutorialSnippets keeps docs/weft-tutorial.md true to the code: every
// ```weft block parses, is in canonical form, and passes the static checks
// of check.Check.
func TestTutorialSnippets(t *testing.T) {
	src, err := os.ReadFile("../../../docs/weft-tutorial.md")
	if err != nil {
		t.Fatal(err)
	}
	l, err := lib.Std()
	if err != nil {
		t.Fatal(err)
	}
	blocks := strings.Split(string(src), "```weft\n")
	if len(blocks) < 6 {
		t.Fatalf("found %d weft blocks, want at least 5", len(blocks)-1)
	}
	for i, b := range blocks[1:] {
		code, _, ok := strings.Cut(b, "```")
		if !ok {
			t.Fatalf("block %d is not closed", i+1)
		}
		var errs diag.List
		f := syntax.Parse(diag.NewFile("tutorial block "+strconv.Itoa(i+1), []byte(code)), &errs)
		check.Check(f, l, &errs)
		if errs.HasErrors() {
			t.Errorf("block %d: %v", i+1, errs.Err())
			continue
		}
		if out := syntax.Print(f); out != code {
			t.Errorf("block %d is not canonical:\n%s", i+1, out)
		}
	}
}

// TestEveryExampleRuns: the interpreter gives a meaning to every example,
// including the sync and GEMM kernels of the other parts of the toolchain
// (their instruction calls run the library's behaviour bodies). Sizes come
// from the file's `# check: N=...` line, arrays are random.
func TestEveryExampleRuns(t *testing.T) {
	err := filepath.WalkDir(examples, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".weft") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var sizes, extra []string
		for _, line := range strings.Split(string(src), "\n") {
			if rest, ok := strings.CutPrefix(line, "# check:"); ok && sizes == nil {
				sizes = strings.Fields(rest)
			}
			// `# run: NAME=VALUE ...` gives scalars and inputs (examples/weft/exo).
			if rest, ok := strings.CutPrefix(line, "# run:"); ok {
				extra = strings.Fields(rest)
			}
		}
		var errs diag.List
		f := syntax.Parse(diag.NewFile(path, src), &errs)
		if errs.HasErrors() {
			t.Errorf("%s: %v", path, errs.Err())
			return nil
		}
		// Every array parameter of the proc run is random.
		args := []string{path}
		for _, a := range sizes {
			if name, _, _ := strings.Cut(a, "="); !strings.Contains(" "+strings.Join(extra, " "), " "+name+"=") {
				args = append(args, a) // the # run: line overrides a size
			}
		}
		args = append(args, extra...)
		for _, decl := range f.Decls {
			p, ok := decl.(*syntax.Proc)
			if !ok || interp.IsInstr(p) {
				continue
			}
			for _, prm := range p.Params {
				if len(prm.Type.Dims) > 0 && !strings.Contains(" "+strings.Join(extra, " "), " "+prm.Name.Name+"=") {
					args = append(args, prm.Name.Name+"=rand")
				}
			}
		}
		var stdout, stderr bytes.Buffer
		env := &frontend.Env{Stdout: &stdout, Stderr: &stderr}
		if rc := runVerb(env, args); rc != 0 {
			t.Errorf("weft run %s: exit %d\n%s", strings.Join(args, " "), rc, stderr.String())
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTutorialBuild follows section 10 of the tutorial up to the GPU: the
// harness of the vector add builds and links with gcc and nvcc.
func TestTutorialBuild(t *testing.T) {
	if buildVerb == nil {
		t.Skip("weft build is not linked in")
	}
	nvcc := cuda.FindNVCC()
	if nvcc == "" {
		if os.Getenv("WEFT_REQUIRE_NVCC") == "1" {
			t.Fatal("nvcc not found")
		}
		t.Skip("nvcc not found")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc not found")
	}
	dir := t.TempDir()
	var stdout, stderr bytes.Buffer
	env := &frontend.Env{Stdout: &stdout, Stderr: &stderr}
	src := filepath.Join(examples, "vector_add.weft")
	in, ref, build := filepath.Join(dir, "in"), filepath.Join(dir, "ref"), filepath.Join(dir, "build")
	if rc := runVerb(env, []string{src, "N=1024", "X=rand", "Y=rand", "--inputs", in, "--out", ref}); rc != 0 {
		t.Fatalf("weft run: exit %d\n%s", rc, stderr.String())
	}
	for _, f := range []string{"in/X.npy", "in/Y.npy", "ref/X.npy", "ref/Y.npy"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	if rc := buildVerb(env, []string{src, "-o", build, "--harness"}); rc != 0 {
		t.Fatalf("weft build: exit %d\n%s", rc, stderr.String())
	}
	for _, cmd := range [][]string{
		{"gcc", "-std=c11", "-c", "vector_add.c", "-o", "vector_add_host.o"},
		{nvcc, "-std=c++17", "-arch=sm_90a", "vector_add.cu", "main.cu", "vector_add_host.o", "-o", "vector_add"},
	} {
		c := exec.Command(cmd[0], cmd[1:]...)
		c.Dir = build
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(cmd, " "), err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(build, "vector_add")); err != nil {
		t.Fatal(err)
	}
}
