package progen

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
)

// Program is one generated kernel file.
type Program struct {
	Src string
	// T is the kernel's threads per block; it runs on 2 blocks with
	// g : ptr(float) @ grid[1] of Words() floats and n : int @ grid[1].
	T int
	// Planted is the rule the generator broke on purpose, if any: the
	// checker must reject the program with exactly this code at this line.
	Planted *Violation
	// Constructs counts what the program exercises, by typing rule (the
	// keys of Rules), for coverage accounting.
	Constructs map[string]int
}

// Violation is a deliberately broken typing rule.
type Violation struct {
	Code string // the checker's code for the rule (P01xx)
	Line int    // 1-based line of the diagnostic
	Rule string // the rule of seed 001 it breaks
}

// Words is the length of the kernel's global buffer g for T threads.
func Words(T int) int { return 2 * 4 * T }

// Rules lists every construct the generator covers; a run over many
// programs should exercise each in accepted programs.
var Rules = []string{
	"T-Group grid>block", "T-Group block>thread", "T-Group thread>thread",
	"T-Split thread@block", "T-Split thread@thread", "T-Split in group copy", "T-Split warp",
	"T-Partition", "T-Claim+split", "T-Claim+partition", "T-Async cp.async",
	"T-If", "T-While", "T-For", "break", "continue", "return (kernel)", "return (device)",
	"call exact", "call broader (group)", "call broader (block)",
	"mma@warp", "mma@broader", "mma@block", "wgmma@warpgroup", "wgmma@block",
	"setmaxnreg@warpgroup", "setmaxnreg@block", "__syncthreads", "read up", "write down",
}

// Generate returns a random well-typed kernel named k (no planted
// violation) and its threads per block; see GenerateAny.
func Generate(seed int64) (src string, threads int) {
	p := GenerateAny(seed, 0)
	return p.Src, p.T
}

// GenerateAny returns a random kernel. With probability plant (0..1) it
// breaks one typing rule at a random place and says which in Planted.
func GenerateAny(seed int64, plant float64) Program {
	r := rand.New(rand.NewSource(seed))
	g := &progGen{r: r, count: map[string]int{}}
	g.wantPlant = r.Float64() < plant
	g.generate()
	return Program{Src: g.b.String(), T: g.T, Planted: g.planted, Constructs: g.count}
}

// progGen generates random Prism kernels from every construct of seed
// 001's calculus: groups from the grid to blocks, from the block to thread
// groups and between thread groups; splits of threads and warps at block
// and thread code, inside group copies, with offsets; partitions and claims
// of shared and global memory written at thread[1]; reads up; uniform
// conditions and loops with break and continue; returns; async copies;
// mma, wgmma and setmaxnreg; calls of warp-level functions from exact and
// broader perspectives; __syncthreads. It knows where every instance of
// the code lies (the thread offsets of its copies within the block), so it
// chooses legal splits itself and, when asked, breaks one rule and predicts
// the checker's code and line.
type progGen struct {
	r         *rand.Rand
	b         strings.Builder
	line      int // lines written so far
	T         int
	n         int // fresh names
	depth     int
	count     map[string]int
	wantPlant bool
	planted   *Violation
	wg        bool // the kernel has wgmma operands sA, sB (T % 128 == 0)
}

// ctx is the code a statement is generated for: its perspective (size in
// threads, or block[1] code), where its instances start within the block,
// and what is in scope.
type ctx struct {
	ind    int
	size   int   // threads per instance
	block  bool  // block[1] code (size == T)
	starts []int // thread offsets of the instances within the block
	loop   *int  // size of the innermost loop's code, nil outside loops
	claim  *claimCtx
}

type claimCtx struct {
	name   string
	starts []int // instance starts of the claiming code
	used   bool
}

func (c ctx) in(size int, starts []int) ctx {
	c.ind++
	c.size, c.starts, c.block = size, starts, false
	return c
}

