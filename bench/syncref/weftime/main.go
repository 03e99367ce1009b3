// Command weftime times `weft check` in-process, the way
// bench/syncref/exo_timing.py times the reference implementation's
// Procedure.sync_check: CPU time of the whole check (parse, static checks,
// sync check) inside a process that is already running, excluding the
// process start. Used by bench/syncref/run.sh (issue 13).
//
// Usage: weftime [-reps N] [-min-cpu D] [-bytes N] [-stat median|mean] [-cpuprofile OUT] [-memprofile OUT] [-gcpolicy=false] FILE.weft [NAME=VALUE ...] [check flags]
//
// Like the weft command, it runs under internal/gcpolicy's GC setting
// (unless GOGC or GOMEMLIMIT is set, or -gcpolicy=false).
//
// It prints one line: the exit status of the first run, the distinct
// codes of the errors it reported (or "accepted"), the first run's CPU
// seconds, the median (-stat mean: the mean) of N further runs, and the
// same statistic of the part after the front end (parse and check.Check)
// of as many runs alternating with those, the part that corresponds to
// the reference's Procedure.sync_check: Exo parses, type checks and bounds
// checks a procedure when @proc defines it, not in sync_check
// (driver.AfterFrontEnd, whose clock reading only these second runs pay).
// -min-cpu counts the CPU time of both kinds of run. -bytes N adds a line
// on stderr: the bytes and objects a check allocates, whole and in scope,
// averaged over N further untimed checks (every allocation sampled).
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"syscall"
	"time"

	"weft.dev/weft/frontend"
	"weft.dev/weft/internal/gcpolicy"
	"weft.dev/weft/lang/weft/driver"
)

// cpu is the process's user plus system CPU time (all threads, as
// Python's time.process_time counts the reference's).
func cpu() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

var codeRe = regexp.MustCompile(`error\[(W\d+)\]`)

func main() {
	reps := flag.Int("reps", 5, "timed runs after the first")
	minCPU := flag.Duration("min-cpu", 0, "keep timing further runs until they add up to this much CPU time (at least -reps of them): the steady state of a process that has run many checks, as the reference's pytest process has")
	prof := flag.String("cpuprofile", "", "write a CPU profile of all runs to this file")
	memprof := flag.String("memprofile", "", "write an allocation profile of all runs to this file")
	stat := flag.String("stat", "median", "the last column: the median of the further runs, or their mean (which counts the collections a median can leave out)")
	bytesN := flag.Int("bytes", 0, "after the timed runs, run this many more checks untimed and print to stderr the bytes and objects each allocates, whole and in sync_check's scope (every allocation sampled; stop 45: a byte allocated costs about 0.14 ns here, a cost instruction counts miss)")
	gcp := flag.Bool("gcpolicy", true, "apply the weft command's GC policy (internal/gcpolicy), as cmd/weft's main does; false: Go's defaults")
	flag.Parse()
	if *gcp {
		gcpolicy.Set()
	}
	if *memprof == "" {
		// The weft command does not link runtime/pprof, so the Go linker
		// turns its allocation sampling off (runtime.disableMemoryProfiling:
		// MemProfileRate is 0 in `weft check`). weftime links pprof for
		// -cpuprofile, which left the runtime's default sampling on (a
		// stack walk every 512 KB allocated, about 4% of Convert on row 5,
		// conv34 in stop 34). Turn it off, so that these runs allocate as
		// the command does (stop 34).
		runtime.MemProfileRate = 0
	}
	if *memprof != "" {
		// Every allocation sampled, so alloc_space is exact for a profile
		// of a loop of small checks.
		runtime.MemProfileRate = 1
		defer func() {
			// The profile is as of the last completed GC: complete one so
			// that it covers every run.
			runtime.GC()
			f, err := os.Create(*memprof)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
			pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}()
	}
	if *prof != "" {
		f, err := os.Create(*prof)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		defer pprof.StopCPUProfile()
	}
	args := flag.Args()
	var backs []time.Duration
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "usage: weftime [-reps N] FILE.weft [NAME=VALUE ...] [flags]")
		os.Exit(2)
	}
	fe := frontend.ForExt(".weft")
	// The check's arguments, built once: the command line a process gets.
	cargs := append([]string{"-q"}, args...)
	// tFE is the CPU time when the front end (parse, check.Check) ended;
	// the rest of the run is the part of a check that corresponds to the
	// reference's Procedure.sync_check (driver.AfterFrontEnd).
	var tFE time.Duration
	hook := func() { tFE = cpu() }
	// run times one check. The whole check is timed without the hook:
	// its getrusage call (0.3-0.5 µs on this VM, more than 0.5% of the
	// smallest rows' checks) is the harness's, not the check's (stop 31).
	// The scope column comes from runs with the hook, which alternate
	// with those.
	run := func(scope bool) (int, string, time.Duration) {
		var out, errb bytes.Buffer
		env := &frontend.Env{Stdout: &out, Stderr: &errb, Stdin: bytes.NewReader(nil)}
		driver.AfterFrontEnd = nil
		if scope {
			driver.AfterFrontEnd = hook
		}
		tFE = -1
		t0 := cpu()
		rc := fe.Check(env, cargs)
		t1 := cpu()
		d := t1 - t0
		if scope {
			if tFE >= 0 {
				backs = append(backs, t1-tFE)
			} else {
				backs = append(backs, 0) // the front end rejected the file
			}
		}
		return rc, errb.String(), d
	}
	rc, msg, first := run(false)
	// The verdict: "accepted", or the distinct codes of the errors
	// reported, sorted.
	verdict := "accepted"
	if rc != 0 {
		seen := map[string]bool{}
		var codes []string
		for _, m := range codeRe.FindAllStringSubmatch(msg, -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				codes = append(codes, m[1])
			}
		}
		sort.Strings(codes)
		verdict = "rejected"
		if len(codes) > 0 {
			verdict = strings.Join(codes, ",")
		}
	}
	var ts []time.Duration
	var total time.Duration
	for i := 0; i < *reps || (total < *minCPU && i < 1_000_000); i++ {
		_, _, d := run(false)
		ts = append(ts, d)
		_, _, ds := run(true)
		total += d + ds
	}
	med := first
	if len(ts) > 0 {
		med = summarize(ts, *stat == "mean")
	}
	back := time.Duration(0)
	if len(backs) > 0 {
		back = summarize(backs, *stat == "mean")
	}
	fmt.Printf("%d\t%s\t%.6f\t%.6f\t%.6f\n", rc, verdict, first.Seconds(), med.Seconds(), back.Seconds())
	if *bytesN > 0 {
		measureBytes(fe, cargs, *bytesN)
	}
	if os.Getenv("WEFTIME_MSG") != "" {
		fmt.Fprint(os.Stderr, msg)
	}
}

