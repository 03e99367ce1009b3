package lib

import (
	"iter"
	"slices"
	"strings"
	"sync/atomic"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/syntax"
)

// Std's files of procs (exo_gpu, scalar, sm80, sm90, x86: 36 KB) are not
// parsed at its load: their top-level lines are scanned for each proc's
// name and lines (lazyDefs), the names are defined then (a name defined
// twice is still Std's error, W0240), and a proc is parsed, from its
// lines in the whole file's text (syntax.ParseRange: every position is
// the whole file's), and its @instr read (ParseInstr), at its first
// lookup. A `weft check` of a kernel that calls a few of the library's
// 78 instructions and procs, or none, parsed them all: 3.3 M
// instructions of the process (issue 13, stop 44). TestLazyMatchesEager
// parses every one and compares it with an eager Load of the same files.

// def is one instruction or helper proc of a Library. A lazy def (file
// non-nil) is parsed at its first lookup (force); instr and proc are
// written under the Library's defMu before done is set, and read
// without it once done is.
type def struct {
	done    atomic.Bool
	name    string
	isInstr bool
	// file, from start to end, is a lazy def's declaration.
	file       *diag.File
	start, end int
	instr      *Instr
	proc       *syntax.Proc // a helper proc (not an instruction)
}

// defSeg is a declaration lazyDefs found: the text from start to end
// (whole lines: the comments before it, its decorators, def line and
// body), and for a proc its name at nameOff and whether a decorator
// line is @instr; global: a module-level assignment (Load parses it).
type defSeg struct {
	start, end, nameOff int
	name                string
	isInstr, global     bool
}

// lazyDefs returns the declarations of text when it has a proc, every
// proc is one that Load keeps as an instruction or helper proc (not an
// @extern), and its top-level lines are decorator lines (@...), def
// lines and assignments (a name first) alone, every other line
// indented, blank or a comment; nil otherwise (such a file is parsed
// whole at load). A declaration starts after the last line of code of
// the one before it (so that it takes the comments between them, as the
// whole file's parse gives its Leading comments) and ends after its own
// last line of code. The standard library's files are fixed at build:
// TestLazyMatchesEager checks that each declaration found here parses
// to the one the whole file's parse makes.
func lazyDefs(text string) []defSeg {
	var segs []defSeg
	open := false   // the last declaration's lines may go on
	hasDef := false // the last declaration (a proc) has its def line
	procs := 0
	codeEnd := 0 // after the last line of code so far
	start := func(global bool) {
		if len(segs) > 0 {
			segs[len(segs)-1].end = codeEnd
		}
		segs = append(segs, defSeg{start: codeEnd, global: global})
		open, hasDef = true, false
	}
	for ls := 0; ls < len(text); {
		le := strings.IndexByte(text[ls:], '\n')
		next := len(text)
		if le < 0 {
			le = len(text)
		} else {
			le += ls
			next = le + 1
		}
		line := text[ls:le]
		// The line's indentation by hand: strings.TrimLeft with a set
		// of bytes builds the set at each call (half of this scan).
		ind := 0
		for ind < len(line) && (line[ind] == ' ' || line[ind] == '\t' || line[ind] == '\r' || line[ind] == '\f') {
			ind++
		}
		rest := line[ind:]
		ls = next
		switch {
		case rest == "" || rest[0] == '#':
			continue // blank or a comment
		case len(rest) < len(line):
			// indented: a body's line, or an assignment's
			if !open {
				return nil
			}
		case line[0] == '@':
			if !open || hasDef || segs[len(segs)-1].global {
				start(false)
				procs++
			}
			word := line[1:]
			for i := range len(word) {
				if c := word[i]; c == '(' || c == ' ' || c == '\t' || c == '\r' {
					word = word[:i]
					break
				}
			}
			switch word {
			case "extern":
				return nil
			case "instr":
				segs[len(segs)-1].isInstr = true
			}
		case strings.HasPrefix(line, "def "):
			if !open || hasDef || segs[len(segs)-1].global {
				start(false)
				procs++
			}
			hasDef = true
			name := strings.TrimLeft(line[len("def "):], " ")
			n := 0
			for n < len(name) && identByte(name[n]) {
				n++
			}
			if n == 0 {
				return nil
			}
			sg := &segs[len(segs)-1]
			sg.name, sg.nameOff = name[:n], le-len(name)
		case identByte(line[0]) && (line[0] < '0' || line[0] > '9'):
			if open && !segs[len(segs)-1].global && !hasDef {
				return nil // decorators of no def
			}
			start(true)
		default:
			return nil
		}
		codeEnd = next
	}
	if procs == 0 || !segs[len(segs)-1].global && !hasDef {
		return nil
	}
	segs[len(segs)-1].end = codeEnd
	return segs
}

func identByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// force parses d at its first lookup.
func (l *Library) force(d *def) {
	if d.done.Load() {
		return
	}
	l.defMu.Lock()
	defer l.defMu.Unlock()
	if d.done.Load() {
		return
	}
	var errs diag.List
	sf := syntax.ParseRange(d.file, d.start, d.end, &errs)
	var p *syntax.Proc
	if len(sf.Decls) == 1 {
		p, _ = sf.Decls[0].(*syntax.Proc)
	}
	if p == nil || p.Name.Name != d.name || IsInstr(p) != d.isInstr || IsExtern(p) {
		panic("weft standard library: " + d.file.Name + ": the lines of " + d.name + " are not its declaration")
	}
	if d.isInstr {
		d.instr = ParseInstr(p, l, &errs)
	} else {
		d.proc = p
	}
	// The embedded library is fixed at build and its tests parse every
	// def (TestLazyMatchesEager): an error here is a build defect, as
	// MustStd treats one of the eager load.
	if errs.HasErrors() {
		errs.Sort()
		panic("weft standard library: " + errs.Err().Error())
	}
	d.done.Store(true)
}

// Instr returns the library's instruction named name, or nil.
func (l *Library) Instr(name string) *Instr {
	d := l.defs[name]
	if d == nil || !d.isInstr {
		return nil
	}
	l.force(d)
	return d.instr
}

// Proc returns the library's helper proc (not an instruction) named
// name, or nil.
func (l *Library) Proc(name string) *syntax.Proc {
	d := l.defs[name]
	if d == nil || d.isInstr {
		return nil
	}
	l.force(d)
	return d.proc
}

// Decl returns the declaration of the library's instruction or helper
// proc named name, or nil.
func (l *Library) Decl(name string) *syntax.Proc {
	d := l.defs[name]
	if d == nil {
		return nil
	}
	l.force(d)
	if d.instr != nil {
		return d.instr.Proc
	}
	return d.proc
}

// HasProc reports whether the library has an instruction or a helper
// proc named name, without parsing it.
func (l *Library) HasProc(name string) bool {
	return l.defs[name] != nil
}

// Names returns the names of the library's instructions and helper
// procs, in no particular order, without parsing them.
func (l *Library) Names() iter.Seq[string] {
	return func(yield func(string) bool) {
		for n := range l.defs {
			if !yield(n) {
				return
			}
		}
	}
}

// NumNames is the number of the library's instructions and helper procs
// (Names).
func (l *Library) NumNames() int { return len(l.defs) }

// NumInstrs is the number of the library's instructions.
func (l *Library) NumInstrs() int {
	n := 0
	for _, d := range l.defs {
		if d.isInstr {
			n++
		}
	}
	return n
}

// Instrs yields the library's instructions in name order, each parsed.
func (l *Library) Instrs() iter.Seq2[string, *Instr] {
	return func(yield func(string, *Instr) bool) {
		for _, n := range l.sortedDefs() {
			if in := l.Instr(n); in != nil && !yield(n, in) {
				return
			}
		}
	}
}

// Procs yields the library's helper procs in name order, each parsed.
func (l *Library) Procs() iter.Seq2[string, *syntax.Proc] {
	return func(yield func(string, *syntax.Proc) bool) {
		for _, n := range l.sortedDefs() {
			if p := l.Proc(n); p != nil && !yield(n, p) {
				return
			}
		}
	}
}

func (l *Library) sortedDefs() []string {
	return slices.Sorted(l.Names())
}