func (c ctx) persp() string {
	if c.block {
		return "block[1]"
	}
	return fmt.Sprintf("thread[%d]", c.size)
}

func (g *progGen) emit(ind int, format string, args ...any) int {
	g.b.WriteString(strings.Repeat("    ", ind))
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
	g.line++
	return g.line
}

func (g *progGen) fresh(p string) string {
	g.n++
	return fmt.Sprintf("%s%d", p, g.n)
}

func (g *progGen) note(rule string) { g.count[rule]++ }

// plant reports whether to break a rule here (at most once per program).
func (g *progGen) plant(p float64) bool {
	return g.wantPlant && g.planted == nil && g.r.Float64() < p
}

func (g *progGen) planted1(code string, line int, rule string) {
	g.planted = &Violation{Code: code, Line: line, Rule: rule}
}

func divisors(n int) []int {
	var d []int
	for i := 1; i <= n; i++ {
		if n%i == 0 {
			d = append(d, i)
		}
	}
	return d
}

func aligned(starts []int, off, size int) bool {
	for _, s := range starts {
		if (s+off)%size != 0 {
			return false
		}
	}
	return true
}

func shift(starts []int, off int) []int {
	out := make([]int, len(starts))
	for i, s := range starts {
		out[i] = s + off
	}
	return out
}

func copies(starts []int, size, w int) []int {
	var out []int
	for _, s := range starts {
		for j := 0; j < size; j += w {
			out = append(out, s+j)
		}
	}
	sort.Ints(out)
	return out
}

func (g *progGen) generate() {
	g.T = []int{8, 32, 64, 96, 128, 32, 64, 256}[g.r.Intn(8)]
	if g.T == 256 && g.r.Intn(3) != 0 {
		g.T = 128
	}
	T := g.T
	g.wg = T%128 == 0
	g.emit(0, `@prism("device")`)
	g.emit(0, `@requires(thread[32])`)
	g.emit(0, `def warp_fill(c : ptr(float) @ thread[32], v : float @ thread[32]):`)
	if g.r.Intn(2) == 0 {
		g.emit(1, `if v > 6:`)
		g.emit(2, `return`)
		g.note("return (device)")
	}
	g.emit(1, `with group(thread[32]):`)
	g.emit(2, `lane : int @ thread[1] = id()`)
	g.emit(2, `with partition(c, dimension=thread[1], offset=lane) as c_th:`)
	g.emit(3, `with group(thread[1]):`)
	if g.plant(0.15) {
		g.emit(4, `if lane == 3:`)
		l := g.emit(5, `return`)
		g.planted1("P0129", l, "return escapes the function's perspective (§3.4, Fig. 11)")
	}
	g.emit(4, `c_th[0] = v + lane`)
	g.emit(1, `return`)
	g.emit(0, "")
	g.emit(0, `@prism("device")`)
	g.emit(0, `@requires(thread[32])`)
	g.emit(0, `def warp_mma(v : float @ thread[32]):`)
	g.emit(1, `a : float[4] @ thread[1]`)
	g.emit(1, `with group(thread[1]):`)
	g.emit(2, `a[0] = v`)
	g.emit(1, `intrinsic.mma(a[0], a[1], a[2], a[3], a[0], a[1], a[0], a[1], a[2], a[3], out=[a[0], a[1], a[2], a[3]])`)
	g.emit(0, "")
	smem := 2*4*T*4 + 64 // (+64: room for a planted allocation, so it breaks one rule only)
	if g.wg {
		smem += 2 * (64*64 + 256*64)
	}
	g.emit(0, `@prism("global")`)
	g.emit(0, `@requires(grid[1], block[1], thread[%d], smem=%d)`, T, smem)
	g.emit(0, `def k(g : ptr(float) @ grid[1], n : int @ grid[1]):`)
	if g.r.Intn(4) == 0 {
		g.emit(1, `if n == 5:`)
		g.emit(2, `return`)
		g.note("return (kernel)")
	}
	g.emit(1, `with group(grid[1]):`)
	g.emit(2, `bid : int @ block[1] = id()`)
	g.emit(2, `with partition(g, dimension=block[1], offset=bid * %d) as gb:`, 4*T)
	g.emit(3, `with group(block[1]):`)
	g.note("T-Group grid>block")
	g.emit(4, `s0 : shared(float[%d]) @ block[1]`, 4*T)
	g.emit(4, `s1 : shared(float[%d]) @ block[1]`, 4*T)
	if g.wg {
		g.emit(4, `sA : shared(bf16[4096], align=128) @ block[1]`)
		g.emit(4, `sB : shared(bf16[16384], align=128) @ block[1]`)
	}
	g.emit(4, `t : int @ thread[1] = id()`)
	g.emit(4, `u : int @ block[1] = n %% 3`)
	c := ctx{ind: 4, size: T, block: true, starts: []int{0}}
	k := 3 + g.r.Intn(8)
	for i := 0; i < k; i++ {
		g.blockStmt(c)
	}
	g.emit(1, `return`)
}

