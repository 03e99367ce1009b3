package sem

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/rand"
	"sort"
	"strings"
	"time"

	"weft.dev/weft/lang/cudac/lib"

	"weft.dev/weft/diag"
	"weft.dev/weft/gpu"
)

// Options configure a run.
type Options struct {
	Stdout io.Writer
	// Stderr receives fprintf(stderr, ...) output (nil: discarded).
	Stderr io.Writer
	// Check turns on race detection and uninitialized-read warnings
	// (`weft check`); memory-space, bounds, use-after-free, division and
	// deadlock checks are always on.
	Check bool
	// Random selects the random schedule with Seed; otherwise the
	// deterministic round-robin schedule.
	Random bool
	Seed   int64
	// Quantum is how many visible instructions (memory accesses,
	// builtins: vm.go sharedOp) a device thread runs, with the private
	// ones around them, before the next thread of its block gets a turn
	// (0: 1, which approximates the lock-step progress of a warp and
	// reproduces seed 004's Figure 1 output); kernel-only runs count every
	// instruction. Any value is sound: the race check does not depend on
	// the interleaving.
	Quantum int
	// MaxSteps bounds the instructions of the whole run (0: 2e9).
	MaxSteps uint64
	// Deadline bounds the run's wall time (zero: none), checked where
	// the step limit is; Timeout is the limit it came from, for the
	// message (issue 14). A run past it is C0605 at the running thread.
	Deadline time.Time
	Timeout  time.Duration
	// Args are main's argv (argv[0] first; empty: "a.out" alone).
	Args []string
	// Getenv answers getenv (nil: every variable is unset).
	Getenv func(string) (string, bool)
	// Device is the GPU the runtime answers for (nil: lib.H100).
	Device *lib.Device
	// Files confines fopen (nil: every fopen fails with a diagnostic).
	Files *lib.FS
	// MaxMemory bounds the bytes of the program's live objects, host and
	// device (0: DefaultMaxMemory); an allocation beyond it is C0610.
	MaxMemory int64
	// Kernel-only verification (package verify, issue 16):
	// NondetSeed picks the values bodiless functions return (annot.go);
	// WarpSync > 0 runs lanes of one warp of that many threads in lock
	// step, so their accesses are ordered (GPUVerify's --warp-sync=N);
	// Blocks, when not nil, lists the linear ids of the blocks of a
	// kernel-only grid that run (the others are never started: a run of
	// some blocks is a prefix of a run of all, so what it reports is real);
	// LargeBlocks accepts blocks of more than 1024 threads, as GPUVerify's
	// headers do.
	NondetSeed  int64
	WarpSync    int
	Blocks      []int
	LargeBlocks bool
	// BenignWrites tolerates two unordered stores of the same value to the
	// same bytes, as GPUVerify does by default (its --no-benign turns it
	// off): both orders leave memory the same.
	BenignWrites bool
}

// DefaultMaxMemory is the default of Options.MaxMemory: far more than a
// program the interpreter runs in reasonable time touches, far less than
// would exhaust the machine (issue 14).
const DefaultMaxMemory = 2 << 30

// Machine is the configuration of a running program (seed 004 Fig. 2: the
// grids, streams and threads cells).
type Machine struct {
	clockAt uint64 // m.steps at which overTime next reads the clock
	prog    *Program
	opts    Options
	diags   *diag.List
	out     *bufio.Writer
	objs    []*Object
	live    int64 // bytes of the objects not freed (Options.MaxMemory)
	globals []*Object
	steps   uint64
	failed  bool
	rng     *rand.Rand

	host    *Thread
	hostCtx accessCtx // the running host thread's (pthread.go)
	pth     *pthreads // host threads (pthread.go; nil: only main)
	streams []*stream // index 0: the legacy default stream
	events  []*event
	// CUDA graphs (graph.go): graphs, nodes and conditional handles, each
	// named by its index + 1
	asyncSeen    map[[2]int32]bool      // reported wgmma operand overwrites (asm.go)
	cpCompleting bool                   // cpComplete is writing a copy's destination (asm.go)
	proxySeen    map[[2]int32]bool      // reported async-proxy reads of unfenced writes (proxy.go)
	asyncWriting bool                   // a TMA load is writing shared memory (proxy.go)
	raceT        *Thread                // the thread whose access raceCheck checks (reportRace names its call sites)
	raceRaw      int32                  // that access's own position (inside a built-in header: before programPosIdx; addrspace.go)
	libIdx       []bool                 // position indices inside built-in headers (nil: none; addrspace.go)
	blockSpare   *blockMem              // a finished block's storage, for the next block (startBlock)
	uni          map[*Object]*uniShadow // uniform histories of objects without cells (race_bulk.go)
	lazy         map[*Object]*uniShadow // the histories of objects' cells not made yet (race_bulk.go)
	lazyO        *Object                // lazy's last entry looked up
	lazyU        *uniShadow
	lazyMin      int                       // lazyMin; tests lower it
	locPool      [locPoolMax + 1][]*Object // freed local objects by size, for reuse (mem.go releaseLocal)
	graphs       []*cudaGraph
	nodes        []*graphNode
	conds        []*condHandle
	seq          int
	grids        []*gridRun
	defDone      []doneOp // completed default-stream operations (seq, vc)
	lastErr      int
	sticky       int // a sticky error: every runtime call fails with it (assert.go)
	cdpStreams   int // device-side streams created (cdp.go)
	// launchErr is the error of the last launch (cudaLaunchKernelEx
	// returns it); maxDynSmem the cudaFuncAttributeMaxDynamicSharedMemorySize
	// of each kernel; nextLaunch the attributes of the launch being made.
	launchErr  int
	pub        map[uint64]*pubVal // releases published at each strongly written address (fence.go)
	volAcc     bool               // the access being checked is volatile (fence.go, race.go)
	kernelOnly bool               // a kernel-only run (RunKernelOnly; vm.go runTurn)
	ovfSeen    map[int32]bool     // positions of reported signed overflows (overflow.go)
	inHostFn   bool               // a stream's host function runs (hostfn.go)
	warpUB     bool               // a warp collective's undefined behaviour was reported (C0630)
	maxDynSmem map[*Function]int
	nextLaunch launchExtra
	exitCode   int
	exited     bool

	crand     crand
	rtStrings map[string]uint64
	libst     *libState // library models' state: streams, format, sleeps (lib_sstream.go)

	stringObjs   []*Object
	initializing bool

	// spin detection (spin.go): the memory version, whether snapshots are
	// being taken, and how many threads were confirmed to repeat
	mver   uint64
	watch  bool
	cycles uint64
	tombs  map[tombKey]*Object
	// tombLocal is m.tombs' entry for unnamed locals, looked up at every
	// return of a call with addressable locals (mem.go release)
	tombLocal *Object

	// the race detector's segments and lists of further reads (race.go)
	segs     segTable
	segGen   uint32
	segGCAt  int
	segGCMin int  // segGCMin; tests lower it
	grpGCAt  int  // the group count at which curSeg collects (race_segs.go)
	grpGCMin int  // grpGCMinDef; tests lower it
	noGrp    bool // explicit segments only (a test compares the encodings)
	gcEvery  bool // collect at every new segment (tests)
	grpLimit int  // grpMax; tests lower it, to mix the encodings
	rmore    [][]stamp
	rfree    []uint32
	// tables of the read-list compaction (race.go compactReads)
	stampSeen *scanTab
	rset      readSet // compactReads' set of kept reads (race.go)

	races      map[[2]int32]bool
	wval       uint64 // the value a store is writing, while wvalOK (Options.BenignWrites)
	wvalOK     bool
	cowriters  map[coKey][]seg // granules stored with one benign value by several threads (kernelonly.go)
	pairs      pairLog         // two-thread predicate evaluations (pairs.go)
	uninitSeen map[int32]bool
	// copySrc is set while a copy reads its source (copyMem, a vector's
	// push_back): copying bytes that were never written is no read of
	// them; their init state goes with them (C0407 is reported where a
	// copy's uninitialized bytes are used)
	copySrc   bool
	faultSeen bool
	lastFault *diag.Diagnostic
}

