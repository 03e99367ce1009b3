package amir

import "testing"

// TestPerThreadQueue: two warps each write their row of data and arrive on
// one commit-group cell, interleaved over three iterations; warp 0 then
// awaits with n and its threads read (another lane's) row element written
// at iteration readIter. With the seed's shared queue, warp 1's arrives
// count towards warp 0's wait_group; with per-thread queues (commit groups,
// issue 4) only warp 0's own do.
func TestPerThreadQueue(t *testing.T) {
	build := func(perThread bool, n, readIter int, check bool) *Program {
		b := newBuilder(64)
		task, j, w, lane := b.slot("task"), b.slot("j"), b.slot("w"), b.slot("lane")
		data := b.newVar("data", false, 2, 3, 32)
		cg := b.newVar("cg", true)
		b.p.Vars[cg].PerThreadQueue = perThread
		b.loop(task, 0, 1, true, func() {
			b.loop(j, 0, 3, false, func() {
				b.loop(w, 0, 2, false, func() {
					b.loop(lane, 0, 32, false, func() {
						th := Exec{Shape: shThread, Start: func(env []int) int { return 32*env[w] + env[lane] }}
						b.write(th, at(data, v(w), v(j), v(lane)), qCuda2, FullyOrdered)
					})
					b.arrive(warp(w), cudaInOrder, at(cg))
				})
			})
			b.await(warp(task), at(cg), cudaInOrder, n) // task = 0: warp 0
			b.loop(lane, 0, 32, false, func() {
				b.read(thread(lane), at(data, k(0), k(readIter), func(env []int) int { return 31 - env[lane] }), qCuda2)
			})
			if check {
				b.add(&Stmt{Kind: KCheckBarrier, Acc: at(cg)})
			}
		})
		return b.build()
	}
	cases := []struct {
		perThread   bool
		n, readIter int
		ok          bool
	}{
		{false, 2, 1, true}, // shared: Max = 6 - 3 covers warp 0's arrive 2 (iteration 1)
		{true, 2, 1, false}, // per-thread: Max = 3 - 3 covers iteration 0 only
		{true, 2, 0, true},
		{true, 1, 1, true},
		{true, 1, 2, false},
		{true, 0, 2, true},
	}
	for _, c := range cases {
		r := run(t, build(c.perThread, c.n, c.readIter, false))
		if r.OK() != c.ok || (!c.ok && kinds(r) != "read-after-write") {
			t.Errorf("perThread=%v n=%d read=%d: ok=%v (%s)", c.perThread, c.n, c.readIter, r.OK(), kinds(r))
		}
	}
	// CheckBarrier inspects every collective's queue: warp 0 awaited all
	// its 3 arrives, warp 1 none of its 3.
	r := run(t, build(true, 0, 2, true))
	if got := kinds(r); got != "arrive/await count mismatch" || r.Hazards[0].Arrives != 3 || r.Hazards[0].Awaits != 0 {
		t.Errorf("CheckBarrier: %q %+v", got, r.Hazards)
	}
	if r := run(t, build(false, 0, 2, true)); !r.OK() {
		t.Errorf("CheckBarrier, shared queue: %s", kinds(r))
	}
}

// TestAwaitBeforeArrive: an Await with n < 0 whose paired arrive comes
// later in program order is reported, once per statement with a count;
// the first lag awaits (Max < 0) and awaits of past arrives are not.
func TestAwaitBeforeArrive(t *testing.T) {
	build := func(arrives, lag, awaits int) *Program {
		b := newBuilder(64)
		task, j := b.slot("task"), b.slot("j")
		bar := b.newVar("bar", true)
		b.loop(task, 0, 1, true, func() {
			b.loop(j, 0, arrives, false, func() {
				b.arrive(warp(task), cudaInOrder, at(bar))
			})
			b.loop(j, 0, awaits, false, func() {
				b.await(Exec{Shape: shWarp, Start: k(32)}, at(bar), cudaInOrder, ^lag)
			})
		})
		return b.build()
	}
	cases := []struct {
		arrives, lag, awaits int
		early                int // awaits reported
	}{
		{2, 0, 2, 0},
		{2, 0, 3, 1}, // the third await pairs with arrive 2
		{1, 0, 4, 3},
		{2, 1, 3, 0}, // lag 1: awaits pair with -1, 0, 1
		{2, 1, 4, 1},
		{0, 2, 2, 0}, // both are the lag's no-ops
	}
	for _, c := range cases {
		r := run(t, build(c.arrives, c.lag, c.awaits))
		got := 0
		if r.Distinct > 0 {
			if kinds(r) != "await before its arrive" {
				t.Errorf("%+v: %s", c, kinds(r))
				continue
			}
			h := r.Hazards[0]
			got = int(h.Occurrences)
			if h.Arrives != c.arrives || h.Paired != h.Awaits-c.lag || h.Paired < c.arrives {
				t.Errorf("%+v: hazard %+v", c, h)
			}
		}
		if got != c.early {
			t.Errorf("%+v: %d awaits reported, want %d", c, got, c.early)
		}
	}
}