func (g *progGen) mem() string {
	return []string{"s0", "s1", "gb"}[g.r.Intn(3)]
}

// blockStmt emits one statement at block[1] code.
func (g *progGen) blockStmt(c ctx) {
	T, ind := g.T, c.ind
	g.depth++
	defer func() { g.depth-- }()
	choice := g.r.Intn(16)
	if g.depth > 3 {
		choice = g.r.Intn(3)
	}
	switch choice {
	case 0: // partition to thread[1] and write
		m, v := g.mem(), g.fresh("v")
		g.emit(ind, `with partition(%s, dimension=thread[1], offset=t * 4) as %s:`, m, v)
		g.note("T-Partition")
		if g.plant(0.1) {
			l := g.emit(ind+1, `%s[0] = 1`, v)
			g.planted1("P0115", l, "thread-shared memory is written from thread[1] only (§2.2)")
			return
		}
		g.emit(ind+1, `with group(thread[1]):`)
		for j := 0; j < 1+g.r.Intn(3); j++ {
			val := g.value()
			if g.r.Intn(2) == 0 {
				// Copy from another memory, so what the block computes
				// depends on the order the synchronization imposes.
				src := g.mem()
				for src == m {
					src = g.mem()
				}
				val = fmt.Sprintf("%s[(t * %d + %d) %% %d] + %d", src, 1+g.r.Intn(7), g.r.Intn(4*T), 4*T, g.r.Intn(5))
			}
			g.emit(ind+2, `%s[%d] = %s`, v, g.r.Intn(4), val)
		}
	case 1: // read up into a thread variable
		m := g.mem()
		g.emit(ind, `%s : float @ thread[1] = %s[(t * %d + %d) %% %d]`, g.fresh("x"), m, 1+g.r.Intn(7), g.r.Intn(4*T), 4*T)
		g.note("read up")
	case 2:
		if g.plant(0.1) {
			g.emit(ind, `with group(thread[1]):`)
			l := g.emit(ind+1, `__syncthreads()`)
			g.planted1("P0113", l, "__syncthreads needs block[1] (§3.6)")
			return
		}
		g.emit(ind, `__syncthreads()`)
		g.note("__syncthreads")
	case 3: // uniform loop, maybe left early
		g.forLoop(c, g.blockStmt, g.blockStmt)
	case 4: // uniform condition
		if g.plant(0.1) {
			l := g.emit(ind, `if t == %d:`, g.r.Intn(3))
			g.emit(ind+1, `pass`)
			g.planted1("P0105", l, "read up: a thread[1] condition at block[1] (Fig. 11)")
			return
		}
		g.emit(ind, `if u == %d:`, g.r.Intn(3))
		g.note("T-If")
		inner := c
		inner.ind++
		g.blockStmt(inner)
		g.emit(ind, `else:`)
		g.blockStmt(inner)
	case 5, 6: // split of the block's threads (or warps)
		g.split(c)
	case 7: // group into narrower thread groups
		g.group(c)
	case 8: // claim for one warp
		g.claim(c)
	case 9: // async copies from global into a shared partition
		m, v, a := []string{"s0", "s1"}[g.r.Intn(2)], g.fresh("v"), g.fresh("a")
		g.emit(ind, `with partition(%s, dimension=thread[1], offset=t * 4) as %s:`, m, v)
		g.emit(ind+1, `with group(thread[1]):`)
		g.emit(ind+2, `with async(%s) as %s:`, v, a)
		g.emit(ind+3, `match split(thread):`)
		g.emit(ind+4, `case 1:`)
		g.emit(ind+5, `cp.async(%s, gb[((t + %d) %% %d) * 4], 16)`, a, g.r.Intn(T), T)
		g.note("T-Async cp.async")
	case 10: // uniform while
		w := g.fresh("w")
		g.emit(ind, `%s : int @ block[1] = 0`, w)
		g.emit(ind, `while %s < %d:`, w, 1+g.r.Intn(2))
		g.note("T-While")
		inner := c
		inner.ind++
		sz := c.size
		inner.loop = &sz
		g.emit(ind+1, `%s += 1`, w)
		g.blockStmt(inner)
		g.loopExit(inner, w)
	case 11, 12: // collectives at block[1], replicated over aligned units
		g.collective(c)
	case 13: // write down / shared allocation in a scope
		if g.plant(0.15) {
			g.emit(ind, `with group(thread[1]):`)
			l := g.emit(ind+1, `%s : shared(float[4]) @ block[1]`, g.fresh("z"))
			g.planted1("P0110", l, "shared memory is allocated at block[1] only (Fig. 6)")
			return
		}
		x := g.fresh("x")
		g.emit(ind, `%s : int @ thread[1] = u + 1`, x)
		g.note("write down")
		if g.plant(0.15) {
			y := g.fresh("y")
			g.emit(ind, `%s : int @ block[1] = 0`, y)
			l := g.emit(ind, `%s = %s`, y, x)
			// (The write itself is legal; reading x into a block[1]
			// destination is the violation.)
			g.planted1("P0106", l, "write down: a thread[1] value into a block[1] variable (Fig. 12)")
		}
	case 14: // return from block code (never legal in the kernel)
		if g.plant(0.3) {
			g.emit(ind, `if u == %d:`, g.r.Intn(3))
			l := g.emit(ind+1, `return`)
			g.planted1("P0129", l, "return escapes the function's perspective (§3.4)")
			return
		}
		g.emit(ind, `pass`)
	case 15: // group at block code that broadens or does not divide
		if g.plant(0.3) {
			if g.r.Intn(2) == 0 {
				l := g.emit(ind, `with group(thread[%d]):`, 2*T)
				g.planted1("P0101", l, "group may only narrow (Fig. 7 ex. 1)")
			} else {
				l := g.emit(ind, `with group(block[2]):`)
				g.planted1("P0101", l, "group may only narrow: widening within a level (Fig. 7 ex. 1)")
			}
			g.emit(ind+1, `pass`)
			return
		}
		g.group(c)
	}
}

