package syntax

import (
	"fmt"
	"strings"

	"weft.dev/weft/diag"
)

// BuiltinTypeNames are the typedef names every CUDA translation unit knows
// without a declaration (from the headers we model as built-in).
var BuiltinTypeNames = []string{
	"size_t", "ssize_t", "ptrdiff_t", "intptr_t", "uintptr_t",
	"int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t",
	"dim3", "uint3", "int2", "int3", "int4", "uint2", "uint4", "float2", "float3", "float4", "double2",
	"cudaError_t", "cudaStream_t", "cudaEvent_t", "cudaMemcpyKind", "cudaDeviceProp", "FILE", "clock_t", "time_t",
	"int_fast8_t", "int_fast16_t", "int_fast32_t", "int_fast64_t", "uint_fast8_t", "uint_fast16_t", "uint_fast32_t", "uint_fast64_t",
	"int_least8_t", "int_least16_t", "int_least32_t", "int_least64_t", "uint_least8_t", "uint_least16_t", "uint_least32_t", "uint_least64_t",
	"intmax_t", "uintmax_t",
	// <cuda.h> driver types and the launch API's structs
	"CUresult", "cuuint32_t", "cuuint64_t", "CUtensorMap", "CUtensorMapDataType", "CUtensorMapInterleave",
	"CUtensorMapSwizzle", "CUtensorMapL2promotion", "CUtensorMapFloatOOBfill", "cudaDriverEntryPointQueryResult",
	"cudaDeviceAttr", "cudaFuncAttribute", "cudaLaunchConfig_t", "cudaLaunchAttribute", "cudaLaunchAttributeValue",
	"cudaLaunchAttributeID", "CUdevice", "CUstream", "cudaMemPool_t",
	// the memory API's structs (sem/lib_cudart_mem.go)
	"cudaExtent", "cudaPos", "cudaPitchedPtr", "cudaMemcpy3DParms", "cudaMemLocation", "cudaMemLocationType",
	"cudaMemoryAdvise", "cudaAccessPolicyWindow", "cudaAccessProperty", "cudaStreamAttrValue", "cudaStreamAttrID",
	"cudaMemPoolAttr", "cudaMemsetParams", "cudaHostNodeParams", "cudaStreamCaptureStatus", "cudaStreamCaptureMode", "cudaHostFn_t",
	"cudaMemPoolProps", "cudaMemAccessDesc", "cudaMemAllocNodeParams", "cudaGraphMemAttributeType", "cudaMemAllocationType",
	"cudaMemAllocationHandleType", "cudaMemAccessFlags", "div_t", "ldiv_t", "lldiv_t",
	"cudaGraphExecUpdateResult",
	"std::string", "std::vector", "cuda::atomic_ref", "timeval", "utsname",
	"uint", "ushort", "ulong",
}

// UnmodeledStdTypes are class names of the C++ standard library that
// helper headers name (their std:: is flattened): they parse as types;
// sem models the stream classes among them (lib_sstream.go), and code
// that is compiled and uses another gets a diagnostic naming it (C0309).
var UnmodeledStdTypes = map[string]bool{
	"stringstream": true, "ostringstream": true, "istringstream": true, "ifstream": true, "ofstream": true,
	"fstream": true, "ostream": true, "istream": true, "exception": true, "runtime_error": true,
	"logic_error": true, "range_error": true, "invalid_argument": true, "out_of_range": true,
	"overflow_error": true, "bad_alloc": true, "ios_base": true, "ios": true,
}

// StdContainers are the associative containers of the standard library,
// which sem does not model: written std::map<K, V> (the qualifier is kept,
// cxx.go, so a program's own map or set keeps its meaning) they parse as
// types, and a compiled use is C0309 naming them.
var StdContainers = map[string]bool{"map": true, "unordered_map": true, "set": true, "unordered_set": true, "multimap": true, "multiset": true, "deque": true}

// UnmodeledStdTemplates are class templates of the standard library that
// sem does not model: written std::weak_ptr<T> (the qualifier kept, as for
// StdContainers) they parse as types, and a compiled use is C0309 naming
// them, not a parse error at their '<'.
var UnmodeledStdTemplates = map[string]bool{
	"weak_ptr": true, "function": true, "tuple": true, "optional": true, "variant": true,
	"list": true, "forward_list": true, "stack": true, "queue": true, "priority_queue": true,
	"bitset": true, "span": true, "complex": true, "valarray": true,
}

// VectorTypeNames are CUDA's built-in vector types (vector_types.h): each
// base name with 1 to 4 components.
var VectorTypeNames = func() []string {
	var out []string
	for _, b := range []string{"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "longlong", "ulonglong", "float", "double"} {
		for n := 1; n <= 4; n++ {
			out = append(out, b+string(rune('0'+n)))
		}
	}
	return out
}()

// HalfTypeNames are the types of cuda_fp16.h and cuda_bf16.h.
var HalfTypeNames = []string{"__half", "half", "__half2", "half2", "__nv_bfloat16", "nv_bfloat16", "__nv_bfloat162", "nv_bfloat162"}

// bailout unwinds the parser to the enclosing top-level declaration after a
// syntax error.
type bailout struct{}

type parser struct {
	// tpack is the type parameter pack of the function template being
	// declared ("" for none): a parameter "Args... args" expands it
	tpack string
	// typedefNames are the names typedefs declared (instanceTypedef),
	// memberTypes those declared as members of a class (memberTypeNext)
	typedefNames, memberTypes map[string]bool
	toks                      []Token
	i                         int
	diags                     *diag.List
	types                     []map[string]bool // typedef names, innermost scope last
	templates                 map[string]bool
	nbind                     int // structured bindings so far (bindings.go)
	errs                      int
	file                      *File
	// tags are the struct names declared so far; with C++ they are type
	// names, and a member declaration that starts with one followed by
	// '(' is a constructor.
	tags  map[string]bool
	depth int // nesting of statements, expressions, initializers, declarators
	// spec holds the template arguments after the name in the last
	// declarator (an explicit specialization, f<A, B>).
	spec     []*TypeExpr
	specExpr []Expr
	hasSpec  bool
	// cur is the struct definition being parsed (its member function
	// names are recorded on it); virtSuffix is set when the last function
	// declarator ended in override or final.
	cur        *TypeExpr
	virtSuffix bool
	// classTmpls are the class template names declared so far.
	classTmpls map[string]bool
	// tdefT and tdefE are the default arguments of the template
	// parameter list being parsed.
	tdefT []*TypeExpr
	tdefE []Expr
}

// maxDepth bounds the nesting the parser follows, so that no recursion
// over the tree (here or in the interpreter) can exhaust the stack on
// adversarial input such as 10^6 parentheses (issue 14).
const maxDepth = 1000

// enter counts one more level of nesting, failing the declaration with
// C0220 beyond maxDepth; the caller defers leave.
func (p *parser) enter() {
	p.depth++
	if p.depth > maxDepth {
		p.errorf(p.tok().Pos, "C0220", "nested too deeply (more than %d levels)", maxDepth)
	}
}

func (p *parser) leave() { p.depth-- }

// Parse parses the preprocessed tokens of one translation unit.
func Parse(toks []Token, diags *diag.List) *File {
	loadTables()
	usingStd := false
	p := &parser{toks: chronoTimePoints(resolveScopes(stripAttributes(toks, diags), diags, &usingStd)), diags: diags, templates: map[string]bool{cgPrefix + "tiled_partition": true, cgPrefix + "wait_prior": true}, tags: map[string]bool{}, classTmpls: map[string]bool{}}
	if len(p.toks) == 0 || p.toks[len(p.toks)-1].Kind != EOF {
		p.toks = append(p.toks, Token{Kind: EOF})
	}
	global := map[string]bool{}
	for _, list := range [][]string{BuiltinTypeNames, VectorTypeNames, HalfTypeNames, CGTypeNames, TexObjectTypes} {
		for _, n := range list {
			global[n] = true
		}
	}
	for n := range UnmodeledStdTypes {
		global[n] = true
	}
	for n := range StdContainers {
		global["std::"+n] = true
	}
	for n := range UnmodeledStdTemplates {
		global["std::"+n] = true
	}
	p.types = []map[string]bool{global}
	for n := range TextureFuncs {
		p.templates[n] = true // tex2D<float>(...): reported by sem
	}
	for n := range ChronoFuncTemplates {
		p.templates[n] = true // std::chrono::duration_cast<D>(d) (chrono.go)
	}
	f := &File{UsingStd: usingStd}
	p.file = f
	for p.tok().Kind != EOF {
		if p.errs > 20 {
			break
		}
		p.topLevel(f)
	}
	return f
}

func (p *parser) tok() Token { return p.toks[p.i] }
func (p *parser) peek(n int) Token {
	if p.i+n < len(p.toks) {
		return p.toks[p.i+n]
	}
	return p.toks[len(p.toks)-1]
}
func (p *parser) next() Token {
	t := p.toks[p.i]
	if p.i < len(p.toks)-1 {
		p.i++
	}
	return t
}
func (p *parser) is(text string) bool {
	t := p.tok()
	return (t.Kind == Punct || t.Kind == Ident) && t.Text == text
}
func (p *parser) got(text string) bool {
	if p.is(text) {
		p.next()
		return true
	}
	return false
}

func (p *parser) errorf(pos diag.Pos, code, format string, args ...any) {
	p.errs++
	p.diags.Errorf(pos, code, format, args...)
	panic(bailout{})
}

func (p *parser) expect(text string) Token {
	if !p.is(text) {
		t := p.tok()
		what := "'" + t.Text + "'"
		if t.Kind == EOF {
			what = "end of file"
		}
		p.errorf(t.Pos, "C0201", "expected '%s', found %s", text, what)
	}
	return p.next()
}

func (p *parser) ident() Token {
	t := p.tok()
	if t.Kind != Ident || keywords[t.Text] {
		p.errorf(t.Pos, "C0202", "expected identifier, found '%s'", t.Text)
	}
	return p.next()
}

func (p *parser) isTypeName(name string) bool {
	for i := len(p.types) - 1; i >= 0; i-- {
		if v, ok := p.types[i][name]; ok {
			return v
		}
	}
	return false
}

// declared reports whether name is declared (as a type or not).
func (p *parser) declared(name string) bool {
	for i := len(p.types) - 1; i >= 0; i-- {
		if _, ok := p.types[i][name]; ok {
			return true
		}
	}
	return false
}

// textureTypes are the types of CUDA's texture and surface API that are
// not modeled (references, removed in CUDA 12; mipmaps; the driver API's
// handles): each use is a positioned diagnostic naming it (issue 14), and
// parsing goes on with the type read as an integer handle. Texture and
// surface objects are modeled (TexObjectTypes).
var textureTypes map[string]bool

// initTextureTypes builds textureTypes (tables.go).
func initTextureTypes() {
	textureTypes = map[string]bool{
		"texture": true, "surface": true, "cudaResourceViewDesc": true, "cudaMipmappedArray_t": true,
		"CUtexObject": true, "CUsurfObject": true,
	}
}

// TexObjectTypes are the types of the texture-object API that sem models
// (lang/cudac/sem/lib_texobj.go).
var TexObjectTypes = []string{"cudaChannelFormatDesc", "cudaArray", "cudaArray_t", "cudaArray_const_t",
	"cudaResourceDesc", "cudaTextureDesc", "cudaTextureObject_t", "cudaSurfaceObject_t",
	"cudaChannelFormatKind", "cudaResourceType", "cudaTextureAddressMode", "cudaTextureFilterMode",
	"cudaTextureReadMode", "cudaSurfaceBoundaryMode"}

// TextureFuncs are the texture and surface fetch and store functions (and
// the runtime calls that make texture objects); sem reports a call of one.
var TextureFuncs = map[string]bool{
	"tex1Dfetch": true, "tex1D": true, "tex2D": true, "tex3D": true, "tex1DLayered": true, "tex2DLayered": true,
	"texCubemap": true, "tex2Dgather": true, "tex1DLod": true, "tex2DLod": true, "tex3DLod": true,
	"tex1DGrad": true, "tex2DGrad": true, "surf1Dread": true, "surf2Dread": true, "surf3Dread": true,
	"surf1Dwrite": true, "surf2Dwrite": true, "surf3Dwrite": true,
	"cudaCreateTextureObject": true, "cudaDestroyTextureObject": true, "cudaCreateSurfaceObject": true,
	"cudaDestroySurfaceObject": true, "cudaMallocArray": true, "cudaMalloc3DArray": true, "cudaFreeArray": true,
	"cudaMemcpyToArray": true, "cudaMemcpy2DToArray": true, "cudaCreateChannelDesc": true,
	"cudaBindTexture": true, "cudaBindTexture2D": true, "cudaBindTextureToArray": true, "cudaUnbindTexture": true,
}

// textureType reads a texture or surface type (texture<T, N, mode> with
// its arguments), reporting it, as an unsigned long long handle.
func (p *parser) textureType() *TypeExpr {
	t := p.next()
	p.errs++
	p.diags.Errorf(t.Pos, "C0309", "%s: texture and surface references, mipmapped arrays and the driver API's texture handles are not modeled (texture and surface objects are: cudaTextureObject_t)", t.Text)
	if p.is("<") {
		p.templateArgs()
	}
	return &TypeExpr{Kind: TNamed, Name: "unsigned long long", Pos: t.Pos}
}

