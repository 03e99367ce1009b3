package sem

import (
	"fmt"
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
	rng := rand.New(rand.NewSource(cfg.Seed))
	// The default buffers hold one element per launched thread: refuse a
	// launch the interpreter cannot run before allocating them.
	if b, t := launchSize(cfg.Grid, cfg.Block); b > maxGridBlocks || t > maxKernelOnlyThreads {
		return false, fmt.Errorf("--gridDim/--blockDim launch %d blocks of %d threads: kernel-only runs take at most %d blocks and %d threads", b, cfg.Block.Size(), maxGridBlocks, maxKernelOnlyThreads)
	}
	threads := cfg.Grid.Size() * cfg.Block.Size()
	used := map[string]bool{}
	var args []uint64
	for i, pt := range fn.Type.Params {
		name := ""
		if i < len(fn.ParamNames) {
			name = fn.ParamNames[i]
		}
		switch {
		case pt.Kind == Ptr:
			n := cfg.BufferSize
			if n <= 0 {
				n = threads * pt.ElemSize()
			}
			o := m.newObject(n, SpaceDevice, name, fn.PosIdx)
			o.Heap = true
			if cfg.Random {
				rng.Read(o.Data)
			}
			o.init.setAll()
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
	return m.RunKernel(fn, cfg.Grid, cfg.Block, cfg.Shmem, args), nil
}
