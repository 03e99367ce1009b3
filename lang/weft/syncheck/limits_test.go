package syncheck

import (
	"strings"
	"testing"

	"weft.dev/weft/lang/weft/internal/expect"
)

// Issue 14 item 4: the sync check's resource limits. Each hit is one W0613
// at the statement where the run stopped, naming the flag that raises it,
// and no other diagnostic.
func TestResourceLimits(t *testing.T) {
	const many = `@proc
def many(T: size, x: f32[T, 32] @ CudaGmemLinear):
    with CudaDeviceFunction(blockDim=32):
        for task in cuda_tasks(0, T):
            for tid in cuda_threads(0, 32, unit=cuda_thread):
                x[task, tid] = 0.0
`
	const nested = `@proc
def nested(x: f32[400, 32] @ CudaGmemLinear):
    with CudaDeviceFunction(blockDim=32):
        for a in cuda_tasks(0, 20):
            for b in cuda_tasks(0, 20):
                for tid in cuda_threads(0, 32, unit=cuda_thread):
                    x[20 * a + b, tid] = 0.0
`
	defaults := Options{MaxTasks: DefaultMaxTasks, MaxCells: DefaultMaxCells, MaxMemory: DefaultMaxMemory}
	with := func(f func(*Options)) Options {
		o := defaults
		f(&o)
		return o
	}
	cases := []struct {
		name, src string
		sizes     map[string]int64
		opts      Options
		pos       string // line:col
		msg       string
	}{
		{"tasks-loop", strings.Replace(many, "cuda_tasks(0, T)", "cuda_tasks(0, 100000000)", 1), map[string]int64{"T": 1}, defaults, "4:9",
			"the sync check of many stopped at T=1: this cuda_tasks loop has 100000000 tasks; the sync check's limit is 4000000 tasks (raise it with --max-tasks, 0 for no limit); nothing was checked beyond this point"},
		{"tasks-nested", nested, nil, with(func(o *Options) { o.MaxTasks = 100 }), "5:13",
			"the sync check of nested stopped: this cuda_tasks loop has 20 tasks; the sync check's limit is 100 tasks (raise it with --max-tasks, 0 for no limit); nothing was checked beyond this point"},
		{"cells", many, map[string]int64{"T": 1000}, with(func(o *Options) { o.MaxCells = 10000 }), "3:5",
			"the sync check of many stopped at T=1000: x would take 32000 tracked cells, 32000 with the live variables; the sync check's limit is 10000 cells (raise it with --max-cells, 0 for no limit); nothing was checked beyond this point"},
		{"memory-alloc", many, map[string]int64{"T": 100000}, with(func(o *Options) { o.MaxMemory = 64 << 20 }), "3:5",
			"the sync check of many stopped at T=100000: x's 3200000 tracked cells would bring the sync check's memory to about 102400000 bytes, over its limit of 67108864 (raise it with --max-memory, 0 for no limit); nothing was checked beyond this point"},
		{"memory-run", many, map[string]int64{"T": 100000}, with(func(o *Options) { o.MaxMemory = 200 << 20 }), "5:13",
			"the sync check of many stopped at T=100000: the sync check's memory reached about "},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.opts.Sizes = c.sizes
			errs, runs := checkSource(t, c.name+".weft", c.src, c.opts)
			if len(errs.Diags) != 1 || len(runs) != 1 {
				t.Fatalf("want one diagnostic and one run, got %d runs:\n%s", len(runs), expect.List(errs))
			}
			d := errs.Diags[0]
			at := strings.SplitN(d.Pos.String(), ":", 2)[1]
			if d.Code != "W0613" || at != c.pos || !strings.HasPrefix(d.Message, c.msg) {
				t.Fatalf("got %s %s %q\nwant W0613 %s %q", d.Code, at, d.Message, c.pos, c.msg)
			}
			if c.name == "memory-run" && !strings.HasSuffix(d.Message, ", over its limit of 209715200 (raise it with --max-memory, 0 for no limit); nothing was checked beyond this point") {
				t.Fatalf("message: %q", d.Message)
			}
		})
	}
}
