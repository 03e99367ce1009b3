package interp

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/audala/check"
	"weft.dev/weft/lang/audala/initfile"
)

// Semantics selects the memory semantics.
type Semantics int

const (
	Relaxed Semantics = iota
	Strict
)

func (s Semantics) String() string {
	if s == Strict {
		return "strict"
	}
	return "relaxed"
}

// ParseSemantics parses a --semantics value.
func ParseSemantics(s string) (Semantics, bool) {
	switch s {
	case "relaxed":
		return Relaxed, true
	case "strict", "sc":
		return Strict, true
	}
	return 0, false
}

// Options configure a run.
type Options struct {
	Semantics Semantics
	// Workers is the number of goroutines; 0 means GOMAXPROCS.
	Workers int
	// MaxIterations bounds the iterations of each fixpoint (0: unbounded).
	MaxIterations int
	// MaxInstances bounds the instances of each struct (0: 2^31-1 labels).
	MaxInstances int
	// Out receives S.print output.
	Out io.Writer
	// Order is the order in which one worker runs the instances of a step
	// (Workers must be 1 for Label, Reverse and Random): each order is another
	// legal execution, so running a program under several orders and seeds
	// tests that its result does not depend on one (spec §8 AT-1/AT-3 use
	// label, reverse and random orders).
	Order Order
	// Seed seeds the Random order.
	Seed uint64
	// PrintUnstable counts, per parameter and per constructor, the writes
	// inside fixpoints that cleared stability (see Machine.WriteUnstable).
	PrintUnstable bool
	// Lockstep runs the relaxed semantics as thesis Fig. 2 does: every read
	// of another instance's parameter sees the step's initial values (ι),
	// writes go to a second buffer copied back at the step boundary.
	// Without it a relaxed run executes in place, reads seeing the latest
	// write: also a legal execution of the relaxed rules (spec §3.7), and
	// the cheaper one. Ignored under the strict semantics.
	Lockstep bool
}

// Order is the order in which a worker runs the instances of a step.
type Order int

const (
	// BatchOrder (the default) runs batches of up to 256 consecutive
	// labels, statement by statement (batch.go), where the step allows
	// it (in place, no constructor), else instance by instance in label
	// order. With one worker it is deterministic.
	BatchOrder Order = iota
	// LabelOrder runs the instances one after another in label order,
	// each step body to its end (spec AT-1's "label order").
	LabelOrder
	ReverseOrder
	RandomOrder
)

var orderNames = [...]string{"batch", "label", "reverse", "random"}

func (o Order) String() string { return orderNames[o] }

// ParseOrder parses a --order value.
func ParseOrder(s string) (Order, bool) {
	for i, n := range orderNames {
		if n == s {
			return Order(i), true
		}
	}
	return 0, false
}

// RuntimeError is an error during execution, at a source position.
type RuntimeError struct {
	Pos  diag.Pos
	Code string
	Msg  string
}

func (e *RuntimeError) Error() string { return e.Pos.String() + ": " + e.Msg }

// Diagnostic converts e into a diagnostic.
func (e *RuntimeError) Diagnostic() *diag.Diagnostic {
	return &diag.Diagnostic{Severity: diag.Error, Code: e.Code, Pos: e.Pos, Message: e.Msg}
}

// Stats counts what a run did and where its wall time went (the --profile
// report, Profile).
type Stats struct {
	Steps      int // step calls executed (each typed call once)
	Iterations int // fixpoint iterations, all fixpoints together
	// Load is New's wall time (columns, the .init values, compiling);
	// Wall is Run's.
	Load, Wall time.Duration
	// Parallel is the wall time of the parallel regions, from the start
	// of the workers to the end of the last one: the steps over at least
	// parallelThreshold instances in batch order, a lockstep step's copy
	// back, formatting a large print, loading large .init columns. With
	// one worker it is the time of that work, which more workers share;
	// the rest, Serial(), is not shared: scheduling, fixpoint detection,
	// step boundaries, small steps, writing the output.
	Parallel time.Duration
	// ParallelSteps counts the steps of Parallel.
	ParallelSteps int
	// Busy is the time the workers spent running instances in the
	// parallel regions, all workers together; Workers*Parallel - Busy is
	// their waiting (start-up, load imbalance at the step's end).
	Busy time.Duration
}

// Serial is the wall time of New and Run outside the parallel regions.
func (s *Stats) Serial() time.Duration { return s.Load + s.Wall - s.Parallel }