// measureBytes runs n checks and prints the bytes and objects each
// allocates on average, by the whole check (driver.checkVerb) and by
// sync_check's scope (driver.runCheckers), as
// "bytes whole W scope S objects whole OW scope OS". It samples every
// allocation (MemProfileRate 1, from here on) and attributes each by its
// stack, as `go tool pprof -sample_index=alloc_space` does on a
// -memprofile. The runtime's allocation counters (runtime/metrics) were
// tried first and give the right total but not the split: they count a
// small object's whole span when the span is handed to the allocating
// thread, so bytes the scope allocates were counted in the front end's
// refill (stop 45: 43 K against the profile's 35 K on row 6).
func measureBytes(fe *frontend.FrontEnd, cargs []string, n int) {
	runtime.MemProfileRate = 1
	check := func() {
		var out, errb bytes.Buffer
		env := &frontend.Env{Stdout: &out, Stderr: &errb, Stdin: bytes.NewReader(nil)}
		fe.Check(env, cargs)
	}
	// One check first: each thread's next sample was drawn under the old
	// rate.
	check()
	before := allocsByPhase()
	for i := 0; i < n; i++ {
		check()
	}
	after := allocsByPhase()
	u := int64(n)
	fmt.Fprintf(os.Stderr, "bytes whole %d scope %d objects whole %d scope %d\n",
		(after[0]-before[0])/u, (after[1]-before[1])/u, (after[2]-before[2])/u, (after[3]-before[3])/u)
}

// allocsByPhase returns the bytes and objects allocated so far by calls
// under driver.checkVerb and under driver.runCheckers: whole bytes, scope
// bytes, whole objects, scope objects.
func allocsByPhase() [4]int64 {
	// The profile is as of the last completed cycle; two make it current
	// (runtime.MemProfile's documentation).
	runtime.GC()
	runtime.GC()
	var recs []runtime.MemProfileRecord
	for {
		k, ok := runtime.MemProfile(recs, true)
		if ok {
			recs = recs[:k]
			break
		}
		recs = make([]runtime.MemProfileRecord, k+64)
	}
	var sum [4]int64
	for i := range recs {
		r := &recs[i]
		whole, scope := false, false
		frames := runtime.CallersFrames(r.Stack())
		for {
			f, more := frames.Next()
			switch {
			case strings.HasSuffix(f.Function, "driver.checkVerb"):
				whole = true
			case strings.HasSuffix(f.Function, "driver.runCheckers"):
				scope = true
			}
			if !more {
				break
			}
		}
		if whole {
			sum[0] += r.AllocBytes
			sum[2] += r.AllocObjects
		}
		if scope {
			sum[1] += r.AllocBytes
			sum[3] += r.AllocObjects
		}
	}
	return sum
}

// summarize returns the median of ts (sorted in place), or their mean.
func summarize(ts []time.Duration, mean bool) time.Duration {
	if mean {
		var sum time.Duration
		for _, t := range ts {
			sum += t
		}
		return sum / time.Duration(len(ts))
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	return ts[len(ts)/2]
}