type doneOp struct {
	seq int
	vc  []int32
}

// stream is a CUDA stream: a FIFO of operations run in order (seed 004
// §2.5), and the agent whose clock orders them for the race check.
type stream struct {
	id    int
	agent int32
	queue []*devOp
	vc    []int32
	live  bool
	// nonBlocking: created with cudaStreamNonBlocking, so it does not
	// synchronize with the legacy default stream (CUDA Runtime API,
	// "Stream synchronization behavior"); prio: its priority
	// (lib_streams.go)
	nonBlocking bool
	prio        int
}

// legacySync reports whether work of streams s and o is ordered by the
// legacy default stream's implicit synchronization: one of them is the
// default stream and the other is not a non-blocking stream.
func legacySync(s, o *stream) bool {
	return s.id == 0 && !o.nonBlocking || o.id == 0 && !s.nonBlocking
}

type event struct {
	recorded bool
	vc       []int32
	pending  *devOp // the latest cudaEventRecord not yet run
	time     float64
}

type opKind uint8

const (
	opKernel opKind = iota
	opCopy
	opSet
	opRecord
	opWait
	opFree   // cudaFreeAsync
	opHostFn // cudaLaunchHostFunc, cudaStreamAddCallback (hostfn.go)
)

// devOp is one queued stream operation.
type devOp struct {
	kind   opKind
	seq    int
	vc     []int32 // host clock at enqueue
	grid   *gridRun
	graph  *cudaGraph // opGraph (graph.go)
	dst    uint64
	src    uint64
	n      int
	val    byte
	ev     *event
	waitOn *devOp
	done   bool
	pos    int32
}

// gridRun is one kernel launch (a grid).
type gridRun struct {
	id         int
	fn         *Function
	gdim, bdim gpu.Dim3
	shmem      int
	args       []uint64
	agent      int32
	clock      int32
	gepoch     int32      // grid.sync epoch (gridsync.go)
	aborted    bool       // a device assert failed: the kernel stops (assert.go)
	children   []*gridRun // grids launched by its threads (cdp.go)
	// cluster and cooperative come from cudaLaunchKernelEx's attributes
	// (zero cluster: none).
	cluster     gpu.Dim3
	cooperative bool
	win         *sharedWin // the shared window's layout, the same in every CTA (asm.go)
}

// blockRun is one executing thread block.
type blockRun struct {
	grid    *gridRun
	id      int32
	idx     gpu.Dim3
	threads []*Thread
	shared  []*Object
	dyn     *Object
	epoch   int32
	wepoch  []int32
	bxvc    know // releases the block's threads acquired before its last barrier (fence.go)
	// inline PTX (asm.go): the shared window, named barriers, mbarriers,
	// and whether a release made threads runnable during a round
	named map[int]*namedBar
	// tileScratch holds the warp results of a cg::reduce over each tile
	// larger than a warp (cgbig.go)
	tileScratch map[int][]uint64
	mbars       map[uint64]*mbar
	wakeups     bool
	clBar       *clusterBar
	// clusters of more than one CTA (cluster.go): the cluster, this CTA's
	// rank in it, and how many of its threads exited
	cl   *clusterRun
	rank int32
	done int
	mem  *blockMem // the storage of its threads (startBlock, releaseBlock)
	// the race detector's last group segment of the block (race_segs.go),
	// valid while sgGen is the machine's segGen
	sgKey seg
	sgIdx uint32
	sgGen uint32
}

type thState uint8

const (
	tsRunning thState = iota
	tsBarrier
	tsWarp
	tsDone
	tsNamed   // a named barrier (barrier.cta.sync id, count)
	tsMbar    // an mbarrier phase (mbarrier.try_wait.parity)
	tsWG      // a warpgroup-wide wgmma (asm.go)
	tsGrid    // grid.sync() (gridsync.go)
	tsCluster // barrier.cluster.wait (tma.go)
)

// Thread is a host or device thread: an explicit interpreter state.
type Thread struct {
	frames    []frame
	stack     []uint64
	slots     []uint64
	undef     []uint64 // bit per slot: an OpUndef local not yet assigned (weft check)
	stopDepth int
	retVal    uint64
	// live try blocks and the exceptions being handled (exc.go)
	handlers []excHandler
	caught   []excVal
	pth      *pthread // a host thread once the program made one (pthread.go)

	alog   alogState       // accesses since the last barrier, for __read/__write (annot.go)
	visits map[int32]int32 // per two-thread predicate site: evaluations so far (pairs.go)

	host  bool
	block *blockRun
	tid   int32
	idx   gpu.Dim3
	ctx   *accessCtx

	// spin detection (spin.go): the saved state, whether the thread is
	// known to repeat while memory stays at version cycMver, and the last
	// read of shared or global memory since the snapshot
	// the race detector's current segment (race.go) and what it was made for
	seg                uint32
	segGen             uint32
	segEp, segWep      int32
	segClock, segAgent int32
	segLc              int32
	segGep             int32
	segV               seg    // the segment seg stands for
	rdAt               uint32 // where its last read went in a cell's list of reads (raceCheck)

	cyc          *spinSnap
	cycSpare     *spinSnap // the buffers of the last snapshot (spinCheck)
	cycling      bool
	cycSync      bool   // its loop passes a barrier or collective
	syncs        uint32 // barriers and collectives reached
	cycMver      uint64
	rdObj        uint32
	rdOff, rdPos int32
	spinObj      uint32
	spinOff      int32
	spinPos      int32
	loopPos      int32

	state   thState
	waitPos int32
	barKind int
	pred    uint64
	warpOp  int
	wargs   [4]uint64

	// inline PTX (asm.go): the asm statement being executed, cp.async
	// copies not yet committed and committed groups, what it waits for,
	// and its clocks for split synchronization (lc, bvc)
	asm        *asmState
	cpPending  []cpCopy
	cpGroups   [][]cpCopy
	barID      int
	mbarAddr   uint64
	mbarParity int
	lc         int32
	bvc        []int32
	clPhase    int        // the cluster-barrier phase this thread arrived for, + 1
	wgPend     []wgRead   // wgmma reads not yet committed
	wgGroups   [][]wgRead // committed wgmma groups not yet waited for
	// proxy.go: fence.proxy.async and fence.mbarrier_init counts, and
	// whether a wgmma.fence came after the last wgmma.wait_group
	proxyFences, mbarInitFences int32
	wgFenced                    bool
	// the releases the thread acquired; those its strong reads observed
	// since its last fence, from writers of its block and of others; and
	// those it released at its last gpu-scope fence and at its last fence
	// of any scope (fence.go)
	know, pendCta, pend, rel, relCta know

	sr   [srLane + 1]uint64 // the special registers (fillSregs)
	srOK bool
	// the temporaries a device thread made (OpTemp): freed when it exits
	// (dropTemps, mem.go)
	temps []*Object
}