// forLoop emits a uniform for loop at c's perspective: body, maybe an
// early exit, then after (if any).
func (g *progGen) forLoop(c ctx, body, after func(ctx)) {
	i := g.fresh("i")
	g.emit(c.ind, `for %s in range(0, %d, 1):`, i, 1+g.r.Intn(3))
	g.note("T-For")
	inner := c
	inner.ind++
	sz := c.size
	inner.loop = &sz
	body(inner)
	g.loopExit(inner, i)
	if after != nil {
		after(inner)
	}
}

// loopExit maybe leaves a loop early, legally from the loop's own
// perspective or (planted) from a narrower one.
func (g *progGen) loopExit(c ctx, v string) {
	if g.r.Intn(3) != 0 {
		return
	}
	tok := []string{"break", "continue"}[g.r.Intn(2)]
	if c.size > 1 && g.plant(0.3) {
		g.emit(c.ind, `with group(thread[1]):`)
		l := g.emit(c.ind+1, `%s`, tok)
		g.planted1("P0125", l, "break/continue from a narrower perspective than the loop (§3.4)")
		return
	}
	g.emit(c.ind, `if %s == 1:`, v)
	g.emit(c.ind+1, `%s`, tok)
	g.note(tok)
}

// value is a thread[1] value to store.
func (g *progGen) value() string {
	switch g.r.Intn(3) {
	case 0:
		return fmt.Sprint(g.r.Intn(10))
	case 1:
		return fmt.Sprintf("t * %d", g.r.Intn(5))
	}
	return "u + t"
}

