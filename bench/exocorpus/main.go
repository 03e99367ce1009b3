// Command exocorpus measures how much of the object code Exo prints Weft
// accepts (issue 19). Given a git mirror of Exo, it extracts every procedure
// printed in the golden test outputs (tests/golden/** at each ref, main and
// the GPU branch by default) into a scratch directory outside the
// repository, one file per distinct procedure, and counts how many parse,
// reprint with `weft fmt` token for token, and pass `weft check` (every
// registered checker, as the CLI runs them), for CPU and GPU procedures.
//
//	go run ./bench/exocorpus -mirror /work/.mirror/exo-lang+exo/repo [-out DIR] [-v]
//
// A procedure is a line beginning `def NAME(` (Exo sometimes prints one
// right after the previous proc's last line, without a newline) and the
// blank or indented lines after it. A procedure is GPU code when it
// mentions a Cuda* or cuda_* name. Cursor excerpts (Exo's cursor printer
// marks gaps `[GAP - Before]` and elides code as `...`) are not programs:
// they are counted in their own row and left out of the totals. Procs from
// a golden file named *wrong* are programs Exo itself rejects (the golden
// is its error report); they are listed as such, and rejecting them is the
// right outcome; so are the GPU procs of a golden whose test
// (tests/DIR/FILE.py, function NAME for tests/golden/DIR/FILE/NAME.txt)
// expects an exception (pytest.raises: Exo's CUDA compiler rejects them).
// CPU tests that expect an exception fail in a scheduling operation, after
// printing a valid proc, so the rule is not applied to them. Nothing from Exo is written into the
// repository: the extracted files go to -out (a temporary directory by
// default) and are left there for inspection.
package main

import (
	"archive/tar"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/frontend"
	_ "weft.dev/weft/lang/weft/driver"
	"weft.dev/weft/lang/weft/syntax"
	"weft.dev/weft/pyscan"
)

func main() {
	mirror := flag.String("mirror", "", "git directory of an Exo mirror (required)")
	refs := flag.String("refs", "main,akeley98/endgame", "comma-separated refs whose tests/golden to read")
	out := flag.String("out", "", "scratch directory for the extracted procs (default: a new temporary directory)")
	verbose := flag.Bool("v", false, "list every failing proc with its first diagnostic")
	flag.Parse()
	if *mirror == "" {
		fmt.Fprintln(os.Stderr, "usage: exocorpus -mirror GITDIR [-refs main,akeley98/endgame] [-out DIR] [-v]")
		os.Exit(2)
	}
	if *out == "" {
		d, err := os.MkdirTemp("", "exocorpus")
		if err != nil {
			fail(err)
		}
		*out = d
	}
	procs, err := extract(*mirror, strings.Split(*refs, ","))
	if err != nil {
		fail(err)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fail(err)
	}
	var tally [2]counts
	var excerpts, wrong counts
	// agree counts, for CPU and GPU, the procs whose weft check verdict is
	// Exo's: accepted where Exo accepts, rejected where Exo rejects.
	var agree [2]int
	reasons := map[string]int{}
	for i, p := range procs {
		path := filepath.Join(*out, fmt.Sprintf("%03d_%s.weft", i, p.name))
		if err := os.WriteFile(path, []byte(p.text), 0o644); err != nil {
			fail(err)
		}
		r := measure(path, []byte(p.text))
		t := &tally[0]
		if p.gpu {
			t = &tally[1]
		}
		switch {
		case p.excerpt:
			excerpts.add(r)
			continue
		case p.wrong:
			wrong.add(r)
		}
		t.add(r)
		if r.check != p.wrong {
			if p.gpu {
				agree[1]++
			} else {
				agree[0]++
			}
		}
		if *verbose && r.parse && !r.fmt {
			fmt.Printf("FMT %s (%s): %s\n", path, p.origin, r.fmtDiff)
		}
		if r.firstErr != "" {
			reasons[r.firstCode]++
			if *verbose {
				fmt.Printf("FAIL %s (%s): %s\n", path, p.origin, r.firstErr)
			}
		}
	}
	fmt.Printf("extracted %d distinct procs into %s\n", len(procs), *out)
	fmt.Printf("%-5s %5s %7s %7s %7s\n", "", "procs", "parse", "fmt", "check")
	all := tally[0]
	all.merge(tally[1])
	for i, name := range []string{"CPU", "GPU", "all"} {
		c := all
		if i < 2 {
			c = tally[i]
		}
		fmt.Printf("%-5s %5d %7d %7d %7d\n", name, c.n, c.parse, c.fmt, c.check)
	}
	fmt.Printf("of these, from goldens of programs Exo rejects (*wrong* goldens, GPU tests expecting an exception): %d procs, %d parse, %d pass check\n", wrong.n, wrong.parse, wrong.check)
	fmt.Printf("weft check agrees with Exo's verdict (accepts what Exo accepts, rejects what it rejects): CPU %d of %d, GPU %d of %d\n", agree[0], tally[0].n, agree[1], tally[1].n)
	fmt.Printf("not counted: %d cursor excerpts ([GAP - ...] or ... lines), %d of them parse\n", excerpts.n, excerpts.parse)
	var codes []string
	for c := range reasons {
		codes = append(codes, c)
	}
	sort.Slice(codes, func(i, j int) bool {
		if reasons[codes[i]] != reasons[codes[j]] {
			return reasons[codes[i]] > reasons[codes[j]]
		}
		return codes[i] < codes[j]
	})
	fmt.Printf("first diagnostic of rejected procs, by code:")
	for _, c := range codes {
		fmt.Printf(" %s:%d", c, reasons[c])
	}
	fmt.Println()
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "exocorpus:", err)
	os.Exit(2)
}

