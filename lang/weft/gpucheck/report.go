package gpucheck

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"weft.dev/weft/lang/weft/coll"
	"weft.dev/weft/lang/weft/syntax"
)

// maxShown is how many iterations of a loop the text report lists before
// eliding the middle.
const maxShown = 4

// stmtText is the first source line of st, trimmed.
func stmtText(st syntax.Stmt) string {
	p := st.Pos()
	if p.File == nil {
		return ""
	}
	line := strings.TrimSpace(p.File.Line(p.Line()))
	if i := strings.Index(line, "  #"); i >= 0 {
		line = strings.TrimSpace(line[:i])
	}
	if len(line) > 72 {
		line = line[:69] + "..."
	}
	return line
}

func (d *Device) describe() string {
	fn := d.Fn
	s := fmt.Sprintf("blockDim=%d", fn.BlockDim)
	if fn.ClusterDim > 1 {
		s += fmt.Sprintf(", clusterDim=%d", fn.ClusterDim)
	}
	if fn.Warps != nil {
		var ws []string
		for _, w := range fn.Warps {
			lo, hi, _ := fn.WarpRange(w.Name)
			ws = append(ws, fmt.Sprintf("%s: warps [%d, %d)", w.Name, lo, hi))
		}
		s += " (warp_config " + strings.Join(ws, ", ") + ")"
	}
	return s
}

// deviceOf returns the device function a statement belongs to.
func (r *Result) deviceStmts(d *Device) []syntax.Stmt {
	var out []syntax.Stmt
	for i, st := range r.Stmts {
		sc := r.StmtScopes[i]
		if sc == nil || sc.Device != d {
			continue
		}
		if f, ok := st.(*syntax.For); sc.Tiling != nil || ok && f.Mode.Name == "cuda_tasks" {
			out = append(out, st)
		}
	}
	return out
}

// WriteThreads prints, for every statement in device code, its collective
// (seed 000 §4: the thread collective executing one instance), the
// collective tiling, and the concrete threads: for a cuda_threads loop the
// threads of each iteration (outer iterators at 0), for other statements
// the threads of the instance with every iterator at 0.
func (r *Result) WriteThreads(w io.Writer) {
	for _, d := range r.Devices {
		p := d.Stmt.Pos()
		fmt.Fprintf(w, "%s: CudaDeviceFunction %s; top-level collective: %s\n", p, d.describe(), d.Top.Describe())
		env := make([]int, len(d.Iters))
		var cur int
		for _, st := range r.deviceStmts(d) {
			sc := r.ScopeAt(st, &cur)
			pos := fmt.Sprintf("%d:%d", st.Pos().Line(), st.Pos().Col())
			tl := ""
			if sc.TL != "cuda_in_order" {
				// Statements of an async block run on its timeline.
				tl = "  [" + sc.TL + "]"
			}
			fmt.Fprintf(w, "  %-7s %s%s\n", pos, stmtText(st), tl)
			if f, ok := st.(*syntax.For); ok && f.Mode.Name == "cuda_tasks" {
				// Seed 000 §3.4: tasks go round-robin to the top-level
				// collectives (a persistent kernel).
				fmt.Fprintf(w, "          each task runs on one top-level collective (%s), round-robin\n", d.Top.Describe())
				continue
			}
			body := r.Body(st)
			if body == nil {
				fmt.Fprintf(w, "          %s  tiling %s  threads %s\n", sc.Tiling.Describe(), d.tiling(sc.Tiling), innermost(sc.Tiling, d, env))
				continue
			}
			var it *Iter
			for _, x := range d.Iters {
				if x.Loop == st {
					it = x
				}
			}
			if it == nil {
				fmt.Fprintf(w, "          %s -> %s  tiling %s  threads %s\n", sc.Tiling.Describe(), body.Describe(), d.tiling(body), innermost(body, d, env))
				continue
			}
			fmt.Fprintf(w, "          %s -> %d x %s (unit %s, %d -> %d tile threads)  tiling %s\n", sc.Tiling.Describe(), it.Count, body.Describe(), it.Unit, it.Parent.TileThreads, it.Body.TileThreads, d.tiling(body))
			var parts []string
			for k := 0; k < it.Count; k++ {
				if it.Count > maxShown+1 && k == maxShown-1 {
					parts = append(parts, "...")
					k = it.Count - 1
				}
				env[it.ID] = k
				c := body.Collective(env)
				parts = append(parts, fmt.Sprintf("%s=%d: %s", it.Name, k, c.String()))
			}
			env[it.ID] = 0
			fmt.Fprintf(w, "          %s\n", strings.Join(parts, "  "))
		}
	}
}

