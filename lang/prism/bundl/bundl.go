package bundl

import (
	"fmt"
	"iter"
	"math"
	"math/rand"
	"runtime/metrics"
	"slices"
	"sort"
	"strings"
	"time"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/prism/check"
	"weft.dev/weft/lang/prism/dcfg"
	"weft.dev/weft/lang/prism/syntax"
)

// Buffer is a global or shared array. Elements are float64; Int says
// whether the element type is integral (values are kept truncated).
type Buffer struct {
	Name string
	Elem string
	Int  bool
	Data []float64

	shared bool   // a block's shared allocation
	mbar   *txBar // for a shared(mbarrier): its state
}

// Config is one launch.
type Config struct {
	Kernel   string
	Blocks   int
	Threads  int // 0: the kernel's @requires thread count
	Seed     int64
	MaxSteps int // 0: 10 million
	// Timeout bounds the run's wall time (0: none); Deadline, when set,
	// is the absolute end instead. A run past it stops with P0305 at the
	// statement a thread was executing (issue 14).
	Timeout  time.Duration
	Deadline time.Time
	// MaxMemory bounds the growth of the Go heap during the run, in bytes
	// (0: DefaultMaxMemory): local arrays and buffers of every simulated
	// thread live there. A run past it stops with P0305.
	MaxMemory uint64
	// SplitBarriers performs a kernel's block-wide sync points as the
	// generated CUDA does by default: mbarrier arrive after the last use,
	// phase snapshot at the point, wait before the first use on each path
	// (package dcfg); otherwise each is a full barrier at its place.
	SplitBarriers bool
	// CompiledSync drops the barrier Bundl puts at the end of every
	// partition and claim (S-Partition's dec; wait), keeping only the
	// inferred sync points: the synchronization the generated CUDA has.
	// A race-free program computes the same either way; the property tests
	// use this to check that the inference is enough.
	CompiledSync bool
	Args         map[string]float64    // scalar parameters
	Buffers      map[string]*Buffer    // pointer parameters
	TensorMaps   map[string]*TensorMap // CUtensorMap parameters
}

// Result is what a run did.
type Result struct {
	Steps int
	Stuck bool
}

type value struct {
	f    float64
	ptr  *pointer
	arr  *Buffer    // local array (thread-private)
	tmap *TensorMap // a CUtensorMap parameter, or a pointer to one
}

type pointer struct {
	buf *Buffer
	off int
}

type fault struct {
	pos  diag.Pos
	code string
	msg  string
}

type abort struct{}

// machine is the shared state of a run.
type machine struct {
	info    *check.Info
	cfg     Config
	T, B    int
	threads []*thread
	shared  []map[*check.Var]*Buffer // per block
	bars    map[string]*barrier
	faultAt *fault
	errs    *diag.List
	rng     *rand.Rand
	// syncs are the sync points the compiler infers (package dcfg): the
	// interpreter performs them too, so it is an oracle for the code
	// package lower generates.
	syncs map[syntax.Stmt][]*dcfg.SyncPoint
	split map[*dcfg.SplitPoint]int // split barriers of the kernel, numbered
	// splitAt lists the split barriers acting at a place in a list.
	splitAt map[splitKey][]splitOp
	mbars   map[string]*mbarrier
	// inflight are TMA loads issued and not yet performed; wgOps the
	// wgmmas each warpgroup has issued and not yet waited for.
	inflight []*asyncOp
	wgOps    map[string][]*wgOp
	// ready are the threads the scheduler may pick; waiting those
	// blocked until their waitFor holds.
	ready, waiting []*thread
	// stmts counts the statements threads executed (one thread runs at a
	// time, so no lock): a thread that loops on its own registers never
	// returns to the scheduler, so its statements are bounded here
	// (stmtLimit, 10 per scheduler step) and so is the wall time
	// (deadline, read every 4096 statements). last is the statement
	// executed last, where a scheduler-level limit is reported.
	stmts, stmtLimit int
	deadline         time.Time
	last             diag.Pos
	heap0, maxMem    uint64 // heap at the start; Config.MaxMemory
}

// DefaultMaxMemory is the default of Config.MaxMemory.
const DefaultMaxMemory = 4 << 30

// heapMetric is the live heap in bytes (runtime/metrics; reading it does
// not stop the world).
const heapMetric = "/memory/classes/heap/objects:bytes"