// Amdahl is the speedup bound 1/(f + (1-f)/k) on k workers for a run
// whose serial fraction is f = Serial()/(Load+Wall): meaningful for a
// one-worker run, where Parallel is the work more workers would share.
func (s *Stats) Amdahl(k int) float64 {
	if s.Load+s.Wall <= 0 {
		return 1
	}
	f := float64(s.Serial()) / float64(s.Load+s.Wall)
	return 1 / (f + (1-f)/float64(k))
}

// column is one parameter array. cur holds ι during a step; nxt, when the
// column is written by some assignment under the relaxed semantics, receives
// the step's writes and is copied back at the boundary.
type column struct {
	cur, nxt []int32
	param    *check.Param
}

type store struct {
	s    *check.Struct
	n    int64 // instances including the null instance; atomic during steps
	cols []*column
}

// Machine holds the state of one program execution.
type Machine struct {
	prog    *check.Program
	opt     Options
	stores  []*store
	steps   map[*check.Step]*compiledStep
	stack   []bool
	out     *bufio.Writer
	workers []*worker
	maxInst int64
	rng     *rand.Rand
	Stats   Stats
	// unstable sums the workers' counts of steps run inside a Fix
	// (Options.PrintUnstable), per struct and parameter, constructor last.
	unstable [][]int64
}

// New prepares prog with the initial instances of data (nil: only the null
// instances).
func New(prog *check.Program, data *initfile.Data, opt Options) *Machine {
	t0 := time.Now()
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.Out == nil {
		opt.Out = io.Discard
	}
	m := &Machine{prog: prog, opt: opt, steps: map[*check.Step]*compiledStep{}, out: bufio.NewWriter(opt.Out)}
	m.rng = rand.New(rand.NewPCG(opt.Seed, 0xada1a))
	m.maxInst = math.MaxInt32
	if opt.MaxInstances > 0 && int64(opt.MaxInstances) < m.maxInst {
		m.maxInst = int64(opt.MaxInstances)
	}
	written := map[*check.Param]bool{}
	for _, s := range prog.Structs {
		for _, st := range s.Steps {
			for _, p := range st.Written {
				written[p] = true
			}
		}
	}
	var parts []loadPart
	for _, s := range prog.Structs {
		n := 1
		if data != nil {
			n += data.Counts[s.Index]
		}
		st := &store{s: s, n: int64(n)}
		for i, p := range s.Params {
			c := &column{param: p, cur: make([]int32, n)}
			if m.lockstep() && written[p] {
				c.nxt = make([]int32, n)
			}
			if data != nil {
				parts = append(parts, loadPart{c.cur[1:], data.Cols[s.Index][i]})
				if c.nxt != nil {
					parts = append(parts, loadPart{c.nxt[1:], data.Cols[s.Index][i]})
				}
			}
			st.cols = append(st.cols, c)
		}
		m.stores = append(m.stores, st)
	}
	newCounts := func() [][]int64 {
		var u [][]int64
		for _, s := range prog.Structs {
			u = append(u, padded[int64](len(s.Params)+1))
		}
		return u
	}
	if opt.PrintUnstable {
		m.unstable = newCounts()
	}
	for i := 0; i < opt.Workers; i++ {
		// Each worker in its own padded allocation: its hot fields (self,
		// changed, the cache and locals headers) are written for every
		// instance, and two workers on one cache line made two cores
		// slower than one (false sharing).
		w := &new(paddedWorker).worker
		w.m = m
		if opt.PrintUnstable {
			w.unstable = newCounts()
		}
		m.workers = append(m.workers, w)
	}
	m.load(parts)
	for _, s := range prog.Structs {
		for _, st := range s.Steps {
			m.steps[st] = m.compileStep(st)
		}
	}
	m.Stats.Load = time.Since(t0)
	return m
}

// loadPart is a column's cells (or its lockstep buffer's) to be set from
// the .init file's values.
type loadPart struct{ dst, src []int32 }

// loadSegment is the most cells one task of load copies.
const loadSegment = 1 << 16