// tiling prints t with the iterators' names in its start (`16*m`, not
// coll's `16*i0`).
func (d *Device) tiling(t *coll.Tiling) string {
	return iterRef.ReplaceAllStringFunc(t.String(), func(m string) string {
		sub := iterRef.FindStringSubmatch(m)
		id, err := strconv.Atoi(sub[2])
		if err != nil || id >= len(d.Iters) {
			return m
		}
		return sub[1] + "*" + d.Iters[id].Name
	})
}

// innermost prints the threads of t's collective for each value of its
// innermost cuda_threads iterator (outer ones at 0), or the one collective
// when no iterator is in scope.
func innermost(t *coll.Tiling, d *Device, env []int) string {
	if len(t.Base.Terms) == 0 {
		c := t.Collective(env)
		return c.String()
	}
	it := d.Iters[t.Base.Terms[len(t.Base.Terms)-1].Iter]
	var parts []string
	for k := 0; k < it.Count; k++ {
		if it.Count > maxShown+1 && k == maxShown-1 {
			parts = append(parts, "...")
			k = it.Count - 1
		}
		env[it.ID] = k
		c := t.Collective(env)
		parts = append(parts, fmt.Sprintf("%s=%d: %s", it.Name, k, c.String()))
	}
	env[it.ID] = 0
	return strings.Join(parts, "  ")
}

// palette colours iterations (one colour per iteration, repeating).
var palette = []string{"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac", "#8cd17d", "#86bcb6"}