func heapBytes() uint64 {
	s := []metrics.Sample{{Name: heapMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// overMemory reports whether the heap grew past the limit since the run
// started.
func (m *machine) overMemory() bool {
	h := heapBytes()
	return h > m.heap0 && h-m.heap0 > m.maxMem
}

// stmtsPerStep is how many statements per allowed scheduler step the
// threads may execute together.
const stmtsPerStep = 10

// count is called before each statement a thread executes.
func (th *thread) count(s syntax.Stmt) {
	m := th.m
	m.stmts++
	m.last = s.Pos()
	if m.stmts > m.stmtLimit {
		th.fail(s.Pos(), "P0305", "Bundl run stopped after %d statements executed by threads (%d per step of the step limit of %d; --max-steps N raises it)", m.stmtLimit, stmtsPerStep, m.cfg.MaxSteps)
	}
	if m.stmts&4095 == 0 {
		if !m.deadline.IsZero() && time.Now().After(m.deadline) {
			th.fail(s.Pos(), "P0305", "Bundl run stopped here: it ran longer than its time limit of %v (--timeout D raises it)", m.cfg.Timeout)
		}
		if m.overMemory() {
			th.fail(s.Pos(), "P0305", "Bundl run stopped here: it allocated more than its memory limit of %d bytes (--max-memory BYTES raises it)", m.maxMem)
		}
	}
}

// unready removes ready[i] (order is irrelevant: picks are random).
func (m *machine) unready(i int) {
	last := len(m.ready) - 1
	m.ready[i] = m.ready[last]
	m.ready = m.ready[:last]
}

type splitKey struct {
	list *syntax.Stmt
	at   int
}

type splitOp struct {
	kind int // opArrive, opSnapshot, opWait
	k    int
	p    *dcfg.SplitPoint
}

const (
	opArrive = iota
	opTMASnap
	opSnapshot
	opTMAWait
	opWait
)

// mbarrier models a CUDA mbarrier: count arrivals complete a phase.
type mbarrier struct {
	count, arrived, phases int
}

type barrier struct {
	size    int
	arrived int
	gen     int
	where   diag.Pos
	what    string
	// mma rendezvous data
	in  [][]float64
	out map[int][][]float64
	wg  *wgOp // the wgmma being issued
	// waiters are the threads blocked until the barrier completes.
	waiters []*thread
}

type event struct {
	t    *thread
	kind int // evYield, evBlock, evDone
}

const (
	evYield = iota
	evBlock
	evDone
)

type thread struct {
	m    *machine
	t, b int
	// next resumes the thread's coroutine until its next event (ok false:
	// the thread has returned); stop unwinds a thread that has not
	// returned; handTo, inside the coroutine, hands an event to the
	// scheduler and reports whether to go on (iter.Pull's pair).
	next     func() (event, bool)
	stop     func()
	handTo   func(event) bool
	blocked  *barrier
	done     bool
	vars     map[*check.Var]*value
	viewOff  map[*check.Var]int // offset views of views through f
	waitFor  func() bool        // blocked on an mbarrier phase until true
	waitAt   diag.Pos
	ph, snap map[int]int // split barriers: phase bits and snapshots
	deferred [][]func()
	// mph are the thread's phase bits of the mbarriers TMA loads complete
	// on (NAME_phase in the generated code); tsnap their snapshots at
	// split sync points.
	mph      map[*check.Var]int
	tsnap    map[tmaKey]int
	waitBar  *txBar // the mbarrier waitFor waits on, if any
	waitWhat string // what else waitFor waits for (a spin on memory)
	// wgmma: the depth of wmma_async scopes, the accumulators in flight.
	wgDepth int
	busy    []busyAcc
	skipAcc bool
}

type tmaKey struct {
	at  syntax.Stmt
	bar *check.Var
}

// MaxThreads bounds blocks × threads of one Run.
const MaxThreads = 1 << 16

// Run executes cfg.Kernel. Faults and stuck states are reported to errs.
func Run(info *check.Info, cfg Config, errs *diag.List) Result {
	fn := info.ByName[cfg.Kernel]
	if fn == nil || !fn.Global {
		errs.Errorf(diag.Pos{}, "P0304", "no kernel named %q (a function with @prism(\"global\"))", cfg.Kernel)
		return Result{}
	}
	T := cfg.Threads
	if T == 0 {
		T = fn.T
	}
	if T <= 0 {
		T = 1
	}
	B := cfg.Blocks
	if B <= 0 {
		B = 1
	}
	// Every simulated thread is a coroutine (a goroutine) with its own
	// frames: a launch past MaxThreads would exhaust memory before the
	// step limit applies.
	if int64(B)*int64(T) > MaxThreads {
		errs.Errorf(fn.Decl.At, "P0304", "kernel %s: %d blocks of %d threads exceed the %d threads the interpreter runs; use a smaller launch", fn.Name, B, T, MaxThreads)
		return Result{}
	}
	if cfg.MaxSteps == 0 {
		cfg.MaxSteps = 10_000_000
	}
	m := &machine{info: info, cfg: cfg, T: T, B: B, bars: map[string]*barrier{}, errs: errs,
		rng: rand.New(rand.NewSource(cfg.Seed))}
	m.stmtLimit = cfg.MaxSteps * stmtsPerStep
	if m.stmtLimit/stmtsPerStep != cfg.MaxSteps || m.stmtLimit < 0 {
		m.stmtLimit = math.MaxInt
	}
	m.maxMem = cfg.MaxMemory
	if m.maxMem == 0 {
		m.maxMem = DefaultMaxMemory
	}
	m.heap0 = heapBytes()
	m.last = fn.Decl.At // until a thread executes a statement
	m.deadline = cfg.Deadline
	if m.deadline.IsZero() && cfg.Timeout > 0 {
		m.deadline = time.Now().Add(cfg.Timeout)
	}
	for i := 0; i < B; i++ {
		m.shared = append(m.shared, map[*check.Var]*Buffer{})
	}
	m.syncs = map[syntax.Stmt][]*dcfg.SyncPoint{}
	m.split, m.splitAt, m.mbars = map[*dcfg.SplitPoint]int{}, map[splitKey][]splitOp{}, map[string]*mbarrier{}
	m.wgOps = map[string][]*wgOp{}
	for _, f := range info.Funcs {
		var quiet diag.List
		s := dcfg.Infer(info, f, &quiet)
		split := cfg.SplitBarriers && f.Global && len(s.Split) > 0
		for st, sps := range s.Before {
			for _, sp := range sps {
				if split && blockWide(sp, f.T) {
					continue // performed by the split barriers below
				}
				m.syncs[st] = append(m.syncs[st], sp)
			}
		}
		if !split {
			continue
		}
		for _, p := range s.Split {
			add := func(list []syntax.Stmt, at int, op splitOp) {
				key := splitKey{&list[0], at}
				m.splitAt[key] = append(m.splitAt[key], op)
			}
			if len(p.Waits) > 0 {
				// TMA-written memory: the mbarriers' phases are snapshot
				// at the point and waited for before the first use.
				add(p.List, p.Index, splitOp{opTMASnap, -1, p})
				for _, w := range p.WaitAt {
					add(w.List, w.At, splitOp{opTMAWait, -1, p})
				}
			}
			if !p.Barrier {
				continue
			}
			k := len(m.split)
			m.split[p] = k
			add(p.ArriveList, p.ArriveAt, splitOp{opArrive, k, p})
			add(p.List, p.Index, splitOp{opSnapshot, k, p})
			for _, w := range p.WaitAt {
				add(w.List, w.At, splitOp{opWait, k, p})
			}
		}
	}
	for _, p := range fn.Params {
		if p.Type.Kind == check.Pointer {
			if cfg.Buffers[p.Name] == nil {
				errs.Errorf(p.Pos, "P0304", "kernel %s: no buffer given for pointer parameter %s", fn.Name, p.Name)
				return Result{}
			}
		} else if p.Type.Kind == check.Scalar && p.Type.Name == "CUtensorMap" {
			tm := cfg.TensorMaps[p.Name]
			if tm == nil {
				errs.Errorf(p.Pos, "P0304", "kernel %s: no tensor map given for parameter %s (--arg %s=tma:BUF,ROWS,COLS,BOX_ROWS,BOX_COLS[,SWIZZLE])", fn.Name, p.Name, p.Name)
				return Result{}
			}
			if err := tm.Validate(); err != nil {
				errs.Errorf(p.Pos, "P0304", "kernel %s: tensor map %s: %v", fn.Name, p.Name, err)
				return Result{}
			}
		} else if p.Type.Kind == check.Scalar {
			if _, ok := cfg.Args[p.Name]; !ok {
				errs.Errorf(p.Pos, "P0304", "kernel %s: no value given for parameter %s", fn.Name, p.Name)
				return Result{}
			}
		}
	}
	for b := 0; b < B; b++ {
		for t := 0; t < T; t++ {
			th := &thread{m: m, t: t, b: b, vars: map[*check.Var]*value{}, viewOff: map[*check.Var]int{},
				ph: map[int]int{}, snap: map[int]int{}, mph: map[*check.Var]int{}, tsnap: map[tmaKey]int{}}
			m.threads = append(m.threads, th)
			m.ready = append(m.ready, th)
			for _, p := range fn.Params {
				switch {
				case p.Type.Kind == check.Pointer:
					th.vars[p] = &value{ptr: &pointer{buf: cfg.Buffers[p.Name]}}
				case p.Type.Name == "CUtensorMap":
					th.vars[p] = &value{tmap: cfg.TensorMaps[p.Name]}
				default:
					th.vars[p] = &value{f: cfg.Args[p.Name]}
				}
			}
			th.next, th.stop = iter.Pull(func(yield func(event) bool) {
				th.handTo = yield
				th.main(fn)
			})
		}
	}
	res := Result{}
	live := len(m.threads)
	for live > 0 {
		if m.faultAt != nil {
			break
		}
		// Threads waiting on a condition (an mbarrier phase, a spin on
		// memory) become ready when it holds; threads blocked on a barrier
		// are made ready by the thread that completes it.
		waiting := m.waiting[:0]
		for _, th := range m.waiting {
			if th.waitFor() {
				th.waitFor = nil
				m.ready = append(m.ready, th)
			} else {
				waiting = append(waiting, th)
			}
		}
		m.waiting = waiting
		runnable := m.ready
		if len(runnable) == 0 && len(m.inflight) == 0 {
			m.reportStuck()
			res.Stuck = true
			break
		}
		if res.Steps >= cfg.MaxSteps {
			errs.Errorf(m.last, "P0305", "Bundl run stopped after %d steps (step limit; --max-steps N raises it)", res.Steps)
			break
		}
		if res.Steps&1023 == 0 && !m.deadline.IsZero() && time.Now().After(m.deadline) {
			errs.Errorf(m.last, "P0305", "Bundl run stopped after %d steps: it ran longer than its time limit of %v (--timeout D raises it)", res.Steps, cfg.Timeout)
			break
		}
		if res.Steps&1023 == 0 && m.overMemory() {
			errs.Errorf(m.last, "P0305", "Bundl run stopped after %d steps: it allocated more than its memory limit of %d bytes (--max-memory BYTES raises it)", res.Steps, m.maxMem)
			break
		}
		res.Steps++
		// Asynchronous operations in flight complete at steps the
		// scheduler picks, like threads.
		pick := m.rng.Intn(len(runnable) + len(m.inflight))
		if pick >= len(runnable) {
			k := pick - len(runnable)
			op := m.inflight[k]
			m.inflight = append(m.inflight[:k], m.inflight[k+1:]...)
			if f := op.run(); f != nil {
				m.faultAt = f
			}
			continue
		}
		th := runnable[pick]
		ev, ok := th.next()
		if !ok {
			ev = event{t: th, kind: evDone}
		}
		switch ev.kind {
		case evDone:
			ev.t.done = true
			live--
			m.unready(pick)
		case evBlock:
			m.unready(pick)
			if th.waitFor != nil {
				m.waiting = append(m.waiting, th)
			}
		}
	}
	// Unwind the coroutines of threads that did not finish: their yield
	// returns false, and they panic abort{} out to main's recover.
	for _, th := range m.threads {
		if !th.done {
			th.stop()
		}
	}
	if f := m.faultAt; f != nil {
		errs.Errorf(f.pos, f.code, "%s", f.msg)
	}
	return res
}

func (m *machine) reportStuck() {
	groups := map[*barrier][]*thread{}
	var order []*barrier
	for _, th := range m.threads {
		if th.done || th.blocked == nil {
			continue
		}
		if groups[th.blocked] == nil {
			order = append(order, th.blocked)
		}
		groups[th.blocked] = append(groups[th.blocked], th)
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].where.Offset < order[j].where.Offset })
	var split []*thread
	tma := map[*txBar][]*thread{}
	var bars []*txBar
	for _, th := range m.threads {
		if th.done || th.waitFor == nil {
			continue
		}
		if mb := th.waitBar; mb != nil {
			if tma[mb] == nil {
				bars = append(bars, mb)
			}
			tma[mb] = append(tma[mb], th)
			continue
		}
		split = append(split, th)
	}
	for _, mb := range bars {
		ths := tma[mb]
		th := ths[0]
		why := fmt.Sprintf("%d of its %d arrivals are missing", mb.pending, mb.count)
		if mb.pending == 0 {
			why = fmt.Sprintf("expect_bytes (%s) announced %d bytes, TMA loads delivered %d and none is in flight", posString(mb.expectAt), mb.expected, mb.got)
		}
		m.errs.Errorf(th.waitAt, "P0301", "Bundl run is stuck: %d threads wait here for phase %d of mbarrier %s (first: (b%d,t%d)); %s", len(ths), mb.phases, mb.name, th.b, th.t, why)
	}
	for _, th := range split {
		if th.waitWhat != "" {
			m.errs.Errorf(th.waitAt, "P0301", "Bundl run is stuck: thread (b%d,t%d) waits here forever: %s", th.b, th.t, th.waitWhat)
		}
	}
	split = slices.DeleteFunc(split, func(th *thread) bool { return th.waitWhat != "" })
	if len(split) > 0 {
		th := split[0]
		m.errs.Errorf(th.waitAt, "P0301", "Bundl run is stuck: %d threads wait on a split barrier's phase here (first: (b%d,t%d))", len(split), th.b, th.t)
	}
	for _, b := range order {
		ths := groups[b]
		var ids []string
		for i, th := range ths {
			if i == 8 {
				ids = append(ids, "...")
				break
			}
			ids = append(ids, fmt.Sprintf("(b%d,t%d)", th.b, th.t))
		}
		m.errs.Errorf(b.where, "P0301", "Bundl run is stuck: %d of %d threads wait at the %s here and the others cannot reach it; waiting: %s", b.arrived, b.size, b.what, strings.Join(ids, " "))
	}
}

func (th *thread) main(fn *check.Func) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(abort); !ok {
				if f, ok := r.(*fault); ok {
					if th.m.faultAt == nil {
						th.m.faultAt = f
					}
				} else {
					panic(r)
				}
			}
		}
	}()
	st := &state{code: fn.Top, pos: th.b*th.m.T + th.t}
	if fn.Top.Level == check.Block {
		st.pos = th.t
	} else if fn.Top.Level == check.Thread {
		st.pos = th.t % fn.Top.N
	}
	th.block(fn.Decl.Body, st)
}