// split emits a split of c's threads (or warps): legal branches aligned in
// every instance, or (planted) one that is not.
func (g *progGen) split(c ctx) {
	unit, kw := 1, "split(thread)"
	if c.size%32 == 0 && g.r.Intn(3) == 0 {
		unit, kw = 32, []string{"warp", "split(warp)"}[g.r.Intn(2)]
	}
	units := c.size / unit
	g.emit(c.ind, `match %s:`, kw)
	if unit == 32 {
		g.note("T-Split warp")
	}
	if c.block {
		g.note("T-Split thread@block")
	} else {
		g.note("T-Split thread@thread")
	}
	if len(c.starts) > 1 {
		g.note("T-Split in group copy")
	}
	off := 0
	for off < units {
		var legal, illegal []int
		for k := 1; off+k <= units; k++ {
			// Fig. 10: a branch starts at a multiple of its size within
			// the instance; §3.2: and within the block, in every copy.
			if off%k == 0 && aligned(c.starts, off*unit, k*unit) {
				legal = append(legal, k)
			} else {
				illegal = append(illegal, k)
			}
		}
		if len(illegal) > 0 && g.plant(0.3) {
			k := illegal[g.r.Intn(len(illegal))]
			l := g.emit(c.ind+1, `case %d:`, k)
			g.emit(c.ind+2, `pass`)
			g.planted1("P0104", l, "split branch aligned to its size in every instance (§3.2, T-Split)")
			return
		}
		if len(legal) == 0 {
			break
		}
		if g.plant(0.05) {
			l := g.emit(c.ind+1, `case %d:`, units-off+1)
			g.emit(c.ind+2, `pass`)
			g.planted1("P0103", l, "split requests no more than the perspective holds (Fig. 9)")
			return
		}
		k := legal[g.r.Intn(len(legal))]
		g.emit(c.ind+1, `case %d:`, k)
		inner := c.in(k*unit, shift(c.starts, off*unit))
		inner.ind++
		g.threadStmt(inner)
		off += k
		if g.r.Intn(4) == 0 {
			break
		}
	}
}

// group emits group(thread[w]) at c for a divisor w of its size.
func (g *progGen) group(c ctx) {
	d := divisors(c.size)
	if g.plant(0.1) && c.size > 2 {
		// A size that does not divide the code's.
		for w := 2; w < c.size; w++ {
			if c.size%w != 0 {
				l := g.emit(c.ind, `with group(thread[%d]):`, w)
				g.emit(c.ind+1, `pass`)
				g.planted1("P0102", l, "group target divides the perspective (Fig. 7 ex. 2)")
				return
			}
		}
	}
	w := d[g.r.Intn(len(d))]
	if w%32 == 0 && g.r.Intn(2) == 0 {
		g.emit(c.ind, `with group(warp[%d]):`, w/32)
	} else {
		g.emit(c.ind, `with group(thread[%d]):`, w)
	}
	if c.block {
		g.note("T-Group block>thread")
	} else {
		g.note("T-Group thread>thread")
	}
	inner := c.in(w, copies(c.starts, c.size, w))
	inner.loop = nil
	if c.loop != nil {
		inner.loop = c.loop
	}
	g.threadStmt(inner)
}

