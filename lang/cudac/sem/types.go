package sem

import "weft.dev/weft/lang/cudac/syntax"

import (
	"fmt"
	"strings"
)

// Kind is the kind of a C type.
type Kind uint8

const (
	Void Kind = iota
	Bool
	Char
	SChar
	UChar
	Short
	UShort
	Int
	UInt
	Long
	ULong
	LLong
	ULLong
	Float
	Double
	Ptr
	Array
	Struct
	Func
	Half // __half (cuda_fp16.h)
	BF16 // __nv_bfloat16 (cuda_bf16.h)
)

// Type is a resolved C type with its layout.
type Type struct {
	Kind     Kind
	Elem     *Type // Ptr, Array; Func: result
	Len      int   // Array (-1: unsized)
	Fields   []*FieldInfo
	Union    bool
	Name     string // struct tag or typedef-ish display name
	Params   []*Type
	Variadic bool
	// Ref marks a pointer type that stands for a C++ reference: a
	// parameter or local of type T& holds the address of its object.
	Ref bool
	// rval marks a Ref written && (rvalue.go): it binds rvalues in
	// overload resolution.
	rval bool
	// vol marks a pointer to volatile (Ptr) or an array of volatile
	// elements (Array): accesses through it are strong (fence.go).
	vol bool
	// cst marks a pointer or reference to const (Ptr): writes through it
	// are rejected (C++ [dcl.type.cv]; constq.go)
	cst bool
	// iter names the iterator type a Ptr stands for ("std::vector<int>::iterator",
	// iter.go): "" for a plain pointer
	iter     string
	size     int
	align    int
	complete bool
	vec      *Type // a vector type's element type; a cooperative_groups functor's T
	cg       int   // a cooperative_groups type (cgBlock, ...); 0 otherwise
	// std is stdString or stdVector for the modeled std classes
	// (lib_std.go), with stdElem the element type.
	std     int
	stdElem *Type
	// base is the base class (single, non-virtual inheritance): its
	// fields come first, and its member functions apply.
	base *Type
	// bases are all direct base classes in order (bases[0] == base) and
	// baseOff their subobjects' offsets (multiple inheritance, mi.go).
	bases   []*Type
	baseOff []int
	// poly marks a polymorphic class (virtual.go): its vptr (a hidden
	// first field) holds id; virt are its virtual member functions ("~"
	// the destructor), pure those without an overrider, subs the classes
	// derived from it.
	poly bool
	id   int
	virt map[string]bool
	pure map[string]bool
	subs []*Type
	// tmpl is the class template and arguments of an instance
	// (classtmpl.go).
	tmpl *tmplInfo
}

// FieldInfo is a laid-out struct member.
type FieldInfo struct {
	Name   string
	Type   *Type
	Offset int
	// Align is an explicit alignas of the member (0: natural).
	Align int
	// Init is the default member initializer (C++11), or nil.
	Init syntax.Expr
	// Vol marks a volatile member ("volatile int x;", or of a volatile
	// typedef): its accesses are strong (fence.go), as the object's are
	// when the whole object is volatile.
	Vol bool
	// Mutable marks a mutable member, writable in a const object
	// (constq.go).
	Mutable bool
}

var (
	tVoid   = &Type{Kind: Void, size: 1, align: 1, complete: true}
	tBool   = &Type{Kind: Bool, size: 1, align: 1, complete: true}
	tChar   = &Type{Kind: Char, size: 1, align: 1, complete: true}
	tSChar  = &Type{Kind: SChar, size: 1, align: 1, complete: true}
	tUChar  = &Type{Kind: UChar, size: 1, align: 1, complete: true}
	tShort  = &Type{Kind: Short, size: 2, align: 2, complete: true}
	tUShort = &Type{Kind: UShort, size: 2, align: 2, complete: true}
	tInt    = &Type{Kind: Int, size: 4, align: 4, complete: true}
	tUInt   = &Type{Kind: UInt, size: 4, align: 4, complete: true}
	tLong   = &Type{Kind: Long, size: 8, align: 8, complete: true}
	tULong  = &Type{Kind: ULong, size: 8, align: 8, complete: true}
	tLLong  = &Type{Kind: LLong, size: 8, align: 8, complete: true}
	tULLong = &Type{Kind: ULLong, size: 8, align: 8, complete: true}
	tFloat  = &Type{Kind: Float, size: 4, align: 4, complete: true}
	tDouble = &Type{Kind: Double, size: 8, align: 8, complete: true}
	tHalf   = &Type{Kind: Half, size: 2, align: 2, complete: true}
	tBF16   = &Type{Kind: BF16, size: 2, align: 2, complete: true}
	tVoidP  = ptrTo(tVoid)
	tCharP  = ptrTo(tChar)
)

