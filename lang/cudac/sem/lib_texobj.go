package sem

import (
	"math"

	"weft.dev/weft/lang/cudac/syntax"
)

// Texture and surface objects (CUDA Runtime API, "Texture Object
// Management", "Surface Object Management", "Memory Management" for CUDA
// arrays; CUDA C++ Programming Guide, "Texture and Surface Memory" and the
// appendix "Texture Fetching"), the API NVIDIA's image samples use.
//
//   - A CUDA array (cudaMallocArray, cudaMalloc3DArray with the layered,
//     cubemap and surface flags, cudaFreeArray) is device memory holding
//     its elements row by row (width * element size bytes a row, height
//     rows a slice, depth or layer slices, 6 faces for a cubemap): the
//     handle cudaArray_t points to it, and texArrays keeps its channel
//     format and extent. cudaMemcpyToArray, cudaMemcpy2DToArray,
//     cudaMemcpyFromArray, cudaMemcpy2DFromArray and cudaMemcpy3D with
//     srcArray/dstArray are the pitched copies of linear memory
//     (lib_cudart_mem.go) on those rows, so they are stream operations the
//     race detector sees.
//   - cudaCreateTextureObject(&t, &resDesc, &texDesc, NULL) checks and
//     copies the descriptions (an array, linear memory or pitched 2-D
//     memory; address, filter and read modes, normalized coordinates) and
//     returns a handle; cudaDestroyTextureObject ends it (a later fetch
//     is C0402). Surface objects are the same over an array created with
//     cudaArraySurfaceLoadStore.
//   - The fetches tex1Dfetch, tex1D, tex2D, tex3D, tex1DLayered,
//     tex2DLayered, texCubemap (as templates, tex2D<float>(t, x, y)) and
//     surf1D/2D/3Dread and write are device functions that read (write)
//     the texels as the thread's own accesses: checked for bounds and
//     races like any access. Addressing follows the appendix ("Texture
//     Fetching"), with normalized coordinates x scaled by the size: point
//     sampling takes floor(x), linear filtering x - 0.5 with the weight
//     alpha in 9-bit fixed point (8 fraction bits, as the hardware); the
//     indices are then clamped, wrapped, mirrored or read as the border
//     (0). The appendix wraps and mirrors the coordinate before scaling
//     it; the model mirrors the texel index (i in [N, 2N) is 2N-1-i), as
//     an H100 does (CUDA 13.0, stop 31's GPU run, testdata/texobj.cu's
//     first case): mirror at 1.25 of 4 texels reads texel 2, where the
//     mirrored coordinate 0.75 would read texel 3 (the two differ only on
//     texel boundaries; wrap is the same either way). Wrap and mirror
//     need normalized coordinates (the Guide: otherwise unsupported); the
//     model then clamps. The normalized-float read mode maps 8- and
//     16-bit integers to [0, 1] ([-1, 1] signed). Linear filtering of
//     unsigned normalized texels returns a 16-bit fixed-point value
//     (k/65535, the 8-bit texel v counting as v*257), rounded to nearest
//     with halves up: the H100 returned 0.500008 (32768/65535) for the
//     midpoint of 255 and 0, and 0.300008 for that of 51 and 102 (0.2 and
//     0.4); signed normalized texels are filtered in floating point (not
//     yet checked on a GPU). Linear filtering needs a float result (else
//     cudaErrorInvalidFilterSetting, 26, at creation, as the H100 answered). A cubemap fetch picks the face
//     by the major axis and samples it (no seamless filtering across
//     faces). Mipmaps, gather, LOD and gradient fetches and sRGB are
//     C0309. A surface access outside the array is C0403 in the default
//     cudaBoundaryModeTrap (a GPU traps), clamped or dropped (read as 0) in
//     Clamp and Zero modes; its x is in bytes.

// cuArray is a CUDA array: its memory and shape.
type cuArray struct {
	ptr        uint64
	chans      [4]int // bits of each channel (x, y, z, w)
	kind       int    // cudaChannelFormatKind: 0 signed, 1 unsigned, 2 float
	es         int    // bytes of an element
	w, h, d    uint64 // d: depth, layers or 6 faces
	flags      uint64
	freed      bool
	surfaceOK  bool
	layered    bool
	cubemap    bool
	dims       int // 1, 2 or 3 (layered and cubemap arrays: 2)
	rowBytes   uint64
	sliceBytes uint64
}

// texObject is a texture or surface object.
type texObject struct {
	surface    bool
	res        int // cudaResourceType: 0 array, 2 linear, 3 pitch 2-D
	arr        *cuArray
	ptr        uint64 // linear and pitch 2-D: the memory
	chans      [4]int
	kind       int
	es         int
	w, h       uint64 // linear: elements; pitch 2-D: width, height
	pitch      uint64
	addr       [3]int
	filter     int
	readMode   int
	normalized bool
	destroyed  bool
}

type texState struct {
	arrays map[uint64]*cuArray // by the array's memory
	objs   []*texObject        // handle h is objs[h-1]
}

func (m *Machine) texSt() *texState {
	r := m.rt()
	if r.tex == nil {
		r.tex = &texState{arrays: map[uint64]*cuArray{}}
	}
	return r.tex
}