// curPos is the position of the instruction t runs (0 when it has none).
func (t *Thread) curPos() int32 {
	if len(t.frames) == 0 {
		return 0
	}
	f := t.frames[len(t.frames)-1]
	if f.pc > 0 && f.pc <= len(f.fn.Code) {
		return f.fn.Code[f.pc-1].P
	}
	return f.fn.PosIdx
}

func (t *Thread) localSpace() Space {
	if t.host {
		return SpaceHost
	}
	return SpaceLocal
}

// fillSregs computes t's special registers once (they do not change while
// it runs), so the interpreter's inner loop reads them (runPure).
func (t *Thread) fillSregs() {
	t.srOK = true
	b := t.block
	if b == nil {
		t.sr = [srLane + 1]uint64{}
		return
	}
	// sreg's values, without its switch per register: every thread of a
	// wide grid fills them (issue 15 item 7)
	g := b.grid
	t.sr = [srLane + 1]uint64{
		srTidX: uint64(t.idx.X), srTidY: uint64(t.idx.Y), srTidZ: uint64(t.idx.Z),
		srBidX: uint64(b.idx.X), srBidY: uint64(b.idx.Y), srBidZ: uint64(b.idx.Z),
		srBdimX: uint64(g.bdim.X), srBdimY: uint64(g.bdim.Y), srBdimZ: uint64(g.bdim.Z),
		srGdimX: uint64(g.gdim.X), srGdimY: uint64(g.gdim.Y), srGdimZ: uint64(g.gdim.Z),
		srWarpSize: gpu.WarpSize, srLane: uint64(t.tid % 32),
	}
}

func (t *Thread) sreg(i int) uint64 {
	if t.block == nil {
		return 0
	}
	g := t.block.grid
	switch i {
	case srTidX:
		return uint64(t.idx.X)
	case srTidY:
		return uint64(t.idx.Y)
	case srTidZ:
		return uint64(t.idx.Z)
	case srBidX:
		return uint64(t.block.idx.X)
	case srBidY:
		return uint64(t.block.idx.Y)
	case srBidZ:
		return uint64(t.block.idx.Z)
	case srBdimX:
		return uint64(g.bdim.X)
	case srBdimY:
		return uint64(g.bdim.Y)
	case srBdimZ:
		return uint64(g.bdim.Z)
	case srGdimX:
		return uint64(g.gdim.X)
	case srGdimY:
		return uint64(g.gdim.Y)
	case srGdimZ:
		return uint64(g.gdim.Z)
	case srWarpSize:
		return gpu.WarpSize
	case srLane:
		return uint64(t.tid % 32)
	}
	return 0
}

func (b *blockRun) sharedPtr(m *Machine, i int, name int64) uint64 {
	if i < 0 {
		if b.dyn == nil {
			n := "extern __shared__"
			if name > 0 {
				n = m.prog.Literals[name-1]
			}
			b.dyn = m.newObject(b.grid.shmem, SpaceShared, n, -1)
			b.dyn.Block, b.dyn.Grid = b.id, int32(b.grid.id)
			b.dyn.grow = m.pairs.growShared // kernel-only: extent unknown (kernelonly.go)
		}
		return ptrOf(b.dyn, 0)
	}
	for len(b.shared) <= i {
		b.shared = append(b.shared, nil)
	}
	if b.shared[i] == nil {
		v := m.prog.Shared[i]
		m.overLimit(v.Type.size, v.Pos) // located at the declaration
		o := m.newObject(v.Type.size, SpaceShared, v.Name, -1)
		o.Block, o.Grid = b.id, int32(b.grid.id)
		b.shared[i] = o
	}
	return ptrOf(b.shared[i], 0)
}

// overTime reports whether the run is past its deadline; it reads the
// clock once per 2^18 instructions.
func (m *Machine) overTime() bool {
	if m.opts.Deadline.IsZero() || m.steps < m.clockAt {
		return false
	}
	m.clockAt = m.steps + 1<<18
	return time.Now().After(m.opts.Deadline)
}

// timeFault reports the time limit at thread t's current instruction.
func (m *Machine) timeFault(t *Thread) {
	m.fault(t, t.curPos(), "C0605", "execution time limit (%v) exceeded here (--timeout D raises it)", m.opts.Timeout)
}

// NewMachine prepares a run of prog.
func NewMachine(prog *Program, opts Options, diags *diag.List) *Machine {
	loadTables()
	if opts.Quantum <= 0 {
		opts.Quantum = 1
	}
	if opts.MaxSteps == 0 {
		opts.MaxSteps = 2e9
	}
	if opts.MaxMemory <= 0 {
		opts.MaxMemory = DefaultMaxMemory
	}
	if opts.Stdout == nil {
		opts.Stdout = io.Discard
	}
	if opts.Device == nil {
		opts.Device = &lib.H100
	}
	m := &Machine{prog: prog, opts: opts, diags: diags, out: bufio.NewWriter(opts.Stdout),
		races: map[[2]int32]bool{}, uninitSeen: map[int32]bool{}}
	m.objs = []*Object{nil} // id 0 is the null pointer
	m.segGen, m.segGCAt, m.segGCMin = 1, segGCMin, segGCMin
	m.grpGCAt, m.grpGCMin, m.grpLimit = grpGCMinDef, grpGCMinDef, grpMax
	m.lazyMin = lazyMin
	if opts.Random {
		// only the random schedule draws from it (seeding costs more than
		// running Figure 1's kernels)
		m.rng = rand.New(rand.NewSource(opts.Seed))
	}
	m.hostCtx = accessCtx{agent: 0, vc: []int32{1}}
	m.hostCtx.clock = 1
	m.host = &Thread{host: true, ctx: &m.hostCtx}
	m.streams = []*stream{{id: 0, agent: 1, vc: []int32{0, 1}, live: true}}
	for _, g := range prog.Globals {
		o := m.newObject(g.Type.size, g.Space, g.Name, g.Pos)
		// static storage is zero-initialized (C99 6.7.8p10)
		o.init.setAll()
		m.globals = append(m.globals, o)
	}
	m.stringObjs = make([]*Object, len(prog.Literals))
	for i, lit := range prog.Literals {
		o := m.newObject(len(lit)+1, SpaceAny, "string literal", -1)
		copy(o.Data, lit)
		m.stringObjs[i] = o
	}
	if opts.Check {
		m.markLibPositions() // addrspace.go
	}
	return m
}

// Steps is the number of instructions interpreted so far.
func (m *Machine) Steps() uint64 { return m.steps }