func (p *parser) declareName(name string, isType bool) {
	p.types[len(p.types)-1][name] = isType
}

func (p *parser) push() { p.types = append(p.types, map[string]bool{}) }
func (p *parser) pop()  { p.types = p.types[:len(p.types)-1] }

var keywords map[string]bool

// initKeywords builds keywords (tables.go).
func initKeywords() {
	keywords = map[string]bool{
		"auto": true, "break": true, "case": true, "char": true, "const": true, "continue": true, "default": true,
		"do": true, "double": true, "else": true, "enum": true, "extern": true, "float": true, "for": true, "goto": true,
		"if": true, "inline": true, "int": true, "long": true, "register": true, "restrict": true, "return": true,
		"short": true, "signed": true, "sizeof": true, "static": true, "struct": true, "switch": true, "typedef": true,
		"union": true, "unsigned": true, "void": true, "volatile": true, "while": true, "_Bool": true, "bool": true,
		"__global__": true, "__device__": true, "__host__": true, "__shared__": true, "__constant__": true, "__managed__": true,
		"__restrict__": true, "__restrict": true, "template": true, "typename": true, "class": true,
	}
}

var baseTypeWords map[string]bool

// initBaseTypeWords builds baseTypeWords (tables.go).
func initBaseTypeWords() {
	baseTypeWords = map[string]bool{
		"void": true, "char": true, "short": true, "int": true, "long": true, "float": true, "double": true,
		"signed": true, "unsigned": true, "_Bool": true, "bool": true,
	}
}

var qualWords map[string]bool

// initQualWords builds qualWords (tables.go).
func initQualWords() {
	qualWords = map[string]bool{
		"const": true, "volatile": true, "extern": true, "static": true, "typedef": true, "inline": true, "register": true,
		"__global__": true, "__device__": true, "__host__": true, "__shared__": true, "__constant__": true, "__managed__": true,
		"__restrict__": true, "__restrict": true, "restrict": true, "auto": true, "constexpr": true, "__cluster_dims__": true,
	}
}

// startsType reports whether the current token can begin a declaration.
func (p *parser) startsType() bool {
	t := p.tok()
	if t.Kind != Ident {
		return false
	}
	if baseTypeWords[t.Text] || qualWords[t.Text] || t.Text == "struct" || t.Text == "class" || t.Text == "union" || t.Text == "enum" {
		return true
	}
	if textureTypes[t.Text] && !p.declared(t.Text) {
		return true
	}
	if t.Text == "decltype" && p.peek(1).Text == "(" && !p.declared(t.Text) {
		return true
	}
	if t.Text == "typename" && p.peek(1).Kind == Ident {
		// typename X::Y v; (C++ [temp.res]): a statement that starts so
		// is a declaration (specifiers reads the member type)
		return true
	}
	return p.isTypeName(t.Text)
}

// topLevel parses one external declaration.
func (p *parser) topLevel(f *File) {
	start := p.i
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(bailout); !ok {
				panic(r)
			}
			p.skipTopLevel(start)
		}
	}()
	t := p.tok()
	switch {
	case p.got(";"):
		return
	case t.Text == "extern" && p.peek(1).Kind == StringLit: // extern "C" { ... } or extern "C" decl
		p.next()
		p.next()
		if p.got("{") {
			for !p.is("}") && p.tok().Kind != EOF {
				p.topLevel(f)
			}
			p.expect("}")
		}
		return
	case t.Text == "namespace" && (p.peek(1).Text == "{" || p.peek(2).Text == "{"):
		// namespace ns { ... }: flattened (see cxx.go)
		p.next()
		if !p.is("{") {
			p.next()
		}
		p.expect("{")
		for !p.is("}") && p.tok().Kind != EOF {
			p.topLevel(f)
		}
		p.expect("}")
		return
	case t.Text == "using" && p.peek(1).Kind == Ident && p.peek(2).Text == "=":
		f.Decls = append(f.Decls, p.usingAlias())
		return
	case t.Text == "using" || t.Text == "namespace":
		for !p.is(";") && p.tok().Kind != EOF {
			p.next()
		}
		p.next()
		return
	case t.Text == "template":
		p.template(f)
		return
	case t.Text == "static_assert":
		f.Decls = append(f.Decls, p.staticAssert())
		return
	}
	p.declaration(f, nil, nil)
}

// skipTopLevel skips to the end of the broken declaration: past the next
// ';' or closing '}' at nesting level 0.
func (p *parser) skipTopLevel(start int) {
	// rescan from the start of the declaration so that braces opened
	// before the error are counted (an error inside a function body skips
	// the whole body, not just to the next ';')
	p.i = start
	level := 0
	for p.tok().Kind != EOF {
		t := p.next()
		switch t.Text {
		case "{":
			level++
		case "}":
			level--
			if level <= 0 {
				if p.is(";") {
					p.next()
				}
				return
			}
		case ";":
			if level <= 0 {
				return
			}
		}
	}
}

func (p *parser) template(f *File) {
	p.expect("template")
	if !p.is("<") {
		// an explicit instantiation, template R f<A>(...); (C++
		// [temp.explicit]): templates are instantiated where used, so
		// it adds nothing
		for !p.is(";") && p.tok().Kind != EOF {
			p.next()
		}
		p.expect(";")
		return
	}
	p.expect("<")
	names := []string{}
	var values []bool
	var defT []*TypeExpr
	var defE []Expr
	p.push()
	tpack := ""
	for !p.is(">") {
		if p.got("typename") || p.got("class") {
			if p.got("...") {
				// a template parameter pack (C++ [temp.variadic]):
				// function templates expand it per call (sem/variadic.go)
				if tpack != "" {
					p.errorf(p.tok().Pos, "C0206", "a template with two parameter packs is not supported")
				}
				tpack = p.tok().Text
			}
			names = append(names, p.ident().Text)
			values = append(values, false)
		} else {
			p.specifiers()
			names = append(names, p.ident().Text)
			values = append(values, true)
		}
		p.declareName(names[len(names)-1], !values[len(values)-1])
		// a default template argument (C++ [temp.param]p9)
		var dt *TypeExpr
		var de Expr
		if p.got("=") {
			if values[len(values)-1] {
				de = p.binary(7) // stop before '>'
			} else {
				dt = p.typeName()
			}
		}
		defT, defE = append(defT, dt), append(defE, de)
		if !p.got(",") {
			break
		}
	}
	p.closeAngle()
	p.pop()
	p.tdefT, p.tdefE = defT, defE
	defer func() { p.tdefT, p.tdefE = nil, nil }()
	if p.is("template") {
		// template <class T> template <class U> U W<T>::f() {...}: a
		// member template defined outside its class template
		p.errorf(p.tok().Pos, "C0206", "a member template defined outside its class template is not supported; define it in the class")
		p.skipDefinition()
		return
	}
	if (p.is("struct") || p.is("class") || p.is("union")) && p.peek(1).Kind == Ident {
		if tpack != "" {
			p.errorf(p.tok().Pos, "C0206", "variadic class templates are not supported (a function template's parameter pack is)")
		}
		p.classTemplate(f, names, values)
		return
	}
	p.push()
	for k, n := range names {
		p.declareName(n, !values[k])
	}
	saveP := p.tpack
	p.tpack = tpack
	n := len(f.Templates)
	p.declaration(f, names, values)
	p.tpack = saveP
	if tpack != "" && len(f.Templates) > n {
		f.Templates[n].TPack = tpack
	}
	p.pop()
}

// skipDefinition skips a declaration the parser reported: to its ';' or
// past the braces of its body, whichever ends it first.
func (p *parser) skipDefinition() {
	depth := 0
	for p.tok().Kind != EOF {
		t := p.next()
		switch t.Text {
		case "{":
			depth++
		case "}":
			depth--
			if depth <= 0 {
				return
			}
		case ";":
			if depth == 0 {
				return
			}
		}
	}
}

// classTemplate parses a class template, or a partial or explicit
// specialization of one, after its template parameter list. Its member
// functions and out-of-struct members are kept on the template, compiled
// per instance by sem.
func (p *parser) classTemplate(f *File, names []string, values []bool) {
	kw := p.tok()
	name := p.peek(1).Text
	p.classTmpls[name] = true
	p.declareName(name, true)
	ct := &ClassTemplate{Pos: p.peek(1).Pos, Name: name, TParams: names, TValue: values, DefaultTypes: p.tdefT, DefaultExprs: p.tdefE}
	p.push()
	for k, n := range names {
		p.declareName(n, !values[k])
	}
	saved := p.file
	tmp := &File{}
	p.file = tmp
	base, _ := p.specifiers()
	p.file = saved
	p.pop()
	if base.Kind == TStruct && base.HasBody {
		ct.Struct = base
	}
	ct.Funcs = tmp.Funcs
	ct.Decls = tmp.Decls
	var others []*FuncDecl
	for _, fd := range tmp.Templates {
		if fd.Recv == name {
			ct.MemberTmpls = append(ct.MemberTmpls, fd)
		} else {
			others = append(others, fd)
		}
	}
	if len(others) > 0 || len(tmp.Specs) > 0 || len(tmp.ClassTemplates) > 0 {
		p.errorf(kw.Pos, "C0206", "member templates are not supported")
	}
	if !p.is(";") {
		p.errorf(p.tok().Pos, "C0206", "a class template definition declares no variables; expected ';', found '%s'", p.tok().Text)
		for !p.is(";") && p.tok().Kind != EOF {
			p.next()
		}
	}
	p.expect(";")
	f.ClassTemplates = append(f.ClassTemplates, ct)
}

// staticAssert parses static_assert(cond[, "message"]); (C++11), checked
// by sem where the enclosing function or instance is compiled.
func (p *parser) staticAssert() *Decl {
	t := p.expect("static_assert")
	p.expect("(")
	d := &Decl{Pos: t.Pos, StaticAssert: p.assign()}
	if p.got(",") {
		if p.tok().Kind != StringLit {
			p.errorf(p.tok().Pos, "C0201", "expected a string literal, found '%s'", p.tok().Text)
		}
		if sl, ok := p.primary().(*StringLitExpr); ok {
			d.AssertMsg = sl.Value
		}
	}
	p.expect(")")
	p.expect(";")
	return d
}

// alignas parses alignas(expr) or alignas(type) after the keyword.
func (p *parser) alignas() (Expr, *TypeExpr) {
	p.expect("(")
	defer p.expect(")")
	if p.startsType() {
		return nil, p.typeName()
	}
	return p.conditional(), nil
}