// WriteThreadsSVG draws the thread mapping like the guide's figures: per
// device function, the cluster's threads as a column (natural thread
// index downwards), then one column per cuda_threads loop or CudaWarps
// block in source order, each thread coloured by the iteration that runs
// it (over every value of the enclosing iterators); idle threads are
// white.
func (r *Result) WriteThreadsSVG(w io.Writer) {
	const colW, gap, left, top = 110, 16, 70, 54
	type column struct {
		title, sub string
		color      []int // per thread: iteration, -1 idle
	}
	var blocks [][]column
	var heights []int
	maxCols := 1
	for _, d := range r.Devices {
		n := d.Top.M.Threads()
		all := make([]int, n)
		for x := range all {
			all[x] = x / d.Top.M.BlockDim // the CTA of each thread
		}
		cols := []column{{title: "CudaDeviceFunction", sub: d.Top.Describe(), color: all}}
		for _, st := range r.deviceStmts(d) {
			body := r.Body(st)
			if body == nil {
				continue
			}
			var it *Iter
			for _, x := range d.Iters {
				if x.Loop == st {
					it = x
				}
			}
			col := column{color: make([]int, n)}
			for i := range col.color {
				col.color[i] = -1
			}
			title := fmt.Sprintf("%d: ", st.Pos().Line())
			if it != nil {
				title += "for " + it.Name
				col.sub = fmt.Sprintf("%d x %s", it.Count, it.Unit)
			} else {
				title += "CudaWarps"
				col.sub = body.Describe()
			}
			col.title = title
			paint(body, it, len(d.Iters), col.color)
			cols = append(cols, col)
		}
		blocks = append(blocks, cols)
		if len(cols) > maxCols {
			maxCols = len(cols)
		}
		h := n
		for h < 256 {
			h *= 2
		}
		if h > 1024 {
			h = 1024
		}
		heights = append(heights, h)
	}
	width := left + maxCols*(colW+gap) + gap
	height := 10
	for i := range blocks {
		height += top + heights[i] + 30
	}
	fmt.Fprintf(w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">`+"\n", width, height)
	fmt.Fprintf(w, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	y0 := 10
	for bi, cols := range blocks {
		d := r.Devices[bi]
		n := d.Top.M.Threads()
		h := heights[bi]
		scale := float64(h) / float64(n)
		fmt.Fprintf(w, `<text x="4" y="%d" font-weight="bold">%s: CudaDeviceFunction %s</text>`+"\n", y0+12, xmlEscape(d.Stmt.Pos().String()), xmlEscape(d.describe()))
		for ci, col := range cols {
			x := left + ci*(colW+gap)
			fmt.Fprintf(w, `<text x="%d" y="%d">%s</text>`+"\n", x, y0+30, xmlEscape(col.title))
			fmt.Fprintf(w, `<text x="%d" y="%d" fill="#555">%s</text>`+"\n", x, y0+44, xmlEscape(col.sub))
			for i := 0; i < n; {
				j := i
				for j < n && col.color[j] == col.color[i] {
					j++
				}
				fill := "#ffffff"
				if ci == 0 {
					fill = []string{"#f5e6a3", "#eed27a"}[col.color[i]%2]
				} else if col.color[i] >= 0 {
					fill = palette[col.color[i]%len(palette)]
				}
				ya := float64(y0+top) + float64(i)*scale
				stroke := ` stroke="#333" stroke-width="0.3"`
				hgt := float64(j-i) * scale
				if hgt < 3 {
					stroke = "" // thin rows: an outline would hide the colour
				}
				if hgt < 2 && ci > 0 && col.color[i] >= 0 && (j == n || col.color[j] < 0) && (i == 0 || col.color[i-1] < 0) {
					hgt = 2 // a lone thread among idle ones stays visible
				}
				fmt.Fprintf(w, `<rect x="%d" y="%.2f" width="%d" height="%.2f" fill="%s"%s><title>threads [%d, %d]%s</title></rect>`+"\n",
					x, ya, colW, hgt, fill, stroke, i, j-1, iterTitle(col.color[i], ci))
				if ci == 0 {
					fmt.Fprintf(w, `<text x="%d" y="%.2f" text-anchor="middle">CTA %d</text>`+"\n", x+colW/2, ya+float64(j-i)*scale/2+4, col.color[i])
				}
				i = j
			}
		}
		// Thread index ticks: every warp, labelled every 128 threads (or
		// every warp when the CTA is small).
		step := 128
		if n <= 128 {
			step = 32
		}
		for t := 0; t <= n; t += 32 {
			y := float64(y0+top) + float64(t)*scale
			fmt.Fprintf(w, `<line x1="%d" y1="%.2f" x2="%d" y2="%.2f" stroke="#999" stroke-width="0.5"/>`+"\n", left-6, y, left, y)
			if t%step == 0 {
				fmt.Fprintf(w, `<text x="%d" y="%.2f" text-anchor="end">%d</text>`+"\n", left-8, y+4, t)
			}
		}
		y0 += top + h + 30
	}
	fmt.Fprintln(w, "</svg>")
}

func iterTitle(k, col int) string {
	if col == 0 {
		return fmt.Sprintf(" CTA %d", k)
	}
	if k < 0 {
		return " idle"
	}
	return fmt.Sprintf(" iteration %d", k)
}

// paint sets color[x] to the iteration of it (0 for a CudaWarps block)
// whose collective contains thread x, over every value of the enclosing
// iterators.
func paint(t *coll.Tiling, it *Iter, nIters int, color []int) {
	env := make([]int, nIters)
	terms := t.Base.Terms
	idx := make([]int, len(terms))
	for steps := 0; steps < 1<<16; steps++ {
		for i, term := range terms {
			env[term.Iter] = idx[i]
		}
		c := t.Collective(env)
		k := 0
		if it != nil {
			k = env[it.ID]
		}
		for _, x := range c.AppendThreads(nil) {
			if x >= 0 && x < len(color) {
				color[x] = k
			}
		}
		i := len(terms) - 1
		for ; i >= 0; i-- {
			idx[i]++
			if idx[i] < terms[i].Count {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return
		}
	}
}

func xmlEscape(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	return r.Replace(s)
}