type proc struct {
	name, text, origin string
	gpu                bool
	excerpt            bool // a cursor excerpt, not a program
	wrong              bool // Exo rejects it (its golden is an error report, or its test expects an exception)
}

var excerptMark = regexp.MustCompile(`(?m)^\s*(\[GAP - |\.\.\.$)`)

var (
	// glued: Exo's printer sometimes starts a proc right after the last
	// token of the previous one.
	glued  = regexp.MustCompile(`(\S)(def [A-Za-z_][A-Za-z0-9_]*\()`)
	gpuRef = regexp.MustCompile(`\b(Cuda|cuda_)`)
)

// extract reads tests/golden at each ref with `git archive` and returns the
// distinct procs in order of first appearance.
func extract(mirror string, refs []string) ([]proc, error) {
	var procs []proc
	seen := map[string]bool{}
	for _, ref := range refs {
		cmd := exec.Command("git", "--git-dir", mirror, "archive", ref, "tests")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		data, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("git archive %s: %v: %s", ref, err, stderr.String())
		}
		files := map[string][]byte{}
		var goldens []string
		tr := tar.NewReader(bytes.NewReader(data))
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, err
			}
			if h.Typeflag != tar.TypeReg {
				continue
			}
			body, err := io.ReadAll(tr)
			if err != nil {
				return nil, err
			}
			files[h.Name] = body
			if strings.HasPrefix(h.Name, "tests/golden/") {
				goldens = append(goldens, h.Name)
			}
		}
		sort.Strings(goldens)
		for _, name := range goldens {
			wrong := strings.Contains(filepath.Base(name), "wrong")
			raises := expectsError(files, name)
			for _, text := range split(string(files[name])) {
				if seen[text] {
					continue
				}
				seen[text] = true
				name := strings.TrimPrefix(text, "def ")
				name = name[:strings.IndexByte(name, '(')]
				procs = append(procs, proc{name: name, text: text, origin: ref + ":" + name, gpu: gpuRef.MatchString(text),
					excerpt: excerptMark.MatchString(text)})
				p := &procs[len(procs)-1]
				p.wrong = wrong || raises && p.gpu
			}
		}
	}
	return procs, nil
}

// expectsError reports whether the test that wrote golden (tests/golden/
// DIR/FILE/NAME.txt) runs inside pytest.raises: tests/DIR/FILE.py defines
// NAME and its body, up to the next top-level def, mentions pytest.raises.
func expectsError(files map[string][]byte, golden string) bool {
	rel := strings.TrimSuffix(strings.TrimPrefix(golden, "tests/golden/"), ".txt")
	dir, test := filepath.Split(rel)
	src, ok := files["tests/"+strings.TrimSuffix(dir, "/")+".py"]
	if !ok {
		return false
	}
	s := string(src)
	i := strings.Index(s, "\ndef "+test+"(")
	if i < 0 {
		return false
	}
	body := s[i+1:]
	if j := strings.Index(body, "\ndef "); j >= 0 {
		body = body[:j]
	}
	return strings.Contains(body, "pytest.raises")
}