// yield hands control back to the scheduler; the thread continues when it
// is picked again.
func (th *thread) yield() {
	th.hand(evYield)
}

// hand gives the scheduler an event and suspends the thread until the
// scheduler picks it again; when the run is being unwound instead, it
// panics abort{}, which main recovers.
func (th *thread) hand(kind int) {
	if !th.handTo(event{t: th, kind: kind}) {
		panic(abort{})
	}
}

// arrive joins barrier key (of size participants) and waits for the rest.
func (th *thread) arrive(key string, size int, where diag.Pos, what string) *barrier {
	m := th.m
	b := m.bars[key]
	if b == nil {
		b = &barrier{size: size, where: where, what: what, out: map[int][][]float64{}}
		m.bars[key] = b
	}
	b.arrived++
	if b.arrived == b.size {
		b.arrived = 0
		b.gen++
		for _, w := range b.waiters {
			w.blocked = nil
			m.ready = append(m.ready, w)
		}
		b.waiters = b.waiters[:0]
		return b
	}
	th.blocked = b
	b.waiters = append(b.waiters, th)
	th.hand(evBlock)
	return b
}

func (th *thread) fail(pos diag.Pos, code, format string, args ...any) {
	panic(&fault{pos: pos, code: code, msg: fmt.Sprintf(format, args...)})
}