var (
	tChannelDesc = structOf("cudaChannelFormatDesc", "x", tInt, "y", tInt, "z", tInt, "w", tInt, "f", tInt)
	tCudaArray   = structOf("cudaArray", "__weft_array", tULong)
	tResDesc     = func() *Type {
		arr := structOf("cudaResourceDesc::array", "array", ptrTo(tCudaArray))
		mip := structOf("cudaResourceDesc::mipmap", "mipmap", tVoidP)
		lin := structOf("cudaResourceDesc::linear", "devPtr", tVoidP, "desc", tChannelDesc, "sizeInBytes", tULong)
		p2d := structOf("cudaResourceDesc::pitch2D", "devPtr", tVoidP, "desc", tChannelDesc, "width", tULong,
			"height", tULong, "pitchInBytes", tULong)
		u := &Type{Kind: Struct, Union: true, Name: "cudaResourceDesc::res"}
		for _, f := range []struct {
			n string
			t *Type
		}{{"array", arr}, {"mipmap", mip}, {"linear", lin}, {"pitch2D", p2d}} {
			u.Fields = append(u.Fields, &FieldInfo{Name: f.n, Type: f.t})
		}
		layoutStruct(u)
		return structOf("cudaResourceDesc", "resType", tInt, "res", u, "flags", tUInt)
	}()
	tTexDesc = structOf("cudaTextureDesc", "addressMode", arrayOf(tInt, 3), "filterMode", tInt, "readMode", tInt,
		"sRGB", tInt, "borderColor", arrayOf(tFloat, 4), "normalizedCoords", tInt, "maxAnisotropy", tUInt,
		"mipmapFilterMode", tInt, "mipmapLevelBias", tFloat, "minMipmapLevelClamp", tFloat,
		"maxMipmapLevelClamp", tFloat, "disableTrilinearOptimization", tInt, "seamlessCubemap", tInt)
)

// texFetchOps are the device fetch and surface functions: op code, and
// the number of coordinate arguments.
var texFetchOps map[string]struct{ op, coords int }

// initTexFetchOps builds texFetchOps (tables.go).
func initTexFetchOps() {
	texFetchOps = map[string]struct{ op, coords int }{
		"tex1Dfetch": {0, 1}, "tex1D": {1, 1}, "tex2D": {2, 2}, "tex3D": {3, 3},
		"tex1DLayered": {4, 2}, "tex2DLayered": {5, 3}, "texCubemap": {6, 3},
		"surf1Dread": {16 + 1, 1}, "surf2Dread": {16 + 2, 2}, "surf3Dread": {16 + 3, 3},
		"surf1Dwrite": {32 + 1, 1}, "surf2Dwrite": {32 + 2, 2}, "surf3Dwrite": {32 + 3, 3},
	}
}

// TexObjectFuncs are the texture-object functions this file compiles.
var TexObjectFuncs map[string]bool

// initTexObjectFuncs builds TexObjectFuncs (tables.go; nil before the
// first Load, Compile or NewMachine).
func initTexObjectFuncs() {
	f := map[string]bool{"cudaCreateChannelDesc": true}
	for n := range texFetchOps {
		f[n] = true
	}
	for n := range texObjSigs {
		f[n] = true
	}
	TexObjectFuncs = f
}

var texObjSigs map[string]*bsig

// initTexObjSigs builds texObjSigs, before TexObjectFuncs (tables.go).
func initTexObjSigs() {
	texObjSigs = map[string]*bsig{
		"cudaMallocArray":          sig(tInt, hostSide, ptrTo(ptrTo(tCudaArray)), ptrTo(tChannelDesc), tULong, tULong, tUInt).def(0, 0),
		"cudaMalloc3DArray":        sig(tInt, hostSide, ptrTo(ptrTo(tCudaArray)), ptrTo(tChannelDesc), tExtent, tUInt).def(0),
		"cudaFreeArray":            sig(tInt, hostSide, ptrTo(tCudaArray)),
		"cudaMemcpyToArray":        sig(tInt, hostSide, ptrTo(tCudaArray), tULong, tULong, tVoidP, tULong, tInt),
		"cudaMemcpy2DToArray":      sig(tInt, hostSide, ptrTo(tCudaArray), tULong, tULong, tVoidP, tULong, tULong, tULong, tInt),
		"cudaMemcpyFromArray":      sig(tInt, hostSide, tVoidP, ptrTo(tCudaArray), tULong, tULong, tULong, tInt),
		"cudaMemcpy2DFromArray":    sig(tInt, hostSide, tVoidP, tULong, ptrTo(tCudaArray), tULong, tULong, tULong, tULong, tInt),
		"cudaGetChannelDesc":       sig(tInt, hostSide, ptrTo(tChannelDesc), ptrTo(tCudaArray)),
		"cudaCreateTextureObject":  sig(tInt, hostSide, ptrTo(tULLong), ptrTo(tResDesc), ptrTo(tTexDesc), tVoidP),
		"cudaDestroyTextureObject": sig(tInt, hostSide, tULLong),
		"cudaCreateSurfaceObject":  sig(tInt, hostSide, ptrTo(tULLong), ptrTo(tResDesc)),
		"cudaDestroySurfaceObject": sig(tInt, hostSide, tULLong),
		"__weft_tex":               sig(tInt, deviceSide, tAny, tAny, tAny, tAny, tAny, tAny, tAny, tAny),
	}
}

// texComps describes a fetch's result type T: its components (1, 2 or 4)
// and their type; ok false for other types.
func texComps(t *Type) (n int, comp *Type, ok bool) {
	// texels hold 8-, 16- and 32-bit channels: no double, long long, half
	// (a half texture returns float) or bool results
	elem := func(e *Type) bool {
		return e.isArith() && e.size <= 4 && e.Kind != Half && e.Kind != BF16 && e.Kind != Bool
	}
	if elem(t) {
		return 1, t, true
	}
	if t.Kind == Struct && t.vec != nil && elem(t.vec) {
		if n := len(t.Fields); n == 1 || n == 2 || n == 4 {
			return n, t.vec, true
		}
	}
	return 0, nil, false
}

// texCode packs a result type for the run time: components, component
// size and kind (0 float, 1 signed, 2 unsigned).
func texCode(n int, comp *Type) int64 {
	k := 2
	switch {
	case comp.isFloat():
		k = 0
	case comp.isSigned():
		k = 1
	}
	return int64(n | comp.size<<4 | k<<12)
}

