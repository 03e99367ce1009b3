package pyscan

// Token codes (stop 33, issue 13): the scanner tells each operator and
// each keyword apart once, as it makes the token, and records the answer
// as a small integer in the token (Tok.Code). A parser then asks "is this
// the operator (" or "is this the keyword for" with one byte compare, and
// looks up a table indexed by the code (binding powers, the tokens that
// end an expression), instead of comparing the token's text with a string
// at every test: those string compares and string switches were most of
// the Weft parser's work per token (stop 32's measurements).

// Code is a token's code: an operator's (OpAdd ... OpBang) for OP tokens,
// a keyword's (FirstKeyword and up, from the scanner's Keywords) for NAME
// tokens that spell one, 0 for every other token, and Long for a token
// whose text the scanner keeps aside (every STRING; a name or number
// longer than 65535 bytes), which is never an operator or a keyword.
type Code uint8

// The operator codes. opText spells each.
const (
	OpNone Code = iota
	OpPowAssign
	OpFloorDivAssign
	OpShrAssign
	OpShlAssign
	OpEllipsis
	OpPow
	OpFloorDiv
	OpShr
	OpShl
	OpEq
	OpNe
	OpLe
	OpGe
	OpAddAssign
	OpSubAssign
	OpMulAssign
	OpDivAssign
	OpModAssign
	OpAndAssign
	OpOrAssign
	OpXorAssign
	OpArrow
	OpWalrus
	OpAdd
	OpSub
	OpMul
	OpDiv
	OpMod
	OpLt
	OpGt
	OpAssign
	OpLParen
	OpRParen
	OpLBrack
	OpRBrack
	OpLBrace
	OpRBrace
	OpComma
	OpColon
	OpDot
	OpSemi
	OpAt
	OpAmp
	OpPipe
	OpCaret
	OpTilde
	OpBang
	numOps
)

// FirstKeyword is the code of a Keywords set's first word; Long marks a
// token kept aside (Code).
const (
	FirstKeyword Code = 64
	Long         Code = 255
)

// opText spells each operator code. The order of the codes is the order
// the scanner tries the operators that share a first byte in: longest
// first.
var opText = [numOps]string{
	OpPowAssign: "**=", OpFloorDivAssign: "//=", OpShrAssign: ">>=", OpShlAssign: "<<=", OpEllipsis: "...",
	OpPow: "**", OpFloorDiv: "//", OpShr: ">>", OpShl: "<<", OpEq: "==", OpNe: "!=", OpLe: "<=", OpGe: ">=",
	OpAddAssign: "+=", OpSubAssign: "-=", OpMulAssign: "*=", OpDivAssign: "/=", OpModAssign: "%=",
	OpAndAssign: "&=", OpOrAssign: "|=", OpXorAssign: "^=", OpArrow: "->", OpWalrus: ":=",
	OpAdd: "+", OpSub: "-", OpMul: "*", OpDiv: "/", OpMod: "%", OpLt: "<", OpGt: ">", OpAssign: "=",
	OpLParen: "(", OpRParen: ")", OpLBrack: "[", OpRBrack: "]", OpLBrace: "{", OpRBrace: "}",
	OpComma: ",", OpColon: ":", OpDot: ".", OpSemi: ";", OpAt: "@", OpAmp: "&", OpPipe: "|",
	OpCaret: "^", OpTilde: "~", OpBang: "!",
}

// OpText returns the spelling of operator code c ("" for a code that is
// not an operator's): a parser's operator strings without a substring of
// the source per node.
func OpText(c Code) string {
	if c < numOps {
		return opText[c]
	}
	return ""
}

// opsByFirst lists the operator codes by their first byte, longest
// first: operator tries only those.
var opsByFirst = func() (t [256][]Code) {
	for c := OpNone + 1; c < numOps; c++ {
		op := opText[c]
		t[op[0]] = append(t[op[0]], c)
	}
	return t
}()

// op1 is the code of each one-byte operator by its byte (the scanner's
// fast loop).
var op1 = func() (t [256]Code) {
	for c := OpNone + 1; c < numOps; c++ {
		if op := opText[c]; len(op) == 1 {
			t[op[0]] = c
		}
	}
	return t
}()

// Keywords is a set of words that NAME tokens get codes for
// (Scanner.SetKeywords): its i-th word has code FirstKeyword+i. Lookup is
// one probe of a table hashed by a name's length and its first, second
// and last bytes, chosen when the set is made so that no two words share a slot.
type Keywords struct {
	mul   uint32
	slots [64]kwSlot
	// lens has bit min(len(w), 63) of lens[w[0]] set for each word w:
	// maybe's filter.
	lens [256]uint64
}

type kwSlot struct {
	word string
	code Code
}

// NewKeywords returns the set of words, coded FirstKeyword, FirstKeyword+1,
// ... in the order given. It panics on more than 64 words, an empty or
// repeated word, or (not with any set of a few dozen words seen so far)
// when no multiplier it tries separates them; sets are package-level
// values built once from constants.
func NewKeywords(words ...string) *Keywords {
	if len(words) > 64 || int(FirstKeyword)+len(words) > int(Long) {
		panic("pyscan: too many keywords")
	}
	// Odd multipliers from a fixed sequence (Weyl, by the golden ratio):
	// for 21 words in 64 slots about one in 30 separates them.
	for try := uint32(1); try < 1<<14; try++ {
		k := &Keywords{mul: try*0x9E3779B9 | 1}
		ok := true
		for i, w := range words {
			if w == "" {
				panic("pyscan: empty keyword")
			}
			s := &k.slots[k.hash(w)]
			if s.word != "" {
				if s.word == w {
					panic("pyscan: repeated keyword " + w)
				}
				ok = false
				break
			}
			*s = kwSlot{w, FirstKeyword + Code(i)}
			k.lens[w[0]] |= 1 << min(len(w), 63)
		}
		if ok {
			return k
		}
	}
	panic("pyscan: no hash separates the keywords")
}

func (k *Keywords) hash(w string) uint32 {
	key := uint32(len(w)) | uint32(w[0])<<8 | uint32(w[len(w)-1])<<16
	if len(w) > 1 {
		key |= uint32(w[1]) << 24
	}
	return (key * k.mul) >> 26 // the top 6 bits: a slot of 64
}

// maybe reports whether the set may hold a word of n bytes that starts
// with c (n > 0): false for most names (a kernel's names are longer than
// its keywords or start with other bytes), for which fastLoop then skips
// lookup (its hash, probe and compare were a third of a name's cost,
// stop 41). Exact: a word of the set that equals the name has its first
// byte and length, whose bit NewKeywords set (TestKeywordsMaybe).
func (k *Keywords) maybe(c byte, n int) bool {
	return k.lens[c]>>min(uint(n), 63)&1 != 0
}

// lookup returns w's code, 0 if w is not in the set (w is not empty).
func (k *Keywords) lookup(w string) Code {
	s := &k.slots[k.hash(w)]
	if len(s.word) != len(w) {
		return 0
	}
	// Byte by byte, not s.word == w: that is a call (runtime.memequal)
	// in the call (fastLoop's) that keywords are short enough to make
	// without one (stop 41).
	for i := range len(w) {
		if s.word[i] != w[i] {
			return 0
		}
	}
	return s.code
}

// Lookup returns w's code in the set, 0 if w is not one of its words.
func (k *Keywords) Lookup(w string) Code {
	if w == "" {
		return 0
	}
	return k.lookup(w)
}

// SetKeywords makes the scanner code the NAME tokens that spell a word of
// k (nil: none, the default); call it before scanning.
func (s *Scanner) SetKeywords(k *Keywords) { s.kw = k }