// state is the dynamic perspective of a thread: its code perspective and
// its position (in threads) within one unit of it.
type state struct {
	code check.Persp
	pos  int
	live int
}

func (th *thread) size(p check.Persp) int {
	switch p.Level {
	case check.Thread:
		return p.N
	case check.Block:
		return p.N * th.m.T
	}
	return th.m.T * th.m.B
}

// unitKey names the unit of perspective p the thread belongs to.
func (th *thread) unitKey(st *state) string {
	g := th.b*th.m.T + th.t
	return fmt.Sprintf("%s@%d", st.code, g-st.pos)
}

type branchSignal int

const (
	sigNone branchSignal = iota
	sigBreak
	sigContinue
	sigReturn
)

func (th *thread) block(list []syntax.Stmt, st *state) (branchSignal, *value) {
	for i, s := range list {
		th.count(s)
		th.splitOps(list, i)
		for _, sp := range th.m.syncs[s] {
			th.syncPoint(s, sp)
		}
		sig, v := th.stmt(s, st)
		if sig != sigNone {
			return sig, v
		}
	}
	th.splitOps(list, len(list))
	return sigNone, nil
}

func (th *thread) stmt(s syntax.Stmt, st *state) (branchSignal, *value) {
	info := th.m.info
	switch s := s.(type) {
	case *syntax.PassStmt:
	case *syntax.BranchStmt:
		if s.Tok == "break" {
			return sigBreak, nil
		}
		return sigContinue, nil
	case *syntax.ReturnStmt:
		if s.Value != nil {
			v := th.eval(s.Value, st)
			return sigReturn, &v
		}
		return sigReturn, nil
	case *syntax.DeclStmt:
		th.decl(s, st)
	case *syntax.AssignStmt:
		th.assign(s, st)
	case *syntax.ExprStmt:
		if c, ok := s.X.(*syntax.Call); ok {
			th.callStmt(c, st)
		} else {
			th.eval(s.X, st)
		}
	case *syntax.IfStmt:
		if truthy(th.eval(s.Cond, st)) {
			return th.block(s.Then, st)
		}
		return th.block(s.Else, st)
	case *syntax.WhileStmt:
		for truthy(th.eval(s.Cond, st)) {
			sig, v := th.block(s.Body, st)
			if sig == sigBreak {
				break
			}
			if sig == sigReturn {
				return sig, v
			}
		}
	case *syntax.ForStmt:
		v := info.Uses[s.Var]
		a := s.Iter.Args
		start, stop, step := 0.0, 0.0, 1.0
		switch len(a) {
		case 1:
			stop = th.eval(a[0], st).f
		case 2:
			start, stop = th.eval(a[0], st).f, th.eval(a[1], st).f
		case 3:
			start, stop, step = th.eval(a[0], st).f, th.eval(a[1], st).f, th.eval(a[2], st).f
		}
		if step == 0 {
			th.fail(s.Iter.Pos(), "P0303", "range step is zero")
		}
		for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
			th.vars[v] = &value{f: i}
			sig, rv := th.block(s.Body, st)
			if sig == sigBreak {
				break
			}
			if sig == sigReturn {
				return sig, rv
			}
		}
	case *syntax.MatchStmt:
		sp := info.Splits[s]
		unit := 1
		if sp.Branch[0].Level == check.Block {
			unit = th.m.T
		}
		for i, cs := range s.Cases {
			lo, hi := sp.Offsets[i]*unit, (sp.Offsets[i]+sp.Sizes[i])*unit
			if st.pos >= lo && st.pos < hi {
				inner := &state{code: sp.Branch[i], pos: st.pos - lo, live: st.live}
				return th.block(cs.Body, inner)
			}
		}
		// S-Split-None: masked off.
	case *syntax.WithStmt:
		return th.with(s, st)
	}
	return sigNone, nil
}