// load copies the initial instances' values into their columns: with
// several workers in parallel, in segments of loadSegment cells, because
// the copy (and the page faults of the fresh columns it takes) was most of
// what a one-worker prefix sum at 10^6 did serially once printing was
// parallel (issue 17).
func (m *Machine) load(parts []loadPart) {
	var segs []loadPart
	cells := 0
	for _, p := range parts {
		n := min(len(p.dst), len(p.src))
		cells += n
		for lo := 0; lo < n; lo += loadSegment {
			hi := min(lo+loadSegment, n)
			segs = append(segs, loadPart{p.dst[lo:hi], p.src[lo:hi]})
		}
	}
	// Below a segment's worth of cells, starting workers costs more than
	// the copy.
	shared := cells >= loadSegment
	if len(m.workers) > 1 && shared {
		m.spread(int64(len(segs)), func(_ *worker, i int64) bool {
			copy(segs[i].dst, segs[i].src)
			return true
		})
		return
	}
	t0 := time.Now()
	for _, p := range segs {
		copy(p.dst, p.src)
	}
	if shared {
		m.sharedSince(t0)
	}
}

// lockstep reports whether steps run in lockstep (Options.Lockstep).
func (m *Machine) lockstep() bool { return m.opt.Semantics == Relaxed && m.opt.Lockstep }

// Workers returns the number of workers the run uses.
func (m *Machine) Workers() int { return len(m.workers) }

// Count returns the number of instances of struct s, the null instance
// included.
func (m *Machine) Count(s *check.Struct) int { return int(m.stores[s.Index].n) }

// Value returns parameter p of label l, decoded (Nat and references as
// unsigned, Bool as 0/1).
func (m *Machine) Value(p *check.Param, l int) int64 {
	return decode(p.Type, m.stores[p.Owner.Index].cols[p.Index].cur[l])
}

func decode(t check.Type, v int32) int64 {
	if t.Kind == check.Int {
		return int64(v)
	}
	return int64(uint32(v))
}

// Run executes the schedule. Output of S.print goes to Options.Out.
func (m *Machine) Run() (err error) {
	t0 := time.Now()
	defer func() {
		m.Stats.Wall += time.Since(t0)
		if ferr := m.out.Flush(); err == nil && ferr != nil {
			err = ferr
		}
	}()
	return m.sched(m.prog.Schedule)
}

func (m *Machine) sched(items []check.Sched) error {
	for _, it := range items {
		switch it := it.(type) {
		case *check.Call:
			if err := m.runStep(m.steps[it.Step]); err != nil {
				return err
			}
		case *check.Print:
			m.print(it.Struct)
		case *check.Fix:
			m.stack = append(m.stack, true)
			top := len(m.stack) - 1
			for iter := 1; ; iter++ {
				m.stack[top] = true
				m.Stats.Iterations++
				if err := m.sched(it.Body); err != nil {
					return err
				}
				if m.stack[top] {
					break
				}
				if m.opt.MaxIterations > 0 && iter >= m.opt.MaxIterations {
					return &RuntimeError{Pos: it.Pos, Code: "A0203", Msg: fmt.Sprintf("fixpoint did not stabilise within %d iterations", iter)}
				}
			}
			m.stack = m.stack[:top]
		}
	}
	return nil
}

// Dump prints every struct in declaration order, as S.print does: what the
// compiled program's --dump prints after its schedule.
func (m *Machine) Dump() error {
	for _, s := range m.prog.Structs {
		m.print(s)
	}
	return m.out.Flush()
}

// printSegment is the number of instances whose print lines are formatted
// into one buffer (about 40 bytes a line).
const printSegment = 4096

// print writes one line per non-null instance in label order, in AuDaLaC's
// format: `Node(1): reachable=1` (Nat, Bool and references unsigned, Int
// signed; spec §5.11). Formatting was a fifth of a one-worker prefix sum
// at 10^6 and serial (issue 17): with several workers, segments of
// printSegment instances are formatted in parallel, a window of them at a
// time, and written in label order.
func (m *Machine) print(s *check.Struct) {
	st := m.stores[s.Index]
	n := st.n
	if len(m.workers) == 1 || n < parallelThreshold {
		var buf []byte
		for lo := int64(1); lo < n; lo += printSegment {
			t0 := time.Now()
			buf = st.format(buf[:0], lo, min(lo+printSegment, n))
			if n >= parallelThreshold {
				m.sharedSince(t0)
			}
			m.out.Write(buf)
		}
		return
	}
	window := int64(4 * len(m.workers))
	bufs := make([][]byte, window)
	for wlo := int64(1); wlo < n; wlo += window * printSegment {
		segs := min(window, (n-wlo+printSegment-1)/printSegment)
		m.spread(segs, func(_ *worker, i int64) bool {
			lo := wlo + i*printSegment
			bufs[i] = st.format(bufs[i][:0], lo, min(lo+printSegment, n))
			return true
		})
		for _, b := range bufs[:segs] {
			m.out.Write(b)
		}
	}
}

