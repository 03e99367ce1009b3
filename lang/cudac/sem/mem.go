package sem

import (
	"encoding/binary"
	"math"
)

// Space is the memory space an object lives in (seed 004 §2.4: objects are
// tagged host, device or block-level shared).
type Space uint8

const (
	SpaceHost     Space = iota
	SpaceDevice         // cudaMalloc, __device__ globals, device malloc
	SpaceShared         // one object per block
	SpaceConstant       // __constant__
	SpaceLocal          // a device thread's addressable locals
	SpaceAny            // string literals: readable from both sides
	SpacePinned         // cudaMallocHost/cudaHostAlloc/cudaMallocManaged
)

func (s Space) String() string {
	return [...]string{"host", "global", "shared", "constant", "local", "literal", "pinned"}[s]
}

// Object is one allocation: its bytes, and (when checking) shadow state.
type Object struct {
	ID      uint32
	Data    []byte
	Space   Space
	Block   int32 // SpaceShared: the block (linear id) it belongs to; -1 otherwise
	Grid    int32
	Freed   bool
	Heap    bool // from malloc/cudaMalloc: may be freed
	Name    string
	AllocAt int32  // pos index of the allocation
	init    bitset // weft check: the bytes written so far, one bit each
	shadow  []cell // weft check: race history per granule of 1<<gshift bytes (race.go)
	// asyncRd counts, per byte, the outstanding operand reads of wgmma
	// instructions not yet retired by wgmma.wait_group (asm.go); nil
	// when none was ever issued on the object
	asyncRd []uint16
	asyncAt []int32    // the wgmma position of the last read of each byte
	proxy   []proxyRec // the last generic-proxy write of each byte (proxy.go); nil: none recorded
	gshift  uint8
	grow    bool // kernel-only buffer of unknown extent: grows to cover an access (kernelonly.go)
	// registered: host memory pinned by cudaHostRegister (Space is
	// SpacePinned until cudaHostUnregister; lib_hostreg.go)
	registered bool
	// lazy: some cells of shadow that are still zero stand for a uniform
	// history kept in Machine.lazy (race_bulk.go)
	lazy           bool
	regOff, regEnd int32 // the registered byte range
}

// overLimit reports whether size more bytes would exceed the memory limit,
// and if so faults with C0610 at pos.
func (m *Machine) overLimit(size int, pos int32) bool {
	if int64(size) <= m.opts.MaxMemory-m.live {
		return false
	}
	m.fault(nil, pos, "C0610", "allocating %d bytes would exceed the memory limit of %d bytes (%d in use; --max-memory BYTES raises it)", size, m.opts.MaxMemory, m.live)
	return true
}

// newObject allocates an object of size bytes. One that would take the
// live bytes past Options.MaxMemory is a C0610 fault at pos and gets no
// bytes (m.failed is set: the caller stops).
func (m *Machine) newObject(size int, sp Space, name string, pos int32) *Object {
	if size < 0 {
		size = 0
	}
	if m.overLimit(size, pos) {
		size = 0
	}
	m.live += int64(size)
	m.mver++ // a new object is a change a spinning thread could see (spin.go)
	var o *Object
	if sp == SpaceLocal && size <= locPoolMax && len(m.locPool[size]) > 0 {
		// a freed local of the same size: its bytes and init bits were
		// cleared when it was freed (releaseLocal)
		l := m.locPool[size]
		o = l[len(l)-1]
		m.locPool[size] = l[:len(l)-1]
	} else if size <= smallObj {
		// one allocation for the object, its bytes and its init bits: the
		// small temporaries and locals of every device thread (a
		// cooperative-groups handle, an addressable scalar) were three
		// (issue 15 item 7)
		so := &smallObject{}
		o = &so.Object
		o.Data = so.buf[:size:size]
		if m.opts.Check && sp != SpaceAny {
			o.init = so.ib[:]
		}
	} else {
		o = &Object{Data: make([]byte, size)}
		if m.opts.Check && sp != SpaceAny {
			o.init = newBitset(size)
		}
	}
	o.ID, o.Space, o.Block, o.Grid, o.Name, o.AllocAt = uint32(len(m.objs)), sp, -1, -1, name, pos
	m.objs = append(m.objs, o)
	return o
}

