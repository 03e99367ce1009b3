package sem

import (
	"weft.dev/weft/diag"
	"weft.dev/weft/gpu"
	"weft.dev/weft/lang/cudac/syntax"
)

// Program is a compiled translation unit.
type Program struct {
	Funcs    []*Function
	Main     *Function
	Init     *Function // initializers of globals
	Fini     *Function // destructors of globals, run after main returns
	Kernels  []*Function
	Globals  []*GlobalVar
	Shared   []*GlobalVar // static __shared__ variables (one object per block)
	Literals []string
	Strings  []string // messages of OpTrap
	// StdLayouts are the std members of the types deep copies copy.
	StdLayouts []stdLayout
	Pos        []diag.Pos
	bodiless   bool        // a bodiless function is called (annot.go)
	alog       bool        // access predicates are used: threads log their accesses (annot.go)
	pairSites  []*pairSite // two-thread predicates (pairs.go)
	asms       []*asmInfo  // inline asm statements (asm.go)
	asyncProxy bool        // some inline asm reads shared memory through the async proxy (proxy.go)
	excTypes   []excType   // the types thrown and caught (exc.go)
}

// HasBodiless reports whether the program calls a function declared but
// never defined (kernel-only files: it returns chosen values).
func (p *Program) HasBodiless() bool { return p.bodiless }

// Function is a compiled function.
type Function struct {
	Name         string
	Type         *Type
	Global       bool     // __global__: a kernel
	ClusterDims  gpu.Dim3 // __cluster_dims__ (zero: none; cluster.go)
	Device, Host bool     // callable from device / host code
	Code         []Instr
	fast         []Instr // Code with fused pairs, made at its first run (vmfuse.go)
	NSlots       int
	PosIdx       int32
	ParamNames   []string
	decl         *syntax.FuncDecl
	viaPtr       bool // the stand-in for a call through a function pointer (fnptr.go)
	// libAt is where the program calls the library model (a template
	// of a built-in header's text, syntax/stdalgo.go) this instance is
	// of: errors inside it are reported there (lib_algorithm.go).
	libAt diag.Pos
	libFn string // the std:: name of that model
	// cleanups are the automatic objects with destructors and the code
	// ranges in which they are constructed, latest first (exc.go)
	cleanups []cleanup
	tmap     map[string]*Type
	tvals    map[string]int64
	// fwdLv are the template parameters T of forwarding references (T&&
	// parameters) this instance deduced from lvalues (rvalue.go)
	fwdLv    map[string]bool
	compiled bool
	defined  bool
}

// GlobalVar is a file-scope (or static) variable.
type GlobalVar struct {
	Name  string
	Type  *Type
	Space Space
	Pos   int32
	index int
}

// Kernel returns the kernel named name, or the first kernel if name is "".
func (p *Program) Kernel(name string) *Function {
	for _, k := range p.Kernels {
		if name == "" || k.Name == name {
			return k
		}
	}
	return nil
}

// ParamType returns the type of parameter i of f.
func (f *Function) ParamType(i int) *Type { return f.Type.Params[i] }

// IsPointer reports whether t is a pointer type.
func (t *Type) IsPointer() bool { return t.Kind == Ptr }

// ElemSize is the size of what a pointer type points to.
func (t *Type) ElemSize() int {
	if t.Kind == Ptr && t.Elem.size > 0 && t.Elem.Kind != Void {
		return t.Elem.size
	}
	return 1
}

// IsFloat reports whether t is float or double.
func (t *Type) IsFloat() bool { return t.isFloat() }

// Elem returns what a pointer points to.
func (t *Type) ElemType() *Type { return t.Elem }

// Load preprocesses, parses and compiles one translation unit. The program
// may be run only when diags has no errors afterwards.
func Load(f *diag.File, diags *diag.List) *Program {
	return LoadConfig(f, diags, syntax.Config{})
}

// LoadConfig is Load with -I directories and -D macros.
func LoadConfig(f *diag.File, diags *diag.List, cfg syntax.Config) *Program {
	return LoadUnits(f, nil, diags, cfg)
}

// LoadUnits loads a program of several translation units: f and the
// files extra, linked as nvcc links them (link.go).
func LoadUnits(f *diag.File, extra []string, diags *diag.List, cfg syntax.Config) *Program {
	loadTables()
	file := syntax.ParseUnit(f, diags, cfg) // both of nvcc's passes (devicepass.go)
	if file == nil || diags.HasErrors() {
		return nil
	}
	if file = linkFiles(f, file, extra, cfg, diags); file == nil {
		return nil
	}
	p := Compile(file, diags)
	if diags.HasErrors() {
		return nil
	}
	return p
}