// ExitCode is main's return value or exit's argument.
func (m *Machine) ExitCode() int { return m.exitCode }

func (m *Machine) pos(i int32) diag.Pos {
	if i <= 0 || int(i) >= len(m.prog.Pos) {
		return diag.Pos{}
	}
	return m.prog.Pos[i]
}

func (m *Machine) fault(t *Thread, pos int32, code, format string, args ...any) {
	m.failed = true
	m.lastFault = nil
	if m.faultSeen {
		return
	}
	m.faultSeen = true
	msg := fmt.Sprintf(format, args...)
	if t != nil && !t.host && t.block != nil {
		g := t.block.grid
		msg += fmt.Sprintf(" (thread %s of block %s, kernel %s)", dimStr(t.idx, g.bdim), dimStr(t.block.idx, g.gdim), g.fn.Name)
	}
	at, from, inside := m.programPos(t, m.pos(pos))
	d := m.diags.Errorf(at, code, "%s%s", msg, inside)
	m.lastFault = d
	if t != nil {
		// the call chain, innermost first, as notes
		for k := from; k >= 0 && k >= from-4; k-- {
			f := t.frames[k]
			if f.pc > 0 && f.pc <= len(f.fn.Code) {
				d.Note(m.pos(f.fn.Code[f.pc-1].P), "called from %s", f.fn.Name)
			}
		}
	}
}

// programPos is where a diagnostic at p is reported for thread t: p
// itself, or, when p is inside a built-in header's code (a library model,
// syntax/stdalgo.go; <cuda/barrier>'s wrappers), the program's innermost
// call on t's call chain, with inside naming the header's function and
// position (lib_algorithm.go). from is the frame whose caller the "called
// from" notes start at (-1: none).
func (m *Machine) programPos(t *Thread, p diag.Pos) (at diag.Pos, from int, inside string) {
	if t == nil {
		return p, -1, ""
	}
	from = len(t.frames) - 2
	if !isLibPos(p) {
		return p, from, ""
	}
	for k := len(t.frames) - 2; k >= 0; k-- {
		f := t.frames[k]
		if f.pc <= 0 || f.pc > len(f.fn.Code) {
			break
		}
		if cp := m.pos(f.fn.Code[f.pc-1].P); !isLibPos(cp) {
			return cp, k - 1, fmt.Sprintf(" (inside the library's %s, %s)", libName(t.frames[k+1].fn.Name), p)
		}
	}
	return p, from, ""
}

func dimStr(d, ext gpu.Dim3) string {
	switch {
	case ext.Z > 1:
		return fmt.Sprintf("(%d,%d,%d)", d.X, d.Y, d.Z)
	case ext.Y > 1:
		return fmt.Sprintf("(%d,%d)", d.X, d.Y)
	}
	return fmt.Sprintf("%d", d.X)
}

// Run executes main and then waits for all device work, as a process exit
// does. It reports whether the run ended without a fatal error.
func (m *Machine) Run() bool {
	defer m.out.Flush()
	if !m.runInit() {
		return false
	}
	main := m.prog.Main
	if main == nil {
		m.diags.Errorf(diag.Pos{}, "C0310", "no main function")
		return false
	}
	var args []uint64
	for range main.Type.Params {
		args = append(args, 0)
	}
	if len(args) >= 2 {
		args[0], args[1] = m.argv()
	}
	v, ok := m.callHost(main, args)
	if !ok {
		return false
	}
	if !m.exited {
		m.exitCode = int(int32(v))
	}
	if !m.exited {
		m.drainAll()
	}
	if !m.exited && !m.failed && m.prog.Fini != nil {
		// the destructors of globals, after main returns (C++
		// [basic.start.term]); not after exit(), whose caller's frames
		// are abandoned here
		m.callHost(m.prog.Fini, nil)
	}
	return !m.failed
}

func (m *Machine) runInit() bool {
	if m.prog.Init == nil {
		return true
	}
	// initializers of globals run unchecked, like a loader copying .data
	saved := m.opts.Check
	m.opts.Check = false
	m.initializing = true
	_, ok := m.callHost(m.prog.Init, nil)
	m.initializing = false
	m.opts.Check = saved
	return ok
}

// callHost runs fn on the host thread to completion.
func (m *Machine) callHost(fn *Function, args []uint64) (uint64, bool) {
	return m.callOn(m.host, fn, args)
}

// callOn runs fn on host thread t to completion.
func (m *Machine) callOn(t *Thread, fn *Function, args []uint64) (uint64, bool) {
	t.stopDepth = len(t.frames)
	base := len(t.slots)
	for k := 0; k < fn.NSlots; k++ {
		t.slots = append(t.slots, 0)
	}
	copy(t.slots[base:], args)
	t.frames = append(t.frames, frame{fn: fn, base: base})
	for {
		// Slices of at most 2^22 instructions, ending just past the step
		// limit, so that the limits are checked in time.
		budget := 1 << 22
		// the main thread among host threads (pthread.go) runs in slices
		sched := m.pth != nil && t.pth != nil && t.stopDepth == 0
		if sched {
			budget = pthQuantum
		}
		if m.steps <= m.opts.MaxSteps && m.opts.MaxSteps-m.steps < uint64(budget) {
			budget = int(m.opts.MaxSteps-m.steps) + 1
		}
		s := m.run(t, budget)
		sched = m.pth != nil && t.pth != nil && t.stopDepth == 0
		switch s {
		case stDone:
			return t.retVal, true
		case stFault:
			return 0, false
		case stYield:
			if m.steps > m.opts.MaxSteps {
				m.fault(t, t.curPos(), "C0605", "execution step limit (%d instructions) exceeded (--max-steps N raises it)", m.opts.MaxSteps)
				return 0, false
			}
			if m.overTime() {
				m.timeFault(t)
				return 0, false
			}
			if m.exited {
				return 0, true
			}
			if sched {
				if _, good := m.runOthers(t.pth); !good {
					return 0, false
				}
				if m.exited {
					return 0, true
				}
			}
		case stBlocked:
			if m.exited {
				return 0, true // pthread_exit with no other thread
			}
			if sched && t.pth.wait != pwNone {
				if !m.hostWait(t) {
					return 0, false
				}
				if m.exited {
					return 0, true
				}
				continue
			}
			m.fault(t, 0, "C0309", "host thread blocked")
			return 0, false
		}
	}
}

// ---- streams ----

func (m *Machine) streamOf(h uint64) *stream {
	if h == 0 {
		return m.streams[0]
	}
	if h < uint64(len(m.streams)) && m.streams[h].live {
		return m.streams[h]
	}
	return nil
}

// enqueue puts op on s. The host clock ticks so that host accesses after
// the call are not ordered before the operation.
func (m *Machine) enqueue(s *stream, op *devOp) {
	if m.captured(s, op) { // a capturing stream records op in a graph (graph_more.go)
		return
	}
	m.seq++
	op.seq = m.seq
	m.hostCtx.clock++
	m.hostCtx.vc = vcSet(m.hostCtx.vc, m.hostCtx.agent, m.hostCtx.clock) // (the running host thread's agent: pthread.go)
	op.vc = append([]int32(nil), m.hostCtx.vc...)
	s.queue = append(s.queue, op)
}

