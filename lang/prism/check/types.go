package check

import (
	"fmt"
	"strings"
)

// Kind classifies a type.
type Kind int

const (
	Scalar  Kind = iota
	Pointer      // ptr(T): global memory (or a pointer parameter into shared)
	Array        // T[n] in registers (thread-local)
	Shared       // shared(T[n]): a block's shared allocation
	Async        // the variable bound by `with async(x) as y`
	Lambda       // an indexing function bound with `f = lambda x: ...`
	Barrier      // mbarrier object (shared); the paper leaves its declaration open
	Void
)

// Type is a Prism type.
type Type struct {
	Kind      Kind
	Name      string // scalar C type (float, int, uint32_t, bf16, ...)
	Elem      *Type  // Pointer, Array, Shared, Async
	Len       int    // Array, Shared: element count of this dimension
	Const     bool   // const(T) or const on the pointee
	Constexpr bool
	Align     int
}

var (
	tInt   = &Type{Kind: Scalar, Name: "int"}
	tFloat = &Type{Kind: Scalar, Name: "float"}
	tBool  = &Type{Kind: Scalar, Name: "bool"}
	tVoid  = &Type{Kind: Void, Name: "void"}
)

// scalarSize is the size in bytes of each scalar type name Prism knows.
var scalarSize = map[string]int{
	"int": 4, "uint": 4, "uint32_t": 4, "int32_t": 4, "c_int": 4, "unsigned": 4,
	"float": 4, "c_float": 4, "tf32": 4,
	"double": 8, "int64_t": 8, "uint64_t": 8, "long": 8,
	"bf16": 2, "half": 2, "fp16": 2, "__nv_bfloat16": 2, "__half": 2,
	"bool": 1, "char": 1, "int8_t": 1, "uint8_t": 1,
	"float4": 16, "int4": 16, "float2": 8,
	"CUtensorMap": 128, "void": 1, "mbarrier": 8,
}

// CName is the C++ spelling of a scalar type name.
func CName(name string) string {
	switch name {
	case "c_int":
		return "int"
	case "c_float", "tf32":
		return "float"
	case "uint":
		return "unsigned int"
	case "bf16":
		return "__nv_bfloat16"
	case "half", "fp16":
		return "__half"
	case "mbarrier":
		return "uint64_t"
	}
	return name
}

// Size is the size in bytes of t (arrays: the whole array).
func (t *Type) Size() int {
	switch t.Kind {
	case Scalar:
		return scalarSize[t.Name]
	case Array, Shared:
		return t.Len * t.Elem.Size()
	case Pointer, Async:
		return 8
	case Barrier:
		return 8
	}
	return 0
}

// Base returns the innermost element type.
func (t *Type) Base() *Type {
	for t.Elem != nil {
		t = t.Elem
	}
	return t
}

// IsMemory reports whether t names thread-shared memory: a pointer, a shared
// allocation, or an async view of one (seed 001 §3.4.2).
func (t *Type) IsMemory() bool {
	return t.Kind == Pointer || t.Kind == Shared || t.Kind == Async
}

// IsFloat reports whether the scalar is a floating type.
func (t *Type) IsFloat() bool {
	switch t.Base().Name {
	case "float", "c_float", "double", "bf16", "half", "fp16", "tf32", "__nv_bfloat16", "__half":
		return true
	}
	return false
}

func (t *Type) String() string {
	var s string
	switch t.Kind {
	case Scalar, Void:
		s = t.Name
	case Pointer:
		s = "ptr(" + t.Elem.String() + ")"
	case Array:
		s = fmt.Sprintf("%s[%d]", t.Elem, t.Len)
	case Shared:
		s = fmt.Sprintf("shared(%s[%d])", t.Elem, t.Len)
	case Async:
		s = "async " + t.Elem.String()
	case Lambda:
		s = "lambda"
	case Barrier:
		s = "mbarrier"
	}
	if t.Const && t.Kind == Scalar {
		s = "const(" + s + ")"
	}
	if t.Constexpr {
		s = "constexpr(" + strings.TrimPrefix(s, "const") + ")"
	}
	return s
}