// dropTemps frees the temporaries device thread t made, when it exits. A
// temporary lives until the end of its full-expression, or of the scope
// of a reference bound to it (C++ [class.temporary]p4-6), never longer
// than the thread that made it; they were kept for the whole run (each
// thread's cg::this_thread_block() and every struct returned by value:
// a fifth of NVIDIA's scan sample's check, issue 15 item 7). Freeing them
// is not a change of memory a spinning thread could see (no other thread
// holds a valid pointer to one), so the memory version stays as it was.
func (m *Machine) dropTemps(t *Thread) {
	v := m.mver
	for i, o := range t.temps {
		m.releaseLocal(o)
		t.temps[i] = nil
	}
	t.temps = t.temps[:0]
	m.mver = v
}

// releaseLocal releases o and keeps it, when it is a local object of up
// to locPoolMax bytes, for the next local of its size (newObject): the
// locals and temporaries of a wide grid's threads were allocated afresh
// for every thread. Its id is
// not reused (m.objs keeps the tombstone release put there), so a stale
// pointer to it is still a use after free.
func (m *Machine) releaseLocal(o *Object) {
	data, init := o.Data, o.init
	m.release(o)
	if o.Space != SpaceLocal || len(data) > locPoolMax || m.prog.alog {
		return
	}
	clear(data)
	clear(init)
	*o = Object{}
	o.Data, o.init = data, init
	m.locPool[len(data)] = append(m.locPool[len(data)], o)
}

// locPoolMax is the size of the largest local object releaseLocal keeps.
const locPoolMax = 64

// smallObj is the size up to which an object's bytes live in its
// smallObject: 8 keeps it at the size class of the three allocations it
// replaces (objects are never collected while the run lasts, so a larger
// buffer cost NVIDIA's SobolQRNG a fifth more live heap).
const smallObj = 8

type smallObject struct {
	Object
	buf [smallObj]byte
	ib  [1]uint64 // newBitset(smallObj)
}

// tombKey names what a freed object still has to say about itself.
type tombKey struct {
	space Space
	name  string
	heap  bool
}

// release frees o (free, cudaFree, a returning frame's locals): its bytes and
// shadow state go, and its id keeps pointing at a shared tombstone with its
// space and name, so that a later use is still reported as a use after free
// while a freed object costs only its slot in m.objs.
func (m *Machine) release(o *Object) {
	m.mver++
	o.Freed = true
	k := tombKey{o.Space, o.Name, o.Heap}
	var tb *Object
	if o.Space == SpaceLocal && o.Name == "" && !o.Heap {
		// every local and temporary of every thread: no map lookup
		tb = m.tombLocal
	} else {
		tb = m.tombs[k]
	}
	if tb == nil {
		if m.tombs == nil {
			m.tombs = map[tombKey]*Object{}
		}
		tb = &Object{Space: o.Space, Name: o.Name, Heap: o.Heap, Freed: true, Block: -1, Grid: -1}
		m.tombs[k] = tb
		if o.Space == SpaceLocal && o.Name == "" && !o.Heap {
			m.tombLocal = tb
		}
	}
	if int(o.ID) < len(m.objs) && m.objs[o.ID] == o {
		m.objs[o.ID] = tb
	}
	m.live -= int64(len(o.Data))
	m.dropShadow(o)
	o.Data, o.init = nil, nil
}

func ptrOf(o *Object, off int) uint64 { return uint64(o.ID)<<32 | uint64(uint32(off)) }

// loadN reads a little-endian value of the given size.
func loadN(b []byte, size int) uint64 {
	switch size {
	case 1:
		return uint64(b[0])
	case 2:
		return uint64(binary.LittleEndian.Uint16(b))
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	default:
		return binary.LittleEndian.Uint64(b)
	}
}

func storeN(b []byte, size int, v uint64) {
	switch size {
	case 1:
		b[0] = byte(v)
	case 2:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case 4:
		binary.LittleEndian.PutUint32(b, uint32(v))
	default:
		binary.LittleEndian.PutUint64(b, v)
	}
}

// Memory access codes used by LOAD/STORE: the size and how the loaded bits
// become a stack value.
const (
	mU8 = iota
	mI8
	mU16
	mI16
	mU32
	mI32
	mU64
	mF32
	mF64
	mF16  // __half: 16 bits in memory, a double on the stack
	mBF16 // __nv_bfloat16
)