func ptrTo(t *Type) *Type { return &Type{Kind: Ptr, Elem: t, size: 8, align: 8, complete: true} }

func arrayOf(t *Type, n int) *Type {
	a := &Type{Kind: Array, Elem: t, Len: n, align: t.align, complete: n >= 0}
	if n >= 0 {
		a.size = n * t.size
	}
	return a
}

func (t *Type) Size() int { return t.size }

func (t *Type) isInt() bool { return t.Kind >= Bool && t.Kind <= ULLong }
func (t *Type) isFloat() bool {
	return t.Kind == Float || t.Kind == Double || t.Kind == Half || t.Kind == BF16
}
func (t *Type) isHalf() bool { return t.Kind == Half || t.Kind == BF16 }

// fbits is the significand precision of a floating type.
func (t *Type) fbits() int {
	switch t.Kind {
	case BF16:
		return 8
	case Half:
		return 11
	case Float:
		return 24
	}
	return 53
}
func (t *Type) isArith() bool { return t.isInt() || t.isFloat() }
func (t *Type) isScalar() bool {
	return t.isArith() || t.Kind == Ptr
}
func (t *Type) isSigned() bool {
	switch t.Kind {
	case Char, SChar, Short, Int, Long, LLong:
		return true
	}
	return false
}

// rank orders integer types for the usual arithmetic conversions.
func (t *Type) rank() int {
	switch t.Kind {
	case Bool:
		return 0
	case Char, SChar, UChar:
		return 1
	case Short, UShort:
		return 2
	case Int, UInt:
		return 3
	case Long, ULong:
		return 4
	}
	return 5
}

func unsignedOf(t *Type) *Type {
	switch t.Kind {
	case Int:
		return tUInt
	case Long:
		return tULong
	case LLong:
		return tULLong
	}
	return t
}

func (t *Type) field(name string) *FieldInfo {
	for _, f := range t.Fields {
		if f.Name == name {
			return f
		}
	}
	if i, ok := bindIndex(name); ok {
		return t.boundField(i) // a structured binding's member (lib_bind.go)
	}
	// anonymous struct/union members
	for _, f := range t.Fields {
		if f.Name == "" && f.Type.Kind == Struct {
			if g := f.Type.field(name); g != nil {
				return &FieldInfo{Name: name, Type: g.Type, Offset: f.Offset + g.Offset}
			}
		}
	}
	return nil
}

func (t *Type) String() string {
	switch t.Kind {
	case Void:
		return "void"
	case Bool:
		return "bool"
	case Char:
		return "char"
	case SChar:
		return "signed char"
	case UChar:
		return "unsigned char"
	case Short:
		return "short"
	case UShort:
		return "unsigned short"
	case Int:
		return "int"
	case UInt:
		return "unsigned int"
	case Long:
		return "long"
	case ULong:
		return "unsigned long"
	case LLong:
		return "long long"
	case ULLong:
		return "unsigned long long"
	case Float:
		return "float"
	case Double:
		return "double"
	case Half:
		return "__half"
	case BF16:
		return "__nv_bfloat16"
	case Ptr:
		if t.Ref {
			return t.Elem.String() + "&"
		}
		return t.Elem.String() + "*"
	case Array:
		if t.Len < 0 {
			return t.Elem.String() + "[]"
		}
		return fmt.Sprintf("%s[%d]", t.Elem, t.Len)
	case Struct:
		if t.Name != "" {
			return t.Name
		}
		return "struct <anonymous>"
	case Func:
		var ps []string
		for _, p := range t.Params {
			ps = append(ps, p.String())
		}
		return fmt.Sprintf("%s(%s)", t.Elem, strings.Join(ps, ", "))
	}
	return "?"
}

func layoutStruct(t *Type) {
	off, align := 0, 1
	for _, f := range t.Fields {
		a := f.Type.align
		if f.Align > a {
			a = f.Align
		}
		if a < 1 {
			a = 1
		}
		if t.Union {
			f.Offset = 0
			if f.Type.size > off {
				off = f.Type.size
			}
		} else {
			off = (off + a - 1) / a * a
			f.Offset = off
			off += f.Type.size
		}
		if a > align {
			align = a
		}
	}
	t.align = align
	t.size = (off + align - 1) / align * align
	if t.size == 0 {
		t.size = 1
	}
	t.complete = true
}

func structOf(name string, fields ...any) *Type {
	t := &Type{Kind: Struct, Name: name}
	for i := 0; i < len(fields); i += 2 {
		t.Fields = append(t.Fields, &FieldInfo{Name: fields[i].(string), Type: fields[i+1].(*Type)})
	}
	layoutStruct(t)
	return t
}

