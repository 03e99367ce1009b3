// Package progen generates random Prism kernels that follow the typing
// rules of seed 001, for property tests (the soundness theorem in package
// bundl, lowering and nvcc compilation in package lower).
package progen

import (
	"fmt"
	"math/rand"
	"strings"
)

// Generate returns a random kernel named k with parameters
// g : ptr(float) @ grid[1] (2 * 4 * threads floats for two blocks) and
// n : int @ grid[1], and its threads per block.
func Generate(seed int64) (src string, threads int) {
	g := &progGen{r: rand.New(rand.NewSource(seed))}
	src = g.generate()
	return src, g.T
}

// progGen generates random Prism kernels built from the constructs whose
// typing rules seed 001 states: group by divisors, aligned splits,
// partitions and claims of shared and global memory written at thread[1],
// reads up, uniform conditions and loops, async copies, mma.sync, calls of
// a warp-level function, __syncthreads.
type progGen struct {
	r     *rand.Rand
	b     strings.Builder
	T     int
	n     int // fresh names
	depth int
}

func (g *progGen) line(ind int, format string, args ...any) {
	g.b.WriteString(strings.Repeat("    ", ind))
	fmt.Fprintf(&g.b, format, args...)
	g.b.WriteByte('\n')
}

func (g *progGen) fresh(p string) string {
	g.n++
	return fmt.Sprintf("%s%d", p, g.n)
}

// divisors of n that are at most n.
func divisors(n int) []int {
	var d []int
	for i := 1; i <= n; i++ {
		if n%i == 0 {
			d = append(d, i)
		}
	}
	return d
}

func (g *progGen) generate() string {
	g.T = []int{8, 32, 64}[g.r.Intn(3)]
	T := g.T
	g.line(0, `@prism("device")`)
	g.line(0, `@requires(thread[32])`)
	g.line(0, `def warp_fill(c : ptr(float) @ thread[32], v : float @ thread[32]):`)
	g.line(1, `with group(thread[32]):`)
	g.line(2, `lane : int @ thread[1] = id()`)
	g.line(2, `with partition(c, dimension=thread[1], offset=lane) as c_th:`)
	g.line(3, `with group(thread[1]):`)
	g.line(4, `c_th[0] = v + lane`)
	g.line(1, `return`)
	g.line(0, "")
	g.line(0, `@prism("global")`)
	g.line(0, `@requires(grid[1], block[1], thread[%d], smem=%d)`, T, 2*4*T*4)
	g.line(0, `def k(g : ptr(float) @ grid[1], n : int @ grid[1]):`)
	g.line(1, `with group(grid[1]):`)
	g.line(2, `bid : int @ block[1] = id()`)
	g.line(2, `with partition(g, dimension=block[1], offset=bid * %d) as gb:`, 4*T)
	g.line(3, `with group(block[1]):`)
	g.line(4, `s0 : shared(float[%d]) @ block[1]`, 4*T)
	g.line(4, `s1 : shared(float[%d]) @ block[1]`, 4*T)
	g.line(4, `t : int @ thread[1] = id()`)
	g.line(4, `u : int @ block[1] = n %% 3`)
	k := 3 + g.r.Intn(8)
	for i := 0; i < k; i++ {
		g.blockStmt(4)
	}
	g.line(1, `return`)
	return g.b.String()
}

func (g *progGen) mem() string {
	return []string{"s0", "s1", "gb"}[g.r.Intn(3)]
}