// specifiers parses declaration specifiers: qualifiers and a base type.
func (p *parser) specifiers() (*TypeExpr, Qualifiers) {
	var q Qualifiers
	var words []string
	var base *TypeExpr
	pos := p.tok().Pos
	sawAuto := false
	for {
		t := p.tok()
		if t.Kind != Ident {
			break
		}
		switch t.Text {
		case "const":
			q.Const = true
		case "volatile":
			q.Volatile = true
		case "extern":
			q.Extern = true
		case "static":
			q.Static = true
		case "typedef":
			q.Typedef = true
		case "inline", "register", "__restrict__", "__restrict", "restrict", "auto", "constexpr":
			switch t.Text {
			case "inline":
				q.Inline = true
			case "auto":
				sawAuto = true
			case "constexpr":
				q.Const = true
				q.Constexpr = true
			}
		case "virtual":
			q.Virtual = true
		case "mutable":
			q.Mutable = true
		case "explicit", "thread_local", "__inline", "__inline__":
		case "alignas":
			p.next()
			q.Align, q.AlignType = p.alignas()
			continue
		case "__cluster_dims__":
			// CUDA C++ Programming Guide, "Thread Block Clusters": a
			// kernel's compile-time cluster shape, 1 to 3 extents
			p.next()
			p.expect("(")
			q.ClusterDims = q.ClusterDims[:0]
			for len(q.ClusterDims) < 3 {
				q.ClusterDims = append(q.ClusterDims, p.conditional())
				if !p.is(",") {
					break
				}
				p.next()
			}
			p.expect(")")
			continue
		case "__global__":
			q.Global = true
		case "__device__":
			q.Device = true
		case "__host__":
			q.Host = true
		case "__shared__":
			q.Shared = true
		case "__constant__":
			q.Constant = true
		case "__managed__":
			q.Managed = true
		case "struct", "class", "union":
			if base != nil || len(words) > 0 {
				p.errorf(t.Pos, "C0203", "two types in one declaration")
			}
			base = p.structType()
			continue
		case "enum":
			if base != nil || len(words) > 0 {
				p.errorf(t.Pos, "C0203", "two types in one declaration")
			}
			base = p.enumType()
			continue
		default:
			if baseTypeWords[t.Text] {
				if base != nil {
					p.errorf(t.Pos, "C0203", "two types in one declaration")
				}
				words = append(words, t.Text)
				break
			}
			if base == nil && len(words) == 0 && t.Text == "decltype" && p.peek(1).Text == "(" && !p.declared(t.Text) {
				// decltype(e) (C++ [dcl.type.decltype]): the type of e, which
				// sem works out
				p.next()
				p.expect("(")
				base = &TypeExpr{Kind: TNamed, Name: "decltype", Pos: t.Pos, TArg: p.expr()}
				p.expect(")")
				continue
			}
			if base == nil && len(words) == 0 && textureTypes[t.Text] && !p.declared(t.Text) {
				base = p.textureType()
				continue
			}
			if k := strings.LastIndex(t.Text, "::"); base == nil && len(words) == 0 && k > 0 && !p.isTypeName(t.Text) && p.isTypeName(t.Text[:k]) && instanceTypedef(p, t.Text[:k]) && p.memberTypes[t.Text[k+2:]] {
				// Tag::Member joined by resolveScopes (a typedef named
				// like its class template's tag): the member type
				base = &TypeExpr{Kind: TNamed, Name: t.Text[:k], Member: t.Text[k+2:], Pos: t.Pos}
				p.next()
				continue
			}
			if base == nil && len(words) == 0 && t.Text == "typename" && p.peek(1).Kind == Ident {
				// typename X::Y (C++ [temp.res]): the member type
				p.next()
				continue
			}
			if base == nil && len(words) == 0 && p.isTypeName(t.Text) {
				base = &TypeExpr{Kind: TNamed, Name: t.Text, Pos: t.Pos}
				p.next()
				if p.memberTypeNext() {
					// BR::TempStorage: a member type of the instance a
					// typedef names (sem: memberType)
					p.next()
					base.Member = p.next().Text
					continue
				}
				if p.is("<") && (strings.HasPrefix(t.Text, cgPrefix) || t.Text == "std::vector" || t.Text == "cuda::atomic_ref") {
					p.classTemplateArg(base)
					if t.Text == "std::vector" && p.is("::") && p.peek(1).Kind == Ident && vectorMemberTypes[p.peek(1).Text] {
						base = p.vectorMemberType(base)
					}
				} else if p.is("<") && (p.classTmpls[t.Text] || strings.HasPrefix(t.Text, "std::") && (StdContainers[t.Text[5:]] || UnmodeledStdTemplates[t.Text[5:]]) || chronoTemplates[t.Text]) {
					// (std::map<K, V> parses, and sem names it: C0309)
					base.TArgs, base.TArgExprs = p.templateArgs()
					if strings.HasPrefix(t.Text, "std::") && StdContainers[t.Text[5:]] && p.is("::") && p.peek(1).Kind == Ident && containerMemberTypes[p.peek(1).Text] {
						// std::map<K, V>::iterator and the like (sem:
						// lib_map.go, containerMember)
						p.next()
						base.Member = p.next().Text
					} else if p.classTmpls[t.Text] && p.memberTypeNext() {
						// S<A>::type: a member type of the instance (sem:
						// memberType)
						p.next()
						base.Member = p.next().Text
					}
				}
				continue
			}
			goto done
		}
		p.next()
	}
done:
	if base == nil && len(words) == 0 && sawAuto {
		base = &TypeExpr{Kind: TNamed, Name: "auto", Pos: pos}
	}
	if base == nil {
		if len(words) == 0 {
			p.errorf(p.tok().Pos, "C0204", "expected a type, found '%s'", p.tok().Text)
		}
		name, ok := canonicalBase(words)
		if !ok {
			p.errorf(pos, "C0203", "invalid type '%s'", strings.Join(words, " "))
		}
		base = &TypeExpr{Kind: TNamed, Name: name, Pos: pos}
	}
	if q.Const {
		c := *base
		c.Const = true
		base = &c
	}
	if q.Volatile {
		c := *base
		c.Volatile = true
		base = &c
	}
	return base, q
}

// canonicalBase maps a multiset of type words to one canonical name.
func canonicalBase(words []string) (string, bool) {
	n := map[string]int{}
	for _, w := range words {
		n[w]++
	}
	if n["bool"] > 0 {
		n["_Bool"] += n["bool"]
		delete(n, "bool")
	}
	uns := n["unsigned"] > 0
	sig := n["signed"] > 0
	if uns && sig || n["unsigned"] > 1 || n["signed"] > 1 {
		return "", false
	}
	delete(n, "unsigned")
	delete(n, "signed")
	longs := n["long"]
	delete(n, "long")
	pre := ""
	if uns {
		pre = "unsigned "
	}
	switch {
	case n["void"] == 1 && len(n) == 1 && longs == 0 && !uns && !sig:
		return "void", true
	case n["_Bool"] == 1 && len(n) == 1 && longs == 0 && !uns && !sig:
		return "_Bool", true
	case n["float"] == 1 && len(n) == 1 && longs == 0 && !uns && !sig:
		return "float", true
	case n["double"] == 1 && len(n) == 1 && longs <= 1 && !uns && !sig:
		return "double", true
	case n["char"] == 1 && len(n) == 1 && longs == 0:
		if uns {
			return "unsigned char", true
		}
		if sig {
			return "signed char", true
		}
		return "char", true
	case n["short"] == 1 && longs == 0 && (len(n) == 1 || (len(n) == 2 && n["int"] == 1)):
		return pre + "short", true
	case longs == 0 && (len(n) == 0 || (len(n) == 1 && n["int"] == 1)):
		if uns {
			return "unsigned int", true
		}
		return "int", true
	case longs == 1 && (len(n) == 0 || (len(n) == 1 && n["int"] == 1)):
		return pre + "long", true
	case longs == 2 && (len(n) == 0 || (len(n) == 1 && n["int"] == 1)):
		return pre + "long long", true
	}
	return "", false
}

func (p *parser) structType() *TypeExpr {
	kw := p.next()
	t := &TypeExpr{Kind: TStruct, Pos: kw.Pos, Union: kw.Text == "union"}
	if p.is("alignas") {
		p.next()
		var at *TypeExpr
		t.Align, at = p.alignas()
		if at != nil {
			t.Align = &SizeofExpr{Pos: at.Pos, Type: at} // alignas(T) on a struct: rare; sizeof is an upper bound
		}
	}
	if p.tok().Kind == Ident && !p.is("{") {
		t.Name = p.next().Text
		// C++: the tag is a type name
		p.declareName(t.Name, true)
		p.tags[t.Name] = true
		if p.is("<") && p.classTmpls[t.Name] {
			// the pattern of a class template specialization
			t.TArgs, t.TArgExprs = p.templateArgs()
		}
		p.got("final") // a class that cannot be derived from
	}
	if p.is(":") && t.Name != "" {
		// the base classes, each with its access and virtual
		p.next()
		for {
			virt := false
			for p.is("public") || p.is("protected") || p.is("private") || p.is("virtual") {
				virt = virt || p.is("virtual")
				p.next()
			}
			bt := p.ident()
			b := bt.Text
			var inst *TypeExpr
			if p.is("<") && p.classTmpls[b] {
				// a class template instance: Box<int>
				inst = &TypeExpr{Kind: TNamed, Name: b, Pos: bt.Pos}
				inst.TArgs, inst.TArgExprs = p.templateArgs()
			}
			t.BaseTypes = append(t.BaseTypes, inst)
			t.Bases = append(t.Bases, b)
			if virt {
				t.VirtualBase = append(t.VirtualBase, b)
			}
			if !p.got(",") {
				break
			}
		}
		t.Base = t.Bases[0]
	}
	if p.got("{") {
		t.HasBody = true
		saveCur := p.cur
		p.cur = t
		defer func() { p.cur = saveCur }()
		for !p.is("}") {
			if p.tok().Kind == EOF {
				p.expect("}")
			}
			if p.got(";") {
				continue
			}
			if p.is("public") || p.is("private") || p.is("protected") {
				p.next()
				p.expect(":")
				continue
			}
			if p.is("static_assert") {
				p.file.Decls = append(p.file.Decls, p.staticAssert())
				continue
			}
			if p.is("using") && p.peek(1).Kind == Ident && p.peek(2).Text == "=" {
				// a member type alias, flattened like a nested struct
				p.file.Decls = append(p.file.Decls, p.usingAlias())
				continue
			}
			if p.is("typedef") {
				// a member typedef, flattened
				p.declaration(p.file, nil, nil)
				continue
			}
			if t.Name != "" && p.member(t.Name) {
				continue
			}
			base, q := p.specifiers()
			if p.is(";") && base.Kind == TStruct && base.Name == "" && base.HasBody {
				// an anonymous struct or union member (C11 6.7.2.1p13, C++
				// [class.union.anon]): its members are the enclosing
				// class's, at their offsets within it (sem's field lookup)
				t.Fields = append(t.Fields, &Field{Pos: base.Pos, Type: base})
				continue
			}
			if p.is(";") {
				// a nested struct, union or enum: its tag is a file-scope
				// name, as namespace members are (cxx.go)
				p.file.Decls = append(p.file.Decls, &Decl{Pos: base.Pos, Type: base, Q: q})
				continue
			}
			for {
				name, pos, typ := p.declarator(base)
				if name == "" {
					p.errorf(pos, "C0205", "struct member needs a name")
				}
				if typ.Kind == TFunc {
					p.method(t.Name, name, pos, typ, q)
					break
				}
				if q.Static {
					// a static data member is a file-scope variable Tag::name
					if t.Name == "" {
						p.errorf(pos, "C0206", "static data members of an anonymous struct are not supported")
					}
					d := p.initDecl(t.Name+"::"+name, pos, typ, q)
					if d.Init == nil && !d.HasCtor {
						d.Q.Extern = true // defined out of class
					}
					p.file.Decls = append(p.file.Decls, d)
					if !p.got(",") {
						break
					}
					continue
				}
				if p.got(":") { // bit-field width: accepted, stored as full width
					p.conditional()
				}
				fl := &Field{Name: name, Pos: pos, Type: typ, Align: q.Align, Mutable: q.Mutable}
				if q.AlignType != nil {
					fl.Align = &SizeofExpr{Pos: q.AlignType.Pos, Type: q.AlignType}
				}
				if p.got("=") {
					fl.Init = p.initializer()
				} else if p.is("{") {
					fl.Init = p.initializer()
				}
				t.Fields = append(t.Fields, fl)
				if !p.got(",") {
					break
				}
			}
			if len(p.toks) > 0 && p.i > 0 && (p.toks[p.i-1].Text == "}" || p.toks[p.i-1].Text == ";") && !p.is(";") {
				continue // a member function body or prototype
			}
			p.expect(";")
		}
		p.expect("}")
	} else if t.Name == "" {
		p.errorf(kw.Pos, "C0205", "%s needs a name or a body", kw.Text)
	}
	return t
}

// member parses a constructor, destructor or operator of struct tag, if
// one starts here (after optional qualifiers), and reports whether it did.
func (p *parser) member(tag string) bool {
	save := p.i
	var q Qualifiers
	for p.tok().Kind == Ident {
		switch p.tok().Text {
		case "__device__":
			q.Device = true
		case "__host__":
			q.Host = true
		case "inline", "__forceinline__", "constexpr", "explicit":
		case "virtual":
			q.Virtual = true
		default:
			goto body
		}
		p.next()
	}
body:
	t := p.tok()
	switch {
	case p.is("~") && p.peek(1).Text == tag:
		p.destructor(tag, q)
		return true
	case t.Text == "operator" && p.peek(1).Kind == Ident:
		// a conversion function, operator T() (C++ [class.conv.fct]):
		// "Tag::operator conv#k", the k-th of its class
		p.next()
		rt, _ := p.specifiers()
		for p.is("*") || p.is("&") {
			st := p.next()
			kind := TPointer
			if st.Text == "&" {
				kind = TRef
			}
			rt = &TypeExpr{Kind: kind, Elem: rt, Pos: st.Pos}
			for p.got("const") {
				rt.Const = true
			}
		}
		p.expect("(")
		p.expect(")")
		ft := p.suffixesAfterFunc(&TypeExpr{Kind: TFunc, Elem: rt, Pos: t.Pos})
		k := 0
		if p.cur != nil {
			for _, m := range p.cur.Methods {
				if strings.HasPrefix(m, "operator conv#") {
					k++
				}
			}
			p.cur.Methods = append(p.cur.Methods, fmt.Sprintf("operator conv#%d", k))
		}
		fd := &FuncDecl{Pos: t.Pos, Name: fmt.Sprintf("%s::operator conv#%d", tag, k), Type: ft, Q: q, Recv: tag}
		if p.got(";") {
			p.errorf(t.Pos, "C0206", "a conversion function must be defined in its class")
		}
		p.methodBody(fd)
		return true
	case t.Text == "template" && p.peek(1).Text == "<" && p.cur != nil && p.cur.Name == tag:
		// a member function template (C++ [temp.mem]): instantiated per
		// call like a function template, with the object as this
		n := len(p.file.Templates)
		p.template(p.file)
		for _, fd := range p.file.Templates[n:] {
			if fd.Recv == "" {
				fd.Name, fd.Recv = tag+"::"+fd.Name, tag
			}
		}
		return true
	case t.Text == "template":
		p.errorf(t.Pos, "C0206", "member templates are not supported")
	case t.Text == "friend":
		// a friend (C++ [class.friend]): a class is only granted access;
		// a function declared or defined here is a free function
		p.next()
		if p.is("class") || p.is("struct") {
			for !p.is(";") && p.tok().Kind != EOF {
				p.next()
			}
			p.expect(";")
			return true
		}
		p.declaration(p.file, nil, nil)
		return true
	case t.Text == "using":
		p.errorf(t.Pos, "C0206", "'%s' in a struct is not supported", t.Text)
	case t.Kind == Ident && t.Text == tag && p.peek(1).Text == "(":
		p.next()
		ft := p.suffixes(&TypeExpr{Kind: TNamed, Name: "void", Pos: t.Pos})
		if ft.Kind != TFunc {
			// "Tag(args)" that is not a parameter list: an empty one
			p.expect("(")
			p.expect(")")
			ft = &TypeExpr{Kind: TFunc, Elem: &TypeExpr{Kind: TNamed, Name: "void", Pos: t.Pos}, Pos: t.Pos}
		}
		// constructors overload by their number of parameters
		fd := &FuncDecl{Pos: t.Pos, Name: fmt.Sprintf("%s::%s#%d", tag, tag, len(ft.Params)), Type: ft, Q: q, Recv: tag, Ctor: true}
		p.memberInitList(fd)
		if p.is("=") && (p.peek(1).Text == "default" || p.peek(1).Text == "delete") {
			p.next()
			p.defaultedOrDeleted(fd, p.next().Text == "delete", true)
			return true
		}
		if p.got(";") {
			// declared here, defined out of class as Tag::Tag
			p.file.Decls = append(p.file.Decls, &Decl{Pos: t.Pos, Name: fd.Name, Type: ft, Q: q})
			return true
		}
		p.methodBody(fd)
		return true
	}
	p.i = save
	return false
}