var mSize = [...]int{1, 1, 2, 2, 4, 4, 8, 4, 8, 2, 2}

func memCode(t *Type) int {
	switch t.Kind {
	case Bool, UChar:
		return mU8
	case Char, SChar:
		return mI8
	case Short:
		return mI16
	case UShort:
		return mU16
	case Int:
		return mI32
	case UInt:
		return mU32
	case Float:
		return mF32
	case Double:
		return mF64
	case Half:
		return mF16
	case BF16:
		return mBF16
	}
	return mU64
}

// fromMem turns raw bits into a stack value.
func fromMem(code int, raw uint64) uint64 {
	switch code {
	case mI8:
		return uint64(int64(int8(raw)))
	case mI16:
		return uint64(int64(int16(raw)))
	case mI32:
		return uint64(int64(int32(raw)))
	case mF32:
		return math.Float64bits(float64(math.Float32frombits(uint32(raw))))
	case mF16:
		return math.Float64bits(halfFromBits(uint16(raw)))
	case mBF16:
		return math.Float64bits(bf16FromBits(uint16(raw)))
	}
	return raw
}

// toMem turns a stack value into raw bits.
func toMem(code int, v uint64) uint64 {
	switch code {
	case mF32:
		return uint64(math.Float32bits(float32(math.Float64frombits(v))))
	case mF16:
		return uint64(halfBits(math.Float64frombits(v)))
	case mBF16:
		return uint64(bf16Bits(math.Float64frombits(v)))
	}
	return v
}

// bitset holds one bit per byte of an object: whether it was written (the
// uninitialized-read check), 1/8 byte per byte.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) get(i int) bool { return b[i>>6]&(1<<(i&63)) != 0 }

func (b bitset) set(i int) { b[i>>6] |= 1 << (i & 63) }

// setAll marks every byte (static storage, calloc, kernel-only buffers).
// Bits past the object's size are set too; nothing reads them.
func (b bitset) setAll() {
	for i := range b {
		b[i] = ^uint64(0)
	}
}

// setRange marks bytes [off, off+n).
func (b bitset) setRange(off, n int) {
	for i := off; i < off+n; {
		if i&63 == 0 && off+n-i >= 64 {
			b[i>>6] = ^uint64(0)
			i += 64
			continue
		}
		b.set(i)
		i++
	}
}

// allSet reports whether bytes [off, off+n) are all marked.
func (b bitset) allSet(off, n int) bool {
	for i := off; i < off+n; {
		if i&63 == 0 && off+n-i >= 64 {
			if b[i>>6] != ^uint64(0) {
				return false
			}
			i += 64
			continue
		}
		if !b.get(i) {
			return false
		}
		i++
	}
	return true
}

// extract returns bits [off, off+n) as a new bitset starting at bit 0.
// Word by word: a 64 MiB cudaMemcpy moved its initialization bits one at
// a time (issue 15 item 7).
func (b bitset) extract(off, n int) bitset {
	r := newBitset(n)
	for i := 0; i < n; i += 64 {
		r[i>>6] = b.word(off+i, min(64, n-i))
	}
	return r
}

// assign sets bits [off, off+n) to the first n bits of src.
func (b bitset) assign(off, n int, src bitset) {
	for i := 0; i < n; i += 64 {
		b.setWord(off+i, min(64, n-i), src[i>>6])
	}
}

// word returns bits [off, off+n), 0 < n <= 64, as the low bits of a word.
func (b bitset) word(off, n int) uint64 {
	lo, sh := off>>6, uint(off&63)
	v := b[lo] >> sh
	if int(sh)+n > 64 {
		v |= b[lo+1] << (64 - sh)
	}
	if n < 64 {
		v &= 1<<uint(n) - 1
	}
	return v
}

// setWord sets bits [off, off+n), 0 < n <= 64, to the low n bits of v.
func (b bitset) setWord(off, n int, v uint64) {
	mask := ^uint64(0)
	if n < 64 {
		mask = 1<<uint(n) - 1
	}
	v &= mask
	lo, sh := off>>6, uint(off&63)
	b[lo] = b[lo]&^(mask<<sh) | v<<sh
	if int(sh)+n > 64 {
		b[lo+1] = b[lo+1]&^(mask>>(64-sh)) | v>>(64-sh)
	}
}