// texObjCall compiles the texture-object API calls whose form depends on
// their template argument or argument types; nil for others.
func (c *compiler) texObjCall(name string, e *syntax.Call) *Type {
	pos := e.Pos
	if name == "cudaCreateChannelDesc" {
		if len(e.TypeArgs) == 0 {
			return c.makeVector(tChannelDesc, e.Args, pos)
		}
		// cudaCreateChannelDesc<T>(): T's channels
		t := c.resolve(e.TypeArgs[0])
		n, comp, ok := texComps(t)
		if !ok || len(e.Args) != 0 {
			c.errorf(pos, "C0302", "no cudaCreateChannelDesc<%s>: channels are 8-, 16- or 32-bit integers or float, alone or in a CUDA vector type of 1, 2 or 4", t)
			c.emit(OpConst, 0, 0, pos)
			return tChannelDesc
		}
		kind := 2
		switch {
		case comp.isFloat():
			kind = 2
		case comp.isSigned():
			kind = 0
		default:
			kind = 1
		}
		var args []syntax.Expr
		for i := 0; i < 4; i++ {
			bits := 0
			if i < n {
				bits = 8 * comp.size
			}
			args = append(args, &syntax.IntLitExpr{Pos: pos, Value: uint64(bits), Type: "int"})
		}
		args = append(args, &syntax.IntLitExpr{Pos: pos, Value: uint64(kind), Type: "int"})
		return c.makeVector(tChannelDesc, args, pos)
	}
	fo, ok := texFetchOps[name]
	if !ok {
		return nil
	}
	if !c.deviceOnly() {
		c.errorf(pos, "C0307", "%s is a device function (texture and surface fetches run in kernels)", name)
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	fail := func(format string, args ...any) *Type {
		c.errorf(pos, "C0302", format, args...)
		c.emit(OpConst, 0, 0, pos)
		if len(e.TypeArgs) == 1 && fo.op&32 == 0 {
			// the result type the call names, so that no second error
			// follows from its use
			switch t := c.resolve(e.TypeArgs[0]); {
			case t.isArith():
				c.convert(tInt, t, pos)
				return t
			case t.Kind == Struct && t.vec != nil:
				c.emit(OpPop, 0, 0, pos)
				c.emit(OpTemp, 0, int64(t.size), pos)
				c.emit(OpMemzero, 0, int64(t.size), pos)
				return t
			}
		}
		return tInt
	}
	want := map[int]string{0: "the texture object and an index", 1: "the texture object and x", 2: "the texture object, x and y",
		3: "the texture object, x, y and z", 4: "the texture object, x and the layer", 5: "the texture object, x, y and the layer",
		6: "the texture object and a direction x, y, z", 17: "the surface object, x (in bytes) and an optional boundary mode",
		18: "the surface object, x (in bytes), y and an optional boundary mode", 19: "the surface object, x (in bytes), y, z and an optional boundary mode",
		33: "the value, the surface object, x (in bytes) and an optional boundary mode",
		34: "the value, the surface object, x (in bytes), y and an optional boundary mode",
		35: "the value, the surface object, x (in bytes), y, z and an optional boundary mode"}[fo.op]
	args := e.Args
	write := fo.op&32 != 0
	surf := fo.op&48 != 0
	var rt *Type // the element type
	var val syntax.Expr
	outPtr := false
	switch {
	case write:
		// surfNDwrite(value, surf, x, ..., [mode])
		if len(args) < 2+fo.coords || len(args) > 3+fo.coords {
			return fail("%s takes %s; %d arguments given", name, want, len(args))
		}
		val, args = args[0], args[1:]
		rt = c.typeOf(val, true)
		if len(e.TypeArgs) == 1 {
			rt = c.resolve(e.TypeArgs[0])
		}
	default:
		if len(args) > 0 && surf {
			if pt := c.typeOf(args[0], true); pt.Kind == Ptr && len(e.TypeArgs) == 0 {
				// surf2Dread(&v, surf, x, y[, mode])
				outPtr, rt = true, pt.Elem
				val, args = args[0], args[1:]
			}
		}
		if rt == nil {
			if len(e.TypeArgs) != 1 {
				return fail("%s needs its result type, %s<T>(...)", name, name)
			}
			rt = c.resolve(e.TypeArgs[0])
		}
		extra := 0
		if surf {
			extra = 1
		}
		if len(args) < 1+fo.coords || len(args) > 1+fo.coords+extra {
			return fail("%s takes %s; %d arguments given", name, want, len(args))
		}
	}
	n, comp, ok := texComps(rt)
	if !ok {
		c.errorf(pos, "C0302", "no %s for %s: texels are 8-, 16- or 32-bit integers or float, alone or in a CUDA vector type of 1, 2 or 4", name, rt)
		c.emit(OpConst, 0, 0, pos)
		return tInt
	}
	// the value's place: a temporary of T (a fetch's result, a write's
	// value) or the out-parameter
	switch {
	case outPtr:
		c.convert(c.expr(val), tULong, pos)
	case write && rt.Kind == Struct:
		vt := c.expr(val)
		if !sameType(vt, rt) {
			return fail("%s<%s> of a value of type %s", name, rt, vt)
		}
	case write:
		c.emit(OpTemp, 0, int64(rt.size), pos)
		c.emit(OpDup, 0, 0, pos)
		c.convert(c.expr(val), rt, pos)
		c.emit(OpStore, int32(memCode(rt)), 0, pos)
		c.emit(OpPop, 0, 0, pos)
	default:
		c.emit(OpTemp, 0, int64(rt.size), pos)
		c.emit(OpMemzero, 0, int64(rt.size), pos)
	}
	c.emit(OpDup, 0, 0, pos)
	c.convert(c.expr(args[0]), tULong, syntax.PosOf(args[0]))
	for i := 0; i < 3; i++ {
		if i < fo.coords && !(fo.op == 4 && i == 1) && !(fo.op == 5 && i == 2) {
			c.convert(c.expr(args[1+i]), tDouble, syntax.PosOf(args[1+i]))
		} else {
			c.emit(OpConst, 0, int64(math.Float64bits(0)), pos)
		}
	}
	// the layer of a layered fetch, or a surface's boundary mode
	switch {
	case fo.op == 4 || fo.op == 5:
		c.convert(c.expr(args[fo.coords]), tLong, pos)
	case surf && len(args) == 2+fo.coords:
		c.convert(c.expr(args[1+fo.coords]), tLong, pos)
	case surf:
		c.emit(OpConst, 0, 2, pos) // cudaBoundaryModeTrap
	default:
		c.emit(OpConst, 0, 0, pos)
	}
	c.emit(OpConst, 0, int64(fo.op), pos)
	c.emit(OpConst, 0, texCode(n, comp), pos)
	c.stdBuiltin("__weft_tex", 8, pos)
	c.emit(OpPop, 0, 0, pos)
	switch {
	case write || outPtr:
		c.emit(OpPop, 0, 0, pos)
		c.emit(OpConst, 0, 0, pos)
		return tVoid
	case rt.Kind == Struct:
		return rt
	}
	c.emit(OpLoad, int32(memCode(rt)), 0, pos)
	return rt
}

func initLibTexobj() {
	for name, t := range map[string]*Type{
		"cudaChannelFormatDesc": tChannelDesc, "cudaArray": tCudaArray, "cudaArray_t": ptrTo(tCudaArray),
		"cudaArray_const_t": ptrTo(tCudaArray), "cudaResourceDesc": tResDesc, "cudaTextureDesc": tTexDesc,
		"cudaTextureObject_t": tULLong, "cudaSurfaceObject_t": tULLong, "cudaChannelFormatKind": tInt,
		"cudaResourceType": tInt, "cudaTextureAddressMode": tInt, "cudaTextureFilterMode": tInt,
		"cudaTextureReadMode": tInt, "cudaSurfaceBoundaryMode": tInt,
	} {
		builtinTypedefs[name] = t
	}
	for name, v := range map[string]int64{
		"cudaChannelFormatKindSigned": 0, "cudaChannelFormatKindUnsigned": 1, "cudaChannelFormatKindFloat": 2,
		"cudaChannelFormatKindNone": 3,
		"cudaResourceTypeArray":     0, "cudaResourceTypeMipmappedArray": 1, "cudaResourceTypeLinear": 2,
		"cudaResourceTypePitch2D": 3,
		"cudaAddressModeWrap":     0, "cudaAddressModeClamp": 1, "cudaAddressModeMirror": 2, "cudaAddressModeBorder": 3,
		"cudaFilterModePoint": 0, "cudaFilterModeLinear": 1,
		"cudaReadModeElementType": 0, "cudaReadModeNormalizedFloat": 1,
		"cudaBoundaryModeZero": 0, "cudaBoundaryModeClamp": 1, "cudaBoundaryModeTrap": 2,
		"cudaArrayDefault": 0, "cudaArrayLayered": 1, "cudaArraySurfaceLoadStore": 2, "cudaArrayCubemap": 4,
		"cudaArrayTextureGather": 8,
	} {
		namedConsts[name] = v
	}
	for name, s := range texObjSigs {
		builtinSigs[name] = s
	}
	const errInvalidValue = 1

	// channels reads a cudaChannelFormatDesc at p.
	channels := func(m *Machine, t *Thread, p uint64, pos int32) (ch [4]int, kind, es int, ok bool) {
		b, good := m.resolve(t, p, 20, pos, false, true)
		if !good {
			return ch, 0, 0, false
		}
		for i := range ch {
			ch[i] = int(int32(loadN(b[4*i:], 4)))
		}
		kind = int(int32(loadN(b[16:], 4)))
		bits := 0
		for i, v := range ch {
			if v < 0 || v%8 != 0 || v > 32 || v == 0 && i < 3 && ch[i+1] != 0 {
				return ch, kind, 0, false
			}
			bits += v
		}
		if bits == 0 || kind < 0 || kind > 2 || kind == 2 && ch[0] != 32 && ch[0] != 16 {
			return ch, kind, 0, false
		}
		return ch, kind, bits / 8, true
	}
	mallocArray := func(m *Machine, t *Thread, out, desc, w, h, d, flags uint64, pos int32) (uint64, status) {
		ch, kind, es, good := channels(m, t, desc, pos)
		if m.failed {
			return 0, stFault
		}
		layered, cube := flags&1 != 0, flags&4 != 0
		if !good || w == 0 || cube && (w != h || d != 6 && !layered || layered && d%6 != 0) || layered && d == 0 {
			return m.apiError(errInvalidValue), stDone
		}
		hh, dd := max(h, 1), max(d, 1)
		n := w * hh * dd * uint64(es)
		if n >= 1<<31 {
			return m.apiError(2), stDone // cudaErrorMemoryAllocation
		}
		o := m.newObject(int(n), SpaceDevice, "CUDA array", pos)
		if m.failed {
			return 0, stFault
		}
		o.Heap = true
		dims := 1
		switch {
		case layered || cube:
			dims = 2
		case d > 0:
			dims = 3
		case h > 0:
			dims = 2
		}
		a := &cuArray{ptr: ptrOf(o, 0), chans: ch, kind: kind, es: es, w: w, h: hh, d: dd, flags: flags,
			surfaceOK: flags&2 != 0, layered: layered, cubemap: cube, dims: dims,
			rowBytes: w * uint64(es), sliceBytes: w * hh * uint64(es)}
		m.texSt().arrays[a.ptr] = a
		if !m.store(t, out, mU64, a.ptr, pos) {
			return 0, stFault
		}
		return ok(0)
	}
	defb("cudaMallocArray", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return mallocArray(m, t, a[0], a[1], a[2], a[3], 0, a[4], pos)
	})
	defb("cudaMalloc3DArray", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		ext, good := m.resolve(t, a[2], 24, pos, false, true)
		if !good {
			return 0, stFault
		}
		return mallocArray(m, t, a[0], a[1], loadN(ext, 8), loadN(ext[8:], 8), loadN(ext[16:], 8), a[3], pos)
	})
	arrayOf := func(m *Machine, t *Thread, p uint64, call string, pos int32) *cuArray {
		a := m.texSt().arrays[p]
		if a == nil || a.freed {
			what := "no CUDA array"
			if a != nil {
				what = "a CUDA array freed earlier"
			}
			m.fault(t, pos, "C0402", "%s: 0x%x is %s (cudaMallocArray gives one)", call, p, what)
			return nil
		}
		return a
	}
	defb("cudaFreeArray", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if a[0] == 0 {
			return ok(0)
		}
		arr := arrayOf(m, t, a[0], "cudaFreeArray", pos)
		if arr == nil {
			return 0, stFault
		}
		if !m.syncAll() {
			return 0, stFault
		}
		arr.freed = true
		return m.free(t, a[0], SpaceDevice, "cudaFreeArray", pos)
	})
	defb("cudaGetChannelDesc", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		arr := arrayOf(m, t, a[1], "cudaGetChannelDesc", pos)
		if arr == nil {
			return 0, stFault
		}
		for i, v := range append(arr.chans[:], arr.kind) {
			if !m.store(t, a[0]+uint64(4*i), mI32, uint64(v), pos) {
				return 0, stFault
			}
		}
		return ok(0)
	})
	// toArray copies height rows of width bytes between linear memory
	// (pitch) and the array at row hOff, byte wOff (toArr: into it).
	toArray := func(m *Machine, t *Thread, arrP, wOff, hOff, lin, pitch, width, height uint64, kind int, toArr bool, call string, pos int32) (uint64, status) {
		arr := arrayOf(m, t, arrP, call, pos)
		if arr == nil {
			return 0, stFault
		}
		if wOff+width > arr.rowBytes || hOff+height > arr.h*arr.d {
			return m.apiError(errInvalidValue), stDone
		}
		at := arr.ptr + hOff*arr.rowBytes + wOff
		if toArr {
			return copyRows(m, t, at, arr.rowBytes, height, lin, pitch, height, width, height, 1, kind, 0, true, pos)
		}
		return copyRows(m, t, lin, pitch, height, at, arr.rowBytes, height, width, height, 1, kind, 0, true, pos)
	}
	// linearCopy is cudaMemcpy(To|From)Array: count bytes from (wOff,
	// hOff) on, row after row.
	linearCopy := func(m *Machine, t *Thread, arrP, wOff, hOff, lin, count uint64, kind int, toArr bool, call string, pos int32) (uint64, status) {
		arr := arrayOf(m, t, arrP, call, pos)
		if arr == nil {
			return 0, stFault
		}
		start := hOff*arr.rowBytes + wOff
		if wOff >= arr.rowBytes && count > 0 || start+count > arr.rowBytes*arr.h*arr.d {
			return m.apiError(errInvalidValue), stDone
		}
		if count >= 1<<31 {
			return m.apiError(errInvalidValue), stDone
		}
		if toArr {
			return m.memcpyAPI(t, arr.ptr+start, lin, int(count), kind, 0, true, pos)
		}
		return m.memcpyAPI(t, lin, arr.ptr+start, int(count), kind, 0, true, pos)
	}
	defb("cudaMemcpyToArray", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return linearCopy(m, t, a[0], a[1], a[2], a[3], a[4], int(int32(a[5])), true, "cudaMemcpyToArray", pos)
	})
	defb("cudaMemcpyFromArray", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return linearCopy(m, t, a[1], a[2], a[3], a[0], a[4], int(int32(a[5])), false, "cudaMemcpyFromArray", pos)
	})
	defb("cudaMemcpy2DToArray", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return toArray(m, t, a[0], a[1], a[2], a[3], a[4], a[5], a[6], int(int32(a[7])), true, "cudaMemcpy2DToArray", pos)
	})
	defb("cudaMemcpy2DFromArray", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		return toArray(m, t, a[2], a[3], a[4], a[0], a[1], a[5], a[6], int(int32(a[7])), false, "cudaMemcpy2DFromArray", pos)
	})

	// resource reads a cudaResourceDesc at p into obj (not the flags).
	resource := func(m *Machine, t *Thread, p uint64, obj *texObject, call string, pos int32) (errc int, good bool) {
		b, good := m.resolve(t, p, tResDesc.size, pos, false, true)
		if !good {
			return 0, false
		}
		b = append([]byte(nil), b...)
		res := tResDesc.field("res").Offset
		obj.res = int(int32(loadN(b, 4)))
		switch obj.res {
		case 0:
			arr := arrayOf(m, t, loadN(b[res:], 8), call, pos)
			if arr == nil {
				return 0, false
			}
			obj.arr, obj.chans, obj.kind, obj.es = arr, arr.chans, arr.kind, arr.es
		case 2, 3:
			f := tResDesc.field("res").Type.field(map[int]string{2: "linear", 3: "pitch2D"}[obj.res]).Type
			rb := b[res:]
			obj.ptr = loadN(rb[f.field("devPtr").Offset:], 8)
			ch, kind, es, ok := channels(m, t, p+uint64(res+f.field("desc").Offset), pos)
			if m.failed {
				return 0, false
			}
			if !ok || obj.ptr == 0 {
				return errInvalidValue, true
			}
			obj.chans, obj.kind, obj.es = ch, kind, es
			if obj.res == 2 {
				n := loadN(rb[f.field("sizeInBytes").Offset:], 8)
				obj.w, obj.h = n/uint64(es), 1
			} else {
				obj.w = loadN(rb[f.field("width").Offset:], 8)
				obj.h = loadN(rb[f.field("height").Offset:], 8)
				obj.pitch = loadN(rb[f.field("pitchInBytes").Offset:], 8)
				if obj.pitch < obj.w*uint64(es) || obj.pitch%32 != 0 || obj.w == 0 || obj.h == 0 {
					return errInvalidValue, true // texturePitchAlignment is 32
				}
			}
			id := obj.ptr >> 32
			if id == 0 || id >= uint64(len(m.objs)) || m.objs[id].Space != SpaceDevice && m.objs[id].Space != SpacePinned {
				return errInvalidValue, true
			}
		case 1:
			m.fault(t, pos, "C0309", "%s: mipmapped arrays are not modeled", call)
			return 0, false
		default:
			return errInvalidValue, true
		}
		return 0, true
	}
	newObj := func(m *Machine, t *Thread, out uint64, obj *texObject, pos int32) (uint64, status) {
		st := m.texSt()
		st.objs = append(st.objs, obj)
		if !m.store(t, out, mU64, uint64(len(st.objs)), pos) {
			return 0, stFault
		}
		return ok(0)
	}
	defb("cudaCreateTextureObject", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		obj := &texObject{}
		if a[0] == 0 || a[1] == 0 || a[2] == 0 {
			return m.apiError(errInvalidValue), stDone
		}
		if errc, good := resource(m, t, a[1], obj, "cudaCreateTextureObject", pos); !good {
			return 0, stFault
		} else if errc != 0 {
			return m.apiError(errc), stDone
		}
		b, good := m.resolve(t, a[2], tTexDesc.size, pos, false, true)
		if !good {
			return 0, stFault
		}
		f := func(name string) int64 { return int64(int32(loadN(b[tTexDesc.field(name).Offset:], 4))) }
		for i := range obj.addr {
			obj.addr[i] = int(int32(loadN(b[tTexDesc.field("addressMode").Offset+4*i:], 4)))
			if obj.addr[i] < 0 || obj.addr[i] > 3 {
				return m.apiError(errInvalidValue), stDone
			}
		}
		obj.filter, obj.readMode, obj.normalized = int(f("filterMode")), int(f("readMode")), f("normalizedCoords") != 0
		if f("sRGB") != 0 {
			m.fault(t, pos, "C0309", "cudaCreateTextureObject: sRGB textures are not modeled")
			return 0, stFault
		}
		floatResult := obj.kind == 2 || obj.readMode == 1
		if obj.filter < 0 || obj.filter > 1 || obj.readMode < 0 || obj.readMode > 1 ||
			obj.readMode == 1 && obj.kind != 2 && obj.chans[0] > 16 {
			return m.apiError(errInvalidValue), stDone
		}
		if obj.filter == 1 && !floatResult {
			return m.apiError(26), stDone // cudaErrorInvalidFilterSetting, as an H100 answered
		}
		return newObj(m, t, a[0], obj, pos)
	})
	defb("cudaCreateSurfaceObject", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		obj := &texObject{surface: true}
		if a[0] == 0 || a[1] == 0 {
			return m.apiError(errInvalidValue), stDone
		}
		if errc, good := resource(m, t, a[1], obj, "cudaCreateSurfaceObject", pos); !good {
			return 0, stFault
		} else if errc != 0 {
			return m.apiError(errc), stDone
		}
		if obj.res != 0 || !obj.arr.surfaceOK {
			// a surface needs an array made with cudaArraySurfaceLoadStore
			return m.apiError(errInvalidValue), stDone
		}
		return newObj(m, t, a[0], obj, pos)
	})
	destroy := func(surface bool) builtinFn {
		return func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
			st := m.texSt()
			if a[0] == 0 || a[0] > uint64(len(st.objs)) || st.objs[a[0]-1].surface != surface || st.objs[a[0]-1].destroyed {
				return m.apiError(errInvalidValue), stDone
			}
			st.objs[a[0]-1].destroyed = true
			return ok(0)
		}
	}
	defb("cudaDestroyTextureObject", destroy(false))
	defb("cudaDestroySurfaceObject", destroy(true))
	defb("__weft_tex", func(m *Machine, t *Thread, a []uint64, pos int32) (uint64, status) {
		if !m.texFetch(t, a, pos) {
			return 0, stFault
		}
		return ok(0)
	})
}