// defaultedOrDeleted finishes a member function or constructor declared
// "= default" or "= delete" (C++ [dcl.fct.def.default], [dcl.fct.def.delete];
// the tokens are read). A deleted one is declared with an empty body and
// Deleted set: sem reports a call that chooses it (C0304), so overload
// resolution still sees it, as C++ requires. A defaulted constructor (default, copy or
// move) or assignment is the implicit one, so it declares nothing (and a
// class whose constructors are all defaulted stays an aggregate, C++17
// [dcl.init.aggr]).
func (p *parser) defaultedOrDeleted(fd *FuncDecl, deleted, ctor bool) {
	pos := p.tok().Pos
	p.expect(";")
	special := !ctor && strings.HasSuffix(fd.Name, "::operator=") || ctor
	if !deleted && special {
		return
	}
	fd.Deleted = deleted
	fd.Body = &Block{Pos: pos, End: pos}
	fd.EndPos = pos
	p.file.Funcs = append(p.file.Funcs, fd)
}

// method parses the body of a member function declared in struct tag.
func (p *parser) method(tag, name string, pos diag.Pos, typ *TypeExpr, q Qualifiers) {
	if tag == "" {
		p.errorf(pos, "C0206", "member functions of an anonymous struct are not supported")
	}
	if p.virtSuffix {
		q.Virtual = true
	}
	if p.cur != nil {
		p.cur.Methods = append(p.cur.Methods, name)
		if q.Virtual {
			p.cur.Virtuals = append(p.cur.Virtuals, name)
		}
	}
	if p.is("=") && p.peek(1).Text == "0" {
		// pure virtual (C++ [class.abstract]): no body, and a call that
		// reaches it is an invalid function pointer at run time
		if !q.Virtual {
			p.errorf(p.tok().Pos, "C0206", "only a virtual function can be pure")
		}
		if p.cur != nil {
			p.cur.Pure = append(p.cur.Pure, name)
		}
		p.next()
		p.next()
		return
	}
	if p.is("=") && (p.peek(1).Text == "default" || p.peek(1).Text == "delete") {
		p.next()
		fd := &FuncDecl{Pos: pos, Name: tag + "::" + name, Type: typ, Q: q, Recv: tag}
		p.defaultedOrDeleted(fd, p.next().Text == "delete", false)
		return
	}
	if p.is(";") {
		// declared here, defined out of class as Tag::name
		p.file.Decls = append(p.file.Decls, &Decl{Pos: pos, Name: tag + "::" + name, Type: typ, Q: q})
		return
	}
	if !p.is("{") {
		p.errorf(p.tok().Pos, "C0201", "expected '{' or ';' after member function %s, found '%s'", name, p.tok().Text)
	}
	fd := &FuncDecl{Pos: pos, Name: tag + "::" + name, Type: typ, Q: q, Recv: tag}
	p.methodBody(fd)
}

func (p *parser) methodBody(fd *FuncDecl) {
	p.body(fd)
	p.file.Funcs = append(p.file.Funcs, fd)
}

// body parses fd's body with its parameters in scope.
func (p *parser) body(fd *FuncDecl) {
	p.push()
	for _, prm := range fd.Type.Params {
		if prm.Name != "" {
			p.declareName(prm.Name, false)
		}
	}
	fd.Body = p.block()
	p.pop()
	fd.EndPos = fd.Body.End
}

// classTemplateArg parses the <arg> of a built-in class template.
func (p *parser) classTemplateArg(base *TypeExpr) {
	p.expect("<")
	if p.startsType() {
		base.TArgType = p.typeName()
	} else {
		base.TArg = p.binary(7) // stop before '>'
	}
	if base.Name == "cuda::atomic_ref" && p.got(",") {
		base.TArg = p.binary(7) // the thread scope
	}
	p.closeAngle()
}

// containerMemberTypes are the member types of the std containers other
// than vector (C++ [container.requirements.general], [associative.reqmts])
// that sem models.
var containerMemberTypes map[string]bool

// initContainerMemberTypes builds containerMemberTypes (tables.go).
func initContainerMemberTypes() {
	containerMemberTypes = map[string]bool{"iterator": true, "const_iterator": true, "value_type": true,
		"size_type": true, "difference_type": true, "key_type": true, "mapped_type": true}
}

// vectorMemberTypes are the member types of std::vector<T> the model has
// ([vector.overview]); its iterators are modeled as pointers to the
// elements (lib_std.go), so iterator is T* and const_iterator const T*.
var vectorMemberTypes map[string]bool

// initVectorMemberTypes builds vectorMemberTypes (tables.go).
func initVectorMemberTypes() {
	vectorMemberTypes = map[string]bool{"iterator": true, "const_iterator": true, "pointer": true, "const_pointer": true,
		"size_type": true, "difference_type": true, "value_type": true}
}

// vectorMemberType parses ::name after std::vector<T>.
func (p *parser) vectorMemberType(v *TypeExpr) *TypeExpr {
	p.expect("::")
	m := p.next()
	elem := v.TArgType
	if elem == nil {
		p.errorf(m.Pos, "C0204", "std::vector<...>::%s needs a type argument", m.Text)
		elem = &TypeExpr{Kind: TNamed, Name: "int", Pos: m.Pos}
	}
	iter := m.Text == "iterator" || m.Text == "const_iterator"
	switch m.Text {
	case "iterator", "pointer":
		return &TypeExpr{Kind: TPointer, Elem: elem, Pos: m.Pos, Iter: iter}
	case "const_iterator", "const_pointer":
		c := *elem
		c.Const = true
		return &TypeExpr{Kind: TPointer, Elem: &c, Pos: m.Pos, Iter: iter}
	case "size_type":
		name, _ := canonicalBase([]string{"unsigned", "long"})
		return &TypeExpr{Kind: TNamed, Name: name, Pos: m.Pos}
	case "difference_type":
		name, _ := canonicalBase([]string{"long"})
		return &TypeExpr{Kind: TNamed, Name: name, Pos: m.Pos}
	}
	return elem // value_type
}

// usingAlias parses "using Name = type;" as a typedef.
func (p *parser) usingAlias() *Decl {
	p.expect("using")
	id := p.ident()
	p.expect("=")
	t := p.typeName()
	p.expect(";")
	p.declareName(id.Text, true)
	return &Decl{Pos: id.Pos, Name: id.Text, Type: t, Q: Qualifiers{Typedef: true}}
}

func (p *parser) enumType() *TypeExpr {
	kw := p.next()
	t := &TypeExpr{Kind: TEnum, Pos: kw.Pos}
	p.got("class")
	if p.tok().Kind == Ident && !p.is("{") {
		t.Name = p.next().Text
		p.declareName(t.Name, true) // C++: the enum's name is a type name
	}
	if p.got(":") {
		p.specifiers()
	}
	if p.got("{") {
		t.HasBody = true
		for !p.is("}") {
			id := p.ident()
			e := &Enumerator{Name: id.Text, Pos: id.Pos}
			if p.got("=") {
				e.Value = p.conditional()
			}
			p.declareName(id.Text, false)
			t.Enums = append(t.Enums, e)
			if !p.got(",") {
				break
			}
		}
		p.expect("}")
	}
	return t
}

// declarator parses a (possibly abstract) declarator over base.
func (p *parser) declarator(base *TypeExpr) (string, diag.Pos, *TypeExpr) {
	p.enter()
	defer p.leave()
	pos := p.tok().Pos
	for stars := 0; p.is("*") || p.is("&") || p.is("&&"); stars++ {
		if stars == maxDepth {
			p.errorf(p.tok().Pos, "C0220", "nested too deeply (more than %d levels)", maxDepth)
		}
		star := p.next()
		if star.Text == "&&" {
			// an rvalue or forwarding reference (C++ [dcl.ref]): bound
			// like a const T&, to the object or to a temporary holding
			// the value, which is what moving from it observes
			base = &TypeExpr{Kind: TRef, Elem: base, Pos: star.Pos, RValue: true}
		} else if star.Text == "&" {
			base = &TypeExpr{Kind: TRef, Elem: base, Pos: star.Pos}
		} else {
			base = &TypeExpr{Kind: TPointer, Elem: base, Pos: star.Pos}
		}
		for p.is("const") || p.is("volatile") || p.is("__restrict__") || p.is("__restrict") || p.is("restrict") {
			if p.next().Text == "const" {
				base.Const = true
			}
		}
	}
	if p.tpack != "" && p.is("...") && mentionsName(base, p.tpack) {
		// a function parameter pack (C++ [dcl.fct]p17): Args... args
		p.next()
		base.Pack = true
	}
	var name string
	var hole *TypeExpr
	var inner *TypeExpr
	if p.is("(") && (p.peek(1).Text == "*" || p.peek(1).Text == "&" || (p.peek(1).Kind == Ident && !p.isTypeName(p.peek(1).Text) && !baseTypeWords[p.peek(1).Text] && !qualWords[p.peek(1).Text] && p.peek(2).Text == ")" && p.peek(3).Text == "(")) {
		p.next()
		hole = &TypeExpr{}
		name, pos, inner = p.declarator(hole)
		p.expect(")")
	} else if p.is("operator") || (p.tok().Kind == Ident && strings.HasSuffix(p.tok().Text, "::operator")) {
		// an operator function (C++ [over.oper]): operator+, operator[], ...
		id := p.next()
		name, pos = id.Text+p.operatorName(), id.Pos
	} else if p.tok().Kind == Ident && p.classTmpls[p.tok().Text] && p.peek(1).Text == "<" && p.templateArgsEnd(1) > 0 && p.peek(p.templateArgsEnd(1)).Text == "::" {
		// Box<T>::name: a member of a class template defined out of it
		id := p.next()
		p.i += p.templateArgsEnd(0)
		p.expect("::")
		if p.is("operator") {
			p.next()
			name, pos = id.Text+"::operator"+p.operatorName(), id.Pos
		} else {
			m := p.ident()
			name, pos = id.Text+"::"+m.Text, m.Pos
		}
	} else if p.tok().Kind == Ident && !keywords[p.tok().Text] && !p.isTypeName(p.tok().Text) {
		id := p.next()
		name, pos = id.Text, id.Pos
		if p.templates[name] && p.is("<") {
			// an explicit specialization: f<A, ...>(...)
			p.spec, p.specExpr = p.templateArgs()
			p.hasSpec = true
		}
	} else if p.tok().Kind == Ident && p.isTypeName(p.tok().Text) && !p.is("(") && (p.peek(1).Text == ";" || p.peek(1).Text == "=" || p.peek(1).Text == "," || p.peek(1).Text == "[" || p.peek(1).Text == ")" ||
		p.peek(1).Text == "(" && p.cur != nil && p.tok().Text != p.cur.Name) {
		// (in a class, "T Sum(T v)" declares a member function named like
		// a type of the enclosing scope: cub's BlockReduce::Sum and
		// cub::Sum)
		// a declarator reusing a typedef name shadows it
		id := p.next()
		name, pos = id.Text, id.Pos
	}
	typ := p.suffixes(base)
	if hole != nil {
		*hole = *typ
		return name, pos, inner
	}
	if typ.Kind == TFunc && (strings.HasSuffix(name, "operator++") || strings.HasSuffix(name, "operator--")) {
		// the postfix form takes a dummy int (C++ [over.inc]): its own name
		member := p.cur != nil || strings.Contains(name, "::")
		if member && len(typ.Params) == 1 || !member && len(typ.Params) == 2 {
			name += "(int)"
		}
	}
	return name, pos, typ
}