// syncPoint performs an inferred sync point: a barrier over the aligned
// unit of its scope that holds the thread.
func (th *thread) syncPoint(s syntax.Stmt, sp *dcfg.SyncPoint) {
	// The mbarriers of TMA loads into the memory: wait for their next
	// phase (prism_mbar_wait(b, b_phase); b_phase ^= 1).
	for _, b := range sp.Waits {
		th.waitBarVar(b, s.Pos())
	}
	if !sp.Barrier {
		return
	}
	sc := sp.Scope
	if sc.Level == check.Grid || (sc.Level == check.Thread && sc.N == 1) {
		return // no CUDA barrier spans a grid (P0201); one thread needs none
	}
	n := th.size(sc)
	g := th.b*th.m.T + th.t
	th.arrive(fmt.Sprintf("sync:%d:%d", s.Pos().Offset, g/n), n, s.Pos(), "inferred sync point over "+sc.String())
}

func blockWide(sp *dcfg.SyncPoint, T int) bool {
	return sp.Scope == (check.Persp{Level: check.Block, N: 1}) ||
		sp.Scope.Level == check.Thread && sp.Scope.N == T && T > 0
}

// splitOps performs the split-barrier operations placed before list[i], in
// the order the generated code has them: guarded arrives, snapshots, waits.
func (th *thread) splitOps(list []syntax.Stmt, i int) {
	if len(list) == 0 || len(th.m.splitAt) == 0 {
		return
	}
	ops := th.m.splitAt[splitKey{&list[0], i}]
	snapped := map[tmaKey]bool{}
	for _, kind := range []int{opArrive, opTMASnap, opSnapshot, opTMAWait, opWait} {
		for _, op := range ops {
			if op.kind != kind {
				continue
			}
			where := list[min(i, len(list)-1)].Pos()
			switch kind {
			case opTMASnap:
				// One snapshot per point and mbarrier, however many
				// memories it stands for.
				for _, b := range op.p.Waits {
					k := tmaKey{op.p.Before, b}
					if !snapped[k] {
						snapped[k] = true
						th.tsnap[k] = th.mph[b]
						th.mph[b] ^= 1
					}
				}
				continue
			case opTMAWait:
				for _, b := range op.p.Waits {
					v := th.vars[b]
					if v == nil || v.ptr == nil || v.ptr.buf.mbar == nil {
						th.fail(where, "P0302", "%s is not an mbarrier here", b.Name)
					}
					th.txWait(v.ptr.buf.mbar, th.tsnap[tmaKey{op.p.Before, b}], where)
				}
				continue
			}
			key := fmt.Sprintf("%d@%d", op.k, th.b)
			mb := th.m.mbars[key]
			if mb == nil {
				mb = &mbarrier{count: th.m.T}
				th.m.mbars[key] = mb
			}
			switch kind {
			case opArrive:
				// No second arrival in one phase: wait for the previous one.
				th.mbarWait(mb, th.ph[op.k]^1, where)
				mb.arrived++
				if mb.arrived == mb.count {
					mb.arrived = 0
					mb.phases++
				}
			case opSnapshot:
				th.snap[op.k] = th.ph[op.k]
				th.ph[op.k] ^= 1
			case opWait:
				th.mbarWait(mb, th.snap[op.k], where)
			}
		}
	}
}

