package sem

import (
	"strings"

	"weft.dev/weft/lang/cudac/syntax"
)

// Texture references of kernel-only files (issue 16; removed from CUDA 12
// but kept by GPUVerify's suite and headers): package verify declares
// texture<T, dim, mode> as a class template holding a T (TextureTypes),
// and a fetch (tex1Dfetch, tex1D, tex2D, tex3D) yields a value chosen like
// an input of type T, as GPUVerify's bodiless fetch functions do: 0, or
// with --nondet-seed=N a hashed value. A fetch reads no memory the race
// detector sees (texture memory is read-only during a launch).

// TextureTypes is the source of the texture reference types.
const TextureTypes = `#ifndef __WEFT_TEXTURE_TYPES
#define __WEFT_TEXTURE_TYPES
enum cudaTextureReadMode { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
enum cudaTextureAddressMode { cudaAddressModeWrap = 0, cudaAddressModeClamp = 1, cudaAddressModeMirror = 2, cudaAddressModeBorder = 3 };
enum cudaTextureFilterMode { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum { cudaTextureType1D = 1, cudaTextureType2D = 2, cudaTextureType3D = 3 };
template <class T, int texType, int mode> struct texture { T value; };
#endif
`

var texFetches map[string]int

// initTexFetches builds texFetches (tables.go).
func initTexFetches() {
	texFetches = map[string]int{"tex1Dfetch": 2, "tex1D": 2, "tex2D": 3, "tex3D": 4}
}

// texCall compiles a texture fetch; nil when name is none.
func (c *compiler) texCall(name string, e *syntax.Call) *Type {
	if !c.texRefCall(name, e) {
		return c.texObjCall(name, e) // texture objects (lib_texobj.go)
	}
	n, ok := texFetches[name]
	if !ok {
		return nil
	}
	if len(e.Args) != n {
		c.errorf(e.Pos, "C0304", "%s takes %d arguments, %d given", name, n, len(e.Args))
		c.emit(OpConst, 0, 0, e.Pos)
		return tInt
	}
	var elem *Type
	for i, a := range e.Args {
		t := c.expr(a)
		c.emit(OpPop, 0, 0, syntax.PosOf(a))
		if i == 0 && t.Kind == Struct && strings.HasPrefix(tagOf(t), "texture<") && len(t.Fields) == 1 {
			elem = t.Fields[0].Type
		}
	}
	switch {
	case elem == nil:
		c.errorf(syntax.PosOf(e.Args[0]), "C0302", "%s takes a texture reference (texture<T, dim, mode>)", name)
		elem = tInt
	case !elem.isArith():
		c.errorf(e.Pos, "C0309", "%s of a texture of %s is not modelled (only scalar element types)", name, elem)
		c.emit(OpConst, 0, 0, e.Pos)
		return elem
	}
	c.prog.bodiless = true
	c.emit(OpBuiltin, builtinIndex["__weft_nondet"], 0, e.Pos)
	c.convert(tULong, elem, e.Pos)
	return elem
}

// texModelled reports whether e fetches from a texture reference of the
// kernel-only dialect's type (texCall compiles it): elsewhere texture
// functions are not modelled (C0309).
func (c *compiler) texModelled(name string, e *syntax.Call) bool {
	if TexObjectFuncs[name] && !c.texRefCall(name, e) {
		return true // lib_texobj.go
	}
	return c.texRefCall(name, e)
}

// texRefCall reports a fetch whose first argument is a texture reference
// of the kernel-only dialect (texCall compiles it).
func (c *compiler) texRefCall(name string, e *syntax.Call) bool {
	if _, ok := texFetches[name]; !ok || !c.isKernelOnly() || len(e.Args) == 0 {
		return false
	}
	n, ok := e.Args[0].(*syntax.Name)
	if !ok {
		return false
	}
	s := c.lookup(n.Name)
	return s != nil && s.t != nil && s.t.Kind == Struct && strings.HasPrefix(tagOf(s.t), "texture<")
}