// copyRows is lib_cudart_mem.go's pitched copy (set by its init), shared
// here.
var copyRows func(m *Machine, t *Thread, dst, dpitch, dy, src, spitch, sy, width, height, depth uint64, kind int, h uint64, sync bool, pos int32) (uint64, status)

// texFetch runs __weft_tex(dst, obj, x, y, z, layer|mode, op, code).
func (m *Machine) texFetch(t *Thread, a []uint64, pos int32) bool {
	st := m.texSt()
	h, op, code := a[1], int(a[6]), int(a[7])
	write, surf := op&32 != 0, op&48 != 0
	if h == 0 || h > uint64(len(st.objs)) {
		m.fault(t, pos, "C0402", "%s object %d is no object cudaCreate%sObject made", map[bool]string{true: "surface", false: "texture"}[surf], h, map[bool]string{true: "Surface", false: "Texture"}[surf])
		return false
	}
	obj := st.objs[h-1]
	switch {
	case obj.destroyed:
		m.fault(t, pos, "C0402", "fetch from a destroyed texture or surface object %d", h)
		return false
	case obj.surface != surf:
		m.fault(t, pos, "C0402", "object %d is a %s object, used as a %s", h, map[bool]string{true: "surface", false: "texture"}[obj.surface], map[bool]string{true: "surface", false: "texture"}[surf])
		return false
	case obj.arr != nil && obj.arr.freed:
		m.fault(t, pos, "C0404", "texture or surface object %d reads a CUDA array freed by cudaFreeArray", h)
		return false
	}
	n, csize, ckind := code&15, code>>4&255, code>>12
	x, y, z := math.Float64frombits(a[2]), math.Float64frombits(a[3]), math.Float64frombits(a[4])
	if surf {
		return m.surfAccess(t, obj, a[0], op&3, int64(x), int64(y), int64(z), int(a[5]), n*csize, write, pos)
	}
	// the texels' place and shape
	var base uint64
	var rowB, sliceB uint64
	w, hgt, dep := obj.w, obj.h, uint64(1)
	dims := 1
	if obj.arr != nil {
		arr := obj.arr
		base, rowB, sliceB = arr.ptr, arr.rowBytes, arr.sliceBytes
		w, hgt, dep, dims = arr.w, arr.h, arr.d, arr.dims
	} else {
		base, rowB = obj.ptr, obj.pitch
		if obj.res == 3 {
			dims = 2
		}
	}
	layer := uint64(0)
	wantDims := map[int]int{0: 1, 1: 1, 2: 2, 3: 3, 4: 1, 5: 2, 6: 2}[op]
	switch op {
	case 0:
		if obj.res != 2 {
			m.fault(t, pos, "C0402", "tex1Dfetch reads linear memory: texture object %d is not one (use tex1D/tex2D)", h)
			return false
		}
	case 4, 5, 6:
		if obj.arr == nil || !obj.arr.layered && op != 6 || op == 6 && !obj.arr.cubemap || op == 4 && hgt != 1 {
			m.fault(t, pos, "C0402", "%s needs a %s CUDA array: texture object %d is not over one", map[int]string{4: "tex1DLayered", 5: "tex2DLayered", 6: "texCubemap"}[op], map[int]string{4: "layered 1-D", 5: "layered 2-D", 6: "cubemap"}[op], h)
			return false
		}
		if op == 6 {
			var face uint64
			x, y, face = cubeFace(x, y, z)
			layer = face
		} else {
			// the layer index is an integer, clamped to the layers there
			// are (nearest, as the hardware rounds)
			layer = uint64(min(max(int64(a[5]), 0), int64(dep)-1))
		}
		dep = 1
	default:
		if op != 1 && dims != wantDims || op == 1 && obj.res == 3 {
			m.fault(t, pos, "C0402", "%s on a %d-D texture (object %d)", map[int]string{1: "tex1D", 2: "tex2D", 3: "tex3D"}[op], dims, h)
			return false
		}
	}
	if op == 1 && obj.res == 2 {
		// tex1D on linear memory is not allowed either (tex1Dfetch)
		m.fault(t, pos, "C0402", "tex1D reads a CUDA array: texture object %d is over linear memory (use tex1Dfetch)", h)
		return false
	}
	sizes := [3]uint64{w, hgt, dep}
	coords := [3]float64{x, y, z}
	norm := obj.normalized
	if op == 6 {
		norm = true // a cubemap face's coordinates are normalized
	}
	// each dimension's two indices and weight
	var idx [3][2]int64
	var wt [3]float64
	var border [3][2]bool
	for d := 0; d < wantDims; d++ {
		size := int64(sizes[d])
		c := coords[d]
		mode := obj.addr[d]
		if op == 6 {
			mode = 1 // clamp within the face
		}
		if op == 0 {
			// an integer index, no filtering, 0 beyond the memory
			i := int64(c)
			idx[d] = [2]int64{i, i}
			border[d] = [2]bool{i < 0 || i >= size, i < 0 || i >= size}
			continue
		}
		if !norm && (mode == 0 || mode == 2) {
			mode = 1 // wrap and mirror need normalized coordinates
		}
		if norm {
			// wrap and mirror apply to the texel indices below, not to
			// the coordinate (see the comment at the top)
			c *= float64(size)
		}
		var i0 int64
		if obj.filter == 1 {
			xb := c - 0.5
			fl := math.Floor(xb)
			i0 = int64(fl)
			wt[d] = math.Round((xb-fl)*256) / 256 // 8 fraction bits
		} else {
			i0 = int64(math.Floor(c))
		}
		for k := 0; k < 2; k++ {
			i := i0 + int64(k)
			switch mode {
			case 0:
				i = (i%size + size) % size
			case 2:
				p := (i%(2*size) + 2*size) % (2 * size)
				if p >= size {
					p = 2*size - 1 - p
				}
				i = p
			case 3:
				border[d][k] = i < 0 || i >= size
			default:
				i = min(max(i, 0), size-1)
			}
			idx[d][k] = i
		}
	}
	var res [4]float64
	var ires [4]int64
	// unsigned normalized texels filtered linearly: the sum in 16-bit
	// units (an 8-bit texel v is v*257), see the comment at the top
	unorm16 := obj.filter == 1 && op != 0 && obj.readMode == 1 && obj.kind == 1
	var u16 [4]float64
	corners := 1 << wantDims
	if obj.filter == 0 || op == 0 {
		corners = 1
	}
	for cn := 0; cn < corners; cn++ {
		weight := 1.0
		off := uint64(0)
		out := false
		for d := 0; d < wantDims; d++ {
			k := cn >> d & 1
			if corners > 1 {
				if k == 1 {
					weight *= wt[d]
				} else {
					weight *= 1 - wt[d]
				}
			}
			if border[d][k] {
				out = true
			}
			i := uint64(idx[d][k])
			switch d {
			case 0:
				off += i * uint64(obj.es)
			case 1:
				off += i * rowB
			case 2:
				off += i * sliceB
			}
		}
		if out || weight == 0 && corners > 1 {
			continue // the border is 0
		}
		off += layer * sliceB
		fv, iv, good := m.texel(t, obj, base+off, pos)
		if !good {
			return false
		}
		for ch := 0; ch < 4; ch++ {
			res[ch] += weight * fv[ch]
			ires[ch] = iv[ch]
			if unorm16 && obj.chans[ch] == 8 {
				u16[ch] += weight * float64(iv[ch]*257)
			} else if unorm16 {
				u16[ch] += weight * float64(iv[ch])
			}
		}
	}
	if unorm16 {
		// the weights are multiples of 1/256, so the sums are exact;
		// rounded to the nearest 16-bit step, a half up
		for ch := range res {
			res[ch] = math.Floor(u16[ch]+0.5) / 65535
		}
	}
	// the result T
	outB, good := m.resolve(t, a[0], n*csize, pos, true, false)
	if !good {
		return false
	}
	for ch := 0; ch < n; ch++ {
		b := outB[ch*csize:]
		switch {
		case ckind == 0 && csize == 4:
			storeN(b, 4, uint64(math.Float32bits(float32(res[ch]))))
		case ckind == 0:
			storeN(b, 8, math.Float64bits(res[ch]))
		case obj.readMode == 1 || obj.kind == 2:
			storeN(b, csize, uint64(int64(res[ch])))
		default:
			storeN(b, csize, uint64(ires[ch]))
		}
	}
	return true
}