// runnable reports whether the head op of s may run now: a default-stream
// operation waits for all older work (legacy default stream semantics),
// other streams wait for older default-stream work and for awaited events;
// non-blocking streams and the default stream do not wait for each other.
func (m *Machine) runnable(s *stream) bool {
	if len(s.queue) == 0 {
		return false
	}
	op := s.queue[0]
	for _, o := range m.streams {
		if o == s || len(o.queue) == 0 {
			continue
		}
		if legacySync(s, o) && o.queue[0].seq < op.seq {
			return false
		}
	}
	if op.kind == opWait && op.waitOn != nil && !op.waitOn.done {
		return false
	}
	return true
}

// step runs one runnable stream operation; it returns false when none can
// run.
func (m *Machine) step() bool {
	var cands []*stream
	for _, s := range m.streams {
		if m.runnable(s) {
			cands = append(cands, s)
		}
	}
	if len(cands) == 0 {
		return false
	}
	var s *stream
	if m.opts.Random {
		s = cands[m.rng.Intn(len(cands))]
	} else {
		sort.Slice(cands, func(i, j int) bool { return cands[i].queue[0].seq < cands[j].queue[0].seq })
		s = cands[0]
	}
	op := s.queue[0]
	s.queue = s.queue[1:]
	m.exec(s, op)
	return true
}

func (m *Machine) exec(s *stream, op *devOp) {
	s.vc = vcJoin(s.vc, op.vc)
	if s.id == 0 {
		for _, o := range m.streams {
			if !o.nonBlocking {
				s.vc = vcJoin(s.vc, o.vc)
			}
		}
	} else if !s.nonBlocking {
		for k := len(m.defDone) - 1; k >= 0; k-- {
			if m.defDone[k].seq < op.seq {
				s.vc = vcJoin(s.vc, m.defDone[k].vc)
				break
			}
		}
	}
	if op.kind == opWait && op.ev != nil {
		s.vc = vcJoin(s.vc, op.ev.vc)
	}
	ctx := &accessCtx{agent: s.agent, clock: vcGet(s.vc, s.agent), vc: s.vc}
	if !m.failed && m.sticky == 0 { // after a sticky error no device work runs (assert.go)
		switch op.kind {
		case opKernel:
			op.grid.agent, op.grid.clock = ctx.agent, ctx.clock
			m.runGrid(op.grid, ctx)
			m.runChildren(op.grid, s) // cdp.go
		case opGraph:
			applyDefaults(op.graph)
			m.runGraph(s, op.graph)
		case opCopy, opSet:
			t := &Thread{ctx: ctx, host: false}
			if op.kind == opCopy {
				m.copyMem(t, op.dst, op.src, op.n, op.pos, true)
			} else {
				m.setMem(t, op.dst, op.val, op.n, op.pos, true)
			}
		case opRecord:
		case opFree:
			t := &Thread{ctx: ctx, host: false}
			m.free(t, op.dst, SpaceDevice, "cudaFreeAsync", op.pos)
		case opHostFn:
			m.runHostFn(s, op, ctx)
		}
	}
	s.vc[s.agent]++
	if op.kind == opRecord {
		op.ev.vc = append([]int32(nil), s.vc...)
		op.ev.recorded = true
		op.ev.time = float64(m.steps)
		if op.ev.pending == op {
			op.ev.pending = nil
		}
	}
	op.done = true
	if s.id == 0 {
		m.defDone = append(m.defDone, doneOp{seq: op.seq, vc: append([]int32(nil), s.vc...)})
	}
}

// drainAll runs all queued device work (cudaDeviceSynchronize) and joins
// every stream's clock into the host's.
func (m *Machine) drainAll() {
	for !m.failed && m.step() {
	}
	for _, s := range m.streams {
		m.hostCtx.vc = vcJoin(m.hostCtx.vc, s.vc)
	}
}

// drainStream runs work until s is empty (cudaStreamSynchronize).
func (m *Machine) drainStream(s *stream) {
	for !m.failed && len(s.queue) > 0 && m.step() {
	}
	m.hostCtx.vc = vcJoin(m.hostCtx.vc, s.vc)
}

// drainUntil runs work until op is done.
func (m *Machine) drainUntil(op *devOp) {
	for !m.failed && !op.done && m.step() {
	}
}

// ---- kernels ----

func (m *Machine) gridOf(agent, clock int32) *gridRun {
	for _, g := range m.grids {
		if g.agent == agent && g.clock == clock {
			return g
		}
	}
	return nil
}

// maxGridBlocks bounds the blocks of one grid the interpreter runs;
// maxKernelOnlyThreads the threads of a kernel-only launch, whose default
// buffers hold an element per thread.
const (
	maxGridBlocks        = 1 << 24
	maxKernelOnlyThreads = 1 << 26
)

// launchSize is the number of blocks and threads of a launch, saturating
// instead of overflowing for absurd extents.
func launchSize(grid, block gpu.Dim3) (blocks, threads uint64) {
	mul := func(a, b uint64) uint64 {
		if a != 0 && b > math.MaxUint64/a {
			return math.MaxUint64
		}
		return a * b
	}
	blocks = 1
	for _, d := range []int{grid.X, grid.Y, grid.Z} {
		blocks = mul(blocks, uint64(max(d, 0)))
	}
	threads = blocks
	for _, d := range []int{block.X, block.Y, block.Z} {
		threads = mul(threads, uint64(max(d, 0)))
	}
	return blocks, threads
}

