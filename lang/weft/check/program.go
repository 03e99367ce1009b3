package check

import (
	"fmt"
	"sort"
	"strings"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/lib"
	"weft.dev/weft/lang/weft/syntax"
)

// Kind classifies a Symbol (seed 000 §3.1: control, data, barrier
// variables). A byte: it shares a word of the Symbol with three flags
// (stop 45).
type Kind uint8

const (
	KindInvalid Kind = iota
	KindSize         // size parameter: a positive control value
	KindIndex        // index parameter: a control value
	KindStride       // stride parameter: a control value
	KindBool         // bool parameter
	KindScalar       // scalar data (f32 x, or a 0-d parameter)
	KindTensor       // tensor data: f32[M, K]
	KindWindow       // window: [f32][M, K] parameter or window statement
	KindBarrier      // barrier variable
	KindIter         // loop iterator: a control value
	KindConst        // integer global constant
	KindGlobal       // other module-level value (warp configs, units)
)

var kindNames = [...]string{"invalid", "size", "index", "stride", "bool", "scalar", "tensor", "window", "barrier", "iterator", "constant", "global"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// A returns the kind with its indefinite article ("a size", "an index"),
// for messages.
func (k Kind) A() string {
	n := k.String()
	if strings.IndexByte("aeiou", n[0]) >= 0 {
		return "an " + n
	}
	return "a " + n
}

// Control reports whether symbols of kind k are control values (usable in
// control expressions).
func (k Kind) Control() bool {
	return k == KindSize || k == KindIndex || k == KindStride || k == KindIter || k == KindConst
}

// Data reports whether symbols of kind k hold data.
func (k Kind) Data() bool { return k == KindScalar || k == KindTensor || k == KindWindow }

// Symbol is a resolved name.
type Symbol struct {
	Name string
	Kind Kind
	// Special: Mem names a special window. It, hasRng, winMem and Param
	// share Kind's word (stop 45: Kind and Param were ints and each of the
	// flags took a word of padding; a Symbol was 264 bytes, now 240).
	Special bool
	// hasRng: rng holds the iterator's range.
	hasRng bool
	// winMem tells whether Mem names a special window of the library, for
	// the parameters of the library's procs (libParamFacts); winMemUnknown
	// elsewhere: sameMem asks the library.
	winMem int8
	// Param is the parameter position, or -1.
	Param int32
	Pos   diag.Pos
	// Decl is the declaring node: *syntax.Param, *syntax.Alloc, *syntax.For,
	// *syntax.Assign (window statement) or *syntax.Global.
	Decl syntax.Node
	Type *syntax.Type // declared type of params and allocations; nil otherwise
	// Elem is the data type (f32, bf16, ...) of data symbols, "barrier" for
	// barriers.
	Elem string
	// Dims is the shape: declared dims, or the extents of a window
	// statement's slices (hi - lo).
	Dims []syntax.Expr
	// Mem is the data memory, barrier memory or special window (Special)
	// name; "" for instruction parameters that accept any memory.
	Mem     string
	MemArgs []syntax.Expr
	// Of is the symbol a window statement windows; its memory is Of's.
	Of *Symbol
	// Guard is z of an explicitly guarded barrier `barrier(z)`.
	Guard *Symbol
	// RingDepth is, for a barrier allocation with Exo's size annotations
	// (`barrier[2, n @ ring_buffer_by(4)]`), the ring depth of each
	// dimension (0: not ring-buffered); nil without annotations.
	RingDepth []int64
	// Value is the value of a KindConst.
	Value int64
	// rng is the static [min, max] of a loop iterator (KindIter) while
	// the checker is inside its loop, when hasRng; an if's guard narrows
	// it for the then-branch (checker.narrow). A field of the symbol,
	// not a map from symbols: that map's lookups and copies were a
	// tenth of checking row 15 (issue 13, stop 32).
	rng [2]int64
	// memOf, memKey and mem remember Memory's last answer: mem is
	// memOf.Memories[memKey]. The key is the library and the name asked
	// for, so a changed Mem or another library asks the map again; the
	// library's maps are complete once it is loaded (lib.Load) and only
	// read after. One map lookup (~120 instructions with the string's
	// hash) per call had been some 2 K instructions of checking row 15
	// (issue 13, stop 40: permitAs and sameMem ask per argument).
	memOf  *lib.Library
	memKey string
	mem    *lib.Memory
}

const (
	winMemUnknown int8 = iota
	winMemYes
	winMemNo
)

// Memory returns the symbol's data memory from lib (for windows, the
// windowed tensor's), or nil.
func (s *Symbol) Memory(l *lib.Library) *lib.Memory {
	for s != nil && s.Special {
		s = s.Of
	}
	if s == nil {
		return nil
	}
	if s.memOf != l || s.memKey != s.Mem {
		s.memOf, s.memKey, s.mem = l, s.Mem, l.Memories[s.Mem]
	}
	return s.mem
}

// Rank is the number of dimensions of a data symbol.
func (s *Symbol) Rank() int { return len(s.Dims) }

func (s *Symbol) String() string { return s.Name }

// Proc is a checked proc or instruction.
type Proc struct {
	Name   string
	Decl   *syntax.Proc
	Instr  *lib.Instr // nil for plain procs
	Lib    bool       // from the standard library
	Params []*Symbol
	// Uses maps each name use to its symbol.
	Uses map[*syntax.Name]*Symbol
	// Defs maps each declaring node (*syntax.Param, *syntax.Alloc,
	// *syntax.For, window-statement *syntax.Assign) to its symbol.
	Defs map[syntax.Node]*Symbol
	// Locals are the symbols declared in the body, in source order.
	Locals []*Symbol
	// Callees maps each proc or instruction call to its callee (nil
	// when the proc calls nothing).
	Callees map[*syntax.Call]*Proc
	// Args holds, for each call, the argument bound to each of the
	// callee's parameters (see BindArgs; nil where missing; the map is
	// nil when the proc calls nothing).
	Args map[*syntax.Call][]syntax.Expr
	// Windows marks the Assign statements that are window statements
	// (nil when there are none).
	Windows map[*syntax.Assign]bool

	// modes are, for a library instruction, the access mode of each of
	// Params ("" where Access has none): libParamFacts; nil elsewhere.
	modes []string

	loops int // the proc's loops (procSize)
	decls int // its parameters and declaring statements (procSize): the symbols it can make
}

// Param returns the parameter named name, or nil.
func (p *Proc) Param(name string) *Symbol {
	for _, s := range p.Params {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Program is a checked file.
type Program struct {
	File *syntax.File
	Lib  *lib.Library
	// Procs are the file's procs (including its own @instr procs), in file
	// order.
	Procs []*Proc
	// ByName holds the file's procs (including its @instr procs) by name.
	// Lookup also finds the library's instructions and procs.
	ByName map[string]*Proc
	// libProcs are the library's instructions and procs, each resolved
	// once per *lib.Library at its first lookup and shared read-only by
	// every Program checked against it (check.go, libTable): a `weft
	// check` of a small kernel must not copy the whole library into each
	// Program, nor resolve the procs it does not call.
	libProcs *libTable
	// Consts are the integer module-level constants (`Mw, Nw = 96, 64`)
	// (nil when there are none).
	Consts map[string]int64
	// Globals are all module-level names with their value expressions
	// (nil when there are none).
	Globals map[string]syntax.Expr
	// Configs are the file's configs, declared (@config class) or inferred
	// from their uses; Fields maps each `Config.field` use to its field
	// (each nil when there are none).
	Configs map[string]*Config
	Fields  map[*syntax.Attr]*ConfigField
	// Externs maps each call of an extern function in a data expression
	// (sin(x), select(a, b, c, d)) to its definition (nil: none).
	Externs map[*syntax.Call]*lib.Extern
}

// Lookup returns the proc or instruction named name: the file's, or else
// the library's (a file's declaration shadows a library one of the same
// name), or nil.
func (p *Program) Lookup(name string) *Proc {
	if pr := p.ByName[name]; pr != nil {
		return pr
	}
	return p.libProcs.get(name)
}

// names lists every name Lookup finds (a name may appear twice).
func (p *Program) names() []string {
	var lps map[string]*libProc
	if p.libProcs != nil {
		lps = p.libProcs.entries()
	}
	out := make([]string, 0, len(p.ByName)+len(lps))
	for n := range p.ByName {
		out = append(out, n)
	}
	for n := range lps {
		out = append(out, n)
	}
	return out
}

// Main picks the proc to run or check: the named one, or else the file's
// only non-instruction proc.
func (p *Program) Main(name string) (*Proc, error) {
	if name != "" {
		for _, pr := range p.Procs {
			if pr.Name == name {
				return pr, nil
			}
		}
		return nil, fmt.Errorf("no proc %s in %s (procs: %s)", name, p.fileName(), p.procList())
	}
	var cands []*Proc
	for _, pr := range p.Procs {
		if pr.Instr == nil {
			cands = append(cands, pr)
		}
	}
	switch len(cands) {
	case 1:
		return cands[0], nil
	case 0:
		return nil, fmt.Errorf("%s has no proc to run", p.fileName())
	}
	return nil, fmt.Errorf("%s has several procs (%s): choose one with --proc", p.fileName(), p.procList())
}

func (p *Program) fileName() string {
	if p.File != nil && p.File.Name != "" {
		return p.File.Name
	}
	return "the file"
}

func (p *Program) procList() string {
	var ns []string
	for _, pr := range p.Procs {
		if pr.Instr == nil {
			ns = append(ns, pr.Name)
		}
	}
	sort.Strings(ns)
	return strings.Join(ns, ", ")
}