// texel reads the element at p: its channels as the fetch returns them
// (converted to float for a float result) and as integers.
func (m *Machine) texel(t *Thread, obj *texObject, p uint64, pos int32) (fv [4]float64, iv [4]int64, good bool) {
	b, good := m.resolve(t, p, obj.es, pos, false, false)
	if !good {
		return fv, iv, false
	}
	at := 0
	for ch := 0; ch < 4; ch++ {
		bits := obj.chans[ch]
		if bits == 0 {
			continue
		}
		sz := bits / 8
		raw := loadN(b[at:], sz)
		at += sz
		switch obj.kind {
		case 2:
			if sz == 4 {
				fv[ch] = float64(math.Float32frombits(uint32(raw)))
			} else {
				fv[ch] = halfFromBits(uint16(raw))
			}
			iv[ch] = int64(fv[ch])
		case 0:
			v := int64(raw<<(64-bits)) >> (64 - bits)
			iv[ch] = v
			fv[ch] = float64(v)
			if obj.readMode == 1 {
				fv[ch] = max(float64(v)/float64(int64(1)<<(bits-1)-1), -1)
			}
		default:
			iv[ch] = int64(raw)
			fv[ch] = float64(raw)
			if obj.readMode == 1 {
				fv[ch] = float64(raw) / float64(uint64(1)<<bits-1)
			}
		}
	}
	return fv, iv, true
}