// launch validates a <<<>>> configuration and queues the grid. args holds
// gx gy gz bx by bz shmem stream followed by the kernel arguments.
func (m *Machine) launch(t *Thread, fn *Function, args []uint64, pos int32) bool {
	if m.inHostFn {
		m.hostFnAPI(t, pos, "kernel launch of "+fn.Name) // hostfn.go
		return false
	}
	g := &gridRun{fn: fn, gdim: gpu.Dim3{X: int(uint32(args[0])), Y: int(uint32(args[1])), Z: int(uint32(args[2]))},
		bdim: gpu.Dim3{X: int(uint32(args[3])), Y: int(uint32(args[4])), Z: int(uint32(args[5]))}, shmem: int(args[6])}
	s := m.streamOf(args[7])
	extra := m.nextLaunch
	m.nextLaunch = launchExtra{}
	m.launchErr = 0
	g.cluster, g.cooperative = extra.cluster, extra.cooperative
	if g.cluster.Size() == 0 {
		g.cluster = fn.ClusterDims // the kernel's __cluster_dims__, if any
	}
	bad := ""
	errCode := 9 // cudaErrorInvalidConfiguration
	switch {
	case g.gdim.Size() == 0:
		bad = "grid with zero blocks"
	case g.bdim.Size() == 0:
		bad = "block with zero threads"
	case (g.bdim.Size() > gpu.MaxThreadsPerCTA || g.bdim.Z > 64) && !m.opts.LargeBlocks:
		bad = fmt.Sprintf("%d threads per block exceed the limit of %d", g.bdim.Size(), gpu.MaxThreadsPerCTA)
	case g.shmem > gpu.SmemPerCTAMax:
		bad = fmt.Sprintf("%d bytes of dynamic shared memory exceed the limit of %d", g.shmem, gpu.SmemPerCTAMax)
	case g.gdim.X > 1<<31-1:
		bad = "grid x extent above 2^31-1"
	case g.gdim.Y > 65535 || g.gdim.Z > 65535:
		bad = "grid y or z extent above 65535"
	case s == nil && t.host: // (device-side streams: cdp.go)
		bad = "launch on an invalid stream"
	case clusterCheck(g) != "":
		bad = clusterCheck(g)
	case t.host && g.shmem > m.opts.Device.SmemPerBlock && g.shmem > m.maxDynSmem[fn]:
		// above 48 KB a kernel must opt in (CUDA C++ Programming Guide,
		// "Shared Memory": cudaFuncAttributeMaxDynamicSharedMemorySize)
		bad = fmt.Sprintf("%d bytes of dynamic shared memory without cudaFuncSetAttribute(%s, cudaFuncAttributeMaxDynamicSharedMemorySize, ...) (the default limit is %d)", g.shmem, fn.Name, m.opts.Device.SmemPerBlock)
		errCode = 1 // cudaErrorInvalidValue
	}
	// A legal launch can still be beyond what the interpreter can run:
	// every thread executes at least one instruction, so a grid of more
	// threads than the step limit cannot finish, and the block order alone
	// of a larger grid would not fit in memory. (The extents are at most
	// 2^31 x 2^16 x 2^16 and 1024 threads: the product fits in uint64.)
	if bad == "" {
		if blocks, threads := launchSize(g.gdim, g.bdim); blocks > maxGridBlocks || min(threads, uint64(m.threadsRun(g.gdim, g.bdim))) > m.opts.MaxSteps {
			m.fault(t, pos, "C0605", "kernel %s: a grid of %d blocks of %d threads is beyond what the interpreter runs (at most %d blocks, and fewer threads than the step limit of %d)", fn.Name, blocks, g.bdim.Size(), maxGridBlocks, m.opts.MaxSteps)
			return false
		}
	}
	if bad != "" {
		if !t.host {
			m.fault(t, pos, "C0603", "%s", bad)
			return false
		}
		// as on a GPU the launch fails and the program goes on; the error
		// is visible to cudaGetLastError
		m.diags.Warnf(m.pos(pos), "C0603", "kernel %s not launched: %s", fn.Name, bad)
		m.lastErr = errCode
		m.launchErr = errCode
		return true
	}
	g.args = append([]uint64(nil), args[8:]...)
	g.id = len(m.grids) + 1
	// struct arguments are passed by value: copy them into parameter space
	for k, pt := range fn.Type.Params {
		if pt.Kind == Struct && k < len(g.args) {
			o := m.newObject(pt.size, SpaceAny, "kernel parameter", pos)
			if src, ok := m.resolve(t, g.args[k], pt.size, pos, false, true); ok {
				copy(o.Data, src)
			} else {
				return false
			}
			g.args[k] = ptrOf(o, 0)
		}
	}
	m.grids = append(m.grids, g)
	if !t.host {
		// a child grid (dynamic parallelism): it runs after its parent
		// (cdp.go)
		m.cdpLaunch(t, g, args[7])
		return true
	}
	m.enqueue(s, &devOp{kind: opKernel, grid: g, pos: pos})
	return true
}

// RunKernel launches fn alone (kernel-only files) and waits for it.
func (m *Machine) RunKernel(fn *Function, gdim, bdim gpu.Dim3, shmem int, args []uint64) bool {
	return m.runKernel(fn, gdim, bdim, shmem, args, nil)
}

// runKernel is RunKernel with a hook run after the initializers of globals
// (kernel-only inputs, kernelonly.go).
func (m *Machine) runKernel(fn *Function, gdim, bdim gpu.Dim3, shmem int, args []uint64, afterInit func()) bool {
	defer m.out.Flush()
	if !m.runInit() {
		return false
	}
	if afterInit != nil {
		afterInit()
	}
	la := []uint64{uint64(gdim.X), uint64(gdim.Y), uint64(gdim.Z), uint64(bdim.X), uint64(bdim.Y), uint64(bdim.Z), uint64(shmem), 0}
	la = append(la, args...)
	if !m.launch(m.host, fn, la, fn.PosIdx) {
		return false
	}
	m.drainAll()
	m.checkPairs(gdim, bdim) // pairs.go
	return !m.failed
}

// runGrid executes all blocks of g. Blocks of one grid cannot synchronize
// with each other, so they run one after another (in random order under
// the random schedule); the race check still treats them as concurrent. A
// block whose threads can only spin waits for memory another block may
// change: it is parked and resumed after a change (spin.go).
func (m *Machine) runGrid(g *gridRun, ctx *accessCtx) {
	n := g.gdim.Size()
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	if m.opts.Random {
		m.rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
	}
	if m.opts.Blocks != nil {
		order = order[:0]
		for _, b := range m.opts.Blocks {
			if b >= 0 && b < n {
				order = append(order, b)
			}
		}
		n = len(order)
	}
	if g.clustered() {
		// co-scheduling (cluster.go): the CTAs of a cluster start together,
		// so the order visits clusters; the rest of a cluster waits in ready
		seen := map[int32]bool{}
		k := 0
		for _, bi := range order[:n] {
			if id, _ := g.clusterOf(int32(bi)); !seen[id] {
				seen[id] = true
				order[k] = bi
				k++
			}
		}
		order, n = order[:k], k
	}
	next := 0
	var parked, atGrid, ready, waiting []*blockExec
	done := 0
	defer func() { m.watch = false }()
	for {
		if m.failed || m.exited {
			return
		}
		var e *blockExec
		for i, p := range parked {
			if p.parkMver != m.mver {
				e = p
				parked = append(parked[:i], parked[i+1:]...)
				// its threads were spinning: look at once
				m.watch = true
				e.winEnd, e.winMver = m.steps+spinWindow, m.mver
				break
			}
		}
		for i, w := range waiting {
			if e == nil && w.b.wakeups {
				e = w
				waiting = append(waiting[:i], waiting[i+1:]...)
				break
			}
		}
		if e == nil && len(ready) > 0 {
			e, ready = ready[0], ready[1:]
		}
		if e == nil && next < n {
			if g.clustered() {
				cl := m.startCluster(g, int32(order[next]), ctx)
				e, ready = cl.execs[0], append(ready, cl.execs[1:]...)
			} else {
				e = m.startBlock(g, int32(order[next]), ctx)
			}
			next++
		}
		if e == nil && len(waiting) > 0 && len(parked) == 0 {
			m.clusterDeadlock(g, waiting)
			return
		}
		if e == nil && len(atGrid) > 0 {
			if len(atGrid) == n && len(parked) == 0 {
				m.releaseGrid(g, atGrid)
				parked, atGrid = atGrid, nil
				for _, p := range parked {
					p.parkMver = m.mver - 1 // resume each at once
				}
				continue
			}
			if len(parked) == 0 {
				m.gridDeadlock(g, atGrid, done, len(parked))
				return
			}
		}
		if e == nil {
			if len(parked) > 0 {
				m.livelock(g, parked)
			}
			return
		}
		switch m.runBlock(e) {
		case bsGrid:
			atGrid = append(atGrid, e)
		case bsCluster:
			waiting = append(waiting, e)
		case bsDone:
			done++
			// no other thread may touch this block's shared memory (C0409),
			// so its history can go; in a cluster, once every CTA of it
			// finished (distributed shared memory, cluster.go)
			free := []*blockRun{e.b}
			if cl := e.b.cl; cl != nil {
				if cl.done++; cl.done < len(cl.blocks) {
					free = nil
				} else {
					free = cl.blocks
				}
			}
			for _, fb := range free {
				for _, o := range append(fb.shared, fb.dyn) {
					if o != nil {
						m.dropShadow(o)
						o.init = nil
					}
				}
			}
			if e.b.cl == nil {
				m.releaseBlock(e)
			}
		case bsStuck:
			e.parkMver = m.mver
			parked = append(parked, e)
		case bsEnd:
			return
		}
	}
}

