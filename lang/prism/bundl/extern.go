package bundl

import (
	"fmt"

	"weft.dev/weft/lang/prism/check"
	"weft.dev/weft/lang/prism/syntax"
)

// Functions declared with a body of `pass` are implemented in raw CUDA
// (seed 001 B.3, "only exposing the necessary interfaces"), which the
// interpreter cannot read. It carries Go models of the raw-CUDA bodies of
// examples/prism/b3_scan.extern.cuh, matched by name and parameter count;
// any other such function is P0306. Each model performs the same memory
// operations as the CUDA body, at the same granularity: single writes of
// one thread, spin-waits on memory as scheduler waits (stuck if never
// satisfied), and __syncthreads-broadcasts as block rendezvous.
type externModel struct {
	params int
	run    func(th *thread, x *syntax.Call, args []value, st *state) value
}

var externModels = map[string]externModel{
	// __shfl_up_sync over the full warp.
	"shfl_up_sync_wrapper": {2, func(th *thread, x *syntax.Call, a []value, st *state) value {
		return value{f: th.shflUp(x, st, a[0].f, int(a[1].f))}
	}},
	// Thread 0 takes the next block index with atomicAdd; the block shares it.
	"get_block_idx_from_global_counter": {1, func(th *thread, x *syntax.Call, a []value, st *state) value {
		return value{f: th.blockBroadcast(x, st, nil, func() float64 {
			p := th.memArg(x, a[0], 0)
			old := p.buf.Data[p.off]
			p.buf.Data[p.off] = roundTo(p.buf.Elem, old+1)
			return old
		})}
	}},
	// Thread 0 publishes (value, status 1) for its block.
	"write_block_aggregate": {3, func(th *thread, x *syntax.Call, a []value, st *state) value {
		th.publish(x, st, a, 1)
		return value{}
	}},
	// Thread 0 publishes (value, status 2): the block's inclusive prefix.
	"write_block_prefix": {3, func(th *thread, x *syntax.Call, a []value, st *state) value {
		th.publish(x, st, a, 2)
		return value{}
	}},
	// Thread 0 walks back over the previous blocks, spinning until each
	// has published, summing aggregates until an inclusive prefix; the
	// block shares the sum.
	"lookback_to_prev_blocks": {2, func(th *thread, x *syntax.Call, a []value, st *state) value {
		return value{f: th.blockBroadcast(x, st, func() float64 {
			sum := 0.0
			for j := int(a[0].f) - 1; j >= 0; j-- {
				status := th.memArg(x, a[1], 2*j+1)
				th.spinUntil(x, func() bool { return status.buf.Data[status.off] != 0 },
					fmt.Sprintf("block %d's status in %s[%d]", j, status.buf.Name, status.off))
				s := status.buf.Data[status.off]
				v := th.memArg(x, a[1], 2*j)
				th.yield()
				sum = float64(uint32(int64(sum + v.buf.Data[v.off])))
				if s == 2 {
					break
				}
			}
			return sum
		}, nil)}
	}},
}

// memArg is element i of pointer argument v.
func (th *thread) memArg(x *syntax.Call, v value, i int) *pointer {
	if v.ptr == nil {
		th.fail(x.Pos(), "P0302", "%s: a pointer argument holds no memory", syntax.FuncName(x.Fun))
	}
	k := v.ptr.off + i
	if k < 0 || k >= len(v.ptr.buf.Data) {
		th.fail(x.Pos(), "P0302", "%s: %s[%d] is out of bounds (length %d)", syntax.FuncName(x.Fun), v.ptr.buf.Name, k, len(v.ptr.buf.Data))
	}
	return &pointer{buf: v.ptr.buf, off: k}
}

// publish is write_block_aggregate / write_block_prefix: thread 0 of the
// block writes the value, then (after __threadfence) the status.
func (th *thread) publish(x *syntax.Call, st *state, a []value, status float64) {
	if st.pos != 0 {
		return
	}
	b := int(a[1].f)
	v := th.memArg(x, a[2], 2*b)
	th.yield()
	v.buf.Data[v.off] = roundTo(v.buf.Elem, a[0].f)
	s := th.memArg(x, a[2], 2*b+1)
	th.yield()
	s.buf.Data[s.off] = status
}

// spinUntil is a spin-wait on memory: the thread waits until cond holds.
func (th *thread) spinUntil(x *syntax.Call, cond func() bool, what string) {
	th.yield()
	if cond() {
		return
	}
	th.waitFor, th.waitAt, th.waitWhat = cond, x.Pos(), "spin on "+what
	th.hand(evBlock)
	th.waitWhat = ""
}

// blockBroadcast runs zero (by thread 0, before it arrives) or last (once,
// by the last thread of the block to arrive),
// and gives every thread of the block the result: the `if (p == 0) r = ...;
// __syncthreads(); return r;` of the raw CUDA.
func (th *thread) blockBroadcast(x *syntax.Call, st *state, zero, last func() float64) float64 {
	if st.code != (check.Persp{Level: check.Block, N: 1}) {
		th.fail(x.Pos(), "P0301", "Bundl run is stuck: %s synchronizes the block (__syncthreads) but runs at %s", syntax.FuncName(x.Fun), st.code)
	}
	key := "extern:" + th.unitKey(st) + ":" + itoa(x.Pos().Offset)
	m := th.m
	b := m.bars[key]
	if b == nil {
		b = &barrier{size: m.T, where: x.Pos(), what: "__syncthreads in " + syntax.FuncName(x.Fun), out: map[int][][]float64{}}
		m.bars[key] = b
	}
	gen := b.gen
	if zero != nil && st.pos == 0 {
		// The block cannot pass the barrier before thread 0 arrives, so
		// gen is still this round's.
		b.out[gen] = [][]float64{{zero()}}
	}
	if last != nil && b.arrived+1 == b.size {
		b.out[gen] = [][]float64{{last()}}
	}
	th.arrive(key, m.T, x.Pos(), "__syncthreads in "+syntax.FuncName(x.Fun))
	return b.out[gen][0][0]
}
