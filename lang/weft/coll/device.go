package coll

import (
	"fmt"
	"strings"
)

// WarpConfig is one CudaWarpConfig(name, count, setmaxnreg_dec,
// setmaxnreg_inc) of a warp_config (seed 000 Fig. 3): Count warps named
// Name, which adjust their register count down (Dec) or up (Inc) with
// setmaxnreg when nonzero.
type WarpConfig struct {
	Name     string
	Count    int
	Dec, Inc int
}

// DeviceFunction is the launch configuration of one `with
// CudaDeviceFunction(...)` block (seed 000 §3.4; seed 002 "Async Blocks").
type DeviceFunction struct {
	BlockDim    int
	ClusterDim  int
	BlocksPerSM int
	// Warps is the warp_config, nil when blockDim was given.
	Warps []WarpConfig
}

// NewDeviceFunction validates a launch configuration. Exactly one of
// blockDim (> 0) and warps must be given; with warps, blockDim is 32 times
// the total number of warps named (Fig. 3: 1 + 3 + 8 warps give 384).
func NewDeviceFunction(blockDim, clusterDim, blocksPerSM int, warps []WarpConfig) (*DeviceFunction, error) {
	return NewDeviceFunctionIn(blockDim, clusterDim, blocksPerSM, warps, nil)
}

// NewDeviceFunctionIn is NewDeviceFunction made in d (a new one when d
// is nil): the GPU checker keeps a small kernel's launch configuration
// in its room (issue 13, stop 37). d is overwritten, and is the result's
// when there is no error.
func NewDeviceFunctionIn(blockDim, clusterDim, blocksPerSM int, warps []WarpConfig, d *DeviceFunction) (*DeviceFunction, error) {
	if d == nil {
		d = new(DeviceFunction)
	}
	*d = DeviceFunction{BlockDim: blockDim, ClusterDim: clusterDim, BlocksPerSM: blocksPerSM, Warps: warps}
	if clusterDim < 1 || clusterDim > 16 {
		return nil, fmt.Errorf("clusterDim must be between 1 and 16, not %d", clusterDim)
	}
	if blocksPerSM < 1 {
		return nil, fmt.Errorf("blocks_per_sm must be a positive integer, not %d", blocksPerSM)
	}
	if warps != nil {
		if blockDim != 0 {
			return nil, fmt.Errorf("give blockDim or warp_config, not both")
		}
		if len(warps) == 0 {
			return nil, fmt.Errorf("warp_config must name at least one group of warps")
		}
		seen := map[string]bool{}
		regs := false
		for _, w := range warps {
			if w.Name == "" {
				return nil, fmt.Errorf("CudaWarpConfig needs a name")
			}
			if seen[w.Name] {
				return nil, fmt.Errorf("warp name %q appears twice in warp_config", w.Name)
			}
			seen[w.Name] = true
			if w.Count < 1 {
				return nil, fmt.Errorf("CudaWarpConfig(%q): warp count must be positive, not %d", w.Name, w.Count)
			}
			if d.BlockDim+32*w.Count > 1024 || w.Count > 32 {
				return nil, fmt.Errorf("warp_config names more than the 32 warps (1024 threads) of a CTA")
			}
			for _, r := range []int{w.Dec, w.Inc} {
				if r != 0 && (r < 24 || r > 256 || r%8 != 0) {
					return nil, fmt.Errorf("CudaWarpConfig(%q): setmaxnreg value %d must be a multiple of 8 in [24, 256]", w.Name, r)
				}
			}
			if w.Dec != 0 && w.Inc != 0 {
				return nil, fmt.Errorf("CudaWarpConfig(%q): give setmaxnreg_dec or setmaxnreg_inc, not both", w.Name)
			}
			if w.Dec != 0 || w.Inc != 0 {
				regs = true
			}
			d.BlockDim += 32 * w.Count
		}
		if regs {
			if d.BlockDim%128 != 0 {
				return nil, fmt.Errorf("warp_config uses setmaxnreg, so blockDim (%d) must be a multiple of 128 (whole warpgroups)", d.BlockDim)
			}
			// setmaxnreg is warpgroup-wide: each warpgroup's warps must agree.
			for wg := 0; wg < d.BlockDim/128; wg++ {
				var first *WarpConfig
				for w := wg * 4; w < wg*4+4; w++ {
					c := d.warpAt(w)
					if first == nil {
						first = c
					} else if c.Dec != first.Dec || c.Inc != first.Inc {
						return nil, fmt.Errorf("setmaxnreg must be uniform within warpgroup %d: warps %q and %q differ", wg, first.Name, c.Name)
					}
				}
			}
		}
	} else if blockDim < 1 {
		return nil, fmt.Errorf("CudaDeviceFunction needs blockDim or warp_config")
	}
	if d.BlockDim%32 != 0 {
		return nil, fmt.Errorf("blockDim must be a positive multiple of 32, not %d", d.BlockDim)
	}
	if d.BlockDim > 1024 {
		return nil, fmt.Errorf("blockDim %d exceeds the 1024 threads of a CTA", d.BlockDim)
	}
	return d, nil
}

func (d *DeviceFunction) warpAt(w int) *WarpConfig {
	for i := range d.Warps {
		if w < d.Warps[i].Count {
			return &d.Warps[i]
		}
		w -= d.Warps[i].Count
	}
	return nil
}

// Machine is the launch shape collective units resolve against.
func (d *DeviceFunction) Machine() Machine {
	return Machine{BlockDim: d.BlockDim, ClusterDim: d.ClusterDim}
}

// WarpRange returns the warps [lo, hi) of each CTA named name.
func (d *DeviceFunction) WarpRange(name string) (lo, hi int, ok bool) {
	for _, w := range d.Warps {
		if w.Name == name {
			return lo, lo + w.Count, true
		}
		lo += w.Count
	}
	return 0, 0, false
}

// WarpNames lists the warp names in warp_config order.
func (d *DeviceFunction) WarpNames() string {
	var names []string
	for _, w := range d.Warps {
		names = append(names, fmt.Sprintf("%q", w.Name))
	}
	return strings.Join(names, ", ")
}