// mbarWait blocks until the mbarrier phase with the given parity has
// completed (PTX mbarrier.test_wait.parity).
func (th *thread) mbarWait(mb *mbarrier, parity int, where diag.Pos) {
	if mb.phases&1 != parity {
		return
	}
	th.waitFor = func() bool { return mb.phases&1 != parity }
	th.waitAt = where
	th.hand(evBlock)
}

func truthy(v value) bool { return v.f != 0 }

func (th *thread) decl(s *syntax.DeclStmt, st *state) {
	v := th.m.info.Uses[s.Name]
	if v == nil {
		return
	}
	t := v.Type
	switch {
	case v.Kind == check.SharedAlloc:
		// S-Alloc-Shared fires only at (Block,1).
		if st.code != (check.Persp{Level: check.Block, N: 1}) {
			th.fail(s.Name.At, "P0301", "Bundl run is stuck: shared allocation %s at %s (S-Alloc-Shared needs block[1])", v.Name, st.code)
		}
		// The block's threads share one allocation per declaration.
		buf := th.m.shared[th.b][v]
		if buf == nil {
			n := t.Len
			if t.Elem.Kind == check.Barrier {
				n = 1
			}
			buf = &Buffer{Name: v.Name, Elem: t.Base().Name, Int: !t.Base().IsFloat(), Data: make([]float64, n), shared: true}
			if t.Elem.Kind == check.Barrier {
				buf.mbar = newTxBar(v.Name)
			}
			th.m.shared[th.b][v] = buf
		}
		th.vars[v] = &value{ptr: &pointer{buf: buf}}
	case t.Kind == check.Array:
		n := 1
		for a := t; a.Kind == check.Array; a = a.Elem {
			n *= a.Len
		}
		buf := &Buffer{Name: v.Name, Elem: t.Base().Name, Int: !t.Base().IsFloat(), Data: make([]float64, n)}
		if br, ok := s.Value.(*syntax.BraceExpr); ok {
			for i, el := range br.Elts {
				if i < n {
					buf.Data[i] = roundTo(buf.Elem, th.eval(el, st).f)
				}
			}
		}
		th.vars[v] = &value{arr: buf}
	default:
		if s.Value != nil {
			val := th.eval(s.Value, st)
			if t.Kind == check.Scalar && val.ptr == nil && val.tmap == nil {
				val.f = roundType(t, val.f)
			}
			th.vars[v] = &val
		} else {
			th.vars[v] = &value{}
		}
	}
}

