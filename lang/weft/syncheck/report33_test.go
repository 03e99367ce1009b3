package syncheck

import (
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"

	"weft.dev/weft/diag"
	"weft.dev/weft/lang/weft/amir"
	"weft.dev/weft/lang/weft/internal/expect"
)

// TestAppendfMatchesSprintf: appendf gives fmt.Sprintf's text for random
// formats of fixed text, %s of strings and %d of ints (negative, zero,
// large), and the phase argument fmt's "phase %d of ring slot %d".
func TestAppendfMatchesSprintf(t *testing.T) {
	r := rand.New(rand.NewSource(33))
	texts := []string{"", "a", "mbarrier phase aliasing", ": ", " (", "é世", "100", "\n"}
	strs := []string{"", "x", "thread 3 of task [m=1]", "%d", "%s", "%%"}
	for it := range 20000 {
		var format strings.Builder
		var args []arg
		var fargs []any
		for range r.Intn(8) {
			format.WriteString(texts[r.Intn(len(texts))])
			switch r.Intn(3) {
			case 0:
				s := strs[r.Intn(len(strs))]
				format.WriteString("%s")
				args, fargs = append(args, str(s)), append(fargs, s)
			case 1:
				n := r.Intn(2000) - 1000
				if r.Intn(10) == 0 {
					n = int(r.Int63()) - 1<<62
				}
				format.WriteString("%d")
				if r.Intn(2) == 0 {
					args = append(args, num(n))
				} else {
					args = append(args, count(int64(n)))
				}
				fargs = append(fargs, n)
			case 2:
				a, ring := r.Intn(100), 1+r.Intn(6)
				format.WriteString("%s")
				args, fargs = append(args, phase(a, ring)), append(fargs, fmt.Sprintf("phase %d of ring slot %d", a/ring, a%ring))
			}
		}
		want := fmt.Sprintf(format.String(), fargs...)
		pre := []byte("prefix:")
		got := string(appendf(pre, format.String(), args...))
		if got != "prefix:"+want {
			t.Fatalf("case %d: appendf(%q) = %q, want %q", it, format.String(), got, "prefix:"+want)
		}
	}
	// A format whose verbs do not fit its arguments is a bug: it panics.
	for _, c := range []struct {
		format string
		args   []arg
	}{
		{"%s", nil}, {"%d", []arg{str("x")}}, {"%s", []arg{num(1)}}, {"x", []arg{num(1)}}, {"%v", []arg{num(1)}}, {"%", []arg{num(1)}},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("appendf(%q, %v) did not panic", c.format, c.args)
				}
			}()
			appendf(nil, c.format, c.args...)
		}()
	}
}

// reportPrograms converts the device procs of the chunks of testdata
// files with task loops, ring-buffered arrays and mbarriers.
func reportPrograms(t *testing.T) []*Program {
	var out []*Program
	for _, file := range []string{"testdata/across_tasks.weft", "testdata/three_rings_exo.weft", "testdata/mbarrier_ring.weft", "testdata/queues.weft"} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, chunk := range expect.Chunks(string(src)) {
			if strings.TrimSpace(chunk) == "" || !strings.Contains(chunk, "CudaDeviceFunction") {
				continue
			}
			checkSourceProgram(t, file, chunk, func(p *Program) {
				out = append(out, p)
				if len(p.AMIR.Slots) > 1 {
					// The same program as if it had three task
					// slots: the report only reads their names.
					a := *p.AMIR
					a.TaskSlots = append(append([]int(nil), a.TaskSlots...), 0, len(a.Slots)-1, 1)[:3]
					q := *p
					q.AMIR = &a
					out = append(out, &q)
				}
			})
		}
	}
	return out
}

