package interp

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/syntax"
)

var markerRE = regexp.MustCompile(`# (ERROR|NOTE)(?: (W\d{4}))? @(\d+) "((?:[^"\\]|\\.)*)"`)

// TestErrors runs each chunk of testdata/errors.weft and checks that it
// produces exactly the diagnostic (code, line, column, message) and notes
// its markers name.
func TestErrors(t *testing.T) {
	src, err := os.ReadFile("testdata/errors.weft")
	if err != nil {
		t.Fatal(err)
	}
	chunks := strings.Split(string(src), "\n---\n")
	for n, chunk := range chunks {
		// Pad with newlines so line numbers match the whole file.
		before := strings.Count(strings.Join(chunks[:n], "\n---\n"), "\n")
		if n > 0 {
			before += 2
		}
		text := strings.Repeat("\n", before) + chunk + "\n"
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			runChunk(t, text)
		})
	}
}

func runChunk(t *testing.T, text string) {
	var runArgs [][2]string
	type mark struct {
		kind, code string
		line, col  int
		re         *regexp.Regexp
	}
	var marks []mark
	for i, l := range strings.Split(text, "\n") {
		if rest, ok := strings.CutPrefix(l, "# run:"); ok {
			for _, f := range strings.Fields(rest) {
				k, v, _ := strings.Cut(f, "=")
				runArgs = append(runArgs, [2]string{k, v})
			}
		}
		for _, m := range markerRE.FindAllStringSubmatch(l, -1) {
			col, _ := strconv.Atoi(m[3])
			marks = append(marks, mark{m[1], m[2], i + 1, col, regexp.MustCompile(strings.ReplaceAll(m[4], `\"`, `"`))})
		}
	}
	var errs diag.List
	f := syntax.Parse(diag.NewFile("errors.weft", []byte(text)), &errs)
	if errs.HasErrors() {
		t.Fatalf("parse: %v", errs.Err())
	}
	var got []*diag.Diagnostic
	p, err := New(f, Options{Procs: libProcs(t), MaxSteps: 1 << 20}).Main(lastProc(f))
	if err != nil {
		var le *diag.ListError
		if !errors.As(err, &le) {
			t.Fatal(err)
		}
		got = le.List.Diags
	} else {
		args, _, err := p.Bind(runArgs, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		err = p.Call(args)
		var re *RuntimeError
		if !errors.As(err, &re) {
			t.Fatalf("Call = %v, want a runtime error", err)
		}
		got = []*diag.Diagnostic{re.Diag}
	}
	var errMarks, noteMarks []mark
	for _, m := range marks {
		if m.kind == "ERROR" {
			errMarks = append(errMarks, m)
		} else {
			noteMarks = append(noteMarks, m)
		}
	}
	if len(got) != len(errMarks) {
		t.Fatalf("got %d diagnostics, want %d:\n%s", len(got), len(errMarks), describe(got))
	}
	for i, m := range errMarks {
		d := got[i]
		if d.Code != m.code || d.Pos.Line() != m.line || d.Pos.Col() != m.col || !m.re.MatchString(d.Message) {
			t.Errorf("got %s\nwant %d:%d: [%s] matching %q", d.Error(), m.line, m.col, m.code, m.re)
		}
	}
	var notes []diag.Note
	for _, d := range got {
		notes = append(notes, d.Notes...)
	}
	if len(notes) != len(noteMarks) {
		t.Fatalf("got %d notes, want %d:\n%s", len(notes), len(noteMarks), describe(got))
	}
	for i, m := range noteMarks {
		n := notes[i]
		if n.Pos.Line() != m.line || n.Pos.Col() != m.col || !m.re.MatchString(n.Message) {
			t.Errorf("note at %s: %s; want %d:%d matching %q", n.Pos, n.Message, m.line, m.col, m.re)
		}
	}
}

// lastProc is the name of the chunk's last proc: the one to run.
func lastProc(f *syntax.File) string {
	name := ""
	for _, d := range f.Decls {
		if p, ok := d.(*syntax.Proc); ok {
			name = p.Name.Name
		}
	}
	return name
}

func describe(ds []*diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintln(&b, d.Error())
		for _, n := range d.Notes {
			fmt.Fprintf(&b, "  note %s: %s\n", n.Pos, n.Message)
		}
	}
	return b.String()
}