// blockExec is the scheduler's state of one started block.
type blockExec struct {
	b     *blockRun
	order []int // the runnable threads
	// the spin detector's window (spin.go)
	winEnd   uint64
	winMver  uint64
	parkMver uint64
	events   uint64
}

type blockStatus uint8

const (
	bsDone    blockStatus = iota // every thread finished
	bsStuck                      // every thread spins, waits or exited (spin.go)
	bsEnd                        // the run ends: a fault, a deadlock, exit or the step limit
	bsGrid                       // every thread waits at grid.sync (gridsync.go)
	bsCluster                    // every thread waits, done, or waits for another CTA of its cluster (cluster.go)
)

func (m *Machine) startBlock(g *gridRun, bi int32, ctx *accessCtx) *blockExec {
	nt := g.bdim.Size()
	fn := g.fn
	sw := fn.NSlots + 8 + 16
	// the block's threads and their first slots, frames and stacks are
	// allocated together (a wide grid of small blocks spent much of its
	// time allocating them one by one: issue 15 item 7); each slice is
	// capped at its own part, so growing one copies it out. The storage of
	// the last finished block of the same shape is reused, cleared
	// (releaseBlock): allocating fresh memory for every block of a wide
	// grid was a fifth of asyncAPI's weft check.
	bm := m.blockSpare
	if bm != nil && len(bm.ts) == nt && bm.sw == sw {
		m.blockSpare = nil
		clear(bm.ts)
		clear(bm.words)
		clear(bm.frs)
		clear(bm.wepoch)
	} else {
		bm = &blockMem{sw: sw, ts: make([]Thread, nt), words: make([]uint64, nt*sw), frs: make([]frame, nt*4),
			threads: make([]*Thread, nt), wepoch: make([]int32, (nt+31)/32), order: make([]int, 0, nt)}
	}
	b := &blockRun{grid: g, id: bi, idx: g.gdim.Unlinear(int(bi)), wepoch: bm.wepoch, mem: bm}
	b.threads = bm.threads
	ts, words, frs := bm.ts, bm.words, bm.frs
	for i := 0; i < nt; i++ {
		t := &ts[i]
		t.block, t.tid, t.idx, t.ctx = b, int32(i), g.bdim.Unlinear(i), ctx
		w := words[i*sw : (i+1)*sw : (i+1)*sw]
		t.slots = w[: fn.NSlots : fn.NSlots+8]
		copy(t.slots, g.args)
		t.frames = append(frs[i*4:i*4:i*4+4], frame{fn: fn})
		t.stack = w[fn.NSlots+8 : fn.NSlots+8 : sw]
		b.threads[i] = t
	}
	e := &blockExec{b: b, order: bm.order[:0]}
	e.rebuild()
	m.watch = false
	e.winEnd, e.winMver = m.steps+spinWindow, m.mver
	return e
}

// blockMem is the storage of a block's threads: the threads, their first
// slots, stacks and frames, the thread and warp-epoch tables and the run
// order (startBlock).
type blockMem struct {
	sw      int // words per thread: slots, then stack
	ts      []Thread
	words   []uint64
	frs     []frame
	threads []*Thread
	wepoch  []int32
	order   []int
}

// releaseBlock keeps the storage of e's finished block for the next block
// startBlock starts. Nothing refers to a finished block's threads any
// more: every frame returned (its locals released), the scheduler dropped
// the block, the race checker's segments name threads by index, and
// m.raceT is set afresh at each check before a report reads it. The
// exception is __weft_nondet's per-thread call count (annot.go), keyed by
// the thread's address: a run that made one keeps every block's storage.
func (m *Machine) releaseBlock(e *blockExec) {
	b := e.b
	bm := b.mem
	if bm == nil || m.pairs.calls != nil {
		return
	}
	bm.order = e.order[:0]
	b.mem, b.threads, e.order = nil, nil, nil
	m.blockSpare = bm
}

// rebuild lists the runnable threads in ascending id: a round visits only
// them, so a phase where few threads run (thread 0's loop in Figure 1)
// costs per instruction, not per thread of the block. Visiting runnable
// threads in id order is the round-robin schedule; threads become runnable
// again only at a barrier or warp release, after the round.
func (e *blockExec) rebuild() {
	e.order = e.order[:0]
	for i, t := range e.b.threads {
		if t.state == tsRunning {
			e.order = append(e.order, i)
		}
	}
}