// surfAccess reads (write false) or writes n bytes at dst (the value's
// place) from or to the surface's array at byte x, row y, slice z.
func (m *Machine) surfAccess(t *Thread, obj *texObject, val uint64, dims int, x, y, z int64, mode, n int, write bool, pos int32) bool {
	arr := obj.arr
	lim := [3]int64{int64(arr.rowBytes), int64(arr.h), int64(arr.d)}
	c := [3]int64{x, y, z}
	for d := dims; d < 3; d++ {
		c[d] = 0
	}
	for d := 0; d < dims; d++ {
		hi := lim[d]
		if d == 0 {
			hi -= int64(n) - 1
		}
		if c[d] >= 0 && c[d] < hi {
			continue
		}
		switch mode {
		case 0: // zero: the read gives 0, the write is dropped
			if !write {
				b, good := m.resolve(t, val, n, pos, true, false)
				if !good {
					return false
				}
				clear(b)
			}
			return true
		case 1:
			c[d] = min(max(c[d], 0), hi-1)
		default:
			m.fault(t, pos, "C0403", "surface %s at (%d, %d, %d) outside the %dx%dx%d array (x in bytes; cudaBoundaryModeTrap: a GPU traps)", map[bool]string{true: "write", false: "read"}[write], x, y, z, arr.rowBytes, arr.h, arr.d)
			return false
		}
	}
	p := arr.ptr + uint64(c[2])*arr.sliceBytes + uint64(c[1])*arr.rowBytes + uint64(c[0])
	src, dst := val, p
	if !write {
		src, dst = p, val
	}
	from, good := m.resolve(t, src, n, pos, false, false)
	if !good {
		return false
	}
	tmp := append([]byte(nil), from...)
	to, good := m.resolve(t, dst, n, pos, true, false)
	if !good {
		return false
	}
	copy(to, tmp)
	return true
}

