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

// Stats counts what a run did.
type Stats struct {
	Steps      int // step calls executed (each typed call once)
	Iterations int // fixpoint iterations, all fixpoints together
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
	for _, s := range prog.Structs {
		n := 1
		if data != nil {
			n += data.Counts[s.Index]
		}
		st := &store{s: s, n: int64(n)}
		for i, p := range s.Params {
			c := &column{param: p, cur: make([]int32, n)}
			if data != nil {
				copy(c.cur[1:], data.Cols[s.Index][i])
			}
			if m.lockstep() && written[p] {
				c.nxt = append([]int32(nil), c.cur...)
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
	for _, s := range prog.Structs {
		for _, st := range s.Steps {
			m.steps[st] = m.compileStep(st)
		}
	}
	return m
}

// lockstep reports whether steps run in lockstep (Options.Lockstep).
func (m *Machine) lockstep() bool { return m.opt.Semantics == Relaxed && m.opt.Lockstep }

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
	defer func() {
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

// print writes one line per non-null instance in label order, in AuDaLaC's
// format: `Node(1): reachable=1` (Nat, Bool and references unsigned, Int
// signed; spec §5.11).
func (m *Machine) print(s *check.Struct) {
	st := m.stores[s.Index]
	buf := make([]byte, 0, 128)
	for l := 1; l < int(st.n); l++ {
		buf = append(buf[:0], s.Name...)
		buf = append(buf, '(')
		buf = strconv.AppendInt(buf, int64(l), 10)
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
		m.out.Write(buf)
	}
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
	par := m.opt.Workers > 1 && n >= parallelThreshold && m.opt.Order == BatchOrder
	body := cs.seq
	if par {
		body = cs.par
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
	} else {
		chunk := n / int64(len(m.workers)*8)
		if chunk < 512 {
			chunk = 512
		}
		var next atomic.Int64
		var wg sync.WaitGroup
		for _, w := range m.workers {
			w.reset(cs)
			wg.Add(1)
			go func(w *worker) {
				defer wg.Done()
				for w.err == nil {
					lo := next.Add(chunk) - chunk
					if lo >= n {
						return
					}
					if cs.bpar != nil {
						w.runBatch(cs.bpar, cs.step.NumLocals, lo, min(lo+chunk, n))
					} else {
						w.runRange(body, lo, min(lo+chunk, n))
					}
				}
			}(w)
		}
		wg.Wait()
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
		// column (of whichever struct) per worker.
		var wg sync.WaitGroup
		k := len(m.workers)
		for i := 0; i < k; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for _, c := range cs.buffered {
					l := len(c.cur)
					lo, hi := l*i/k, l*(i+1)/k
					copy(c.cur[lo:hi], c.nxt[lo:hi])
				}
			}()
		}
		wg.Wait()
	} else {
		for _, c := range cs.buffered {
			copy(c.cur, c.nxt)
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