func (th *thread) assign(s *syntax.AssignStmt, st *state) {
	info := th.m.info
	if v := info.Decls[s]; v != nil {
		if v.Lambda != nil {
			th.vars[v] = &value{}
			return
		}
		val := th.eval(s.RHS, st)
		th.vars[v] = &val
		return
	}
	rhs := th.eval(s.RHS, st)
	if s.Op != "=" {
		cur := th.eval(s.LHS, st)
		rhs = th.binop(s.OpPos, strings.TrimSuffix(s.Op, "="), cur, rhs, info.Types[s.LHS])
	}
	th.store(s.LHS, rhs, st)
}

// store writes v into the location lhs.
func (th *thread) store(lhs syntax.Expr, v value, st *state) {
	info := th.m.info
	switch x := lhs.(type) {
	case *syntax.Ident:
		vr := info.Uses[x]
		if t := vr.Type; t != nil && t.Kind == check.Scalar && v.ptr == nil && v.tmap == nil {
			v.f = roundType(t, v.f)
		}
		th.vars[vr] = &v
	case *syntax.ParenExpr:
		th.store(x.X, v, st)
	case *syntax.AttrExpr:
		th.store(x.X, v, st)
	case *syntax.IndexExpr:
		buf, i, shared := th.locate(x, st)
		if shared {
			// Thread-shared memory is written only from thread[1] (seed 001
			// §2.2; Bundl T-Arr-Assn).
			if st.code != (check.Persp{Level: check.Thread, N: 1}) {
				th.fail(x.Pos(), "P0301", "Bundl run is stuck: write to %s at %s (thread-shared writes need thread[1])", buf.Name, st.code)
			}
			th.yield()
		}
		if buf.Int {
			v.f = math.Trunc(v.f)
		}
		buf.Data[i] = roundTo(buf.Elem, v.f)
	}
}

// locate resolves an element reference to its buffer and index.
func (th *thread) locate(x *syntax.IndexExpr, st *state) (*Buffer, int, bool) {
	info := th.m.info
	var idx []syntax.Expr
	var base syntax.Expr = x
	for {
		ix, ok := base.(*syntax.IndexExpr)
		if !ok {
			break
		}
		idx = append([]syntax.Expr{ix.Index}, idx...)
		base = ix.X
	}
	id, _ := base.(*syntax.Ident)
	var vr *check.Var
	if id != nil {
		vr = info.Uses[id]
	}
	if vr == nil {
		th.fail(x.Pos(), "P0302", "cannot index %s", exprString(base))
	}
	val := th.vars[vr]
	if val == nil {
		th.fail(x.Pos(), "P0302", "%s has no value here", vr.Name)
	}
	if val.arr != nil {
		// Row-major multi-dimensional local array.
		off := 0
		t := vr.Type
		for _, ie := range idx {
			if t.Kind != check.Array {
				th.fail(x.Pos(), "P0302", "too many indices for %s", vr.Name)
			}
			i := int(th.eval(ie, st).f)
			if i < 0 || i >= t.Len {
				th.fail(ie.Pos(), "P0302", "index %d out of bounds of %s (length %d)", i, vr.Name, t.Len)
			}
			stride := 1
			for e := t.Elem; e.Kind == check.Array; e = e.Elem {
				stride *= e.Len
			}
			off += i * stride
			t = t.Elem
		}
		th.checkBusy(x.Pos(), val.arr, off)
		return val.arr, off, false
	}
	if val.ptr == nil || len(idx) != 1 {
		th.fail(x.Pos(), "P0302", "%s is not indexable memory", vr.Name)
	}
	i := th.index(vr, th.eval(idx[0], st), st)
	p := val.ptr
	k := p.off + i
	if k < 0 || k >= len(p.buf.Data) {
		th.fail(x.Pos(), "P0302", "%s[%d] is out of bounds of %s (length %d)", vr.Name, i, p.buf.Name, len(p.buf.Data))
	}
	return p.buf, k, true
}