func (p *parser) suffixes(base *TypeExpr) *TypeExpr {
	switch {
	case p.is("["):
		lb := p.next()
		var n Expr
		if !p.is("]") {
			n = p.assign()
		}
		p.expect("]")
		elem := p.suffixes(base)
		return &TypeExpr{Kind: TArray, Elem: elem, Len: n, Pos: lb.Pos}
	case p.is("("):
		if p.unknownParamType() {
			return p.suffixes(base) // now a parameter list
		}
		if !(p.peek(1).Text == ")" || p.peek(1).Text == "..." || p.peekStartsType(1)) || p.functionalArg() {
			// not a parameter list: a constructor-style initializer,
			// "dim3 grid(2, 3)", which initDecl parses
			return base
		}
		lp := p.next()
		ft := &TypeExpr{Kind: TFunc, Elem: base, Pos: lp.Pos}
		if p.is("void") && p.peek(1).Text == ")" {
			p.next()
		}
		for !p.is(")") {
			if p.got("...") {
				ft.Variadic = true
				break
			}
			pb, _ := p.specifiers()
			name, pos, pt := p.declarator(pb)
			if pos == (diag.Pos{}) {
				pos = pb.Pos
			}
			var def Expr
			if p.got("=") { // a default argument (C++)
				def = p.assign()
			}
			ft.Params = append(ft.Params, &Param{Name: name, Pos: pos, Type: pt, Default: def})
			if !p.got(",") {
				break
			}
		}
		p.expect(")")
		return p.suffixesAfterFunc(ft)
	}
	return base
}

func (p *parser) suffixesAfterFunc(ft *TypeExpr) *TypeExpr {
	p.virtSuffix = false
	if ft == nil {
		ft = &TypeExpr{} // a destructor's: its noexcept is read and dropped
	}
	for {
		switch {
		case p.is("const"):
			p.next()
			ft.ConstThis = true
		case p.is("noexcept"):
			// noexcept, noexcept(true): an exception may not leave the
			// function (sem: std::terminate); noexcept(expr) otherwise
			p.next()
			no := true
			if p.is("(") {
				no = p.peek(1).Text == "true" && p.peek(2).Text == ")"
				p.skipParens()
			}
			if ft != nil {
				ft.NoExcept = no
			}
		case p.is("throw") && p.peek(1).Text == "(":
			// a dynamic exception specification (C++03): throw() is
			// noexcept, a list of types is ignored
			p.next()
			if ft != nil {
				ft.NoExcept = p.peek(1).Text == ")"
			}
			p.skipParens()
		case p.is("override") || p.is("final"):
			p.next()
			p.virtSuffix = true
		default:
			return ft
		}
	}
}

// skipParens skips a balanced parenthesized token sequence.
func (p *parser) skipParens() {
	level := 0
	for p.tok().Kind != EOF {
		t := p.next()
		switch t.Text {
		case "(":
			level++
		case ")":
			level--
			if level == 0 {
				return
			}
		}
	}
}

// destructor parses ~Tag() in struct tag (C++ [class.dtor]): a member
// function "Tag::~Tag" without parameters, run by delete.
func (p *parser) destructor(tag string, q Qualifiers) {
	p.expect("~")
	id := p.ident()
	p.expect("(")
	p.got("void")
	p.expect(")")
	p.suffixesAfterFunc(nil)
	if p.virtSuffix {
		q.Virtual = true
	}
	if p.cur != nil {
		p.cur.Methods = append(p.cur.Methods, "~"+tag)
		if q.Virtual {
			p.cur.Virtuals = append(p.cur.Virtuals, "~"+tag)
		}
	}
	ft := &TypeExpr{Kind: TFunc, Elem: &TypeExpr{Kind: TNamed, Name: "void", Pos: id.Pos}, Pos: id.Pos}
	fd := &FuncDecl{Pos: id.Pos, Name: tag + "::~" + tag, Type: ft, Q: q, Recv: tag, Dtor: true}
	if p.got("=") {
		switch {
		case p.got("default"):
			fd.Body = &Block{Pos: id.Pos, End: id.Pos}
			fd.EndPos = id.Pos
			p.file.Funcs = append(p.file.Funcs, fd)
		case p.got("delete"):
		case p.is("0"):
			p.next()
			if p.cur != nil {
				p.cur.Pure = append(p.cur.Pure, "~"+tag)
			}
		default:
			p.errorf(p.tok().Pos, "C0201", "expected default, delete or 0, found '%s'", p.tok().Text)
		}
		p.expect(";")
		return
	}
	if p.got(";") {
		// declared here, defined out of class as Tag::~Tag
		p.file.Decls = append(p.file.Decls, &Decl{Pos: id.Pos, Name: fd.Name, Type: ft, Q: q})
		return
	}
	p.methodBody(fd)
}

// memberInitList parses a constructor's ": a(x), b{y}" if present.
func (p *parser) memberInitList(fd *FuncDecl) {
	if !p.got(":") {
		return
	}
	for {
		id := p.ident()
		mi := &MemberInit{Pos: id.Pos, Name: id.Text}
		close := ")"
		if p.got("{") {
			close = "}"
		} else {
			if p.is("<") && p.classTmpls[id.Text] {
				p.templateArgs() // Base<T>(...): the base's constructor
			}
			p.expect("(")
		}
		for !p.is(close) {
			mi.Args = append(mi.Args, p.assign())
			if !p.got(",") {
				break
			}
		}
		p.expect(close)
		fd.Inits = append(fd.Inits, mi)
		if !p.got(",") {
			break
		}
	}
}

// templateArgsEnd is the token index after the <...> starting at token
// i ahead, or -1.
func (p *parser) templateArgsEnd(i int) int {
	level := 0
	for k := i; p.i+k < len(p.toks); k++ {
		switch t := p.peek(k); {
		case t.Kind == EOF || t.Text == ";" || t.Text == "{":
			return -1
		case t.Text == "<":
			level++
		case t.Text == ">":
			level--
		case t.Text == ">>":
			level -= 2
		}
		if level <= 0 {
			return k + 1
		}
	}
	return -1
}

// outOfClassCtor parses a constructor or destructor defined outside its
// class, X::X(...) : inits { } or X::~X() { } (also X<T>::X for a class
// template), if one starts here.
func (p *parser) outOfClassCtor(f *File, q Qualifiers, tparams []string, tvalues []bool) bool {
	t := p.tok()
	if t.Kind != Ident {
		return false
	}
	var tag string
	dtor := false
	skip := 0
	switch {
	case strings.Contains(t.Text, "::"):
		i := strings.LastIndex(t.Text, "::")
		tag = t.Text[:i]
		if !p.tags[tag] || t.Text[i+2:] != tag || p.peek(1).Text != "(" {
			return false
		}
		skip = 1
	case p.peek(1).Text == "<" && p.classTmpls[t.Text]:
		end := p.templateArgsEnd(1)
		if end < 0 || p.peek(end).Text != "::" {
			return false
		}
		tag = t.Text
		switch {
		case p.peek(end+1).Text == tag && p.peek(end+2).Text == "(":
			skip = end + 2
		case p.peek(end+1).Text == "~" && p.peek(end+2).Text == tag:
			skip, dtor = end+3, true
		default:
			return false
		}
	case p.tags[t.Text] && p.peek(1).Text == "::" && p.peek(2).Text == "~" && p.peek(3).Text == t.Text:
		tag, skip, dtor = t.Text, 4, true
	default:
		return false
	}
	p.i += skip
	ft := p.suffixes(&TypeExpr{Kind: TNamed, Name: "void", Pos: t.Pos})
	if ft.Kind != TFunc {
		p.errorf(p.tok().Pos, "C0201", "expected '(' after constructor %s, found '%s'", tag, p.tok().Text)
	}
	fd := &FuncDecl{Pos: t.Pos, Type: ft, Q: q, Recv: tag, TParams: tparams, TValue: tvalues}
	if dtor {
		fd.Name, fd.Dtor = tag+"::~"+tag, true
	} else {
		fd.Name, fd.Ctor = fmt.Sprintf("%s::%s#%d", tag, tag, len(ft.Params)), true
		p.memberInitList(fd)
	}
	if !p.is("{") {
		p.errorf(p.tok().Pos, "C0201", "expected the body of %s, found '%s'", fd.Name, p.tok().Text)
	}
	p.body(fd)
	if tparams != nil {
		f.Templates = append(f.Templates, fd)
	} else {
		f.Funcs = append(f.Funcs, fd)
	}
	return true
}

// declaration parses a declaration or function definition at top level.
func (p *parser) declaration(f *File, tparams []string, tvalues []bool) {
	if p.outOfClassCtor(f, Qualifiers{}, tparams, tvalues) {
		return
	}
	{
		// __host__ __device__ X::X(...): qualifiers before the name
		save := p.i
		var q Qualifiers
		for p.is("__host__") || p.is("__device__") || p.is("inline") {
			q.Host = q.Host || p.is("__host__")
			q.Device = q.Device || p.is("__device__")
			p.next()
		}
		if p.i > save && p.outOfClassCtor(f, q, tparams, tvalues) {
			return
		}
		p.i = save
	}
	base, q := p.specifiers()
	if p.got(";") {
		f.Decls = append(f.Decls, &Decl{Pos: base.Pos, Type: base, Q: q})
		return
	}
	first := true
	for {
		name, pos, typ := p.declarator(base)
		if name == "" {
			p.errorf(p.tok().Pos, "C0202", "expected a declarator name, found '%s'", p.tok().Text)
		}
		if first && typ.Kind == TFunc && p.is("{") {
			fd := &FuncDecl{Pos: pos, Name: name, Type: typ, Q: q, TParams: tparams, TValue: tvalues, DefaultTypes: p.tdefT, DefaultExprs: p.tdefE}
			if i := strings.LastIndex(name, "::"); i > 0 {
				fd.Recv = name[:i] // an out-of-class member definition
			}
			if tparams != nil && len(tparams) == 0 {
				// template <>: an explicit specialization
				if !p.hasSpec {
					p.errorf(pos, "C0206", "template <> %s: only explicit specializations of function templates, f<A>(...), are supported", name)
				}
				fd.TParams = nil
				fd.SpecArgs, fd.SpecArgExprs = p.spec, p.specExpr
				p.hasSpec = false
				p.body(fd)
				f.Specs = append(f.Specs, fd)
				return
			}
			p.hasSpec = false
			if tparams != nil {
				p.templates[name] = true
			}
			p.declareName(name, false)
			p.body(fd)
			if tparams != nil {
				f.Templates = append(f.Templates, fd)
			} else {
				f.Funcs = append(f.Funcs, fd)
			}
			return
		}
		first = false
		p.hasSpec = false
		d := p.initDecl(name, pos, typ, q)
		if typ.Kind == TFunc && tparams != nil {
			p.templates[name] = true
		}
		f.Decls = append(f.Decls, d)
		if !p.got(",") {
			break
		}
	}
	p.expect(";")
}

func (p *parser) initDecl(name string, pos diag.Pos, typ *TypeExpr, q Qualifiers) *Decl {
	d := &Decl{Pos: pos, Name: name, Type: typ, Q: q}
	p.declareName(name, q.Typedef)
	if q.Typedef {
		if p.typedefNames == nil {
			p.typedefNames = map[string]bool{}
			p.memberTypes = map[string]bool{}
		}
		p.typedefNames[name] = true
		if p.cur != nil {
			p.memberTypes[name] = true // a member typedef (memberTypeNext)
		}
	}
	if p.got("=") {
		if q.Typedef {
			p.errorf(pos, "C0207", "typedef %s has an initializer", name)
		}
		d.Init = p.initializer()
	} else if p.is("(") && typ.Kind != TFunc {
		// constructor-style initialisation: dim3 grid(2, 2);
		p.next()
		d.HasCtor = true
		for !p.is(")") {
			d.CtorArgs = append(d.CtorArgs, p.assign())
			if !p.got(",") {
				break
			}
		}
		p.expect(")")
	} else if p.is("{") && typ.Kind != TFunc {
		d.Init = p.initializer()
	}
	return d
}

func (p *parser) initializer() Expr {
	p.enter()
	defer p.leave()
	if !p.is("{") {
		return p.assign()
	}
	lb := p.next()
	il := &InitList{Pos: lb.Pos}
	for !p.is("}") {
		el := &InitElem{}
		if p.is(".") && p.peek(1).Kind == Ident && p.peek(2).Text == "=" {
			p.next()
			el.Field = p.next().Text
			p.next()
		} else if p.is("[") {
			p.next()
			el.Index = p.conditional()
			p.expect("]")
			p.expect("=")
		}
		el.X = p.initializer()
		il.Elems = append(il.Elems, el)
		if !p.got(",") {
			break
		}
	}
	p.expect("}")
	return il
}

// ---- statements ----