// cubeFace maps a cubemap direction to its face and the face's normalized
// coordinates (CUDA C++ Programming Guide, "Cubemap Textures": the face
// of the major axis, s/m and t/m mapped from [-1, 1] to [0, 1]).
func cubeFace(x, y, z float64) (u, v float64, face uint64) {
	ax, ay, az := math.Abs(x), math.Abs(y), math.Abs(z)
	var s, t, ma float64
	switch {
	case ax >= ay && ax >= az:
		ma = ax
		if x >= 0 {
			face, s, t = 0, -z, -y
		} else {
			face, s, t = 1, z, -y
		}
	case ay >= az:
		ma = ay
		if y >= 0 {
			face, s, t = 2, x, z
		} else {
			face, s, t = 3, x, -z
		}
	default:
		ma = az
		if z >= 0 {
			face, s, t = 4, x, -y
		} else {
			face, s, t = 5, -x, -y
		}
	}
	if ma == 0 {
		return 0.5, 0.5, 0
	}
	return (s/ma + 1) / 2, (t/ma + 1) / 2, face
}

// memcpy3DArray is cudaMemcpy3D with a CUDA array as source or
// destination (arrs: srcArray, dstArray; poss and ptrs the cudaPos and
// cudaPitchedPtr of each side): the extent and an array's position count
// its elements, linear memory's position x bytes (CUDA Runtime API,
// cudaMemcpy3D). Each side becomes a pitched view of rows, copied as
// cudaMemcpy3D copies linear memory.
func (m *Machine) memcpy3DArray(t *Thread, arrs [2]uint64, poss, ptrs [2][]byte, w, h, d uint64, kind int, stream uint64, sync bool, pos int32) (uint64, status) {
	const errInvalidValue = 1
	es := uint64(0)
	var side [2]struct{ p, pitch, ysize uint64 }
	for i := 0; i < 2; i++ {
		if arrs[i] == 0 {
			continue
		}
		a := m.texSt().arrays[arrs[i]]
		if a == nil || a.freed {
			m.fault(t, pos, "C0402", "cudaMemcpy3D: %s 0x%x is no live CUDA array", [2]string{"srcArray", "dstArray"}[i], arrs[i])
			return 0, stFault
		}
		if es != 0 && uint64(a.es) != es {
			return m.apiError(errInvalidValue), stDone
		}
		es = uint64(a.es)
		x, y, z := loadN(poss[i], 8), loadN(poss[i][8:], 8), loadN(poss[i][16:], 8)
		if x+w > a.w || y+max(h, 1) > a.h || z+max(d, 1) > a.d {
			return m.apiError(errInvalidValue), stDone
		}
		side[i].p = a.ptr + z*a.sliceBytes + y*a.rowBytes + x*es
		side[i].pitch, side[i].ysize = a.rowBytes, a.h
	}
	for i := 0; i < 2; i++ {
		if arrs[i] != 0 {
			continue
		}
		p, pitch, ysize := loadN(ptrs[i], 8), loadN(ptrs[i][8:], 8), loadN(ptrs[i][24:], 8)
		if pitch == 0 || ysize == 0 {
			return m.apiError(errInvalidValue), stDone
		}
		x, y, z := loadN(poss[i], 8), loadN(poss[i][8:], 8), loadN(poss[i][16:], 8)
		side[i].p = p + (z*ysize+y)*pitch + x
		side[i].pitch, side[i].ysize = pitch, ysize
	}
	src, dst := side[0], side[1]
	return copyRows(m, t, dst.p, dst.pitch, dst.ysize, src.p, src.pitch, src.ysize, w*es, max(h, 1), max(d, 1), kind, stream, sync, pos)
}