// index applies the indexing function of a main-text partition view.
// transform reports whether elements of v are found through an indexing
// function.
func (th *thread) transform(v *check.Var) bool {
	if v == nil || v.Region == nil {
		return false
	}
	_, ok := th.viewOff[v]
	return v.Region.F != nil || ok
}

// Each use of a view applies its indexing function, and those of the views
// it was made from (seed 001 §3.4.2).
func (th *thread) index(v *check.Var, i value, st *state) int {
	for th.transform(v) {
		if off, ok := th.viewOff[v]; ok {
			i = value{f: i.f + float64(off)}
			v = v.Region.X
			continue
		}
		r := v.Region
		if len(r.F.Params) > 0 {
			pv := th.m.info.Uses[r.F.Params[0]]
			old := th.vars[pv]
			arg := i
			th.vars[pv] = &arg
			i = th.eval(r.F.Body, st)
			th.vars[pv] = old
		} else {
			i = th.eval(r.F.Body, st)
		}
		v = r.X
	}
	return int(i.f)
}

func exprString(x syntax.Expr) string {
	var b strings.Builder
	syntax.FprintExpr(&b, x)
	return b.String()
}

func (th *thread) with(s *syntax.WithStmt, st *state) (branchSignal, *value) {
	r := th.m.info.Regions[s]
	switch r.Kind {
	case "group":
		// S-Group: continue at p mod n.
		inner := &state{code: r.Target, pos: st.pos % th.size(r.Target), live: st.live}
		if r.Target.Level == check.Grid {
			inner.pos = st.pos
		}
		return th.block(s.Body, inner)
	case "wmma_async", "wgmma_async":
		// wgmma.fence; the body issues wgmmas; commit_group and
		// wait_group 0 at the end make their results visible.
		th.wgDepth++
		sig, v := th.block(s.Body, st)
		th.wgDepth--
		th.wgWait(s, st)
		return sig, v
	case "async":
		x := th.vars[r.X]
		th.vars[r.Y] = &value{ptr: x.ptr}
		th.deferred = append(th.deferred, nil)
		sig, v := th.block(s.Body, st)
		// S-Async-Partition-Unwind: run the deferred copies.
		q := th.deferred[len(th.deferred)-1]
		th.deferred = th.deferred[:len(th.deferred)-1]
		for _, f := range q {
			th.yield()
			f()
		}
		return sig, v
	case "partition", "claim":
		x := th.vars[r.X]
		if x == nil || x.ptr == nil {
			th.fail(s.At, "P0302", "%s of %s, which holds no memory here", r.Kind, r.X.Name)
		}
		off := 0
		if r.Offset != nil {
			off = int(th.eval(r.Offset, st).f)
		}
		if r.F != nil {
			th.vars[r.Y] = &value{ptr: &pointer{buf: x.ptr.buf, off: x.ptr.off}}
			// Views through f index their original: keep the original's
			// base so that f(i) is relative to it.
		} else if th.transform(r.X) {
			// A view of a view through f: y[i] is x[off + i].
			th.vars[r.Y] = &value{ptr: &pointer{buf: x.ptr.buf, off: x.ptr.off}}
			th.viewOff[r.Y] = off
		} else {
			th.vars[r.Y] = &value{ptr: &pointer{buf: x.ptr.buf, off: x.ptr.off + off}}
		}
		sig, v := th.block(s.Body, st)
		// The scope ends however the body left it (break, continue, return).
		// S-Partition / S-Claim: init; s; dec; wait — over the threads of
		// the code perspective that opened the scope.
		if !th.m.cfg.CompiledSync {
			th.arrive("region:"+fmt.Sprint(s.At.Offset)+":"+th.unitKey(st), th.size(st.code), s.At, r.Kind+" barrier of "+r.Y.Name)
		}
		return sig, v
	}
	return sigNone, nil
}