func (p *parser) block() *Block {
	lb := p.expect("{")
	b := &Block{Pos: lb.Pos}
	p.push()
	defer p.pop()
	for !p.is("}") {
		if p.tok().Kind == EOF {
			p.expect("}")
		}
		b.Stmts = append(b.Stmts, p.stmt())
	}
	b.End = p.next().Pos
	return b
}

func (p *parser) stmt() Stmt {
	p.enter()
	defer p.leave()
	t := p.tok()
	if t.Kind == Ident && isAsmKeyword(t.Text) {
		return p.asmStmt()
	}
	if t.Kind == Ident {
		switch t.Text {
		case "if":
			p.next()
			s := &IfStmt{Pos: t.Pos}
			if p.got("constexpr") {
				s.Constexpr = true
			}
			p.expect("(")
			// the scope of an init-statement or condition declaration
			// covers both branches (C++17 [stmt.if])
			p.push()
			defer p.pop()
			if p.startsType() {
				d := p.condDecl()
				s.Init = d
				if p.got(";") {
					s.Cond = p.expr()
				} else {
					s.Cond = &Name{Pos: d.Decls[0].Pos, Name: d.Decls[0].Name}
				}
			} else if p.got(";") {
				s.Cond = p.expr()
			} else {
				c := p.expr()
				if p.got(";") {
					s.Init = &ExprStmt{Pos: PosOf(c), X: c}
					c = p.expr()
				}
				s.Cond = c
			}
			p.expect(")")
			s.Then = p.scopedStmt()
			if p.got("else") {
				s.Else = p.scopedStmt()
			}
			return s
		case "static_assert":
			d := p.staticAssert()
			return &DeclStmt{Pos: d.Pos, Decls: []*Decl{d}}
		case "while":
			p.next()
			p.expect("(")
			c := p.expr()
			p.expect(")")
			return &ForStmt{Pos: t.Pos, Cond: c, Body: p.scopedStmt()}
		case "do":
			p.next()
			body := p.scopedStmt()
			p.expect("while")
			p.expect("(")
			c := p.expr()
			p.expect(")")
			p.expect(";")
			return &DoStmt{Pos: t.Pos, Body: body, Cond: c}
		case "for":
			p.next()
			p.expect("(")
			p.push()
			defer p.pop()
			s := &ForStmt{Pos: t.Pos}
			if p.startsType() && p.isRangeFor() {
				base, q := p.specifiers()
				if p.isBinding() {
					// for (auto &[k, v] : m): bindings.go
					name, pos, typ, names := p.bindingDecl(base)
					p.declareName(name, false)
					p.expect(":")
					r := &RangeFor{Pos: t.Pos, Var: &Decl{Pos: pos, Name: name, Type: typ, Q: q}, Range: p.expr()}
					p.expect(")")
					p.push()
					refs := &DeclStmt{Pos: pos, Decls: p.bindingRefs(name, names)}
					body := p.scopedStmt()
					p.pop()
					r.Body = &Block{Pos: PosOf(body), Stmts: []Stmt{refs, body}}
					return r
				}
				name, pos, typ := p.declarator(base)
				p.declareName(name, false)
				p.expect(":")
				r := &RangeFor{Pos: t.Pos, Var: &Decl{Pos: pos, Name: name, Type: typ, Q: q}, Range: p.expr()}
				p.expect(")")
				r.Body = p.scopedStmt()
				return r
			}
			if !p.got(";") {
				if p.startsType() {
					s.Init = p.declStmt()
				} else {
					e := p.expr()
					s.Init = &ExprStmt{Pos: PosOf(e), X: e}
					p.expect(";")
				}
			}
			if !p.is(";") {
				s.Cond = p.expr()
			}
			p.expect(";")
			if !p.is(")") {
				s.Post = p.expr()
			}
			p.expect(")")
			s.Body = p.scopedStmt()
			return s
		case "try":
			p.next()
			s := &TryStmt{Pos: t.Pos, Body: p.block()}
			for p.is("catch") {
				h := &Catch{Pos: p.next().Pos}
				p.expect("(")
				if !p.got("...") {
					p.push()
					pb, _ := p.specifiers()
					name, _, te := p.declarator(pb)
					if name != "" {
						p.declareName(name, false)
					}
					h.Type, h.Name = te, name
					p.expect(")")
					h.Body = p.block()
					s.Handlers = append(s.Handlers, h)
					p.pop()
					continue
				}
				p.expect(")")
				h.Body = p.block()
				s.Handlers = append(s.Handlers, h)
			}
			if len(s.Handlers) == 0 {
				p.expect("catch")
			}
			return s
		case "return":
			p.next()
			s := &ReturnStmt{Pos: t.Pos}
			if p.is("{") {
				s.X = p.initializer() // return {...}; (C++11)
			} else if !p.is(";") {
				s.X = p.expr()
			}
			p.expect(";")
			return s
		case "break", "continue":
			p.next()
			p.expect(";")
			return &BranchStmt{Pos: t.Pos, Tok: t.Text}
		case "goto":
			p.next()
			l := p.ident()
			p.expect(";")
			return &BranchStmt{Pos: t.Pos, Tok: "goto", Label: l.Text}
		case "switch":
			p.next()
			p.expect("(")
			x := p.expr()
			p.expect(")")
			return &SwitchStmt{Pos: t.Pos, X: x, Body: p.scopedStmt()}
		case "case":
			p.next()
			x := p.conditional()
			p.expect(":")
			return &CaseStmt{Pos: t.Pos, X: x}
		case "default":
			p.next()
			p.expect(":")
			return &CaseStmt{Pos: t.Pos}
		}
		if t.Text == "using" && p.peek(1).Kind == Ident && p.peek(2).Text == "=" {
			d := p.usingAlias()
			return &DeclStmt{Pos: d.Pos, Decls: []*Decl{d}}
		}
		if p.peek(1).Text == ":" && p.peek(1).Kind == Punct && !keywords[t.Text] {
			p.next()
			p.next()
			if p.is("}") {
				return &LabeledStmt{Pos: t.Pos, Label: t.Text, Stmt: &EmptyStmt{Pos: t.Pos}}
			}
			return &LabeledStmt{Pos: t.Pos, Label: t.Text, Stmt: p.stmt()}
		}
		if p.startsType() && !(p.isTypeName(t.Text) && p.peek(1).Text == "(" && t.Text == "dim3") && !p.classTemporary() && !p.temporaryMember() {
			return p.declStmt()
		}
		if p.unknownDeclType() {
			return p.declStmt()
		}
	}
	switch {
	case p.is("{"):
		return p.block()
	case p.is(";"):
		p.next()
		return &EmptyStmt{Pos: t.Pos}
	}
	e := p.expr()
	p.expect(";")
	return &ExprStmt{Pos: PosOf(e), X: e}
}

// scopedStmt parses a statement that forms its own scope (if/loop bodies).
func (p *parser) scopedStmt() Stmt {
	p.push()
	defer p.pop()
	return p.stmt()
}

func (p *parser) declStmt() *DeclStmt {
	base, q := p.specifiers()
	s := &DeclStmt{Pos: base.Pos}
	if p.got(";") {
		s.Decls = append(s.Decls, &Decl{Pos: base.Pos, Type: base, Q: q})
		return s
	}
	if p.isBinding() {
		// auto [a, b] = e; (bindings.go)
		name, pos, typ, names := p.bindingDecl(base)
		s.Decls = append(s.Decls, p.initDecl(name, pos, typ, q))
		s.Decls = append(s.Decls, p.bindingRefs(name, names)...)
		p.expect(";")
		return s
	}
	for {
		name, pos, typ := p.declarator(base)
		if name == "" {
			p.errorf(p.tok().Pos, "C0202", "expected a declarator name, found '%s'", p.tok().Text)
		}
		s.Decls = append(s.Decls, p.initDecl(name, pos, typ, q))
		if !p.got(",") {
			break
		}
	}
	p.expect(";")
	return s
}

// ---- expressions ----

func (p *parser) expr() Expr {
	x := p.assign()
	for p.is(",") {
		op := p.next()
		x = &Binary{Pos: op.Pos, Op: ",", X: x, Y: p.assign()}
	}
	return x
}

var assignOps map[string]bool

// initAssignOps builds assignOps (tables.go).
func initAssignOps() {
	assignOps = map[string]bool{"=": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true, "&=": true, "|=": true, "^=": true, "<<=": true, ">>=": true}
}

func (p *parser) assign() Expr {
	x := p.conditional()
	if t := p.tok(); t.Kind == Punct && assignOps[t.Text] {
		p.next()
		if t.Text == "=" && p.is("{") {
			// x = {...} (C++ [expr.ass]p9: x = T{...}, or the
			// operator= that takes the list)
			return &Binary{Pos: t.Pos, Op: t.Text, X: x, Y: p.initializer()}
		}
		return &Binary{Pos: t.Pos, Op: t.Text, X: x, Y: p.assign()}
	}
	return x
}

func (p *parser) conditional() Expr {
	c := p.binary(0)
	if p.is("?") {
		q := p.next()
		x := p.expr()
		p.expect(":")
		y := p.conditional()
		return &Cond{Pos: q.Pos, C: c, X: x, Y: y}
	}
	return c
}

var binPrec map[string]int

// initBinPrec builds binPrec (tables.go).
func initBinPrec() {
	binPrec = map[string]int{"||": 1, "&&": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6, "<": 7, ">": 7, "<=": 7, ">=": 7, "<<": 8, ">>": 8, "+": 9, "-": 9, "*": 10, "/": 10, "%": 10}
}

func (p *parser) binary(min int) Expr {
	x := p.unary()
	for {
		t := p.tok()
		prec, ok := binPrec[t.Text]
		if t.Kind != Punct || !ok || prec <= min {
			return x
		}
		p.next()
		y := p.binary(prec)
		x = &Binary{Pos: t.Pos, Op: t.Text, X: x, Y: y}
	}
}

func (p *parser) typeName() *TypeExpr {
	base, _ := p.specifiers()
	name, pos, t := p.declarator(base)
	if name != "" {
		p.errorf(pos, "C0208", "unexpected name %s in type", name)
	}
	return t
}

func (p *parser) unary() Expr {
	p.enter()
	defer p.leave()
	t := p.tok()
	if t.Kind == Punct {
		switch t.Text {
		case "-", "+", "!", "~", "*", "&":
			p.next()
			return &Unary{Pos: t.Pos, Op: t.Text, X: p.castExpr()}
		case "++", "--":
			p.next()
			return &Unary{Pos: t.Pos, Op: t.Text, X: p.unary()}
		case "(":
			return p.castExpr()
		}
	}
	if t.Kind == Ident && (t.Text == "new" || t.Text == "delete") {
		return p.newDelete()
	}
	if t.Kind == Ident && t.Text == "throw" {
		p.next()
		th := &Throw{Pos: t.Pos}
		if !p.is(";") && !p.is(")") && !p.is(",") && !p.is(":") {
			th.X = p.assign()
		}
		return th
	}
	if t.Kind == Ident && (t.Text == "alignof" || t.Text == "_Alignof" || t.Text == "__alignof__") && p.peek(1).Text == "(" && p.peekStartsType(2) {
		p.next()
		p.next()
		ty := p.typeName()
		p.expect(")")
		return &SizeofExpr{Pos: t.Pos, Type: ty, Align: true}
	}
	if t.Kind == Ident && t.Text == "sizeof" && p.peek(1).Text == "..." {
		// sizeof...(pack): the number of its elements (sem/variadic.go)
		p.next()
		p.next()
		p.expect("(")
		id := p.ident()
		p.expect(")")
		return &SizeofPack{Pos: t.Pos, Name: id.Text}
	}
	if t.Kind == Ident && t.Text == "sizeof" {
		p.next()
		if p.is("(") && p.peekStartsType(1) {
			p.next()
			ty := p.typeName()
			p.expect(")")
			return &SizeofExpr{Pos: t.Pos, Type: ty}
		}
		return &SizeofExpr{Pos: t.Pos, X: p.unary()}
	}
	return p.postfix(p.primary())
}