// blockStmt emits one statement at block[1] code.
func (g *progGen) blockStmt(ind int) {
	T := g.T
	g.depth++
	defer func() { g.depth-- }()
	choice := g.r.Intn(11)
	if g.depth > 3 {
		choice = g.r.Intn(3)
	}
	switch choice {
	case 0: // partition to thread[1] and write
		m, v := g.mem(), g.fresh("v")
		g.line(ind, `with partition(%s, dimension=thread[1], offset=t * 4) as %s:`, m, v)
		g.line(ind+1, `with group(thread[1]):`)
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
			g.line(ind+2, `%s[%d] = %s`, v, g.r.Intn(4), val)
		}
	case 1: // read up into a thread variable
		m := g.mem()
		g.line(ind, `%s : float @ thread[1] = %s[(t * %d + %d) %% %d]`, g.fresh("x"), m, 1+g.r.Intn(7), g.r.Intn(4*T), 4*T)
	case 2:
		g.line(ind, `__syncthreads()`)
	case 3: // uniform loop
		i := g.fresh("i")
		g.line(ind, `for %s in range(0, %d, 1):`, i, 1+g.r.Intn(3))
		g.blockStmt(ind + 1)
		g.blockStmt(ind + 1)
	case 4: // uniform condition
		g.line(ind, `if u == %d:`, g.r.Intn(3))
		g.blockStmt(ind + 1)
		g.line(ind, `else:`)
		g.blockStmt(ind + 1)
	case 5: // aligned split of the block's threads
		g.line(ind, `match split(thread):`)
		off := 0
		for off < T {
			var sizes []int
			for _, d := range divisors(T) {
				if off%d == 0 && off+d <= T {
					sizes = append(sizes, d)
				}
			}
			s := sizes[g.r.Intn(len(sizes))]
			g.line(ind+1, `case %d:`, s)
			g.threadStmt(ind+2, s)
			off += s
			if g.r.Intn(4) == 0 {
				break
			}
		}
	case 6: // group into narrower thread groups
		d := divisors(T)
		w := d[g.r.Intn(len(d))]
		g.line(ind, `with group(thread[%d]):`, w)
		g.threadStmt(ind+1, w)
	case 7: // claim for one warp, which calls a warp function
		if T%32 != 0 {
			g.line(ind, `pass`)
			return
		}
		m, c := []string{"s0", "s1"}[g.r.Intn(2)], g.fresh("c")
		g.line(ind, `with claim(%s, p=thread[32], offset=%d) as %s:`, m, 32*g.r.Intn(4*T/32), c)
		g.line(ind+1, `match split(thread):`)
		g.line(ind+2, `case 32:`)
		g.line(ind+3, `warp_fill(%s, %d)`, c, g.r.Intn(9))
	case 8: // async copies from global into a shared partition
		m, v, a := []string{"s0", "s1"}[g.r.Intn(2)], g.fresh("v"), g.fresh("a")
		g.line(ind, `with partition(%s, dimension=thread[1], offset=t * 4) as %s:`, m, v)
		g.line(ind+1, `with group(thread[1]):`)
		g.line(ind+2, `with async(%s) as %s:`, v, a)
		g.line(ind+3, `match split(thread):`)
		g.line(ind+4, `case 1:`)
		g.line(ind+5, `cp.async(%s, gb[((t + %d) %% %d) * 4], 16)`, a, g.r.Intn(T), T)
	case 9: // uniform while
		w := g.fresh("w")
		g.line(ind, `%s : int @ block[1] = 0`, w)
		g.line(ind, `while %s < %d:`, w, 1+g.r.Intn(2))
		g.blockStmt(ind + 1)
		g.line(ind+1, `%s += 1`, w)
	case 10: // mma.sync in every warp
		if T%32 != 0 {
			g.line(ind, `pass`)
			return
		}
		a := g.fresh("a")
		g.line(ind, `with group(thread[32]):`)
		g.line(ind+1, `%s : float[4] @ thread[1]`, a)
		g.line(ind+1, `with group(thread[1]):`)
		g.line(ind+2, `%s[0] = t`, a)
		g.line(ind+1, `intrinsic.mma(%s[0], %s[1], %s[2], %s[3], %s[0], %s[1], %s[0], %s[1], %s[2], %s[3], out=[%s[0], %s[1], %s[2], %s[3]])`,
			a, a, a, a, a, a, a, a, a, a, a, a, a, a)
	}
}

func (g *progGen) value() string {
	switch g.r.Intn(3) {
	case 0:
		return fmt.Sprint(g.r.Intn(10))
	case 1:
		return fmt.Sprintf("t * %d", g.r.Intn(5))
	}
	return fmt.Sprintf("u + t")
}

// threadStmt emits a statement at thread[w] code.
func (g *progGen) threadStmt(ind, w int) {
	switch g.r.Intn(4) {
	case 0:
		g.line(ind, `pass`)
	case 1:
		x := g.fresh("y")
		g.line(ind, `%s : int @ thread[1] = id() * %d`, x, 1+g.r.Intn(3))
		g.line(ind, `with group(thread[1]):`)
		g.line(ind+1, `if %s > %d:`, x, g.r.Intn(8))
		g.line(ind+2, `%s = %s + 1`, x, x)
	case 2:
		if w%32 == 0 {
			a := g.fresh("a")
			g.line(ind, `%s : float[4] @ thread[1]`, a)
			g.line(ind, `with group(thread[32]):`)
			g.line(ind+1, `intrinsic.mma(%s[0], %s[1], %s[2], %s[3], %s[0], %s[1], %s[0], %s[1], %s[2], %s[3], out=[%s[0], %s[1], %s[2], %s[3]])`,
				a, a, a, a, a, a, a, a, a, a, a, a, a, a)
			return
		}
		g.line(ind, `pass`)
	case 3:
		d := divisors(w)
		v := d[g.r.Intn(len(d))]
		g.line(ind, `with group(thread[%d]):`, v)
		g.threadStmt(ind+1, v)
	}
}
