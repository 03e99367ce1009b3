package check

// many stands for "more copies than the checker can count" (the blocks of
// a grid, whose number is only known to be a multiple of the bound's
// block[n]). It is large enough that any alignment or single-collection
// test against it fails, and small enough that sums of a few do not
// overflow.
const many = 1 << 40

// span tracks where the instances of a perspective lie on one level,
// relative to the enclosing unit: threads within a block, blocks within the
// grid. Seed 001 §3.2: "a perspective of size n is aligned to n"; group
// replicates code (Bundl T-Group, S-Group p mod n) and split selects a
// range (T-Split, S-Split p - n1). The instances start at Base plus sums of
// multiples of the replication steps, whose gcd is Step (0: no
// replication); Ext is how far the last instance starts after the first
// (the sum of (copies-1)*step over the groups on the path).
type span struct {
	Base, Step, Ext int
}

func (s span) replicate(copies, step int) span {
	if copies > 1 {
		s.Step = gcd(s.Step, step)
		if copies >= many {
			s.Ext += many
		} else {
			s.Ext += (copies - 1) * step
		}
	}
	return s
}

// place is where the instances of the code perspective lie: Thr in threads
// of a block, Blk in blocks of the grid.
type place struct {
	Thr, Blk span
}

// entryPlace is where a function's instances lie: a kernel runs once per
// grid; a device function is called from an aligned broader perspective
// (§3.6 "accounting for alignment"), so its instances start at multiples of
// its own size.
func entryPlace(fn *Func) place {
	switch fn.Top.Level {
	case Thread:
		return place{Thr: span{Step: fn.Top.N}}
	case Block:
		return place{Blk: span{Step: fn.Top.N}}
	}
	return place{}
}

// count is how many units of level l perspective p holds (many when the
// bound leaves it open).
func count(p Persp, l Level, e env) int {
	switch {
	case p.Level == l:
		return p.N
	case p.Level == Block && l == Thread && e.T > 0:
		return p.N * e.T
	}
	return many
}

// groupPlace is the place of the body of group(p) at e (Bundl T-Group: the
// body runs in size(e.code)/size(p) copies, p apart).
func groupPlace(p Persp, e env) place {
	pl, cur := e.place, e.code
	switch {
	case p.Level == cur.Level && p.Level == Thread:
		pl.Thr = pl.Thr.replicate(cur.N/p.N, p.N)
	case p.Level == cur.Level && p.Level == Block:
		pl.Blk = pl.Blk.replicate(cur.N/p.N, p.N)
	case p.Level == Block: // from the grid
		pl.Blk = pl.Blk.replicate(many, p.N)
	case p.Level == Thread:
		// Every block of the code runs the copies of its own threads.
		if cur.Level == Grid {
			pl.Blk = pl.Blk.replicate(many, 1)
		} else {
			pl.Blk = pl.Blk.replicate(cur.N, 1)
		}
		copies := many
		if e.T > 0 {
			copies = e.T / p.N
		}
		pl.Thr = span{}.replicate(copies, p.N)
	}
	return pl
}

// branchPlace is the place of a split branch that starts off units of
// level into the code instance (Bundl S-Split: a range of the instance).
// A thread split of block code picks a block and a range of its threads.
func branchPlace(level Level, off int, e env) place {
	pl := e.place
	switch {
	case level == Block:
		pl.Blk.Base += off
	case e.code.Level == Thread:
		pl.Thr.Base += off
	case e.T > 0:
		pl.Blk.Base += off / e.T
		pl.Thr = span{Base: off % e.T}
	}
	return pl
}

// misaligned checks the absolute alignment of a split branch of size units
// whose place is s (§3.2 "a perspective of size n is aligned to n", §3.3
// "every branch of the split must also be aligned", Bundl T-Split "n1, n2
// align to n"). The caller makes the relative test (the offset a multiple
// of size); this one catches a branch aligned within a group copy whose
// start is not a multiple of the branch size. It returns a start that is
// not a multiple of size, if there is one.
func misaligned(s span, size int) (int, bool) {
	switch {
	case size <= 0:
		return 0, false
	case s.Base%size != 0:
		return s.Base, true
	case s.Step%size != 0:
		// Base is aligned, so Base + Step (a start of the copies of a
		// replicating group, or a combination of them) is not.
		return s.Base + s.Step, true
	}
	return 0, false
}

// claimSpan reports whether the threads running code at e all lie in one
// aligned collection of claimed perspective p, counted from the place at
// which the claim was opened (§3.4.2: claim gives the pointer "to only one
// collection of threads with that narrower perspective"; Bundl T-Claim runs
// the body at (h, n') once). It returns the first and last unit (of p's
// level, relative to the claim) when they do not; last is many or more when
// the copies span blocks of the grid.
func claimSpan(at place, p Persp, e env) (first, last int, ok bool) {
	size := p.N
	now, then := e.place.Thr, at.Thr
	if p.Level == Block {
		now, then = e.place.Blk, at.Blk
	} else if e.place.Blk != at.Blk {
		return 0, many, false
	}
	n := count(e.code, p.Level, e)
	if n >= many {
		return 0, 0, true // broader code: reported by claimUse
	}
	first = now.Base - then.Base
	ext := now.Ext - then.Ext
	if first < 0 || ext >= many {
		return first, many, false
	}
	last = first + ext + n - 1
	return first, last, first/size == last/size
}

// alignFrame names what a split level's positions are counted from.
func alignFrame(level Level, e env) string {
	if e.fn != nil && e.fn.Top.Level == level {
		return "function instance"
	}
	if level == Block {
		return "grid"
	}
	return "block"
}