// runBlock runs the threads of a started block until all are done, the
// block can only spin (spin.go), or the run ends.
func (m *Machine) runBlock(e *blockExec) blockStatus {
	b := e.b
	g := b.grid
	nt := len(b.threads)
	q := m.opts.Quantum
	for {
		order := e.order
		if m.opts.Random {
			m.rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		// A lone runnable thread cannot interleave with anyone: run it for
		// a long slice (the others wait for it at a barrier or collective,
		// or have exited).
		alone := len(order) == 1
		warped := false
		changed := false // a thread blocked or finished
		keep := order[:0]
		for _, i := range order {
			t := b.threads[i]
			budget := q
			if m.opts.Random {
				budget = 1 + m.rng.Intn(2*q+8)
			}
			if alone {
				budget = max(budget, 4096)
			}
			switch m.runTurn(t, budget) {
			case stDone:
				t.state = tsDone
				b.done++
				if len(t.temps) > 0 {
					m.dropTemps(t)
				}
				if b.cl != nil || b.clBar != nil {
					m.clusterExit(b)
				}
				changed = true
				warped = true // an exit can complete a coalesced_threads() (cgcoal.go)
				if len(t.wgPend) > 0 || len(t.wgGroups) > 0 {
					m.wgmmaUnwaited(t)
				}
			case stFault:
				if !g.aborted || m.failed {
					return bsEnd
				}
				// a failed device assert: the rest of the round runs, so
				// other threads failing with it print too (assert.go)
				t.state = tsDone
			case stYield:
				keep = append(keep, i)
			case stBlocked:
				warped = true // a new arrival, or a lane that leaves a coalesced_threads() group
				changed = true
			}
			if m.exited {
				return bsEnd
			}
		}
		e.order = keep
		if g.aborted {
			return bsEnd
		}
		if b.wakeups {
			b.wakeups = false
			e.rebuild()
		}
		if m.steps > m.opts.MaxSteps {
			m.fault(nil, g.fn.PosIdx, "C0605", "execution step limit (%d instructions) exceeded in kernel %s (--max-steps N raises it)", m.opts.MaxSteps, g.fn.Name)
			return bsEnd
		}
		if m.overTime() {
			t := b.threads[0]
			if len(e.order) > 0 {
				t = b.threads[e.order[0]]
			}
			m.timeFault(t)
			return bsEnd
		}
		// Only a new arrival at a warp collective can complete one.
		if warped && m.releaseWarps(b) {
			if m.warpUB {
				return bsEnd
			}
			e.rebuild()
			continue
		}
		if len(e.order) > 0 {
			if m.steps >= e.winEnd {
				// the detector looks only after a window in which no
				// memory changed
				m.watch = m.mver == e.winMver
				e.winEnd, e.winMver = m.steps+spinWindow, m.mver
			}
			if m.watch && (changed || m.cycles != e.events) {
				e.events = m.cycles
				if m.stuck(b) {
					return bsStuck
				}
			}
			continue
		}
		// nobody can run: all threads are done, at a barrier, or at a warp
		// collective
		if m.releaseBarrier(b) {
			e.rebuild()
			continue
		}
		if atGridSync(b) {
			return bsGrid
		}
		if clusterWaits(b) {
			return bsCluster
		}
		done := 0
		for _, t := range b.threads {
			if t.state == tsDone {
				done++
			}
		}
		if done == nt {
			return bsDone
		}
		m.deadlock(b)
		return bsEnd
	}
}

// releaseBarrier releases the block if every thread waits at the same
// __syncthreads (seed 004 §2.6: the block is released when all its threads
// reached a barrier).
func (m *Machine) releaseBarrier(b *blockRun) bool {
	var site int32 = -1
	count := uint64(0)
	for _, t := range b.threads {
		if t.state != tsBarrier {
			return false
		}
		if site == -1 {
			site = t.waitPos
		} else if t.waitPos != site {
			return false
		}
		if t.pred != 0 {
			count++
		}
	}
	n := uint64(len(b.threads))
	m.barrierSync(b)
	b.epoch++
	for _, t := range b.threads {
		var v uint64
		switch t.barKind {
		case barCount:
			v = count
		case barAnd:
			v = b2u(count == n)
		case barOr:
			v = b2u(count > 0)
		}
		t.stack = append(t.stack, v)
		t.state = tsRunning
	}
	return true
}

// deadlock reports why no thread of b can move (seed 004 §3.2).
func (m *Machine) deadlock(b *blockRun) {
	g := b.grid
	type group struct {
		pos    int32
		at     diag.Pos // the program's position of the wait
		inside string
		what   string
		tids   []int
	}
	groups := map[string]*group{}
	var keys []string
	var done []int
	for i, t := range b.threads {
		var what string
		switch t.state {
		case tsDone:
			done = append(done, i)
			continue
		case tsBarrier:
			what = "__syncthreads"
		case tsWarp:
			what = warpOpNames[t.warpOp]
		case tsNamed:
			what = namedBarWhat(t.barID)
		case tsMbar:
			what = fmt.Sprintf("an mbarrier phase of parity %d (mbarrier wait)", t.mbarParity)
		case tsWG:
			what = "wgmma.mma_async (a warpgroup-wide instruction)"
		case tsGrid:
			what = "grid.sync()"
		case tsCluster:
			what = "named barrier of the cluster (barrier.cluster.wait)"
		}
		// a wait inside a built-in header (<cuda/barrier>'s wrappers) is
		// reported at the program's call of it
		at, _, inside := m.programPos(t, m.pos(t.waitPos))
		k := fmt.Sprintf("%d/%s/%d", t.waitPos, what, at.Offset)
		if groups[k] == nil {
			groups[k] = &group{pos: t.waitPos, at: at, inside: inside, what: what}
			keys = append(keys, k)
		}
		groups[k].tids = append(groups[k].tids, i)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := groups[keys[i]], groups[keys[j]]
		if a.at.File == b.at.File && a.at.Offset != b.at.Offset {
			return a.at.Offset < b.at.Offset
		}
		return a.pos < b.pos
	})
	first := groups[keys[0]]
	code := "C0502"
	var msg string
	isWarp := func(g *group) bool {
		return strings.HasPrefix(g.what, "__s") && g.what != "__syncthreads" || g.what == "mma.sync/ldmatrix" || strings.HasPrefix(g.what, "wgmma") || strings.HasPrefix(g.what, "cooperative_groups::")
	}
	if isWarp(first) || len(keys) > 1 && isWarp(groups[keys[1]]) {
		code = "C0503"
	}
	split := false // a thread waits at a named barrier or an mbarrier
	for _, gr := range groups {
		split = split || strings.HasPrefix(gr.what, "named") || strings.HasPrefix(gr.what, "an mbarrier") || strings.HasPrefix(gr.what, "the sync() of tile")
	}
	switch {
	case split && code == "C0502":
		msg = fmt.Sprintf("deadlock in block %s of kernel %s: a barrier or mbarrier phase that threads wait for can never complete", dimStr(b.idx, g.gdim), g.fn.Name)
		if len(done) > 0 {
			msg += fmt.Sprintf(" (%s exited)", tidList(done, g.bdim))
		}
	case len(done) > 0 && code == "C0502":
		msg = fmt.Sprintf("deadlock: barrier divergence in block %s of kernel %s: threads wait at __syncthreads() while %s exited", dimStr(b.idx, g.gdim), g.fn.Name, tidList(done, g.bdim))
	case code == "C0502":
		msg = fmt.Sprintf("deadlock: barrier divergence in block %s of kernel %s: threads wait at different __syncthreads() calls", dimStr(b.idx, g.gdim), g.fn.Name)
	default:
		msg = fmt.Sprintf("deadlock in block %s of kernel %s: no thread can move", dimStr(b.idx, g.gdim), g.fn.Name)
		if len(done) > 0 {
			msg += fmt.Sprintf(" (%s exited)", tidList(done, g.bdim))
		}
	}
	d := m.diags.Errorf(first.at, code, "%s", msg)
	for _, k := range keys {
		gr := groups[k]
		d.Note(gr.at, "%s wait at %s%s", tidList(gr.tids, g.bdim), gr.what, gr.inside)
	}
	m.splitNotes(b, d)
	m.failed = true
	m.faultSeen = true
}

func tidList(ids []int, ext gpu.Dim3) string {
	var parts []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if ext.Y > 1 || ext.Z > 1 {
			for k := i; k <= j; k++ {
				parts = append(parts, dimStr(ext.Unlinear(ids[k]), ext))
			}
		} else if j > i {
			parts = append(parts, fmt.Sprintf("%d-%d", ids[i], ids[j]))
		} else {
			parts = append(parts, fmt.Sprintf("%d", ids[i]))
		}
		i = j + 1
	}
	w := "threads "
	if len(ids) == 1 {
		w = "thread "
	}
	return w + strings.Join(parts, ", ")
}
