package diag

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Severity orders diagnostics by how much they matter.
type Severity int

const (
	Error Severity = iota
	Warning
	Info
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	default:
		return "info"
	}
}

// Note is a secondary message attached to a diagnostic, usually at another
// position ("the other access is here").
type Note struct {
	Pos     Pos
	Message string
}

// Diagnostic is one message about a program.
type Diagnostic struct {
	Severity Severity
	Code     string // stable code, e.g. "W0304"; documented with Register
	Pos      Pos
	End      Pos // optional end of the offending range
	Message  string
	Notes    []Note
}

// Note attaches a note at pos and returns d for chaining.
func (d *Diagnostic) Note(pos Pos, format string, args ...any) *Diagnostic {
	d.Notes = append(d.Notes, Note{Pos: pos, Message: fmt.Sprintf(format, args...)})
	return d
}

// Error implements error: the one-line form without source excerpt.
func (d *Diagnostic) Error() string {
	var b strings.Builder
	if d.Pos.IsValid() {
		b.WriteString(d.Pos.String())
		b.WriteString(": ")
	}
	b.WriteString(d.Severity.String())
	if d.Code != "" {
		b.WriteString("[" + d.Code + "]")
	}
	b.WriteString(": ")
	b.WriteString(d.Message)
	return b.String()
}

// List collects diagnostics. The zero List is ready to use.
type List struct {
	Diags []*Diagnostic
	// Limit, if positive, stops recording errors after Limit of them (the
	// count still grows); this keeps a cascade from flooding the output.
	Limit   int
	dropped int
}

// Add records d and returns it.
func (l *List) Add(d *Diagnostic) *Diagnostic {
	if l.Limit > 0 && len(l.Diags) >= l.Limit {
		l.dropped++
		return d
	}
	l.Diags = append(l.Diags, d)
	return d
}

// Errorf records an error with code at pos.
func (l *List) Errorf(pos Pos, code, format string, args ...any) *Diagnostic {
	return l.Add(&Diagnostic{Severity: Error, Code: code, Pos: pos, Message: fmt.Sprintf(format, args...)})
}

// Warnf records a warning with code at pos.
func (l *List) Warnf(pos Pos, code, format string, args ...any) *Diagnostic {
	return l.Add(&Diagnostic{Severity: Warning, Code: code, Pos: pos, Message: fmt.Sprintf(format, args...)})
}

// Infof records an informational message with code at pos.
func (l *List) Infof(pos Pos, code, format string, args ...any) *Diagnostic {
	return l.Add(&Diagnostic{Severity: Info, Code: code, Pos: pos, Message: fmt.Sprintf(format, args...)})
}

// Dropped is the number of diagnostics not recorded because of Limit.
func (l *List) Dropped() int { return l.dropped }

// HasErrors reports whether any diagnostic is an error.
func (l *List) HasErrors() bool {
	for _, d := range l.Diags {
		if d.Severity == Error {
			return true
		}
	}
	return l.dropped > 0
}

// Len is the number of recorded diagnostics.
func (l *List) Len() int { return len(l.Diags) }

// Sort orders diagnostics by position, then code, then message, so output
// is deterministic.
func (l *List) Sort() {
	if sameFile(l.Diags) {
		// One file (a check's report): the order is by offset, code and
		// message, a strict weak order, so every stable sort gives the
		// same list; slices' allocates nothing, where sort.SliceStable
		// boxed the slice and made a swapper (stop 38).
		slices.SortStableFunc(l.Diags, func(a, b *Diagnostic) int {
			if a.Pos.Offset != b.Pos.Offset {
				return cmp.Compare(a.Pos.Offset, b.Pos.Offset)
			}
			if a.Code != b.Code {
				return strings.Compare(a.Code, b.Code)
			}
			return strings.Compare(a.Message, b.Message)
		})
		return
	}
	sort.SliceStable(l.Diags, func(i, j int) bool {
		a, b := l.Diags[i], l.Diags[j]
		if a.Pos.File != b.Pos.File || a.Pos.Offset != b.Pos.Offset {
			return a.Pos.Before(b.Pos)
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Message < b.Message
	})
}

// sameFile reports whether every diagnostic's position is in one File
// (or all are invalid). Across Files, Pos.Before orders by name, and two
// Files of one name are neither before the other whatever the offsets:
// no strict weak order, where the result depends on the algorithm, so
// those lists keep sort.SliceStable's.
func sameFile(ds []*Diagnostic) bool {
	for _, d := range ds {
		if d.Pos.File != ds[0].Pos.File {
			return false
		}
	}
	return true
}

// Err returns the list as an error if it holds errors, else nil.
func (l *List) Err() error {
	if !l.HasErrors() {
		return nil
	}
	return &ListError{List: l}
}

// ListError wraps a List that holds errors.
type ListError struct{ List *List }

func (e *ListError) Error() string {
	var parts []string
	for _, d := range e.List.Diags {
		parts = append(parts, d.Error())
	}
	return strings.Join(parts, "\n")
}
