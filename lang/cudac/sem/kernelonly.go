package sem

import (
	"fmt"
	"math"
	"math/rand"
	"sort"
	"strconv"
	"strings"

	"weft.dev/weft/gpu"
)

// KernelConfig describes a launch of a kernel-only file (issue 6 §8, the
// convention of GPU verification tools: "//--blockDim=64 --gridDim=4").
type KernelConfig struct {
	Kernel     string // "" : the first kernel
	Grid       gpu.Dim3
	Block      gpu.Dim3
	Shmem      int
	Args       map[string]string // scalar parameters by name
	BufferSize int               // bytes per pointer parameter (0: one element per launched thread)
	Random     bool              // fill buffers with random bytes from Seed instead of zeros
	Seed       int64
	// Grow makes every buffer's extent unknown (package verify, issue 16
	// §2): a buffer grows to cover each access at or above its start, up to
	// maxGrowBytes, instead of an out-of-bounds error. Struct parameters
	// are then supplied too: zero fields, each pointer field a fresh
	// growing buffer.
	Grow bool
	// IntraGroup judges two-thread annotations only over pairs of threads
	// in one block (GPUVerify's --only-intra-group; others.go).
	IntraGroup bool
}

// maxGrowBytes bounds a growing kernel-only buffer (an access beyond it is
// still reported as out of bounds).
const maxGrowBytes = 1 << 26

// growObject extends o to at least need bytes; the new bytes are inputs,
// so they count as initialized.
func (m *Machine) growObject(o *Object, need int) {
	if need > maxGrowBytes {
		return
	}
	n := max(need, 2*len(o.Data))
	n = min(n, maxGrowBytes)
	old := len(o.Data)
	o.Data = append(o.Data, make([]byte, n-old)...)
	m.live += int64(n - old) // Options.MaxMemory counts grown bytes too
	if o.init != nil {
		b := newBitset(n)
		copy(b, o.init)
		b.setRange(old, n-old)
		o.init = b
	}
	if o.shadow != nil {
		g := o.gshift
		o.shadow = append(o.shadow, make([]cell, (n+1<<g-1)>>g-len(o.shadow))...)
	}
}

// benignWrite reports whether the store being checked writes the bytes
// [off, off+n) of o with the value they hold, and that value is zero or a
// pointer to an object (Options.BenignWrites). GPUVerify tolerates equal
// values it can prove equal; a value loaded from an input may differ
// between threads in its abstraction, so only values no input gives are
// tolerated here (an input buffer may hold zeros, but the search also runs
// with random contents).
func (m *Machine) benignWrite(o *Object, off, n int) bool {
	if !m.wvalOK || (n != 1 && n != 2 && n != 4 && n != 8) || off+n > len(o.Data) {
		return false
	}
	v := m.wval
	if loadN(o.Data[off:off+n], n) != v {
		return false
	}
	return v == 0 || (n == 8 && v>>32 != 0 && v>>32 < uint64(len(m.objs)))
}

// coKey names a granule of an object for the co-writer sets.
type coKey struct {
	obj uint32
	ci  int
}

// coWrite records that the segments a and b (their ordering contexts, which
// survive the renumbering of segments) stored the same benign value in
// granule ci of o without ordering (benignWrite).
func (m *Machine) coWrite(o *Object, ci int, a, b uint32) {
	if m.cowriters == nil {
		m.cowriters = map[coKey][]seg{}
	}
	k := coKey{o.ID, ci}
	l := m.cowriters[k]
	for _, s := range [2]seg{m.segs.get(a), m.segs.get(b)} {
		have := false
		for _, x := range l {
			have = have || x == s
		}
		if !have && len(l) < 1<<16 {
			l = append(l, s)
		}
	}
	m.cowriters[k] = l
}

// coWritten reports whether segments a and b both stored the same benign
// value in granule ci of o: then a read by one of them returns that value
// whichever order the stores took, and it is no race with the other's
// store (a thread that writes a shared pointer, as all others do, and
// reads it back).
func (m *Machine) coWritten(o *Object, ci int, a, b uint32) bool {
	l := m.cowriters[coKey{o.ID, ci}]
	if l == nil {
		return false
	}
	sa, sb := m.segs.get(a), m.segs.get(b)
	ha, hb := false, false
	for _, x := range l {
		ha = ha || x == sa
		hb = hb || x == sb
	}
	return ha && hb
}

// lockstep reports whether accesses of segments a (of thread atid: a group
// segment's thread is apart, race_segs.go) and b are ordered because their
// threads are lanes of one warp run in lock step (Options.WarpSync).
func (m *Machine) lockstep(a *seg, atid int32, b *seg) bool {
	ws := int32(m.opts.WarpSync)
	return ws > 0 && a.block >= 0 && a.block == b.block && a.agent == b.agent && a.clock == b.clock && atid/ws == b.tid/ws
}