// collective emits mma, wgmma, setmaxnreg or a call of the warp function
// from c: legal when c's instances hold whole aligned units.
func (g *progGen) collective(c ctx) {
	switch g.r.Intn(4) {
	case 0, 1: // mma / warp function
		call := g.r.Intn(2) == 0
		ok := c.size%32 == 0 && aligned(c.starts, 0, 32)
		if !ok {
			if c.size%32 != 0 && g.plant(0.5) {
				var l int
				if call {
					l = g.emit(c.ind, `warp_mma(1)`)
				} else {
					a := g.fresh("a")
					g.emit(c.ind, `%s : float[4] @ thread[1]`, a)
					l = g.emit(c.ind, `intrinsic.mma(%s)`, mmaArgs(a))
				}
				g.planted1("P0113", l, "mma needs an aligned warp (§3.6)")
				return
			}
			g.emit(c.ind, `pass`)
			return
		}
		switch {
		case c.block:
			g.note("mma@block")
		case c.size == 32:
			g.note("mma@warp")
		default:
			g.note("mma@broader")
		}
		if call {
			switch {
			case c.size == 32:
				g.note("call exact")
			case c.block:
				g.note("call broader (block)")
			default:
				g.note("call broader (group)")
			}
			g.emit(c.ind, `warp_mma(%d)`, g.r.Intn(5))
			return
		}
		a := g.fresh("a")
		g.emit(c.ind, `%s : float[4] @ thread[1]`, a)
		g.emit(c.ind, `with group(thread[1]):`)
		g.emit(c.ind+1, `%s[0] = t`, a)
		g.emit(c.ind, `intrinsic.mma(%s)`, mmaArgs(a))
	case 2: // wgmma
		if !g.wg || c.size%128 != 0 {
			g.emit(c.ind, `pass`)
			return
		}
		if c.block {
			g.note("wgmma@block")
		} else {
			g.note("wgmma@warpgroup")
		}
		d := g.fresh("d")
		g.emit(c.ind, `%s : float[1][16][8] @ thread[1]`, d)
		g.emit(c.ind, `with wmma_async():`)
		g.emit(c.ind+1, `intrinsic.wmma256(sA[0], sB[0], 0, 1, 1, 0, 0, out=[%s[0]])`, d)
	case 3: // setmaxnreg
		if c.size%128 != 0 {
			if c.size%32 == 0 && g.plant(0.3) {
				l := g.emit(c.ind, `warpgroup_reg_alloc(template=[232])`)
				g.planted1("P0113", l, "setmaxnreg needs a warpgroup (B.5)")
				return
			}
			g.emit(c.ind, `pass`)
			return
		}
		if c.block {
			g.note("setmaxnreg@block")
		} else {
			g.note("setmaxnreg@warpgroup")
		}
		g.emit(c.ind, `warpgroup_reg_%s(template=[%d])`, []string{"alloc", "dealloc"}[g.r.Intn(2)], 24+8*g.r.Intn(20))
	}
}

func mmaArgs(a string) string {
	return fmt.Sprintf("%[1]s[0], %[1]s[1], %[1]s[2], %[1]s[3], %[1]s[0], %[1]s[1], %[1]s[0], %[1]s[1], %[1]s[2], %[1]s[3], out=[%[1]s[0], %[1]s[1], %[1]s[2], %[1]s[3]]", a)
}