// split returns the procs printed in one golden file.
func split(s string) []string {
	lines := strings.Split(glued.ReplaceAllString(s, "$1\n$2"), "\n")
	var out []string
	for i := 0; i < len(lines); {
		if !strings.HasPrefix(lines[i], "def ") || !strings.Contains(lines[i], "(") {
			i++
			continue
		}
		j := i + 1
		for j < len(lines) && (lines[j] == "" || lines[j][0] == ' ' || lines[j][0] == '\t') {
			j++
		}
		out = append(out, strings.TrimRight(strings.Join(lines[i:j], "\n"), "\n ")+"\n")
		i = j
	}
	return out
}

type result struct {
	parse, fmt, check   bool
	firstErr, firstCode string
	fmtDiff             string // the first token weft fmt reprints differently
}

type counts struct{ n, parse, fmt, check int }

func (c *counts) add(r result) {
	c.n++
	c.parse += b2i(r.parse)
	c.fmt += b2i(r.fmt)
	c.check += b2i(r.check)
}

func (c *counts) merge(o counts) {
	c.n += o.n
	c.parse += o.parse
	c.fmt += o.fmt
	c.check += o.check
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// measure parses src, compares the tokens of src with those of its
// canonical reprint, and runs `weft check --json` on path in-process.
func measure(path string, src []byte) result {
	var r result
	var errs diag.List
	f := syntax.Parse(diag.NewFile(path, src), &errs)
	if errs.HasErrors() {
		d := firstError(errs.Diags)
		r.firstErr, r.firstCode = d.Error(), d.Code
		return r
	}
	r.parse = true
	r.fmtDiff = tokenDiff(src, []byte(syntax.Print(f)))
	r.fmt = r.fmtDiff == ""
	var stdout, stderr bytes.Buffer
	env := &frontend.Env{Stdout: &stdout, Stderr: &stderr}
	status := frontend.ForExt(".weft").Check(env, []string{path, "--json"})
	if status == 0 {
		r.check = true
		return r
	}
	var ds []struct {
		Line, Col     int
		Code, Message string
		Severity      string
	}
	if err := json.Unmarshal(stdout.Bytes(), &ds); err != nil || len(ds) == 0 {
		r.firstErr, r.firstCode = fmt.Sprintf("status %d: %s", status, stderr.String()), "status"
		return r
	}
	for _, d := range ds {
		if d.Severity == "error" {
			r.firstErr = fmt.Sprintf("%d:%d: %s: %s", d.Line, d.Col, d.Code, d.Message)
			r.firstCode = d.Code
			break
		}
	}
	return r
}

func firstError(ds []*diag.Diagnostic) *diag.Diagnostic {
	for _, d := range ds {
		if d.Severity == diag.Error {
			return d
		}
	}
	return ds[0]
}

// tokenDiff is "" when a and b scan to the same tokens (kind and text;
// comments, blank lines and line breaks inside brackets are not tokens),
// else the first difference.
func tokenDiff(a, b []byte) string {
	ta, tb := tokens(a), tokens(b)
	for i := range ta {
		if i >= len(tb) {
			return fmt.Sprintf("token %d: %q, reprinted: end", i, ta[i])
		}
		if ta[i] != tb[i] {
			return fmt.Sprintf("token %d: %q, reprinted: %q", i, ta[i], tb[i])
		}
	}
	if len(tb) > len(ta) {
		return fmt.Sprintf("token %d: end, reprinted: %q", len(ta), tb[len(ta)])
	}
	return ""
}

func tokens(src []byte) []string {
	s := pyscan.New(diag.NewFile("", src), func(diag.Pos, string, string) {})
	var out []string
	for _, t := range s.All() {
		out = append(out, t.Kind.String()+" "+t.Text)
	}
	return out
}