// inputBuffer makes the device buffer a pointer parameter (or a pointer
// field of a struct parameter) points to.
func (m *Machine) inputBuffer(cfg *KernelConfig, rng *rand.Rand, n, elem int, name string, pos int32) uint64 {
	o := m.newObject(n, SpaceDevice, name, pos)
	o.Heap = true
	o.grow = cfg.Grow
	switch {
	case cfg.Random && cfg.Grow:
		// inputs of unknown use: small values, so that an index read
		// from a buffer stays near the others
		w := 1
		if elem == 2 || elem == 4 || elem == 8 {
			w = elem
		}
		for i := 0; i+w <= len(o.Data); i += w {
			storeN(o.Data[i:], w, uint64(rng.Intn(256)))
		}
	case cfg.Random:
		rng.Read(o.Data)
	}
	if o.init != nil {
		o.init.setAll()
	}
	return ptrOf(o, 0)
}

// fillStruct gives each pointer field of the struct at b (recursively) a
// fresh buffer.
func (m *Machine) fillStruct(cfg *KernelConfig, rng *rand.Rand, t *Type, b []byte, n int, name string, pos int32) {
	for _, f := range t.Fields {
		switch f.Type.Kind {
		case Ptr:
			storeN(b[f.Offset:], 8, m.inputBuffer(cfg, rng, n*f.Type.ElemSize(), f.Type.ElemSize(), name+"."+f.Name, pos))
		case Struct:
			m.fillStruct(cfg, rng, f.Type, b[f.Offset:], n, name+"."+f.Name, pos)
		case Array:
			e := f.Type.Elem
			for k := 0; k < f.Type.Len && e.size > 0; k++ {
				at := b[f.Offset+k*e.size:]
				sub := fmt.Sprintf("%s.%s[%d]", name, f.Name, k)
				switch e.Kind {
				case Ptr:
					storeN(at, 8, m.inputBuffer(cfg, rng, n*e.ElemSize(), e.ElemSize(), sub, pos))
				case Struct:
					m.fillStruct(cfg, rng, e, at, n, sub, pos)
				}
			}
		}
	}
}

// globalInputs fills the __constant__ and __device__ variables of a
// kernel-only file with small random values, as it fills buffers: a lone
// kernel's global memory is an input, initializer or not (GPUVerify: the
// host is free to change it before the launch; its globalarray tests).
// It runs after the initializers. Only arithmetic scalars and arrays of
// them are filled; pointers and structs keep their values.
func (m *Machine) globalInputs(rng *rand.Rand) {
	for i, g := range m.prog.Globals {
		if (g.Space != SpaceConstant && g.Space != SpaceDevice) || i >= len(m.globals) {
			continue
		}
		e := g.Type
		for e.Kind == Array {
			e = e.Elem
		}
		if !e.isArith() {
			continue
		}
		w := e.size
		o := m.globals[i]
		for k := 0; w > 0 && k+w <= len(o.Data); k += w {
			if e.isFloat() {
				f := float64(rng.Intn(256))
				switch w {
				case 4:
					storeN(o.Data[k:], 4, uint64(math.Float32bits(float32(f))))
				case 8:
					storeN(o.Data[k:], 8, math.Float64bits(f))
				}
				continue
			}
			storeN(o.Data[k:], w, uint64(rng.Intn(256)))
		}
	}
}

// globalPointers points each pointer variable in __device__ or
// __constant__ memory at a fresh buffer of unknown extent, as a pointer
// parameter: a lone kernel's globals are inputs. An initializer, which
// runs afterwards, still gives its value.
func (m *Machine) globalPointers(cfg *KernelConfig, rng *rand.Rand, threads int) {
	for i, g := range m.prog.Globals {
		if (g.Space != SpaceConstant && g.Space != SpaceDevice) || i >= len(m.globals) || g.Type.Kind != Ptr {
			continue
		}
		n := max(threads, 1) * max(g.Type.ElemSize(), 1)
		storeN(m.globals[i].Data, 8, m.inputBuffer(cfg, rng, n, g.Type.ElemSize(), g.Name, g.Pos))
	}
}

