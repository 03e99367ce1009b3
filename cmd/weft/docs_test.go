package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestDocCommands keeps README.md and docs/*.md true: it runs the weft
// commands they show, in a scratch directory where examples/ is the
// repository's, and compares what they print with the output the page
// shows under them.
//
// In a fenced block, "$ weft ARGS" is a command and the lines up to the
// next "$ " line are its expected output (stdout, then stderr). A line
// "..." stands for any number of lines; a line ending in " ..." for any
// line that starts with the text before it. A command that shows an error
// must exit 1, any other 0. "$ cat FILE" followed by lines creates FILE,
// so a page can show a program and its diagnostics. A line "weft ARGS"
// (no "$") in a block, and README's indented "bin/weft ARGS" lines, are
// run without an expected output: they must not be usage or I/O errors.
// Commands run from the repository root (examples/ and docs/, where the
// tutorial's snippet files are, docs/tutorial); commands on other files not
// made by "$ cat" are left out; an examples/ or docs/ path that does not
// exist fails the test.
func TestDocCommands(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(wd, "..", "..")
	pages, _ := filepath.Glob(filepath.Join(repo, "docs", "*.md"))
	pages = append(pages, filepath.Join(repo, "README.md"))
	ran := 0
	for _, page := range pages {
		src, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(page)
		dir := t.TempDir()
		// The pages run from the repository root: examples/ and the
		// tutorial's snippet files (docs/tutorial) are there.
		for _, d := range []string{"examples", "docs"} {
			if err := os.Symlink(filepath.Join(repo, d), filepath.Join(dir, d)); err != nil {
				t.Fatal(err)
			}
		}
		for _, c := range docCommands(string(src)) {
			if c.file != "" {
				if err := os.WriteFile(filepath.Join(dir, c.file), []byte(c.content), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if !runnable(t, name, c, dir) {
				continue
			}
			ran++
			checkDocCommand(t, name, c, dir)
		}
	}
	// The pages show about 30 runnable commands; far fewer means the
	// parser no longer finds them.
	t.Logf("ran %d documented commands", ran)
	if ran < 20 {
		t.Errorf("ran %d documented commands, want at least 20", ran)
	}
}

// docCommand is one command of a page (or, with file set, a "$ cat FILE").
type docCommand struct {
	line     int
	args     []string
	echo     string // "&& echo WORD": WORD is printed when the command succeeds
	expect   []string
	checkOut bool // "$ " commands: the output must match expect
	file     string
	content  string
}

var (
	fence     = regexp.MustCompile("^\\s*```")
	readmeCmd = regexp.MustCompile(`^    bin/weft (.*)$`)
	catCmd    = regexp.MustCompile(`^\$ cat (\S+)$`)
)

// docCommands extracts the commands of a Markdown page.
func docCommands(page string) []docCommand {
	var cmds []docCommand
	lines := strings.Split(page, "\n")
	inBlock := false
	var cur *docCommand
	flush := func() {
		if cur != nil {
			if cur.file != "" {
				cur.content = strings.Join(cur.expect, "\n") + "\n"
				cur.expect = nil
			}
			cmds = append(cmds, *cur)
			cur = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if fence.MatchString(l) {
			flush()
			inBlock = !inBlock
			continue
		}
		if !inBlock {
			if m := readmeCmd.FindStringSubmatch(l); m != nil {
				for _, part := range strings.Split(m[1], " && ") {
					part = strings.TrimPrefix(strings.TrimSpace(part), "bin/weft ")
					cmds = append(cmds, docCommand{line: i + 1, args: shellWords(part)})
				}
			}
			continue
		}
		// Join continuation lines.
		for strings.HasSuffix(l, "\\") && i+1 < len(lines) {
			i++
			l = strings.TrimSuffix(l, "\\") + " " + strings.TrimSpace(lines[i])
		}
		if m := catCmd.FindStringSubmatch(l); m != nil {
			flush()
			cur = &docCommand{line: i + 1, file: m[1]}
			continue
		}
		if strings.HasPrefix(l, "$ ") {
			flush()
			cur = &docCommand{line: i + 1, checkOut: true}
			rest := strings.TrimPrefix(l, "$ ")
			if !strings.HasPrefix(rest, "weft ") {
				cur = &docCommand{line: i + 1} // another program: its output is not ours
				continue
			}
			if cmd, word, ok := strings.Cut(rest, " && echo "); ok {
				rest, cur.echo = cmd, strings.TrimSpace(word)
			}
			cur.args = shellWords(strings.TrimPrefix(rest, "weft "))
			continue
		}
		if cur != nil {
			cur.expect = append(cur.expect, l)
			continue
		}
		if strings.HasPrefix(l, "weft ") {
			cmds = append(cmds, docCommand{line: i + 1, args: shellWords(strings.TrimPrefix(l, "weft "))})
		}
	}
	flush()
	return cmds
}

// shellWords splits a command line at spaces, dropping a trailing
// "# comment".
func shellWords(s string) []string {
	if i := strings.Index(s, " #"); i >= 0 {
		s = s[:i]
	}
	return strings.Fields(s)
}

// runnable reports whether every file c names exists in dir (examples/ or
// one a "$ cat" made), and fails the test for a missing example.
func runnable(t *testing.T, page string, c docCommand, dir string) bool {
	if len(c.args) == 0 {
		return false
	}
	for i, a := range c.args[1:] {
		switch c.args[i] {
		case "-o", "--out", "--inputs":
			continue // an output
		}
		if c.args[i] == "--compare" {
			// GPU results the page's previous steps make on a GPU.
			if _, err := os.Stat(filepath.Join(dir, a)); err != nil {
				return false
			}
		}
		if strings.ContainsAny(a, "[]|") || strings.Contains(a, "FILE") || strings.Contains(a, "PROG") {
			return false // a synopsis, not a command
		}
		if strings.Contains(a, "=") || strings.HasPrefix(a, "-") || filepath.Ext(a) == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, a)); err != nil {
			if strings.HasPrefix(a, "examples/") || strings.HasPrefix(a, "docs/") {
				t.Errorf("%s:%d: %s does not exist", page, c.line, a)
			}
			return false
		}
	}
	return true
}

func checkDocCommand(t *testing.T, page string, c docCommand, dir string) {
	t.Helper()
	t.Chdir(dir)
	// Absolute scratch paths (--out /tmp/gemm) go under dir.
	args := append([]string(nil), c.args...)
	for i, a := range args {
		if strings.HasPrefix(a, "/tmp/") {
			args[i] = filepath.Join(dir, a)
		}
	}
	var stdout, stderr bytes.Buffer
	rc := main1(args, strings.NewReader(""), &stdout, &stderr)
	got := stdout.String() + stderr.String()
	where := page + ":" + strconv.Itoa(c.line) + ": weft " + strings.Join(c.args, " ")
	if !c.checkOut {
		if rc == 2 {
			t.Errorf("%s: usage or I/O error:\n%s", where, got)
		}
		return
	}
	if c.echo != "" && rc == 0 {
		got += c.echo + "\n"
	}
	want := c.expect
	for len(want) > 0 && strings.TrimSpace(want[len(want)-1]) == "" {
		want = want[:len(want)-1]
	}
	wantRC := 0
	if strings.Contains(strings.Join(want, "\n"), "error[") {
		wantRC = 1
	}
	if rc != wantRC {
		t.Errorf("%s: exit status %d, want %d; output:\n%s", where, rc, wantRC, got)
	}
	if !matchLines(strings.Split(strings.TrimSuffix(got, "\n"), "\n"), want) {
		t.Errorf("%s: the page shows\n%s\nthe command prints\n%s", where, strings.Join(want, "\n"), got)
	}
}

// matchLines matches got against want, where a want line "..." matches any
// number of lines and a want line ending in " ..." any line with its prefix.
func matchLines(got, want []string) bool {
	if len(want) == 0 {
		return len(got) == 0 || len(got) == 1 && got[0] == ""
	}
	w := want[0]
	if strings.TrimSpace(w) == "..." {
		for i := 0; i <= len(got); i++ {
			if matchLines(got[i:], want[1:]) {
				return true
			}
		}
		return false
	}
	if len(got) == 0 {
		return false
	}
	if prefix, ok := strings.CutSuffix(w, " ..."); ok {
		if !strings.HasPrefix(got[0], prefix) {
			return false
		}
	} else if got[0] != w {
		return false
	}
	return matchLines(got[1:], want[1:])
}