var (
	tDim3  = structOf("dim3", "x", tUInt, "y", tUInt, "z", tUInt)
	tUint3 = func() *Type { t := structOf("uint3", "x", tUInt, "y", tUInt, "z", tUInt); t.vec = tUInt; return t }()
	// tDeviceProp: lib_deviceprop.go
	tFILE = structOf("FILE", "fd", tInt)
)

// vecType is a CUDA vector type (vector_types.h) of n elements; the 2- and
// 4-element types are aligned to their size (up to 16 bytes), as CUDA
// declares them with __align__, so that a float4 load is one 16-byte access.
func vecType(name string, elem *Type, n int) *Type {
	args := []any{}
	for _, f := range []string{"x", "y", "z", "w"}[:n] {
		args = append(args, f, elem)
	}
	t := structOf(name, args...)
	if n == 2 || n == 4 {
		a := min(n*elem.size, 16)
		t.align = a
		t.size = (t.size + a - 1) / a * a
	}
	t.vec = elem
	return t
}

// vectorTypes are the vector types by name, with make_NAME constructors.
var vectorTypes map[string]*Type

// initVectorTypes builds vectorTypes (tables.go).
func initVectorTypes() {
	m := map[string]*Type{}
	elems := []struct {
		name string
		t    *Type
	}{{"char", tSChar}, {"uchar", tUChar}, {"short", tShort}, {"ushort", tUShort}, {"int", tInt}, {"uint", tUInt},
		{"long", tLong}, {"ulong", tULong}, {"longlong", tLLong}, {"ulonglong", tULLong}, {"float", tFloat}, {"double", tDouble}}
	for _, e := range elems {
		for n := 1; n <= 4; n++ {
			name := e.name + string(rune('0'+n))
			m[name] = vecType(name, e.t, n)
		}
	}
	m["uint3"] = tUint3
	m["__half2"] = vecType("__half2", tHalf, 2)
	m["__nv_bfloat162"] = vecType("__nv_bfloat162", tBF16, 2)
	vectorTypes = m
}

// builtinTypedefs resolves the typedef names the parser knows built in.
var builtinTypedefs map[string]*Type

// initBuiltinTypedefs builds builtinTypedefs (tables.go).
func initBuiltinTypedefs() {
	builtinTypedefs = map[string]*Type{
		"size_t": tULong, "ssize_t": tLong, "ptrdiff_t": tLong, "intptr_t": tLong, "uintptr_t": tULong,
		"int8_t": tSChar, "int16_t": tShort, "int32_t": tInt, "int64_t": tLong,
		"uint8_t": tUChar, "uint16_t": tUShort, "uint32_t": tUInt, "uint64_t": tULong,
		// glibc x86-64 <stdint.h>: the fast types of 16 bits and more are long
		"int_fast8_t": tSChar, "int_fast16_t": tLong, "int_fast32_t": tLong, "int_fast64_t": tLong,
		"uint_fast8_t": tUChar, "uint_fast16_t": tULong, "uint_fast32_t": tULong, "uint_fast64_t": tULong,
		"int_least8_t": tSChar, "int_least16_t": tShort, "int_least32_t": tInt, "int_least64_t": tLong,
		"uint_least8_t": tUChar, "uint_least16_t": tUShort, "uint_least32_t": tUInt, "uint_least64_t": tULong,
		"intmax_t": tLong, "uintmax_t": tULong,
		"dim3":   tDim3,
		"__half": tHalf, "half": tHalf, "__nv_bfloat16": tBF16, "nv_bfloat16": tBF16,
		"cudaError_t": tInt, "cudaStream_t": tLong, "cudaEvent_t": tLong, "cudaMemcpyKind": tInt,
		"cudaDeviceProp": tDeviceProp, "FILE": tFILE, "clock_t": tLong, "time_t": tLong,
		// glibc <sys/types.h>, which <stdlib.h> includes
		"uint": tUInt, "ushort": tUShort, "ulong": tULong,
	}
}

var baseTypes map[string]*Type

// initBaseTypes builds baseTypes (tables.go).
func initBaseTypes() {
	baseTypes = map[string]*Type{
		"void": tVoid, "_Bool": tBool, "char": tChar, "signed char": tSChar, "unsigned char": tUChar,
		"short": tShort, "unsigned short": tUShort, "int": tInt, "unsigned int": tUInt,
		"long": tLong, "unsigned long": tULong, "long long": tLLong, "unsigned long long": tULLong,
		"float": tFloat, "double": tDouble,
	}
}

func initTypes() {
	for name, t := range vectorTypes {
		builtinTypedefs[name] = t
	}
	builtinTypedefs["half2"] = vectorTypes["__half2"]
	builtinTypedefs["nv_bfloat162"] = vectorTypes["__nv_bfloat162"]
}

// refTo is the type of a C++ reference to t.
func refTo(t *Type) *Type {
	return &Type{Kind: Ptr, Elem: t, Ref: true, size: 8, align: 8, complete: true}
}