// newDelete desugars C++ new and delete to malloc and free: "new T[n]" is
// (T*)malloc(n * sizeof(T)), "new T" is (T*)malloc(sizeof(T)), and
// "delete p" / "delete[] p" is free(p). The memory is uninitialized, as C++
// default-initialization leaves scalars; constructors are not run.
func (p *parser) newDelete() Expr {
	t := p.next()
	if t.Text == "delete" {
		arr := false
		if p.got("[") {
			p.expect("]")
			arr = true
		}
		x := p.castExpr()
		free := &Call{Pos: t.Pos, Fun: &Name{Pos: t.Pos, Name: "free"}, Args: []Expr{x}, RParen: t.Pos}
		return &Delete{Pos: t.Pos, X: x, Free: free, Array: arr}
	}
	// placement new, new (place) T[n] / new (place) T(args) (C++17
	// [expr.new]p13, <new>'s operator new(size_t, void*)): the object is
	// created in the storage at place, which is the result; no allocation
	var place Expr
	if p.is("(") && !p.peekStartsType(1) {
		p.next()
		place = p.assign()
		p.expect(")")
	}
	base, _ := p.specifiers()
	for p.is("*") {
		st := p.next()
		base = &TypeExpr{Kind: TPointer, Elem: base, Pos: st.Pos}
	}
	size := Expr(&SizeofExpr{Pos: t.Pos, Type: base})
	alloc := func() Expr {
		if place != nil {
			return place
		}
		return &Call{Pos: t.Pos, Fun: &Name{Pos: t.Pos, Name: "malloc"}, Args: []Expr{size}, RParen: t.Pos}
	}
	if p.is("[") {
		lb := p.next()
		n := p.expr()
		p.expect("]")
		size = &Binary{Pos: lb.Pos, Op: "*", X: n, Y: size}
		return &Cast{Pos: t.Pos, Type: &TypeExpr{Kind: TPointer, Elem: base, Pos: t.Pos}, X: alloc()}
	}
	n := &New{Pos: t.Pos, Type: base, Alloc: &Cast{Pos: t.Pos, Type: &TypeExpr{Kind: TPointer, Elem: base, Pos: t.Pos}, X: alloc()}}
	if p.is("(") || p.is("{") {
		close := ")"
		if p.next().Text == "{" {
			close = "}"
		}
		n.HasInit = true
		for !p.is(close) && p.tok().Kind != EOF {
			n.Args = append(n.Args, p.assign())
			if p.is("...") {
				// new T(args...): a pack expansion (sem/variadic.go)
				n.Args[len(n.Args)-1] = &PackExpand{Pos: p.next().Pos, X: n.Args[len(n.Args)-1]}
			}
			if !p.got(",") {
				break
			}
		}
		p.expect(close)
	}
	return n
}

// peekStartsType reports whether token i ahead begins a type name.
// unknownParamType reports, at the '(' of a declarator, a parameter list
// whose first parameter's type is a name never declared (a header the
// semantics does not model, such as the driver API's CUdeviceptr):
// "(T name" or "(T *name, U ..." where a later parameter starts with a
// type cannot be a constructor-style initializer. Without this the list
// would parse as "T * name" multiplied and fail at a later, misleading
// place. The name is reported as C0204 and declared as a type, so the
// rest of the file parses and further uses are not reported again.
func (p *parser) unknownParamType() bool {
	t := p.peek(1)
	if t.Kind != Ident || keywords[t.Text] || baseTypeWords[t.Text] || qualWords[t.Text] || p.isTypeName(t.Text) || p.declared(t.Text) || textureTypes[t.Text] {
		return false
	}
	n := 2
	for p.peek(n).Text == "*" || p.peek(n).Text == "&" || p.peek(n).Text == "const" {
		n++
	}
	if p.peek(n).Kind != Ident || keywords[p.peek(n).Text] {
		return false
	}
	end := p.peek(n + 1).Text
	decl := n == 2 && (end == "," || end == ")" || end == "[") // "T name": never an expression
	if !decl && end == "," {
		// "T *name, U v": another parameter starting with a type
		depth := 0
		for k := n + 1; p.i+k < len(p.toks) && p.peek(k).Kind != EOF; k++ {
			switch x := p.peek(k).Text; x {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				depth--
			case ",":
				if depth == 0 && p.peekStartsType(k+1) {
					decl = true
				}
			}
			if depth < 0 || decl || p.peek(k).Text == ";" {
				break
			}
		}
	}
	if !decl {
		return false
	}
	p.types[0][t.Text] = true
	p.errs++
	p.diags.Errorf(t.Pos, "C0204", "unknown type name '%s'", t.Text) // (no bailout: the declaration parses on)
	return true
}

// cxxStmtWords are C++ words, not in keywords, that may start a
// statement followed by a name ("throw Error(...)", "delete p", "co_return
// x"): never an undeclared type.
var cxxStmtWords map[string]bool

// initCxxStmtWords builds cxxStmtWords (tables.go).
func initCxxStmtWords() {
	cxxStmtWords = map[string]bool{
		"throw": true, "delete": true, "new": true, "co_return": true, "co_yield": true, "co_await": true,
		"operator": true, "using": true, "namespace": true, "friend": true, "virtual": true, "explicit": true,
		"constexpr": true, "static_assert": true, "asm": true, "__asm__": true, "try": true, "catch": true,
		"public": true, "private": true, "protected": true, "mutable": true, "thread_local": true,
		"not": true, "and": true, "or": true, "compl": true,
	}
}

// unknownDeclType reports, at the start of a statement, "T name =", "T
// name;", "T name[", "T name(" or "T name," with T a name never declared:
// two names in a row are no expression, so T is a type the program's
// headers did not declare (C0204, and declared as a type so the
// declaration parses on).
func (p *parser) unknownDeclType() bool {
	t := p.tok()
	if t.Kind != Ident || keywords[t.Text] || cxxStmtWords[t.Text] || baseTypeWords[t.Text] || qualWords[t.Text] || p.declared(t.Text) || strings.Contains(t.Text, "::") || textureTypes[t.Text] {
		return false
	}
	n := p.peek(1)
	if n.Kind != Ident || keywords[n.Text] || cxxStmtWords[n.Text] || qualWords[n.Text] {
		return false
	}
	switch p.peek(2).Text {
	case "=", ";", "[", ",", "(", "{":
	default:
		return false
	}
	p.types[0][t.Text] = true
	p.errs++
	p.diags.Errorf(t.Pos, "C0204", "unknown type name '%s'", t.Text)
	return true
}

// functionalArg reports, at the '(' after a declarator's name, an
// initializer whose first argument is a functional cast that no parameter
// declaration can be: "Box b(R(13))", "Box b(R{13})" (a type followed by
// a parenthesized literal or a brace). "Box b(R())" stays a function
// declaration, as C++ reads it ([dcl.ambig.res]).
func (p *parser) functionalArg() bool {
	if p.peek(1).Kind != Ident || !p.peekStartsType(1) {
		return false
	}
	switch p.peek(2).Text {
	case "{":
		return true
	case "(":
		switch p.peek(3).Kind {
		case IntLit, FloatLit, CharLit, StringLit:
			return true
		}
	}
	return false
}

func (p *parser) peekStartsType(n int) bool {
	save := p.i
	p.i += n
	if p.i >= len(p.toks) {
		p.i = save
		return false
	}
	ok := p.startsType()
	p.i = save
	return ok
}

func (p *parser) castExpr() Expr {
	// "(float(x) * 2)": a parenthesized expression that starts with a
	// functional cast, not a cast
	functional := p.peek(2).Text == "(" && p.peek(1).Kind == Ident && !qualWords[p.peek(1).Text]
	if p.is("(") && p.peekStartsType(1) && !functional {
		lp := p.next()
		ty := p.typeName()
		p.expect(")")
		if p.is("{") { // compound literal
			init := p.initializer()
			return p.postfix(&Cast{Pos: lp.Pos, Type: ty, X: init})
		}
		return &Cast{Pos: lp.Pos, Type: ty, X: p.castExpr()}
	}
	if p.is("(") {
		return p.postfix(p.primary())
	}
	return p.unary()
}

func (p *parser) primary() Expr {
	t := p.tok()
	switch t.Kind {
	case IntLit:
		p.next()
		v, typ, ok := parseIntLit(t.Text)
		if !ok {
			if _, _, fok := parseFloatLit(t.Text); !fok {
				p.errorf(t.Pos, "C0209", "invalid integer constant %s", t.Text)
			}
		}
		return &IntLitExpr{Pos: t.Pos, Value: v, Type: typ}
	case FloatLit:
		p.next()
		v, fl, ok := parseFloatLit(t.Text)
		if !ok {
			p.errorf(t.Pos, "C0209", "invalid floating constant %s", t.Text)
		}
		return &FloatLitExpr{Pos: t.Pos, Value: v, Float: fl}
	case CharLit:
		p.next()
		v, ok := charValue(t.Text)
		if !ok {
			p.errorf(t.Pos, "C0209", "invalid character constant %s", t.Text)
		}
		return &CharLitExpr{Pos: t.Pos, Value: v}
	case StringLit:
		var b strings.Builder
		for p.tok().Kind == StringLit {
			s := p.next()
			if len(s.Text) < 2 || s.Text[len(s.Text)-1] != '"' {
				p.errorf(s.Pos, "C0209", "invalid string literal")
			}
			u, ok := unescape(s.Text[1 : len(s.Text)-1])
			if !ok {
				p.errorf(s.Pos, "C0209", "invalid escape in string literal")
			}
			b.WriteString(u)
		}
		return &StringLitExpr{Pos: t.Pos, Value: b.String()}
	case Ident:
		switch t.Text {
		case "true", "false":
			p.next()
			v := uint64(0)
			if t.Text == "true" {
				v = 1
			}
			return &IntLitExpr{Pos: t.Pos, Value: v, Type: "_Bool"}
		case "nullptr", "NULL":
			p.next()
			return &Cast{Pos: t.Pos, Type: &TypeExpr{Kind: TPointer, Pos: t.Pos, Elem: &TypeExpr{Kind: TNamed, Name: "void", Pos: t.Pos}}, X: &IntLitExpr{Pos: t.Pos, Type: "int"}}
		case "static_cast", "reinterpret_cast", "const_cast", "dynamic_cast":
			p.next()
			p.expect("<")
			ty := p.typeName()
			p.closeAngle()
			p.expect("(")
			x := p.expr()
			p.expect(")")
			return &Cast{Pos: t.Pos, Type: ty, X: x, Dynamic: t.Text == "dynamic_cast"}
		}
		if strings.HasPrefix(t.Text, "std::") && CmpObjects[t.Text[5:]] && p.peek(1).Text == "<" {
			return p.cmpObject()
		}
		if (traitNames[t.Text] || (strings.HasSuffix(t.Text, "_v") && traitNames[strings.TrimSuffix(t.Text, "_v")])) && p.peek(1).Text == "<" && !p.isTypeName(t.Text) {
			return p.trait()
		}
		if p.startsType() && !qualWords[t.Text] {
			// functional cast: int(x), float(x), dim3(a, b); T{...}, a
			// temporary initialized from a list (C++11)
			ty, _ := p.specifiers()
			if p.is("{") {
				init := p.initializer()
				return &Cast{Pos: t.Pos, Type: ty, X: init}
			}
			if len(ty.TArgs) > 0 && p.is("::") && p.peek(1).Kind == Ident {
				// Name<A, ...>::member: a static member of the instance
				p.next()
				id := p.next()
				return &ScopedName{Pos: t.Pos, Type: ty, Name: id.Text}
			}
			lp := p.expect("(")
			var args []Expr
			pack := false
			for !p.is(")") {
				args = append(args, p.assign())
				if p.is("...") {
					// T(args...): a pack expansion (sem/variadic.go)
					args[len(args)-1] = &PackExpand{Pos: p.next().Pos, X: args[len(args)-1]}
					pack = true
				}
				if !p.got(",") {
					break
				}
			}
			p.expect(")")
			if ty.Kind == TNamed && ty.Name != "dim3" && len(args) == 1 && !pack {
				return &Cast{Pos: lp.Pos, Type: ty, X: args[0]}
			}
			return &Cast{Pos: t.Pos, Type: ty, Args: args}
		}
		if keywords[t.Text] {
			p.errorf(t.Pos, "C0210", "unexpected '%s' in expression", t.Text)
		}
		p.next()
		return &Name{Pos: t.Pos, Name: t.Text}
	case Punct:
		if t.Text == "(" {
			p.next()
			x := p.expr()
			p.expect(")")
			return x
		}
		if t.Text == "[" {
			return p.lambda()
		}
	}
	what := "'" + t.Text + "'"
	if t.Kind == EOF {
		what = "end of file"
	}
	p.errorf(t.Pos, "C0210", "expected expression, found %s", what)
	return nil
}

func (p *parser) postfix(x Expr) Expr {
	for {
		t := p.tok()
		switch {
		case p.is("["):
			p.next()
			i := p.expr()
			p.expect("]")
			x = &Index{Pos: t.Pos, X: x, I: i}
		case p.is("("):
			x = p.call(x, nil, nil, nil)
		case p.is("<<<"):
			p.next()
			var launch []Expr
			for !p.is(">>>") {
				launch = append(launch, p.assign())
				if !p.got(",") {
					break
				}
			}
			p.expect(">>>")
			if len(launch) < 2 || len(launch) > 4 {
				p.errorf(t.Pos, "C0211", "a kernel launch takes 2 to 4 configuration arguments <<<grid, block, shmem, stream>>>, got %d", len(launch))
			}
			if !p.is("(") {
				p.expect("(")
			}
			x = p.call(x, launch, nil, nil)
		case p.is("<") && p.isTemplateName(x):
			targs, vargs := p.templateArgs()
			var launch []Expr
			if p.got("<<<") {
				for !p.is(">>>") {
					launch = append(launch, p.assign())
					if !p.got(",") {
						break
					}
				}
				p.expect(">>>")
			}
			if !p.is("(") {
				p.expect("(")
			}
			x = p.call(x, launch, targs, vargs)
		case p.is("."), p.is("->"):
			p.next()
			id := p.ident()
			name := id.Text
			if name == "operator" {
				// x.operator+(y), p->operator()(i): the member is the
				// operator function (C++ [over.oper]p2, an explicit call)
				name += p.operatorName()
			}
			x = &Member{Pos: id.Pos, X: x, Name: name, Arrow: t.Text == "->"}
		case p.is("++"), p.is("--"):
			p.next()
			x = &Unary{Pos: t.Pos, Op: t.Text, X: x, Post: true}
		default:
			return x
		}
	}
}