// format appends the print lines of labels [lo, hi) to buf.
func (st *store) format(buf []byte, lo, hi int64) []byte {
	for l := lo; l < hi; l++ {
		buf = append(buf, st.s.Name...)
		buf = append(buf, '(')
		buf = strconv.AppendInt(buf, l, 10)
		buf = append(buf, "):"...)
		for i, c := range st.cols {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, ' ')
			buf = append(buf, c.param.Name...)
			buf = append(buf, '=')
			buf = strconv.AppendInt(buf, decode(c.param.Type, c.cur[l]), 10)
		}
		buf = append(buf, '\n')
	}
	return buf
}

// grow makes every column of st hold at least need cells.
func (st *store) grow(need int64) {
	if len(st.cols) == 0 || int64(cap(st.cols[0].cur)) >= need {
		for _, c := range st.cols {
			if int64(len(c.cur)) < need {
				c.cur = c.cur[:need]
				if c.nxt != nil {
					c.nxt = c.nxt[:need]
				}
			}
		}
		return
	}
	newCap := int64(cap(st.cols[0].cur)) * 2
	if newCap < need {
		newCap = need
	}
	for _, c := range st.cols {
		nc := make([]int32, need, newCap)
		copy(nc, c.cur)
		c.cur = nc
		if c.nxt != nil {
			nn := make([]int32, need, newCap)
			copy(nn, c.nxt)
			c.nxt = nn
		}
	}
}

const parallelThreshold = 2048

// chunksPerWorker is how many chunks of a parallel step each worker takes
// on average. The workers take chunks from a shared counter until none is
// left, so they finish at most one chunk apart: finer chunks wait less
// for the last one at the step's end (load imbalance), at one atomic add
// per chunk.
const chunksPerWorker = 32

// spread runs f(w, i) for the tasks i in [0, tasks) on all workers: the
// calling goroutine is worker 0 and the others start in goroutines of
// their own (a goroutine hand-off per worker less than starting them all).
// Each worker takes the next task from a shared counter until none is
// left or f returns false, so the workers finish at most one task apart.
// Its wall time counts as Stats.Parallel, the workers' busy time as
// Stats.Busy.
func (m *Machine) spread(tasks int64, f func(w *worker, i int64) bool) {
	t0 := time.Now()
	var next atomic.Int64
	work := func(w *worker) {
		start := time.Now()
		for {
			i := next.Add(1) - 1
			if i >= tasks || !f(w, i) {
				break
			}
		}
		w.busy = time.Since(start)
	}
	var wg sync.WaitGroup
	for _, w := range m.workers[1:] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(w)
		}()
	}
	work(m.workers[0])
	wg.Wait()
	m.Stats.Parallel += time.Since(t0)
	for _, w := range m.workers {
		m.Stats.Busy += w.busy
	}
}

// sharedSince counts the time since t0, spent by the one worker of a run
// on work that more workers would share (a step over at least
// parallelThreshold instances, formatting a large print), as parallel.
func (m *Machine) sharedSince(t0 time.Time) {
	d := time.Since(t0)
	m.Stats.Parallel += d
	m.Stats.Busy += d
}

// parallel runs the instances [0, n) of a step on all workers in chunks of
// consecutive labels, multiples of batchSize (spread).
func (m *Machine) parallel(cs *compiledStep, body []stmtFn, n int64) {
	chunk := n / int64(len(m.workers)*chunksPerWorker)
	chunk = max(batchSize, (chunk+batchSize-1)/batchSize*batchSize)
	for _, w := range m.workers {
		w.reset(cs)
	}
	m.spread((n+chunk-1)/chunk, func(w *worker, i int64) bool {
		lo := i * chunk
		if cs.bpar != nil {
			w.runBatch(cs.bpar, cs.step.NumLocals, lo, min(lo+chunk, n))
		} else {
			w.runRange(body, lo, min(lo+chunk, n))
		}
		return w.err == nil
	})
}

