package syntax

import "weft.dev/weft/diag"

// Kind is a token kind.
type Kind uint8

const (
	EOF Kind = iota
	Ident
	IntLit
	FloatLit
	CharLit
	StringLit
	Punct
	Newline // only seen by the preprocessor
	Hash    // '#' at the start of a line, only seen by the preprocessor
)

// Token is one preprocessing or C token.
type Token struct {
	Kind Kind
	Text string
	Pos  diag.Pos
	// Space is true when white space precedes the token (for # stringizing
	// and to tell a function-like macro definition from an object-like one).
	Space bool
	hide  *hideSet
}

// hideSet is the set of macros a token may no longer expand (Prosser's
// algorithm, simplified: a persistent linked list).
type hideSet struct {
	name string
	next *hideSet
}

func (h *hideSet) has(name string) bool {
	for ; h != nil; h = h.next {
		if h.name == name {
			return true
		}
	}
	return false
}