// randHazard makes a hazard of any kind with fields in and out of the
// ranges a machine reports (the report must render each alike).
func randHazard(r *rand.Rand, p *amir.Program) amir.Hazard {
	coords := func() []int {
		if r.Intn(5) == 0 {
			return nil
		}
		c := make([]int, r.Intn(len(p.TaskSlots)+2))
		for i := range c {
			c[i] = r.Intn(40) - 2
		}
		return c
	}
	small := func() int { return r.Intn(60) - 3 }
	h := amir.Hazard{
		Kind:         amir.HazardKind(r.Intn(int(amir.PhaseAlias) + 1)),
		Src:          r.Intn(len(p.Srcs)),
		Other:        r.Intn(len(p.Srcs)+1) - 1,
		Var:          r.Intn(len(p.Vars)),
		Task:         r.Intn(4) - 1,
		Thread:       r.Intn(400),
		Quals:        amir.QualSet(r.Uint32() >> r.Intn(32)),
		OtherTask:    r.Intn(4) - 1,
		OtherStart:   r.Intn(400),
		OtherThreads: 1 + r.Intn(3)*r.Intn(128),
		OtherQ:       amir.Qual(r.Intn(40)),
		OtherLevel:   amir.Level(r.Intn(6)),
		SameThread:   r.Intn(2) == 0,
		Arrives:      small(),
		Awaits:       small(),
		Paired:       small(),
		Phase:        amir.PhaseKind(r.Intn(int(amir.PhaseCarry) + 1)),
		Ring:         1 + r.Intn(6),
		Lag:          r.Intn(5),
		Across:       r.Intn(3) == 0,
		LocalArrive:  small(),
		PrevArrive:   small(),
		Occurrences:  int64(1 + r.Intn(3)*r.Intn(100)),
	}
	if h.Other < 0 && h.Kind != amir.BarrierMismatch && h.Kind != amir.PhaseAlias {
		h.Other = r.Intn(len(p.Srcs)) // only these two kinds may lack the earlier access
	}
	if h.Kind == amir.PhaseAlias && h.Phase == amir.PhaseCarry && r.Intn(2) == 0 {
		h.Paired = 1
	}
	if r.Intn(3) == 0 {
		h.Arrives = 0
	}
	if r.Intn(2) == 0 {
		h.Index = make([]int, 1+r.Intn(3))
		for i := range h.Index {
			h.Index[i] = r.Intn(300)
		}
		h.Block = make([]int, r.Intn(len(h.Index)+2))
		for i := range h.Block {
			h.Block[i] = 1 + r.Intn(3)*r.Intn(64)
		}
	}
	h.TaskCoords, h.OtherTaskCoords = coords(), coords()
	return h
}

// TestReportMatchesFmt: the report built by appending (report.go) gives
// the diagnostics the fmt-based report gave (report_fmt33_test.go), byte
// for byte, on 4 000 random runs over the programs of four testdata
// files: hazards of every kind, PhaseAlias of every requirement with and
// without Across, faults with and without a limit, sizes or none, more
// distinct hazards than shown.
func TestReportMatchesFmt(t *testing.T) {
	progs := reportPrograms(t)
	if len(progs) < 10 {
		t.Fatalf("only %d programs", len(progs))
	}
	r := rand.New(rand.NewSource(1333))
	kinds := map[string]int{}
	for it := range 4000 {
		prog := progs[r.Intn(len(progs))]
		p := prog.AMIR
		res := &amir.Result{}
		for range r.Intn(3) * r.Intn(2) {
			res.Faults = append(res.Faults, amir.Fault{Src: r.Intn(len(p.Srcs)), Msg: fmt.Sprintf("fault %d%%", r.Intn(9)),
				Limit: []string{"", "tasks", "cells", "memory"}[r.Intn(4)]})
		}
		for range r.Intn(6) {
			h := randHazard(r, p)
			if h.Kind == amir.PhaseAlias {
				kinds[fmt.Sprint(h.Kind, h.Phase, h.Across)]++
			} else {
				kinds[h.Kind.String()]++
			}
			res.Hazards = append(res.Hazards, h)
			res.Occurrences += h.Occurrences
		}
		res.Distinct = len(res.Hazards)
		if len(res.Hazards) > 0 && r.Intn(3) == 0 {
			res.Distinct += 1 + r.Intn(20)
			res.Occurrences += int64(r.Intn(1000))
		}
		run := &Run{Proc: p.Name, Result: res}
		if r.Intn(2) == 0 {
			run.Sizes = fmt.Sprintf("N=%d M=%d", r.Intn(999), r.Intn(99))
		}
		var want, got diag.List
		fmtReport(prog, run, &want)
		report(prog, run, &got)
		if len(want.Diags) != len(got.Diags) {
			t.Fatalf("case %d: %d diagnostics, want %d", it, len(got.Diags), len(want.Diags))
		}
		for i, w := range want.Diags {
			g := got.Diags[i]
			if g.Severity != w.Severity || g.Code != w.Code || g.Pos != w.Pos || g.End != w.End || g.Message != w.Message {
				t.Fatalf("case %d, diagnostic %d:\n%v %s %v %q\nwant\n%v %s %v %q", it, i, g.Severity, g.Code, g.Pos, g.Message, w.Severity, w.Code, w.Pos, w.Message)
			}
			if fmt.Sprint(g.Notes) != fmt.Sprint(w.Notes) {
				t.Fatalf("case %d, diagnostic %d: notes\n%q\nwant\n%q", it, i, g.Notes, w.Notes)
			}
		}
	}
	// Every kind, and every requirement of PhaseAlias with and without
	// Across, was rendered: 7 + 9*2.
	if len(kinds) != 25 {
		t.Errorf("%d kinds rendered, want 25: %v", len(kinds), kinds)
	}
}