// runStep executes one typed step call on every instance that exists at its
// start, then resolves the step boundary.
func (m *Machine) runStep(cs *compiledStep) error {
	m.Stats.Steps++
	own := m.stores[cs.step.Owner.Index]
	n := own.n
	// Capacity for the instances this step can create: steps are loop-free,
	// so each instance evaluates each constructor expression at most once.
	for s, k := range cs.step.Creates {
		st := m.stores[s.Index]
		need := st.n + n*int64(k)
		if need > m.maxInst+1 {
			need = m.maxInst + 1
		}
		st.grow(need)
	}
	// shared: more workers would split this step (Stats.Parallel).
	shared := n >= parallelThreshold && m.opt.Order == BatchOrder
	par := shared && m.opt.Workers > 1
	body := cs.seq
	if par {
		body = cs.par
	}
	var t0 time.Time
	if shared && !par {
		t0 = time.Now()
	}
	var err *RuntimeError
	changed := false
	if !par {
		w := m.workers[0]
		w.reset(cs)
		switch m.opt.Order {
		case BatchOrder:
			if cs.bseq != nil {
				w.runBatch(cs.bseq, cs.step.NumLocals, 0, n)
			} else {
				w.runRange(body, 0, n)
			}
		case LabelOrder:
			w.runRange(body, 0, n)
		case ReverseOrder:
			for l := n - 1; l >= 0 && w.err == nil; l-- {
				w.runRange(body, l, l+1)
			}
		case RandomOrder:
			for _, l := range m.rng.Perm(int(n)) {
				if w.err != nil {
					break
				}
				w.runRange(body, int64(l), int64(l)+1)
			}
		}
		changed, err = w.changed, w.err
		if shared {
			m.sharedSince(t0)
			m.Stats.ParallelSteps++
		}
	} else {
		m.parallel(cs, body, n)
		m.Stats.ParallelSteps++
		errLabel := int64(math.MaxInt64)
		for _, w := range m.workers {
			changed = changed || w.changed
			// Report the error of the lowest label, as a sequential run would.
			if w.err != nil && w.errLabel < errLabel {
				err, errLabel = w.err, w.errLabel
			}
		}
	}
	// Trim capacity reservations to the labels actually handed out.
	for s := range cs.step.Creates {
		st := m.stores[s.Index]
		if len(st.cols) > 0 && st.n > int64(len(st.cols[0].cur)) {
			st.n = int64(len(st.cols[0].cur)) // failed constructions (A0204)
		}
		for _, c := range st.cols {
			c.cur = c.cur[:st.n]
			if c.nxt != nil {
				c.nxt = c.nxt[:st.n]
			}
		}
	}
	if err != nil {
		return err
	}
	// Step boundary (Call Step): ι' = fin, the last write some writer made.
	if par && len(cs.buffered) > 0 {
		// Large steps: copy back in parallel, one slice of every written
		// column (of whichever struct) per task.
		k := int64(len(m.workers))
		m.spread(k, func(_ *worker, i int64) bool {
			for _, c := range cs.buffered {
				l := int64(len(c.cur))
				lo, hi := l*i/k, l*(i+1)/k
				copy(c.cur[lo:hi], c.nxt[lo:hi])
			}
			return true
		})
	} else if len(cs.buffered) > 0 {
		t0 := time.Now()
		for _, c := range cs.buffered {
			copy(c.cur, c.nxt)
		}
		if shared {
			m.sharedSince(t0)
		}
	}
	if changed {
		for i := range m.stack {
			m.stack[i] = false
		}
	}
	if m.unstable != nil && len(m.stack) > 0 {
		for _, w := range m.workers {
			for si, u := range w.unstable {
				for pi, n := range u {
					m.unstable[si][pi] += n
				}
			}
		}
	}
	return nil
}

// WriteUnstable writes the --printunstable report: for each parameter, then
// the constructor, of each struct in declaration order, the number of writes
// made by steps run inside a Fix that changed a value and so cleared the
// stability of the enclosing fixpoints (spec §3.5, §5.11 --printunstable),
// one line each, zero counts left out:
//
//	unstable: Node.reachable 3
//	unstable: new NodeSet 2
//
// Under the relaxed semantics a write counts when it differs from the value
// its writer reads (Write Parameter II). With several workers the counts are
// those of that execution; --workers=1 makes them deterministic.
func (m *Machine) WriteUnstable(w io.Writer) {
	if m.unstable == nil {
		return
	}
	for _, s := range m.prog.Structs {
		u := m.unstable[s.Index]
		for i, p := range s.Params {
			if u[i] != 0 {
				fmt.Fprintf(w, "unstable: %s.%s %d\n", s.Name, p.Name, u[i])
			}
		}
		if n := u[len(s.Params)]; n != 0 {
			fmt.Fprintf(w, "unstable: new %s %d\n", s.Name, n)
		}
	}
}
