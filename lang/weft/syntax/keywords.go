package syntax

import "weft.dev/weft/pyscan"

// The Weft keywords the parser asks about, coded by the scanner (pyscan's
// token codes, stop 33, issue 13): a statement's first word, a binary or
// prefix operator spelled as a word, the literals True and False and the
// sync statements' names each take one compare of the token's code
// instead of a compare of its text.
//
// keywords lists them in the order of the kw constants (TestKeywordCodes
// checks the two agree).
var keywords = pyscan.NewKeywords(
	"and", "or", "not", "if", "else", "elif", "for", "in", "def", "with", "assert", "pass",
	"class", "True", "False", "free", "Fence", "Arrive", "Await", "ReverseArrive", "ReverseAwait")

const (
	// The words an expression may not use as a name (atom), kwAnd to
	// kwPass.
	kwAnd = pyscan.FirstKeyword + iota
	kwOr
	kwNot
	kwIf
	kwElse
	kwElif
	kwFor
	kwIn
	kwDef
	kwWith
	kwAssert
	kwPass
	// Words with a meaning in some places, names in the rest.
	kwClass
	kwTrue
	kwFalse
	kwFree
	kwFence
	kwArrive
	kwAwait
	kwReverseArrive
	kwReverseAwait
)

// reservedInExpr reports whether keyword c is one an expression may not
// use as a name.
func reservedInExpr(c pyscan.Code) bool { return c >= kwAnd && c <= kwPass }

// isSyncKw reports whether c is a sync statement's name (Fence, Arrive,
// Await and the Reverse forms).
func isSyncKw(c pyscan.Code) bool { return c >= kwFence && c <= kwReverseAwait }

// codePrec and codeText are the binary operators' precedences (printer.go's
// levels; 0: the token is no binary operator) and spellings, indexed by
// token code: binaryOp's table.
var codePrec, codeText = func() (prec [256]uint8, text [256]string) {
	set := func(p int, cs ...pyscan.Code) {
		for _, c := range cs {
			prec[c] = uint8(p)
			text[c] = pyscan.OpText(c)
		}
	}
	set(precOr, kwOr)
	set(precAnd, kwAnd)
	set(precCmp, pyscan.OpEq, pyscan.OpNe, pyscan.OpLt, pyscan.OpLe, pyscan.OpGt, pyscan.OpGe)
	set(precAdd, pyscan.OpAdd, pyscan.OpSub)
	set(precMul, pyscan.OpMul, pyscan.OpDiv, pyscan.OpFloorDiv, pyscan.OpMod)
	text[kwOr], text[kwAnd] = "or", "and"
	return prec, text
}()

// endsOperand is the operators that end every expression (, ) ] : =),
// indexed by token code: simpleOperand's test of the token after an
// operand.
var endsOperand = func() (t [256]bool) {
	for _, c := range []pyscan.Code{pyscan.OpComma, pyscan.OpRParen, pyscan.OpRBrack, pyscan.OpColon, pyscan.OpAssign} {
		t[c] = true
	}
	return t
}()