// RunKernelOnly gives each pointer parameter of the kernel a device buffer
// and each scalar its --arg value (or zero), launches the kernel and waits.
func (m *Machine) RunKernelOnly(cfg KernelConfig) (bool, error) {
	fn := m.prog.Kernel(cfg.Kernel)
	if fn == nil {
		if cfg.Kernel != "" {
			return false, fmt.Errorf("no kernel named %s", cfg.Kernel)
		}
		return false, fmt.Errorf("no __global__ function in the file")
	}
	m.kernelOnly = true // the instruction-granular schedule (vm.go runTurn)
	rng := rand.New(rand.NewSource(cfg.Seed))
	// The default buffers hold one element per launched thread: refuse a
	// launch the interpreter cannot run before allocating them.
	b, t := launchSize(cfg.Grid, cfg.Block)
	if m.opts.Blocks != nil {
		t = uint64(len(m.opts.Blocks)) * uint64(cfg.Block.Size()) // only these run
	}
	if b > maxGridBlocks || t > maxKernelOnlyThreads {
		return false, fmt.Errorf("--gridDim/--blockDim launch %d blocks of %d threads: kernel-only runs take at most %d blocks and %d threads", b, cfg.Block.Size(), maxGridBlocks, maxKernelOnlyThreads)
	}
	threads := int(t)
	used := map[string]bool{}
	var args []uint64
	for i, pt := range fn.Type.Params {
		name := ""
		if i < len(fn.ParamNames) {
			name = fn.ParamNames[i]
		}
		switch {
		case pt.IsFuncPointer() && cfg.Args[name] != "":
			// a function pointer given by name (--arg f=g, or a
			// precondition f == g: package verify)
			used[name] = true
			fi := -1
			for k, f := range m.prog.Funcs {
				if f.Name == cfg.Args[name] {
					fi = k
				}
			}
			if fi < 0 {
				return false, fmt.Errorf("--arg %s=%s: no function named %s", name, cfg.Args[name], cfg.Args[name])
			}
			args = append(args, uint64(fnObject)<<32|uint64(fi))
		case pt.Kind == Ptr:
			n := cfg.BufferSize
			if n <= 0 {
				n = threads * pt.ElemSize()
			}
			args = append(args, m.inputBuffer(&cfg, rng, n, pt.ElemSize(), name, fn.PosIdx))
		case pt.Kind == Struct && cfg.Grow && pt.complete:
			o := m.newObject(pt.size, SpaceAny, name, fn.PosIdx)
			m.fillStruct(&cfg, rng, pt, o.Data, threads, name, fn.PosIdx)
			args = append(args, ptrOf(o, 0))
		case pt.isArith():
			s, ok := cfg.Args[name]
			used[name] = true
			var v uint64
			if ok {
				if pt.isFloat() {
					f, err := strconv.ParseFloat(s, 64)
					if err != nil {
						return false, fmt.Errorf("--arg %s=%s: %v", name, s, err)
					}
					if pt.Kind == Float {
						f = float64(float32(f))
					}
					v = bits(f)
				} else {
					x, err := strconv.ParseInt(s, 0, 64)
					if err != nil {
						u, err2 := strconv.ParseUint(s, 0, 64)
						if err2 != nil {
							return false, fmt.Errorf("--arg %s=%s: %v", name, s, err)
						}
						x = int64(u)
					}
					v = ext(uint64(x), pt.size*8, pt.isSigned())
				}
			}
			args = append(args, v)
		default:
			return false, fmt.Errorf("parameter %s of type %s cannot be supplied for a kernel-only run", name, pt)
		}
	}
	var unknown []string
	for k := range cfg.Args {
		if !used[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	if len(unknown) > 0 {
		return false, fmt.Errorf("--arg names no scalar parameter of %s: %s", fn.Name, strings.Join(unknown, ", "))
	}
	m.pairs.intra = cfg.IntraGroup
	m.pairs.growShared = cfg.Grow && cfg.Shmem == 0
	if cfg.Grow {
		m.globalPointers(&cfg, rng, threads)
	}
	if cfg.Grow {
		// a lone kernel is launched as it needs: cooperatively, so that
		// grid.sync() is allowed (GPUVerify assumes so)
		m.nextLaunch = launchExtra{set: true, cooperative: true}
	}
	var inputs func()
	if cfg.Random && cfg.Grow {
		inputs = func() { m.globalInputs(rng) }
	}
	return m.runKernel(fn, cfg.Grid, cfg.Block, cfg.Shmem, args, inputs), nil
}

// IsFuncPointer reports whether t is a pointer to a function.
func (t *Type) IsFuncPointer() bool { return t.Kind == Ptr && t.Elem != nil && t.Elem.Kind == Func }

// Func returns the function named name, or nil.
func (p *Program) Func(name string) *Function {
	for _, f := range p.Funcs {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// HasInputGlobals reports whether the program has __constant__ or
// __device__ variables the random configuration fills (globalInputs).
func (p *Program) HasInputGlobals() bool {
	for _, g := range p.Globals {
		if g.Space != SpaceConstant && g.Space != SpaceDevice {
			continue
		}
		e := g.Type
		for e.Kind == Array {
			e = e.Elem
		}
		if e.isArith() {
			return true
		}
	}
	return false
}