func (p *parser) isTemplateName(x Expr) bool {
	switch n := x.(type) {
	case *Name:
		return p.templates[n.Name]
	case *Member:
		// x.f<A>(...): a member function template, when a '(' follows
		// the arguments
		if !p.templates[n.Name] {
			return false
		}
		end := p.templateArgsEnd(0)
		return end > 0 && p.peek(end).Text == "("
	}
	return false
}

func (p *parser) call(fun Expr, launch []Expr, targs []*TypeExpr, vargs []Expr) Expr {
	lp := p.expect("(")
	c := &Call{Pos: lp.Pos, Fun: fun, Launch: launch, TypeArgs: targs, TArgExpr: vargs}
	if n, ok := fun.(*Name); ok {
		c.Pos = n.Pos
	}
	for !p.is(")") {
		if p.is("{") {
			// f({...}): a braced list initializes the parameter (C++
			// [dcl.init.list]; sem: braces.go)
			c.Args = append(c.Args, p.initializer())
		} else {
			c.Args = append(c.Args, p.assign())
		}
		if p.is("...") {
			// a pack expansion, f(args...) (C++ [temp.variadic]p5)
			c.Args[len(c.Args)-1] = &PackExpand{Pos: p.next().Pos, X: c.Args[len(c.Args)-1]}
		}
		if !p.got(",") {
			break
		}
	}
	c.RParen = p.expect(")").Pos
	return c
}

// instanceTypedef reports a typedef name, as opposed to a struct tag (a
// tag's Tag::member is a static member, or a nested struct flattened).
func instanceTypedef(p *parser, name string) bool {
	return p.typedefNames[name] || p.classTmpls[name]
}

// memberTypeNext reports "::Name" ahead in a type, followed by what can
// follow a type (a declarator, a pointer or reference, the end of a
// template argument or a cast), not by "(" (S<A>::f(...) is a call).
func (p *parser) memberTypeNext() bool {
	if !p.is("::") || p.peek(1).Kind != Ident || !p.memberTypes[p.peek(1).Text] {
		// only a name some class declares as a member typedef: S<A>::n
		// is otherwise a static member (an expression)
		return false
	}
	switch p.peek(2).Text {
	case "::", "=", ";", "<":
		return false
	case "(":
		return p.peek(3).Text == "*" // S<A>::Type (*fp)(...), not a call
	}
	return true
}

// mentionsName reports whether type t names n (through pointers,
// references and template arguments).
func mentionsName(t *TypeExpr, n string) bool {
	for ; t != nil; t = t.Elem {
		if t.Name == n {
			return true
		}
		for _, a := range t.TArgs {
			if mentionsName(a, n) {
				return true
			}
		}
	}
	return false
}

// templateArgs parses <A, ...> (types or constant expressions).
func (p *parser) templateArgs() ([]*TypeExpr, []Expr) {
	p.expect("<")
	var targs []*TypeExpr
	var vargs []Expr
	for !p.is(">") {
		if p.startsType() {
			targs = append(targs, p.typeName())
			vargs = append(vargs, nil)
		} else {
			targs = append(targs, nil)
			vargs = append(vargs, p.binary(7)) // stop before '>'
		}
		if !p.got(",") {
			break
		}
	}
	p.closeAngle()
	if targs == nil {
		// X<>: all the template's arguments are its defaults; an empty,
		// non-nil list tells the instance from the bare name
		targs, vargs = []*TypeExpr{}, []Expr{}
	}
	return targs, vargs
}

// isRangeFor reports whether the parenthesized for header starting here
// is a range for, "decl : range" (a ':' before any ';' at nesting level 0).
func (p *parser) isRangeFor() bool {
	level := 0
	for k := 0; p.i+k < len(p.toks); k++ {
		t := p.peek(k)
		switch {
		case t.Kind == EOF:
			return false
		case t.Kind != Punct:
		case t.Text == "(" || t.Text == "[" || t.Text == "{":
			level++
		case t.Text == ")" || t.Text == "]" || t.Text == "}":
			level--
			if level < 0 {
				return false
			}
		case t.Text == ";":
			return false
		case t.Text == ":" && level == 0:
			return true
		case t.Text == "?":
			return false
		}
	}
	return false
}

// condDecl parses the declaration of an if init-statement or condition,
// T x = e, leaving the ';' or ')' after it.
func (p *parser) condDecl() *DeclStmt {
	base, q := p.specifiers()
	s := &DeclStmt{Pos: base.Pos}
	for {
		name, pos, typ := p.declarator(base)
		if name == "" {
			p.errorf(p.tok().Pos, "C0202", "expected a declarator name, found '%s'", p.tok().Text)
		}
		s.Decls = append(s.Decls, p.initDecl(name, pos, typ, q))
		if !p.got(",") {
			break
		}
	}
	return s
}

// traitNames are the type traits and limits of <type_traits> and <limits>
// that sem evaluates (lang/cudac/lib).
var traitNames map[string]bool

// initTraitNames builds traitNames (tables.go).
func initTraitNames() {
	traitNames = map[string]bool{
		"is_integral": true, "is_floating_point": true, "is_arithmetic": true, "is_signed": true,
		"is_unsigned": true, "is_pointer": true, "is_same": true, "is_void": true, "is_const": true,
		"is_reference": true, "is_array": true, "is_class": true, "is_enum": true, "is_trivially_copyable": true,
		"numeric_limits": true,
	}
}

// trait parses Name<Types...>::value, Name_v<Types...> or
// numeric_limits<T>::member().
func (p *parser) trait() Expr {
	t := p.next()
	name := strings.TrimSuffix(t.Text, "_v")
	tr := &Trait{Pos: t.Pos, Name: name, Member: "value"}
	p.expect("<")
	for !p.is(">") {
		tr.Types = append(tr.Types, p.typeName())
		if !p.got(",") {
			break
		}
	}
	p.closeAngle()
	if strings.HasSuffix(t.Text, "_v") {
		return tr
	}
	p.expect("::")
	tr.Member = p.ident().Text
	if name == "numeric_limits" {
		p.expect("(")
		p.expect(")")
	} else if tr.Member != "value" {
		p.errorf(t.Pos, "C0206", "%s<...>::%s is not supported (only ::value)", name, tr.Member)
	}
	return tr
}

// cmpObject parses a comparison function object of <functional>,
// std::greater<T>() or std::greater<>{} (C++14 [comparisons]), as a Trait
// with Member "()": sem accepts it as std::sort's comparator.
func (p *parser) cmpObject() Expr {
	t := p.next()
	tr := &Trait{Pos: t.Pos, Name: t.Text, Member: "()"}
	p.expect("<")
	if !p.is(">") {
		tr.Types = append(tr.Types, p.typeName())
	}
	p.closeAngle()
	if p.got("{") {
		p.expect("}")
	} else {
		p.expect("(")
		p.expect(")")
	}
	return tr
}

// classTemporary reports whether a statement starting with a modeled class
// template is an expression, T<args>(x).f(...), rather than a declaration.
// temporaryMember reports a statement that begins T(args). or T(args)->
// with T a type name: a member function called on a temporary
// (BlockReduce(temp).Sum(x); C++ [stmt.ambig]: it cannot be a declaration
// of args, as a declarator is not followed by "."), an expression.
func (p *parser) temporaryMember() bool {
	if p.tok().Kind != Ident || !p.isTypeName(p.tok().Text) {
		return false
	}
	k0 := 1
	if p.peek(1).Text == "<" && p.classTmpls[p.tok().Text] {
		// S<A>(args).f(): past the template arguments
		if e := p.templateArgsEnd(1); e > 0 {
			k0 = e
		}
	}
	if p.peek(k0).Text == "{" && p.peek(k0).Kind == Punct {
		// T{args}...: no declarator begins with '{', an expression
		// (a functional cast, C++ [stmt.ambig]p1)
		return true
	}
	if p.peek(k0).Text != "(" {
		return false
	}
	if a := p.peek(k0 + 1); a.Kind == IntLit || a.Kind == FloatLit || a.Kind == CharLit || a.Kind == StringLit ||
		a.Text == ")" || a.Kind == Ident && (a.Text == "this" || a.Text == "true" || a.Text == "false" || a.Text == "nullptr") {
		// T(4);, T();: a declarator cannot begin with a literal nor be
		// empty, so the statement is an expression (C++ [stmt.ambig]p1:
		// only what can be a declaration is one)
		return true
	}
	level := 0
	for k := k0; p.i+k < len(p.toks); k++ {
		switch p.peek(k).Text {
		case "(":
			level++
		case ")":
			level--
			if level == 0 {
				n := p.peek(k + 1).Text
				return n == "." || n == "->"
			}
		case ";", "{", "}":
			return false
		}
	}
	return false
}

func (p *parser) classTemporary() bool {
	t := p.tok()
	if t.Text != "cuda::atomic_ref" && t.Text != "std::vector" && t.Text != "std::string" {
		return false
	}
	k := 1
	if p.peek(k).Text == "<" {
		level := 0
		for ; p.i+k < len(p.toks); k++ {
			switch p.peek(k).Text {
			case "<":
				level++
			case ">":
				level--
			case ";", "{", "}":
				return false
			}
			if level == 0 {
				break
			}
		}
		k++
	}
	return p.peek(k).Text == "("
}

// closeAngle expects the '>' closing a template argument list; a '>>'
// closes two (C++11 [temp.names]/3), so it is split.
func (p *parser) closeAngle() {
	if t := p.tok(); t.Kind == Punct && (t.Text == ">>" || t.Text == ">>=" || t.Text == ">=") {
		p.toks[p.i].Text = t.Text[1:]
		p.toks[p.i].Pos.Offset++
		return
	}
	p.expect(">")
}

// lambda parses [captures](params) mutable -> Ret { body } (C++11
// [expr.prim.lambda]).
func (p *parser) lambda() Expr {
	t := p.expect("[")
	l := &Lambda{Pos: t.Pos}
	for !p.is("]") {
		switch {
		case p.got("&"):
			if p.tok().Kind == Ident {
				l.Captures = append(l.Captures, p.next().Text)
				l.CapRef = append(l.CapRef, true)
			} else {
				l.ByRef = true
			}
		case p.got("="):
			l.ByValue = true
		case p.is("this"):
			p.next()
			l.CapThis = true
		default:
			l.Captures = append(l.Captures, p.ident().Text)
			l.CapRef = append(l.CapRef, false)
			l.ByValue = true
		}
		if !p.got(",") {
			break
		}
	}
	p.expect("]")
	p.push()
	defer p.pop()
	if p.got("(") {
		for !p.is(")") {
			pb, _ := p.specifiers()
			name, pos, pt := p.declarator(pb)
			if name != "" {
				p.declareName(name, false)
			}
			l.Params = append(l.Params, &Param{Name: name, Pos: pos, Type: pt})
			if !p.got(",") {
				break
			}
		}
		p.expect(")")
	}
	for p.is("mutable") || p.is("constexpr") || p.is("noexcept") || p.is("__device__") || p.is("__host__") {
		if p.next().Text == "mutable" {
			l.Mutable = true
		}
	}
	if p.got("->") {
		l.Ret = p.typeName()
	}
	l.Body = p.block()
	return l
}

// overloadable are the operators an operator function may name.
var overloadable map[string]bool

// initOverloadable builds overloadable (tables.go).
func initOverloadable() {
	overloadable = map[string]bool{
		"+": true, "-": true, "*": true, "/": true, "%": true, "^": true, "&": true, "|": true, "~": true, "!": true,
		"<": true, ">": true, "+=": true, "-=": true, "*=": true, "/=": true, "%=": true, "^=": true, "&=": true,
		"|=": true, "<<": true, ">>": true, "<<=": true, ">>=": true, "==": true, "!=": true, "<=": true, ">=": true,
		"&&": true, "||": true, "++": true, "--": true, "=": true,
		// member access through a class object (C++ [over.ref]): smart
		// pointers and iterators; sem/arrow.go applies it to x->m
		"->": true,
	}
}

// operatorName reads the operator after the keyword operator.
func (p *parser) operatorName() string {
	t := p.tok()
	switch {
	case p.is("(") && p.peek(1).Text == ")":
		p.next()
		p.next()
		return "()"
	case p.is("[") && p.peek(1).Text == "]":
		p.next()
		p.next()
		return "[]"
	case t.Kind == Punct && overloadable[t.Text]:
		p.next()
		return t.Text
	}
	p.errorf(t.Pos, "C0206", "operator %s cannot be overloaded here (operator new, delete, ->* and the comma operator are not supported)", t.Text)
	return ""
}