// claim emits a claim of one warp's part of a shared array, used by one
// warp (legal) or by every copy of a group, or by sibling branches, or from
// block code (planted).
func (g *progGen) claim(c ctx) {
	T := g.T
	if T%32 != 0 {
		g.emit(c.ind, `pass`)
		return
	}
	m, y := []string{"s0", "s1"}[g.r.Intn(2)], g.fresh("c")
	g.emit(c.ind, `with claim(%s, p=thread[32], offset=%d) as %s:`, m, 32*g.r.Intn(4*T/32), y)
	ind := c.ind + 1
	if g.wantPlant && g.planted == nil {
		switch g.r.Intn(4) {
		case 0:
			if T >= 64 {
				g.emit(ind, `with group(thread[32]):`)
				l := g.emit(ind+1, `warp_fill(%s, %d)`, y, g.r.Intn(9))
				g.planted1("P0108", l, "a claim is used by one collection: not replicated by a group (§3.4.2)")
				return
			}
		case 1:
			if T >= 64 {
				g.emit(ind, `match split(warp):`)
				g.emit(ind+1, `case 1:`)
				g.emit(ind+2, `warp_fill(%s, 1)`, y)
				g.emit(ind+1, `case 1:`)
				l := g.emit(ind+2, `warp_fill(%s, 2)`, y)
				g.planted1("P0108", l, "a claim is used in one split branch (§3.4.2)")
				return
			}
		case 2:
			l := g.emit(ind, `warp_fill(%s, 1)`, y)
			g.planted1("P0108", l, "a claim is used by the claimed perspective only (§3.4.2)")
			return
		}
	}
	// One warp, chosen by a split (possibly through a one-copy group or a
	// split of two warps and a group of one).
	w := 32 * (1 + g.r.Intn(T/32))
	if w > 64 {
		w = 32
	}
	g.emit(ind, `match split(thread):`)
	g.emit(ind+1, `case %d:`, w)
	ind += 2
	if w == 64 {
		g.emit(ind, `match split(warp):`)
		g.emit(ind+1, `case 1:`)
		g.emit(ind+2, `pass`)
		g.emit(ind+1, `case 1:`)
		ind += 2
	}
	if g.r.Intn(2) == 0 {
		g.emit(ind, `warp_fill(%s, %d)`, y, g.r.Intn(9))
		g.note("T-Claim+split")
		return
	}
	v := g.fresh("v")
	g.emit(ind, `lane%s : int @ thread[1] = id()`, v)
	g.emit(ind, `with partition(%s, dimension=thread[1], offset=lane%s) as %s:`, y, v, v)
	g.emit(ind+1, `with group(thread[1]):`)
	g.emit(ind+2, `%s[0] = lane%s * 2 + u`, v, v)
	g.note("T-Claim+partition")
}

// threadStmt emits a statement at thread[c.size] code.
func (g *progGen) threadStmt(c ctx) {
	g.depth++
	defer func() { g.depth-- }()
	choice := g.r.Intn(8)
	if g.depth > 4 {
		choice = 0
	}
	switch choice {
	case 0:
		g.emit(c.ind, `pass`)
	case 1:
		x := g.fresh("y")
		g.emit(c.ind, `%s : int @ thread[1] = id() * %d`, x, 1+g.r.Intn(3))
		g.emit(c.ind, `with group(thread[1]):`)
		g.emit(c.ind+1, `if %s > %d:`, x, g.r.Intn(8))
		g.emit(c.ind+2, `%s = %s + 1`, x, x)
	case 2, 3:
		g.collective(c)
	case 4:
		g.group(c)
	case 5:
		g.split(c)
	case 6: // a uniform loop at this perspective, maybe left early
		g.forLoop(c, g.threadStmt, nil)
	case 7: // return from narrower code: never legal in the kernel
		if g.plant(0.3) {
			l := g.emit(c.ind, `return`)
			g.planted1("P0129", l, "return escapes the function's perspective (§3.4)")
			return
		}
		g.emit(c.ind, `pass`)
	}
}
